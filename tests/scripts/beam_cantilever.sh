#!/usr/bin/env bash
# Beam elements on a straight cantilever (meshes/beam_cantilever_*.msh, L = 2 along x, clamped at
# "root"), against tests/scripts/frame_reference.py (an independent direct stiffness method) and
# the closed forms:
# - static, Euler-Bernoulli, 16 elements, a tip force [200, 1000, -500] N and moment [50, 0, 100]
#   N m: the tip's displacement and rotation (probe fields displacement, rotation) against
#   u = F L / EA, v = Fy L^3/3EIz + Mz L^2/2EIz, w = Fz L^3/3EIy, rx = Mx L/GJ,
#   ry = -Fz L^2/2EIy, rz = Fy L^2/2EIz + Mz L/EIz and the reference (1e-8), the root's
#   reaction forces -F (1e-8), at np 1, 2, 3;
# - static, Timoshenko (shear areas 0.008, 0.006): tip v = P L^3/3EIz + P L/G Asy (exact for any
#   element count: 1 element at np 1, 16 at np 2 and 3);
# - modal, 16 elements: 6 modes with the consistent mass (with the sections' rotary inertia) at
#   np 1, 2, 3 and with the lumped mass at np 2, frequencies and effective masses against the
#   reference (1e-6); the first bending mode in z against Euler-Bernoulli's beta_1 L = 1.87510
#   within 1 % (the rotary inertia of this stocky section, L / r = 22, lowers it by 0.46 %).
# Needs a python3 with numpy (python3 on PATH, else /usr/bin/python3); SKIP without.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "beam cantilever checks"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/scripts"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

material="  - {region: beam, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}"
eb="  - {region: beam, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, theory: euler_bernoulli}"
timo="  - {region: beam, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, shear_area_y: 0.008, shear_area_z: 0.006, theory: timoshenko}"
case_file() {  # case_file FILE MESH SECTION CONDITIONS ANALYSIS
  cat > "$1" << EOF
mesh: {file: $meshes/$2}
materials:
$material
sections:
$3
boundary_conditions:
  - {region: root, type: fixed}
$4
$5
output:
  directory: out
  every: 0
  history_every: 1
  probes:
    - {name: tip, point: [2, 0, 0], fields: [displacement, rotation]}
    - {name: middle, point: [1, 0, 0], fields: [displacement, rotation]}
EOF
}
static="time: {integrator: static, dt: 1, end_time: 1}"
case_file eb.yaml beam_cantilever_16.msh "$eb" "  - {region: tip, type: force, value: [200, 1000, -500]}
  - {region: tip, type: moment, value: [50, 0, 100]}" "$static"
case_file timo1.yaml beam_cantilever_1.msh "$timo" "  - {region: tip, type: force, value: [0, 1000, 1000]}" "$static"
case_file timo16.yaml beam_cantilever_16.msh "$timo" "  - {region: tip, type: force, value: [0, 1000, 1000]}" "$static"
case_file modal.yaml beam_cantilever_16.msh "$eb" "" "modal: {modes: 6, mass: consistent}"
sed 's/mass: consistent/mass: lumped/' modal.yaml > lumped.yaml


for np in 1 2 3; do
  in_dir "eb$np" "$np" eb.yaml
  in_dir "modal$np" "$np" modal.yaml
done
in_dir timo1 1 timo1.yaml
in_dir timo2 2 timo16.yaml
in_dir timo3 3 timo16.yaml
in_dir lumped2 2 lumped.yaml

"$py" - "$work" "$meshes" << 'PY' || failed=1
import sys
import numpy as np
import frame_reference as fr

work, meshes = sys.argv[1:]
E, nu, rho, L = 2.1e11, 0.3, 7850, 2.0
G = E / (2 * (1 + nu))
A, Iy, Iz, J = 0.01, 8.0e-5, 2.0e-5, 1.0e-5
F, M = np.array([200.0, 1000.0, -500.0]), np.array([50.0, 0.0, 100.0])


def frame(mesh, section, forces):
    m = fr.read_msh(f"{meshes}/{mesh}")
    f = fr.Frame(m.nodes)
    f.add_members(m.lines["beam"], section)
    f.fix(m.points["root"])
    for kind, value in forces:
        getattr(f, kind)(m.points["tip"], value)
    return m, f


def probe(run, name):
    cols, names = fr.read_csv(f"{work}/{run}/out/probes.csv")
    mine = fr.probe_columns(names, name)
    assert mine[:3] == [f"{name}.ux", f"{name}.uy", f"{name}.uz"], mine
    assert len(mine) == 6, f"{name}: displacement and rotation, 6 columns: {mine}"
    return np.array([cols[c][-1] for c in mine])


