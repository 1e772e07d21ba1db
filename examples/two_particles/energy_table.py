#!/usr/bin/env python3
"""Prints the energy (kinetic + spring) of the two particles under symplectic and explicit Euler,
read from out/symplectic_euler/energy.csv and out/euler_explicit/energy.csv, next to the theory:
explicit Euler multiplies the energy by 1 + (omega h)^2 every step; symplectic Euler keeps it
between E0 / (1 + omega h / 2) and E0 / (1 - omega h / 2)."""
import math
import pathlib

import numpy as np

here = pathlib.Path(__file__).resolve().parent
k, m = 50.0, 1.0
omega = math.sqrt(2 * k / m)  # two equal free masses: reduced mass m / 2


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


se = load(here / "out" / "symplectic_euler" / "energy.csv")
ee = load(here / "out" / "euler_explicit" / "energy.csv")
t = se["time"]
h = t[1] - t[0]
e_se = se["kinetic"] + se["strain"]
e_ee = ee["kinetic"] + ee["strain"]
e0 = e_se[0]
print(f"omega = {omega:g} rad/s, h = {h:g} s, omega h = {omega * h:g}, E0 = {e0:g} J")
print("   t (s)   symplectic Euler   explicit Euler   E0 (1 + (omega h)^2)^n")
for time in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0):
    n = int(np.argmin(np.abs(t - time)))
    print(f"  {t[n]:6.2f}   {e_se[n]:16.5f}   {e_ee[n]:14.5f}   {e0 * (1 + (omega * h) ** 2) ** n:14.5f}")
print(f"symplectic Euler: min {e_se.min():.5f}, max {e_se.max():.5f} J; "
      f"bounds E0/(1 +- omega h/2) = {e0 / (1 + omega * h / 2):.5f}, {e0 / (1 - omega * h / 2):.5f} J")
