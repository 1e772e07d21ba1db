#!/usr/bin/env bash
# What a user sees of beams: a 16-element cantilever (meshes/beam_cantilever_16.msh, L = 2) under a
# tip load of 1000 N, its frames written on 2 ranks: ParaView opens them with 16 VTK_LINE cells,
# the cell array section_forces (12 components) with the root's My = P L = 2000 N m, and the guide's
# recipe (Warp By Vector, Extract Surface, Tube) runs (tests/support/check_beams_pvd.py). The frames'
# points are the mesh's 17 nodes and nothing else (no rotation node drawn as a point whose
# displacement holds radians), the point arrays rotation and angular_velocity are there, and the
# tip's rotation and displacement equal the tip probe's (probes.csv) to 1e-12: written as vtu and
# as xdmf (ParaView's Xdmf3 reader), at np 1, 2, 3. The mode shapes (beam_modes.pvd / .xdmf,
# np 2) likewise: 17 points, the mode's rotations in `rotation`. And a restart: central
# difference on 2 ranks with a checkpoint at step 20 of 40, continued on 3 ranks: the series
# (vtu; xdmf with its second HDF5 file) has the same 17 points, the tip's values at the end equal
# the probe's to 1e-12. A beam welded to a block at a shared node (meshes/beam_on_block.msh, np 2
# and 3, vtu): every piece's point at the foot has the foot probe's rotation (a rank that holds
# the node through the block's cells only learns it from the others). Skips without pvpython.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# shellcheck source=../support/pvpython.sh
source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
find_pvpython "beam ParaView check"
cat > "$work/beam.yaml" << EOF2
mesh: {file: $INERTIA_SOURCE_DIR/meshes/beam_cantilever_16.msh}
materials:
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, shape: {type: rectangle, width: 0.1, height: 0.2}}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: tip, type: force, value: [0, 0, -1000]}
time: {integrator: static, dt: 1, end_time: 1}
output:
  directory: out
  format: FORMAT
  fields: [displacement, velocity, section_forces]
  probes:
    - {name: tip, point: [2, 0, 0], fields: [displacement, rotation]}
EOF2
tip() {  # tip CSV COLUMNS...: the last row's values of the columns, comma-separated
  python3 - "$@" << 'PY'
import csv, sys
rows = list(csv.DictReader(line for line in open(sys.argv[1]) if not line.startswith("#")))
print(",".join(rows[-1][c] for c in sys.argv[2:]))
PY
}
for format in vtu xdmf; do
  for np in 1 2 3; do
    d="$work/$format$np"
    mkdir -p "$d" && sed "s/FORMAT/$format/" "$work/beam.yaml" > "$d/beam.yaml"
    (cd "$d" && run "$np" beam.yaml)
    series="$d/out/beam.pvd"
    [ "$format" = xdmf ] && series="$d/out/beam.xdmf"
    "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "$series" \
      --beams 16 --root-my 2000 --nodes 17 --arrays displacement,rotation,angular_velocity \
      --at 2,0,0 --rotation="$(tip "$d/out/probes.csv" tip.rx tip.ry tip.rz)" \
      --displacement="$(tip "$d/out/probes.csv" tip.ux tip.uy tip.uz)" || failed=1
  done
  # The mode shapes: the same points, the rotations in `rotation`.
  d="$work/modes_$format"
  mkdir -p "$d"
  sed -e "s/FORMAT/$format/" -e "s/^time: .*/modal: {modes: 4}/" "$work/beam.yaml" > "$d/beam.yaml"
  (cd "$d" && run 2 beam.yaml)
  series="$d/out/beam_modes.pvd"
  [ "$format" = xdmf ] && series="$d/out/beam_modes.xdmf"
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "$series" --beams 16 \
    --nodes 17 --vector mode_shape --no-section-forces --arrays mode_shape,rotation || failed=1
  # A restart from 2 ranks to 3 continues the series.
  d="$work/restart_$format"
  mkdir -p "$d"
  sed -e "s/FORMAT/$format/" -e "s/^time: .*/time: {integrator: central_difference, mass: lumped, \
dt: 1.0e-6, steps: 40}/" -e "s/^  format: .*/&\n  every: 10\n  checkpoint: {every: 20}/" \
    "$work/beam.yaml" > "$d/beam.yaml"
  (cd "$d" && run 2 beam.yaml && run 3 beam.yaml --restart out/checkpoints/checkpoint_000000020.h5)
  series="$d/out/beam.pvd"
  [ "$format" = xdmf ] && series="$d/out/beam.xdmf"
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "$series" --beams 16 \
    --nodes 17 --arrays rotation,angular_velocity --at 2,0,0 \
    --rotation="$(tip "$d/out/probes.csv" tip.rx tip.ry tip.rz)" \
    --displacement="$(tip "$d/out/probes.csv" tip.ux tip.uy tip.uz)" || failed=1
done
for np in 2 3; do
  d="$work/block$np"
  mkdir -p "$d"
  cat > "$d/block.yaml" << EOF2
mesh: {file: $INERTIA_SOURCE_DIR/meshes/beam_on_block.msh}
materials:
  - {region: block, density: 2000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, area: 0.01, iy: 8.333333333333e-6, iz: 8.333333333333e-6, torsion: 1.4e-5}
couplings:
  - {name: weld, node: beam_end, surface: block_top, type: rigid}
boundary_conditions:
  - {region: block_base, type: fixed}
  - {region: tip, type: force, value: [1000, 0, 0]}
time: {integrator: static, dt: 1, end_time: 1}
output:
  directory: out
  fields: [displacement, section_forces]
  probes:
    - {name: foot, point: [0, 0, 1], fields: [displacement, rotation]}
EOF2
  (cd "$d" && run "$np" block.yaml)
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "$d/out/block.pvd" --beams 6 \
    --at 0,0,1 --rotation="$(tip "$d/out/probes.csv" foot.rx foot.ry foot.rz)" \
    --displacement="$(tip "$d/out/probes.csv" foot.ux foot.uy foot.uz)" || failed=1
done
finish
