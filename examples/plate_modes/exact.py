#!/usr/bin/env python3
"""Natural frequencies of a simply supported thick rectangular plate by 3D elasticity.

The plate of NAFEMS FV52 (examples/plate_modes): a x b x h (0 <= x <= a, 0 <= y <= b,
|z| <= h/2), isotropic, top and bottom free, side faces "simply supported": on x = 0, a the
displacements v = w = 0 and the normal stress sigma_xx = 0; on y = 0, b likewise u = w = 0,
sigma_yy = 0. Then each mode separates exactly:
  u = U(z) cos(alpha x) sin(beta y), v = V(z) sin(alpha x) cos(beta y),
  w = W(z) sin(alpha x) sin(beta y),  alpha = m pi / a, beta = n pi / b,
and the problem in z is solved by Rayleigh-Ritz with Legendre polynomials (upper bounds that
converge exponentially with the degree). Prints the lowest frequencies over (m, n): the
reference of simply_supported.yaml and of tests/mpi/app_modal.cpp. Needs numpy and scipy.
"""
import itertools
import sys

import numpy as np
from numpy.polynomial import legendre
from scipy.linalg import eigh

def modes(a, b, h, E, nu, rho, m, n, degree=24):
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    mu = E / (2 * (1 + nu))
    al, be = m * np.pi / a, n * np.pi / b
    z, wq = legendre.leggauss(degree + 10)  # on [-1, 1]; z_phys = z h/2
    jac = h / 2
    P = np.array([legendre.legval(z, np.eye(degree + 1)[k]) for k in range(degree + 1)])
    dP = np.array([legendre.legval(z, legendre.legder(np.eye(degree + 1)[k])) for k in range(degree + 1)]) / jac
    N = degree + 1
    # Unknown vector [U; V; W] coefficients. Strain components per unit of the x-y shape factor:
    zero = np.zeros_like(P)
    def block(u, v, w):
        return np.vstack([u, v, w])  # (3N, nq)
    exx = block(-al * P, zero, zero)
    eyy = block(zero, -be * P, zero)
    ezz = block(zero, zero, dP)
    gxy = block(be * P, al * P, zero)
    gxz = block(dP, zero, al * P)
    gyz = block(zero, dP, be * P)
    tr = exx + eyy + ezz
    W = wq * jac
    def gram(f, g):
        return (f * W) @ g.T
    K = lam * gram(tr, tr) + 2 * mu * (gram(exx, exx) + gram(eyy, eyy) + gram(ezz, ezz)) \
        + mu * (gram(gxy, gxy) + gram(gxz, gxz) + gram(gyz, gyz))
    disp = [block(P, zero, zero), block(zero, P, zero), block(zero, zero, P)]
    M = rho * sum(gram(d, d) for d in disp)
    # Drop the DOFs that a zero wave number makes meaningless (a mode with m = 0 or n = 0 only
    # exists for the in-plane families whose shape factor does not vanish identically).
    keep = [i for i in range(3 * N)
            if not ((i < N and n == 0) or (N <= i < 2 * N and m == 0) or (i >= 2 * N and (m == 0 or n == 0)))]
    K, M = K[np.ix_(keep, keep)], M[np.ix_(keep, keep)]
    w2 = eigh(K, M, eigvals_only=True)
    return np.sqrt(np.maximum(w2, 0)) / (2 * np.pi)

def main():
    a = b = 10.0
    h = 1.0
    E, nu, rho = 2.0e11, 0.3, 8000.0
    found = []
    for m, n in itertools.product(range(0, 6), repeat=2):
        if m == 0 and n == 0:
            continue
        f = modes(a, b, h, E, nu, rho, m, n)
        for k, fk in enumerate(f[:4]):
            found.append((fk, m, n, k))
    found.sort()
    for fk, m, n, k in found[:int(sys.argv[1]) if len(sys.argv) > 1 else 12]:
        print(f"{fk:.6f} Hz  (m, n) = ({m}, {n})  branch {k}")
    f20 = modes(a, b, h, E, nu, rho, 1, 1, degree=20)[0]
    f24 = modes(a, b, h, E, nu, rho, 1, 1, degree=24)[0]
    print(f"degree 20 vs 24, mode (1,1): {f20:.9f} {f24:.9f}")

main()
