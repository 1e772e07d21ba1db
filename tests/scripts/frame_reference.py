#!/usr/bin/env python3
"""An independent direct stiffness method for 3D frames (numpy only), the reference the beam
end-to-end scripts (tests/scripts/beam_*.sh) compare inertia's beam elements with.

Six DOFs per node, in the order ux uy uz rx ry rz. A member is a 2-node line with its section;
its local axes: e_x = (x1 - x0) / L; `orientation` is an approximate local y:
e_z = normalize(e_x x orientation), e_y = e_z x e_x; without one, orientation = Z x e_x when the
member is not vertical, else global Y. Iy is about local y (bending in the x-z plane, w and ry),
Iz about local z (bending in the x-y plane, v and rz), J the torsion constant.

Stiffness (Przemieniecki, "Theory of Matrix Structural Analysis", 1968, sec. 5.6; McGuire,
Gallagher and Ziemian, "Matrix Structural Analysis", 2nd ed., sec. 4.4 and 5.4): axial EA/L,
torsion GJ/L, bending Euler-Bernoulli or Timoshenko with phi = 12 E I / (G As L^2) per plane
(phi_y = 12 E Iz / (G Asy L^2) for the x-y plane, phi_z = 12 E Iy / (G Asz L^2) for x-z).
Mass: 'consistent' (Przemieniecki sec. 11.5, eqs. 11.41-11.42: bending translational inertia
rho A and rotary inertia rho I with Timoshenko's phi, at phi = 0 rho A L / 420 [156 22L 54 -13L
...] + rho I / (30 L) [36 3L -36 3L ...]; axial rho A L / 6 [2 1; 1 2], torsional
rho Ip L / 6 [2 1; 1 2], Ip = Iy + Iz), 'consistent_translational' (the same without the bending
rotary inertia rho I: Euler-Bernoulli's classic matrix), or 'lumped': rho A L / 2 on each
node's translations and on each rotation
max(rho Ip L / 2, rho I_k L / 2 + rho A L^3 / 78 for k = y, z).

End releases (hinges): frame.release(nodes, ["my", "mz"]) releases those local moment components
(t, my, mz) at every member end on the nodes. Each member's released local rotations are
condensed out of its local matrices by static condensation (u_b = -K_bb^-1 K_ba u_a by numpy's
solve): K_c = T^T K T, consistent masses M_c = T^T M T (Guyan; the lumped mass is kept), line
loads T^T f. frame.line_load(lines, q) adds a
uniform load q per length (global) as consistent nodal loads (q L / 2 and the fixed-end moments
(L^2 / 12) e_x x q).

Use as a module (sys.path.insert(0, this folder); import frame_reference as fr):
    mesh = fr.read_msh("beam_portal.msh")              # nodes, lines and points by physical name
    frame = fr.Frame(mesh.nodes)
    frame.add_members(mesh.lines["columns"], fr.Section(E=..., nu=..., rho=..., A=..., Iy=..., ...))
    frame.fix(mesh.points["base"])                      # all six, or dofs="xyz" for a pin
    frame.force(mesh.points["corner"], [1000, 0, 0])    # shared by the group's nodes
    u, reactions = frame.static()                       # u: (nodes, 6); reactions: (nodes, 6)
    modes = frame.modes(mass="consistent", count=6)     # .frequency, .effective_mass (n, 3), ...
or from the command line: `frame_reference.py --self-test` (the checks against closed forms,
exit 1 when one fails), `frame_reference.py --describe FILE.msh` (the groups of a mesh),
`frame_reference.py --case CASE.yaml` (the reference's answer to an inertia beam case: probes and
reactions of a static case, frequencies and effective masses of a modal one; needs PyYAML).
"""

import sys

import numpy as np

DOF_NAMES = {"x": 0, "y": 1, "z": 2, "rx": 3, "ry": 4, "rz": 5}


class Section:
    """A member's material and section. A: area; Iy, Iz: second moments about local y and z;
    J: torsion constant; Asy, Asz: shear areas (Timoshenko only); theory: 'euler_bernoulli' or
    'timoshenko'; orientation: the approximate local y (None: the default above)."""

    def __init__(self, E, nu, rho, A, Iy, Iz, J, Asy=None, Asz=None, theory="euler_bernoulli",
                 orientation=None):
        self.E, self.G, self.rho = E, E / (2 * (1 + nu)), rho
        self.A, self.Iy, self.Iz, self.J = A, Iy, Iz, J
        self.Asy, self.Asz = Asy, Asz
        if theory not in ("euler_bernoulli", "timoshenko"):
            raise ValueError(f"theory {theory!r}: euler_bernoulli or timoshenko")
        if theory == "timoshenko" and not (Asy and Asz):
            raise ValueError("a Timoshenko section needs the shear areas Asy and Asz")
        self.theory = theory
        self.orientation = None if orientation is None else np.asarray(orientation, float)

    @staticmethod
    def rectangle(E, nu, rho, width, height, **kw):
        """A solid width x height rectangle, width along local y and height along local z:
        Iy = width height^3 / 12, Iz = height width^3 / 12; J from St Venant's series
        (Timoshenko and Goodier, Theory of Elasticity, sec. 109; long side a, short side b):
        a b^3 (1/3 - 64 / pi^5 (b / a) sum over odd n of tanh(n pi a / (2 b)) / n^5); shear
        areas k A with Cowper's k = 10 (1 + nu) / (12 + 11 nu) (J. Appl. Mech. 33, 1966)."""
        a, b = max(width, height), min(width, height)
        series = sum(np.tanh(n * np.pi * a / (2 * b)) / n ** 5 for n in range(1, 200, 2))
        J = a * b ** 3 * (1 / 3 - 64 / np.pi ** 5 * (b / a) * series)
        A = width * height
        k = 10 * (1 + nu) / (12 + 11 * nu)
        return Section(E, nu, rho, A, width * height ** 3 / 12, height * width ** 3 / 12, J,
                       k * A, k * A, **kw)


def local_axes(x0, x1, orientation=None):
    """The rotation R whose rows are e_x, e_y, e_z of the member from x0 to x1, and its length."""
    d = np.asarray(x1, float) - np.asarray(x0, float)
    L = np.linalg.norm(d)
    ex = d / L
    if orientation is None:
        z = np.array([0.0, 0.0, 1.0])
        orientation = np.cross(z, ex)
        if np.linalg.norm(orientation) < 1e-9:
            orientation = np.array([0.0, 1.0, 0.0])
    ez = np.cross(ex, orientation)
    if np.linalg.norm(ez) < 1e-9 * np.linalg.norm(orientation):
        raise ValueError("orientation parallel to the member")
    ez /= np.linalg.norm(ez)
    ey = np.cross(ez, ex)
    return np.vstack([ex, ey, ez]), L


def _bending(L, c, phi, sign):
    """The 4 x 4 bending stiffness of one plane, c = E I / ((1 + phi) L^3), DOFs (deflection 1,
    rotation 1, deflection 2, rotation 2); sign +1 for (v, rz), -1 for (w, ry)."""
    s = sign
    return c * np.array([
        [12, s * 6 * L, -12, s * 6 * L],
        [s * 6 * L, (4 + phi) * L * L, -s * 6 * L, (2 - phi) * L * L],
        [-12, -s * 6 * L, 12, -s * 6 * L],
        [s * 6 * L, (2 - phi) * L * L, -s * 6 * L, (4 + phi) * L * L]])


