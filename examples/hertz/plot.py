"""Hertz contact against the closed form, with and without augmented Lagrangian iterations: per
load step the total force F (4 x the floor's, a quarter model) and the contact radius taken from
the nodal contact forces (a = sqrt(5/2 <r^2>), exact for Hertz's pressure) against Hertz's
a(F) = (3 F R / (4 E*))^(1/3); the pressure of the last step (nodal forces summed over rings, over
the rings' area) against p(r) = p0 sqrt(1 - r^2 / a^2). Prints the README's figures and writes hertz.png."""
import glob
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tests", "support"))
from hertz_moments import area_shares, moments, read_vtu  # noqa: E402

E, nu, R, delta = 2.0e11, 0.3, 0.01, 1.0e-4
e_star = E / (1 - nu ** 2)
mesh = os.path.join(here, "..", "..", "meshes", "hertz_sphere.msh")
share = area_shares(mesh, "contact")


def table(out):
    rows = [r.strip().split(",") for r in open(os.path.join(here, out, "contact.csv"))
            if r.strip() and not r.startswith("#")]
    return [dict(zip(rows[0], map(float, r))) for r in rows[1:]]


def frames(out):
    """Per output frame: {point: pressure}."""
    result = []
    for frame in sorted(glob.glob(os.path.join(here, out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu"))):
        pressure = {}
        for piece in sorted(glob.glob(frame[:-len(".pvtu")] + "/piece_*.vtu")):
            d = read_vtu(piece)
            pressure.update(zip(d["Points"], d["contact_pressure"]))
        result.append(pressure)
    return result


def hertz_a(force):
    return (3 * force * R / (4 * e_star)) ** (1 / 3)


fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
runs = (("out", "augmented, penalty_scale 1", "C0", "o"), ("out_penalty", "penalty_scale 1 alone", "C3", "x"))
for out, label, colour, marker in runs:
    rows, pressures = table(out), frames(out)
    forces, radii = [], []
    print(label)
    for row, pressure in zip(rows[1:], pressures[1:]):  # the first row and frame: t = 0
        force = 4 * row["floor.fz"]
        m = moments(pressure, share, force, E, nu, R)
        forces.append(force)
        radii.append(m["a_ratio"] * hertz_a(force))
        print(f"  t = {row['time']:.2f}: F = {force:9.1f} N, contact radius {m['a_ratio']:.5f} of "
              f"Hertz's, pressure shape {m['shape_ratio']:.4f} of Hertz's, penetration "
              f"{row['floor.penetration']:.3g} m ({row['floor.penetration'] / (row['time'] * delta):.2g} "
              f"of the load step's delta)")
    left.plot(forces, [1e3 * a for a in radii], marker, color=colour, label=label)
    # Rings of width a / 4 (about the node spacing): the nodal forces in a ring over its area (a quarter ring). The nodal
    # pressures themselves alternate on tet10 faces (the consistent load gives a tri6's corners
    # none of a uniform pressure), so their ring average is what compares with p(r).
    ring = hertz_a(forces[-1]) / 4
    load = [0.0] * 5
    for x, p in pressures[-1].items():
        if p > 0:
            load[min(int(math.hypot(x[0], x[1]) / ring), 4)] += p * share[x]
    centres = [(i + 0.5) * ring for i in range(5)]
    rings = [f / (math.pi * ((i + 1) ** 2 - i ** 2) * ring ** 2 / 4) for i, f in enumerate(load)]
    right.plot([1e3 * r for r in centres], [p / 1e9 for p in rings], marker + "-", color=colour,
               label=label)
    if out == "out":  # Hertz's own ring averages: F (1 - (1 - r^2 / a^2)^(3/2)) inside r
        a, F = hertz_a(forces[-1]), forces[-1]
        inside = [F * (1 - max(0.0, 1 - (min(i * ring, a) / a) ** 2) ** 1.5) for i in range(6)]
        exact = [(inside[i + 1] - inside[i]) / (math.pi * ((i + 1) ** 2 - i ** 2) * ring ** 2)
                 for i in range(5)]
        right.plot([1e3 * r for r in centres], [p / 1e9 for p in exact], "ks", mfc="none",
                   label="Hertz, averaged over the same rings")
        print("  ring averages / Hertz's: " + ", ".join(f"{x / y:.3f}" for x, y in zip(rings, exact) if y > 0))
    print(f"  ring-averaged pressure at the centre {rings[0] / 1e9:.2f} GPa, Hertz's p0 "
          f"{3 * forces[-1] / (2 * math.pi * hertz_a(forces[-1]) ** 2) / 1e9:.2f} GPa")
    if out == "out":
        a, F = hertz_a(forces[-1]), forces[-1]
        curve = [F * (i + 1) / 100 for i in range(100)]
        left.plot(curve, [1e3 * hertz_a(f) for f in curve], "k-", lw=1, label="Hertz a(F)")
        p0 = 3 * F / (2 * math.pi * a ** 2)
        rs = [a * i / 200 for i in range(201)]
        right.plot([1e3 * r for r in rs], [p0 * math.sqrt(max(0.0, 1 - (r / a) ** 2)) / 1e9 for r in rs],
                   "k-", lw=1, label="Hertz p(r) for the augmented run's F")
left.set_xlabel("total force F (N)")
left.set_ylabel("contact radius a (mm)")
left.set_title("contact radius from the nodal forces")
left.legend()
right.set_xlabel("r (mm)")
right.set_ylabel("contact pressure, ring average (GPa)")
right.set_title("last load step: nodal forces over rings of a / 4")
right.legend(fontsize=8)
fig.tight_layout()
fig.savefig(os.path.join(here, "hertz.png"), dpi=110)
print(f"wrote {os.path.join(here, 'hertz.png')}")
