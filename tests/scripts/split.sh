#!/usr/bin/env bash
# inertia --split N: a mesh file partitioned once for N ranks; a run on N ranks reads only its own
# share of the split (no rank reads the mesh file) and gives the same histories, bit for bit, as
# the rank-0 path with the same partition (an explicit scheme: no solver round-off between runs);
# a restart from a checkpoint written on 2 ranks continues on 3 from the 3-rank split. A stale,
# damaged or misused split is refused in one line.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cp "$INERTIA_SOURCE_DIR/meshes/cantilever.msh" "$work/beam.msh"
write_case() {  # write_case FILE OUTPUT_DIRECTORY
  cat > "$1" <<EOF
mesh: {file: beam.msh}
materials:
  - {region: beam, model: linear_elastic, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.33}
boundary_conditions:
  - {region: clamp, type: fixed}
  - {region: tip, type: traction, value: [0, 0, -1.0e5]}
time: {integrator: central_difference, mass: lumped, dt: auto, steps: 60}
output:
  directory: $2
  every: 20
  fields: [displacement]
  probes: [{name: tip, point: [1.0, 0.05, 0.05]}, {name: middle, point: [0.5, 0.05, 0.05]}]
  checkpoint: {every: 30, keep: 2}
EOF
}
write_case "$work/case.yaml" rank0
for np in 2 3; do
  rm -rf "$work/rank0"
  run_log "$work/rank0_np$np.log" "$np" "$work/case.yaml"
  mv "$work/rank0" "$work/rank0_np$np"
  run_log "$work/split_np$np.log" 1 --split "$np" "$work/case.yaml"
  grep -q "split for $np ranks" "$work/split_np$np.log"
  [ -s "$work/case.p$np.split" ] || { echo "FAIL: no $work/case.p$np.split"; exit 1; }
  sed "s|directory: rank0|directory: split_np$np|" "$work/case.yaml" > "$work/split.yaml"
  cp "$work/case.p$np.split" "$work/split.p$np.split"
  run_log "$work/run_np$np.log" "$np" "$work/split.yaml"
  grep -q "each rank read its share of split.p$np.split" "$work/run_np$np.log" ||
    { cat "$work/run_np$np.log"; echo "FAIL: the split was not used"; exit 1; }
  for f in probes.csv energy.csv; do
    cmp "$work/rank0_np$np/$f" "$work/split_np$np/$f" ||
      { echo "FAIL: np $np: $f differs between the split and the rank-0 path"; exit 1; }
  done
  # The same partition: the log's table of elements, nodes and ghosts per rank.
  diff <(grep -A$((np + 1)) "^partition" "$work/rank0_np$np.log") \
       <(grep -A$((np + 1)) "^partition" "$work/run_np$np.log")
  echo "np $np: the split's run == the rank-0 path's, bit for bit"
done

# A checkpoint of the 2-rank split run, continued on 3 ranks from the 3-rank split.
rm "$work/split_np2/checkpoints/checkpoint_000000060.h5"
cp -r "$work/split_np2" "$work/restarted"
sed "s|directory: split_np2|directory: restarted|" "$work/split.yaml" > "$work/restarted.yaml"
cp "$work/case.p3.split" "$work/restarted.p3.split"
run_log "$work/restart.log" 3 "$work/restarted.yaml" --restart "$work/restarted/checkpoints"
grep -q "each rank read its share of restarted.p3.split" "$work/restart.log"
grep -q "restart   from .*checkpoint_000000030.h5" "$work/restart.log"
python3 - "$work/split_np2/probes.csv" "$work/restarted/probes.csv" <<'PY'
import csv, sys
a, b = ([[float(x) for x in r] for r in list(csv.reader(l for l in open(p) if not l.startswith('#')))[1:]]
        for p in sys.argv[1:])
assert len(a) == len(b) == 61, (len(a), len(b))
scale = max(abs(x) for r in a for x in r[2:])
worst = max(abs(x - y) for p, q in zip(a, b) for x, y in zip(p, q)) / scale
assert worst <= 1e-8, worst
print(f"2-rank checkpoint continued on 3 ranks from the split: == uninterrupted to {worst:.2e}")
PY

# A split for another rank count is not used: the run reads the mesh on rank 0.
rm -rf "$work/rank0"
run_log "$work/np1.log" 1 "$work/case.yaml"
if grep -q "read its share" "$work/np1.log"; then echo "FAIL: a 2- or 3-rank split used on 1 rank"; exit 1; fi

# A mesh touched or copied (same content, another modification time): the split is still used.
touch -d "2001-01-01" "$work/beam.msh"
rm -rf "$work/rank0"
run_log "$work/touched.log" 2 "$work/case.yaml"
grep -q "each rank read its share of case.p2.split" "$work/touched.log" ||
  { cat "$work/touched.log"; echo "FAIL: a touched mesh's split was not used"; exit 1; }

