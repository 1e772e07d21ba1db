#!/usr/bin/env python3
"""Writes quake.csv: a synthetic ground acceleration record (in g) of 4 s sampled every 0.01 s.

Five sines between 1.3 and 7.9 Hz with fixed phases under a rise-hold-decay envelope (peak ground
acceleration 0.3 g), so the record is deterministic and the case reproducible. A recorded
accelerogram (two columns time,value; '#' comments; one header line allowed) drops in the same way.
"""
import math

components = [(1.3, 0.9, 0.3), (2.1, 1.0, 2.1), (3.4, 0.8, 4.0), (4.6, 0.7, 1.2), (7.9, 0.4, 5.5)]


def envelope(t):
    if t < 0.5:
        return (t / 0.5) ** 2
    if t < 2.0:
        return 1.0
    return math.exp(-1.5 * (t - 2.0))


times = [0.01 * i for i in range(401)]
raw = [envelope(t) * sum(a * math.sin(2 * math.pi * f * t + p) for f, a, p in components)
       for t in times]
scale = 0.3 / max(abs(x) for x in raw)
with open("quake.csv", "w") as out:
    out.write("# synthetic ground acceleration, in g (see make_accelerogram.py)\n")
    out.write("time,acceleration\n")
    for t, x in zip(times, raw):
        out.write(f"{t:.2f},{scale * x:.6f}\n")