def local_stiffness(sec, L):
    """The 12 x 12 stiffness in local axes, DOFs (u v w rx ry rz) at node 0 then node 1."""
    k = np.zeros((12, 12))
    ax = sec.E * sec.A / L
    tor = sec.G * sec.J / L
    for (i, j), s in {(0, 0): 1, (0, 1): -1, (1, 0): -1, (1, 1): 1}.items():
        k[6 * i, 6 * j] = s * ax
        k[6 * i + 3, 6 * j + 3] = s * tor
    phi_y, phi_z = shear_parameters(sec, L)
    xy = [1, 5, 7, 11]   # v1 rz1 v2 rz2
    xz = [2, 4, 8, 10]   # w1 ry1 w2 ry2
    k[np.ix_(xy, xy)] = _bending(L, sec.E * sec.Iz / ((1 + phi_y) * L ** 3), phi_y, +1)
    k[np.ix_(xz, xz)] = _bending(L, sec.E * sec.Iy / ((1 + phi_z) * L ** 3), phi_z, -1)
    return k


def shear_parameters(sec, L):
    """phi_y = 12 E Iz / (G Asy L^2) (x-y plane), phi_z = 12 E Iy / (G Asz L^2) (x-z plane);
    0 for an Euler-Bernoulli section."""
    if sec.theory != "timoshenko":
        return 0.0, 0.0
    return (12 * sec.E * sec.Iz / (sec.G * sec.Asy * L * L),
            12 * sec.E * sec.Iy / (sec.G * sec.Asz * L * L))


def _bending_mass(L, mA, rI, phi, sign):
    """The 4 x 4 consistent mass of one bending plane (Przemieniecki 1968, eqs. 11.41-11.42),
    DOFs (deflection 1, rotation 1, deflection 2, rotation 2), sign as in _bending: translational
    inertia mA = rho A L and rotary inertia rI = rho I / L, each over (1 + phi)^2; at phi = 0
    rho A L / 420 [156 22L 54 -13L; ...] and rho I / (30 L) [36 3L -36 3L; ...]."""
    p, s = phi, sign
    t11 = 13 / 35 + 7 * p / 10 + p * p / 3
    t12 = (11 / 210 + 11 * p / 120 + p * p / 24) * L
    t13 = 9 / 70 + 3 * p / 10 + p * p / 6
    t14 = -(13 / 420 + 3 * p / 40 + p * p / 24) * L
    t22 = (1 / 105 + p / 60 + p * p / 120) * L * L
    t24 = -(1 / 140 + p / 60 + p * p / 120) * L * L
    trans = np.array([[t11, s * t12, t13, s * t14],
                      [s * t12, t22, -s * t14, t24],
                      [t13, -s * t14, t11, -s * t12],
                      [s * t14, t24, -s * t12, t22]])
    r11 = 6 / 5
    r12 = (1 / 10 - p / 2) * L
    r22 = (2 / 15 + p / 6 + p * p / 3) * L * L
    r24 = (-1 / 30 - p / 6 + p * p / 6) * L * L
    rot = np.array([[r11, s * r12, -r11, s * r12],
                    [s * r12, r22, -s * r12, r24],
                    [-r11, -s * r12, r11, -s * r12],
                    [s * r12, r24, -s * r12, r22]])
    return (mA * trans + rI * rot) / (1 + p) ** 2


def local_consistent_mass(sec, L, rotary=True):
    """The 12 x 12 consistent mass in local axes: axial rho A L / 6 [2 1; 1 2], torsional
    rho (Iy + Iz) L / 6 [2 1; 1 2], bending _bending_mass (with phi for a Timoshenko section;
    rotary=False leaves out the bending rotary inertia rho I: Euler-Bernoulli's classic matrix)."""
    m = np.zeros((12, 12))
    mA = sec.rho * sec.A * L
    pair = np.array([[2.0, 1.0], [1.0, 2.0]]) / 6
    m[np.ix_([0, 6], [0, 6])] = mA * pair
    m[np.ix_([3, 9], [3, 9])] = sec.rho * (sec.Iy + sec.Iz) * L * pair
    phi_y, phi_z = shear_parameters(sec, L)
    r = sec.rho / L if rotary else 0.0
    m[np.ix_([1, 5, 7, 11], [1, 5, 7, 11])] = _bending_mass(L, mA, r * sec.Iz, phi_y, +1)
    m[np.ix_([2, 4, 8, 10], [2, 4, 8, 10])] = _bending_mass(L, mA, r * sec.Iy, phi_z, -1)
    return m


def lumped_rotational_mass(sec, L):
    r = sec.rho
    return max(r * (sec.Iy + sec.Iz) * L / 2,
               r * sec.Iy * L / 2 + r * sec.A * L ** 3 / 78,
               r * sec.Iz * L / 2 + r * sec.A * L ** 3 / 78)


def local_lumped_mass(sec, L):
    """Diagonal: rho A L / 2 per translation, the rotational mass above per rotation (the same
    about every axis, so the same in global axes)."""
    rot = lumped_rotational_mass(sec, L)
    half = sec.rho * sec.A * L / 2
    return np.diag([half] * 3 + [rot] * 3 + [half] * 3 + [rot] * 3)


def transformation(R):
    T = np.zeros((12, 12))
    for b in range(4):
        T[3 * b:3 * b + 3, 3 * b:3 * b + 3] = R
    return T


class Modes:
    def __init__(self, omega, shapes, gamma, total_mass, gamma_rot=None, total_rot=None,
                 reference_point=None):
        self.omega = omega
        self.frequency = omega / (2 * np.pi)
        self.shapes = shapes                 # (modes, nodes, 6), mass-normalised
        self.participation = gamma           # (modes, 3): phi . M r_d
        self.effective_mass = gamma ** 2     # (modes, 3)
        self.total_mass = total_mass         # (3,): r_d . M r_d over every DOF
        self.participation_rot = gamma_rot   # (modes, 3): phi . M r_rd, the unit rotations
        self.effective_mass_rot = None if gamma_rot is None else gamma_rot ** 2
        self.total_rotary_inertia = total_rot  # (3,): r_rd . M r_rd over every DOF
        self.reference_point = reference_point  # the axes' point (default: centre of mass)


