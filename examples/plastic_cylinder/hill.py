"""Hill's elastic-plastic thick cylinder under internal pressure, and the reading of an inertia run of
it (VTU cell data), with the standard library only: used by plot.py and tests/scripts/plastic_cylinder.sh.

Hill (The Mathematical Theory of Plasticity, 1950, ch. V): plane strain, von Mises with
sigma_z = (sigma_r + sigma_theta) / 2 (exact for an incompressible material, nu = 0.5), so yield is
sigma_theta - sigma_r = 2 k, k = sigma_y / sqrt(3). With the plastic zone a <= r <= c:
  plastic  sigma_r = -p + 2 k ln(r / a),      sigma_theta = sigma_r + 2 k
  elastic  sigma_r = -k c^2 / b^2 (b^2 / r^2 - 1),  sigma_theta = k c^2 / b^2 (b^2 / r^2 + 1)
  p(c) = k (1 - c^2 / b^2 + 2 ln(c / a)),  from p_e = k (1 - a^2 / b^2) (c = a) to the collapse
  pressure p_c = 2 k ln(b / a) (c = b).
The inner wall's radial displacement: the elastic zone's Lame field at c, carried to a by a plastic
zone of constant volume (u r constant): u(a) = (1 + nu) k c^2 / (E a) [1 + (1 - 2 nu) c^2 / b^2],
exact for nu = 0.5 (1.5 k c^2 / (E a)); for nu < 0.5 the plastic zone's elastic volume change is left out.
"""
import glob
import math
import os
import re
import struct
import zlib

a, b = 0.1, 0.2
E, nu, sy = 2.0e11, 0.3, 2.5e8
k = sy / math.sqrt(3)
p_e = k * (1 - a * a / (b * b))
p_c = 2 * k * math.log(b / a)


def hill_p(c):
    return k * (1 - c * c / (b * b) + 2 * math.log(c / a))


def hill_c(p):
    """The elastic-plastic radius at the pressure p (a below first yield)."""
    if p <= p_e:
        return a
    lo, hi = a, b
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if hill_p(mid) < p else (lo, mid)
    return 0.5 * (lo + hi)


def hill_stress(r, p):
    """(sigma_r, sigma_theta) at the radius r under the pressure p."""
    c = hill_c(p)
    if p <= p_e:  # Lame
        A = p * a * a / (b * b - a * a)
        return -A * (b * b / (r * r) - 1), A * (b * b / (r * r) + 1)
    if r <= c:
        s_r = -p + 2 * k * math.log(r / a)
        return s_r, s_r + 2 * k
    A = k * c * c / (b * b)
    return -A * (b * b / (r * r) - 1), A * (b * b / (r * r) + 1)


def hill_u_inner(p, nu=nu):
    """The inner wall's radial displacement (see above)."""
    if p <= p_e:
        A = p * a * a / (b * b - a * a)
        return (1 + nu) / E * ((1 - 2 * nu) * A * a + A * b * b / a)
    c = hill_c(p)
    return (1 + nu) * k * c * c / (E * a) * (1 + (1 - 2 * nu) * c * c / (b * b))


_ARRAY = re.compile(r'<DataArray type="(\w+)" Name="([\w.]+)"(?: NumberOfComponents="(\d+)")?'
                    r' format="appended"[^>]*? offset="(\d+)"')


def read_vtu(path):
    """{name: list of values (tuples for vectors)} of one of inertia's .vtu pieces (raw appended,
    zlib-compressed, UInt64 headers); names may contain dots (plasticity.equivalent_plastic_strain)."""
    raw = open(path, "rb").read()
    start = raw.index(b'<AppendedData encoding="raw">')
    base = raw.index(b"_", start) + 1
    arrays = {}
    for m in _ARRAY.finditer(raw[:start].decode()):
        kind, name, comps, offset = m.group(1), m.group(2), int(m.group(3) or 1), int(m.group(4))
        p = base + offset
        blocks = struct.unpack_from("<Q", raw, p)[0]
        sizes = struct.unpack_from(f"<{3 + blocks}Q", raw, p)[3:]
        p += 8 * (3 + blocks)
        data = b""
        for s in sizes:
            data += zlib.decompress(raw[p:p + s])
            p += s
        code = {"Float64": "d", "Int64": "q", "UInt8": "B"}[kind]
        values = struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}", data)
        arrays[name] = [values[i:i + comps] for i in range(0, len(values), comps)] \
            if comps > 1 else list(values)
    return arrays


