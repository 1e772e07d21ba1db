#!/usr/bin/env bash
# A block resting exactly on a slab (meshes/slide_pair.geo: touching, no node shared; the slab's
# bottom held), a contact pair with friction 0.3, loaded statically by its weight tilted by 10
# degrees (tan 10 deg = 0.176 < 0.3: it sticks). In Newton's first iteration no node presses
# yet: only the pair's stick spring k (I - n n^T) for the touching nodes (ContactPairTerm::link)
# holds the block along the slab, as the walls' does since bfc2ec6 (without it a rigid wall's
# block slid 2e7 m). Checked on 1 and 2 ranks: the friction force over the normal force tan 10
# deg to 1e-9, the normal force the weight's component 9.661 N to 1e-9, the block's top moving
# sideways at most 1e-5 m (measured 8.3e-6: the shear of the two bodies).
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"
for np in 1 2; do
  mkdir -p rest$np && cat > rest$np/case.yaml <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/slide_pair.msh}
materials:
  - {region: slab, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
gravity: {value: [1.7034886229125867, 0, -9.66096405704976]}   # 9.81 m/s^2 tilted by 10 degrees
boundary_conditions:
  - {region: slab_bottom, type: fixed}
contact:
  pairs:
    - {name: floor, surfaces: [block_bottom, slab_top], friction: 0.3}
time: {integrator: static, dt: 1, steps: 2}
output: {directory: out, every: 0, probes: [{name: top, point: [0.1, 0.1, 0.15]}]}
YAML
  (cd rest$np && mpi $np "$INERTIA" case.yaml > log 2>&1) || fail "np $np: $(tail -1 rest$np/log)"
done
python3 - <<'PY' || failed=1
import math
from csv_checks import read, check, passed
for np in (1, 2):
    c, p = read('rest%d/out/contact.csv' % np), read('rest%d/out/probes.csv' % np)
    fx, fz = c['floor.fx'][-1], c['floor.fz'][-1]
    check('np %d: friction / normal force / tan 10 deg - 1' % np, -fx / fz / math.tan(math.radians(10)) - 1, -1e-9, 1e-9)
    check('np %d: normal force / 9.66096405704976 N - 1' % np, fz / 9.66096405704976 - 1, -1e-9, 1e-9)
    check('np %d: the top\'s sideways move (m)' % np, max(abs(x) for x in p['top.ux']), 0, 1e-5)
raise SystemExit(0 if passed() else 1)
PY
finish
