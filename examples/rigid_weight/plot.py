"""The rigid weight against Saint-Venant's solution: the force on the weight and its velocity
(rigid_bodies.csv). Prints the figures of the README and writes rigid_weight.png."""
import csv
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
rho, E, L, A, v0, M = 1000.0, 1.0e8, 1.0, 0.05 * 0.05, 1.0, 2.5
c = math.sqrt(E / rho)
Z, T = rho * c * A, 2 * L / c
alpha = Z / M


def exact(t):
    """The force (N) on the struck end: the weight alone on the bar, then the reflected wave."""
    if t < T:
        return Z * v0 * math.exp(-alpha * t)
    s = t - T
    return max(0.0, Z * v0 * math.exp(-alpha * s) * (math.exp(-alpha * T) + 2 - 2 * alpha * s))


def table(name):
    rows = [r for r in csv.reader(open(os.path.join(here, "out", name))) if r and r[0][0] != "#"]
    return {k: [float(r[i]) for r in rows[1:]] for i, k in enumerate(rows[0])}


f = table("rigid_bodies.csv")
t, fx, vx, px = f["time"], [-x for x in f["weight.fx"]], f["weight.vx"], f["model.px"]
h = t[1] - t[0]
s_end = (1 + math.exp(-alpha * T) / 2) / alpha
v_end = v0 * math.exp(-alpha * s_end) * (math.exp(-alpha * T) - 2 * alpha * s_end)
impulse = sum(x * h for x, y in zip(fx, t) if y < T)
print(f"impulse before 2L/c: {impulse:.4f} N s (exact {M * v0 * (1 - math.exp(-alpha * T)):.4f})")
print(f"the weight leaves at {vx[-1]:+.4f} m/s (exact {v_end:+.4f} m/s)")
drift = max(abs(p - M * v0) for p, y in zip(px, t) if y < 0.5 * L / c)
print(f"model momentum before L/(2c): M v0 to {drift:.1e} kg m/s")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    raise SystemExit("no matplotlib: the figures above, no plot")
fig, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
a1.plot([1e3 * x for x in t], fx, label="inertia (rigid body, contact pair)")
a1.plot([1e3 * x for x in t], [exact(x) for x in t], "k--", label="Saint-Venant (1-D)")
a1.set_ylabel("force on the bar's end (N)")
a1.legend()
a2.plot([1e3 * x for x in t], vx, label="weight")
a2.set_xlabel("time (ms)")
a2.set_ylabel("velocity x (m/s)")
a2.legend()
fig.tight_layout()
fig.savefig(os.path.join(here, "rigid_weight.png"), dpi=80)
