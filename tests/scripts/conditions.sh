#!/usr/bin/env bash
# What the log says about the boundary and initial conditions, as users run cases: each
# condition echoed once (on 1 and 3 ranks) with its peak and, for a base acceleration, the
# ground's velocity and displacement at the end (hand values); a record shorter than the run stops
# accelerating the base at its last point (the base's probe moves on at the final velocity); the
# warnings for an amplitude that ends before the run, for a record in ms against a run in s (and
# none for a ramp-and-hold table reaching far past the run), and no "less than dt" warning when dt
# is the record's own sampling step; the initial kinetic energy and momentum (hand values).
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

# A record A(t) = t for t in [0, 1] s, sampled every 0.01 s and cut off at 1 (its last sample is
# not zero), times 2 m/s^2, under a run of 2 s at dt 0.01. By hand: peak 2 m/s^2 at t = 1 s; the
# base's velocity 2 * 1/2 = 1 m/s from t = 1 on and its displacement at 2 s 2 * (1/6 + 1/2) =
# 1.33333 m (holding the last sample would give 3 m/s and 2.33333 m).
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
with open(f"{work}/record.csv", "w") as f:
    f.write("time,acceleration\n")
    for i in range(101):
        f.write(f"{0.01 * i:.2f},{0.01 * i:.2f}\n")
with open(f"{work}/record_ms.csv", "w") as f:  # the same record with its times in ms
    for i in range(101):
        f.write(f"{10 * i},{0.01 * i:.2f}\n")
PY
cat >"$work/short.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 1.0], cells: [1, 1, 4], element: hex8}}
materials:
  - {region: all, density: 2500, youngs_modulus: 1.0e8, poissons_ratio: 0.2}
boundary_conditions:
  - {region: zmin, type: fixed, components: [y, z]}
  - {region: zmin, type: acceleration, components: [x], value: [2.0], amplitude: record}
  - {region: zmax, type: traction, value: [0, 0, -1000], amplitude: rise}
amplitudes:
  record: {type: table, file: record.csv}
  rise: {type: smooth_step, points: [[0, 0], [0.5, 1]]}
time: {integrator: newmark, dt: 0.01, end_time: 2.0}
output:
  directory: out
  every: 0
  probes: [{name: base, point: [0, 0, 0]}]
YAML
for np in 1 3; do
  mkdir -p "$work/np$np" && cp "$work/short.yaml" "$work/record.csv" "$work/np$np/"
  (cd "$work/np$np" && mpi "$np" "$INERTIA" short.yaml >log 2>&1) || fail "np $np: $(tail -1 "$work/np$np/log")"
  log="$work/np$np/log"
  once "$log" "condition boundary_conditions[0]: fixed region zmin (y, z)"
  once "$log" "condition boundary_conditions[1]: acceleration of region zmin (x) = 2 x record(t); peak 2 m/s^2 at t = 1 s; at the end (t = 2 s) the ground moves at 1 m/s and has moved 1.33333 m (an uncorrected record drifts)"
  once "$log" "condition boundary_conditions[2]: traction on region zmax = (0, 0, -1000) x rise(t); peak 1000 Pa at t = 0.5 s"
  once "$log" "warning   amplitude 'record' (table of 101 points from record.csv) ends at t = 1 s, before the run's end 2 s: as the acceleration of condition boundary_conditions[1] (region zmin) it is zero after 1 s (the ground moves on at its final velocity)"
  once "$log" "warning   amplitude 'rise' (smooth step of 2 points) ends at t = 0.5 s, before the run's end 2 s: as the traction of condition boundary_conditions[2] (region zmax) it holds its last value 1"
  once "$log" "initial   kinetic energy 0 J, momentum (0, 0, 0) kg m/s"
  # dt is the record's sampling step: no warning that it changes within less than dt.
  if grep -q "less than dt" "$log"; then fail "np $np: $(grep 'less than dt' "$log")"; fi
  # No span warning: the record spans half the run.
  if grep -q " spans " "$log"; then fail "np $np: $(grep ' spans ' "$log")"; fi
done
# The base follows the integrated record: 1 m/s and 1.33333 m at t = 2 (to 1e-9: the constraint
# sets them from the exact integrals); at t = 1.5, 1/6 + 0.5 * 0.5 = 0.416667 times 2.
python3 - "$work/np3/out/probes.csv" <<'PY' || failed=1
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
head, data = rows[0], [[float(x) for x in r] for r in rows[1:]]
t, ux, vx = head.index("time"), head.index("base.ux"), head.index("base.vx")
last = data[-1]
mid = next(r for r in data if abs(r[t] - 1.5) < 1e-9)
assert abs(last[t] - 2) < 1e-12, last
assert abs(last[vx] - 1.0) < 1e-9, ("final velocity", last[vx])
assert abs(last[ux] - 4 / 3) < 1e-9, ("final displacement", last[ux])
assert abs(mid[ux] - 2 * (1 / 6 + 0.25)) < 1e-9, ("displacement at 1.5 s", mid[ux])
print(f"short record: base at t = 2 s moves at {last[vx]:.9f} m/s (hand 1), has moved "
      f"{last[ux]:.9f} m (hand 1.333333333)")
