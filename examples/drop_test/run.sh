#!/usr/bin/env bash
# Runs the drop test (drop_test.yaml), the plate alone for the hand estimates (stiffness.yaml:
# its first mode and its stiffness under the block) and plot.py, which prints the README's figures
# and writes drop_test.png.
#   examples/drop_test/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The logs go to examples/drop_test/out/drop_test.log and out/stiffness.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
mkdir -p "$here/out"
cd "$here"
$MPIRUN "$INERTIA" drop_test.yaml < /dev/null > out/drop_test.log 2>&1 ||
  { tail -n 3 out/drop_test.log; exit 1; }
$MPIRUN "$INERTIA" stiffness.yaml < /dev/null > out/stiffness.log 2>&1 ||
  { tail -n 3 out/stiffness.log; exit 1; }
$PYTHON plot.py
