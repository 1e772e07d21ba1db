#!/usr/bin/env bash
# What a user sees of shells in ParaView: a clamped square plate (meshes/shell_plate_8.msh, 8 x 8,
# a 1, t 0.01, q 1000) in VTU and XDMF, on 1 and 3 ranks: the shells drawn as quadrilaterals
# without the rotation nodes, displacement and rotation at the points, shell_resultants and
# thickness and shell_stress on the cells, the resultants symmetric and of Kirchhoff's size at
# the centre, the surfaces' stresses N / t -+ 6 M / t^2 (tests/support/check_shells_pvd.py).
# And a plastic strip bent to 0.9 of its plastic moment (5 Simpson points, sigma_y 2.5e8, H 2.1e9):
# its top and bottom surfaces on the yield surface (von Mises between sigma_y and 1.05 sigma_y),
# the bottom the top's opposite, the middle unstressed (to 1e-4 sigma_y) (tests/support/check_plastic_shells_pvd.py).
# The harmonic analysis's fields_at frame of the plate at 0.01 Hz: shell_resultants_real, _imag
# and _amplitude against the static run's (tests/support/check_harmonic_shells_pvd.py).
# The curved 8-node shells of examples/pinched_cylinder (quad8, 16 x 16) in VTU and XDMF on 1 and 3
# ranks: drawn as VTK_QUADRATIC_QUAD cells on the cylinder, the rotation nodes not drawn, the
# shells' arrays, the point under the load where the probe says (tests/support/check_quad8_pvd.py).
# Skips without pvpython.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# shellcheck source=../support/pvpython.sh
source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
find_pvpython "shell ParaView check"
cat > "$work/plate.yaml" << EOF2
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01}
boundary_conditions:
  - {region: edges, type: fixed}
  - {region: plate, type: pressure, value: 1000}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  format: FORMAT
  fields: [displacement, rotation, shell_resultants, thickness, shell_stress]
EOF2
for format in vtu xdmf; do
  for np in 1 3; do
    d="$work/$format$np"
    mkdir -p "$d" && sed "s/FORMAT/$format/" "$work/plate.yaml" > "$d/plate.yaml"
    (cd "$d" && run "$np" plate.yaml)
    series="$d/out/plate.pvd"
    [ "$format" = xdmf ] && series="$d/out/plate.xdmf"
    "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_shells_pvd.py" "$series" 64 0.01 1000 1 ||
      failed=1
  done
done
# The harmonic analysis's frame (fields_at) of the same plate far below its first mode: the
# shells' resultants real, imaginary and amplitude against the static run's (check above).
d="$work/harmonic"
mkdir -p "$d"
sed -e "s/FORMAT/vtu/" -e "s/^time: .*/harmonic: {method: direct, frequencies: [0.01], fields_at: [0.01]}/" \
  -e "s/^  fields: .*/  fields: [displacement]/" "$work/plate.yaml" > "$d/plate.yaml"
(cd "$d" && run 2 plate.yaml)
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_harmonic_shells_pvd.py" \
  "$work/vtu1/out/plate.pvd" "$d/out/plate_harmonic.pvd" || failed=1
cat > "$work/strip.yaml" << EOF2
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_strip_10x1.msh}
materials:
  - {region: strip, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.1e9}}
shells:
  - {region: strip, thickness: 0.01}
boundary_conditions:
  - {region: root, type: fixed, components: [x, y, z, ry, rz]}
  - {region: tip, type: moment, value: [0, 562.5, 0]}
time: {integrator: static, dt: 0.05, end_time: 1}
output:
  directory: out
  format: FORMAT
  fields: [displacement, shell_stress, state, shell_plastic_strain]
EOF2
for format in vtu xdmf; do
  d="$work/strip_$format"
  mkdir -p "$d" && sed "s/FORMAT/$format/" "$work/strip.yaml" > "$d/strip.yaml"
  (cd "$d" && run 2 strip.yaml)
  series="$d/out/strip.pvd"
  [ "$format" = xdmf ] && series="$d/out/strip.xdmf"
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_plastic_shells_pvd.py" "$series" 2.5e8 ||
    failed=1
done
for format in vtu xdmf; do
  for np in 1 3; do
    d="$work/cylinder_$format$np"
    mkdir -p "$d"
    sed -e "s|\.\./\.\./meshes|$INERTIA_SOURCE_DIR/meshes|" -e "s|directory: out/pinched_cylinder|directory: out\n  format: $format|" \
      "$INERTIA_SOURCE_DIR/examples/pinched_cylinder/pinched_cylinder.yaml" > "$d/cylinder.yaml"
    (cd "$d" && run "$np" cylinder.yaml)
    uz=$(python3 -c "import csv; r = [l for l in open('$d/out/probes.csv') if not l.startswith('#')]; print(list(csv.DictReader(r))[-1]['load.uz'])")
    series="$d/out/cylinder.pvd"
    [ "$format" = xdmf ] && series="$d/out/cylinder.xdmf"
    "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_quad8_pvd.py" "$series" "$uz" || failed=1
  done
done
finish
