#!/usr/bin/env bash
# Runs the elastic-plastic thick cylinder (plastic_cylinder.yaml), then plot.py, which compares it
# with Hill's closed form and a 1D solution of the same cylinder (hill.py) and writes
# plastic_cylinder.png.
#   examples/plastic_cylinder/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The log goes to examples/plastic_cylinder/out/plastic_cylinder.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
cd "$here"
mkdir -p out
$MPIRUN "$INERTIA" plastic_cylinder.yaml < /dev/null > out/plastic_cylinder.log 2>&1 ||
  { tail -n 3 out/plastic_cylinder.log; exit 1; }
$PYTHON plot.py