class Frame:
    def __init__(self, nodes):
        self.nodes = np.asarray(nodes, float)
        self.members = []                    # (node 0, node 1, Section)
        self.released = []                   # per member: its released local DOFs (set)
        self.fixed = np.zeros((len(self.nodes), 6), bool)
        self.loads = np.zeros((len(self.nodes), 6))

    def add_members(self, lines, section):
        for a, b in lines:
            self.members.append((int(a), int(b), section))
            self.released.append(set())

    def release(self, nodes, components, members=None):
        """Releases the local moments `components` (of t, my, mz) at every end of the members
        (all, or the indices in `members`) that lies on one of `nodes`."""
        nodes = set(int(n) for n in np.atleast_1d(nodes))
        index = {"t": 3, "my": 4, "mz": 5}
        for k, (a, b, _) in enumerate(self.members):
            if members is not None and k not in members:
                continue
            for end, n in enumerate((a, b)):
                if n in nodes:
                    self.released[k].update(6 * end + index[c] for c in components)

    def _condensation(self, k, local_k):
        """T (12 x 12, local) with the released DOFs b following the others: K_c = T^T K T."""
        b = sorted(self.released[k])
        T = np.eye(12)
        if b:
            a = [i for i in range(12) if i not in b]
            T[np.ix_(b, a)] = -np.linalg.solve(local_k[np.ix_(b, b)], local_k[np.ix_(b, a)])
            T[np.ix_(b, b)] = 0.0
        return T

    def line_load(self, lines, q):
        """A uniform load q (global, per length) on the members joining the `lines`' nodes, as
        consistent nodal loads (condensed for the members' releases)."""
        q = np.asarray(q, float)
        wanted = {tuple(sorted((int(a), int(b)))) for a, b in lines}
        for k, (a, b, sec) in enumerate(self.members):
            if tuple(sorted((a, b))) not in wanted:
                continue
            R, L = local_axes(self.nodes[a], self.nodes[b], sec.orientation)
            m = L * L / 12 * np.cross(R[0], q)
            f = np.r_[q * L / 2, m, q * L / 2, -m]        # global, (u, r) per node
            Tr = transformation(R)
            Tc = self._condensation(k, local_stiffness(sec, L))
            f = Tr.T @ Tc.T @ Tr @ f
            self.loads[a] += f[:6]
            self.loads[b] += f[6:]

    def fix(self, nodes, dofs=("x", "y", "z", "rx", "ry", "rz")):
        for n in np.atleast_1d(nodes):
            for d in dofs:
                self.fixed[n, DOF_NAMES[d]] = True

    def force(self, nodes, value):
        """A total force [fx, fy, fz] shared equally by the nodes (inertia's `force`)."""
        nodes = np.atleast_1d(nodes)
        self.loads[nodes, 0:3] += np.asarray(value, float) / len(nodes)

    def moment(self, nodes, value):
        """A total moment [mx, my, mz] shared equally by the nodes (on the rotations)."""
        nodes = np.atleast_1d(nodes)
        self.loads[nodes, 3:6] += np.asarray(value, float) / len(nodes)

    def _member_matrices(self, a, b, sec, mass, k_member=None):
        R, L = local_axes(self.nodes[a], self.nodes[b], sec.orientation)
        T = transformation(R)
        if mass is None:
            k = local_stiffness(sec, L)
        elif mass == "consistent":
            k = local_consistent_mass(sec, L)
        elif mass == "consistent_translational":
            k = local_consistent_mass(sec, L, rotary=False)
        elif mass == "lumped":
            k = local_lumped_mass(sec, L)
        else:
            raise ValueError(f"mass {mass!r}: consistent, consistent_translational or lumped")
        if k_member is not None and self.released[k_member] and mass != "lumped":
            Tc = self._condensation(k_member, local_stiffness(sec, L))
            k = Tc.T @ k @ Tc
        dofs = np.r_[6 * a:6 * a + 6, 6 * b:6 * b + 6]
        return dofs, T.T @ k @ T

    def section_forces(self, u):
        """Per member: the local end forces K_c (T_r u) at node 0 then node 1 (u v w rx ry rz
        order, the forces the nodes exert on the member)."""
        out = []
        for k, (a, b, sec) in enumerate(self.members):
            R, L = local_axes(self.nodes[a], self.nodes[b], sec.orientation)
            kl = local_stiffness(sec, L)
            Tc = self._condensation(k, kl)
            d = transformation(R) @ np.r_[u[a], u[b]]
            out.append(Tc.T @ kl @ Tc @ d)
        return out

    def assemble(self, mass=None):
        """The global stiffness (mass=None) or mass matrix ('consistent',
        'consistent_translational', 'lumped'), dense."""
        n = 6 * len(self.nodes)
        K = np.zeros((n, n))
        for m, (a, b, sec) in enumerate(self.members):
            dofs, k = self._member_matrices(a, b, sec, mass, m)
            K[np.ix_(dofs, dofs)] += k
        return K

    def _split(self):
        fixed = self.fixed.ravel()
        free = np.flatnonzero(~fixed)
        return free, np.flatnonzero(fixed)

    def static(self):
        """Displacements (nodes, 6) and support reactions (nodes, 6; the force the supports
        exert, K u - F on the fixed DOFs, zero elsewhere)."""
        K = self.assemble()
        F = self.loads.ravel()
        free, fixed = self._split()
        u = np.zeros(K.shape[0])
        u[free] = np.linalg.solve(K[np.ix_(free, free)], F[free])
        r = np.zeros_like(u)
        r[fixed] = K[fixed] @ u - F[fixed]
        return u.reshape(-1, 6), r.reshape(-1, 6)

    def rotation_influence(self, d, x0):
        """The unit rigid rotation about axis d through x0: e_d x (x - x0) on the
        translations, e_d on the rotations (nodes * 6)."""
        e = np.eye(3)[d]
        r = np.zeros((len(self.nodes), 6))
        r[:, 0:3] = np.cross(e, self.nodes - np.asarray(x0, float))
        r[:, 3 + d] = 1.0
        return r.ravel()

    def centre_of_mass(self, M):
        """(r_d . M X) / (r_d . M r_d), X the node positions on the translations."""
        X = np.zeros((len(self.nodes), 6))
        X[:, 0:3] = self.nodes
        X = X.ravel()
        out = np.zeros(3)
        for d in range(3):
            r = np.zeros(M.shape[0])
            r[d::6] = 1.0
            out[d] = r @ M @ X / (r @ M @ r)
        return out

    def modes(self, mass="consistent", count=None, reference_point=None):
        """The lowest `count` modes (all without): K phi = omega^2 M phi on the free DOFs, by
        numpy.linalg.eigh of C^-1 K C^-T, C the Cholesky factor of M_ff; mass-normalised;
        participation phi . M r_d over every DOF (the supports' mass coupling included), and
        phi . M r_rd for the unit rotations about the axes through reference_point (default:
        the centre of mass)."""
        K = self.assemble()
        M = self.assemble(mass)
        free, _ = self._split()
        C = np.linalg.cholesky(M[np.ix_(free, free)])
        Ci = np.linalg.inv(C)
        A = Ci @ K[np.ix_(free, free)] @ Ci.T
        lam, Y = np.linalg.eigh((A + A.T) / 2)
        count = len(lam) if count is None else count
        lam, Y = lam[:count], Y[:, :count]
        phi = np.zeros((K.shape[0], count))
        phi[free] = Ci.T @ Y
        r = np.zeros((K.shape[0], 3))
        for d in range(3):
            r[d::6, d] = 1.0
        gamma = phi.T @ M @ r
        total = np.einsum("id,ij,jd->d", r, M, r)
        x0 = self.centre_of_mass(M) if reference_point is None else np.asarray(reference_point)
        rr = np.array([self.rotation_influence(d, x0) for d in range(3)]).T
        gamma_rot = phi.T @ M @ rr
        total_rot = np.einsum("id,ij,jd->d", rr, M, rr)
        omega = np.sqrt(np.clip(lam, 0, None))
        return Modes(omega, phi.T.reshape(count, -1, 6), gamma, total, gamma_rot, total_rot, x0)

    def total_mass(self):
        return sum(sec.rho * sec.A * np.linalg.norm(self.nodes[b] - self.nodes[a])
                   for a, b, sec in self.members)


class Mesh:
    def __init__(self, nodes, tags, lines, points):
        self.nodes = nodes     # (n, 3), rows in the order of the file's node tags
        self.tags = tags       # the Gmsh node tag of each row
        self.lines = lines     # physical name -> [(row 0, row 1), ...]
        self.points = points   # physical name -> [row, ...]

    def nearest(self, point):
        return int(np.argmin(np.linalg.norm(self.nodes - np.asarray(point, float), axis=1)))


