#!/usr/bin/env bash
# Runs the soft drop (soft_drop.yaml: Newmark, gravity switched on at t = 0) and its static
# counterpart (static.yaml: gravity ramped over 5 load steps), then plot_sag.py, which compares the
# settled sag with the static one and writes sag.png.
#   examples/soft_drop/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with numpy and matplotlib). Logs go to examples/soft_drop/out/<case>.log, results to out/static/
# and out/dynamic/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
for name in static soft_drop; do
  printf '%-12s' "$name"
  start=$(date +%s%N)
  # -snes_converged_reason: one line per Newton solve (the progress lines show every tenth step)
  if $MPIRUN "$INERTIA" "$here/$name.yaml" -snes_converged_reason < /dev/null > "$here/out/$name.log" 2>&1; then
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'ok  %3d.%03d s\n' $((ms / 1000)) $((ms % 1000))
  else
    echo "FAILED (see out/$name.log)"; tail -n 3 "$here/out/$name.log"; exit 1
  fi
done
$PYTHON "$here/plot_sag.py"
