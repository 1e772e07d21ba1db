#!/usr/bin/env bash
# Runs the large-deflection cantilever with each material model: static.yaml (15 load steps) for
# linear_elastic, corotational, saint_venant_kirchhoff and neo_hookean, dynamic.yaml (Newmark) for
# linear_elastic, corotational and neo_hookean, then plots tip_vs_load.png and tip_vs_time.png
# (plot_tip.py) and prints the table of the README.
#   examples/large_deflection/run_all.sh [static|dynamic]...   (default: both)
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with numpy and matplotlib). Cases, logs and CSV files go to examples/large_deflection/out/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
kinds=${*:-static dynamic}
mkdir -p "$here/out/cases"

run() {  # run KIND MODEL: writes out/cases/KIND_MODEL.yaml from KIND.yaml, results in out/KIND_MODEL/
  local kind=$1 model=$2 name=$1_$2
  local case_file=$here/out/cases/$name.yaml
  # The template's model is neo_hookean and its results go to out/KIND; the case files live in
  # out/cases/, so their output directory is ../KIND_MODEL.
  sed -e "s|model: neo_hookean|model: $model|" -e "s|directory: out/$kind\$|directory: ../$name|" \
    "$here/$kind.yaml" > "$case_file"
  grep -q "model: $model" "$case_file" && grep -q "directory: ../$name" "$case_file" \
    || { echo "run_all.sh: sed did not find the model or directory line of $kind.yaml"; exit 1; }
  printf '%-36s' "$name"
  local start; start=$(date +%s%N)
  # -snes_converged_reason: one line per Newton solve (the progress lines show every tenth step)
  if $MPIRUN "$INERTIA" "$case_file" -snes_converged_reason < /dev/null > "$here/out/$name.log" 2>&1; then
    local ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'ok  %3d.%03d s\n' $((ms / 1000)) $((ms % 1000))
  else
    echo "FAILED (see out/$name.log)"; tail -n 3 "$here/out/$name.log"; exit 1
  fi
}

for kind in $kinds; do
  case $kind in
    static)  for m in linear_elastic corotational saint_venant_kirchhoff neo_hookean; do run static "$m"; done ;;
    dynamic) for m in linear_elastic corotational neo_hookean; do run dynamic "$m"; done ;;
    *) echo "run_all.sh: unknown kind '$kind' (static or dynamic)"; exit 2 ;;
  esac
done

$PYTHON "$here/plot_tip.py"
