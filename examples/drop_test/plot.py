"""The drop test: contact force (contact.csv), the block's velocity (probes.csv and its momentum
from the contact impulse) and the energy balance (energy.csv), with the hand estimates of the
README (and the plate's own stiffness and first mode from stiffness.yaml's run, where it was run).
Prints the figures of the README and writes drop_test.png."""
import csv
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
rho, E, nu, g = 7850.0, 2.1e11, 0.3, 9.81
a, h, b, v0 = 0.6, 0.02, 0.1, 5.0  # plate side and thickness, block side, initial speed
m = rho * b ** 3  # the block's mass


def table(name):
    path = os.path.join(here, "out", name)
    rows = [r for r in csv.reader(open(path)) if r and r[0][0] != "#"]
    return {k: [float(r[i]) for r in rows[1:]] for i, k in enumerate(rows[0])}


f = table("contact.csv")
p = table("probes.csv")
e = table("energy.csv")
t, fz = f["time"], f["impact.fz"]  # the force on the block (the pair's first surface), up
dt = t[1] - t[0]
on = [i for i, n in enumerate(f["impact.active"]) if n > 0]
first, last = on[0], on[-1]
spells = 1 + sum(1 for i, j in zip(on, on[1:]) if j > i + 1)  # separate contact intervals
peak = max(fz)
# The block's momentum: central difference changes it by exactly dt x the forces of each step.
V, impulse = [], 0.0
for i, ti in enumerate(t):
    impulse += fz[i] * dt
    V.append(-v0 + impulse / m - g * ti)
v_in, v_out = -V[first - 1], V[last]  # just before the first touch, after the last separation
duration = t[last] - t[first] + dt
restitution = v_out / v_in
E0 = e["total"][0]
error = [x - E0 for x in e["total"]]
worst = max(error, key=abs)
print(f"impact at {1e3 * t[first]:.4f} ms at {v_in:.4f} m/s; contact until {1e3 * t[last]:.4f} ms: "
      f"{1e3 * duration:.3f} ms in {spells} spells, {1e3 * len(on) * dt:.3f} ms with a force")
print(f"peak contact force {peak / 1e6:.4f} MN at {1e3 * t[fz.index(peak)]:.4f} ms; "
      f"impulse {sum(fz) * dt:.3f} N s")
print(f"the block leaves at {v_out:+.4f} m/s: restitution {restitution:.4f}; its rigid kinetic "
      f"energy {0.5 * m * v_out ** 2:.2f} J of {E0:.3f} J")
print(f"energy balance (kinetic + strain - work of gravity, against the initial {E0:.3f} J): "
      f"{worst:+.4f} J at worst ({100 * worst / E0:+.3f} %), {error[-1]:+.4f} J at the end "
      f"({100 * error[-1] / E0:+.3f} %)")

# Hand estimates (README): the first microseconds as two half-spaces meeting (a plane wave at the
# dilatational speed), then the block on the plate's stiffness under its footprint.
cd = math.sqrt(E * (1 - nu) / (rho * (1 + nu) * (1 - 2 * nu)))
F_wave, T_wave = rho * cd * v_in / 2 * b * b, 2 * h / cd
D = E * h ** 3 / (12 * (1 - nu ** 2))
k_point = D / (0.00560 * a * a)  # clamped square plate, central point load (Timoshenko)
R, r = a * math.sqrt(16 * math.pi * 0.00560), b / math.sqrt(math.pi)  # equivalent circles
k_plate = k_point / (1 - (r / R) ** 2 * (0.75 - math.log(r / R)))  # the load over the footprint
f1_plate = 35.99 / (2 * math.pi * a * a) * math.sqrt(D / (rho * h))  # Leissa, clamped square
print(f"hand: plane wave rho c_d v / 2 x A = {F_wave / 1e6:.4f} MN for 2 h / c_d = "
      f"{1e6 * T_wave:.2f} us; thin plate k = {k_plate:.4g} N/m, pi sqrt(m / k) = "
      f"{1e3 * math.pi * math.sqrt(m / k_plate):.3f} ms, f1 = {f1_plate:.1f} Hz, 1 / (2 f1) = "
      f"{1e3 / (2 * f1_plate):.3f} ms")
