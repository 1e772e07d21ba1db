#!/usr/bin/env bash
# A corotational shell strip rolled into a full circle (`shells:` with kinematics: corotational):
# meshes/shell_strip_20x1.msh and shell_strip_20.msh (L 1, b 0.1, 20 x 1 and 20 x 2 quads in z =
# 0), t 0.01, E 2.1e11, nu 0 (E I = E b t^3 / 12 = 1750 N m^2), the root clamped, every node held
# in the plane of the roll (y, rx, rz).
# - static, 20 load steps of Newton: an end moment M = 2 pi E I / L (`type: moment` on the tip
#   edge's two rotation nodes) rolls the strip into a full circle: the tip back at the root and
#   its rotation 2 pi (1e-6), the root's reaction moment -M (1e-6), at np 1, 2, 3 (the same to
#   1e-9); every intermediate state (M_k = k M / 20, tip rotation 2 pi k / 20) on the polygon of
#   the 20 elements' chords, which the element reproduces exactly in pure bending (1e-8 L), and
#   near the exact circle of radius E I / M_k (the chords' error, below 2.1e-3 L);
# - the same with the tip rotation prescribed (ry = 2 pi on the 20 x 2 mesh's three tip nodes):
#   the root's reaction moment 2 pi E I / L and the tip at the root (1e-6);
# - explicit (central difference, dt auto): half the moment suddenly applied (its static state a
#   half circle) swings the free end to 0.82 of a turn (5.2 rad, at 0.047 s: the higher modes
#   ride on the first); the energy balance (kinetic + strain - work) stays within 3e-4 of the
#   largest work done (measured 7.7e-5 over 5,750 steps), np 2 the same as np 1 (1e-9);
# - section cuts through the corotational strip (output.sections at x = 0.25, 0.5, 0.75 of the
#   reference): in the circle, at every load step, the moment -M_k and no force (1e-6); a helix
#   (the strip free, an end moment m = (800, 2500, 0) N m on the two tip nodes' rotation
#   vectors, so at each tip node its moment about the node is T(psi)^-T m / 2, T the
#   exponential's tangent at the tip's rotation psi, |psi| 1.46 rad): every cut, the root's too,
#   carries minus the sum of those (1e-6 N m; measured 6e-9), computed here from the tip's probed
#   rotations. Without each cut node's own T^-T (the shell's force on a rotation vector is
#   T^T times the moment) the cuts, at growing rotations along the strip, would differ.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
meshes="$INERTIA_SOURCE_DIR/meshes"

strip() {  # strip MESH LOAD TIME
  cat <<YAML
mesh: {file: $meshes/$1.msh}
materials:
  - {region: strip, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
shells:
  - {region: strip, thickness: 0.01, kinematics: corotational}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: strip, type: fixed, components: [y, rx, rz]}   # the plane of the roll
$2
time: $3
output:
  directory: out
  every: 0
  probes: [{name: tip, point: [1, 0, 0], fields: [displacement, rotation]},
           {name: top, point: [1, 0.1, 0], fields: [displacement, rotation]}]
  sections: [{name: root, plane: {point: [0, 0, 0], normal: [1, 0, 0]}},
             {name: quarter, plane: {point: [0.25, 0, 0], normal: [1, 0, 0]}},
             {name: half, plane: {point: [0.5, 0, 0], normal: [1, 0, 0]}},
             {name: q3, plane: {point: [0.75, 0, 0], normal: [1, 0, 0]}}]
YAML
}
M=10995.574287564276  # 2 pi E I / L
strip shell_strip_20x1 "  - {region: tip, type: moment, value: [0, $M, 0]}" \
  "{integrator: static, dt: 0.05, end_time: 1}" > circle.yaml
strip shell_strip_20 "  - {region: tip, type: displacement, components: [ry], value: [6.283185307179586]}" \
  "{integrator: static, dt: 0.05, end_time: 1}" > turned.yaml
strip shell_strip_20x1 "  - {region: tip, type: moment, value: [0, $(python3 -c "print($M / 2)"), 0]}" \
  "{integrator: central_difference, dt: auto, end_time: 0.05}" > swing.yaml
