#!/usr/bin/env bash
# Runs the rigid weight (rigid_weight.yaml) and plot.py, which compares the force on the weight
# with Saint-Venant's solution and writes rigid_weight.png.
#   examples/rigid_weight/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The log goes to examples/rigid_weight/out/rigid_weight.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
cd "$here"
$MPIRUN "$INERTIA" rigid_weight.yaml < /dev/null > out/rigid_weight.log 2>&1 ||
  { tail -n 3 out/rigid_weight.log; exit 1; }
$PYTHON plot.py
