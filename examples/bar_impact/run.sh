#!/usr/bin/env bash
# Runs the bar impact (bar_impact.yaml) and plot.py, which compares the wall force and the bar's
# velocities with the exact answer and writes bar_impact.png.
#   examples/bar_impact/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The log goes to examples/bar_impact/out/bar_impact.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
cd "$here"
$MPIRUN "$INERTIA" bar_impact.yaml < /dev/null > out/bar_impact.log 2>&1 ||
  { tail -n 3 out/bar_impact.log; exit 1; }
$PYTHON plot.py
