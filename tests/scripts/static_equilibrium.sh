#!/usr/bin/env bash
# A transient that starts from the static equilibrium (initial_conditions.static_equilibrium,
# examples/guide/time_integration.md, "Starting from the static equilibrium"): a steel cantilever
# (1 x 0.1 x 0.1 m, 10 x 2 x 2 hex8) under gravity, clamped at x = 0.
# - gravity alone: every dynamic scheme stays at the static deflection, |u - u_static| / |u_static|
#   below 1e-9 at every row (u_static from the static integrator), np 1 (and 2 for newmark and
#   central_difference);
# - gravity then the ground shakes (a 20 Hz sine base acceleration in y, linear model): the tip's
#   history is the static deflection plus the transient from rest under the base motion alone
#   (superposition) to 1e-9 of its largest value, and the clamp's vertical reaction at t = 0
#   carries the weight (78.5 kg x 9.81 m/s^2) to 1e-9, np 1, 2 and 3;
# - refused in one line with the static integrator.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
cd "$work"
clamp="  - {region: xmin, type: fixed}"
beam() {  # beam FILE INTEGRATOR GRAVITY-Z EQUILIBRIUM TIME-KEYS [SUPPORTS]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
${6:-$clamp}
amplitudes: {shake: {type: sine, frequency: 20}}
gravity: [0, 0, $3]
initial_conditions: {static_equilibrium: $4}
time: {integrator: $2, mass: lumped, $5}
output:
  directory: out_${1%.yaml}
  every: 0
  history_every: 1
  probes: [{name: tip, point: [1, 0.05, 0.05], fields: [displacement]}]
EOF
}
beam static.yaml static -9.81 false "dt: 1, end_time: 1"
run 1 static.yaml

for s in newmark hht generalized_alpha central_difference symplectic_euler rk2 heun rk4 \
         euler_implicit euler_explicit variational_symplectic; do
  extra=""
  [ "$s" = euler_explicit ] && extra=", allow_unstable: true"
  beam "$s.yaml" "$s" -9.81 true "dt: 2.0e-6, steps: 40$extra"
  for np in 1 2; do
    [ "$np" = 2 ] && [ "$s" != newmark ] && [ "$s" != central_difference ] && continue
    run "$np" "$s.yaml"
    grep -q "^initial   static equilibrium under the loads at t = 0" last.log ||
      { cat last.log; echo "FAIL: $s np $np: no equilibrium line"; exit 1; }
    python3 - out_static/probes.csv "out_$s/probes.csv" "$s np $np" <<'PY'
import os, sys
sys.path.insert(0, os.environ['INERTIA_SOURCE_DIR'] + '/tests/support')
from csv_checks import read, passed, check_at_static_deflection
ref, run = read(sys.argv[1]), read(sys.argv[2])
check_at_static_deflection(ref, run, sys.argv[3])
sys.exit(0 if passed() and len(run['time']) == 41 else 1)
PY
  done
done

# Gravity, then the ground shakes: superposition on a linear model. The clamp holds x and z;
# the base moves it in y.
supports="  - {region: xmin, type: fixed, components: [x, z]}
  - {region: xmin, type: acceleration, components: [y], value: [3], amplitude: shake}"
beam both.yaml newmark -9.81 true "dt: 2.5e-4, steps: 200" "$supports"
beam quake.yaml newmark 0 false "dt: 2.5e-4, steps: 200" "$supports"
for np in 1 2 3; do
  run "$np" both.yaml
  run "$np" quake.yaml
  python3 - out_static/probes.csv out_both/probes.csv out_quake/probes.csv out_both/reactions.csv "np $np" <<'PY'
import os, sys
sys.path.insert(0, os.environ['INERTIA_SOURCE_DIR'] + '/tests/support')
from csv_checks import read, passed, check_superposition
check_superposition(*(read(p) for p in sys.argv[1:5]), 7850 * 1 * 0.1 * 0.1 * 9.81,
                    sys.argv[5])
sys.exit(0 if passed() else 1)
PY
done

beam refused.yaml static -9.81 true "dt: 1, end_time: 1"
expect_error "initial_conditions.static_equilibrium: the static integrator" 1 --check refused.yaml
echo "PASS"
