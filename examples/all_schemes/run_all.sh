#!/usr/bin/env bash
# Runs the hanging mass of scheme.yaml.in with every time integrator of inertia, then plots the
# energy histories into energy_by_scheme.png (plot_energy.py).
#   examples/all_schemes/run_all.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with numpy and matplotlib). Cases, logs and CSV files go to examples/all_schemes/out/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out/cases"

# name                      integrator               options (one YAML line under time:)
schemes='
euler_explicit              euler_explicit           # none
symplectic_euler            symplectic_euler         # none
central_difference          central_difference       central_difference: {half_step_start: true}
rk2                         rk2                      # none
heun                        heun                     # none
rk4                         rk4                      # none
variational_explicit        variational_symplectic   variational_symplectic: {explicit: true}
euler_implicit              euler_implicit           # none
euler_implicit_trapezoidal  euler_implicit           euler_implicit: {trapezoidal: true}
newmark                     newmark                  newmark: {beta: 0.25, gamma: 0.5}
hht                         hht                      hht: {alpha: -0.05}
generalized_alpha           generalized_alpha        generalized_alpha: {rho_infinity: 0.8}
variational_implicit        variational_symplectic   variational_symplectic: {explicit: false}
static                      static                   # none
'
while read -r name integrator options; do
  [[ -z $name ]] && continue
  case_file=$here/out/cases/$name.yaml
  sed -e "s|@NAME@|$name|g" -e "s|@INTEGRATOR@|$integrator|" -e "s|@OPTIONS@|$options|" \
    "$here/scheme.yaml.in" > "$case_file"
  printf '%-28s' "$name"
  start=$(date +%s%N)
  if $MPIRUN "$INERTIA" "$case_file" < /dev/null > "$here/out/$name.log" 2>&1; then
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'ok  %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
  else
    echo "FAILED (see out/$name.log)"; tail -n 3 "$here/out/$name.log"; exit 1
  fi
done <<< "$schemes"

$PYTHON "$here/plot_energy.py"
