#!/usr/bin/env bash
# Checkpoint/restart for every scheme (on 2 ranks and from 2 ranks to 3; on 1 rank for one scheme
# of each family): a run restarted from its step-10 checkpoint rewrites the same probes.csv,
# energy.csv and .pvd as the uninterrupted run (to 1e-12 of each file's largest value on the same
# rank count, 1e-8 when a 2-rank checkpoint continues on 3 ranks), without duplicate or missing
# rows. Then a run killed with SIGKILL restarts from the newest complete checkpoint, and bad
# restarts fail with one line.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

compare() {  # compare DIR_A DIR_B TOLERANCE LABEL
  python3 - "$@" <<'PY'
import csv, re, sys
a, b, tol, label = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
def rows(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith('#')]
    r = list(csv.reader(lines))
    return r[0], [[float(x) for x in row] for row in r[1:]]
worst = 0.0
for name in ("probes.csv", "energy.csv"):
    ha, ra = rows(f"{a}/{name}")
    hb, rb = rows(f"{b}/{name}")
    assert ha == hb, (label, name, ha, hb)
    steps = [int(r[0]) for r in rb]
    assert steps == list(range(len(steps))), (label, name, "steps not 0..N without gaps", steps)
    assert len(ra) == len(rb), (label, name, len(ra), len(rb))
    scale = max(abs(x) for r in ra for x in r[2:]) or 1.0
    err = max(abs(x - y) for p, q in zip(ra, rb) for x, y in zip(p[1:], q[1:])) / scale
    worst = max(worst, err)
    assert err <= tol, f"{label}: {name} differs by {err:.3e} (relative to {scale:.3e}) > {tol}"
pa = re.findall(r'timestep="([^"]*)"[^>]*file="([^"]*)"', open(f"{a}/case.pvd").read())
pb = re.findall(r'timestep="([^"]*)"[^>]*file="([^"]*)"', open(f"{b}/case.pvd").read())
assert pa == pb and len(pa) == 6, (label, pa, pb)
print(f"{label}: restarted == uninterrupted to {worst:.2e} (tolerance {tol:g})")
PY
}

case_file() {  # case_file DIR INTEGRATOR_YAML [MODEL [SUPPORT]]
  local model=${3:-linear_elastic} support=${4:-"{region: xmin, type: fixed}"}
  cat > "$1/case.yaml" <<EOF
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [8, 2, 2], element: hex8}
materials:
  - {region: all, model: $model, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - $support
  - {region: xmax, type: traction, value: [0, 0, -2000], amplitude: ramp}
amplitudes:
  ramp: {type: table, points: [[0, 0], [0.002, 1], [1, 1]]}
  shake: {type: sine, frequency: 200}
time:
$2
  dt: 1.0e-4
  steps: 20
  allow_unstable: true
output:
  directory: .
  every: 4
  fields: [displacement, velocity]
  probes: [{name: tip, point: [1, 0.1, 0.1]}, {name: mid, point: [0.5, 0.2, 0.2]}]
  checkpoint: {every: 5, keep: 3}
EOF
}

