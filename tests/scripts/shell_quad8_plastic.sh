#!/usr/bin/env bash
# Plastic curved 8-node shells (fe/shell8.hpp's shell8_update: the quad8 element with the
# plane-stress J2 section through the thickness, linear kinematics) through the whole program.
#
# The plate strip of shell_plastic_strip.sh on 8-node quadrilaterals: meshes/shell_strip_q8_10x1.msh
# (L 1, b 0.1, 10 x 1 quad8; shell_strip.geo with -setnumber order 2), t 0.01, E 2.1e11, nu 0.3,
# sigma_y 2.5e8, H = E / 100, bent by an end moment to M_p = sigma_y t^2 / 4 per width and
# unloaded (Simpson 5, on 1 and 2 ranks), and to 0.9 M_p (Gauss-Lobatto 5). The 3-node edges take
# the consistent share of a uniform moment per length (1/6, 2/3, 1/6: `moment` 2 M on the tip's 3
# nodes and -M on its 2 corners, "tip_corners"); the root is a symmetry plane (x, ry, rz held)
# with y and z held at its corners only ("root_corners"), so that the section bends
# anticlastically (a quad8 edge has a middle node: holding z there too would hold the anticlastic
# curvature at the root). Every element is then in the same state (the tip's and the middle's
# curvatures agree to 1e-12). Checked, as the 4-node strip is:
# - every step: the applied moment against the same section computed in numpy
#   (tests/support/shell_strip_section.py) at the computed curvature (tip rotation / L): within
#   5e-5 M_p (measured 1.4e-8: the Newton tolerance; the quad8 is exact in uniform bending, and
#   with linear kinematics the tip rotation is the curvature times L exactly); np 2 the same
#   curvatures as np 1 to 1e-9 kappa_y (measured 1.6e-11);
# - Simpson 5 reaches M_p at 1.976 kappa_y (as the 4-node strip: 1.089 times the closed form's
#   moment there, checked in [1.06, 1.12]), Lobatto 5 at 0.9 M_p 1.03 to 1.08 times the closed
#   form;
# - unloading elastic: no dissipation after the peak, the residual curvature kappa_peak - M_p /
#   (E t^3 / 12) to 5e-5 kappa_y; work = strain energy + plastic dissipation to 2e-3 of the work;
#   the state output has shell.equivalent_plastic_strain; the log's shell line says linear; a
#   restart from the peak's checkpoint (1 rank to 2) ends where the uninterrupted run does (1e-8;
#   measured 3e-15).
# NOT reached, as for the 4-node strip: past M_p (Simpson 5's collapse plateau with a hardening
# modulus of E / 100 is the section's curve, shown through it here up to M_p).
#
# A curved case: an open thin tube under internal pressure (the octant of
# shell_pinched_cylinder_q8_8.msh: R 300, L 300 from the symmetry plane, t 3, free end, the same
# steel), loaded to 1.5 p_y, p_y = sigma_y t / R (the hoop stress p R / t is uniaxial): the
# radial displacement at the symmetry plane against the bilinear hoop strain R (s / E + (s -
# sigma_y) / H), s = p R / t: within 1e-3 (measured 3.1e-5 elastic, 2.8e-4 at 1.05 p_y, 6.6e-5 at
# 1.5 p_y); no plastic strain at 0.975 p_y, some at 1.05 p_y (the state output's maximum), np 1
# and 2 the same to 1e-9.
#
# Refused with one line each: kinematics: corotational on plastic quad8, quad8 shells in an
# explicit run, formulation: belytschko_tsay on quad8, a plastic region of quad8 and quad4 cells
# (a two-cell MSH 2.2 mesh written here). About 35 s.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "the plastic quad8 shells"
cd "$work" || exit 1
meshes="$INERTIA_SOURCE_DIR/meshes"

strip() {  # strip RULE POINTS M_MAX 2M_MAX AMPLITUDE_POINTS END_TIME [OUTPUT]
  cat <<YAML
mesh: {file: $meshes/shell_strip_q8_10x1.msh}
materials:
  - {region: strip, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.1e9}}