def frames(out):
    """The run's VTK frames in order, each a list of cells (dicts: r, the radius of the centroid of
    the cell's corners; s_r, s_t, s_z, the cell's stress in cylindrical axes there; ep, the cell's
    equivalent plastic strain) over every piece."""
    result = []
    for frame in sorted(glob.glob(os.path.join(out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu"))):
        cells = []
        for piece in sorted(glob.glob(frame[:-len(".pvtu")] + "/piece_*.vtu")):
            d = read_vtu(piece)
            points, conn, offsets = d["Points"], d["connectivity"], d["offsets"]
            first = 0
            for i, last in enumerate(offsets):
                corners = [points[j] for j in conn[first:first + 4]]  # tet10: the corners first
                first = last
                x = sum(q[0] for q in corners) / 4
                y = sum(q[1] for q in corners) / 4
                r = math.hypot(x, y)
                cs, sn = x / r, y / r
                sxx, syy, szz, sxy = d["stress"][i][:4]
                cells.append({"r": r,
                              "s_r": sxx * cs * cs + syy * sn * sn + 2 * sxy * cs * sn,
                              "s_t": sxx * sn * sn + syy * cs * cs - 2 * sxy * cs * sn,
                              "s_z": szz,
                              "ep": d["plasticity.equivalent_plastic_strain"][i]})
        result.append(cells)
    return result


def plastic_radius_band(cells):
    """(lo, hi): the largest centroid radius of a cell that yielded (equivalent plastic strain
    > 0) and the smallest of one that did not, in increasing order; a cell yields when any of
    its quadrature points does. (a, a) if none yielded, (b, b) if all did."""
    plastic = [c["r"] for c in cells if c["ep"] > 0]
    elastic = [c["r"] for c in cells if c["ep"] <= 0]
    if not plastic:
        return a, a
    if not elastic:
        return b, b
    return tuple(sorted((max(plastic), min(elastic))))


def plastic_radius_fit(cells, h, width=2.5):
    """The elastic-plastic radius c: where the equivalent plastic strain of the yielded cells,
    fitted by a straight line against their centroid radius, reaches zero; the fit over the
    yielded cells within `width` h of the outermost one, h the rings' width (b - a) / nr (Hill's
    plastic strain, sigma_y / E (c^2 / r^2 - 1) for nu = 0.5, is nearly straight there).
    a if none yielded."""
    plastic = [c for c in cells if c["ep"] > 0]
    if not plastic:
        return a
    outer = max(c["r"] for c in plastic)
    near = [c for c in plastic if c["r"] > outer - width * h]
    n = len(near)
    mr = sum(c["r"] for c in near) / n
    me = sum(c["ep"] for c in near) / n
    srr = sum((c["r"] - mr) ** 2 for c in near)
    slope = sum((c["r"] - mr) * (c["ep"] - me) for c in near) / srr if srr > 0 else 0
    return mr - me / slope if slope < 0 else outer


def stress_errors(cells, p):
    """rms and largest |FE - Hill| / sigma_y of sigma_r and sigma_theta over the cells (Hill at
    each cell's centroid radius)."""
    out = {}
    for key, i in (("s_r", 0), ("s_t", 1)):
        e = [(c[key] - hill_stress(c["r"], p)[i]) / sy for c in cells]
        out[key] = (math.sqrt(sum(x * x for x in e) / len(e)), max(abs(x) for x in e))
    return out


def rows(path):
    """A CSV of inertia's (comment lines skipped) as a list of {column: float}."""
    lines = [line.strip() for line in open(path) if line.strip() and not line.startswith("#")]
    head = lines[0].split(",")
    return [dict(zip(head, map(float, line.split(",")))) for line in lines[1:]]


def reference(pressures, nu=nu, elements=800, substeps=5):
    """The same cylinder without Hill's sigma_z assumption: plane strain, von Mises, elastic
    compressibility nu, solved in 1D (u(r); eps_r = u', eps_theta = u / r, eps_z = 0) on
    `elements` linear elements with one quadrature point each (no locking: one volume constraint
    per element against one more node than elements), each load step in `substeps` increments,
    Newton with the consistent tangent of the same radial return as inertia's. Returns per
    pressure {c: the largest radius of a yielded point (a if none), u_a: u(a), r: the points'
    radii, s_r, s_t, s_z: their stresses}."""
    mu = E / (2 * (1 + nu))
    kappa = E / (3 * (1 - 2 * nu))
    n = elements
    nodes = [a + (b - a) * i / n for i in range(n + 1)]
    mid = [0.5 * (nodes[e] + nodes[e + 1]) for e in range(n)]
    length = (b - a) / n
    u = [0.0] * (n + 1)
    ep = [[0.0, 0.0, 0.0] for _ in range(n)]  # plastic strain r, theta, z (principal axes)
    alpha = [0.0] * n
    results, p_old = [], 0.0

    def point(e, u, commit):
        eps = [(u[e + 1] - u[e]) / length, 0.5 * (u[e] + u[e + 1]) / mid[e], 0.0]
        tr = sum(eps)
        s = [2 * mu * (eps[i] - tr / 3 - ep[e][i]) for i in range(3)]
        norm = math.sqrt(sum(x * x for x in s))
        f = norm - math.sqrt(2 / 3) * sy
        theta, nrm = 1.0, [0.0, 0.0, 0.0]
        if f > 0:
            dg = f / (2 * mu)
            nrm = [x / norm for x in s]
            s = [s[i] - 2 * mu * dg * nrm[i] for i in range(3)]
            theta = 1 - 2 * mu * dg / norm
            if commit:
                ep[e] = [ep[e][i] + dg * nrm[i] for i in range(3)]
                alpha[e] += math.sqrt(2 / 3) * dg
        sig = [s[i] + kappa * tr for i in range(3)]
        C = [[kappa + 2 * mu * theta * ((i == j) - 1 / 3) - 2 * mu * (theta if f > 0 else 0) * nrm[i] * nrm[j]
              for j in range(3)] for i in range(2)]
        return sig, C

    for p_target in pressures:
        for sub in range(1, substeps + 1):
            p = p_old + (p_target - p_old) * sub / substeps
            small_update = False
            for it in range(50):
                R = [0.0] * (n + 1)
                diag, off = [0.0] * (n + 1), [0.0] * n
                for e in range(n):
                    sig, C = point(e, u, False)
                    w = mid[e] * length
                    B = [(-1 / length, 1 / length), (0.5 / mid[e], 0.5 / mid[e])]  # eps_r, eps_t by node
                    for i in range(2):
                        R[e + i] += w * (sig[0] * B[0][i] + sig[1] * B[1][i])
                    K = [[w * sum(B[m][i] * C[m][q] * B[q][j] for m in range(2) for q in range(2))
                          for j in range(2)] for i in range(2)]
                    diag[e] += K[0][0]
                    diag[e + 1] += K[1][1]
                    off[e] += K[0][1]
                R[0] -= p * a
                norm_r = math.sqrt(sum(x * x for x in R))
                if it > 0 and (norm_r <= 1e-10 * p * a or small_update):
                    break
                # tridiagonal solve K du = -R (symmetric: off both sides)
                cp, dp = [0.0] * (n + 1), [0.0] * (n + 1)
                cp[0], dp[0] = off[0] / diag[0], -R[0] / diag[0]
                for i in range(1, n + 1):
                    m = diag[i] - off[i - 1] * cp[i - 1]
                    cp[i] = off[i] / m if i < n else 0.0
                    dp[i] = (-R[i] - off[i - 1] * dp[i - 1]) / m
                du = [0.0] * (n + 1)
                du[n] = dp[n]
                for i in range(n - 1, -1, -1):
                    du[i] = dp[i] - cp[i] * du[i + 1]
                u = [u[i] + du[i] for i in range(n + 1)]
                small_update = max(map(abs, du)) <= 1e-12 * max(map(abs, u))  # at round-off
            else:
                raise RuntimeError(f"reference: Newton did not converge at p = {p}")
            stresses = [point(e, u, True)[0] for e in range(n)]
        p_old = p_target
        plastic = [mid[e] for e in range(n) if alpha[e] > 0]
        results.append({"c": max(plastic) + 0.5 * length if plastic else a, "u_a": u[0], "r": mid,
                        "s_r": [s[0] for s in stresses], "s_t": [s[1] for s in stresses],
                        "s_z": [s[2] for s in stresses]})
    return results
