#!/usr/bin/env bash
# History variables at quadrature points (src/README.md, "State at quadrature points"), through the
# test-only force-term kind state_check (tests/support/state_check_term.cpp, in the executable
# inertia-test-terms), whose state counts accepted steps and accumulates strain:
# - a step whose commit fails is retried as two halves: the count is the step number before it and
#   one more after it (each half commits once, the failed attempt never), on 1, 2 and 3 ranks,
#   whose probes agree to round-off; the energy balance closes across the halves;
# - a run restarted from its step-10 checkpoint (on the same rank count, and a 2-rank checkpoint on
#   3 ranks) rewrites the same probes.csv, state columns included: the state is checkpointed keyed
#   by element, not by rank;
# - the VTK frames carry the state as cell arrays <variable>.<component>;
# - an explicit step commits the state its force evaluation wrote, without evaluating again, for
#   a term that says it may (ForceTerm::trial_from_force, the J2 solids): with from_force: true
#   the count of commits that evaluated stays 0 over 20 central-difference steps, with false it
#   is 20, and the states agree bit for bit, on 1 and 3 ranks;
# - the kind's own case-file section is validated with one error line; the plain executable
#   (no term with state) says that 'state' writes nothing.
set -euo pipefail
: "${INERTIA_TEST_TERMS:?}" "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
INERTIA_PLAIN=$INERTIA
INERTIA=$INERTIA_TEST_TERMS

case_file() {  # case_file DIR
  cat > "$1/case.yaml" <<EOF
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [8, 2, 2], element: hex8}
materials:
  - {region: all, model: linear_elastic, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000], amplitude: shake}
amplitudes:
  shake: {type: sine, frequency: 400}
state_check: {region: all, fail_at_step: 7}
time:
  integrator: newmark
  dt: 1.0e-4
  steps: 20
  max_step_halvings: 2
output:
  directory: .
  every: 10
  fields: [displacement, state]
  probes:
    - {name: a, point: [0.3, 0.1, 0.1], fields: [state]}
    - {name: b, point: [0.9, 0.05, 0.15], fields: [displacement, state]}
  checkpoint: {every: 10, keep: 2}
EOF
}

compare() {  # compare DIR_A DIR_B TOLERANCE LABEL
  python3 - "$@" <<'PY'
import csv, sys
a, b, tol, label = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
def rows(path):
    with open(path) as f:
        r = list(csv.reader(l for l in f if not l.startswith('#')))
    return r[0], [[float(x) for x in row] for row in r[1:]]
ha, ra = rows(f"{a}/probes.csv")
hb, rb = rows(f"{b}/probes.csv")
assert ha == hb, (label, ha, hb)
assert len(ra) == len(rb) == 21, (label, len(ra), len(rb))
worst = 0.0
# A column's scale: its own largest value, or for a displacement the largest of the probe's
# three (a component that stays near zero agrees to round-off of the others).
def scale_of(c):
    cols = [c]
    if ha[c][-3:] in (".ux", ".uy", ".uz"):
        cols = [k for k in range(2, len(ha)) if ha[k][:-1] == ha[c][:-1]]
    return max(abs(r[k]) for r in ra for k in cols) or 1.0
for c in range(2, len(ha)):
    scale = scale_of(c)
    err = max(abs(p[c] - q[c]) for p, q in zip(ra, rb)) / scale
    worst = max(worst, err)
    assert err <= tol, f"{label}: column {ha[c]} differs by {err:.3e} > {tol}"
print(f"{label}: probes (state included) agree to {worst:.2e} (tolerance {tol:g})")
PY
}

for np in 1 2 3; do
  d="$work/np$np"
  mkdir -p "$d"
  case_file "$d"
  run "$np" "$d/case.yaml"
  [ "$(grep -c '^retry ' "$work/last.log")" = 1 ] || { cat "$work/last.log"; echo "FAIL: np$np: expected one retry"; exit 1; }
  grep -q "^retry .*state_check: the failure asked for at step 7" "$work/last.log"
  grep -q "^state     state_check: 8 components at up to 8 points per cell" "$work/last.log"
  python3 - "$d/probes.csv" "$np" <<'PY'
import csv, sys
with open(sys.argv[1]) as f:
    r = list(csv.reader(l for l in f if not l.startswith('#')))
head, rows = r[0], [[float(x) for x in row] for row in r[1:]]
want = ["step", "time"] + [f"a.state_check.{c}" for c in
        ("steps", "accumulated_strain", "xx", "yy", "zz", "xy", "yz", "xz")]
assert head[:10] == want, head[:10]
assert head[10:13] == ["b.ux", "b.uy", "b.uz"], head[10:13]
for p in ("a", "b"):
    steps = [row[head.index(f"{p}.state_check.steps")] for row in rows]
    # step 7 was accepted as two halves: one commit more from there on
    expected = [n if n < 7 else n + 1 for n in range(21)]
    assert steps == expected, (p, steps)
    acc = [row[head.index(f"{p}.state_check.accumulated_strain")] for row in rows]
    assert all(y >= x for x, y in zip(acc, acc[1:])) and acc[-1] > 0, (p, acc)
    # the strain oscillates (a 400 Hz load): more accumulated than the final strain
    xx = [row[head.index(f"{p}.state_check.xx")] for row in rows]
    assert acc[-1] > abs(xx[-1]), (p, acc[-1], xx[-1])