# Refusals, one line each.
sed 's/region: beam, model/region: beam_typo, model/' "$work/case.yaml" > "$work/other.yaml"
cp "$work/case.p2.split" "$work/other.p2.split"
expect_error "was made from another mesh or case" 2 "$work/other.yaml"
head -c 2000 "$work/case.p2.split" > "$work/cut.p2.split"
cp "$work/case.yaml" "$work/cut.yaml"
expect_error "cut.p2.split: the split is truncated" 2 "$work/cut.yaml"
printf 'mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2]}}\nmaterials: [{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}]\ntime: {integrator: central_difference, dt: auto, steps: 1}\n' > "$work/box.yaml"
expect_error "is for meshes read from a file" 1 --split 2 "$work/box.yaml"
expect_error "needs a number of ranks" 1 --split two "$work/case.yaml"
# --split after the case file is still inertia's (PETSc has no --split): the same split, no run.
cp "$work/case.yaml" "$work/after.yaml"
rm -rf "$work/rank0"
run_log "$work/split_after.log" 1 "$work/after.yaml" --split 2
cmp "$work/case.p2.split" "$work/after.p2.split" ||
  { echo "FAIL: --split after the case file did not write the same split"; exit 1; }
[ ! -e "$work/rank0/probes.csv" ] || { echo "FAIL: --split after the case file ran the case"; exit 1; }

# Damaged and stale splits at 1, 2 and 3 ranks: every one refused in one line naming the file and
# what is wrong, on every rank count, before the solver sees anything.
tool="python3 $INERTIA_SOURCE_DIR/tests/support/split_tool.py"
cp "$work/case.yaml" "$work/bad.yaml"
damaged() {  # damaged NP PATTERN COMMAND...: bad.pNP.split = the intact split changed by COMMAND
  local np=$1 pattern=$2
  shift 2
  cp "$work/case.p$np.split" "$work/bad.p$np.split"
  "$@"
  expect_error "$pattern" "$np" "$work/bad.yaml"
}
for np in 1 2 3; do
  run_log "$work/split_again_np$np.log" 1 --split "$np" "$work/case.yaml"
  bad=$work/bad.p$np.split
  damaged "$np" "bad.p$np.split: the split's header is damaged" \
    eval '$tool flip "$bad" $((8 * $($tool where "$bad" header) + 1))'
  damaged "$np" "bad.p$np.split: the split's header is damaged (its checksum does not match)" \
    eval '$tool flip "$bad" $((8 * $($tool where "$bad" facts) + 3))'
  for ((r = 0; r < np; r++)); do
    damaged "$np" "bad.p$np.split: checksum of rank $r's share does not match" \
      eval '$tool flip "$bad" $((8 * $($tool where "$bad" share $r) + 5))'
  done
  # The coordinate's exponent: the corner would have moved by 10^11 m.
  damaged "$np" "bad.p$np.split: checksum of rank $((np - 1))'s share does not match" \
    eval '$tool flip "$bad" $((8 * $($tool where "$bad" coordinate $((np - 1))) + 4))'
  damaged "$np" "bad.p$np.split: the split is truncated" \
    eval 'truncate -s -100 "$bad"'
  damaged "$np" "bad.p$np.split: not a split of this version of inertia (make it again" \
    $tool set-word "$bad" 1 1
  # The rank count edited: to one more (the checksum) and to 2^40 (beyond the file's length).
  damaged "$np" "bad.p$np.split: the split's header is damaged (its checksum does not match)" \
    $tool set-word "$bad" 2 $((np + 1))
  damaged "$np" "bad.p$np.split: the split's header is damaged, or the split truncated" \
    $tool set-word "$bad" 2 $((1 << 40))
done
# The mesh edited in place, its size and modification time kept: refused by its content.
cp -p "$work/beam.msh" "$work/beam.orig"
$tool edit-mesh "$work/beam.msh"
touch -r "$work/beam.orig" "$work/beam.msh"
cmp -s "$work/beam.msh" "$work/beam.orig" && { echo "FAIL: the mesh was not edited"; exit 1; }
[ "$(stat -c %s.%Y "$work/beam.msh")" = "$(stat -c %s.%Y "$work/beam.orig")" ]
for np in 1 2 3; do
  expect_error "case.p$np.split was made from another mesh or case (the content of beam.msh changed" \
    "$np" "$work/case.yaml"
done
mv "$work/beam.orig" "$work/beam.msh"
echo "split: damaged and stale splits refused at 1, 2 and 3 ranks"

# The bit-flip experiment, reduced (tests/support/split_bitflip.sh; the full one flips 120 bits).
INERTIA_BITFLIP_WORK=$work/bitflip bash "$INERTIA_SOURCE_DIR/tests/support/split_bitflip.sh" 12

finish
