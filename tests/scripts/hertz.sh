#!/usr/bin/env bash
# Hertz: an elastic sphere pressed onto a rigid plane (static), against Hertz's solution
# (examples/guide/contact_walls.md). meshes/hertz_sphere.msh: a quarter of the lower half of a
# sphere (R = 0.01 m, E = 200 GPa, nu = 0.3; tet10, 3,289 nodes, size h = R / 40 near the pole,
# about a / 4), the symmetry planes x = 0 and y = 0 held normally, the flat face through the centre
# pushed down by delta = 1e-4 m (a / R = 0.1) onto a rigid floor z = 0 acting on the cap
# "contact", default penalty (penalty_scale 10). Hertz, E* = E / (1 - nu^2): a^3 = 3 F R / (4 E*),
# p = p0 sqrt(1 - r^2 / a^2). Compared where the comparison is exact in the limit, from the
# run's own total force F (four times the floor's, contact.csv) and its nodal contact forces
# (contact_pressure times the node's area share; tests/support/hertz_moments.py):
# - the contact radius a = sqrt(5/2 <r^2>) (<r^2>: the force-weighted mean of r^2, 2/5 a^2 for
#   Hertz's pressure) against a_Hertz(F): measured 1.0017 (0.5 % in force). On meshes of h =
#   0.4 a to 0.1 a (h0 4e-4 to 1e-4) it stays within 0.9984-1.0020: the discretisation's error
#   (-0.42 % at 0.4 a, +0.04 % at 0.1 a with penalty_scale 1000, where the penalty's is
#   negligible) and the penalty's (+0.27 % to +0.09 %, about as h) partly cancel. The limit,
#   1.0004-1.0005, is the sphere's departure from Hertz's half-space: 0.9997 at a / R = 0.05 (same
#   h / a). Checked within 0.5 %; penalty_scale 1 gives 1.0187 and must fail it (checked below);
# - the pressure's shape <r^4> / <r^2>^2 against Hertz's 10/7 (uniform 4/3, parabolic 3/2):
#   -0.38 % here, -1.1 % to -0.05 % from h = 0.4 a to 0.1 a. Checked within 1 %;
# - the floor's force against the top face's reaction (equilibrium) and against the sum of the
#   nodal pressures times their area shares (the contact_pressure field), both to 1e-9;
# - F against Hertz's force for the flat face's displacement delta: 1.056 (1.057 on the finest
#   mesh). Not Hertz's approach: delta includes the hemisphere's own compliance, linear in F where
#   Hertz's approach grows as F^(2/3); 1.026 at delta / 4, as sqrt(delta / R). Checked within
#   1.04-1.07;
# - the deepest penetration: 0.45 % of delta (0.62 % at h = 0.4 a to 0.23 % at 0.1 a; 3.7 % with
#   penalty_scale 1). Checked below 1 %;
# - np 1, 2 and 3: contact.csv and every node's pressure agree to 1e-8 (measured 1e-12 or less).
# Two spheres (meshes/hertz_two_spheres.msh: this sphere and its mirror image below, meshed
# independently; contact pair, static, Newton with the pair's tangent, two load steps, top and
# bottom faces pushed together by delta each): each half is the sphere on the floor, so Hertz's
# a(F) is the same (R* = R / 2, E* = E / (2 (1 - nu^2))) and so is F(delta). Measured: F 0.99799 of
# the floor's (checked within 0.5 %); contact radius from each side's nodal pressures 1.0018
# (upper) and 1.0022 (lower) of Hertz's (0.5 %), pressure shape -0.28 % and -0.38 % (1 %), the
# pressure times the area shares on each side -0.21 % and -0.20 % of F (0.5 %: a pair's pressure
# is the interface's on both sides), penetration 0.95 % of delta (2 %), the supports balance the
# contact (1e-8), np 1, 2, 3 equal to 1e-8 (measured 7e-14).
# Augmented Lagrangian iterations: the sphere on the floor with penalty_scale 1 and a 1e-8 m
# tolerance gets a contact radius 0.99952 of Hertz's (penalty_scale 1000: 0.99953), penetration
# below the tolerance, np 1 and 3 equal; the two spheres to 1e-7 m (np 2): penetration 5e-8 m,
# force 0.9983 of the augmented floor's (0.5 %), contact radius 0.9998 / 1.0002 (0.5 %).
# The refinement: gmsh meshes/hertz_sphere.geo -setnumber h0 H -3 -format msh41 -o m.msh, this
# case on m.msh (penalty_scale 10 and 1000), then python3 tests/support/hertz_moments.py OUT m.msh
# --youngs 2e11 --poisson 0.3 --radius 0.01 --delta 1e-4.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

