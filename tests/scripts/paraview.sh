#!/usr/bin/env bash
# What a user sees: the cantilever example's .pvd opens in ParaView (pvpython) with the expected
# point and cell arrays and time steps, and Warp By Vector on displacement works; a modal case's
# <case>_modes.pvd (a clamped hex8 beam, 4 modes, 2 ranks) has time steps 1..4, each a 3-component
# `mode_shape` on every node, zero on the clamped face and nonzero elsewhere, mass-normalised and
# M-orthogonal (tests/support/check_modes_pvd.py); a harmonic frame's cell stress against a static
# run's (tests/support/compare_cell_arrays.py).
# Needs pvpython: ParaView's Python unpacked under $INERTIA_PVPYTHON_ROOT (see .ci/run), or on
# PATH, or where .ci/run unpacks it (/opt/inertia-paraview-python); skips when there is none.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# shellcheck source=../support/pvpython.sh
source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
find_pvpython "ParaView check"

sed -e "s|file: ../../meshes/|file: $INERTIA_SOURCE_DIR/meshes/|" -e 's|end_time: 0.03|end_time: 0.005|' \
    -e "s|directory: out|directory: $work/out|" \
    "$INERTIA_SOURCE_DIR/examples/cantilever/cantilever.yaml" > "$work/cantilever.yaml"
run 2 "$work/cantilever.yaml"
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_pvd.py" "$work/out/cantilever.pvd" \
  --arrays displacement,velocity,acceleration,nodal_von_mises \
  --cell-arrays von_mises,stress,strain,rank,region \
  --steps 6 || failed=1

# The modal series: a modal-only case (no time: section), clamped on xmin.
cat > "$work/beam.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
modal: {modes: 4}
output: {directory: $work/modes}
YAML
run 2 "$work/beam.yaml"
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_modes_pvd.py" "$work/modes/beam_modes.pvd" \
  --modes 4 --lower 0,0,0 --upper 1,0.1,0.1 --cells 10,2,2 --density 7800 || failed=1

# A harmonic frame's cell stress: the same beam with a tip load, all of its modes at 1e-3 Hz
# (the static response, undamped: stress_real is the static run's stress, stress_imag zero,
# stress_amplitude |stress|), both read back with ParaView. Measured 1.1e-10 of the largest.
beam_loaded='mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 1000, -2000]}'
printf '%s\n%s\n' "$beam_loaded" "modal: {modes: 300}
harmonic: {frequencies: [0.001], fields_at: [0.001]}
output: {directory: $work/harmonic}" > "$work/harmonic_beam.yaml"
printf '%s\n%s\n' "$beam_loaded" "time: {integrator: static, dt: 1, steps: 1}
output: {directory: $work/static, every: 1}" > "$work/static_beam.yaml"
run 2 "$work/harmonic_beam.yaml"
run 2 "$work/static_beam.yaml"
for array in stress_real stress_amplitude; do
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/compare_cell_arrays.py" \
    "$work/harmonic/harmonic_beam_harmonic.pvd" $array "$work/static/static_beam.pvd" stress \
    --tol 1e-8 $([ $array = stress_amplitude ] && echo --absolute) || failed=1
done
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_pvd.py" "$work/harmonic/harmonic_beam_harmonic.pvd" \
  --arrays displacement_real,displacement_imag,displacement_amplitude \
  --cell-arrays stress_real,stress_imag,stress_amplitude --steps 1 --vector displacement_real || failed=1
finish
