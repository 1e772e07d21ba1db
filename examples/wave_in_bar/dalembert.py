#!/usr/bin/env python3
"""Compares out/probes.csv of examples/wave_in_bar with d'Alembert's solution.

A bar fixed at x = 0, loaded at x = L by a sudden constant force F = p A: a step in particle
velocity v = p / (rho c) runs from the tip to the fixed end and back. The tip moves at that speed,
reverses when the reflected wave returns, and the cycle repeats every 4 L / c:
    u_tip(t) = (p c / E) * tri(t),  tri rising linearly to 2 L / c at t = 2 L / c, back to 0 at 4 L / c,
so the tip peaks at 2 F L / (E A) = 2 p L / E. The middle of the bar starts moving at L / (2 c)."""
import math
import pathlib
import sys

import numpy as np

E, rho, p, L = 2.0e11, 8000.0, 1.0e6, 1.0
c = math.sqrt(E / rho)
folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "out")


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


def exact(x, t):
    """Displacement at x of the bar: sum of the waves leaving the tip and their reflections."""
    v = p / (rho * c)
    u = np.zeros_like(t)
    # Fronts passing x: the one leaving the tip at t = 0 (particle velocity +v), its reflection
    # at the fixed end (-v: the velocity vanishes there, the stress doubles), the reflection of that
    # at the loaded end (-v again: the load only holds the mean stress), and so on with period 2 L.
    k = 0
    while True:
        t_in = (2 * k * L + (L - x)) / c  # a front moving towards x = 0
        t_re = (2 * k * L + (L + x)) / c  # a front moving towards the tip
        if t_in > t.max():
            break
        sign = (-1) ** k
        u += sign * v * np.clip(t - t_in, 0, None)
        u -= sign * v * np.clip(t - t_re, 0, None)
        k += 1
    return u


probes = load(folder / "probes.csv")
t = probes["time"]
peak = 2 * p * L / E
print(f"c = sqrt(E/rho) = {c:g} m/s, 2 L / c = {2 * L / c:g} s, 4 L / c = {4 * L / c:g} s, "
      f"2 F L / (E A) = 2 p L / E = {peak:g} m")
for name, x in (("tip", L), ("middle", L / 2)):
    u = probes[f"{name}.ux"]
    ue = exact(x, t)
    print(f"{name:6s} (x = {x:g}): max |u - u_exact| = {np.abs(u - ue).max():.2e} m "
          f"({np.abs(u - ue).max() / peak:.1e} of the peak)")
u = probes["tip.ux"]
for label, time in (("2 L / c", 2 * L / c), ("4 L / c", 4 * L / c), ("6 L / c", 6 * L / c),
                    ("8 L / c", 8 * L / c)):
    n = int(np.argmin(np.abs(t - time)))
    if abs(t[n] - time) < 1e-12 + 1e-9 * time:
        print(f"tip at t = {label} = {t[n]:.4g} s: u = {u[n]:.6e} m (exact {exact(L, t[n:n + 1])[0]:.6e})")
print(f"tip maximum {u.max():.6e} m at t = {t[np.argmax(u)]:.4g} s")
