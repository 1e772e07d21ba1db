#!/usr/bin/env bash
# output.format: xdmf. At np 1, 2 and 3 a tet10 box (all output fields) writes <case>.xdmf and one
# <case>.h5; ParaView's Xdmf3 reader (pvpython, tests/support/check_xdmf.py) opens it with the right
# time steps, points and cells, and its last step equals the .pvd of the same case run with
# output.format: vtu on as many ranks (every point array per point, every cell array per cell, to
# 1e-12 of the array's largest value), each cell's nodes in VTK's order (tet10 mid-side nodes on
# their edges). The output directory holds the same files at every np. The cloth example (tri3
# faces, line2 springs) at np 3 likewise. A run restarted from a checkpoint keeps the steps up to
# it and writes the later ones to <case>-r1.h5, and the series equals the uninterrupted run's (to
# 1e-9: a 2-rank checkpoint continued on 3 ranks; the rank array aside).
# Needs pvpython (see paraview.sh); skips when there is none.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# shellcheck source=../support/pvpython.sh
source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
find_pvpython "XDMF check"
check=("${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_xdmf.py")

box() {  # box FORMAT DIRECTORY: the tet10 box case
  cat <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [6, 2, 2], element: tet10}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1.0e6]}
time: {integrator: newmark, dt: 1.0e-4, end_time: 1.0e-3}
output:
  directory: $2
  format: $1
  every: 5
  fields: [displacement, velocity, acceleration, von_mises, stress, strain, nodal_von_mises,
           nodal_stress, nodal_strain, rank, region, reaction]
  checkpoint: {every: 5, keep: 3}
YAML
}

listing=""
for np in 1 2 3; do
  d="$work/np$np"
  mkdir -p "$d"
  box vtu "$d/vtu" > "$d/box.yaml"
  run_log "$d/box.yaml.log" "$np" "$d/box.yaml"
  box xdmf "$d/xdmf" > "$d/box.yaml"
  run_log "$d/box.yaml.log" "$np" "$d/box.yaml"
  # (2 * 6 + 1)(2 * 2 + 1)(2 * 2 + 1) nodes, 6 tets per cube
  "${check[@]}" "$d/xdmf/box.xdmf" --pvd "$d/vtu/box.pvd" --steps 3 --points 325 --cells 144 ||
    failed=1
  files=$(cd "$d/xdmf" && find . -type f ! -name '*.csv' | sort | tr '\n' ' ')
  echo "np $np: $files"
  if [ -z "$listing" ]; then
    listing=$files
  elif [ "$files" != "$listing" ]; then
    echo "FAIL: np $np writes other files than np 1: $files (np 1: $listing)"
    failed=1
  fi
done
case $listing in
  *box.h5*box.xdmf*) ;;
  *) echo "FAIL: expected box.h5 and box.xdmf, found: $listing"; failed=1 ;;
esac

# Restart: the np-2 run again from its step-5 checkpoint, on 3 ranks; step 10 goes to box-r1.h5.
d="$work/np2"
rm "$d/xdmf/checkpoints/checkpoint_000000010.h5"
run_log "$d/box.yaml.log" 3 "$d/box.yaml" --restart "$d/xdmf/checkpoints"
grep -q "restart   from .*checkpoint_000000005.h5" "$d/box.yaml.log" ||
  { echo "FAIL: the restart did not start from step 5"; failed=1; }
[ -f "$d/xdmf/box-r1.h5" ] || { echo "FAIL: the restart wrote no box-r1.h5"; failed=1; }
[ "$(grep -c 'box-r1.h5:/step_' "$d/xdmf/box.xdmf")" -gt 0 ] &&
  [ "$(grep -c '<Time ' "$d/xdmf/box.xdmf")" -eq 3 ] ||
  { echo "FAIL: the restarted series does not list steps 0, 5 (box.h5) and 10 (box-r1.h5)"; failed=1; }
"${check[@]}" "$d/xdmf/box.xdmf" --pvd "$d/vtu/box.pvd" --steps 3 --points 325 --cells 144 \
  --tol 1e-9 --ignore rank || failed=1

# Mixed cells: the cloth example (tri3 faces, line2 springs) on 3 ranks.
for fmt in vtu xdmf; do
  sed -e "s|file: ../../meshes/|file: $INERTIA_SOURCE_DIR/meshes/|" -e 's|end_time: 3.0|end_time: 0.2|' \
    -e "s|directory: out|directory: $work/cloth_$fmt\n  format: $fmt|" \
    "$INERTIA_SOURCE_DIR/examples/cloth/cloth.yaml" > "$work/cloth.yaml"
  run_log "$work/cloth.yaml.log" 3 "$work/cloth.yaml"
done
"${check[@]}" "$work/cloth_xdmf/cloth.xdmf" --pvd "$work/cloth_vtu/cloth.pvd" --steps 11 \
  --points 441 --cells 2040 || failed=1
finish