print(f"np{sys.argv[2]}: step counts exact across the retry, strain accumulated")
PY
  # The energy balance of the retried step is summed over its halves (Newmark's trapezoidal rule
  # conserves it to round-off; over the whole step at once it was off by 8e-4 of the energy).
  python3 - "$d/energy.csv" <<'PY'
import csv, sys
with open(sys.argv[1]) as f:
    r = list(csv.reader(l for l in f if not l.startswith('#')))
head, rows = r[0], [[float(x) for x in row] for row in r[1:]]
total = head.index("total")
scale = max(abs(x) for row in rows for x in row[2:total])
drift = max(abs(row[total] - rows[0][total]) for row in rows) / scale
assert drift <= 1e-10, f"energy balance {drift:.3e} of the largest energy"
print(f"energy balance across the retry: {drift:.2e} of the largest energy")
PY
  grep -rlq 'Name="state_check.accumulated_strain"' "$d" ||
    { ls -R "$d"; echo "FAIL: no state array in the VTK frames"; exit 1; }
done
compare "$work/np1" "$work/np2" 1e-10 "np1 vs np2"
compare "$work/np1" "$work/np3" 1e-10 "np1 vs np3"

# The explicit commit: from the force evaluation (from_force: true) or evaluated again (false).
for np in 1 3; do
  for ff in true false; do
    d="$work/explicit_${ff}_np$np"
    mkdir -p "$d"
    case_file "$d"
    sed -i "s/state_check: {region: all, fail_at_step: 7}/state_check: {region: all, from_force: $ff}/;
            s/integrator: newmark/integrator: central_difference/; s/dt: 1.0e-4/dt: 2.0e-5/;
            /max_step_halvings/d; /checkpoint:/d" "$d/case.yaml"
    run "$np" "$d/case.yaml"
  done
  python3 - "$work/explicit_true_np$np/probes.csv" "$work/explicit_false_np$np/probes.csv" "$np" <<'PY'
import csv, sys
def rows(path):
    with open(path) as f:
        r = list(csv.reader(l for l in f if not l.startswith('#')))
    return r[0], [[float(x) for x in row] for row in r[1:]]
(h1, r1), (h2, r2) = rows(sys.argv[1]), rows(sys.argv[2])
assert h1 == h2, (h1, h2)
for p in ("a", "b"):
    steps = [row[h1.index(f"{p}.state_check.steps")] for row in r1]
    assert steps == list(range(21)), (p, steps)
    forced = [row[h1.index(f"{p}.state_check.commit_evaluations")] for row in r1]
    evaluated = [row[h2.index(f"{p}.state_check.commit_evaluations")] for row in r2]
    assert forced == [0] * 21, (p, forced)
    assert evaluated == list(range(21)), (p, evaluated)
    for c in ("accumulated_strain", "xx", "xz"):
        k = h1.index(f"{p}.state_check.{c}")
        assert [row[k] for row in r1] == [row[k] for row in r2], (p, c)
print(f"np{sys.argv[3]}: explicit commits from the force evaluation: 0 evaluations in 20 "
      "steps (20 without), the same states bit for bit")
PY
done

# Restarts from the step-10 checkpoint: the same rank count, and 2 ranks continued on 3.
for np in 1 2; do
  d="$work/restart$np"
  mkdir -p "$d"
  cp -r "$work/np$np/." "$d/"
  run "$np" "$d/case.yaml" --restart "$d/checkpoints/checkpoint_000000010.h5"
  grep -q "restart   from .*checkpoint_000000010.h5: step 10" "$work/last.log"
  compare "$work/np$np" "$d" 1e-12 "restart np$np"
done
d="$work/restart2to3"
mkdir -p "$d"
cp -r "$work/np2/." "$d/"
run 3 "$d/case.yaml" --restart "$d/checkpoints/checkpoint_000000010.h5"
compare "$work/np2" "$d" 1e-10 "restart np2->3"

# The plain executable: no term has state, so 'state' writes nothing, and the log says so.
d="$work/plain"
mkdir -p "$d"
case_file "$d"
sed -i 's/^state_check: .*//' "$d/case.yaml"
INERTIA=$INERTIA_PLAIN run 1 "$d/case.yaml"
grep -q "^warning   output: 'state'/'nodal_state' asked for, but no force term of this case has history variables" "$work/last.log"
! grep -rlq 'Name="state_check' "$d" || { echo "FAIL: state arrays without a term that has state"; exit 1; }

# The section's validation: one line each, with the file and line.
d="$work/bad"
mkdir -p "$d"
case_file "$d"
sed -i 's/^state_check: .*/state_check: {region: all, fail_at_stp: 7}/' "$d/case.yaml"
expect_error "case.yaml:10: state_check: unknown key 'fail_at_stp'.*did you mean 'fail_at_step'" 2 "$d/case.yaml"
sed -i 's/^state_check: .*/state_check: {region: nowhere}/' "$d/case.yaml"
expect_error "case.yaml:10: state_check.region: unknown region 'nowhere'" 3 "$d/case.yaml"
sed -i 's/^state_check: .*/state_chek: {region: all}/' "$d/case.yaml"
expect_error "unknown key 'state_chek'.*did you mean 'state_check'" 1 "$d/case.yaml"
finish