sed -i 's/every: 0$/every: 0\n  history_every: 20/' swing.yaml
strip shell_strip_20x1 "  - {region: tip, type: moment, value: [800, 2500, 0]}" \
  "{integrator: static, dt: 0.05, end_time: 1}" | sed '/components: \[y, rx, rz\]/d' > helix.yaml

for np in 1 2 3; do
  mkdir -p circle$np && cp circle.yaml circle$np/
  (cd circle$np && mpi $np "$INERTIA" circle.yaml > log 2>&1) || fail "circle np $np: $(tail -1 circle$np/log)"
done
mkdir -p helix && cp helix.yaml helix/
(cd helix && mpi 2 "$INERTIA" helix.yaml > log 2>&1) || fail "helix: $(tail -1 helix/log)"
mkdir -p turned && cp turned.yaml turned/
(cd turned && mpi 2 "$INERTIA" turned.yaml > log 2>&1) || fail "turned: $(tail -1 turned/log)"
for np in 1 2; do
  mkdir -p swing$np && cp swing.yaml swing$np/
  (cd swing$np && mpi $np "$INERTIA" swing.yaml > log 2>&1) || fail "swing np $np: $(tail -1 swing$np/log)"
done
grep -q "^shells    region 'strip': 20 shells (MITC4, corotational)" circle1/log ||
  fail "the log's shell line: $(grep '^shells' circle1/log)"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY' || failed=1
import math
import sys

sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed

work = sys.argv[1]
L, n, EI = 1.0, 20, 2.1e11 * 0.1 * 0.01 ** 3 / 12
M = 2 * math.pi * EI / L
for np_ in (1, 2, 3):
    p = read(f"{work}/circle{np_}/out/probes.csv")
    r = read(f"{work}/circle{np_}/out/reactions.csv")
    for probe in ("tip", "top"):
        gap = math.hypot(L + p[f"{probe}.ux"][-1], p[f"{probe}.uz"][-1])
        check(f"np {np_}: full circle, |{probe} - root| / L", gap / L, 0, 1e-6)
    check(f"np {np_}: tip rotation / 2 pi", p["tip.ry"][-1] / (2 * math.pi), 1 - 1e-6, 1 + 1e-6)
    check(f"np {np_}: root reaction moment / -M", r["root.my"][-1] / -M, 1 - 1e-6, 1 + 1e-6)
    if np_ == 1:
        one = p
        polygon = arc = rotation = 0
        for k in range(1, len(p["time"])):
            lam = p["time"][k]
            theta = 2 * math.pi * lam
            x = sum(L / n * math.cos((i + 0.5) * theta / n) for i in range(n))
            z = -sum(L / n * math.sin((i + 0.5) * theta / n) for i in range(n))
            tip = (L + p["tip.ux"][k], p["tip.uz"][k])
            polygon = max(polygon, math.hypot(tip[0] - x, tip[1] - z) / L)
            R = EI / (lam * M)
            arc = max(arc, math.hypot(tip[0] - R * math.sin(theta), tip[1] + R * (1 - math.cos(theta))) / L)
            rotation = max(rotation, abs(p["tip.ry"][k] / theta - 1))
        print(f"     {len(p['time']) - 1} load steps")
        check("every step: tip rotation against 2 pi M_k / M, largest relative error", rotation, 0, 1e-8)
        check("every step: the tip against the 20 chords' polygon, largest distance / L", polygon, 0, 1e-8)
        check("every step: the tip against the exact circle of radius EI/M_k, largest distance / L (the chords')",
              arc, 1e-4, 2.1e-3)
    else:
        worst = max(abs(a - b) for c in ("tip.ux", "tip.uz", "top.ux", "top.uz")
                    for a, b in zip(one[c], p[c]))
        check(f"np {np_} against np 1: largest tip displacement difference / L", worst / L, 0, 1e-9)
