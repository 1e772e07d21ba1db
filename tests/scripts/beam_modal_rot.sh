#!/usr/bin/env bash
# Rotational effective masses (modes.csv effective_mass_rx, _ry, _rz: Gamma^2 for the unit rigid
# rotation about each axis through the reference point, the centre of mass by default), at np 1,
# 2, 3:
# - a free solid box (hex8, consistent mass, every mode): the sums equal the box's rotary inertia
#   m (b^2 + c^2) / 12 about the centre of mass (1e-10), and with reference_point: [0, 0, 0]
#   that plus m d^2 (Steiner), on the translations alone;
# - the 16-element cantilever (meshes/beam_cantilever_16.msh, lumped mass, every mode): the sums
#   equal the free nodes' rotary inertia about the centre of mass computed node by node (1e-10),
#   and its first torsion mode's frequency and rx effective mass equal the closed form of the
#   discrete torsion chain (masses rho Ip Le, the tip's half, springs GJ/Le: shapes
#   sin((2k-1) pi j / 2n)) to 1e-8 (the continuum's 8/pi^2 of rho Ip L printed beside);
# - the three-storey frame (meshes/beam_frame3.msh, consistent mass, 6 modes): the rotational
#   effective masses against tests/scripts/frame_reference.py (1e-10 of the total rotary inertia)
#   and the log's sums line against the reference's totals;
# - reference_point: [0, 0]: one error line naming the key, exit 1 (np 1 and 3).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "rotational effective mass checks"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/scripts"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