def read_msh(path):
    """Nodes, line2 elements and point elements by physical name of a Gmsh MSH 4.1 ASCII file."""
    with open(path) as f:
        lines = [line.split() for line in f]
    sections, i = {}, 0
    while i < len(lines):
        if lines[i] and lines[i][0].startswith("$") and not lines[i][0].startswith("$End"):
            name = lines[i][0][1:]
            j = i + 1
            while lines[j][0] != "$End" + name:
                j += 1
            sections[name] = lines[i + 1:j]
            i = j
        i += 1
    if sections["MeshFormat"][0][0] != "4.1" or sections["MeshFormat"][0][1] != "0":
        raise ValueError(f"{path}: not a MSH 4.1 ASCII file")
    names = {}
    for row in sections.get("PhysicalNames", [])[1:]:
        names[(int(row[0]), int(row[1]))] = " ".join(row[2:]).strip('"')
    ent = sections["Entities"]
    counts = [int(x) for x in ent[0]]
    physicals = {}
    k = 1
    for dim in range(4):
        for _ in range(counts[dim]):
            row = ent[k]
            k += 1
            tag = int(row[0])
            at = 4 if dim == 0 else 7
            nphys = int(row[at])
            physicals[(dim, tag)] = [int(x) for x in row[at + 1:at + 1 + nphys]]
    nodes, tags = [], []
    body = sections["Nodes"]
    k = 1
    for _ in range(int(body[0][0])):
        n = int(body[k][3])
        tags += [int(t) for t in (r[0] for r in body[k + 1:k + 1 + n])]
        nodes += [[float(x) for x in r] for r in body[k + 1 + n:k + 1 + 2 * n]]
        k += 1 + 2 * n
    row_of = {t: r for r, t in enumerate(tags)}
    groups = {1: {}, 0: {}}
    body = sections["Elements"]
    k = 1
    for _ in range(int(body[0][0])):
        dim, tag, etype, n = (int(x) for x in body[k])
        cells = [[row_of[int(t)] for t in r[1:]] for r in body[k + 1:k + 1 + n]]
        k += 1 + n
        if (dim, etype) not in ((1, 1), (0, 15)):
            continue
        for phys in physicals.get((dim, tag), []):
            name = names.get((dim, phys), str(phys))
            if dim == 1:
                groups[1].setdefault(name, []).extend(tuple(c) for c in cells)
            else:
                groups[0].setdefault(name, []).extend(c[0] for c in cells)
    return Mesh(np.array(nodes), tags, groups[1], groups[0])


# ---------------------------------------------------------------------------------------------
# Self-test: closed forms.

_failures = []


def check(what, value, exact, tol, scale=None):
    """Prints |value - exact| / scale (scale |exact| unless given) against tol; a figure beyond
    it counts as failed (failures())."""
    err = abs(value - exact) / (abs(exact) if scale is None else scale)
    ok = err <= tol
    if not ok:
        _failures.append(what)
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {value:.9g} against {exact:.9g}, "
          f"{'relative ' if scale is None else ''}error {err:.2e} (tolerance {tol:.0e})")
    return err


def failures():
    return list(_failures)


_check = check


def read_csv(path):
    """The columns of a CSV history by name (as lists of floats, '#' comment lines skipped) and
    the column names in order."""
    with open(path) as f:
        rows = [r.strip().split(",") for r in f if r.strip() and not r.startswith("#")]
    names = rows[0]
    return {n: [float(r[k]) for r in rows[1:]] for k, n in enumerate(names)}, names


def probe_columns(names, probe):
    """The columns of one probe in probes.csv, in order (displacement's three, then the next
    field's, ...)."""
    return [n for n in names if n.startswith(probe + ".")]


def _line(n, start, end):
    """n + 1 nodes from start to end and the n lines between them."""
    nodes = np.linspace(start, end, n + 1)
    return nodes, [(i, i + 1) for i in range(n)]


def _cantilever_statics():
    E, nu, rho = 2.1e11, 0.3, 7850
    L, P = 2.0, 1000.0
    sec_eb = Section(E, nu, rho, A=0.01, Iy=8.0e-5, Iz=2.0e-5, J=1.0e-5)
    sec_t = Section(E, nu, rho, A=0.01, Iy=8.0e-5, Iz=2.0e-5, J=1.0e-5, Asy=0.008, Asz=0.006,
                    theory="timoshenko")
    G = sec_t.G
    for n in (1, 16):
        for sec, label in ((sec_eb, "euler_bernoulli"), (sec_t, "timoshenko")):
            nodes, lines = _line(n, [0, 0, 0], [L, 0, 0])
            f = Frame(nodes)
            f.add_members(lines, sec)
            f.fix(0)
            f.force(n, [0, P, 0])
            f.force(n, [0, 0, P])
            f.moment(n, [0, 0, 0])
            u, r = f.static()
            shear_y = P * L / (G * sec.Asy) if label == "timoshenko" else 0
            shear_z = P * L / (G * sec.Asz) if label == "timoshenko" else 0
            _check(f"cantilever {label} n={n}: tip v under P "
                   f"(P L^3/3EIz{' + PL/GAsy' * bool(shear_y)})",
                   u[n, 1], P * L ** 3 / (3 * E * sec.Iz) + shear_y, 1e-11)
            _check(f"cantilever {label} n={n}: tip w under P "
                   f"(P L^3/3EIy{' + PL/GAsz' * bool(shear_z)})",
                   u[n, 2], P * L ** 3 / (3 * E * sec.Iy) + shear_z, 1e-11)
            _check(f"cantilever {label} n={n}: tip rotation rz = P L^2/2EIz", u[n, 5],
                   P * L ** 2 / (2 * E * sec.Iz), 1e-11)
            _check(f"cantilever {label} n={n}: tip rotation ry = -P L^2/2EIy", u[n, 4],
                   -P * L ** 2 / (2 * E * sec.Iy), 1e-11)
            _check(f"cantilever {label} n={n}: root moment reaction mz = -P L", r[0, 5], -P * L,
                   1e-11)
    # Axial, torsion and an end moment; then the same beam along a skew direction (the
    # transformation): the tip displacement is the rotated one.
    nodes, lines = _line(4, [0, 0, 0], [L, 0, 0])
    f = Frame(nodes)
    f.add_members(lines, sec_eb)
    f.fix(0)
    f.force(4, [P, 0, 0])
    f.moment(4, [P, P, P])
    u, _ = f.static()
    _check("cantilever: tip u = P L / EA", u[4, 0], P * L / (E * sec_eb.A), 1e-11)
    _check("cantilever: tip rx = T L / GJ", u[4, 3], P * L / (sec_eb.G * sec_eb.J), 1e-11)
    _check("cantilever: tip w under an end moment my = -M L^2/2EIy", u[4, 2],
           -P * L ** 2 / (2 * E * sec_eb.Iy), 1e-11)
    _check("cantilever: tip v under an end moment mz = M L^2/2EIz", u[4, 1],
           P * L ** 2 / (2 * E * sec_eb.Iz), 1e-11)
    Q, _ = np.linalg.qr(np.array([[1.0, 0.3, -0.2], [0.4, 1.0, 0.5], [-0.3, 0.1, 1.0]]))
    if np.linalg.det(Q) < 0:
        Q[:, 2] *= -1
    ex, ey = Q[:, 0], Q[:, 1]
    skew = Section(E, nu, rho, A=0.01, Iy=8.0e-5, Iz=2.0e-5, J=1.0e-5, orientation=ey + 0.3 * ex)
    nodes, lines = _line(4, [0, 0, 0], L * ex)
    g = Frame(nodes)
    g.add_members(lines, skew)
    g.fix(0)
    g.force(4, Q @ [P, 0, 0])
    g.moment(4, Q @ [P, P, P])
    v, _ = g.static()
    err = max(np.abs(Q.T @ v[4, :3] - u[4, :3]).max() / np.abs(u[4, :3]).max(),
              np.abs(Q.T @ v[4, 3:] - u[4, 3:]).max() / np.abs(u[4, 3:]).max())
    ok = err < 1e-10
    if not ok:
        _failures.append("skew cantilever")
    print(f"{'ok  ' if ok else 'FAIL'} cantilever along a skew axis with an orientation: the tip "
          f"motion is the rotated one to {err:.2e} (tolerance 1e-10)")


