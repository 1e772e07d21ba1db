#!/usr/bin/env bash
# A shell strip welded to a solid block by a coupling of its edge (examples/guide/couplings.md,
# "A shell edge on a solid face"): `couplings: [{edge: weld, surface: block_face}]`, each node of
# the strip's edge leading the block's face nodes nearest to it (meshed apart: the edge lies on
# the face without sharing nodes). A tip force P on the 1 m strip (t 10 mm):
# - static: the tip deflection is the same strip clamped at its edge's, plus the block's compliance
#   (0 to 0.2 %), the block's support carries P; np 1, 2, 3 agree;
# - section cuts through the strip (static, with gravity and a side force): the loads beyond the
#   plane and their moments to 1e-6 N, np 1, 2, 3;
# - explicit (a suddenly applied P, coupling penalty 10): the energy balance closes;
# - the same cuts through corotational shells (static, the tip force alone): the cut carries the
#   load beyond it, and its moment is about where the loaded tip is now (my = -P (1 + u_x - x_p)
#   with the probed middle tip node's u_x, 1e-5 N m, measured 9.7e-7; the tip's u_x of -6e-5
#   moves it by 6e-3 N m);
# - a `node:` coupling given an edge, an edge of solid nodes, both keys, a section cut through
#   corotational shells with stiffness-proportional damping: one error line each.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
cd "$work"
case_file() {  # case_file FILE DIR COUPLING-LINES CONDITION-LINES TIME [MORE-LINES]
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_weld.msh}
materials:
  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.0}
  - {region: block, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.0}
shells:
  - {region: plate, thickness: 0.01}
$3
boundary_conditions:
  - {region: block_back, type: fixed}
  - {region: tip, type: force, value: [0, 0, -100]}
$4
time: $5
${6:-}
output: {directory: $2, every: 0, history_every: 10,
         probes: [{name: tip, point: [1, 0.1, 0], fields: [displacement]}],
         sections: [{name: mid, plane: {point: [0.5, 0.1, 0], normal: [1, 0, 0]}},
                    {name: q, plane: {point: [0.76, 0.1, 0], normal: [1, 0, 0]}}]}
EOF
}
weld="couplings:
  - {name: weld, edge: weld, surface: block_face}"
static="{integrator: static, dt: 1, steps: 1}"
for np in 1 2 3; do
  case_file "weld$np.yaml" "weld$np" "$weld" "" "$static"
  run $np "weld$np.yaml"
  case_file "cut$np.yaml" "cut$np" "$weld" "  - {region: tip, type: force, value: [0, 300, 0]}" \
    "$static" "gravity: [0, 0, -9.81]"
  run $np "cut$np.yaml"
done
hasnt "$work/last.log" "no constrained DOF"
case_file clamped.yaml clamped "" "  - {region: weld, type: fixed}" "$static"
run 1 clamped.yaml
case_file explicit.yaml explicit "couplings:
  - {name: weld, edge: weld, surface: block_face, penalty: 10}" "" \
  "{integrator: central_difference, mass: lumped, dt: auto, end_time: 2.0e-4}"
run 2 explicit.yaml
case_file node.yaml node "couplings:
  - {name: weld, node: weld, surface: block_face}" "" "$static"
same_refusal 1 "coupling 'weld': node region 'weld' is not a point region" node.yaml
case_file solid.yaml solid "couplings:
  - {name: weld, edge: block_back, surface: block_face}" "" "$static"
same_refusal 1 "coupling 'weld': edge 'block_back' is not a line region" solid.yaml
case_file both.yaml both "couplings:
  - {name: weld, node: weld, edge: weld, surface: block_face}" "" "$static"
same_refusal 1 "give 'node' or 'edge', not both" both.yaml
case_file corot.yaml corot "$weld" "" "$static"
sed -i 's/thickness: 0.01}/thickness: 0.01, kinematics: corotational}/' corot.yaml
run 2 corot.yaml
case_file damped.yaml damped "$weld" "" \
  "{integrator: newmark, dt: 1.0e-4, end_time: 1.0e-3, rayleigh: {mass: 0, stiffness: 1.0e-4}}"
sed -i 's/thickness: 0.01}/thickness: 0.01, kinematics: corotational}/' damped.yaml
same_refusal 1 "the cells at the cut are plastic or hyperelastic and the damping has a stiffness part" damped.yaml
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
w = read(f"{work}/weld1/probes.csv")
c = read(f"{work}/clamped/probes.csv")
check("welded tip deflection / clamped", w["tip.uz"][-1] / c["tip.uz"][-1], 1.0, 1.002)
check("clamped tip deflection / (P L^3 / 3 E I)", -c["tip.uz"][-1] / 0.01, 0.99, 1.0)
r = read(f"{work}/weld1/reactions.csv")
check("the block's support carries P (N)", r["block_back.fz"][-1], 100 - 1e-6, 100 + 1e-6)
for np in (2, 3):
    o = read(f"{work}/weld{np}/probes.csv")
    check(f"np {np} against np 1: tip deflection", abs(o["tip.uz"][-1] / w["tip.uz"][-1] - 1), 0, 1e-9)
# Section cuts through the shells (the strip's cells beyond the plane, x > 0.5 and from the
# nodes at x = 0.75 on): the loads beyond it, P = (0, 300, -100) at the tip and the weight of
# those cells (rho t b (1 - x_cut) g), and their moments about the plane's point.
for np in (1, 2, 3):
    sc = read(f"{work}/cut{np}/sections.csv")
    for name, x, at in (("mid", 0.5, 0.5), ("q", 0.75, 0.76)):
        weight = 7800 * 0.01 * 0.2 * (1 - x) * 9.81
        expected = {"fx": 0, "fy": -300, "fz": 100 + weight, "mx": 0,
                    "my": -(100 * (1 - at) + weight * ((1 + x) / 2 - at)), "mz": -300 * (1 - at)}
        worst = max(abs(sc[f"{name}.{k}"][-1] - v) for k, v in expected.items())
        check(f"section {name}, np {np}: force and moment against the statics (N, N m)", worst, 0, 1e-6)
p, sc = read(f"{work}/corot/probes.csv"), read(f"{work}/corot/sections.csv")
ux = p["tip.ux"][-1]
print(f"     corotational: tip u_x {ux:.3e}")
check("corotational: the tip's u_x (the lever's change; m)", -ux, 1e-5, 1e-3)
for name, at in (("mid", 0.5), ("q", 0.76)):
    expected = {"fx": 0, "fy": 0, "fz": 100, "mx": 0, "my": -100 * (1 + ux - at), "mz": 0}
    worst = max(abs(sc[f"{name}.{k}"][-1] - v) for k, v in expected.items())
    check(f"corotational section {name}: force and moment about the tip where it is (N, N m)", worst, 0, 1e-5)
e = read(f"{work}/explicit/energy.csv")
work_done = max(abs(x) for x in e["external_work"])
check("explicit: energy balance / the load's work", abs(e["total"][-1]) / work_done, 0, 1e-6)
if not passed():
    print("FAIL: shell welded to a solid"); sys.exit(1)
EOF
finish