shells:
  - {region: strip, thickness: 0.01, integration: $1, integration_points: $2}
boundary_conditions:
  - {region: root, type: fixed, components: [x, ry, rz]}   # a symmetry plane
  - {region: root_corners, type: fixed, components: [y, z]}
  - {region: tip, type: moment, value: [0, $4, 0], amplitude: load}
  - {region: tip_corners, type: moment, value: [0, -$3, 0], amplitude: load}
amplitudes: {load: {type: table, points: $5}}
time: {integrator: static, dt: 0.05, end_time: $6}
output:
  directory: out
  every: 20
  probes: [{name: tip, point: [1, 0, 0], fields: [displacement, rotation]},
           {name: middle, point: [0.5, 0.05, 0], fields: [rotation]}]
${7:-}
YAML
}
strip simpson 5 625 1250 "[[0, 0], [1, 1], [2, 0]]" 2 "  fields: [state]
  checkpoint: {every: 20}" > s5.yaml
strip lobatto 5 562.5 1125 "[[0, 0], [1, 1]]" 1 > l5.yaml

cylinder() {
  cat <<YAML
mesh: {file: $meshes/shell_pinched_cylinder_q8_8.msh}
materials:
  - {region: panel, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.1e9}}
shells:
  - {region: panel, thickness: 3, integration: simpson, integration_points: 5}
boundary_conditions:
  - {region: end0, type: fixed, components: [x, ry, rz]}     # symmetry
  - {region: edge0, type: fixed, components: [y, rx, rz]}    # the plane y = 0
  - {region: edge1, type: fixed, components: [z, rx, ry]}    # the plane z = 0
  - {region: panel, type: pressure, value: -2.5e6, amplitude: load}   # p_y, outwards
amplitudes: {load: {type: table, points: [[0, 0], [1, 1.5]]}}
time: {integrator: static, dt: 0.05, end_time: 1}
output:
  directory: out
  every: 1
  fields: [state]
  probes: [{name: side, point: [0, 300, 0], fields: [displacement]}]
YAML
}
cylinder > cyl.yaml

for np in 1 2; do
  for run in s5 cyl; do
    mkdir -p ${run}_np$np && cp $run.yaml ${run}_np$np/
    (cd ${run}_np$np && mpi $np "$INERTIA" $run.yaml > log 2>&1) ||
      fail "$run np $np: $(grep error ${run}_np$np/log)"
  done
done
mkdir -p restart && cp s5.yaml restart/ && cp -r s5_np1/out restart/
(cd restart && mpi 2 "$INERTIA" s5.yaml --restart out/checkpoints/checkpoint_000000020.h5 > log 2>&1) ||
  fail "restart: $(grep error restart/log)"
grep -q "restart   from .*checkpoint_000000020.h5: step 20" restart/log || fail "the restart did not start from step 20"
mkdir -p l5 && cp l5.yaml l5/
(cd l5 && mpi 1 "$INERTIA" l5.yaml > log 2>&1) || fail "l5: $(grep error l5/log)"
grep -q "curved 8-node quadrilaterals (degenerated continuum, 2 x 2), linear, plane-stress J2 at 5 Simpson points" s5_np1/log ||
  fail "the log's shell line: $(grep '^shells' s5_np1/log)"

"$py" - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY' || failed=1
import glob
import re
import sys

import numpy as np

sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed
from shell_strip_section import E, L, Mp, b, closed_form, ky, rule, section, t

work = sys.argv[1]


def curve(run, m_max, down):
    """Curvature and the applied moment per width at each step (from the amplitude)."""
    p = read(f"{work}/{run}/out/probes.csv")
    lam = np.array(p["time"][1:])
    k = np.array(p["tip.ry"][1:]) / L
    check(f"{run}: the tip's curvature against the middle's (uniform bending), largest difference / kappa_y",
          np.abs(k - np.array(p["middle.ry"][1:]) / (0.5 * L)).max() / ky, 0, 1e-9)
    return k, m_max / b * (np.minimum(lam, 2 - lam) if down else lam)


