#!/usr/bin/env bash
# Newton at the round-off floor: a tolerance tighter than floating point allows (-snes_rtol 1e-15
# -snes_atol 1e-14 on a St. Venant-Kirchhoff cantilever, 5 Newmark steps of a load ramp, each of
# which stalls at ~1e-10) completes without a retry, and the log warns once, naming the floor and
# the tolerance. At 2 ranks.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_MPIEXEC:=mpiexec}"
work=$(mktemp -d "${TMPDIR:-/tmp}/inertia_newton_floor.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL  $*"; failed=1; }

cat >"$work/case.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [8, 1, 1], element: tet10}}
materials:
  - {region: all, model: saint_venant_kirchhoff, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1.25e4], amplitude: ramp}
amplitudes:
  ramp: {type: table, points: [[0, 0], [0.02, 1], [100, 1]]}
time: {integrator: newmark, mass: consistent, dt: 0.01, steps: 5}
output: {directory: out, every: 0}
YAML
(cd "$work" && timeout 300 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 \
  "$INERTIA" case.yaml -snes_rtol 1e-15 -snes_atol 1e-14 >log 2>err) ||
  { fail "exit status $?"; cat "$work/err"; }
warnings=$(grep -c '^warning   Newton: the residual stalls at ' "$work/log")
[ "$warnings" = 1 ] && echo "ok    one warning: $(grep '^warning   Newton' "$work/log")" ||
  fail "$warnings Newton warnings, expected 1"
grep -q 'round-off floor of this model.s forces (.* measured); the tolerance .* (-snes_rtol 1e-15 x the first residual .*, -snes_atol 1e-14) cannot be met' "$work/log" ||
  fail "the warning does not name the floor and the tolerance"
grep -q '^retry' "$work/log" && fail "a step was retried: $(grep '^retry' "$work/log")"
grep -q '^step       5/5 .*(CONVERGED_AT_ROUND_OFF)' "$work/log" &&
  echo "ok    $(grep '^step       5/5' "$work/log")" || fail "the last step: $(grep '^step' "$work/log" | tail -1)"

[ $failed -eq 0 ] && echo "newton_floor: all checks passed"
exit $failed
