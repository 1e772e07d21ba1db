#!/usr/bin/env bash
# Rigid bodies (rigid_bodies:, examples/guide/rigid_bodies.md), against exact answers:
# - a rigid weight welded to the end of a free elastic bar (meshes/rigid_bar.msh: the bar 1 m,
#   0.05 m square, 100 hex8, rho 1000, E 100 MPa, nu 0: c = 316.2 m/s, Z = rho c A = 790.6 N s/m;
#   the weight one hex8, rho 1e5: 2.5 kg, and the half cell of bar welded to it: M = 2.5125 kg)
#   at v0 = 1 m/s: the log's mass properties (m, centre, inertia) to 1e-12 of the cells' exact
#   ones; the weight's velocity v0 exp(-Z t / M) until the wave returns (2 L / c); the model's
#   momentum M v0 to round-off at every step; np 1, 2, 3 agree;
# - the same weight not welded but striking the bar through a contact pair (rigid_bar_pair.msh,
#   far end fixed): Saint-Venant's force Z v0 exp(-Z t / M) until 2 L / c (its impulse), the
#   rebound velocity;
# - a free rigid box (0.1 x 0.2 x 0.3 m, 2 x 3 x 4 hex8, rho 7850) tumbling about a general axis:
#   its angular momentum to round-off and its energy to the scheme's O(h^2); its motion the
#   same on 1, 2 and 3 ranks and after a restart 2 -> 3 ranks;
# - a box spun about z at a driven 20 rad/s (fixed x y z rx ry): the rotation 20 t;
# - the box dropped at 2 m/s spinning at 5 rad/s onto a floor wall under gravity: an exact free
#   fall until the contact, its momentum change the resultant's impulse to round-off, a bounce;
# - a rigid block perforating an eroding J2 plate through a contact pair (dt: auto): momentum
#   of the model and the eroded cells to round-off, np 1 and 2 agree;
# - bad input: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

