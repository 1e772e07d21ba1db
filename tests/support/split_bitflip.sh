#!/usr/bin/env bash
# The bit-flip experiment on a split: flips N random single bits (one at a time) of a 2-rank split
# of the cantilever (tests/scripts/split.sh's case, 20 central-difference steps) and runs each
# damaged split at np 2, sorting the outcomes: the same results as the intact split (exit 0, the
# same probes.csv and energy.csv byte for byte), one error line (non-zero exit, exactly one
# "inertia: error" line), a signal (a crash: killed by a signal, or PETSc's or MPI's report of
# one), a silent change (exit 0, other results: probes.csv or energy.csv, whose energies change
# with any coordinate, mass or connectivity), a hang (no exit within 120 s) and anything else.
# Fails unless there is no signal, silent change, hang or other outcome. split.sh runs it with a
# few bits; the full experiment by hand, from a build directory's parent:
#   INERTIA=build/bin/inertia INERTIA_SOURCE_DIR=. tests/support/split_bitflip.sh 120 [SEED [WHERE]]
# WHERE: "file" (default: bits anywhere, nearly all in the shares) or "index" (bits of the index:
# header, offsets, checksums, facts and stamp, a few hundred bytes).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/e2e.sh"
flips=${1:-120}
seed=${2:-1}
where=${3:-file}
if [ -n "${INERTIA_BITFLIP_WORK:-}" ]; then
  rmdir "$work"
  work=$INERTIA_BITFLIP_WORK
  mkdir -p "$work"
fi
tool="python3 $INERTIA_SOURCE_DIR/tests/support/split_tool.py"
cp "$INERTIA_SOURCE_DIR/meshes/cantilever.msh" "$work/beam.msh"
cat > "$work/flip.yaml" <<EOF
mesh: {file: beam.msh}
materials:
  - {region: beam, model: linear_elastic, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.33}
boundary_conditions:
  - {region: clamp, type: fixed}
  - {region: tip, type: traction, value: [0, 0, -1.0e5]}
time: {integrator: central_difference, mass: lumped, dt: auto, steps: 20}
output:
  directory: out
  every: 20
  fields: []
  probes: [{name: tip, point: [1.0, 0.05, 0.05]}, {name: corner, point: [1.0, 0.1, 0.1]}]
  energy: true
EOF
"$INERTIA" --split 2 "$work/flip.yaml" > "$work/split.log"
cp "$work/flip.p2.split" "$work/intact.split"
rm -rf "$work/out"
mpi 2 "$INERTIA" "$work/flip.yaml" > "$work/reference.log" 2>&1 ||
  { cat "$work/reference.log"; echo "FAIL: the intact split's run"; exit 1; }
grep -q "each rank read its share of flip.p2.split" "$work/reference.log"
cp "$work/out/probes.csv" "$work/reference_probes.csv"
cp "$work/out/energy.csv" "$work/reference_energy.csv"

bits=$($tool bits "$work/intact.split")
if [ "$where" = index ]; then
  bits=$((8 * $($tool where "$work/intact.split" shares)))  # the index: all before the shares
fi
same=0 one_line=0 signal=0 silent=0 hang=0 other=0
# The bits to flip: `flips` distinct random bits of the file (seeded: the same every time).
for bit in $(python3 -c "import random; r = random.Random($seed); print(*r.sample(range($bits), $flips))"); do
  cp "$work/intact.split" "$work/flip.p2.split"
  $tool flip "$work/flip.p2.split" "$bit"
  rm -rf "$work/out"
  status=0
  timeout -k 10 120 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 "$INERTIA" \
    "$work/flip.yaml" > "$work/out.log" 2> "$work/err.log" || status=$?
  errors=$(grep -c 'inertia: error' "$work/err.log" || true)
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    outcome=hang; hang=$((hang + 1))
  elif grep -qiE 'signal|SEGV|segmentation|core dumped|MPI_ABORT' "$work/err.log" ||
       [ "$status" -gt 128 ]; then
    outcome=signal; signal=$((signal + 1))
  elif [ "$status" = 0 ]; then
    if cmp -s "$work/out/probes.csv" "$work/reference_probes.csv" &&
       cmp -s "$work/out/energy.csv" "$work/reference_energy.csv"; then
      outcome=same; same=$((same + 1))
    else
      outcome=silent; silent=$((silent + 1))
    fi
  elif [ "$errors" = 1 ]; then
    outcome=one-line; one_line=$((one_line + 1))
  else
    outcome=other; other=$((other + 1))
  fi
  printf 'bit %7d (byte %6d): %-8s %s\n' "$bit" $((bit / 8)) "$outcome" \
    "$(grep -m1 'inertia: error' "$work/err.log" | cut -c1-150 || true)" >> "$work/outcomes.txt"
  if [ "$outcome" != one-line ] && [ "$outcome" != same ]; then
    echo "bit $bit: $outcome (exit $status)"; head -5 "$work/err.log"
  fi
done
cp "$work/intact.split" "$work/flip.p2.split"
echo "bit flips of a 2-rank split ($where: $bits bits), each run at np 2: $flips flips: same results $same," \
  "one error line $one_line, signal $signal, silent change $silent, hang $hang, other $other"
if [ $((signal + silent + hang + other)) -ne 0 ]; then
  echo "FAIL: a flipped bit crashed, hung or silently changed a run (see $work/outcomes.txt)"
  exit 1
fi
