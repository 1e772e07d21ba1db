#!/usr/bin/env python3
"""Compares the runs of examples/stiff_joint (out/<name>/probes.csv and energy.csv, written by
run_all.sh) with the exact solution and prints one line per scheme.

Along x, with u_j, u_t the displacements of the joint (m_j = 2 kg) and the tip (m_t = 1 kg),
k1 = 100 N/m the soft bar, k2 = 1e8 N/m the stiff one:
    m_j u_j'' = -k1 u_j + k2 (u_t - u_j),    m_t u_t'' = -k2 (u_t - u_j),
u = 0 and v = (0, 1) at t = 0: two modes, solved exactly here. The slow one (everything on the
soft bar) is what the step resolves; the stiff one (omega h = 122) it cannot. No packages needed."""
import math
import pathlib
import sys

mj, mt, k1, k2, v0, h = 2.0, 1.0, 100.0, 1.0e8, 1.0, 0.01
folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "out")
names = ["newmark", "hht", "hht_third", "generalized_alpha", "generalized_alpha_0"]

# Modes: M^-1/2 K M^-1/2 = [[a, b], [b, d]] (symmetric 2x2), unit eigenvectors y; the mode shapes
# are M^-1/2 y, normalised so that shape^T M shape = 1.
a, b, d = (k1 + k2) / mj, -k2 / math.sqrt(mj * mt), k2 / mt
mean, half = (a + d) / 2, math.hypot((a - d) / 2, b)
modes = []
for w2 in (mean - half, mean + half):
    y1, y2 = -b, a - w2
    n = math.hypot(y1, y2)
    modes.append((math.sqrt(w2), (y1 / n / math.sqrt(mj), y2 / n / math.sqrt(mt))))


def exact(t):
    """(u_j, u_t, v_j, v_t) at t."""
    u, v = [0.0, 0.0], [0.0, 0.0]
    for omega, shape in modes:
        q = shape[1] * mt * v0  # modal velocity at t = 0: shape^T M v(0)
        for i in range(2):
            u[i] += shape[i] * q / omega * math.sin(omega * t)
            v[i] += shape[i] * q * math.cos(omega * t)
    return u[0], u[1], v[0], v[1]


def modal_energy(mode, uj, ut, vj, vt):
    """Energy of one mode: (1/2) (qdot^2 + omega^2 q^2), q = shape^T M u."""
    omega, shape = modes[mode]
    q = shape[0] * mj * uj + shape[1] * mt * ut
    qdot = shape[0] * mj * vj + shape[1] * mt * vt
    return 0.5 * (qdot * qdot + omega * omega * q * q)


def load(path):
    """A CSV with '#' comment lines: {column name: list of floats}."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#") and line.strip()]
    header = lines[0].strip().split(",")
    rows = [[float(x) for x in line.split(",")] for line in lines[1:]]
    return {name: [r[i] for r in rows] for i, name in enumerate(header)}


start = [modal_energy(i, 0, 0, 0, v0) for i in range(2)]
print(f"slow mode {modes[0][0]:.4f} rad/s (omega h = {modes[0][0] * h:.3f}), {start[0]:.4f} J; "
      f"stiff mode {modes[1][0]:.1f} rad/s (omega h = {modes[1][0] * h:.1f}), {start[1]:.4f} J")
print(f"{'scheme':22s} {'stiff J, t=0.1':>14s} {'stiff J, t=2':>12s} {'slow J, t=2':>11s} "
      f"{'slow error':>11s} {'algorithmic J':>13s} {'total J':>9s}")
for name in names:
    path = folder / name / "probes.csv"
    if not path.exists():
        print(f"{name:22s} (no {path}; run run_all.sh)")
        continue
    p = load(path)
    t = p["time"]
    state = list(zip(p["joint.ux"], p["tip.ux"], p["joint.vx"], p["tip.vx"]))
    early = modal_energy(1, *state[min(range(len(t)), key=lambda i: abs(t[i] - 0.1))])
    late = [modal_energy(i, *state[-1]) for i in range(2)]
    # The slow mode's coordinate against the exact one, relative to its amplitude.
    omega, shape = modes[0]
    amplitude = math.sqrt(2 * start[0]) / omega
    slow = max(abs(shape[0] * mj * (s[0] - e[0]) + shape[1] * mt * (s[1] - e[1]))
               for s, e in zip(state, map(exact, t))) / amplitude
    energy = load(folder / name / "energy.csv")
    total = energy["total"][-1]
    # Only the schemes that damp write the column (not newmark's trapezoidal rule).
    algorithmic = (f"{energy['algorithmic_dissipation'][-1]:13.6f}"
                   if "algorithmic_dissipation" in energy else f"{'-':>13s}")
    print(f"{name:22s} {early:14.3e} {late[1]:12.3e} {late[0]:11.6f} {slow:11.2e} {algorithmic} "
          f"{total:9.6f}")
print("stiff J, slow J: the energy of each mode (exactly constant); slow error: largest error of "
      "the slow mode's coordinate / its amplitude; algorithmic J, total J: energy.csv's "
      "algorithmic_dissipation (what the scheme removed) and total (kinetic + strain + "
      "algorithmic_dissipation) at the end (0.5 J given at t = 0)")