def _rectangle():
    """St Venant's torsion constant of a square, 0.1406 a^4 (Timoshenko and Goodier's table),
    and of a thin strip, a b^3 / 3 (1 - 0.630 b / a)."""
    _check("rectangle: J of a unit square against 0.1406", Section.rectangle(1, 0.3, 1, 1, 1).J,
           0.1406, 3e-4)
    _check("rectangle: J of a 1 x 0.05 strip against a b^3 / 3 (1 - 0.630 b / a)",
           Section.rectangle(1, 0.3, 1, 1, 0.05).J, 0.05 ** 3 / 3 * (1 - 0.630 * 0.05), 1e-4)


def _element_invariants():
    """One skew Timoshenko member with an orientation: K and M symmetric, K with exactly six
    zero eigenvalues whose null space holds the six rigid-body motions; both masses positive
    definite, carrying rho A L in each translation."""
    sec = Section(2.1e11, 0.3, 7850, 0.01, 8.0e-5, 2.0e-5, 1.0e-5, Asy=0.008, Asz=0.006,
                  theory="timoshenko", orientation=[0.2, 1.0, 0.4])
    f = Frame([[0.1, -0.2, 0.3], [1.3, 0.5, 1.1]])
    f.add_members([(0, 1)], sec)
    K, M = f.assemble(), f.assemble("consistent")
    L = np.linalg.norm(f.nodes[1] - f.nodes[0])
    rigid = []
    for d in range(3):
        t = np.zeros(12)
        t[d::6] = 1
        rigid.append(t)
        w = np.zeros(3)
        w[d] = 1
        rot = np.zeros(12)
        for n in range(2):
            rot[6 * n:6 * n + 3] = np.cross(w, f.nodes[n])
            rot[6 * n + 3:6 * n + 6] = w
        rigid.append(rot)
    rigid = np.array(rigid).T
    scale = np.abs(K).max()
    ev = np.linalg.eigvalsh(K)
    zeros = int(np.sum(np.abs(ev) < 1e-10 * scale))
    residual = np.abs(K @ rigid).max() / scale
    ok = zeros == 6 and residual < 1e-10 and np.allclose(K, K.T, rtol=0, atol=1e-12 * scale)
    if not ok:
        _failures.append("element rigid-body modes")
    print(f"{'ok  ' if ok else 'FAIL'} skew Timoshenko member: K symmetric, {zeros} zero "
          f"eigenvalues (6 expected), |K r| / max|K| = {residual:.1e} for the 6 rigid motions")
    for mass in ("consistent", "lumped"):
        M = f.assemble(mass)
        for d in range(3):
            t = rigid[:, 2 * d]
            _check(f"skew member, {mass} mass: r.M r in {'xyz'[d]} against rho A L", t @ M @ t,
                   sec.rho * sec.A * L, 1e-12)
        if np.linalg.eigvalsh(M).min() <= 0:
            _failures.append(f"{mass} mass not positive definite")
            print(f"FAIL skew member, {mass} mass: not positive definite")


def _shape_function_integrals():
    """The bending matrices of one plane against the integrals of Timoshenko's interdependent
    interpolation (cubic v, quadratic section rotation psi; Przemieniecki sec. 5.6, Friedman and
    Kosmatka 1993) by 8-point Gauss: K = int E I psi'^2 + G As (v' - psi)^2, M = int rho A v^2 +
    rho I psi^2, at phi = 0, 0.3 and 2 (phi = 12 E I / (G As L^2))."""
    L, E, G, I, A, rho = 1.7, 2.0, 0.8, 0.3, 1.1, 0.9
    x, w = np.polynomial.legendre.leggauss(8)
    xi, w = (x + 1) / 2, w / 2 * L
    worst = 0.0
    for phi in (0.0, 0.3, 2.0):
        c = 1 / (1 + phi)
        v = c * np.array([2 * xi ** 3 - 3 * xi ** 2 - phi * xi + 1 + phi,
                          L * (xi ** 3 - (2 + phi / 2) * xi ** 2 + (1 + phi / 2) * xi),
                          -2 * xi ** 3 + 3 * xi ** 2 + phi * xi,
                          L * (xi ** 3 - (1 - phi / 2) * xi ** 2 - phi / 2 * xi)])
        dv = c * np.array([(6 * xi ** 2 - 6 * xi - phi) / L,
                           3 * xi ** 2 - (4 + phi) * xi + 1 + phi / 2,
                           (-6 * xi ** 2 + 6 * xi + phi) / L,
                           3 * xi ** 2 - (2 - phi) * xi - phi / 2])
        psi = c * np.array([6 / L * (xi ** 2 - xi), 3 * xi ** 2 - (4 + phi) * xi + 1 + phi,
                            -6 / L * (xi ** 2 - xi), 3 * xi ** 2 - (2 - phi) * xi])
        dpsi = c * np.array([6 / L ** 2 * (2 * xi - 1), (6 * xi - 4 - phi) / L,
                             -6 / L ** 2 * (2 * xi - 1), (6 * xi - 2 + phi) / L])
        As = 12 * E * I / (G * phi * L * L) if phi else None
        K = E * I * (dpsi * w) @ dpsi.T
        if As:
            gamma = dv - psi
            K += G * As * (gamma * w) @ gamma.T
        M = rho * A * (v * w) @ v.T + rho * I * (psi * w) @ psi.T
        Kf = _bending(L, E * I / ((1 + phi) * L ** 3), phi, +1)
        Mf = _bending_mass(L, rho * A * L, rho * I / L, phi, +1)
        worst = max(worst, np.abs(K - Kf).max() / np.abs(Kf).max(),
                    np.abs(M - Mf).max() / np.abs(Mf).max())
    ok = worst < 1e-13
    if not ok:
        _failures.append("shape-function integrals")
    print(f"{'ok  ' if ok else 'FAIL'} bending stiffness and consistent mass against the "
          f"integrals of the interdependent interpolation, phi = 0, 0.3, 2: {worst:.1e} "
          "(tolerance 1e-13)")


