#!/usr/bin/env bash
# What a user sees of beams: a 16-element cantilever (meshes/beam_cantilever_16.msh, L = 2) under a
# tip load of 1000 N, its frames written on 2 ranks: ParaView opens them with 16 VTK_LINE cells,
# the cell array section_forces (12 components) with the root's My = P L = 2000 N m, and the guide's
# recipe (Warp By Vector, Extract Surface, Tube) runs (tests/support/check_beams_pvd.py). Skips
# without pvpython.
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
output: {directory: $work/out, fields: [displacement, section_forces]}
EOF2
run 2 "$work/beam.yaml"
"${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_beams_pvd.py" "$work/out/beam.pvd" \
  --beams 16 --root-my 2000 || failed=1
finish