cat > box.yaml << 'EOF'
mesh: {box: {lower: [0, 0, 0], upper: [1.2, 0.6, 0.4], cells: [3, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
modal: {modes: 108, mass: consistent}
output: {directory: out}
EOF
sed 's/mass: consistent}/mass: consistent, reference_point: [0, 0, 0]}/' box.yaml > box_origin.yaml
cat > cantilever.yaml << EOF
mesh: {file: $meshes/beam_cantilever_16.msh}
materials:
  - {region: beam, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, theory: euler_bernoulli}
boundary_conditions:
  - {region: root, type: fixed}
modal: {modes: 96, mass: lumped}
output: {directory: out}
EOF
cat > frame.yaml << EOF
mesh: {file: $meshes/beam_frame3.msh}
materials:
  - {region: columns, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
  - {region: beams, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: columns, area: 0.012, iy: 1.5e-4, iz: 1.0e-4, torsion: 5.0e-5, theory: euler_bernoulli}
  - {region: beams, area: 0.008, iy: 1.2e-4, iz: 2.0e-5, torsion: 2.0e-5, theory: euler_bernoulli}
boundary_conditions:
  - {region: base, type: fixed}
modal: {modes: 6, mass: consistent}
output: {directory: out}
EOF
# A reference point that is not 3 numbers: one error line, exit 1, on 1 and 3 ranks.
sed 's/mass: consistent}/mass: consistent, reference_point: [0, 0]}/' box.yaml > bad_point.yaml
for np in 1 3; do
  same_refusal "$np" "bad_point.yaml:4: modal.reference_point: expected a list of 3 numbers" bad_point.yaml
done
for np in 1 2 3; do
  in_dir "box$np" "$np" box.yaml
  in_dir "cantilever$np" "$np" cantilever.yaml
  in_dir "frame$np" "$np" frame.yaml
done
in_dir box_origin2 2 box_origin.yaml

"$py" - "$work" "$meshes" << 'PY' || failed=1
import re
import sys
import numpy as np
import frame_reference as fr

work, meshes = sys.argv[1:]


def modes(run):
    cols, names = fr.read_csv(f"{work}/{run}/out/modes.csv")
    assert names[-6:] == ["participation_rx", "participation_ry", "participation_rz",
                          "effective_mass_rx", "effective_mass_ry", "effective_mass_rz"], names
    eff = np.array([cols[f"effective_mass_r{d}"] for d in "xyz"]).T
    gamma = np.array([cols[f"participation_r{d}"] for d in "xyz"]).T
    assert np.abs(eff - gamma ** 2).max() <= 1e-12 * max(1.0, np.abs(eff).max())
    return cols, eff


def log_sums(run):
    """The log's sums line: the reference point and (sum, total) per axis."""
    text = open(f"{work}/{run}.log").read()
    m = re.search(r"sum of the rotational effective masses against the total rotary inertia "
                  r"about the (?:centre of mass|reference point) \((\S+), (\S+), (\S+)\): "
                  r"rx (\S+) of (\S+) kg m\^2 \(\S+ %\), ry (\S+) of (\S+) kg m\^2 \(\S+ %\), "
                  r"rz (\S+) of (\S+) kg m\^2", text)
    assert m, f"{run}: no rotational sums line"
    g = [float(x) for x in m.groups()]
    return np.array(g[:3]), np.array(g[3::2]), np.array(g[4::2])


# 1. The free box: every mode; the sums against m (b^2 + c^2) / 12 about the centre of mass.
rho, a, b, c = 7800.0, 1.2, 0.6, 0.4
m = rho * a * b * c
centre = np.array([a, b, c]) / 2
about_centre = m / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
about_origin = about_centre + m * np.array([centre[1] ** 2 + centre[2] ** 2,
                                            centre[0] ** 2 + centre[2] ** 2,
                                            centre[0] ** 2 + centre[1] ** 2])
for run, x0, exact in [(f"box{n}", centre, about_centre) for n in (1, 2, 3)] + [
        ("box_origin2", np.zeros(3), about_origin)]:
    cols, eff = modes(run)
    assert len(eff) == 108, (run, len(eff))
    point, sums, totals = log_sums(run)
    fr.check(f"{run}: the log's reference point against {x0}", np.abs(point - x0).max(), 0, 1e-6, 1)
    for d in range(3):
        fr.check(f"{run}: sum of all 108 effective masses r{'xyz'[d]} against the box's rotary "
                 "inertia", eff[:, d].sum(), exact[d], 1e-10)
        fr.check(f"{run}: the log's total r{'xyz'[d]}", totals[d], exact[d], 1e-5)

# 2. The cantilever, lumped mass, every mode.
E, nu, rho, L, n = 2.1e11, 0.3, 7850.0, 2.0, 16
G = E / (2 * (1 + nu))
A, Iy, Iz, J = 0.01, 8.0e-5, 2.0e-5, 1.0e-5
sec = fr.Section(E, nu, rho, A, Iy, Iz, J)
Le = L / n
x = np.linspace(0, L, n + 1)
mass = np.full(n + 1, rho * A * Le)
mass[[0, -1]] /= 2
rot = np.full(n + 1, 2 * fr.lumped_rotational_mass(sec, Le))  # the same about every axis
rot[[0, -1]] /= 2
x0 = np.array([(mass * x).sum() / mass.sum(), 0, 0])
free = slice(1, None)  # the root is clamped: its lumped mass moves with the support
carried = np.array([rot[free].sum(),
                    (mass[free] * (x[free] - x0[0]) ** 2).sum() + rot[free].sum(),
                    (mass[free] * (x[free] - x0[0]) ** 2).sum() + rot[free].sum()])
# The torsion chain: masses rho Ip Le at nodes 1..n-1, half at n, springs GJ / Le.
Ip = Iy + Iz
jm = np.full(n, rho * Ip * Le)
jm[-1] /= 2
k = G * J / Le
j = np.arange(1, n + 1)
shape = np.sin(np.pi * j / (2 * n))
omega_torsion = np.sqrt(4 * k / (rho * Ip * Le)) * np.sin(np.pi / (4 * n))
eff_torsion = (jm @ shape) ** 2 / (jm @ shape ** 2)
print(f"     discrete torsion chain: f1 = {omega_torsion / (2 * np.pi):.6f} Hz, rx effective "
      f"{eff_torsion:.9g} kg m^2 = {eff_torsion / (rho * Ip * L):.6f} of rho Ip L "
      f"(continuum 8/pi^2 = {8 / np.pi ** 2:.6f})")
for run in ("cantilever1", "cantilever2", "cantilever3"):
    cols, eff = modes(run)
    assert len(eff) == 96, (run, len(eff))
    point, sums, totals = log_sums(run)
    fr.check(f"{run}: the centre of mass", np.abs(point - x0).max(), 0, 1e-6, 1)
    for d in range(3):
        fr.check(f"{run}: sum of all 96 effective masses r{'xyz'[d]} against the free nodes' "
                 "rotary inertia, node by node", eff[:, d].sum(), carried[d], 1e-10)
    t = int(np.argmax(eff[:, 0]))
    fr.check(f"{run}: the torsion mode (mode {t + 1}) frequency against the chain's",
             cols["frequency"][t], omega_torsion / (2 * np.pi), 1e-8)
    fr.check(f"{run}: its rx effective mass against the chain's", eff[t, 0], eff_torsion, 1e-8)

# 3. The three-storey frame against the reference.
mesh = fr.read_msh(f"{meshes}/beam_frame3.msh")
f = fr.Frame(mesh.nodes)
f.add_members(mesh.lines["columns"], fr.Section(E, nu, 7850, 0.012, 1.5e-4, 1.0e-4, 5.0e-5))
f.add_members(mesh.lines["beams"], fr.Section(E, nu, 7850, 0.008, 1.2e-4, 2.0e-5, 2.0e-5))
f.fix(mesh.points["base"])
ref = f.modes("consistent", 6)
print("     frame reference: centre of mass " + ", ".join(f"{v:.6g}" for v in ref.reference_point)
      + "; rotational effective masses of modes 1-6 / total: "
      + "; ".join(", ".join(f"{v:.4f}" for v in row) for row in
                  ref.effective_mass_rot / ref.total_rotary_inertia))
for run in ("frame1", "frame2", "frame3"):
    cols, eff = modes(run)
    point, sums, totals = log_sums(run)
    fr.check(f"{run}: the centre of mass against the reference's (the log's 6 digits)",
             np.abs(point - ref.reference_point).max(), 0, 1e-5,
             np.abs(ref.reference_point).max())
    for d in range(3):
        worst = np.abs(eff[:6, d] - ref.effective_mass_rot[:, d]).max()
        fr.check(f"{run}: effective masses r{'xyz'[d]} of modes 1-6 against the reference, of "
                 f"the total {ref.total_rotary_inertia[d]:.6g} kg m^2", worst, 0, 1e-10,
                 ref.total_rotary_inertia[d])
        fr.check(f"{run}: the log's total r{'xyz'[d]} against the reference's", totals[d],
                 ref.total_rotary_inertia[d], 1e-5)
sys.exit(1 if fr.failures() else 0)
PY
finish
