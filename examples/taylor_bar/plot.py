"""The Taylor bar after the impact: (a) the rod's outline in the plane y = 0, before and at the
end, (b) its length and the impact face's radius against time, with the range of published
finite-element results, (c) the energies against time. Prints the README's figures and writes
taylor_bar.png.

    python3 plot.py [OUT_DIR]     # default: out (from run.sh)
"""
import glob
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "plastic_cylinder"))
from hill import read_vtu, rows  # noqa: E402  (the VTU and CSV readers of that example)

out = os.path.join(here, sys.argv[1] if len(sys.argv) > 1 else "out")
L0, R0 = 32.4e-3, 3.2e-3
# Published finite-element results for this test (Simo and Armero 1992, Zhu and Cescotto 1995,
# Kamoulakos 1990, among others) lie within about these ranges.
published_length, published_radius = (21.4e-3, 21.7e-3), (6.9e-3, 7.2e-3)

frames = sorted(glob.glob(os.path.join(out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu")))
outline = {}  # frame -> [(z, r)] of the nodes on the outer surface in the plane y = 0
rim = []  # (radius, lift) of the impact face's outer nodes at the end
for frame in (frames[0], frames[-1]):
    nodes = []
    for piece in sorted(glob.glob(frame[:-len(".pvtu")] + "/piece_*.vtu")):
        d = read_vtu(piece)
        for p, u in zip(d["Points"], d["displacement"]):
            if abs(p[1]) < 1e-9 and abs(p[0] - R0) < 1e-9:
                nodes.append((p[2] + u[2], p[0] + u[0]))
            if frame == frames[-1] and abs(p[2]) < 1e-9 and abs(math.hypot(p[0], p[1]) - R0) < 1e-9:
                rim.append((math.hypot(p[0] + u[0], p[1] + u[1]), p[2] + u[2]))
    outline[frame] = sorted(nodes)
probes = rows(os.path.join(out, "probes.csv"))
t = [float(r["time"]) * 1e6 for r in probes]
length = [(L0 + float(r["top.uz"])) * 1e3 for r in probes]
radius = [(R0 + float(r["rim.ux"])) * 1e3 for r in probes]
energy = rows(os.path.join(out, "energy.csv"))
te = [float(r["time"]) * 1e6 for r in energy]
print(f"final length {length[-1]:.3f} mm (published about {published_length[0] * 1e3:.2f}-"
      f"{published_length[1] * 1e3:.2f}), impact-face radius {min(rim)[0] * 1e3:.3f} to "
      f"{max(rim)[0] * 1e3:.3f} mm around the rim (about {published_radius[0] * 1e3:.1f}-"
      f"{published_radius[1] * 1e3:.1f}); the rim lifted off the wall by up to "
      f"{max(z for _, z in rim) * 1e3:.3f} mm")
e0, e1 = energy[0], energy[-1]
work = float(e0["kinetic"])
print(f"energy: initial kinetic {work:.3f} J; at the end kinetic {float(e1['kinetic']):.3f}, "
      f"plastic dissipation {float(e1['plastic_dissipation']):.3f}, stored {float(e1['strain']):.3f}; "
      f"balance {abs(float(e1['total']) - float(e0['total'])) / work:.2e} of the initial energy")

fig, ax = plt.subplots(1, 3, figsize=(15, 4.8))
for frame, style, label in ((frames[0], "k--", "before"), (frames[-1], "C0-", "after 80 us")):
    zs, rs = zip(*outline[frame])
    ax[0].plot([r * 1e3 for r in rs], [z * 1e3 for z in zs], style, label=label)
    ax[0].plot([-r * 1e3 for r in rs], [z * 1e3 for z in zs], style)
ax[0].axhline(0, color="grey", lw=3)
ax[0].set_aspect("equal")
ax[0].set_xlabel("x (mm)")
ax[0].set_ylabel("z (mm)")
ax[0].set_title("(a) the rod's outline, plane y = 0")
ax[0].legend()
ax[1].plot(t, length, label="length")
ax[1].plot(t, radius, label="impact face radius")
for lo, hi in (published_length, published_radius):
    ax[1].axhspan(lo * 1e3, hi * 1e3, color="C2", alpha=0.3)
ax[1].set_xlabel("time (us)")
ax[1].set_ylabel("mm")
ax[1].set_title("(b) length and radius (band: published results)")
ax[1].legend()
for key, label in (("kinetic", "kinetic"), ("plastic_dissipation", "plastic dissipation"),
                   ("strain", "stored (elastic + hardening + wall)")):
    ax[2].plot(te, [float(r[key]) for r in energy], label=label)
ax[2].set_xlabel("time (us)")
ax[2].set_ylabel("J (a quarter of the rod)")
ax[2].set_title("(c) energies")
ax[2].legend()
fig.tight_layout()
fig.savefig(os.path.join(here, "taylor_bar.png"), dpi=90)
