#!/usr/bin/env bash
# End releases (hinges) of beams (sections[].releases), against closed forms and
# tests/scripts/frame_reference.py (an independent direct stiffness method that condenses the
# released rotations itself):
# - two spans of 5 m (meshes/beam_hinge_two_span.msh, 8 Euler-Bernoulli elements a span) on
#   three supports under a line load q = -4000 N/m, the left span's end released (my) over the
#   middle support: two simply supported spans, mid-span deflection 5 q L^4 / 384 EI, end
#   rotations q L^3 / 24 EI, reactions q L / 2, q L, q L / 2 (1e-9), probes against the reference
#   (1e-8), the released end's My in section_forces zero to 1e-12 of the largest end moment
#   (the right span's start: the fixed-end moment q l^2 / 12 alone, section_forces being the
#   nodal displacements' end forces), at np 1, 2, 3;
# - the same with kinematics: corotational at q / 100: the linear answer / 100 (1e-6);
# - a Gerber beam (meshes/beam_hinge_gerber.msh: clamped at 0, hinge at 3, roller at 5): hinge
#   deflection q a^4 / 8EI + (q (L - a) / 2) a^3 / 3EI (1e-9) at np 1, 2, 3; its first 4
#   frequencies (consistent mass, condensed as M_c = T^T M T) against the reference (1e-6) at
#   np 1, 3;
# - a two-bar truss (meshes/beam_hinge_truss.msh: bars from (+-1, 0) to the apex (0, 1), one
#   corotational element each, all moments released, the joints' rotations held) under an apex
#   load of 3.5 MN (0.89 of the snap load) in 10 static steps: the apex drop against the exact
#   two-bar equilibrium (1e-8; the bars turn by 11.3 degrees, the linear answer is 29 % short),
#   bar end moments zero (1e-12 of N) and the axial force the exact one (1e-9), np 1, 2;
# - a portal frame (meshes/beam_portal.msh, bases clamped) with its girder pinned to the left
#   column (my, mz released), a sway load of 1 kN: corner and right-corner probes and base
#   reactions against the reference (1e-8) at np 1, 2, 3 (the sway 31 % above the rigid joints');
# - bad input, one error line (the run and --check alike): a group touching no end, torsion
#   released at both ends, a node whose rotation every beam releases (np 1, 2, 3); an unknown
#   component, a line group as nodes, a missing group, releases on plastic (fiber) beams (np 2).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "beam release checks"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/scripts"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

steel="model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3"
props="area: 0.01, iy: 2.0e-5, iz: 1.0e-5, torsion: 1.0e-5, theory: euler_bernoulli"
beam_case() {  # beam_case FILE MESH LEFT-EXTRA RIGHT-EXTRA CONDITIONS ANALYSIS [MATERIAL-EXTRA]
  cat > "$1" << EOF
mesh: {file: $meshes/$2}
materials:
  - {region: left, $steel${7:-}}
  - {region: right, $steel${7:-}}
sections:
  - {region: left, $props$3}
  - {region: right, $props$4}
boundary_conditions:
  - {region: left, type: fixed, components: [y, rx, rz]}
  - {region: right, type: fixed, components: [y, rx, rz]}
$5
$6
output:
  directory: out
  history_every: 1
  fields: [displacement, section_forces]
  reactions: true
  probes:
    - {name: quarter, point: [2.5, 0, 0], fields: [displacement, rotation]}
    - {name: root, point: [0, 0, 0], fields: [displacement, rotation]}
    - {name: hinge, point: [5, 0, 0], fields: [displacement, rotation]}
    - {name: three, point: [3, 0, 0], fields: [displacement, rotation]}
    - {name: end, point: [${end:-10}, 0, 0], fields: [displacement, rotation]}
EOF
}
static="time: {integrator: static, dt: 1, end_time: 1}"
two_span="  - {region: root, type: fixed, components: [x, y, z]}
  - {region: hinge, type: fixed, components: [y, z]}
  - {region: end, type: fixed, components: [y, z]}"
load="  - {region: left, type: line_load, value: [0, 0, LOAD]}
  - {region: right, type: line_load, value: [0, 0, LOAD]}"
