#!/usr/bin/env bash
# Runs the crash box (crash_box.yaml) and plot.py, which prints the README's figures and writes
# crash_box.png; with ParaView's pvbatch (and xvfb-run) also render.py -> crash_box_folds.png.
#   examples/crash_box/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The log goes to examples/crash_box/out/crash_box.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
cd "$here"
$MPIRUN "$INERTIA" crash_box.yaml < /dev/null > out/crash_box.log 2>&1 ||
  { tail -n 3 out/crash_box.log; exit 1; }
$PYTHON plot.py
if command -v pvbatch > /dev/null && command -v xvfb-run > /dev/null; then
  xvfb-run -a pvbatch render.py 2>&1 | grep -v WARN || true
fi