schemes=(
  "euler_explicit|  integrator: euler_explicit\n  mass: lumped"
  "symplectic_euler|  integrator: symplectic_euler\n  mass: consistent\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "central_difference|  integrator: central_difference\n  mass: lumped\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "central_difference_consistent|  integrator: central_difference\n  mass: consistent"
  "rk2|  integrator: rk2\n  mass: lumped"
  "heun|  integrator: heun\n  mass: lumped"
  "rk4|  integrator: rk4\n  mass: consistent\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "euler_implicit|  integrator: euler_implicit"
  "euler_implicit_trapezoidal|  integrator: euler_implicit\n  euler_implicit: {trapezoidal: true}\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "euler_implicit_newton|  integrator: euler_implicit\n  euler_implicit: {newton: true}"
  "newmark|  integrator: newmark\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "newmark_neo_hookean|  integrator: newmark|neo_hookean"
  "newmark_shaken_base|  integrator: newmark\n  mass: consistent|linear_elastic|{region: xmin, type: displacement, components: [x, y, z], value: [0, 0.001, 0], amplitude: shake}"
  "hht|  integrator: hht\n  hht: {alpha: -0.1}\n  mass: consistent\n  rayleigh: {mass: 2, stiffness: 1.0e-5}"
  "hht_neo_hookean|  integrator: hht\n  rayleigh: {mass: 2, stiffness: 1.0e-5}|neo_hookean"
  "generalized_alpha|  integrator: generalized_alpha\n  generalized_alpha: {rho_infinity: 0.8}\n  mass: lumped"
  "generalized_alpha_neo_hookean|  integrator: generalized_alpha\n  generalized_alpha: {rho_infinity: 0.5}|neo_hookean"
  "variational_implicit|  integrator: variational_symplectic"
  "variational_explicit|  integrator: variational_symplectic\n  variational_symplectic: {explicit: true}\n  mass: lumped"
  "static|  integrator: static"
  # Modes first, Rayleigh from two of them: a restart computes the modes again (same damping).
  "hht_modal_rayleigh|  integrator: hht\n  mass: consistent\n  rayleigh: {damping_ratios: [0.05, 0.02], modes: [1, 3]}|||modal: {modes: 4}"
)
# On 1 rank for a few schemes (one of each family: the serial path of the checkpoint is the
# same for all); every scheme on 2 ranks and from 2 ranks to 3.
serial=" central_difference newmark_neo_hookean generalized_alpha static hht_modal_rayleigh rk4 "
for entry in "${schemes[@]}"; do
  IFS='|' read -r label yaml model support extra <<< "$entry"
  ranks="2"
  [[ "$serial" == *" $label "* ]] && ranks="1 2"
  for np in $ranks; do
    d="$work/$label/np$np"
    mkdir -p "$d/full" "$d/restarted"
    case_file "$d/full" "$(printf '%b' "$yaml")" "${model:-linear_elastic}" "${support:-}"
    [ -z "${extra:-}" ] || echo "$extra" >> "$d/full/case.yaml"
    cp "$d/full/case.yaml" "$d/restarted/case.yaml"
    run "$np" "$d/full/case.yaml"
    # The interrupted run: the same case, restarted from its step-10 checkpoint (its later
    # rows and VTK steps are dropped and computed again).
    cp -r "$d/full/." "$d/restarted/"
    rm "$d/restarted/checkpoints/checkpoint_000000015.h5" "$d/restarted/checkpoints/checkpoint_000000020.h5"
    run "$np" "$d/restarted/case.yaml" --restart "$d/restarted/checkpoints"
    grep -q "restart   from .*checkpoint_000000010.h5: step 10" "$work/last.log"
    compare "$d/full" "$d/restarted" 1e-12 "$label np$np"
    if [ -n "${extra:-}" ]; then  # the same modes and the same damping, before and after
      # The modes are computed again on restart: at np > 1 they agree to round-off only (MUMPS's
      # parallel factorisation); the damping comes from the checkpoint, so the steps above
      # repeat exactly.
      python3 - "$d/full/modes.csv" "$d/restarted/modes.csv" <<'PY'
import csv, sys
heads = [list(csv.reader(open(p)))[0] for p in sys.argv[1:]]
a, b = ([[float(x) for x in r] for r in list(csv.reader(open(p)))[1:]] for p in sys.argv[1:])
# 4 asked; the square section's 4th mode has a twin, which completes the cluster (modal.hpp).
assert len(a) == len(b) == 5, (len(a), len(b))
assert heads[0] == heads[1], heads
head = heads[0]
# Per mode: what does not depend on the basis of a repeated frequency's modes.
for name in ("frequency", "omega", "generalized_mass"):
    c = head.index(name)
    worst = max(abs(p[c] - q[c]) for p, q in zip(a, b)) / max(abs(r[c]) for r in a)
    assert worst <= 1e-10, f"modes.csv {name} differs by {worst:.3e}"
# Twins (modes 1 and 2, 4 and 5 of the square section) may come back as another basis of their
# plane: their participation factors rotate, and a direction they do not excite holds round-off
# (1e-15) in any basis. Their effective masses summed over each cluster do not depend on the
# basis: those are compared, against the largest effective mass.
clusters, start = [], 0
for k in range(1, len(a) + 1):
    if k == len(a) or abs(a[k][1] - a[start][1]) > 1e-8 * a[start][1]:
        clusters.append(range(start, k))
        start = k
assert [len(c) for c in clusters] == [2, 1, 2], clusters
columns = [head.index(n) for n in head if n.startswith("effective_mass")]
scale = max(abs(r[c]) for r in a for c in columns)
for c in columns:
    for members in clusters:
        worst = abs(sum(a[k][c] for k in members) - sum(b[k][c] for k in members)) / scale
        assert worst <= 1e-10, f"modes.csv {head[c]} of modes {[k + 1 for k in members]} differs by {worst:.3e}"
