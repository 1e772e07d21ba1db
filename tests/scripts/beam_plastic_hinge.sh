#!/usr/bin/env bash
# Plastic beams: fiber sections with the uniaxial J2 law (a `sections:` region whose material has
# plasticity:), meshes/beam_cantilever_16.msh (L = 2 along x, 16 elements), a 0.1 x 0.2 steel
# rectangle (sigma_y 250 MPa, perfectly plastic: M_p = sigma_y b h^2 / 4 = 250 kN m):
# - a fixed-fixed beam of span 4 under a central load, by symmetry the half span with its middle
#   guided (rotations held) and pushed down 0.2 m (static, Newton): the load tends to the collapse
#   load 8 M_p / L; displacement-based fiber beams reach it at first order in the element length,
#   as 8 M_p / (L - 4h/3) with hinges at the Gauss-Lobatto end points (the hinge element's
#   curvature keeps its sign): the half load to 1e-3 of it (4.3 % above 8 M_p / L at h = L/32), at
#   np 1, 2, 3; the energy balance (plastic dissipation booked) closes at second order in the
#   load step (the trapezoidal rule's work: the error / 4 per halving, > 3);
# - a cantilever cycled at its tip to +-4 delta_y with kinematic hardening: the hysteresis loop's
#   work (the energy balance's plastic dissipation) is what the tip force did, to 1 % of it; the
#   peak loads at +4 and -4 delta_y are equal and opposite (1e-6, kinematic hardening), the root
#   moment there between M_p and 1.2 M_p (the hardening); the dissipation 80-100 % of the work
#   after 2.5 loops; np 2 equals np 1;
# - section cuts through the plastic beams (their own force): through the root its reaction, at
#   x = 1 the same force and its moment over the lever, every row, 1e-9 of M_p (np 1, 3; cycling).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

beam() {  # beam FILE HARDENING CONDITIONS TIME AMPLITUDES
  cat > "$1" << EOF2
mesh: {file: $meshes/beam_cantilever_16.msh}
materials:
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8$2}}
sections:
  - {region: beam, shape: {type: rectangle, width: 0.1, height: 0.2}, fibers: 16}
boundary_conditions:
  - {region: root, type: fixed}
$3
time: $4
$5
output:
  directory: out
  every: 0
  probes: [{name: tip, point: [2, 0, 0], fields: [displacement]}]
  reactions: true
  sections: [{name: root, plane: {point: [0, 0, 0], normal: [1, 0, 0]}},
             {name: mid, plane: {point: [1, 0, 0], normal: [1, 0, 0]}}]
EOF2
}
guided="  - {region: tip, type: fixed, components: [x, y, rx, ry, rz]}
  - {region: tip, type: displacement, components: [z], value: [-0.2]}"
beam half.yaml "" "$guided" "{integrator: static, dt: 0.025, end_time: 1}" ""
beam half_fine.yaml "" "$guided" "{integrator: static, dt: 0.0125, end_time: 1}" ""
beam cycle.yaml ", kinematic_hardening: 4.2e9" \
  "  - {region: tip, type: displacement, components: [z], value: [0.0635], amplitude: cycle}" \
  "{integrator: static, dt: 0.025, end_time: 5}" \
  "amplitudes: {cycle: {type: table, points: [[0, 0], [1, 1], [3, -1], [5, 1]]}}"

for np in 1 2 3; do in_dir "half$np" "$np" half.yaml; done
in_dir half_fine 1 half_fine.yaml
in_dir cycle1 1 cycle.yaml
in_dir cycle2 2 cycle.yaml

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" << 'PY' || failed=1
import sys

sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed

work = sys.argv[1]
Mp = 2.5e8 * 0.1 * 0.2 ** 2 / 4
My = 2.5e8 * (0.1 * 0.2 ** 3 / 12) / 0.1
L, h = 4.0, 0.125
discrete = 8 * Mp / (L - 4 * h / 3) / 2
for np_ in (1, 2, 3):
    r = read(f"{work}/half{np_}/out/reactions.csv")
    half = r["root.fz"][-1]
    check(f"np {np_}: half span's collapse load / (8 M_p / (L - 4h/3) / 2)", half / discrete,
          1 - 1e-3, 1 + 1e-3)
    check(f"np {np_}: collapse load / (8 M_p / L), the elements' first-order excess",
          2 * half / (8 * Mp / L), 1.0, 1.05)
errors = []
for run in ("half1", "half_fine"):
    e = read(f"{work}/{run}/out/energy.csv")
    errors.append(abs(e["total"][-1]))
    print(f"     {run}: energy balance {e['total'][-1]:.4g} J of {e['external_work'][-1]:.6g} J "
          f"work, plastic dissipation {e['plastic_dissipation'][-1]:.6g} J")
check("half span: energy balance error ratio, load step 0.025 / 0.0125 (second order)",
      errors[0] / errors[1], 3, 5)
e = read(f"{work}/cycle1/out/energy.csv")
check("cycle: plastic dissipation / the tip force's work (2.5 loops: most of it)",
      e["plastic_dissipation"][-1] / e["external_work"][-1], 0.8, 1)
check("cycle: |energy balance| / plastic dissipation", abs(e["total"][-1]) /
      e["plastic_dissipation"][-1], 0, 1e-2)
r = read(f"{work}/cycle1/out/reactions.csv")
t = r["time"]
peak_up = -r["root.fz"][t.index(1.0)]
peak_down = -r["root.fz"][min(range(len(t)), key=lambda k: abs(t[k] - 3.0))]
check("cycle: root moment at +4 delta_y / M_p (beyond it by the kinematic hardening)",
      peak_up * 2 / Mp, 1.0, 1.2)
check("cycle: tip loads at -4 and +4 delta_y, opposite (kinematic hardening)",
      abs(peak_up + peak_down) / peak_up, 0, 1e-6)
# Section cuts through the fiber beams (their own force at u, from the committed state): through
# the root, the root's reaction at every row (force and moment); at x = 1, no load between, the
# same force and the moment carried over the lever (M(1) = M(0) - (1, 0, 0) x F).
for run in ("half1", "half3", "cycle1"):
    sc, r = read(f"{work}/{run}/out/sections.csv"), read(f"{work}/{run}/out/reactions.csv")
    worst_root = worst_mid = 0
    for k in range(len(sc["time"])):
        f = [sc[f"root.f{c}"][k] for c in "xyz"]
        worst_root = max([worst_root] + [abs(sc[f"root.{q}{c}"][k] - r[f"root.{q}{c}"][k]) / Mp
                                         for q in "fm" for c in "xyz"])
        m1 = [sc[f"root.m{c}"][k] for c in "xyz"]
        m1 = [m1[0], m1[1] + f[2], m1[2] - f[1]]  # M(0) - (1, 0, 0) x F
        worst_mid = max([worst_mid] + [abs(sc[f"mid.f{c}"][k] - f[i]) / Mp for i, c in enumerate("xyz")]
                        + [abs(sc[f"mid.m{c}"][k] - m1[i]) / Mp for i, c in enumerate("xyz")])
    check(f"{run}: the root cut against the root's reaction, every row (/ M_p)", worst_root, 0, 1e-9)
    check(f"{run}: the cut at x = 1 against the root cut carried over (/ M_p)", worst_mid, 0, 1e-9)
a, b = read(f"{work}/cycle1/out/reactions.csv"), read(f"{work}/cycle2/out/reactions.csv")
check("cycle: np 2 against np 1, reactions / peak", largest_difference(a, b, ["root.fz"]) / peak_up,
      0, 1e-8)
sys.exit(0 if passed() else 1)
PY
finish
