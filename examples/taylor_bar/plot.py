"""The Taylor bar after the impact, on F-bar cells (out/) and on one-point cells (out_reduced/):
(a) the rod's outline in the plane y = 0, before and at the end, (b) its length and the impact
face's radius against time, with the range of published finite-element results, (c) the
energies against time. Prints the README's figures and writes taylor_bar.png.

    python3 plot.py [OUT_DIR [OUT_DIR_REDUCED]]     # default: out out_reduced (from run.sh)
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

L0, R0 = 32.4e-3, 3.2e-3
# Published finite-element results for this test (Simo and Armero 1992, Zhu and Cescotto 1995,
# Kamoulakos 1990, among others) lie within about these ranges.
published_length, published_radius = (21.4e-3, 21.7e-3), (6.9e-3, 7.2e-3)


def measure(out):
    """The outline (first and last frame), the rim of the impact face at the end, the probes'
    length and radius histories and energy.csv of one run."""
    frames = sorted(glob.glob(os.path.join(out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu")))
    outline, rim = {}, []
    for frame in (frames[0], frames[-1]):
        nodes = []
        for piece in sorted(glob.glob(frame[:-len(".pvtu")] + "/piece_*.vtu")):
            d = read_vtu(piece)
            for p, u in zip(d["Points"], d["displacement"]):
                if abs(p[1]) < 1e-9 and abs(p[0] - R0) < 1e-9:
                    nodes.append((p[2] + u[2], p[0] + u[0]))
                if frame == frames[-1] and abs(p[2]) < 1e-9 and abs(math.hypot(p[0], p[1]) - R0) < 1e-9:
                    rim.append((math.hypot(p[0] + u[0], p[1] + u[1]), p[2] + u[2]))
        outline["before" if frame == frames[0] else "after"] = sorted(nodes)
    probes = rows(os.path.join(out, "probes.csv"))
    return {"outline": outline, "rim": rim,
            "t": [r["time"] * 1e6 for r in probes],
            "length": [(L0 + r["top.uz"]) * 1e3 for r in probes],
            "radius": [(R0 + r["rim.ux"]) * 1e3 for r in probes],
            "energy": rows(os.path.join(out, "energy.csv"))}


names = sys.argv[1:3] if len(sys.argv) > 1 else ["out", "out_reduced"]
runs = {}
for label, name in zip(("fbar", "reduced"), names):
    if os.path.isdir(os.path.join(here, name)):
        runs[label] = measure(os.path.join(here, name))
for label, m in runs.items():
    e0, e1 = m["energy"][0], m["energy"][-1]
    internal = e1["strain"] + e1["plastic_dissipation"]
    print(f"{label}: final length {m['length'][-1]:.3f} mm (published about "
          f"{published_length[0] * 1e3:.2f}-{published_length[1] * 1e3:.2f}), impact-face radius "
          f"{min(m['rim'])[0] * 1e3:.3f} to {max(m['rim'])[0] * 1e3:.3f} mm around the rim (about "
          f"{published_radius[0] * 1e3:.1f}-{published_radius[1] * 1e3:.1f}); the rim lifted off "
          f"the wall by up to {max(z for _, z in m['rim']) * 1e3:.3f} mm")
    print(f"{label}: energy: initial kinetic {e0['kinetic']:.3f} J; at the end kinetic "
          f"{e1['kinetic']:.3f}, plastic dissipation {e1['plastic_dissipation']:.3f}, stored "
          f"{e1['strain']:.3f}" + (f" (hourglass {e1['hourglass']:.3f}, {e1['hourglass'] / internal:.2%} "
                                   "of the internal energy)" if "hourglass" in e1 else "") +
          f"; balance {abs(e1['total'] - e0['total']) / e0['kinetic']:.2e} of the initial energy")

fig, ax = plt.subplots(1, 3, figsize=(15, 4.8))
for i, (label, m) in enumerate(runs.items()):
    for key, style in (("before", "k--"), ("after", f"C{i}-")):
        if key == "before" and i > 0:
            continue
        zs, rs = zip(*m["outline"][key])
        tag = "before" if key == "before" else f"after 80 us, {label}"
        ax[0].plot([r * 1e3 for r in rs], [z * 1e3 for z in zs], style, label=tag)
        ax[0].plot([-r * 1e3 for r in rs], [z * 1e3 for z in zs], style)
    ax[1].plot(m["t"], m["length"], f"C{i}-", label=f"length, {label}")
    ax[1].plot(m["t"], m["radius"], f"C{i}--", label=f"impact face radius (x axis), {label}")
    te = [r["time"] * 1e6 for r in m["energy"]]
    for key, style in (("kinetic", "-"), ("plastic_dissipation", "--"), ("strain", ":"),
                       ("hourglass", "-.")):
        if key in m["energy"][0]:
            ax[2].plot(te, [r[key] for r in m["energy"]], f"C{i}{style}", label=f"{key}, {label}")
ax[0].axhline(0, color="grey", lw=3)
ax[0].set_aspect("equal")
ax[0].set_xlabel("x (mm)")
ax[0].set_ylabel("z (mm)")
ax[0].set_title("(a) the rod's outline, plane y = 0")
ax[0].legend(fontsize=7)
for lo, hi in (published_length, published_radius):
    ax[1].axhspan(lo * 1e3, hi * 1e3, color="C2", alpha=0.3)
ax[1].set_xlabel("time (us)")
ax[1].set_ylabel("mm")
ax[1].set_title("(b) length and radius (band: published results)")
ax[1].legend(fontsize=7)
ax[2].set_xlabel("time (us)")
ax[2].set_ylabel("J (a quarter of the rod)")
ax[2].set_title("(c) energies (strain: stored)")
ax[2].legend(fontsize=7)
fig.tight_layout()
fig.savefig(os.path.join(here, "taylor_bar.png"), dpi=90)
