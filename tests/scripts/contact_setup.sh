#!/usr/bin/env bash
# Contact set-ups checked at the start (examples/guide/contact_walls.md and
# contact_pairs.md; examples/guide/run_promises.md, "Checked at the start"), by --check and by the
# run, at np 1, 2 and 3:
# - a rigid wall whose normal points into the body (the bar's end face on the plane, the bar
#   behind it: the wall would never act): one warning line naming the wall; none when flipped;
# - a pair whose surfaces start 2 mm interpenetrated (meshes/overlap_pair.geo): refused, one
#   error line with the count (50 nodes) and the depth (0.002 m);
# - a pair given the slab's bottom face instead of its top (surfaces that do not face each other
#   within the search distance): one warning line naming the pair; none for the right faces.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

bar() {  # bar FILE NORMAL_X
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.05, 0.05], cells: [20, 1, 1], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  walls:
    - {name: stop, region: xmin, plane: {point: [0, 0, 0], normal: [$2, 0, 0]}}
initial_conditions:
  velocity: [-1, 0, 0]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 2.0e-4}
output: {directory: res, every: 0, history_every: 1}
EOF
}
pair() {  # pair FILE MESH SURFACES
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/$2.msh}
materials:
  - {region: slab, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: slab_bottom, type: fixed}
contact:
  pairs:
    - {name: floor, surfaces: $3}
gravity: [0, 0, -9.81]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 2.0e-4}
output: {directory: res, every: 0}
EOF
}
bar "$work/flipped.yaml" -1
bar "$work/wall.yaml" 1
pair "$work/back.yaml" slide_pair "[block_bottom, slab_bottom], margin: 0.06"
pair "$work/facing.yaml" slide_pair "[block_bottom, slab_top], margin: 0.06"
pair "$work/overlap.yaml" overlap_pair "[block_bottom, slab_top]"
for np in 1 2 3; do
  for mode in --check ""; do
    run $np $mode "$work/flipped.yaml"
    grep -q "^warning   .*flipped.yaml:6: contact.walls\[0\]: wall 'stop': the body lies behind it (1 of the 1 cells at region 'xmin' have their centres on the side opposite the normal \[-1, 0, 0\]).*flip the normal$" "$work/last.log" ||
      { cat "$work/last.log"; echo "FAIL: np $np $mode: no warning for the flipped wall"; exit 1; }
    [ "$(warnings)" = 1 ] || { cat "$work/last.log"; echo "FAIL: np $np: not one warning"; exit 1; }
    run $np $mode "$work/wall.yaml"
    [ "$(warnings)" = 0 ] || { cat "$work/last.log"; echo "FAIL: np $np: a warning for a wall facing its body"; exit 1; }
    run $np $mode "$work/back.yaml"
    grep -q "^warning   .*back.yaml:9: contact.pairs\[0\]: pair 'floor': its surfaces 'block_bottom' and 'slab_bottom' do not face each other: 50 of their nodes are within the search distance (0.06 m)" "$work/last.log" ||
      { cat "$work/last.log"; echo "FAIL: np $np $mode: no warning for surfaces not facing"; exit 1; }
    run $np $mode "$work/facing.yaml"
    [ "$(grep -c "^warning   .*contact" "$work/last.log" || true)" = 0 ] ||
      { cat "$work/last.log"; echo "FAIL: np $np: a contact warning for facing surfaces"; exit 1; }
    expect_error "overlap.yaml:9: contact.pairs\[0\]: pair 'floor' starts interpenetrated: 50 node(s) of its surfaces 'block_bottom' and 'slab_top' behind a face they face, the deepest (node [0-9]*) by 0.002 m" \
      $np $mode "$work/overlap.yaml"
  done
done
echo "contact set-ups: flipped wall, interpenetrated pair, surfaces not facing: np 1, 2, 3"
