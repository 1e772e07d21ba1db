"""The bar impact against the exact answer: wall force (contact.csv) and the velocities of the
bar's two ends (probes.csv). Prints the figures of the README and writes bar_impact.png."""
import csv
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
rho, E, L, A, v0 = 1000.0, 1.0e8, 1.0, 0.05 * 0.05, 1.0
c = math.sqrt(E / rho)


def table(name):
    rows = [r for r in csv.reader(open(os.path.join(here, "out", name))) if r and r[0][0] != "#"]
    return {k: [float(r[i]) for r in rows[1:]] for i, k in enumerate(rows[0])}


f = table("contact.csv")
p = table("probes.csv")
e = table("energy.csv")
t, fx = f["time"], f["wall.fx"]
dt = t[1] - t[0]
on = [i for i, x in enumerate(fx) if x > 0]
peak, duration = max(fx), t[on[-1]] - t[on[0]] + dt
impulse = sum(fx) * dt
m = rho * L * A
print(f"wall force: peak {peak:.1f} N (exact rho c v0 A = {rho * c * v0 * A:.1f} N), "
      f"contact {1e3 * duration:.3f} ms (exact 2 L / c = {2e3 * L / c:.3f} ms)")
print(f"impulse {impulse:.5f} N s: the bar's mean velocity after it {-v0 + impulse / m:+.5f} m/s "
      f"(exact +{v0} m/s)")
print(f"energy: kinetic + strain at the end {e['kinetic'][-1] + e['strain'][-1]:.5f} J "
      f"(initial {e['kinetic'][0]:.5f} J)")

fig, (a1, a2) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
a1.plot([1e3 * x for x in t], fx, label="inertia (penalty wall)")
T, Z = 2e3 * L / c, rho * c * v0 * A
a1.plot([0, 0, T, T, 1e3 * t[-1]], [0, Z, Z, 0, 0], "k--", label="exact")
a1.set_ylabel("wall force (N)")
a1.legend()
a2.plot([1e3 * x for x in p["time"]], p["tip.vx"], label="struck end")
a2.plot([1e3 * x for x in p["time"]], p["end.vx"], label="free end")
a2.axhline(v0, color="k", ls="--", lw=0.8)
a2.axhline(-v0, color="k", ls="--", lw=0.8)
a2.set_xlabel("time (ms)")
a2.set_ylabel("velocity x (m/s)")
a2.legend()
fig.tight_layout()
fig.savefig(os.path.join(here, "bar_impact.png"), dpi=100)
print("wrote bar_impact.png")
