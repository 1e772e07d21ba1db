#!/usr/bin/env bash
# Runs the Taylor bar on F-bar cells (taylor_bar.yaml, about 6 minutes on 2 ranks) and on
# one-point cells (taylor_bar_reduced.yaml, about 40 s), then plot.py, which measures the rod
# after the impact against published results and writes taylor_bar.png.
#   examples/taylor_bar/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The logs go to out/taylor_bar.log and out_reduced/taylor_bar_reduced.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
cd "$here"
mkdir -p out
$MPIRUN "$INERTIA" taylor_bar.yaml < /dev/null > out/taylor_bar.log 2>&1 ||
  { tail -n 3 out/taylor_bar.log; exit 1; }
mkdir -p out_reduced
$MPIRUN "$INERTIA" taylor_bar_reduced.yaml < /dev/null > out_reduced/taylor_bar_reduced.log 2>&1 ||
  { tail -n 3 out_reduced/taylor_bar_reduced.log; exit 1; }
$PYTHON plot.py