PY

# The same record with its times in ms under a run in s: the span warning (and no other run
# than the first 2 "s" of 1000).
sed -e 's/record.csv/record_ms.csv/' "$work/short.yaml" >"$work/ms.yaml"
(cd "$work" && mpi 2 "$INERTIA" --check ms.yaml >ms.log 2>&1) || fail "ms: $(tail -1 "$work/ms.log")"
once "$work/ms.log" "warning   amplitude 'record' (table of 101 points from record_ms.csv) spans 1000 s, 500x the run's 2 s, of which the run sees the first 0.2 %"
# and a run in ms of a record in s: ends early and spans 1/1000 of it.
sed -e 's/end_time: 2.0/end_time: 1000.0/' -e 's/dt: 0.01/dt: 1.0/' "$work/short.yaml" >"$work/long.yaml"
(cd "$work" && mpi 2 "$INERTIA" --check long.yaml >long.log 2>&1) || fail "long: $(tail -1 "$work/long.log")"
once "$work/long.log" "warning   amplitude 'record' (table of 101 points from record.csv) spans 1 s, 1/1000 of the run's 1000 s"

# Initial conditions: a free 1 m cube of 1000 kg at v = (1, 0, -2) m/s: kinetic energy
# 1/2 1000 (1 + 4) = 2500 J, momentum (1000, 0, -2000) kg m/s (consistent mass: its rows sum to
# the nodes' masses); with gravity echoed (constant), and a force ramped and held by a table of
# three points reaching far past the run (no span warning: not a record).
cat >"$work/free.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [3, 2, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmax, type: force, value: [10, 0, 0], amplitude: hold}
amplitudes:
  hold: {type: table, points: [[0, 0], [0.001, 1], [100, 1]]}
gravity: [0, 0, -9.81]
initial_conditions: {velocity: [1, 0, -2]}
time: {integrator: central_difference, dt: 0.001, steps: 2}
output: {directory: out, every: 0}
YAML
for np in 1 3; do
  mkdir -p "$work/free$np" && cp "$work/free.yaml" "$work/free$np/"
  (cd "$work/free$np" && mpi "$np" "$INERTIA" free.yaml >log 2>&1) || fail "free np $np: $(tail -1 "$work/free$np/log")"
  once "$work/free$np/log" "initial   kinetic energy 2500 J, momentum (1000, "
  once "$work/free$np/log" "condition gravity: (0, 0, -9.81) (constant)"
  once "$work/free$np/log" "condition boundary_conditions[0]: force on region xmax = (10, 0, 0) in total x hold(t); peak 10 N at t = 0.001 s"
  if grep -q "warning   amplitude" "$work/free$np/log"; then
    fail "free np $np: $(grep 'warning   amplitude' "$work/free$np/log")"
  fi
  grep -q "momentum (1000, [-0-9.e]*, -2000) kg m/s" "$work/free$np/log" ||
    fail "free np $np: $(grep '^initial' "$work/free$np/log")"
done
# The same record saved by a Windows editor: a UTF-8 byte-order mark and no header. The mark is
# skipped (it made the first row a header, so the record lost its first point) and the log says
# what was read; the probes equal the plain file's, at 2 ranks (rank 0 reads, the others receive).
mkdir -p "$work/bom/plain" "$work/bom/marked"
cp "$work/short.yaml" "$work/record.csv" "$work/bom/plain/"
cp "$work/short.yaml" "$work/bom/marked/"
{ printf '\xef\xbb\xbf'; tail -n +2 "$work/record.csv"; } >"$work/bom/marked/record.csv"
for v in plain marked; do
  (cd "$work/bom/$v" && mpi 2 "$INERTIA" short.yaml >log 2>&1) || fail "bom $v: $(tail -1 "$work/bom/$v/log")"
done
once "$work/bom/plain/log" "amplitude record: record.csv, 101 rows, t = 0 to 1 s; line 1 skipped as a header: 'time,acceleration'"
once "$work/bom/marked/log" "amplitude record: record.csv, 101 rows, t = 0 to 1 s; a UTF-8 byte-order mark skipped"
cmp -s "$work/bom/plain/out/probes.csv" "$work/bom/marked/out/probes.csv" ||
  fail "np 2: the record with a byte-order mark gives other probes than the plain one"

finish
