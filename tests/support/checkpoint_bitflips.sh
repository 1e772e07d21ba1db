#!/usr/bin/env bash
# The checkpoint bit-flip experiment: flips one random bit of a small case's checkpoint, FLIPS
# times (a fresh copy each time), restarts from the flipped file with --restart FILE at NP ranks,
# and counts what happened:
#   same      exit 0, histories equal to the uninterrupted run's (the bit was unused)
#   error     a non-zero exit with exactly one 'inertia: error:' line and nothing from HDF5 or
#             PETSc on stderr (the promise)
#   noisy     a non-zero exit with one error line but library output on stderr too
#   signal    a rank died of a signal
#   silent    exit 0 but the histories differ: the damage was used
#   hang      killed by the timeout
# Usage: INERTIA=build/bin/inertia tests/support/checkpoint_bitflips.sh [FLIPS [SEED [NP]]]
# (TRIALS="84 85" runs only those trials of the seed's sequence, to look at one again.)
# Prints one line per trial (offset, bit, outcome) and the counts; exits 1 if any trial was noisy,
# a signal, a silent change or a hang.
set -euo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/e2e.sh"
flips=${1:-100}
seed=${2:-1}
np=${3:-2}
E2E_TIMEOUT=60

mkdir -p "$work/full"
cat > "$work/full/case.yaml" <<EOF
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [4, 2, 2], element: hex8}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000]}
time: {integrator: newmark, dt: 2.0e-5, steps: 20}
output:
  directory: out
  every: 0
  fields: [displacement]
  probes: [{name: tip, point: [1, 0.1, 0.1]}]
  checkpoint: {every: 10, keep: 3}
EOF
capture "$np" "$work/full/case.yaml" || { echo "the uninterrupted run failed"; cat "$work/err"; exit 1; }
original="$work/full/out/checkpoints/checkpoint_000000010.h5"
size=$(stat -c %s "$original")
echo "checkpoint: $size bytes; $flips flips (seed $seed) at np $np"

declare -A count=([same]=0 [error]=0 [noisy]=0 [signal]=0 [silent]=0 [hang]=0)
for trial in ${TRIALS:-$(seq "$flips")}; do
  t="$work/trial"
  rm -rf "$t"
  mkdir -p "$t/out/checkpoints"
  cp "$work/full/case.yaml" "$t/"
  cp "$work/full/out/"*.csv "$t/out/"  # the histories a restart continues
  flipped="$t/out/checkpoints/checkpoint_000000010.h5"
  where=$(python3 - "$original" "$flipped" "$seed" "$trial" <<'PY'
import random, sys
src, dst, seed, trial = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
rng = random.Random(seed * 1000003 + trial)
offset, bit = rng.randrange(len(b)), rng.randrange(8)
b[offset] ^= 1 << bit
open(dst, 'wb').write(b)
print(offset, bit)
PY
  )
  status=0
  capture "$np" "$t/case.yaml" --restart "$flipped" || status=$?
  errors=$(grep -c '^inertia: error:' "$work/err" || true)
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    outcome=hang
  elif [ "$status" -gt 128 ] || grep -q 'exited on signal' "$work/err"; then
    outcome=signal
  elif [ "$status" = 0 ]; then
    if python3 - "$work/full/out" "$t/out" <<'PY'
import sys
a, b = sys.argv[1:3]
for name in ("probes.csv", "energy.csv"):
    ra = [l for l in open(f"{a}/{name}").read().splitlines() if l and not l.startswith('#')]
    rb = [l for l in open(f"{b}/{name}").read().splitlines() if l and not l.startswith('#')]
    if ra != rb:
        sys.exit(1)
PY
    then outcome=same; else outcome=silent; fi
  elif [ "$errors" = 1 ] && ! grep -Eq 'HDF5-DIAG|PETSC ERROR|\.cxx:|main thread' "$work/err"; then
    outcome=error
  else
    outcome=noisy
  fi
  count[$outcome]=$((count[$outcome] + 1))
  case $outcome in  # the evidence of what went wrong
    noisy | signal | hang) echo "--- flip $trial: status $status, stderr:" && head -n 20 "$work/err" ;;
  esac
  echo "flip $trial: byte $where -> $outcome$([ "$outcome" = error ] || [ "$outcome" = noisy ] &&
    echo ": $(grep -m1 '^inertia: error:' "$work/err" | cut -c1-150)")"
done
echo "counts: same ${count[same]}, one error line ${count[error]}, error with library output" \
  "${count[noisy]}, signal ${count[signal]}, silent change ${count[silent]}, hang ${count[hang]}"
[ $((count[noisy] + count[signal] + count[silent] + count[hang])) = 0 ]
