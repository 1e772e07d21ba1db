#!/usr/bin/env bash
# Runs the drop weight (drop_weight.yaml) and plot.py, which compares the force on the weight
# with Saint-Venant's solution and writes drop_weight.png.
#   examples/drop_weight/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The log goes to examples/drop_weight/out/drop_weight.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
cd "$here"
$MPIRUN "$INERTIA" drop_weight.yaml < /dev/null > out/drop_weight.log 2>&1 ||
  { tail -n 3 out/drop_weight.log; exit 1; }
$PYTHON plot.py