for run, (name, n), m_max, down in (("s5_np1", ("simpson", 5), 625, True), ("l5", ("lobatto", 5), 562.5, False)):
    k, m = curve(run, m_max, down)
    ref = section(*rule(name, n), k)
    check(f"{name} {n}: the applied moment against the section at the computed curvature, largest / M_p",
          np.abs(m - ref).max() / Mp, 0, 5e-5)
    top = int(np.argmax(k))
    cf = closed_form(k[top])
    print(f"     {name} {n}: at M = {m[top] / Mp:.4f} M_p the curvature is {k[top] / ky:.4f} kappa_y; the closed form "
          f"there {cf / Mp:.4f} M_p (M / closed form {m[top] / cf:.4f})")
    if run == "s5_np1":
        k5, m5 = k, m
        check("Simpson 5 at M_p against the closed form at its curvature (5 points: the elastic core coarse)",
              m[top] / cf, 1.06, 1.12)
    if run == "l5":
        check("Lobatto 5 at 0.9 M_p against the closed form at its curvature", m[top] / cf, 1.03, 1.08)
k, m = curve("s5_np2", 625, True)
check("Simpson 5 on 2 ranks against 1 rank, largest curvature difference / kappa_y", np.abs(k - k5).max() / ky, 0, 1e-9)

e = read(f"{work}/s5_np1/out/energy.csv")
peak = int(np.argmax(k5))
print(f"     Simpson 5: peak curvature {k5[peak] / ky:.4f} kappa_y at step {peak + 1}, residual {k5[-1] / ky:.4f} kappa_y")
check("unloading: residual curvature against kappa_peak - M_peak / (E t^3 / 12), / kappa_y",
      (k5[-1] - (k5[peak] - m5[peak] / (E * t ** 3 / 12))) / ky, -5e-5, 5e-5)
d = np.array(e["plastic_dissipation"])
check("unloading: plastic dissipation after the peak, largest change / at the peak",
      np.abs(d[peak + 1:] - d[peak + 1]).max() / d[peak + 1], 0, 1e-9)
W = np.array(e["external_work"])
check("energy balance, largest |work - strain - dissipation| / work", np.abs(W - np.array(e["strain"]) - d).max() / W.max(), 0, 2e-3)
check("dissipation / work at the end", d[-1] / W[-1], 0.5, 1.0)
e2 = read(f"{work}/s5_np2/out/energy.csv")
check("np 2 against np 1, largest dissipation difference / its end value",
      np.abs(np.array(e2["plastic_dissipation"]) - d).max() / d[-1], 0, 1e-9)
er, pr = read(f"{work}/restart/out/energy.csv"), read(f"{work}/restart/out/probes.csv")
check("restart (1 rank to 2 from the peak): curvature at the end against uninterrupted, / kappa_y",
      abs(pr["tip.ry"][-1] / L - k5[-1]) / ky, 0, 1e-8)
check("restart: dissipation at the end against uninterrupted, relative", abs(er["plastic_dissipation"][-1] - d[-1]) / d[-1], 0, 1e-8)
frames = sorted(glob.glob(f"{work}/s5_np1/out/**/*.vtu", recursive=True))
text = open(frames[-1], "rb").read() if frames else b""
check("the state output has shell.equivalent_plastic_strain (1: yes)", float(b'Name="shell.equivalent_plastic_strain' in text), 1, 1)

# The tube: u_r at the symmetry plane against the bilinear hoop strain.
sy, H, R, T = 2.5e8, 2.1e9, 300.0, 3.0
py_ = sy * T / R
c = read(f"{work}/cyl_np1/out/probes.csv")
p = 1.5 * py_ * np.array(c["time"][1:])
s = p * R / T
ur = R * (s / E + np.maximum(0, s - sy) / H)
rel = np.abs(np.array(c["side.uy"][1:]) / ur - 1)
print("     tube: u_r / the bilinear hoop formula - 1 at p / p_y = " +
      ", ".join(f"{a:.3f}: {r:.1e}" for a, r in zip(p / py_, rel) if a in (p / py_)[[0, 12, 13, -1]]))