def _simply_supported_modes():
    """A pinned-pinned beam, 40 elements, bending in the x-z plane, the consistent mass with
    rotary inertia: Euler-Bernoulli sections against the Rayleigh beam (EI k^4 = rho A w^2 +
    rho I k^2 w^2), Timoshenko sections against Timoshenko's frequency equation
    EI k^4 - rho A w^2 - rho I (1 + E A / (G As)) k^2 w^2 + rho^2 I A / (G As) w^4 = 0,
    k = n pi / L, modes 1 to 4 (a stocky beam: L / r = 22)."""
    E, nu, rho, L, n = 2.1e11, 0.3, 7850, 2.0, 40
    A, I, As = 0.01, 8.0e-5, 0.006
    # Timoshenko's element converges at second order here (measured 1.97e-5, 2.43e-4, 9.08e-4,
    # 2.14e-3 at 40 elements, a quarter of that at 80)
    tol = {"euler_bernoulli": (2e-6, 2e-5, 1e-4, 3e-4), "timoshenko": (3e-5, 4e-4, 1.5e-3, 3e-3)}
    for theory in ("euler_bernoulli", "timoshenko"):
        sec = Section(E, nu, rho, A, Iy=I, Iz=I / 4, J=1.0e-5, Asy=As, Asz=As, theory=theory)
        nodes, lines = _line(n, [0, 0, 0], [L, 0, 0])
        f = Frame(nodes)
        f.add_members(lines, sec)
        f.fix(range(n + 1), ("x", "y", "rx", "rz"))
        f.fix([0, n], ("z",))
        m = f.modes("consistent", 4)
        G = sec.G
        for k in range(4):
            kk = (k + 1) * np.pi / L
            if theory == "timoshenko":
                a = rho ** 2 * I * A / (G * As)
                b = -(rho * A + rho * I * (1 + E * A / (G * As)) * kk ** 2)
                c = E * I * kk ** 4
                w2 = (-b - np.sqrt(b * b - 4 * a * c)) / (2 * a)
            else:
                w2 = E * I * kk ** 4 / (rho * A + rho * I * kk ** 2)
            exact = np.sqrt(w2) / (2 * np.pi)
            beam = "Timoshenko" if theory == "timoshenko" else "Rayleigh"
            _check(f"pinned beam 40 elements, {theory}, consistent mass with rotary inertia: "
                   f"mode {k + 1} against the {beam} beam", m.frequency[k], exact,
                   tol[theory][k])


def _cantilever_modes():
    """Bending in the x-z plane only (u, v, rx, rz held at every node), 40 elements. The
    consistent mass without rotary inertia (Euler-Bernoulli's classic matrix) against
    Euler-Bernoulli's beta_n L; the lumped one on a slender section
    (radius of gyration L / 220: its rotary inertia, which Euler-Bernoulli leaves out, is small),
    converging from below at O(h^2)."""
    E, nu, rho, L, n = 2.1e11, 0.3, 7850, 2.0, 40
    betas = (1.87510407, 4.69409113, 7.85475744, 10.99554073, 14.13716839)
    for mass, Iy, tol in (("consistent_translational", 8.0e-5, (1e-7, 1e-6, 1e-5, 3e-5, 1e-4)),
                          ("lumped", 8.0e-7, (1e-3, 3e-3, 5e-3, 8e-3, 1e-2))):
        sec = Section(E, nu, rho, A=0.01, Iy=Iy, Iz=Iy / 4, J=1.0e-5)
        nodes, lines = _line(n, [0, 0, 0], [L, 0, 0])
        f = Frame(nodes)
        f.add_members(lines, sec)
        f.fix(0)
        f.fix(range(1, n + 1), ("x", "y", "rx", "rz"))
        m = f.modes(mass, 5)
        for k, bl in enumerate(betas):
            exact = bl ** 2 / (2 * np.pi * L ** 2) * np.sqrt(E * sec.Iy / (rho * sec.A))
            _check(f"cantilever 40 elements, {mass} mass, Iy = {Iy:g}: bending mode {k + 1} "
                   f"(beta L = {bl})", m.frequency[k], exact, tol[k])


def _portal():
    E, nu, rho = 2.1e11, 0.3, 7850
    h, b, H = 3.0, 4.0, 1000.0
    Ic, Ig = 4.5e-4, 8.0e-5
    for n in (1, 4):
        nodes = np.vstack([np.linspace([0, 0, 0], [0, 0, h], n + 1),
                           np.linspace([0, 0, h], [b, 0, h], n + 1)[1:],
                           np.linspace([b, 0, 0], [b, 0, h], n + 1)[:-1]])
        left = [(i, i + 1) for i in range(n)]
        girder = [(n + i, n + i + 1) for i in range(n)]
        right = [(2 * n + 1 + i, 2 * n + 2 + i) for i in range(n - 1)] + [(3 * n, 2 * n)]
        f = Frame(nodes)
        # nearly axially rigid members (A x 1e5; K then has a condition number near 1e11): the
        # slope-deflection closed form has no axial strain
        f.add_members(left + right, Section(E, nu, rho, A=0.06e5, Iy=Ic, Iz=2e-4, J=1e-4,
                                            orientation=[0, 1, 0]))
        f.add_members(girder, Section(E, nu, rho, A=0.01e5, Iy=Ig, Iz=2e-5, J=1e-5))
        f.fix([0, 2 * n + 1])
        f.force(n, [H, 0, 0])
        u, r = f.static()
        kc, kg = E * Ic / h, E * Ig / b
        sway = H * h ** 2 * (2 * kc + 3 * kg) / (12 * kc * (kc + 6 * kg))
        _check(f"portal, fixed bases, {n} elements per member: sway under H at the top "
               "(slope-deflection)", u[n, 0], sway, 1e-6)
        theta = 3 * kc * (sway / h) / (2 * kc + 3 * kg)
        _check(f"portal, {n} elements per member: joint rotation ry (slope-deflection)",
               u[n, 4], theta, 1e-6)
        _check(f"portal, {n} elements per member: base shear reactions sum to -H",
               r[0, 0] + r[2 * n + 1, 0], -H, 1e-9)


def _effective_masses():
    mesh = read_msh(_mesh_path("beam_frame3.msh"))
    E, nu, rho = 2.1e11, 0.3, 7850
    f = Frame(mesh.nodes)
    f.add_members(mesh.lines["columns"], Section(E, nu, rho, 0.012, 1.5e-4, 1.0e-4, 5e-5))
    f.add_members(mesh.lines["beams"], Section(E, nu, rho, 0.008, 1.2e-4, 2.0e-5, 2e-5))
    total = f.total_mass()
    m = f.modes("consistent")
    for d in range(3):
        _check(f"free 3-storey frame, consistent mass: sum of all effective masses in {'xyz'[d]} "
               "against the total mass", m.effective_mass[:, d].sum(), total, 1e-10)
    _check("free 3-storey frame: r.M r against rho A L summed", m.total_mass[0], total, 1e-12)
    print(f"     free 3-storey frame: {sum(m.frequency < 1e-6 * m.frequency.max())} modes at 0 Hz "
          "(6 expected)")
    if sum(m.frequency < 1e-6 * m.frequency.max()) != 6:
        _failures.append("rigid-body modes")
    _rotational_effective_masses(f, m)
    f.fix(mesh.points["base"])
    for mass in ("consistent", "lumped"):
        m = f.modes(mass)
        free, _ = f._split()
        Mf = f.assemble(mass)
        r = np.zeros(Mf.shape[0])
        r[0::6] = 1
        # all modes: sum Gamma^2 = (M_fa r)^T M_ff^-1 (M_fa r) (the mass the free DOFs carry)
        b = Mf[free] @ r
        carried = b @ np.linalg.solve(Mf[np.ix_(free, free)], b)
        _check(f"clamped 3-storey frame, {mass} mass: sum of all effective masses in x against "
               "(M_fa r) M_ff^-1 (M_fa r)", m.effective_mass[:, 0].sum(), carried, 1e-10)
        if mass == "lumped":
            feet = 4 * rho * 0.012 * 1.6 / 2  # half of each lowest column element
            _check("clamped 3-storey frame, lumped: that is the total minus the feet's lumped mass",
                   carried, total - feet, 1e-12)
        print(f"     clamped 3-storey frame, {mass} mass: modes 1-6 "
              + ", ".join(f"{x:.4f}" for x in m.frequency[:6]) + " Hz; effective mass x of the "
              f"first 6: {m.effective_mass[:6, 0].sum() / m.total_mass[0]:.4f} of the total")


