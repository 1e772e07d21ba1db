#!/usr/bin/env bash
# Runs stiff_joint.yaml with newmark, hht and generalized_alpha (out/<name>.yaml: the case with
# its integrator lines replaced), then compare.py, which prints the table of README.md.
#   examples/stiff_joint/run_all.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON
# (python3; no packages needed). Logs go to out/<name>.log, results to out/<name>/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"

# name                  integrator          options (one YAML line under time:)
runs='
newmark                 newmark             newmark: {beta: 0.25, gamma: 0.5}
hht                     hht                 hht: {alpha: -0.05}
hht_third               hht                 hht: {alpha: -0.3333333333333333}
generalized_alpha       generalized_alpha   generalized_alpha: {rho_infinity: 0.8}
generalized_alpha_0     generalized_alpha   generalized_alpha: {rho_infinity: 0}
'
while read -r name integrator options; do
  [[ -z $name ]] && continue
  sed -e '/^  hht: /d' -e "s|^  integrator: .*|  integrator: $integrator|" \
    -e "s|^  generalized_alpha: .*|  $options|" -e "s|file: stiff_joint.msh|file: ../stiff_joint.msh|" \
    -e "s|directory: out|directory: $name|" "$here/stiff_joint.yaml" > "$here/out/$name.yaml"
  printf '%-24s' "$name"
  start=$(date +%s%N)
  if $MPIRUN "$INERTIA" "$here/out/$name.yaml" < /dev/null > "$here/out/$name.log" 2>&1; then
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'ok  %d.%03d s\n' $((ms / 1000)) $((ms % 1000))
  else
    echo "FAILED (see out/$name.log)"; tail -n 3 "$here/out/$name.log"; exit 1
  fi
done <<< "$runs"

$PYTHON "$here/compare.py" "$here/out"