check("tube: radial displacement against R (s / E + (s - sigma_y) / H), largest relative difference", rel.max(), 0, 1e-3)
c2 = read(f"{work}/cyl_np2/out/probes.csv")
check("tube: np 2 against np 1, largest radial displacement difference / its end value",
      np.abs(np.array(c2["side.uy"]) - np.array(c["side.uy"])).max() / c["side.uy"][-1], 0, 1e-9)


def alpha_max(frame):
    """The largest equivalent plastic strain of a frame's shells (the state's cell data's range)."""
    text = open(frame, "rb").read().decode("latin-1")
    found = re.search(r'Name="shell\.equivalent_plastic_strain"[^>]*RangeMax="([^"]*)"', text)
    return float(found.group(1)) if found else float("nan")


frames = sorted(glob.glob(f"{work}/cyl_np1/out/**/*.vtu", recursive=True))
below, above = [i for i, a in enumerate(p / py_) if a < 1][-1], [i for i, a in enumerate(p / py_) if a > 1][0]
print(f"     tube: {len(frames)} frames; alpha max at p / p_y {p[below] / py_:.3f}: {alpha_max(frames[below + 1]):.3e}, "
      f"at {p[above] / py_:.3f}: {alpha_max(frames[above + 1]):.3e}")
check("tube: no plastic strain below p_y", alpha_max(frames[below + 1]), 0, 0)
check("tube: plastic strain above p_y", alpha_max(frames[above + 1]), 1e-5, 1)
sys.exit(0 if passed() else 1)
PY

# Refusals, one line each on 1 and 2 ranks.
sed 's/integration_points: 5}/integration_points: 5, kinematics: corotational}/' cyl.yaml > corotational.yaml
sed 's/^time: .*/time: {integrator: central_difference, dt: auto, end_time: 1e-3}/' cyl.yaml > explicit.yaml
sed 's/integration_points: 5}/integration_points: 5, formulation: belytschko_tsay}/' explicit.yaml > bt.yaml
# A plastic region of one quad4 and one quad8 (MSH 2.2: element types 3 and 16).
cat > mixed.msh <<'MSH'
$MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
1
2 1 "mixed"
$EndPhysicalNames
$Nodes
12
1 0 0 0
2 1 0 0
3 1 1 0
4 0 1 0
5 2 0 0
6 3 0 0
7 3 1 0
8 2 1 0
9 2.5 0 0
10 3 0.5 0
11 2.5 1 0
12 2 0.5 0
$EndNodes
$Elements
2
1 3 2 1 1 1 2 3 4
2 16 2 1 1 5 6 7 8 9 10 11 12
$EndElements
MSH
cat > mixed.yaml <<YAML
mesh: {file: $work/mixed.msh}
materials:
  - {region: mixed, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.1e9}}
shells:
  - {region: mixed, thickness: 0.01}
boundary_conditions:
  - {region: mixed, type: fixed}
time: {integrator: static, dt: 1, steps: 1}
output: {directory: out}
YAML
for np in 1 2; do
  same_refusal $np "8-node \(quad8\) shells, which are degenerated-continuum shells; formulation: belytschko_tsay takes 4-node" bt.yaml
  same_refusal $np "has 1 8-node \(quad8\) shells, which are linear, and 1 4-node ones, which are corotational when plastic" mixed.yaml
  same_refusal $np "8-node \(quad8\) shells, which are linear \(small displacements and rotations\), elastic or plastic; kinematics: corotational takes 4-node" corotational.yaml
  same_refusal $np "8-node \(quad8\) shells, which are for static, implicit, modal and harmonic runs" explicit.yaml
done
finish
