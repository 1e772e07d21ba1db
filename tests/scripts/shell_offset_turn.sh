#!/usr/bin/env bash
# Offset shells in contact with their shift turned (examples/guide/shells.md, "Offsets in
# contact"; src/system/contact_offsets.hpp): a steel strip (1 x 0.1 m, t 20 mm, corotational) with
# its nodes on its top surface, pinned along its root edge, swings down under 10 g about the root
# onto a floor 0.88 m below, which it meets turned by about 60 degrees.
# - Its first wall force is in the step where the tip's mid-surface point, turned with the tip
#   node's rotation (x_n + (R(psi) - I) d, d = t / 2 down the reference normal), comes within t / 2
#   of the floor. The reference shift (not turned, as before) put that point (t / 2)(1 - cos 60)
#   = 5 mm lower: the strip was pushed 5 mm before it touched (its tip's turned gap +5 mm at the
#   first force), where now it is within a step's travel of zero.
# - The energy balance closes (1.2e-6 of the largest kinetic energy; 6.8e-7 with the reference
#   shift, whose gap is the translations' alone) with the forces' moments on the rotations.
# - np 1, 2 and 3 agree (the wall's forces, step for step).
# - With friction 0.3 on the floor, restarted at step 9,000 (in contact, a friction force of 91 N)
#   on 2 ranks: the run continues as the uninterrupted one, bit for bit (the committed points of
#   the friction turned again from the checkpoint's rotations).
# - The floor rising 0.12 m while the strip swings (a moving wall's work from the turned points):
#   the balance closes to 1.3e-6 of the largest kinetic energy.
# - Under newmark (dt 0.2 ms, np 2; Newton with the wall's tangent on the translations only): the
#   first force in the step where the turned point crosses t / 2 (the step before, the reference
#   shift's gap was already -5 mm), the balance to 1e-4.
# - A damped wall (`damping:`) on offset shells is refused with one line.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"

cd "$work"
swing() {  # swing FILE DIR [WALL-KEYS [TIME [EXTRA]]]
  cat > "$1" <<EOF2
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_strip_10x1.msh}
materials:
  - {region: strip, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: strip, thickness: 0.02, offset: top, kinematics: corotational}
boundary_conditions:
  - {region: root, type: fixed, components: [x, y, z]}
gravity: [0, 0, -98.1]
contact:
  walls:
    - {name: floor, region: strip, penalty: 1.0e8, ${3:-plane: {point: [0, 0, -0.88], normal: [0, 0, 1]\}}}
time: {${4:-integrator: central_difference, dt: auto}, end_time: 0.16}
output: {directory: $2, every: 0, history_every: 1,
         probes: [{name: tip, point: [1, 0, 0], fields: [displacement, rotation]}]${5:-}}
${6:-}
EOF2
}
for np in 1 2 3; do
  swing "swing$np.yaml" "swing$np"
  run $np "swing$np.yaml"
done
swing friction.yaml friction "friction: 0.3, plane: {point: [0, 0, -0.88], normal: [0, 0, 1]}" "" \
  ", checkpoint: {every: 9000, keep: 2}"
run 1 friction.yaml
cp friction/contact.csv friction.full
run 2 friction.yaml --restart friction/checkpoints/checkpoint_000009000.h5
swing moving.yaml moving "plane: {point: [0, 0, -0.9], normal: [0, 0, 1]}, motion: {displacement: [0, 0, 0.12], amplitude: up}" \
  "" "" "amplitudes: {up: {type: table, points: [[0, 0], [0.16, 1]]}}"
run 2 moving.yaml
swing newmark.yaml newmark "" "integrator: newmark, dt: 2.0e-4"
run 2 newmark.yaml
swing damped.yaml damped "damping: 0.2, plane: {point: [0, 0, -0.88], normal: [0, 0, 1]}"
expect_error "damping: a damped wall on shells with an offset is not built" 2 damped.yaml

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF2'
import math, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed

def rotation(psi):
    a = math.sqrt(sum(x * x for x in psi))
    if a == 0:
        return [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    k = [x / a for x in psi]
    c, s = math.cos(a), math.sin(a)
    K = [[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]]
    return [[(c if i == j else 0) + s * K[i][j] + (1 - c) * k[i] * k[j] for j in range(3)]
            for i in range(3)]

half, floor = 0.01, -0.88  # t / 2; the nodes' reference z is 0, the mid-surface's -t / 2
def gaps(k, p):  # the tip's turned and reference-shift gaps at row k
    R = rotation([p["tip.rx"][k], p["tip.ry"][k], p["tip.rz"][k]])
    turned = -half * R[2][2] + half  # ((R - I) d)_z, d = (0, 0, -t / 2)
    z = -half + p["tip.uz"][k]
    return z + turned - half - floor, z - half - floor
def balance(e):
    return max(abs(t - e["total"][0]) for t in e["total"]) / max(e["kinetic"])
c, e, p = (read(f"{work}/swing1/{f}.csv") for f in ("contact", "energy", "probes"))
i = next(i for i, f in enumerate(c["floor.normal"]) if f > 0)
check("the strip turned at the first wall force (tip ry, rad)", p["tip.ry"][i], 0.95, 1.15)
check("the tip's turned mid-surface gap the row before the first force (m)", gaps(i - 1, p)[0], 0, 3e-4)
check("and at the first force (m)", gaps(i, p)[0], -3e-4, 0)
check("the reference shift's gap there / -(t / 2)(1 - cos ry)", gaps(i, p)[1] / (-half * (1 - math.cos(p["tip.ry"][i]))), 0.97, 1.03)
check("energy balance: largest |total - initial| / largest kinetic", balance(e), 0, 1e-5)
check("the floor's peak force (N)", max(c["floor.normal"]), 1e3, 1e7)
peak = max(c["floor.normal"])
for np in (2, 3):
    o = read(f"{work}/swing{np}/contact.csv")
    check(f"np {np} against np 1: largest wall force difference / peak",
          largest_difference(c, o, ("floor.normal", "floor.fx", "floor.fz")) / peak, 0, 1e-9)
full, again = read(f"{work}/friction.full"), read(f"{work}/friction/contact.csv")
check("friction 0.3: the restart's rows", len(again["time"]), len(full["time"]), len(full["time"]))
check("friction 0.3: in contact at the restart, the friction force (fx, N)", full["floor.fx"][9000], 1, 1e6)
check("friction 0.3, restarted at step 9000 on 2 ranks: largest difference from the uninterrupted run",
      largest_difference(full, again, ("floor.fx", "floor.fz", "floor.normal", "floor.penetration")), 0, 0)
check("the floor rising 0.12 m: energy balance / largest kinetic", balance(read(f"{work}/moving/energy.csv")), 0, 1e-5)
c, e, p = (read(f"{work}/newmark/{f}.csv") for f in ("contact", "energy", "probes"))
i = next(i for i, f in enumerate(c["floor.normal"]) if f > 0)
check("newmark: the tip's turned gap the step before the first force (m)", gaps(i - 1, p)[0], 0, 1e-3)
check("newmark: and at the first force (m)", gaps(i, p)[0], -3e-3, 0)
check("newmark: the reference shift's gap the step before (m)", gaps(i - 1, p)[1], -6e-3, -4e-3)
check("newmark: energy balance / largest kinetic", balance(e), 0, 1e-3)
sys.exit(0 if passed() else 1)
EOF2
finish
