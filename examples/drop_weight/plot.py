"""The drop weight against Saint-Venant's solution: the force between weight and bar
(contact.csv) and the weight's velocity. Prints the figures of the README and writes
drop_weight.png."""
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


f = table("contact.csv")
t, fx, vx = f["time"], f["weight.fx"], f["weight.vx"]
s_end = (1 + math.exp(-alpha * T) / 2) / alpha
v_end = v0 * math.exp(-alpha * s_end) * (math.exp(-alpha * T) - 2 * alpha * s_end)
last = max(i for i, x in enumerate(fx) if x > 0)
print(f"force at t = 0+: {fx[1]:.1f} N .. peak before 2L/c {max(x for x, y in zip(fx, t) if y < T):.1f} N "
      f"(exact Z v0 = {Z * v0:.1f} N)")
print(f"contact ends at {1e3 * t[last]:.3f} ms (exact {1e3 * (T + s_end):.3f} ms); the weight "
      f"leaves at {vx[-1]:+.4f} m/s (exact {v_end:+.4f} m/s)")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    raise SystemExit("no matplotlib: the figures above, no plot")
fig, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
a1.plot([1e3 * x for x in t], fx, label="inertia (penalty contact)")
a1.plot([1e3 * x for x in t], [exact(x) for x in t], "k--", label="Saint-Venant (1-D)")
a1.set_ylabel("force on the bar's end (N)")
a1.legend()
a2.plot([1e3 * x for x in t], vx, label="weight")
a2.set_xlabel("time (ms)")
a2.set_ylabel("velocity x (m/s)")
a2.legend()
fig.tight_layout()
fig.savefig(os.path.join(here, "drop_weight.png"), dpi=80)
