#!/usr/bin/env bash
# Newton at the round-off floor: a tolerance tighter than floating point allows (-snes_rtol 1e-15
# -snes_atol 1e-14 on a St. Venant-Kirchhoff cantilever, 5 Newmark steps of a load ramp, each of
# which stalls at ~1e-10) completes without a retry, and the log warns once, naming the floor and
# the tolerance. At 2 ranks.
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

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
output: {directory: res, every: 0}
YAML
in_work capture 2 case.yaml -snes_rtol 1e-15 -snes_atol 1e-14 || { fail "exit status $?"; cat "$work/err"; }
warnings=$(grep -c '^warning   Newton: the residual stalls at ' "$work/out")
[ "$warnings" = 1 ] && echo "ok    one warning: $(grep '^warning   Newton' "$work/out")" ||
  fail "$warnings Newton warnings, expected 1"
grep -q 'round-off floor of this model.s forces (.* measured); the tolerance .* (-snes_rtol 1e-15 x the first residual .*, -snes_atol 1e-14) cannot be met' "$work/out" ||
  fail "the warning does not name the floor and the tolerance"
grep -q '^retry' "$work/out" && fail "a step was retried: $(grep '^retry' "$work/out")"
grep -q '^step       5/5 .*(CONVERGED_AT_ROUND_OFF)' "$work/out" &&
  echo "ok    $(grep '^step       5/5' "$work/out")" || fail "the last step: $(grep '^step' "$work/out" | tail -1)"

finish
