#!/usr/bin/env bash
# Beam elements on a three-storey space frame (meshes/beam_frame3.msh: 1 x 1 bay, 5 x 4 m plan,
# 3.2 m storeys, columns and floor beams, 2 elements per member, the 4 feet clamped), against
# tests/scripts/frame_reference.py (an independent direct stiffness method), Euler-Bernoulli
# sections with the default orientations (columns: local y = global Y; beams: local z up):
# - modal: 6 modes with the consistent mass (Przemieniecki's, with the sections' rotary inertia)
#   at np 1, 2, 3 and with the lumped mass at np 2: the frequencies (1e-6) and effective masses
#   in x, y, z (1e-6 of the total mass) against the reference's;
# - static: floor forces [10, 5, 0] kN at each floor (shared by its 4 corners) at np 1 and 3:
#   two roof corners' displacement and rotation against the reference (1e-8), the bases'
#   reaction forces against -30 kN, -15 kN, 0.
# Needs a python3 with numpy (python3 on PATH, else /usr/bin/python3); SKIP without.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "beam frame checks"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/scripts"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

case_file() {  # case_file FILE CONDITIONS ANALYSIS
  cat > "$1" << EOF
mesh: {file: $meshes/beam_frame3.msh}
materials:
  - {region: columns, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
  - {region: beams, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: columns, area: 0.012, iy: 1.5e-4, iz: 1.0e-4, torsion: 5.0e-5, theory: euler_bernoulli}
  - {region: beams, area: 0.008, iy: 1.2e-4, iz: 2.0e-5, torsion: 2.0e-5, theory: euler_bernoulli}
boundary_conditions:
  - {region: base, type: fixed}
$2
$3
output:
  directory: out
  every: 0
  history_every: 1
  probes:
    - {name: roof_a, point: [0, 0, 9.6], fields: [displacement, rotation]}
    - {name: roof_c, point: [5, 4, 9.6], fields: [displacement, rotation]}
EOF
}
case_file modal.yaml "" "modal: {modes: 6, mass: consistent}"
sed 's/mass: consistent/mass: lumped/' modal.yaml > lumped.yaml
case_file static.yaml "  - {region: floor1, type: force, value: [10000, 5000, 0]}
  - {region: floor2, type: force, value: [10000, 5000, 0]}
  - {region: floor3, type: force, value: [10000, 5000, 0]}" "time: {integrator: static, dt: 1, end_time: 1}"


for np in 1 2 3; do
  in_dir "modal$np" "$np" modal.yaml
done
in_dir lumped2 2 lumped.yaml
in_dir static1 1 static.yaml
in_dir static3 3 static.yaml

"$py" - "$work" "$meshes" << 'PY' || failed=1
import sys
import numpy as np
import frame_reference as fr

work, meshes = sys.argv[1:]
E, nu, rho = 2.1e11, 0.3, 7850
mesh = fr.read_msh(f"{meshes}/beam_frame3.msh")
f = fr.Frame(mesh.nodes)
f.add_members(mesh.lines["columns"], fr.Section(E, nu, rho, 0.012, 1.5e-4, 1.0e-4, 5.0e-5))
f.add_members(mesh.lines["beams"], fr.Section(E, nu, rho, 0.008, 1.2e-4, 2.0e-5, 2.0e-5))
f.fix(mesh.points["base"])

for mass, runs in (("consistent", ["modal1", "modal2", "modal3"]), ("lumped", ["lumped2"])):
    ref = f.modes(mass, 6)
    print(f"     reference, {mass} mass: " + ", ".join(f"{x:.5f}" for x in ref.frequency) + " Hz")
    for run in runs:
        cols, _ = fr.read_csv(f"{work}/{run}/out/modes.csv")
        freq = np.array(cols["frequency"])
        assert len(freq) >= 6, (run, freq)
        for k in range(6):
            fr.check(f"{run}: {mass} mode {k + 1} frequency against the reference", freq[k],
                     ref.frequency[k], 1e-6)
        for d in "xyz":
            got = np.array(cols[f"effective_mass_{d}"][:6])
            want = ref.effective_mass[:, "xyz".index(d)]
            worst = np.abs(got - want).max() / ref.total_mass[0]
            fr.check(f"{run}: {mass} effective masses in {d} of modes 1-6 against the reference, "
                     f"of the total mass {ref.total_mass[0]:.6g} kg", worst, 0, 1e-6, 1)

F = np.array([10000.0, 5000.0, 0.0])
for level in ("floor1", "floor2", "floor3"):
    f.force(mesh.points[level], F)
u, r = f.static()
for run in ("static1", "static3"):
    cols, names = fr.read_csv(f"{work}/{run}/out/probes.csv")
    for name, point in (("roof_a", [0, 0, 9.6]), ("roof_c", [5, 4, 9.6])):
        node = mesh.nearest(point)
        mine = fr.probe_columns(names, name)
        assert mine[:3] == [f"{name}.ux", f"{name}.uy", f"{name}.uz"] and len(mine) == 6, mine
        got = np.array([cols[c][-1] for c in mine])
        for k, c in enumerate(["ux", "uy", "uz", "rx", "ry", "rz"]):
            scale = np.abs(u[node, :3] if k < 3 else u[node, 3:]).max()
            fr.check(f"{run}: {name} {c} against the reference", got[k], u[node, k], 1e-8, scale)
    cols, _ = fr.read_csv(f"{work}/{run}/out/reactions.csv")
    for k, c in enumerate("xyz"):
        fr.check(f"{run}: the bases' reaction f{c} against -3 F{c}", cols[f"base.f{c}"][-1],
                 -3 * F[k], 1e-8, 3 * np.abs(F).max())
sys.exit(1 if fr.failures() else 0)
PY
finish