# 1. Euler-Bernoulli statics against the closed forms and the reference.
eb = fr.Section(E, nu, rho, A, Iy, Iz, J)
mesh, f = frame("beam_cantilever_16.msh", eb, [("force", F), ("moment", M)])
u, r = f.static()
closed = np.array([F[0] * L / (E * A),
                   F[1] * L ** 3 / (3 * E * Iz) + M[2] * L ** 2 / (2 * E * Iz),
                   F[2] * L ** 3 / (3 * E * Iy) - M[1] * L ** 2 / (2 * E * Iy),
                   M[0] * L / (G * J),
                   -F[2] * L ** 2 / (2 * E * Iy) + M[1] * L / (E * Iy),
                   F[1] * L ** 2 / (2 * E * Iz) + M[2] * L / (E * Iz)])
tip, middle = mesh.points["tip"][0], mesh.nearest([1, 0, 0])
for np_ in (1, 2, 3):
    got = probe(f"eb{np_}", "tip")
    scale_u, scale_r = np.abs(closed[:3]).max(), np.abs(closed[3:]).max()
    for k, name in enumerate(["ux", "uy", "uz", "rx", "ry", "rz"]):
        s = scale_u if k < 3 else scale_r
        fr.check(f"np {np_}: EB tip {name} against the closed form", got[k], closed[k], 1e-8, s)
        fr.check(f"np {np_}: EB tip {name} against the reference", got[k], u[tip, k], 1e-8, s)
    mid = probe(f"eb{np_}", "middle")
    for k in range(6):
        fr.check(f"np {np_}: EB middle component {k} against the reference", mid[k],
                 u[middle, k], 1e-8, np.abs(u[middle, :3] if k < 3 else u[middle, 3:]).max())
    cols, names = fr.read_csv(f"{work}/eb{np_}/out/reactions.csv")
    for k, c in enumerate("xyz"):
        fr.check(f"np {np_}: root reaction f{c} = -F{c}", cols[f"root.f{c}"][-1], -F[k], 1e-8,
                 np.abs(F).max())
    moments = [n for n in names if n.startswith("root.m")]
    print(f"     np {np_}: reactions.csv columns {names}"
          + ("" if moments else " (no moment reactions written)"))
    root = mesh.points["root"][0]
    for c in moments:
        k = 3 + "xyz".index(c[-1])
        fr.check(f"np {np_}: root reaction {c} against the reference", cols[c][-1], r[root, k],
                 1e-8, np.abs(r[root, 3:]).max())

# 2. Timoshenko statics: exact tip deflection with shear for any element count.
timo = fr.Section(E, nu, rho, A, Iy, Iz, J, Asy=0.008, Asz=0.006, theory="timoshenko")
P = 1000.0
for run, np_ in (("timo1", 1), ("timo2", 2), ("timo3", 3)):
    got = probe(run, "tip")
    v = P * L ** 3 / (3 * E * Iz) + P * L / (G * 0.008)
    w = P * L ** 3 / (3 * E * Iy) + P * L / (G * 0.006)
    fr.check(f"np {np_}: Timoshenko tip v = P L^3/3EIz + P L/G Asy", got[1], v, 1e-8)
    fr.check(f"np {np_}: Timoshenko tip w = P L^3/3EIy + P L/G Asz", got[2], w, 1e-8)
    fr.check(f"np {np_}: Timoshenko tip rz = P L^2/2EIz", got[5], P * L ** 2 / (2 * E * Iz), 1e-8)
    fr.check(f"np {np_}: Timoshenko tip ry = -P L^2/2EIy", got[4], -P * L ** 2 / (2 * E * Iy), 1e-8)

# 3. Modes, consistent and lumped mass.
def modes_csv(run):
    cols, names = fr.read_csv(f"{work}/{run}/out/modes.csv")
    return (np.array(cols["frequency"]),
            np.array([cols[f"effective_mass_{d}"] for d in "xyz"]).T)


_, f = frame("beam_cantilever_16.msh", eb, [])
for mass, runs in (("consistent", ["modal1", "modal2", "modal3"]), ("lumped", ["lumped2"])):
    ref = f.modes(mass, 6)
    for run in runs:
        freq, eff = modes_csv(run)
        assert len(freq) >= 6, (run, freq)
        for k in range(6):
            fr.check(f"{run}: {mass} mode {k + 1} frequency against the reference", freq[k],
                     ref.frequency[k], 1e-6)
        worst = np.abs(eff[:6] - ref.effective_mass).max() / ref.total_mass[0]
        fr.check(f"{run}: {mass} effective masses of modes 1-6 against the reference, of the "
                 f"total mass {ref.total_mass[0]:.6g} kg", worst, 0, 1e-6, 1)
        print(f"     {run}: " + ", ".join(f"{x:.4f}" for x in freq[:6]) + " Hz")
freq, _ = modes_csv("modal1")
exact = 1.87510407 ** 2 / (2 * np.pi * L ** 2) * np.sqrt(E * Iy / (rho * A))
zmode = int(np.argmin(np.abs(freq - exact)))
fr.check(f"modal1: first bending mode in z (mode {zmode + 1}) against beta_1 L = 1.87510 "
         "(Euler-Bernoulli, no rotary inertia)", freq[zmode], exact, 1e-2)
sys.exit(1 if fr.failures() else 0)
PY
finish