sphere() {  # sphere FILE DIR [contact keys]
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/hertz_sphere.msh}
materials:
  - {region: ball, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: top, type: displacement, components: [z], value: [-1.0e-4]}
  - {region: symx, type: displacement, components: [x], value: [0]}
  - {region: symy, type: displacement, components: [y], value: [0]}
contact:
  ${3:-}
  walls:
    - {name: floor, region: contact, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
time: {integrator: static, dt: 1, steps: 1, linear_solver: direct}
output: {directory: $2, every: 1, fields: [contact_pressure], energy: false}
EOF
}

spheres() {  # spheres FILE DIR: two spheres pressed together (contact pair, static, Newton)
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/hertz_two_spheres.msh}
materials:
  - {region: upper, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
  - {region: lower, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: top, type: displacement, components: [z], value: [-1.0e-4]}
  - {region: bottom, type: displacement, components: [z], value: [1.0e-4]}
  - {region: symx, type: displacement, components: [x], value: [0]}
  - {region: symy, type: displacement, components: [y], value: [0]}
contact:
  ${3:-}
  pairs:
    - {name: balls, surfaces: [upper_contact, lower_contact]}
time: {integrator: static, dt: 0.5, steps: 2, linear_solver: direct}
output: {directory: $2, every: 1, fields: [contact_pressure, displacement], energy: false}
EOF
}

for np in 1 2 3; do
  sphere "$work/sphere$np.yaml" "out$np"
  run "$np" "$work/sphere$np.yaml"
  spheres "$work/spheres$np.yaml" "two$np"
  run "$np" "$work/spheres$np.yaml"
done
# A wall ten times softer than the default: the contact radius check must see it.
sphere "$work/soft.yaml" soft "penalty_scale: 1"
run 1 "$work/soft.yaml"
# The same soft wall with augmented Lagrangian iterations to 1e-8 m (1e-4 of delta), 1 and 3 ranks;
# two spheres with them to 1e-7 m (2 ranks).
for np in 1 3; do
  sphere "$work/al$np.yaml" "al$np" "penalty_scale: 1
  augmented: {tolerance: 1.0e-8}"
  run "$np" "$work/al$np.yaml"
done
spheres "$work/twoal.yaml" twoal "augmented: {tolerance: 1.0e-7}"
run 2 "$work/twoal.yaml"
grep -q "^finished: .*'balls' multipliers updated [1-9][0-9]* time" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the pair's multiplier updates in the summary"; exit 1; }
python3 - "$work" "$INERTIA_SOURCE_DIR" <<'EOF'
import csv, sys
work, source = sys.argv[1], sys.argv[2]
sys.path.insert(0, f"{source}/tests/support")
from hertz_moments import last_frame, measure
mesh = f"{source}/meshes/hertz_sphere.msh"
def hertz(out):
    return measure(f"{work}/{out}", mesh, 2.0e11, 0.3, 0.01, "floor", 4, 1.0e-4)[0]
def rows(path):
    r = [x for x in csv.reader(open(path)) if x and not x[0].startswith("#")]
    return r[0], [[float(v) for v in x] for x in r[1:]]
failed = []
def check(what, good):
    if not good:
        failed.append(what)