PY
      grep -q "rayleigh .*alpha_M" "$work/last.log"
      grep -q "^modal     mode 5 added: mode 4's frequency .* Hz is repeated" "$work/last.log"
    fi
  done
  # A 2-rank checkpoint continued on 3 ranks.
  d="$work/$label/np2to3"
  mkdir -p "$d"
  cp -r "$work/$label/np2/full/." "$d/"
  run 3 "$d/case.yaml" --restart "$d/checkpoints/checkpoint_000000010.h5"
  compare "$work/$label/np2/full" "$d" 1e-8 "$label np2->3"
done

# dt: auto, checkpointed on 2 ranks and continued on 3: the restart keeps the checkpoint's dt and
# end_time as its target, so it ends at end_time after as many steps as the uninterrupted run
# (not after the steps of 3 ranks' own dt: auto); a longer end_time continues with that dt.
d="$work/auto"
mkdir -p "$d/full"
cat > "$d/full/case.yaml" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/cantilever.msh}
materials:
  - {region: beam, model: linear_elastic, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.33}
boundary_conditions:
  - {region: clamp, type: fixed}
  - {region: tip, type: traction, value: [0, 0, -1.0e5]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.0015}
output:
  directory: .
  every: 0
  probes: [{name: tip, point: [1.0, 0.05, 0.05]}]
  checkpoint: {every: 500, keep: 10}
EOF
run 2 "$d/full/case.yaml"
grep -E "^ +dt: auto = " "$work/last.log"
for to in np3 longer; do
  mkdir -p "$d/$to"
  cp -r "$d/full/." "$d/$to/"
done
run 3 "$d/np3/case.yaml" --restart "$d/np3/checkpoints/checkpoint_000001000.h5"
grep -E "^restart +from " "$work/last.log"
cp "$work/last.log" "$d/np3.log"
sed -i 's/end_time: 0.0015}/end_time: 0.0016}/' "$d/longer/case.yaml"
run 3 "$d/longer/case.yaml" --restart "$d/longer/checkpoints/checkpoint_000001500.h5"
grep -E "^restart +from " "$work/last.log"
python3 - "$d" <<'PY'
import csv, sys
d = sys.argv[1]
def rows(path):
    with open(path) as f:
        r = list(csv.reader(l for l in f if not l.startswith('#')))
    return r[0], r[1:]
header, full = rows(f"{d}/full/probes.csv")
_, np3 = rows(f"{d}/np3/probes.csv")
_, longer = rows(f"{d}/longer/probes.csv")
steps = len(full) - 1
assert [int(r[0]) for r in np3] == list(range(len(np3))), "steps not 0..N without gaps"
assert len(np3) == len(full), f"2 -> 3 ranks: {len(np3) - 1} steps, the uninterrupted run {steps}"
for label, r in (("uninterrupted", full), ("2 -> 3 ranks", np3)):
    assert abs(float(r[-1][1]) - 0.0015) <= 1e-12 * 0.0015, f"{label}: ends at t = {r[-1][1]}"
scale = max(abs(float(x)) for r in full for x in r[2:])
worst = max(abs(float(x) - float(y)) for p, q in zip(full, np3) for x, y in zip(p[1:], q[1:]))
assert worst <= 1e-8 * scale, f"2 -> 3 ranks differs by {worst / scale:.3e}"
# The longer run: the same steps of the checkpoint's dt (times to the last bit), to the first
# step at or past the new end_time.
dt = float(full[-1][1]) / steps
assert [r[1] for r in longer[:len(full)]] == [r[1] for r in full], "the step times changed"
end = float(longer[-1][1])
assert 0.0016 * (1 - 1e-12) <= end < 0.0016 + dt, f"the longer run ends at t = {end}"
print(f"dt: auto restart 2 -> 3 ranks: {steps} steps, the last at t = {np3[-1][1]} "
      f"(uninterrupted {full[-1][1]}), histories equal to {worst / scale:.2e}; end_time 0.0016: "
      f"{len(longer) - 1} steps, to t = {end}")
PY
grep -Eq "^restart +from .*checkpoint_000001000.h5: step 1000, .* with the checkpoint's dt" "$d/np3.log"
grep -Eq "^restart +from .* with the checkpoint's dt .*end_time 0.0016 s is not a whole number of its steps" "$work/last.log"

# SIGKILL at an arbitrary moment of a longer run (possibly mid-write of a checkpoint): the newest
# complete checkpoint restarts it, and the finished histories equal an uninterrupted run's.
d="$work/kill"
mkdir -p "$d/full" "$d/killed"
cat > "$d/full/case.yaml" <<'EOF'
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [40, 8, 8], element: hex8}
materials:
  - {region: all, model: linear_elastic, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000]}