hinge_left=", releases: [{nodes: hinge, moments: [my]}]"
beam_case two_span.yaml beam_hinge_two_span.msh "$hinge_left" "" "$two_span
${load//LOAD/-4000}" "$static"
beam_case corot.yaml beam_hinge_two_span.msh "$hinge_left, kinematics: corotational" \
  ", kinematics: corotational" "$two_span
${load//LOAD/-40}" "$static"
gerber="  - {region: root, type: fixed}
  - {region: end, type: fixed, components: [y, z]}"
end=5
beam_case gerber.yaml beam_hinge_gerber.msh "" ", releases: [{nodes: [hinge], moments: [my]}]" \
  "$gerber
${load//LOAD/-4000}" "$static"
beam_case gerber_modal.yaml beam_hinge_gerber.msh "" \
  ", releases: [{nodes: [hinge], moments: [my]}]" "$gerber" "modal: {modes: 4, mass: consistent}"
end=10

cat > truss.yaml << EOF
mesh: {file: $meshes/beam_hinge_truss.msh}
materials:
  - {region: bars, $steel}
sections:
  - {region: bars, area: 1.0e-4, iy: 1.0e-8, iz: 1.0e-8, torsion: 1.0e-8, theory: euler_bernoulli,
     kinematics: corotational, orientation: [0, 0, 1],
     releases: [{nodes: [supports, apex], moments: [my, mz]}, {nodes: apex, moments: [t]}]}
boundary_conditions:
  - {region: supports, type: fixed}
  - {region: apex, type: fixed, components: [z, rx, ry, rz]}
  - {region: apex, type: force, value: [0, -3.5e6, 0]}
time: {integrator: static, dt: 0.1, end_time: 1}
output:
  directory: out
  history_every: 1
  fields: [displacement, section_forces]
  probes: [{name: apex, point: [0, 1, 0], fields: [displacement]}]
EOF

for np in 1 2 3; do
  in_dir "two_span$np" "$np" two_span.yaml
  in_dir "gerber$np" "$np" gerber.yaml
done
in_dir corot2 2 corot.yaml
in_dir gerber_modal1 1 gerber_modal.yaml
in_dir gerber_modal3 3 gerber_modal.yaml
in_dir truss1 1 truss.yaml
in_dir truss2 2 truss.yaml
has "$work/two_span1.log" "1 with end releases"

"$py" - "$work" "$meshes" << 'PY' || failed=1
import glob
import sys
import numpy as np
import frame_reference as fr

work, meshes = sys.argv[1:]
E, nu, rho, q, L = 2.1e11, 0.3, 7850.0, -4000.0, 5.0
EI = E * 2.0e-5


def probes(run):
    cols, names = fr.read_csv(f"{work}/{run}/out/probes.csv")
    return {n: cols[n][-1] for n in names}


def section_forces(run):
    """The last frame's section_forces and each cell's end x coordinates (every rank's piece)."""
    import os
    import xml.etree.ElementTree as ET
    import vtk
    out = f"{work}/{run}/out"
    pvd = glob.glob(f"{out}/*.pvd")[0]
    sets = ET.parse(pvd).getroot().iter("DataSet")
    steps = {}
    for d in sets:
        steps.setdefault(float(d.get("timestep")), []).append(d.get("file"))
    forces, ends = [], []
    for name in steps[max(steps)]:
        path = os.path.join(os.path.dirname(pvd), name)
        reader = (vtk.vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu")
                  else vtk.vtkXMLUnstructuredGridReader())
        reader.SetFileName(path)
        reader.Update()
        grid = reader.GetOutput()
        a = grid.GetCellData().GetArray("section_forces")
        for i in range(a.GetNumberOfTuples()):
            forces.append([a.GetComponent(i, c) for c in range(12)])
            ids = grid.GetCell(i).GetPointIds()
            ends.append([grid.GetPoint(ids.GetId(k))[0] for k in range(2)])
    return np.array(forces), np.array(ends)


def frame(case):
    _, mesh, f = fr.frame_from_case(f"{work}/{case}")
    return mesh, f


# Two spans, hinged over the middle support.
mesh, f = frame("two_span.yaml")
u, r = f.static()
nodes = {n: mesh.nearest(p) for n, p in (("quarter", [2.5, 0, 0]), ("root", [0, 0, 0]),
                                           ("hinge", [5, 0, 0]), ("end", [10, 0, 0]))}
fr.check("reference: two spans' mid-span deflection 5 q L^4 / 384 EI", u[nodes["quarter"], 2],
         5 * q * L ** 4 / (384 * EI), 1e-10)
for np_ in (1, 2, 3):
    p = probes(f"two_span{np_}")
    fr.check(f"np {np_}: two spans, mid-span uz = 5 q L^4 / 384 EI", p["quarter.uz"],
             5 * q * L ** 4 / (384 * EI), 1e-9)
    fr.check(f"np {np_}: two spans, root ry = -q L^3 / 24 EI", p["root.ry"],
             -q * L ** 3 / (24 * EI), 1e-9)
    fr.check(f"np {np_}: two spans, the right span's start ry = -q L^3 / 24 EI", p["hinge.ry"],
             -q * L ** 3 / (24 * EI), 1e-9)
    fr.check(f"np {np_}: two spans, end ry = q L^3 / 24 EI", p["end.ry"],
             q * L ** 3 / (24 * EI), 1e-9)
    for name, node in nodes.items():
        for k, c in enumerate(["ux", "uy", "uz", "rx", "ry", "rz"]):
            scale = np.abs(u[:, :3] if k < 3 else u[:, 3:]).max()
            fr.check(f"np {np_}: two spans, {name} {c} against the reference", p[f"{name}.{c}"],
                     u[node, k], 1e-8, scale)
    cols, names = fr.read_csv(f"{work}/two_span{np_}/out/reactions.csv")
    for name, exact in (("root", -q * L / 2), ("hinge", -q * L), ("end", -q * L / 2)):
        fr.check(f"np {np_}: two spans, {name} reaction fz", cols[f"{name}.fz"][-1], exact, 1e-9)
    s, x = section_forces(f"two_span{np_}")
    assert len(s) == 16, (np_, len(s))
    peak = np.abs(s[:, [4, 10]]).max()
    left = [k for k in range(16) if abs(x[k, 1] - 5) < 1e-9 and x[k, 0] < 5]
    right = [k for k in range(16) if abs(x[k, 0] - 5) < 1e-9 and x[k, 1] > 5]
    assert len(left) == 1 and len(right) == 1, x
    fr.check(f"np {np_}: two spans, My at the released end (left span, x = 5), against the "
             f"peak {peak:.6g}", s[left[0], 10], 0.0, 1e-12, peak)
    # section_forces are the end forces of the nodal displacements (the span load's fixed-end
    # moments not added): at the right span's simply supported start, -q l^2 / 12 (l = 0.625).
    fr.check(f"np {np_}: two spans, My at the right span's start = the fixed-end moment only",
             s[right[0], 4], q * 0.625 ** 2 / 12, 1e-8)

# Corotational at q / 100: the linear answer / 100.
p, lin = probes("corot2"), probes("two_span2")
for name in ("quarter", "root", "hinge", "end"):
    for c in ("uz", "ry"):
        fr.check(f"np 2: corotational q / 100, {name} {c} against linear / 100", p[f"{name}.{c}"],
                 lin[f"{name}.{c}"] / 100, 1e-6, abs(lin["quarter.uz" if c == "uz" else "root.ry"]) / 100)

# Gerber beam.
a, Lg = 3.0, 5.0
exact = q * a ** 4 / (8 * EI) + q * (Lg - a) / 2 * a ** 3 / (3 * EI)
mesh, f = frame("gerber.yaml")
u, r = f.static()
for np_ in (1, 2, 3):
    p = probes(f"gerber{np_}")
    fr.check(f"np {np_}: Gerber beam, hinge deflection", p["three.uz"], exact, 1e-9)
    for k, c in enumerate(["ux", "uy", "uz", "rx", "ry", "rz"]):
        scale = np.abs(u[:, :3] if k < 3 else u[:, 3:]).max()
        fr.check(f"np {np_}: Gerber beam, hinge {c} against the reference", p[f"three.{c}"],
                 u[mesh.nearest([3, 0, 0]), k], 1e-8, scale)
mesh, f = frame("gerber_modal.yaml")
ref = f.modes("consistent", 4)
print("     Gerber beam, reference modes: " + ", ".join(f"{x:.6f}" for x in ref.frequency) + " Hz")
for run in ("gerber_modal1", "gerber_modal3"):
    cols, _ = fr.read_csv(f"{work}/{run}/out/modes.csv")
    for k in range(4):
        fr.check(f"{run}: mode {k + 1} frequency against the reference", cols["frequency"][k],
                 ref.frequency[k], 1e-6)

# The two-bar truss: apex drop d from P = -2 N (1 - d) / l, N = E A (l - L0) / L0.
EA, P, L0 = 2.1e11 * 1.0e-4, 3.5e6, np.sqrt(2)


def load(d):
    l = np.hypot(1, 1 - d)
    return -2 * EA * (l - L0) / L0 * (1 - d) / l


lo, hi = 0.0, 0.49  # the load grows up to the snap near d = 0.49
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if load(mid) < P else (lo, mid)
d = (lo + hi) / 2
l = np.hypot(1, 1 - d)
N = EA * (l - L0) / L0
linear = P / (2 * EA / L0 * 0.5)
print(f"     two-bar truss: exact apex drop {d:.9g} m (linear {linear:.6g}), bar force {N:.9g} N, "
      f"bars turned by {np.degrees(np.pi / 4 - np.arctan(1 - d)):.2f} degrees")
for np_ in (1, 2):
    p = probes(f"truss{np_}")
    fr.check(f"np {np_}: two-bar truss apex drop against the exact one", -p["apex.uy"], d, 1e-8)
    s, _ = section_forces(f"truss{np_}")
    assert len(s) == 2, s
    for bar in s:
        fr.check(f"np {np_}: truss bar N at end 0", bar[0], N, 1e-9)
        fr.check(f"np {np_}: truss bar N at end 1", bar[6], N, 1e-9)
        fr.check(f"np {np_}: truss bar moments T, My, Mz at both ends",
                 np.abs(bar[[3, 4, 5, 9, 10, 11]]).max(), 0.0, 1e-12, abs(N))
sys.exit(1 if fr.failures() else 0)
PY

# A portal frame (meshes/beam_portal.msh: columns 3 m, girder 4 m, bases clamped) whose girder is
# pinned to the left column (my, mz released at "corner"), under a sway load of 1 kN there:
# probes and base reactions against the reference at np 1, 2, 3.
cat > portal.yaml << EOF
mesh: {file: $meshes/beam_portal.msh}
materials:
  - {region: columns, $steel}
  - {region: girder, $steel}
sections:
  - {region: columns, shape: {type: rectangle, width: 0.2, height: 0.3}, orientation: [0, 1, 0], theory: euler_bernoulli}
  - {region: girder, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, shear_area_y: 0.008, shear_area_z: 0.008, theory: timoshenko,
     releases: [{nodes: corner, moments: [my, mz]}]}
boundary_conditions:
  - {region: base, type: fixed}
  - {region: corner, type: force, value: [1000, 0, 0]}
$static
output:
  directory: out
  history_every: 1
  reactions: true
  probes:
    - {name: corner, point: [0, 0, 3], fields: [displacement, rotation]}
    - {name: right, point: [4, 0, 3], fields: [displacement, rotation]}
EOF
for np in 1 2 3; do in_dir "portal$np" "$np" portal.yaml; done
"$py" - "$work" << 'PY' || failed=1
import sys
import numpy as np
import frame_reference as fr

work = sys.argv[1]
_, mesh, f = fr.frame_from_case(f"{work}/portal.yaml")
u, r = f.static()
_, _, g = fr.frame_from_case(f"{work}/portal.yaml")
g.released = [set() for _ in g.released]
u_rigid, _ = g.static()
print(f"     pinned-joint portal: reference sway {u[mesh.points['corner'][0], 0]:.9g} m (rigid "
      f"joints {u_rigid[mesh.points['corner'][0], 0]:.9g} m)")
for np_ in (1, 2, 3):
    cols, names = fr.read_csv(f"{work}/portal{np_}/out/probes.csv")
    for name, node in (("corner", mesh.points["corner"][0]), ("right", mesh.nearest([4, 0, 3]))):
        for k, c in enumerate(["ux", "uy", "uz", "rx", "ry", "rz"]):
            scale = np.abs(u[:, :3] if k < 3 else u[:, 3:]).max()
            fr.check(f"np {np_}: pinned-joint portal, {name} {c} against the reference",
                     cols[f"{name}.{c}"][-1], u[node, k], 1e-8, scale)
    cols, _ = fr.read_csv(f"{work}/portal{np_}/out/reactions.csv")
    for k, c in enumerate("xyz"):
        total = sum(r[n, k] for n in mesh.points["base"])
        fr.check(f"np {np_}: pinned-joint portal, base reaction f{c}", cols[f"base.f{c}"][-1],
                 total, 1e-8, 1000.0)
        total = sum(r[n, 3 + k] for n in mesh.points["base"])
        fr.check(f"np {np_}: pinned-joint portal, base moment m{c}", cols[f"base.m{c}"][-1],
                 total, 1e-8, 3000.0)
sys.exit(1 if fr.failures() else 0)
PY

# Bad input: one error line on every rank count.
bad() {  # bad NAME PATTERN LEFT-EXTRA RIGHT-EXTRA [CONDITIONS] [MATERIAL-EXTRA]
  # Refusals the set-up reaches on every rank alike at np 2, the collective ones at np 1, 2, 3.
  beam_case "$1.yaml" beam_hinge_two_span.msh "$3" "$4" "${5:-$two_span
  - {region: hinge, type: fixed, components: [ry]\}}" "$static" "${6:-}"
  sed -i 's/area: 0.01, iy: 2.0e-5, iz: 1.0e-5, torsion: 1.0e-5/shape: {type: rectangle, width: 0.1, height: 0.2}/' "$1.yaml"
  for np in ${ranks:-2}; do same_refusal "$np" "$2" "$work/$1.yaml"; done
}
bad component "must be one of|one of" ", releases: [{nodes: hinge, moments: [mx]}]" ""
ranks="1 2 3" bad no_end "no beam of region 'right' ends on a node of 'root'" "" \
  ", releases: [{nodes: root, moments: [my]}]"
bad line_group "'left' is a 1D group" ", releases: [{nodes: left, moments: [my]}]" ""
bad missing "no physical group 'pin'" ", releases: [{nodes: pin, moments: [my]}]" ""
ranks="1 2 3" bad singular "all release its rotation ry.*fixed" \
  ", releases: [{nodes: hinge, moments: [my]}]" ", releases: [{nodes: hinge, moments: [my]}]" \
  "$two_span"
bad plastic "end releases are for elastic beams" ", releases: [{nodes: hinge, moments: [my]}]" \
  "" "" ", plasticity: {yield_stress: 2.5e8}"
sed -e 's/{nodes: apex, moments: \[t\]}/{nodes: [apex, supports], moments: [t]}/' truss.yaml \
  > twist.yaml
for np in 1 2 3; do same_refusal "$np" "torsion t released at both ends" "$work/twist.yaml"; done
# A coupling holds its node's rotations: a beam released where it is welded to a block by
# couplings: passes the check; on the solid's node alone (which holds no rotation) it is refused.
coupled() {  # coupled FILE [COUPLINGS]
  cat > "$1" << EOF
mesh: {file: $meshes/beam_on_block.msh}
materials:
  - {region: block, model: linear_elastic, density: 2000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}
  - {region: beam, $steel}
sections:
  - {region: beam, $props, releases: [{nodes: beam_end, moments: [my]}]}
${2:-}
boundary_conditions:
  - {region: block_base, type: fixed}
  - {region: tip, type: force, value: [0, 1000, 0]}
$static
EOF
}
coupled coupled.yaml "couplings:
  - {name: weld, node: beam_end, surface: block_top, type: rigid}"
coupled on_solid.yaml
mpi 2 "$INERTIA" --check coupled.yaml > coupled.log 2>&1 ||
  fail "a release at a coupled node: --check refused it: $(grep error coupled.log)"
same_refusal 2 "all release its rotation ry" "$work/on_solid.yaml"
finish