def _rotational_effective_masses(f, m):
    """The free frame's rotational effective masses (consistent mass, all modes) add up to its
    rotary inertia about the centre of mass, computed member by member (not from the matrices):
    a straight member of mass m_e whose ends sit at offsets p, q from x0 has rho A int |e_d x
    (x - x0)|^2 ds = m_e (|u_p|^2 + u_p.u_q + |u_q|^2) / 3, u = e_d x offset, and its section
    adds rho L (w_x^2 (Iy + Iz) + w_y^2 Iy + w_z^2 Iz), w = e_d in the member's local axes."""
    masses = [sec.rho * sec.A * np.linalg.norm(f.nodes[b] - f.nodes[a]) for a, b, sec in f.members]
    x0 = sum(mi * (f.nodes[a] + f.nodes[b]) / 2 for mi, (a, b, _) in zip(masses, f.members))
    x0 = x0 / sum(masses)
    _check("free 3-storey frame: centre of mass from the members against r.M X / r.M r",
           np.abs(m.reference_point - x0).max(), 0, 1e-12, 1)
    for d in range(3):
        e = np.eye(3)[d]
        inertia = 0.0
        for mi, (a, b, sec) in zip(masses, f.members):
            ua, ub = np.cross(e, f.nodes[a] - x0), np.cross(e, f.nodes[b] - x0)
            inertia += mi * (ua @ ua + ua @ ub + ub @ ub) / 3
            R, L = local_axes(f.nodes[a], f.nodes[b], sec.orientation)
            w = R @ e  # the axis in local components
            inertia += sec.rho * L * (w[0] ** 2 * (sec.Iy + sec.Iz) + w[1] ** 2 * sec.Iy
                                      + w[2] ** 2 * sec.Iz)
        _check(f"free 3-storey frame, consistent mass: r_r{'xyz'[d]}.M r_r{'xyz'[d]} against the "
               "members' rotary inertia about the centre of mass", m.total_rotary_inertia[d],
               inertia, 1e-12)
        _check(f"free 3-storey frame, consistent mass: sum of all rotational effective masses "
               f"r{'xyz'[d]} against that", m.effective_mass_rot[:, d].sum(), inertia, 1e-10)


def _meshes():
    expect = {"beam_cantilever_1.msh": (2, {"beam": 1}, {"root": 1, "tip": 1}),
              "beam_cantilever_16.msh": (17, {"beam": 16}, {"root": 1, "tip": 1}),
              "beam_portal.msh": (13, {"columns": 8, "girder": 4}, {"base": 2, "corner": 1}),
              "beam_frame3.msh": (40, {"columns": 24, "beams": 24},
                                  {"base": 4, "floor1": 4, "floor2": 4, "floor3": 4})}
    for name, (nn, lines, points) in expect.items():
        mesh = read_msh(_mesh_path(name))
        got = (len(mesh.nodes), {k: len(v) for k, v in mesh.lines.items()},
               {k: len(v) for k, v in mesh.points.items()})
        ok = got == (nn, lines, points)
        if not ok:
            _failures.append(name)
        print(f"{'ok  ' if ok else 'FAIL'} meshes/{name}: {got[0]} nodes, lines {got[1]}, "
              f"points {got[2]}")
    mesh = read_msh(_mesh_path("beam_portal.msh"))
    ok = np.allclose(mesh.nodes[mesh.points["corner"][0]], [0, 0, 3])
    ok &= sorted(tuple(mesh.nodes[p]) for p in mesh.points["base"]) == [(0, 0, 0), (4, 0, 0)]
    if not ok:
        _failures.append("portal points")
    print(f"{'ok  ' if ok else 'FAIL'} meshes/beam_portal.msh: corner at (0, 0, 3), "
          "base at x = 0 and 4")


def _mesh_path(name):
    import os
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "meshes", name)