cuts = ("root", "quarter", "half", "q3")
s = read(f"{work}/circle1/out/sections.csv")
worst = max(max(abs(s[f"{c}.my"][k] + M * s["time"][k]) / M,
                max(abs(s[f"{c}.{q}"][k]) for q in ("fx", "fy", "fz")) / (M / L))
            for c in cuts for k in range(len(s["time"])))
check("circle, every step: each cut's moment against -M_k and its force against 0 (/ M)", worst, 0, 1e-6)


def moment_about_node(psi, m):
    """T(psi)^-T m: the moment about the node of m, conjugate to the rotation vector psi."""
    a2 = sum(x * x for x in psi)
    a = math.sqrt(a2)
    c2, c3 = (1 - math.cos(a)) / a2, (a - math.sin(a)) / (a2 * a)
    S = [[0, -psi[2], psi[1]], [psi[2], 0, -psi[0]], [-psi[1], psi[0], 0]]
    S2 = [[sum(S[i][k] * S[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    T = [[(i == j) + c2 * S[i][j] + c3 * S2[i][j] for j in range(3)] for i in range(3)]
    A = [[T[j][i] for j in range(3)] for i in range(3)]  # T^T

    def det(B):
        return (B[0][0] * (B[1][1] * B[2][2] - B[1][2] * B[2][1])
                - B[0][1] * (B[1][0] * B[2][2] - B[1][2] * B[2][0])
                + B[0][2] * (B[1][0] * B[2][1] - B[1][1] * B[2][0]))
    return [det([[m[r] if c == i else A[r][c] for c in range(3)] for r in range(3)]) / det(A)
            for i in range(3)]


p, s = read(f"{work}/helix/out/probes.csv"), read(f"{work}/helix/out/sections.csv")
expected = [0.0, 0.0, 0.0]
for node in ("tip", "top"):
    m = moment_about_node([p[f"{node}.r{c}"][-1] for c in "xyz"], [400, 1250, 0])
    expected = [e - x for e, x in zip(expected, m)]
print("     helix: the tip's moments about the nodes, summed: (%.4f, %.4f, %.4f) N m" % tuple(-e for e in expected))
worst = max(max(abs(s[f"{c}.m{q}"][-1] - e) for q, e in zip("xyz", expected)) for c in cuts)
check("helix: each cut's moment against minus the tip's (N m)", worst, 0, 1e-6)
check("helix: the cut moment differs from the applied m (a test of the rotations' tangent, N m)",
      abs(s["half.mz"][-1]), 100, 1e4)
check("helix: each cut's force against 0 (N)",
      max(abs(s[f"{c}.f{q}"][-1]) for c in cuts for q in "xyz"), 0, 1e-6)
p = read(f"{work}/turned/out/probes.csv")
r = read(f"{work}/turned/out/reactions.csv")
check("prescribed tip rotation 2 pi (20 x 2, np 2): root reaction moment / -2 pi EI / L",
      r["root.my"][-1] / -M, 1 - 1e-6, 1 + 1e-6)
check("prescribed tip rotation: |tip - root| / L", math.hypot(L + p["tip.ux"][-1], p["tip.uz"][-1]) / L, 0, 1e-6)
e1, p1 = read(f"{work}/swing1/out/energy.csv"), read(f"{work}/swing1/out/probes.csv")
e2 = read(f"{work}/swing2/out/energy.csv")
work_done = max(abs(w) for w in e1["external_work"])
check("explicit: largest tip rotation / 2 pi (beyond the static half turn: large rotations)",
      max(p1["tip.ry"]) / (2 * math.pi), 0.6, 1.2)
check("explicit: largest |kinetic + strain - work| / largest work",
      max(abs(k + s - w) for k, s, w in zip(e1["kinetic"], e1["strain"], e1["external_work"])) / work_done,
      0, 3e-4)
check("explicit: np 2 against np 1, largest energy difference / work",
      max(abs(a - b) for c in ("kinetic", "strain", "external_work") for a, b in zip(e1[c], e2[c])) / work_done,
      0, 1e-9)
sys.exit(0 if passed() else 1)
PY
finish
