#!/usr/bin/env bash
# Runs the Hertz contact with augmented Lagrangian iterations (hertz.yaml) and the same soft penalty
# without them (hertz_penalty.yaml), then plot.py, which compares both with Hertz's solution and
# writes hertz.png.
#   examples/hertz/run.sh
# Environment: INERTIA (default build/bin/inertia), MPIRUN (default "mpirun -n 2"), PYTHON (python3
# with matplotlib). The logs go to examples/hertz/out/hertz.log and out_penalty/hertz_penalty.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
INERTIA=${INERTIA:-$root/build/bin/inertia}
MPIRUN=${MPIRUN:-mpirun -n 2}
PYTHON=${PYTHON:-python3}
cd "$here"
for case in hertz hertz_penalty; do
  out=out
  [ "$case" = hertz ] || out=out_penalty
  mkdir -p "$out"
  $MPIRUN "$INERTIA" "$case.yaml" < /dev/null > "$out/$case.log" 2>&1 ||
    { tail -n 3 "$out/$case.log"; exit 1; }
done
$PYTHON plot.py
