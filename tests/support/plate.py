"""Closed forms of a simply supported square plate's frequencies (Kirchhoff's and Mindlin's,
Navier's solutions) and a history's frequency, for tests/scripts/shell_plate_dynamics.sh and
shell_quad8.sh."""
import math
E, nu, rho = 2.0e11, 0.3, 8000.0
G, kappa = E / (2 * (1 + nu)), 5 / 6
def kirchhoff(m, n, t, a):
    D = E * t**3 / (12 * (1 - nu**2))
    return math.pi * (m * m + n * n) / (2 * a * a) * math.sqrt(D / (rho * t))
def mindlin(m, n, t, a, J=None):
    """Hz: the lowest root of det(K - omega^2 M) for w = W sin(m pi x/a) sin(n pi y/a), psi_x =
    Psi_x cos sin, psi_y = Psi_y sin cos in Mindlin's plate (energies per a^2 / 4; shear strain
    w_,x + psi_x; rotary inertia J per area, rho t^3 / 12 unless given)."""
    D, S = E * t**3 / (12 * (1 - nu**2)), kappa * G * t
    J = rho * t**3 / 12 if J is None else J
    p, q = m * math.pi / a, n * math.pi / a
    K = [[S * (p * p + q * q), S * p, S * q],
         [S * p, D * (p * p + (1 - nu) / 2 * q * q) + S, D * (1 + nu) / 2 * p * q],
         [S * q, D * (1 + nu) / 2 * p * q, D * (q * q + (1 - nu) / 2 * p * p) + S]]
    M = [rho * t, J, J]
    def det(l):
        A = [[K[i][j] - (l * M[i] if i == j else 0) for j in range(3)] for i in range(3)]
        return (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1])
                - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
                + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]))
    lo, hi = 0.0, (2 * math.pi * kirchhoff(m, n, t, a))**2 * (1 + 1e-9)
    assert det(lo) > 0 > det(hi)  # one root below Kirchhoff's: the flexural one
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if det(mid) > 0 else (lo, mid)
    return math.sqrt(lo) / (2 * math.pi)
def frequency(t, w, lo, hi):
    """Hz: the f in [lo, hi] whose least-squares fit A cos 2 pi f t + B sin 2 pi f t explains most
    of the history w(t) (golden section): the first mode's frequency, to about 1e-5 here (the
    zero crossings, which the release's higher modes move, only to about 1e-3)."""
    def explained(f):
        c = [math.cos(2 * math.pi * f * x) for x in t]
        s = [math.sin(2 * math.pi * f * x) for x in t]
        cc, ss, cs = sum(u * u for u in c), sum(u * u for u in s), sum(u * v for u, v in zip(c, s))
        cw, sw = sum(u * v for u, v in zip(c, w)), sum(u * v for u, v in zip(s, w))
        det = cc * ss - cs * cs
        return ((ss * cw - cs * sw) * cw + (cc * sw - cs * cw) * sw) / det
    g = (math.sqrt(5) - 1) / 2
    for _ in range(50):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        lo, hi = (lo, b) if explained(a) > explained(b) else (a, hi)
    return (lo + hi) / 2