m = hertz("out1")
print(f"sphere on a rigid floor, np 1: F = {m['force']:.6g} N, {m['active']} nodes in contact, "
      f"penetration {m['penetration']:.3g} m ({m['penetration_over_delta']:.3g} of delta)")
print(f"  contact radius {m['a_moment']:.6g} m against Hertz's {m['a_hertz']:.6g} m for F: "
      f"{m['a_ratio']:.5f} (outermost node in contact at {m['outermost_node_over_a']:.3f} a)")
print(f"  pressure shape <r^4>/<r^2>^2 = {m['shape']:.5f} against 10/7: {m['shape_ratio']:.5f}")
print(f"  F against Hertz's for the flat face's displacement: {m['force_over_hertz_of_delta']:.4f}"
      " (the hemisphere's own compliance)")
print(f"  sum of pressure x area against the floor's force: {m['force_from_pressure_error']:.2g}")
check("contact radius within 0.5 %", abs(m["a_ratio"] - 1) < 5e-3)
check("pressure shape within 1 %", abs(m["shape_ratio"] - 1) < 1e-2)
check("F(delta) within 1.04-1.07 of Hertz's", 1.04 < m["force_over_hertz_of_delta"] < 1.07)
check("penetration below 1 % of delta", m["penetration_over_delta"] < 1e-2)
check("pressure x area sums to the force", abs(m["force_from_pressure_error"]) < 1e-9)
h, r = rows(f"{work}/out1/reactions.csv")
top = r[-1][h.index("top.fz")] * 4
print(f"  the top face's reaction {top:.12g} N against the floor's {m['force']:.12g} N")
check("the top's reaction balances the floor", abs(top + m["force"]) < 1e-9 * m["force"])
h1, c1 = rows(f"{work}/out1/contact.csv")
p1 = last_frame(f"{work}/out1")
peak = max(p1.values())
for np in (2, 3):
    h, c = rows(f"{work}/out{np}/contact.csv")
    p = last_frame(f"{work}/out{np}")
    dc = max(abs(a - b) / max(abs(a), 1e-300) for x, y in zip(c1, c) for a, b in zip(x, y) if a)
    dp = max(abs(p1[x] - p[x]) for x in p1) / peak
    print(f"np {np} against np 1: contact.csv {dc:.3g} (relative), pressures {dp:.3g} of the peak")
    check(f"np {np} agrees with np 1",
          h == h1 and len(c) == len(c1) and len(p) == len(p1) and dc < 1e-8 and dp < 1e-8)
# Two spheres: each half of the symmetric problem is the sphere on the floor (the contact plane
# z = 0 stays flat), so the force for the same delta and Hertz's a(F) are the floor's.
from hertz_moments import moments, two_body_frame
two = f"{source}/meshes/hertz_two_spheres.msh"
h, c = rows(f"{work}/two1/contact.csv")
F2 = 4 * c[-1][h.index("balls.fz")]
depth = c[-1][h.index("balls.penetration")]
print(f"two spheres (contact pair, static): F = {F2:.6g} N, {F2 / m['force']:.5f} of the sphere on "
      f"the floor's; penetration {depth:.3g} m ({depth / 1e-4:.3g} of delta)")
check("two spheres' force within 0.5 % of the floor's", abs(F2 / m["force"] - 1) < 5e-3)
check("two spheres' penetration below 2 % of delta", depth < 2e-2 * 1e-4)
p2, shares = two_body_frame(f"{work}/two1", two, ["upper_contact", "lower_contact"])
for side, pressure, share in zip(("upper", "lower"), p2, shares):
    t = moments(pressure, share, F2, 2.0e11, 0.3, 0.01)
    print(f"  {side} surface: contact radius {t['a_ratio']:.5f} of Hertz's, pressure shape "
          f"{t['shape_ratio']:.5f}, sum of pressure x area {4 * t['sum_p_area'] / F2 - 1:+.2g} of F")
    check(f"{side} sphere's contact radius within 0.5 %", abs(t["a_ratio"] - 1) < 5e-3)
    check(f"{side} sphere's pressure shape within 1 %", abs(t["shape_ratio"] - 1) < 1e-2)
    check(f"{side} sphere's pressure x area within 0.5 % of F", abs(4 * t["sum_p_area"] / F2 - 1) < 5e-3)