time: {integrator: newmark, dt: 1.0e-3, steps: 400}
output:
  directory: .
  every: 50
  fields: [displacement]
  probes: [{name: tip, point: [1, 0.1, 0.1]}]
  checkpoint: {every: 2, keep: 2}
EOF
cp "$d/full/case.yaml" "$d/killed/case.yaml"
run 2 "$d/full/case.yaml"
"$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 "$INERTIA" "$d/killed/case.yaml" > "$d/killed.log" 2>&1 &
launcher=$!
# Wait for two complete checkpoints (up to 10 minutes: a loaded machine may take long to start
# the run; the kill must not come before there is one to restart from), or the run's end.
for _ in $(seq 1 12000); do
  [ "$(ls "$d/killed/checkpoints" 2>/dev/null | grep -c '\.h5$')" -ge 2 ] && break
  kill -0 "$launcher" 2> /dev/null || break
  sleep 0.05
done
sleep 0.$((RANDOM % 10))
pkill -KILL -f "$INERTIA $d/killed/case.yaml" || true
wait "$launcher" || true
# The ranks are gone (their output lock released) before the restart starts.
for _ in $(seq 1 600); do
  pgrep -f "$INERTIA $d/killed/case.yaml" > /dev/null || break
  sleep 0.05
done
[ "$(ls "$d/killed/checkpoints" 2>/dev/null | grep -c '\.h5$')" -ge 1 ] ||
  { cat "$d/killed.log"; echo "FAIL: the run to kill left no checkpoint"; exit 1; }
if grep -q "^finished" "$d/killed.log"; then
  echo "note: the run finished before it could be killed; restarting from its last checkpoint"
fi
echo "killed; checkpoints left: $(ls "$d/killed/checkpoints" | tr '\n' ' ')"
touch "$d/killed/checkpoints/checkpoint_999999999.h5.tmp"  # a half-written one is never used
run 2 "$d/killed/case.yaml" --restart "$d/killed"
grep -q "restart   from" "$work/last.log"
python3 - "$d/full" "$d/killed" <<'PY'
import sys
a, b = (open(f"{p}/probes.csv").read().splitlines() for p in sys.argv[1:])
a = [l for l in a if not l.startswith('#')]
b = [l for l in b if not l.startswith('#')]
assert len(a) == len(b) == 402, (len(a), len(b))
worst = 0.0
for x, y in zip(a[1:], b[1:]):
    u, v = [float(t) for t in x.split(',')], [float(t) for t in y.split(',')]
    assert u[0] == v[0]
    worst = max(worst, max(abs(p - q) for p, q in zip(u, v)))
scale = max(abs(float(t)) for x in a[1:] for t in x.split(',')[2:])
assert worst <= 1e-12 * scale, (worst, scale)
print(f"SIGKILL: restarted run == uninterrupted to {worst / scale:.2e}")
PY

# Bad restarts: one line, non-zero exit.
nm="$work/newmark/np2/full"
expect_error "no such checkpoint" 2 "$nm/case.yaml" --restart "$work/nowhere"
expect_error "no complete checkpoint" 2 "$nm/case.yaml" --restart "$work"
sed 's/cells: \[8, 2, 2\]/cells: [9, 2, 2]/' "$nm/case.yaml" > "$nm/other_mesh.yaml"
expect_error "nodes but this case's mesh has" 3 "$nm/other_mesh.yaml" --restart "$nm/checkpoints"
sed 's/integrator: newmark/integrator: rk4/' "$nm/case.yaml" > "$nm/other_scheme.yaml"
expect_error "written by the newmark integrator" 2 "$nm/other_scheme.yaml" --restart "$nm/checkpoints"
sed 's/dt: 1.0e-4/dt: 2.0e-4/' "$nm/case.yaml" > "$nm/other_dt.yaml"
expect_error "differs from the checkpoint" 1 "$nm/other_dt.yaml" --restart "$nm/checkpoints"
md="$work/hht_modal_rayleigh/np2/full"
sed 's/damping_ratios: \[0.05, 0.02\]/damping_ratios: [0.05, 0.03]/' "$md/case.yaml" > "$md/other_damping.yaml"
expect_error "differs from the checkpoint's" 2 "$md/other_damping.yaml" --restart "$md/checkpoints"
head -c 100 "$nm/checkpoints/checkpoint_000000020.h5" > "$work/checkpoint_000000001.h5"
expect_error "cannot restart from this checkpoint" 2 "$nm/case.yaml" --restart "$work/checkpoint_000000001.h5"
finish