try:
    s = table("stiffness/probes.csv")
    k_mesh = 1.0e5 / -s["top.uz"][-1]
    f1_mesh = table("stiffness/modes.csv")["frequency"][0]
    print(f"this mesh's plate: k = {k_mesh:.4g} N/m, pi sqrt(m / k) = "
          f"{1e3 * math.pi * math.sqrt(m / k_mesh):.3f} ms, f1 = {f1_mesh:.1f} Hz, 1 / (2 f1) = "
          f"{1e3 / (2 * f1_mesh):.3f} ms")
except OSError:
    print("(run stiffness.yaml for this mesh's plate stiffness and first mode)")

ms = [1e3 * x for x in t]
fig, (a1, a2, a3) = plt.subplots(3, 1, sharex=True, figsize=(7, 8.5))
a1.plot(ms, [x / 1e6 for x in fz], lw=1)
a1.set_ylabel("contact force (MN)")
a1.set_title(f"peak {peak / 1e6:.2f} MN, contact {1e3 * duration:.2f} ms ({spells} spells), "
             f"restitution {restitution:.3f},\nenergy balance {100 * error[-1] / E0:+.2f} % at the "
             f"end ({100 * worst / E0:+.2f} % at worst)", fontsize=10)
# The first microseconds against the plane wave (an inset where the force is zero).
zoom = a1.inset_axes([0.42, 0.3, 0.56, 0.65])
near = [i for i in range(first - 5, first + 60)]
zoom.plot([1e3 * (t[i] - t[first]) * 1e3 for i in near], [fz[i] / 1e6 for i in near], ".-",
          lw=1, ms=3, label="inertia (penalty, both ways)")
zoom.plot([0, 1e6 * T_wave], [F_wave / 1e6] * 2, "k", lw=2,
          label=f"plane wave: {F_wave / 1e6:.2f} MN for 2h/c = {1e6 * T_wave:.1f} us")
zoom.set_xlabel("time after the first touch (us)", fontsize=8)
zoom.tick_params(labelsize=8)
zoom.legend(fontsize=7)
a2.plot([1e3 * x for x in p["time"]], p["block.vz"], lw=0.6, alpha=0.6,
        label="block, near its centre")
a2.plot([1e3 * x for x in p["time"]], p["plate.vz"], lw=0.6, alpha=0.6, label="plate's centre")
a2.plot(ms, V, "k", lw=1.5,
        label=f"block's mean (momentum): {-v_in:.2f} -> {v_out:+.2f} m/s")
a2.axhline(-v_in, color="k", ls="--", lw=0.8)
a2.axhline(v_out, color="k", ls="--", lw=0.8)
a2.set_ylabel("velocity z (m/s)")
a2.legend(fontsize=8, loc="lower right")
a3.plot(ms, e["kinetic"], label="kinetic")
a3.plot(ms, e["strain"], label="strain (and penalty)")
a3.plot(ms, [100 * x for x in e["external_work"]], label="work of gravity x 100")
a3.plot(ms, e["total"], "k",
        label=f"kinetic + strain - work: {100 * error[-1] / E0:+.2f} % at the end")
a3.plot(ms, [0.5 * m * x ** 2 for x in V], "k:", label="the block's rigid motion")
a3.set_xlabel("time (ms)")
a3.set_ylabel("energy (J)")
a3.set_ylim(-30, 140)
a3.legend(fontsize=8, loc="upper center", ncol=2)
fig.tight_layout()
fig.savefig(os.path.join(here, "drop_test.png"), dpi=100)
print("wrote drop_test.png")
