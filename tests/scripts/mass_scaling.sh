#!/usr/bin/env bash
# time.mass_scaling (README "Explicit time step"; app/mass_scaling.hpp) on a steel bar of 30
# cubes of 10 mm and one short cell of 2 mm at its far end, pulled at its near end (a smooth
# 10 um step in 10 us): dt: auto would follow the short cell (0.2 of the others' step);
# with dt_min 6e-7 s:
# - only the short cell gets mass, and the mass added (energy.csv's added_mass) is the formula's
#   m_e ((dt_min / dt_e)^2 - 1), m_e = rho V, dt_e = 0.9 k L / c, to 1e-12 (k from the log);
# - the first step is dt_min (within 2 %, below it), about 0.51 of the unscaled run's steps;
# - the pulse reaches x = 0.2 m at the same time as without mass scaling (half its height, to
#   1 % of the arrival time) and as a bar wave, 5 us + 0.2 m / sqrt(E / rho) (to 3 %);
# - the energy balance closes, with the scaled cell's nodes moving (the pulse reflected at the
#   far end): the change of total within 1e-2 of the work done (measured 5.5e-3 at the step of
#   6e-7 s; the unscaled run 9.7e-4 at its 3.1e-7 s: explicit balances close to O(dt^2));
# - np 2 gives the same added mass and dt sequence as np 1.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
python3 - "$work/bar.msh" <<'PY'
import sys
xs = [0.01 * i for i in range(31)] + [0.302]
nodes, hexes = [], []
for i, x in enumerate(xs):
    for y, z in ((0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01)):
        nodes.append((x, y, z))
for i in range(len(xs) - 1):
    a, b = 4 * i + 1, 4 * (i + 1) + 1
    hexes.append([a, a + 1, a + 2, a + 3, b, b + 1, b + 2, b + 3])
with open(sys.argv[1], "w") as f:
    f.write('$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n2 2 "left"\n3 1 "bar"\n$EndPhysicalNames\n')
    f.write(f"$Nodes\n{len(nodes)}\n")
    for n, (x, y, z) in enumerate(nodes, 1):
        f.write(f"{n} {x!r} {y!r} {z!r}\n")
    f.write(f"$EndNodes\n$Elements\n{len(hexes) + 1}\n")
    f.write("1 3 2 2 2 1 4 3 2\n")
    for e, h in enumerate(hexes, 2):
        f.write(f"{e} 5 2 1 1 " + " ".join(map(str, h)) + "\n")
    f.write("$EndElements\n")
PY
bar() {  # bar NAME EXTRA_TIME_KEYS
  cat > "$work/$1.yaml" <<YAML
mesh: {file: $work/bar.msh}
materials:
  - {region: bar, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
amplitudes:
  pull: {type: smooth_step, points: [[0, 0], [1.0e-5, 1]], continuity: 2}
boundary_conditions:
  - {region: left, type: displacement, components: [x], value: [-1.0e-5], amplitude: pull}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 8.0e-5$2}
output:
  directory: $work/$1
  every: 0
  history_every: 1
  energy: true
  probes:
    - {name: p, point: [0.2, 0, 0], fields: [displacement]}
    - {name: r, point: [0.302, 0, 0], fields: [displacement]}
YAML
}
bar plain ""
run 1 "$work/plain.yaml"
cp "$work/last.log" "$work/plain.log"
bar scaled ", mass_scaling: {dt_min: 6.0e-7}"
for np in 1 2; do
  sed "s|directory: $work/scaled|directory: $work/scaled$np|" "$work/scaled.yaml" > "$work/scaled$np.yaml"
  run "$np" "$work/scaled$np.yaml"
  cp "$work/last.log" "$work/scaled$np.log"
done
grep -E "^mass |^dt  " "$work/scaled1.log" | head -6
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, read, passed
from dt_checks import calibration, wave_speed
E, nu, rho = 2.0e11, 0.3, 7800
c = wave_speed(E, nu, rho)
k = calibration(f"{work}/plain.log")
dt_min = 6.0e-7
m_e = rho * 0.002 * 0.01 * 0.01
dt_e = 0.9 * k * 0.002 / c
expected = m_e * ((dt_min / dt_e) ** 2 - 1)
e = read(f"{work}/scaled1/energy.csv")
check("added mass / formula m_e ((dt_min / dt_e)^2 - 1) - 1", e["added_mass"][0] / expected - 1, -1e-12, 1e-12)
check("cells scaled (the log)", int(next(l for l in open(f"{work}/scaled1.log") if "cells below it" in l).split(": ")[1].split()[0]), 1, 1)
s, p = read(f"{work}/scaled1/dt.csv"), read(f"{work}/plain/dt.csv")
check("first step / dt_min", s["dt"][0] / dt_min, 0.98, 1)
check("steps with mass scaling / without (0.9 x 0.002 m / c over dt_min: 0.51)", len(s["dt"]) / len(p["dt"]), 0.49, 0.53)
def arrival(path):
    q = read(path)
    t, u = q["time"], q["p.ux"]
    for i in range(1, len(t)):
        if u[i] <= -0.5e-5:
            return t[i - 1] + (t[i] - t[i - 1]) * (-0.5e-5 - u[i - 1]) / (u[i] - u[i - 1])
    return float("inf")
a_s, a_p = arrival(f"{work}/scaled1/probes.csv"), arrival(f"{work}/plain/probes.csv")
print(f"     arrival at x = 0.2 m: {a_s:.6g} s with mass scaling, {a_p:.6g} s without")
check("pulse arrival with mass scaling / without - 1", a_s / a_p - 1, -0.01, 0.01)
check("pulse arrival / (5 us + 0.2 m / sqrt(E / rho)) - 1", a_s / (5e-6 + 0.2 / (E / rho) ** 0.5) - 1, -0.03, 0.03)
def balance(h):
    return abs(h["total"][-1] - h["total"][0]) / max(abs(x) for x in h["external_work"])
ep = read(f"{work}/plain/energy.csv")
check("energy balance with mass scaling: |total - total_0| / the work done", balance(e), 0, 1e-2)
print(f"     (the unscaled run at its step {p['dt'][1]:.4g} s: {balance(ep):.3g})")
r = read(f"{work}/scaled1/probes.csv")
check("the scaled cell's far node moved (m): the added mass's kinetic energy is in the balance", abs(r["r.ux"][-1]), 1e-6, 1)
two = read(f"{work}/scaled2/energy.csv")
check("np 2: added mass - np 1's", two["added_mass"][0] - e["added_mass"][0], 0, 0)
d2 = read(f"{work}/scaled2/dt.csv")
check("np 2: steps whose dt differs from np 1's", sum(a != b for a, b in zip(s["dt"], d2["dt"])) + abs(len(s["dt"]) - len(d2["dt"])), 0, 0)
if not passed():
    print("FAIL: mass_scaling"); sys.exit(1)
PY
finish
