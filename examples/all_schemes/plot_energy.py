#!/usr/bin/env python3
"""Plots the energy histories of examples/all_schemes (out/<scheme>/energy.csv, written by
run_all.sh) into energy_by_scheme.png.

The case is a 1 kg mass on a 100 N/m spring under gravity, released at rest with the spring
unstretched. kinetic + strain - work of gravity (energy.csv's `total` less its
`algorithmic_dissipation`, the column hht and generalized_alpha add to book what they remove; no
damping here) is 0 at t = 0 and stays 0 for an exact solution. Adding E0 = (m g)^2 / (2 k), the
energy of the oscillation about the static position at t = 0, gives the oscillation energy; the
plot shows it relative to its initial value, 1 + (total - algorithmic_dissipation) / E0
(1 = conserved). For variational_symplectic the
`hamiltonian` column (1/2 p M^-1 p + strain - work, with the scheme's own momentum p) is drawn
dashed."""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = pathlib.Path(__file__).resolve().parent
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "out"
m, k, g = 1.0, 100.0, 9.81
E0 = (m * g) ** 2 / (2 * k)

# name, label, colour, style
schemes = [
    ("euler_explicit", "euler_explicit", "tab:red", "-"),
    ("rk2", "rk2 (midpoint)", "tab:orange", "-"),
    ("heun", "heun", "gold", "--"),
    ("symplectic_euler", "symplectic_euler", "tab:blue", "-"),
    ("variational_explicit", "variational_symplectic explicit", "tab:cyan", ":"),
    ("central_difference", "central_difference", "tab:purple", "-"),
    ("rk4", "rk4", "tab:brown", "-"),
    ("euler_implicit", "euler_implicit (Baraff-Witkin)", "tab:green", "-"),
    ("euler_implicit_trapezoidal", "euler_implicit trapezoidal", "olive", "--"),
    ("newmark", "newmark (1/4, 1/2)", "black", "-"),
    ("hht", "hht (alpha -0.05)", "teal", "--"),
    ("generalized_alpha", "generalized_alpha (0.8)", "darkgoldenrod", ":"),
    ("variational_implicit", "variational_symplectic implicit", "tab:pink", "-"),
    ("static", "static (no inertia)", "tab:gray", ":"),
]


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


fig, (top, bottom, fine) = plt.subplots(3, 1, figsize=(9, 11), sharex=True,
                                        gridspec_kw={"height_ratios": [1.2, 1, 1]})
found = 0
for name, label, colour, style in schemes:
    path = out / name / "energy.csv"
    if not path.exists():
        print(f"plot_energy.py: {path} is missing (run run_all.sh first); skipped", file=sys.stderr)
        continue
    found += 1
    e = load(path)
    # What the scheme leaves in the oscillation: total less the energy the scheme removed.
    kept = e["total"] - e.get("algorithmic_dissipation", 0.0)
    t, ratio = e["time"], 1 + kept / E0
    top.semilogy(t, ratio, style, color=colour, label=label, lw=1.4)
    bottom.plot(t, ratio, style, color=colour, label=label, lw=1.4)
    fine.plot(t, ratio, style, color=colour, label=label, lw=1.4)
    if "hamiltonian" in e:
        h = 1 + e["hamiltonian"] / E0
        what = "Hamiltonian, " + label.replace("variational_symplectic ", "")
        top.semilogy(t, h, "--", color=colour, lw=2.2, alpha=0.6, label=what)
        bottom.plot(t, h, "--", color=colour, lw=2.2, alpha=0.6, label=what)
        fine.plot(t, h, "--", color=colour, lw=2.2, alpha=0.6, label=what)
    print(f"{name:28s} final {ratio[-1]:9.4f}  min {ratio.min():8.4f}  max {ratio.max():8.4f}")
if not found:
    sys.exit("plot_energy.py: no energy.csv found under " + str(out))

top.set_title("Hanging mass (m = 1 kg, k = 100 N/m, omega h = 0.05): energy by time integrator")
top.set_ylabel("oscillation energy / initial\n(log scale)")
top.grid(True, which="both", alpha=0.3)
top.legend(fontsize=8, ncol=2, loc="upper left")
bottom.set_ylim(0.94, 1.06)
bottom.set_ylabel("oscillation energy / initial\n(zoom: +-6 %)")
bottom.grid(True, alpha=0.3)
fine.set_ylim(0.997, 1.003)
fine.set_ylabel("oscillation energy / initial\n(zoom: +-0.3 %)")
fine.set_xlabel("time (s)")
fine.grid(True, alpha=0.3)
fig.tight_layout()
png = here / "energy_by_scheme.png"
fig.savefig(png, dpi=80)
try:  # an adaptive 64-colour palette keeps the committed PNG small (pillow comes with matplotlib)
    from PIL import Image

    Image.open(png).convert("RGB").quantize(colors=64).save(png, optimize=True)
except ImportError:
    pass
print(f"wrote {png} ({png.stat().st_size // 1024} KiB)")
