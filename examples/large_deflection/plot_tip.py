#!/usr/bin/env python3
"""Plots examples/large_deflection (results of run_all.sh under out/): the tip's displacement
against the load factor for the static runs (tip_vs_load.png, with the inextensible elastica and
linear beam theory) and against time for the dynamic runs (tip_vs_time.png), and prints the
numbers of the README (final tip displacement, Newton iterations per step from the logs).

The beam: L = 1 m, square 0.1 m section (I = 0.1^4 / 12), E = 1e7 Pa, so E I = 83.3 N m^2; tip
load P = 250 N in the static runs (P L^2 / (E I) = 3), 125 N in the dynamic ones."""
import pathlib
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

here = pathlib.Path(__file__).resolve().parent
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else here / "out"
L, EI = 1.0, 1.0e7 * 0.1**4 / 12
P_STATIC, P_DYNAMIC = 250.0, 125.0

models = [  # name, label, colour, style
    ("linear_elastic", "linear_elastic", "tab:red", "-"),
    ("corotational", "corotational", "tab:blue", "-"),
    ("saint_venant_kirchhoff", "saint_venant_kirchhoff", "tab:green", "--"),
    ("neo_hookean", "neo_hookean", "black", ":"),
]


def load(path):
    """A CSV with '#' comment lines: returns {column name: numpy array}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.array([[float(x) for x in line.split(",")] for line in lines[1:] if line.strip()])
    return {name: data[:, i] for i, name in enumerate(names)}


def newton_iterations(log):
    """Newton iterations of every solve from an inertia log run with -snes_converged_reason
    (run_all.sh passes it), and how many solves failed (each such step was retried as two half
    steps). Without those lines, the iterations of the steps on the progress lines."""
    text = log.read_text() if log.exists() else ""
    its = [int(n) for n in re.findall(r"Nonlinear solve converged due to \w+ iterations (\d+)", text)]
    failed = len(re.findall(r"Nonlinear solve did not converge", text))
    if not its:
        its = [int(n) for n in re.findall(r"newton its (\d+)", text)]
        failed = text.count("\nretry ")
    return its, failed


def elastica(alpha, n=2000):
    """Tip of the inextensible elastica of a cantilever under a dead vertical tip load with
    P L^2 / (E I) = alpha: theta'' = -alpha cos(theta) on s in [0, 1], theta(0) = 0,
    theta'(1) = 0 (shooting on theta'(0) by bisection, RK4). Returns (ux, uz) / L."""
    if alpha == 0:
        return 0.0, 0.0

    def shoot(k0):
        h = 1.0 / n
        y = np.array([0.0, k0, 0.0, 0.0])  # theta, theta', x, z

        def f(y):
            return np.array([y[1], -alpha * np.cos(y[0]), np.cos(y[0]), -np.sin(y[0])])

        for _ in range(n):
            k1 = f(y)
            k2 = f(y + h / 2 * k1)
            k3 = f(y + h / 2 * k2)
            k4 = f(y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return y

    lo, hi = 0.0, alpha  # theta'(0) = M(0) / EI lies between 0 and the linear value alpha
    for _ in range(60):
        mid = (lo + hi) / 2
        if shoot(mid)[1] > 0:  # theta'(1) = k0 - alpha int cos(theta) ds grows with k0
            hi = mid
        else:
            lo = mid
    y = shoot((lo + hi) / 2)
    return y[2] - 1.0, y[3]


# ---------------------------------------------------------------- static: tip vs load factor
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6))
print("static, P = 250 N (P L^2 / EI = 3), final load step:")
print(f"  {'model':24s} {'tip ux (m)':>11s} {'tip uz (m)':>11s}  Newton iterations per load step")
found = 0
for name, label, colour, style in models:
    path = out / f"static_{name}" / "probes.csv"
    if not path.exists():
        print(f"plot_tip.py: {path} is missing (run run_all.sh first); skipped", file=sys.stderr)
        continue
    found += 1
    p = load(path)
    lam, ux, uz = p["time"], p["tip.ux"], p["tip.uz"]
    left.plot(lam, uz, style, color=colour, marker="o", ms=3, label=label, lw=1.6)
    right.plot(L + ux, uz, style, color=colour, marker="o", ms=3, label=label, lw=1.6)
    its, retries = newton_iterations(out / f"static_{name}.log")
    its_text = " ".join(map(str, its)) if its else "(linear: one solve per step)"
    print(f"  {name:24s} {ux[-1]:11.4f} {uz[-1]:11.4f}  {its_text}"
          + (f"  ({retries} retried)" if retries else ""))
if not found:
    sys.exit("plot_tip.py: no static results under " + str(out))
lams = np.linspace(0, 1, 21)
tips = np.array([elastica(3.0 * s) for s in lams])
ux_e, uz_e = tips[-1]
print(f"  {'elastica (inextensible)':24s} {ux_e:11.4f} {uz_e:11.4f}")
print(f"  {'linear beam P L^3/(3EI)':24s} {0.0:11.4f} {-P_STATIC * L**3 / (3 * EI):11.4f}")
left.plot(lams, tips[:, 1], "-", color="tab:gray", lw=6, alpha=0.35, label="elastica (inextensible)")
left.plot(lams, -P_STATIC * lams * L**3 / (3 * EI), "-", color="tab:red", lw=6, alpha=0.2,
          label="beam theory, linear: P L³/(3EI)")
left.set_xlabel("load factor (P / 250 N)")
left.set_ylabel("tip uz (m)")
left.set_title("tip deflection against load")
left.grid(True, alpha=0.3)
left.legend(fontsize=8)
right.plot(L + tips[:, 0], tips[:, 1], "-", color="tab:gray", lw=6, alpha=0.35, label="elastica")
right.plot([0, L], [0, 0], "-", color="0.6", lw=1)
right.add_patch(plt.Circle((0, 0), L, fill=False, ls="--", color="0.6", lw=0.8))
right.set_aspect("equal")
right.set_xlim(-0.05, 1.15)
right.set_ylim(-1.05, 0.1)
right.set_xlabel("tip x = L + ux (m)")
right.set_ylabel("tip z (m)")
right.set_title("path of the tip (dashed: circle of radius L)")
right.grid(True, alpha=0.3)
fig.suptitle("Cantilever 1 m x 0.1 m x 0.1 m, E = 1e7 Pa, static tip load ramped to 250 N "
             "(P L²/EI = 3), 15 load steps")
fig.tight_layout()


def save(fig, name):
    png = here / name
    fig.savefig(png, dpi=80)
    try:  # an adaptive 64-colour palette keeps the committed PNG small (pillow comes with matplotlib)
        from PIL import Image

        Image.open(png).convert("RGB").quantize(colors=64).save(png, optimize=True)
    except ImportError:
        pass
    print(f"wrote {png} ({png.stat().st_size // 1024} KiB)")


save(fig, "tip_vs_load.png")

# ---------------------------------------------------------------- dynamic: tip vs time
fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7.5), sharex=True)
print("dynamic, P = 125 N held from t = 0.02 s, Newmark dt = 0.01 s:")
print(f"  {'model':24s} {'min uz':>8s} {'min ux':>8s} {'uz end':>8s} {'ux end':>8s}"
      f" {'energy error':>12s}  Newton its per solve (mean, max), failed solves")
for name, label, colour, style in models:
    path = out / f"dynamic_{name}" / "probes.csv"
    if not path.exists():
        continue
    p = load(path)
    e = load(out / f"dynamic_{name}" / "energy.csv")
    t, ux, uz = p["time"], p["tip.ux"], p["tip.uz"]
    top.plot(t, uz, style, color=colour, label=label, lw=1.6)
    bottom.plot(t, ux, style, color=colour, label=label, lw=1.6)
    its, retries = newton_iterations(out / f"dynamic_{name}.log")
    its_text = f"{np.mean(its):.2f}, {max(its)}" if its else "linear"
    error = np.abs(e["total"]).max() / e["external_work"].max()
    print(f"  {name:24s} {uz.min():8.4f} {ux.min():8.4f} {uz[-1]:8.4f} {ux[-1]:8.4f}"
          f" {100 * error:11.3f}%  {its_text}, {retries}")
static_linear = -P_DYNAMIC * L**3 / (3 * EI)
top.axhline(static_linear, color="tab:red", lw=0.8, ls="--")
top.axhline(elastica(1.5)[1], color="tab:gray", lw=0.8, ls="--")
top.axhline(-L, color="0.3", lw=0.8)
top.text(0.02, -L + 0.02, "z = -L: the beam's length", fontsize=8, color="0.3")
top.text(0.02, static_linear - 0.06, "static equilibrium, linear", fontsize=8, color="tab:red")
top.text(0.02, elastica(1.5)[1] + 0.02, "static equilibrium, elastica", fontsize=8,
         color="tab:gray")
bottom.axhline(elastica(1.5)[0], color="tab:gray", lw=0.8, ls="--")
bottom.text(0.02, elastica(1.5)[0] + 0.01, "static equilibrium, elastica", fontsize=8,
            color="tab:gray")
top.set_ylabel("tip uz (m)")
bottom.set_ylabel("tip ux (m)")
bottom.set_xlabel("time (s)")
top.set_title("Cantilever under a 125 N tip load held from t = 0.02 s (P L²/EI = 1.5), Newmark, "
              "dt = 0.01 s")
for ax in (top, bottom):
    ax.grid(True, alpha=0.3)
top.legend(fontsize=8, loc="upper center", framealpha=0.9)
fig.tight_layout()
save(fig, "tip_vs_time.png")