weight() {  # weight FILE DIR MESH [extra keys...]
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/$3}
materials:
  - {region: bar, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
  - {region: weight, density: 1.0e5, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
rigid_bodies:
  - {name: weight, region: weight, initial_velocity: [1, 0, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: ${4:-0.006}}
output: {directory: $2, every: 0, history_every: 1}
EOF
}
for np in 1 2 3; do
  weight "$work/welded$np.yaml" "$work/welded$np" rigid_bar.msh
  run "$np" "$work/welded$np.yaml"
done
grep -q "rigid     body 'weight': mass 2.5125 kg" "$work/last.log" || fail "the weight's mass line"
weight "$work/pair.yaml" "$work/pair" rigid_bar_pair.msh 0.012
cat >> "$work/pair.yaml" <<EOF
contact:
  pairs:
    - {name: impact, surfaces: [weight_face, bar_start]}
boundary_conditions:
  - {region: bar_end, type: fixed}
EOF
run 1 "$work/pair.yaml"

box() {  # box FILE DIR BODY-KEYS [time keys]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.2, 0.3], cells: [2, 3, 4], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
rigid_bodies:
  - {name: box, region: all, $3}
time: {integrator: central_difference, mass: lumped, dt: 1.0e-4, end_time: ${4:-0.2}}
output: {directory: $2, every: 0, history_every: 10${5:-}}
EOF
}
for np in 1 2 3; do
  box "$work/spin$np.yaml" "$work/spin$np" "initial_angular_velocity: [3, 10, 2]"
  run "$np" "$work/spin$np.yaml"
done
grep -q "rigid     body 'box'" "$work/last.log" || fail "the box's mass line"
cp "$work/last.log" "$work/spin.log"
box "$work/spin_half.yaml" "$work/spin_half" "initial_angular_velocity: [3, 10, 2]" \
  "0.2, dt: 5.0e-5"
sed -i 's/dt: 1.0e-4, end_time: 0.2, dt: 5.0e-5/dt: 5.0e-5, end_time: 0.2/' "$work/spin_half.yaml"
sed -i 's/history_every: 10/history_every: 20/' "$work/spin_half.yaml"
run 1 "$work/spin_half.yaml"
# Restart: checkpoints every 500 steps on 2 ranks, continued on 3 from step 1000.
box "$work/restart.yaml" "$work/restart" "initial_angular_velocity: [3, 10, 2]" 0.2 \
  ", checkpoint: {every: 500, keep: 10}"
run 2 "$work/restart.yaml"
cp "$work/restart/rigid_bodies.csv" "$work/restart_full.csv"
run 3 "$work/restart.yaml" --restart "$work/restart/checkpoints/checkpoint_000001000.h5"
box "$work/driven.yaml" "$work/driven" "fixed: [x, y, z, rx, ry], velocity: {rz: 20}" 0.05
run 1 "$work/driven.yaml"
# Dropped spinning onto a floor wall under gravity (the box 1 mm above it).
box "$work/drop.yaml" "$work/drop" "initial_velocity: [0, 0, -2], initial_angular_velocity: [0, 5, 0]" 0.004
sed -i -e 's/lower: \[0, 0, 0\], upper: \[0.1, 0.2, 0.3\]/lower: [0, 0, 0.001], upper: [0.1, 0.2, 0.301]/' \
  -e 's/history_every: 10/history_every: 1/' -e 's/dt: 1.0e-4/dt: auto/' "$work/drop.yaml"
cat >> "$work/drop.yaml" <<EOF
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
gravity: {value: [0, 0, -9.81]}
EOF
run 2 "$work/drop.yaml"

# A rigid block (4 x 4 x 6 mm) through an eroding hencky + J2 plate (12 x 12 x 6 mm, failure
# at e_p 0.4) at 900 m/s, through a contact pair whose surfaces follow the erosion, dt: auto.
python3 "$INERTIA_SOURCE_DIR/tests/support/plate_projectile_msh.py" "$work/plate.msh" 0.001 12 6 4 \
  6 1.0e-5 2.5e-4
for np in 1 2; do
  cat > "$work/perforate$np.yaml" <<EOF
mesh: {file: $work/plate.msh}
materials:
  - {region: plate, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 4.0e8, isotropic_hardening: 1.0e9},
     failure: {equivalent_plastic_strain: 0.4}}
  - {region: projectile, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
rigid_bodies:
  - {name: projectile, region: projectile, initial_velocity: [0, 0, -900]}
contact:
  pairs:
    - {name: hit, surfaces: [projectile, plate]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 2.5e-5}
output: {directory: $work/perforate$np, every: 0, history_every: 5}
EOF
  run "$np" "$work/perforate$np.yaml"
done

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY' || failed=1
import math, re, sys
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed
work = sys.argv[1]

# Welded weight on a free bar.
rho, E, L, A, v0 = 1000.0, 1.0e8, 1.0, 0.05 * 0.05, 1.0
c = math.sqrt(E / rho)
Z, T = rho * c * A, 2 * L / c
M = 1.0e5 * 0.01 * A + rho * A * 0.01 / 2
runs = [read(f"{work}/welded{np}/rigid_bodies.csv") for np in (1, 2, 3)]
w = runs[0]
t, vx, px = w["time"], w["weight.vx"], w["model.px"]
worst = max(abs(v - v0 * math.exp(-Z * s / M)) / v0 for s, v in zip(t, vx) if s < 0.95 * T)
check("welded weight: velocity against v0 exp(-Z t / M) before 2L/c, of v0", worst, 0, 1e-2)
drift = max(abs(p - M * v0) for p in px) / (M * v0)
check("welded weight: the model's momentum against M v0 (relative)", drift, 0, 1e-12)
e = read(f"{work}/welded1/energy.csv")
balance = max(abs(x - e["total"][0]) for x in e["total"]) / e["total"][0]
# Central difference's O(dt^2) at 0.9 of the stable step: the same weight deformable (rho 1e5,
# E 1e8) gives 1.96e-3 (this 1.98e-3) by t = 0.006 s.
check("welded weight: energy balance's largest change over the initial energy", balance, 0, 2.5e-3)
for np, r in zip((2, 3), runs[1:]):
    d = max(abs(a - b) for a, b in zip(r["weight.vx"], vx))
    check(f"welded weight: rows of np {np} less np 1's", len(r["time"]) - len(t), 0, 0)
    check(f"welded weight: np {np} against np 1 (m/s)", d, 0, 1e-10)

# The weight through a contact pair, far end fixed.
p = read(f"{work}/pair/rigid_bodies.csv")
t, fx, vx = p["time"], p["weight.fx"], p["weight.vx"]
h = t[1] - t[0]
Mp = 1.0e5 * 0.01 * A
impulse = -sum(f * h for s, f in zip(t, fx) if s < T)
exact = Mp * v0 * (1 - math.exp(-Z * T / Mp))
check("contact pair: impulse before 2L/c over Saint-Venant's", impulse / exact, 0.98, 1.02)
alpha = Z / Mp
s_end = (1 + math.exp(-alpha * T) / 2) / alpha
v_end = v0 * math.exp(-alpha * s_end) * (math.exp(-alpha * T) - 2 * alpha * s_end)
# The penalty's give lengthens the contact (the same bar struck by a drop-weight wall: 1.028).
check("contact pair: rebound velocity over the exact", vx[-1] / v_end, 0.95, 1.08)
# Weight and bar exchange momentum through the pair to round-off until the wave reaches the
# fixed end (L / c: its dispersive precursor sooner), whose reaction then takes some.
drift = max(abs(q - Mp * v0) for s, q in zip(t, p["model.px"]) if s < 0.5 * L / c) / (Mp * v0)
check("contact pair: the model's momentum against M v0 before L/(2c) (relative)", drift, 0, 1e-12)

# The tumbling box.
m = 7850 * 0.1 * 0.2 * 0.3
J = [m * (0.2**2 + 0.3**2) / 12, m * (0.1**2 + 0.3**2) / 12, m * (0.1**2 + 0.2**2) / 12]
log = open(f"{work}/spin.log").read()
got = re.search(r"rigid     body 'box': mass (\S+) kg, centre \[(\S+), (\S+), (\S+)\] m, "
                r"inertia about it \[(\S+), (\S+), (\S+); (\S+), (\S+), (\S+)\]", log)
vals = [float(x) for x in got.groups()]
check("box: mass over rho V, less 1", abs(vals[0] / m - 1), 0, 1e-12)
check("box: centre against [0.05, 0.1, 0.15] (m)", max(abs(a - b) for a, b in zip(vals[1:4], [0.05, 0.1, 0.15])), 0, 1e-14)
errJ = max(abs(a - b) / J[0] for a, b in zip(vals[4:7], J))
check("box: inertia against m (b^2 + c^2) / 12 ... (relative)", errJ, 0, 1e-12)
check("box: products of inertia over J_xx", max(abs(x) for x in vals[7:10]) / J[0], 0, 1e-12)

def spin(path):
    s = read(path)
    L0 = [s[f"box.l{a}"][0] for a in "xyz"]
    n0 = math.sqrt(sum(x * x for x in L0))
    dL = max(math.sqrt(sum((s[f"box.l{a}"][k] - L0[i]) ** 2 for i, a in enumerate("xyz"))) / n0
             for k in range(len(s["time"])))
    E0 = s["box.kinetic"][0]
    dE = max(abs(e - E0) / E0 for e in s["box.kinetic"])
    return s, dL, dE

s1, dL, dE = spin(f"{work}/spin1/rigid_bodies.csv")
_, dL2, dE2 = spin(f"{work}/spin_half/rigid_bodies.csv")
check("tumbling box: largest change of L over |L| (dt 1e-4)", dL, 0, 1e-12)
check("tumbling box: largest change of L over |L| (dt 5e-5)", dL2, 0, 1e-12)
check("tumbling box: largest energy change (dt 1e-4), relative", dE, 0, 1e-4)
check("tumbling box: energy change at dt 5e-5 over dt 1e-4's (O(h^2): 1/4)", dE2 / dE, 0.2, 0.3)
e = read(f"{work}/spin1/energy.csv")
kin = [k for k in e["kinetic"]]
dK = max(abs(a - b) for a, b in zip(kin, s1["box.kinetic"])) / s1["box.kinetic"][0]
check("tumbling box: energy.csv's kinetic energy against the body's (relative)", dK, 0, 1e-12)
for np in (2, 3):
    r = read(f"{work}/spin{np}/rigid_bodies.csv")
    d = max(abs(r[f"box.w{a}"][k] - s1[f"box.w{a}"][k]) for a in "xyz" for k in range(len(r["time"])))
    check(f"tumbling box: rows of np {np} less np 1's", len(r["time"]) - len(s1["time"]), 0, 0)
    check(f"tumbling box: np {np} against np 1 (rad/s)", d, 0, 1e-9)
full, cont = read(f"{work}/restart_full.csv"), read(f"{work}/restart/rigid_bodies.csv")
d = max(abs(a - b) for col in ("box.wx", "box.wy", "box.rz", "box.kinetic")
        for a, b in zip(full[col], cont[col]))
check("tumbling box: rows of the restarted run less the whole run's", len(cont["time"]) - len(full["time"]), 0, 0)
check("tumbling box: restart 2 -> 3 ranks against the whole run", d, 0, 1e-9)

d = read(f"{work}/driven/rigid_bodies.csv")
dr = max(abs(rz - 20 * t) for t, rz in zip(d["time"], d["box.rz"]) if 20 * t < 3.0)
dw = max(abs(w - 20) for w in d["box.wz"])
check("driven box: rotation against 20 t (rad)", dr, 0, 1e-10)
check("driven box: angular velocity against 20 rad/s", dw, 0, 1e-12)
d = read(f"{work}/drop/rigid_bodies.csv")
w = read(f"{work}/drop/contact.csv")
t, uz, vz, fz = d["time"], d["box.uz"], d["box.vz"], d["box.fz"]
first = next(k for k, a in enumerate(w["floor.active"]) if a > 0)
fall = max(abs(uz[k] + 2 * t[k] + 0.5 * 9.81 * t[k] ** 2) for k in range(first))
check("dropped box: free fall before the contact against -v0 t - g t^2 / 2 (m)", fall, 0, 1e-14)
# Velocity Verlet: m (V_N - V_0) is the trapezoidal sum of the resultant (wall + weight).
impulse = sum(0.5 * (t[k + 1] - t[k]) * (fz[k] + fz[k + 1]) for k in range(len(t) - 1))
check("dropped box: m (vz_end - vz_0) against the resultant's impulse (relative)",
      abs(m * (vz[-1] - vz[0]) - impulse) / (m * abs(vz[0])), 0, 1e-12)
check("dropped box: vertical velocity after the bounce (m/s)", vz[-1], 0.5, 2.0)
check("dropped box: spin after the bounce, changed by the corner's impact (rad/s)",
      abs(d["box.wy"][-1] - 5), 1, 50)
runs = [(read(f"{work}/perforate{np}/rigid_bodies.csv"), read(f"{work}/perforate{np}/erosion.csv"))
        for np in (1, 2)]
r, e = runs[0]
p0 = r["model.pz"][0]
drift = max(abs(p + q - p0) for p, q in zip(r["model.pz"], e["eroded_momentum_z"])) / abs(p0)
check("rigid projectile: momentum of the model and the eroded cells (relative)", drift, 0, 1e-13)
check("rigid projectile: cells eroded", e["cells"][-1], 50, 400)
check("rigid projectile: residual velocity (m/s)", r["projectile.vz"][-1], -800, -100)
# The body's force is a sum over ranks (its order differs with their count): np 2 agrees with
# np 1 to round-off until cells erode; an erosion is a threshold, which round-off may move by a
# step, so after it the runs agree as perforations do, not bit for bit.
first = next(k for k, n in enumerate(e["cells"]) if n > 0)
before = max(abs(a - b) for a, b in zip(runs[1][0]["projectile.vz"][:first], r["projectile.vz"][:first]))
check("rigid projectile: np 2 against np 1 before the first erosion (m/s)", before, 0, 1e-9)
check("rigid projectile: np 2 against np 1, residual velocity (relative)",
      abs(runs[1][0]["projectile.vz"][-1] / r["projectile.vz"][-1] - 1), 0, 0.01)
sys.exit(0 if passed() else 1)
PY

# Bad input: one error line each.
box "$work/bad.yaml" "$work/bad" "initial_angular_velocity: [0, 0, 1]"
sed -i 's/central_difference/newmark/' "$work/bad.yaml"
expect_error "rigid body 'box'.*need time.integrator: central_difference" 2 "$work/bad.yaml"
box "$work/bad.yaml" "$work/bad" "fixed: [x, q]"
expect_error "bad.yaml:5: rigid_bodies\[0\].fixed\[1\]: unknown value 'q'" 1 "$work/bad.yaml"
box "$work/bad.yaml" "$work/bad" "fixed: [rz], velocity: {rz: 1}"
expect_error "'rz' is also in 'fixed'" 1 "$work/bad.yaml"
box "$work/bad.yaml" "$work/bad" "initial_velocty: [0, 0, 1]"
expect_error "unknown key 'initial_velocty'" 3 "$work/bad.yaml"
box "$work/bad.yaml" "$work/bad" "fixed: [x]"
printf 'boundary_conditions:\n  - {region: xmin, type: fixed}\n' >> "$work/bad.yaml"
expect_error "region 'xmin' of a boundary condition shares nodes with the body" 3 "$work/bad.yaml"
weight "$work/bad.yaml" "$work/bad" rigid_bar.msh
sed -i '/region: weight, density/d' "$work/bad.yaml"
expect_error "volume region 'weight' has no material" 2 "$work/bad.yaml"
finish