h, r = rows(f"{work}/two1/reactions.csv")
top, bottom = 4 * r[-1][h.index("top.fz")], 4 * r[-1][h.index("bottom.fz")]
print(f"  reactions: top {top:.12g} N, bottom {bottom:.12g} N")
check("the supports balance the contact", abs(top + F2) < 1e-8 * F2 and abs(bottom - F2) < 1e-8 * F2)
for np in (2, 3):
    h, c2 = rows(f"{work}/two{np}/contact.csv")
    q, _ = two_body_frame(f"{work}/two{np}", two, ["upper_contact", "lower_contact"])
    dc = max(abs(a - b) / max(abs(a), 1e-300) for x, y in zip(c, c2) for a, b in zip(x, y) if a)
    peak = max(max(side.values()) for side in p2)
    dp = max(abs(p2[k][x] - q[k][x]) for k in (0, 1) for x in p2[k]) / peak
    print(f"  np {np} against np 1: contact.csv {dc:.3g} (relative), pressures {dp:.3g} of the peak")
    check(f"two spheres: np {np} agrees with np 1", len(c2) == len(c) and dc < 1e-8 and dp < 1e-8
          and all(len(q[k]) == len(p2[k]) for k in (0, 1)))
s = hertz("soft")
print(f"penalty_scale 1: contact radius {s['a_ratio']:.5f} of Hertz's, penetration "
      f"{s['penetration_over_delta']:.3g} of delta (outside the tolerance: the check sees it)")
check("penalty_scale 1 outside the contact radius's tolerance", abs(s["a_ratio"] - 1) > 5e-3)
a = hertz("al1")
print(f"penalty_scale 1 with augmented Lagrangian iterations to 1e-8 m: contact radius "
      f"{a['a_ratio']:.5f} of Hertz's, penetration {a['penetration_over_delta']:.3g} of delta, "
      f"F {a['force'] / m['force']:.5f} of the default penalty's")
check("augmented: contact radius within 0.5 %", abs(a["a_ratio"] - 1) < 5e-3)
check("augmented: penetration below the tolerance", a["penetration"] < 1.0e-8)
p3 = last_frame(f"{work}/al3")
pa = last_frame(f"{work}/al1")
dp = max(abs(pa[x] - p3[x]) for x in pa) / max(pa.values())
print(f"  np 3 against np 1: pressures {dp:.3g} of the peak")
check("augmented: np 3 agrees with np 1", len(p3) == len(pa) and dp < 1e-8)
h, c = rows(f"{work}/twoal/contact.csv")
Fa = 4 * c[-1][h.index("balls.fz")]
depth = c[-1][h.index("balls.penetration")]
print(f"two spheres with augmented Lagrangian iterations to 1e-7 m: F {Fa / a['force']:.5f} of the "
      f"augmented floor's, penetration {depth:.3g} m")
check("two spheres, augmented: force within 0.5 % of the floor's", abs(Fa / a["force"] - 1) < 5e-3)
check("two spheres, augmented: penetration below the tolerance", depth < 1.0e-7)
p2a, shares = two_body_frame(f"{work}/twoal", two, ["upper_contact", "lower_contact"])
for side, pressure, share in zip(("upper", "lower"), p2a, shares):
    t = moments(pressure, share, Fa, 2.0e11, 0.3, 0.01)
    print(f"  {side} surface: contact radius {t['a_ratio']:.5f} of Hertz's")
    check(f"two spheres, augmented: {side} contact radius within 0.5 %", abs(t["a_ratio"] - 1) < 5e-3)
for what in failed:
    print(f"FAIL: {what}")
if failed:
    sys.exit(1)
EOF
finish