def _releases():
    """End releases against closed forms (Euler-Bernoulli, one and several elements per span):
    two spans with a hinge over the middle support are two simply supported spans (mid-span
    5 q L^4 / (384 E I), end rotations q L^3 / (24 E I)); a Gerber beam (clamped at 0, hinge at
    a, roller at L, uniform q) has the hinge deflection q a^4 / (8 E I) + (q (L - a) / 2) a^3 /
    (3 E I); a pinned-pinned member (all moments released at both ends but t at one) is a bar;
    the hinged spans' first two frequencies are the simply supported span's, (pi / L)^2
    sqrt(E I / (rho A)) / (2 pi) (consistent mass without rotary inertia, 8 elements a span)."""
    E, nu, rho, q, L = 2.1e11, 0.3, 7850.0, -4000.0, 5.0
    sec = Section(E, nu, rho, A=0.01, Iy=2e-5, Iz=1e-5, J=1e-5)
    for n in (1, 4):
        nodes, lines = _line(2 * n, [0, 0, 0], [2 * L, 0, 0])
        f = Frame(nodes)
        f.add_members(lines, sec)
        f.release([n], ["my"], members=range(n))    # the left span's end over the support
        f.fix([0, n, 2 * n], ("x", "y", "z", "rx"))
        for k in range(2 * n + 1):
            f.fix([k], ("y", "rz"))
        f.line_load(lines, [0, 0, q])
        u, _ = f.static()
        EI = E * sec.Iy
        if n > 1:
            check(f"hinged two spans ({n} elements a span): mid-span deflection",
                  u[n // 2, 2], 5 * q * L ** 4 / (384 * EI), 1e-10)
        check(f"hinged two spans ({n}): rotation at the hinge, right span",
              u[n, 4], -q * L ** 3 / (24 * EI), 1e-10)
        check(f"hinged two spans ({n}): end rotation", u[0, 4], -q * L ** 3 / (24 * EI), 1e-10)
        if n > 1:  # the spans vibrate alone: twice the simply supported span's first mode
            f8 = Frame(_line(16, [0, 0, 0], [2 * L, 0, 0])[0])
            f8.add_members(_line(16, [0, 0, 0], [2 * L, 0, 0])[1], sec)
            f8.release([8], ["my"], members=range(8))
            f8.fix([0, 8, 16], ("x", "y", "z", "rx"))
            for k in range(17):
                f8.fix([k], ("y", "rz"))
            m = f8.modes("consistent_translational", 2)
            exact = np.pi / (2 * L * L) * np.sqrt(EI / (rho * sec.A))
            for k in range(2):
                check(f"hinged two spans (8 elements a span): frequency {k + 1} against the "
                      "simply supported span's", m.frequency[k], exact, 2e-5)
    a = 3.0
    for n in (1, 5):
        nodes = np.r_[np.linspace([0, 0, 0], [a, 0, 0], n + 1),
                      np.linspace([a, 0, 0], [L, 0, 0], n + 1)[1:]]
        lines = [(i, i + 1) for i in range(2 * n)]
        f = Frame(nodes)
        f.add_members(lines, sec)
        f.release([n], ["my"], members=[n])     # the right part's first end
        f.fix([0])
        f.fix([2 * n], ("x", "y", "z", "rx"))
        for k in range(2 * n + 1):
            f.fix([k], ("y", "rz"))
        f.line_load(lines, [0, 0, q])
        u, r = f.static()
        EI = E * sec.Iy
        check(f"Gerber beam ({n} elements a part): hinge deflection", u[n, 2],
              q * a ** 4 / (8 * EI) + q * (L - a) / 2 * a ** 3 / (3 * EI), 1e-10)
        check(f"Gerber beam ({n}): roller reaction", r[2 * n, 2], -q * (L - a) / 2, 1e-10)
        forces = f.section_forces(u)
        check(f"Gerber beam ({n}): released end moment", forces[n][4], 0.0, 1e-12,
              scale=abs(q) * a * a)
    nodes, lines = _line(1, [0, 0, 0], [2, 1, 0.5])
    f = Frame(nodes)
    f.add_members(lines, sec)
    f.release([0, 1], ["my", "mz"])
    f.release([1], ["t"])
    K = f.assemble()
    R, Lb = local_axes(nodes[0], nodes[1])
    bar = E * sec.A / Lb * np.outer(np.r_[-R[0], R[0]], np.r_[-R[0], R[0]])
    check("pinned-pinned member is a bar", np.abs(K[np.ix_([0, 1, 2, 6, 7, 8],
          [0, 1, 2, 6, 7, 8])] - bar).max(), 0.0, 1e-12, scale=E * sec.A / Lb)
    check("pinned-pinned member: no rotational stiffness", np.abs(K[:, [4, 5, 9, 10, 11]]).max(),
          0.0, 1e-12, scale=E * sec.A / Lb)


def self_test():
    np.set_printoptions(precision=6)
    _meshes()
    _rectangle()
    _element_invariants()
    _shape_function_integrals()
    _simply_supported_modes()
    _cantilever_statics()
    _cantilever_modes()
    _portal()
    _effective_masses()
    _releases()
    if _failures:
        print(f"frame_reference: {len(_failures)} checks failed: {', '.join(_failures)}")
        return 1
    print("frame_reference: all checks passed")
    return 0


def _numbers(x):
    """PyYAML reads 2.1e11 (no dot or sign in the exponent) as a string; yaml-cpp as a number."""
    if isinstance(x, dict):
        return {k: _numbers(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_numbers(v) for v in x]
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return x
    return x


def frame_from_case(path):
    """The Frame of an inertia case file with beam sections (mesh.file, materials, sections,
    boundary_conditions of types fixed, force, moment), and its mesh. Needs PyYAML."""
    import os
    import yaml
    case = _numbers(yaml.safe_load(open(path)))
    mesh_file = case["mesh"]["file"]
    if not os.path.isabs(mesh_file):
        mesh_file = os.path.join(os.path.dirname(os.path.abspath(path)), mesh_file)
    mesh = read_msh(mesh_file)
    materials = {m["region"]: m for m in case["materials"]}
    f = Frame(mesh.nodes)
    for s in case["sections"]:
        m = materials[s["region"]]
        args = (m["youngs_modulus"], m["poissons_ratio"], m["density"])
        kw = dict(theory=s.get("theory", "euler_bernoulli"), orientation=s.get("orientation"))
        if "shape" in s:
            if s["shape"].get("type") != "rectangle":
                raise ValueError(f"section shape {s['shape']}: only rectangle here")
            sec = Section.rectangle(*args, s["shape"]["width"], s["shape"]["height"], **kw)
        else:
            sec = Section(*args, s["area"], s["iy"], s["iz"], s["torsion"],
                          s.get("shear_area_y"), s.get("shear_area_z"), **kw)
        first = len(f.members)
        f.add_members(mesh.lines[s["region"]], sec)
        for r in s.get("releases", []):
            groups = r["nodes"] if isinstance(r["nodes"], list) else [r["nodes"]]
            f.release([n for g in groups for n in mesh.points[g]], r["moments"],
                      members=range(first, len(f.members)))
    for c in case.get("boundary_conditions", []):
        nodes = mesh.points[c["region"]] if c["region"] in mesh.points else sorted(
            {n for line in mesh.lines[c["region"]] for n in line})
        if c["type"] == "fixed":
            f.fix(nodes, c.get("components", ["x", "y", "z", "rx", "ry", "rz"]))
        elif c["type"] in ("force", "moment"):
            getattr(f, c["type"])(nodes, c["value"])
        elif c["type"] == "line_load" and c["region"] in mesh.lines:
            f.line_load(mesh.lines[c["region"]], c["value"])
        else:
            raise ValueError(f"condition type {c['type']}: fixed, force, moment or line_load here")
    return case, mesh, f


def run_case(path):
    """Prints the reference's answer to an inertia beam case: with modal:, the modes'
    frequencies and effective masses; else the static displacement and rotation at the probes'
    nearest nodes and the reaction forces and moments summed over each fixed region."""
    case, mesh, f = frame_from_case(path)
    if "modal" in case:
        m = f.modes(case["modal"].get("mass", "lumped"), int(case["modal"]["modes"]))
        print("mode,frequency,effective_mass_x,effective_mass_y,effective_mass_z")
        for k in range(len(m.frequency)):
            print(f"{k + 1},{m.frequency[k]:.12g},"
                  + ",".join(f"{x:.12g}" for x in m.effective_mass[k]))
        print(f"# total mass r.M r: {m.total_mass[0]:.12g}")
        return
    u, r = f.static()
    for p in case.get("output", {}).get("probes", []):
        n = mesh.nearest(p["point"])
        print(f"{p['name']} (node at {tuple(mesh.nodes[n])}): u "
              + " ".join(f"{x:.12g}" for x in u[n, :3])
              + ", rotation " + " ".join(f"{x:.12g}" for x in u[n, 3:]))
    for c in case.get("boundary_conditions", []):
        if c["type"] == "fixed" and c["region"] in mesh.points:
            total = sum(r[n] for n in mesh.points[c["region"]])
            print(f"{c['region']} reaction: force " + " ".join(f"{x:.12g}" for x in total[:3])
                  + ", nodal moments summed " + " ".join(f"{x:.12g}" for x in total[3:]))


def describe(path):
    mesh = read_msh(path)
    print(f"{path}: {len(mesh.nodes)} nodes")
    for name, lines in mesh.lines.items():
        print(f"  curve {name}: {len(lines)} line2")
    for name, pts in mesh.points.items():
        print(f"  point {name}: " + ", ".join(str(tuple(mesh.nodes[p])) for p in pts))


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) == 3 and sys.argv[1] == "--describe":
        describe(sys.argv[2])
        sys.exit(0)
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        run_case(sys.argv[2])
        sys.exit(0)
    print(__doc__.split("\n\n")[0])
    print("usage: frame_reference.py --self-test | --describe FILE.msh | --case CASE.yaml",
          file=sys.stderr)
    sys.exit(2)
