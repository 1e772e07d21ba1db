"""The plastic shell strip's section computed independently of inertia (tests/scripts/
shell_plastic_strip.sh and shell_quad8_plastic.sh): the strip of t 0.01, E 2.1e11, nu 0.3, sigma_y
2.5e8, linear isotropic hardening H 2.1e9 bent anticlastically (M22 = 0), a plane-stress J2 return
map at each point of a rule through the thickness; the closed form of the uniaxial bilinear
section."""

import numpy as np

E, nu, sy, H, t, b, L = 2.1e11, 0.3, 2.5e8, 2.1e9, 0.01, 0.1, 1.0
mu, lam = E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu))
Mp, ky = sy * t * t / 4, 2 * sy / (E * t)


def return_map(eps, ep, al):
    """3D J2 radial return, linear isotropic hardening: eps, ep (n, 3): xx yy zz (no shear here)."""
    ee = eps - ep
    tr = ee.sum(1)
    s = 2 * mu * (ee - tr[:, None] / 3)
    q = np.sqrt(1.5 * (s ** 2).sum(1))
    f = q - (sy + H * al)
    dg = np.where(f > 0, f / (3 * mu + H), 0.0)
    qs = np.where(q > 0, q, 1.0)
    sig = s * (1 - 3 * mu * dg / qs)[:, None] + (lam + 2 * mu / 3) * tr[:, None]
    return sig, ep + (1.5 * dg / qs)[:, None] * s, al + dg


def plane_stress(e11, e22, ep, al):
    """The point's update with eps_zz from sigma_zz = 0 (Newton, a difference quotient)."""
    ezz = -nu / (1 - nu) * (e11 + e22)
    for _ in range(50):
        sig, epn, aln = return_map(np.stack([e11, e22, ezz], 1), ep, al)
        if np.all(np.abs(sig[:, 2]) < 1e-7 * sy):
            break
        h = 1e-9 * (np.abs(e11) + np.abs(e22) + 1e-15)
        sig2, _, _ = return_map(np.stack([e11, e22, ezz + h], 1), ep, al)
        ezz = ezz - sig[:, 2] * h / (sig2[:, 2] - sig[:, 2])
    return sig, epn, aln


def section(z, w, kappas):
    """M11 per width along the curvature path, the section bending anticlastically: k22 with
    M22 = 0 (the secant method), e11 = e22 = 0 (the section is symmetric)."""
    ep, al, k22, prev, out = np.zeros((len(z), 3)), np.zeros(len(z)), 0.0, 0.0, []
    for k11 in kappas:
        m22 = lambda k: (w * plane_stress(z * k11, z * k, ep, al)[0][:, 1] * z).sum()
        a, c = k22, k22 - nu * (k11 - prev) + 1e-15
        fa, fc = m22(a), m22(c)
        for _ in range(60):
            if abs(fc) < 1e-12 * Mp or fc == fa:
                break
            a, fa, c = c, fc, c - fc * (c - a) / (fc - fa)
            fc = m22(c)
        k22, prev = c, k11
        sig, ep, al = plane_stress(z * k11, z * k22, ep, al)
        out.append((w * sig[:, 0] * z).sum())
    return np.array(out)


def rule(name, n):
    if name == "simpson":
        w = np.full(n, 2.0); w[1::2] = 4; w[0] = w[-1] = 1
        return np.linspace(-t / 2, t / 2, n), w * t / (3 * (n - 1))
    x = {5: [-1, -np.sqrt(3 / 7), 0, np.sqrt(3 / 7), 1]}[n]
    return t / 2 * np.array(x), t / 2 * np.array([0.1, 49 / 90, 32 / 45, 49 / 90, 0.1])


def closed_form(k):
    """The uniaxial bilinear section (tangent E H / (E + H) beyond yield), M per width."""
    Et, h = E * H / (E + H), t / 2
    c = min(h, sy / (E * k))
    return 2 * (E * k * c ** 3 / 3 + (sy - Et * sy / E) * (h * h - c * c) / 2 + Et * k * (h ** 3 - c ** 3) / 3)
