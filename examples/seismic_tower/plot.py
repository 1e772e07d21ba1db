#!/usr/bin/env python3
"""Plots the seismic tower's response from out/probes.csv and out/reactions.csv:
ground acceleration (quake.csv), roof drift (roof.ux - base.ux) and base shear (zmin.fx).
Writes seismic_tower.png next to this script and prints the peaks."""
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

here = os.path.dirname(os.path.abspath(__file__))


def table(path):
    with open(path) as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    header, rows = rows[0], [[float(x) for x in r] for r in rows[1:]]
    return {name: [r[i] for r in rows] for i, name in enumerate(header)}


quake = table(os.path.join(here, "quake.csv"))
probes = table(os.path.join(here, "out", "probes.csv"))
reactions = table(os.path.join(here, "out", "reactions.csv"))
drift = [r - b for r, b in zip(probes["roof.ux"], probes["base.ux"])]
shear = reactions["zmin.fx"]
mass = 0.4 * 0.4 * 3.0 * 2500.0

fig, ax = plt.subplots(3, 1, figsize=(7, 7), sharex=True)
ax[0].plot(quake["time"], quake["acceleration"], color="gray")
ax[0].set_ylabel("ground acc. (g)")
ax[1].plot(probes["time"], [1000 * d for d in drift])
ax[1].set_ylabel("roof drift (mm)")
ax[2].plot(reactions["time"], [s / 1000 for s in shear], color="C3")
ax[2].set_ylabel("base shear (kN)")
ax[2].set_xlabel("time (s)")
for a in ax:
    a.grid(alpha=0.3)
fig.suptitle("Seismic tower: ground motion, roof drift and base shear")
fig.tight_layout()
fig.savefig(os.path.join(here, "seismic_tower.png"), dpi=90)

i = max(range(len(drift)), key=lambda k: abs(drift[k]))
j = max(range(len(shear)), key=lambda k: abs(shear[k]))
print(f"peak roof drift {1000 * drift[i]:.2f} mm at t = {probes['time'][i]:.3f} s")
print(f"peak base shear {shear[j] / 1000:.3f} kN at t = {reactions['time'][j]:.3f} s "
      f"({abs(shear[j]) / (mass * 9.81):.3f} of the weight {mass * 9.81 / 1000:.2f} kN)")
