#!/usr/bin/env python3
"""Compares the soft drop (out/dynamic, soft_drop.yaml) with its static solution (out/static,
static.yaml): prints the sag of the probes at the end of both runs and the extremes of the
bouncing, and plots the vertical displacement of the bottom centre and of a bottom corner
against time, with the static values as dashed lines, and the kinetic energy, into sag.png."""
import pathlib
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = pathlib.Path(__file__).resolve().parent
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "out"
rho, g, H, E = 1000.0, 9.81, 0.2, 1.0e4


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


for path in (out / "static" / "probes.csv", out / "dynamic" / "probes.csv"):
    if not path.exists():
        sys.exit(f"plot_sag.py: {path} is missing (run run.sh first)")
static = load(out / "static" / "probes.csv")
dynamic = load(out / "dynamic" / "probes.csv")
energy = load(out / "dynamic" / "energy.csv")
t = dynamic["time"]

print(f"1D estimate (a free-hanging bar, no lateral constraint, small strain): "
      f"rho g H^2 / (2 E) = {rho * g * H**2 / (2 * E):.5f} m")
print(f"{'probe':18s} {'static':>10s} {'dynamic end':>12s} {'difference':>11s} {'lowest':>10s}"
      f" {'at t':>6s}")
for probe in ("bottom", "corner", "middle"):
    for c in ("uz", "ux"):
        key = f"{probe}.{c}"
        if probe != "corner" and c == "ux":
            continue
        s, d = static[key][-1], dynamic[key][-1]
        i = np.argmin(dynamic[key])
        print(f"{key:18s} {s:10.6f} {d:12.6f} {100 * (d - s) / abs(s):10.2f}% "
              f"{dynamic[key][i]:10.6f} {t[i]:6.2f}")
z = dynamic["bottom.uz"]
lows = [i for i in range(1, len(z) - 1)  # the lowest points of the bounces (below the static sag)
        if z[i] < z[i - 1] and z[i] <= z[i + 1] and z[i] < static["bottom.uz"][-1]]
print("bottom.uz lowest points (t, mm): "
      + ", ".join(f"({t[i]:.2f}, {1000 * z[i]:.1f})" for i in lows[:6])
      + f"; mean period of the first five {np.diff(t[lows[:6]]).mean():.3f} s")
late = t >= t[-1] - 0.5
print(f"bottom.uz over the last 0.5 s: {dynamic['bottom.uz'][late].min():.6f} .. "
      f"{dynamic['bottom.uz'][late].max():.6f}, mean {dynamic['bottom.uz'][late].mean():.6f}")
work = energy["external_work"]
print(f"energy: work of gravity {work[-1]:.4f} J, strain {energy['strain'][-1]:.4f} J, "
      f"dissipated {energy['damping_dissipation'][-1]:.4f} J, "
      f"max |total| {np.abs(energy['total']).max():.2e} J")
for name in ("static", "soft_drop"):
    log = out / f"{name}.log"
    if log.exists():
        text = log.read_text()  # run.sh passes -snes_converged_reason: a line per Newton solve
        its = [int(n) for n in re.findall(r"Nonlinear solve converged due to \w+ iterations (\d+)",
                                          text)] or [int(n) for n in re.findall(r"newton its (\d+)", text)]
        if its:
            print(f"{name}: Newton iterations per step: mean {np.mean(its):.2f}, min {min(its)}, "
                  f"max {max(its)} over {len(its)} solves")

fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True,
                                  gridspec_kw={"height_ratios": [1.6, 1]})
for key, label, colour in (("bottom.uz", "bottom centre", "tab:blue"),
                           ("corner.uz", "bottom corner", "tab:orange"),
                           ("middle.uz", "centre of the block", "tab:green")):
    top.plot(t, 1000 * dynamic[key], color=colour, lw=1.6, label=f"{label}, Newmark")
    top.axhline(1000 * static[key][-1], color=colour, ls="--", lw=1,
                label=f"{label}, static solution")
top.set_ylabel("vertical displacement uz (mm)")
top.set_title("Soft Neo-Hookean block (0.2 m, E = 10 kPa, nu = 0.45) hanging from its top face, "
              "released under gravity", fontsize=10)
top.grid(True, alpha=0.3)
top.legend(fontsize=8, ncol=2, loc="lower right")
bottom.semilogy(t[1:], energy["kinetic"][1:], color="black", lw=1.4)
bottom.set_ylabel("kinetic energy (J)")
bottom.set_xlabel("time (s)")
bottom.grid(True, which="both", alpha=0.3)
fig.tight_layout()
png = here / "sag.png"
fig.savefig(png, dpi=80)
try:  # an adaptive 64-colour palette keeps the committed PNG small (pillow comes with matplotlib)
    from PIL import Image

    Image.open(png).convert("RGB").quantize(colors=64).save(png, optimize=True)
except ImportError:
    pass
print(f"wrote {png} ({png.stat().st_size // 1024} KiB)")
