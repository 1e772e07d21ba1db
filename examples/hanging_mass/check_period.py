#!/usr/bin/env python3
"""Reads out/probes.csv of the hanging mass and compares it with the analytic solution
u(t) = -(m g / k) (1 - cos(omega t)), omega = sqrt(k / m): static extension, amplitude, period."""
import math
import pathlib
import sys

import numpy as np

m, k, g = 1.0, 100.0, 9.81
folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "out")


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


p = load(folder / "probes.csv")
t, u = p["time"], p["bob.uz"]
static = m * g / k
omega = math.sqrt(k / m)
period = 2 * math.pi / omega
dt = t[1] - t[0]

# Upward crossings of the static position, linearly interpolated.
x = u + static
crossings = [t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])
             for i in range(len(x) - 1) if x[i] < 0 <= x[i + 1]]
measured = (crossings[-1] - crossings[0]) / (len(crossings) - 1)
# Newmark (average acceleration) is exact in amplitude; its period is longer by (omega h)^2 / 12.
newmark = 2 * math.pi / (2 / dt * math.atan(omega * dt / 2))

print(f"static extension m g / k    exact {static:.6f} m   measured {-(u.min() + u.max()) / 2:.6f} m "
      "(midpoint of the extremes of bob.uz)")
print(f"lowest point 2 m g / k      exact {2 * static:.6f} m   measured {-u.min():.6f} m")
print(f"period 2 pi sqrt(m/k)       exact {period:.6f} s   measured {measured:.6f} s "
      f"({len(crossings) - 1} periods; Newmark's discrete period {newmark:.6f} s)")
