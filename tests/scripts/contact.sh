#!/usr/bin/env bash
# Rigid walls (examples/guide/contact_walls.md), checked against exact answers:
# - a bar (L = 1 m, c = sqrt(E / rho) = 316.2 m/s, nu = 0, 100 hex8) hits a rigid plane at
#   v0 = 1 m/s (central difference, lumped mass, the default penalty): the wall force peaks at
#   rho c v0 A (790.57 N) and lasts 2 L / c (6.325 ms); the impulse of the wall force is 2 m v0
#   (the bar leaves at +v0: central difference conserves momentum exactly, so the impulse summed
#   from contact.csv is m Delta v) and the energy stays in the bar. Measured: peak 1.038, duration
#   1.018, impulse 0.99977, kinetic + strain after 1.0007 of the initial kinetic energy (the
#   penalty's error; penalty_scale 0.1 gives 0.9999, 1.18, 0.9944: a softer wall);
# - contact.csv agrees between 1, 2 and 3 ranks and with operator: matrix_free to 1e-8 of the peak
#   force, and after a restart
#   from a checkpoint taken in contact (2 ranks -> 3);
# - a block pressed onto a rigid floor by a pressure (static, Newton): the floor carries exactly
#   the applied load at every load step, and the penetration shrinks as the penalty grows;
# - a moving wall pressing the block (static: the closed-form force to 1e-9; in time: the energy
#   balance closes with the wall's work booked, central difference, newmark, hht);
# - the press with augmented Lagrangian iterations to 1e-9 m: the force without the penalty's
#   compliance (E A delta / H) to 1e-5 (measured 5.5e-7), penetration below the tolerance, equal on
#   1 and 3 ranks and after a restart from a checkpoint (1 rank -> 3: the multipliers restored;
#   without them the rows differ by 1e-6 of the force);
# - a rigid sphere and a rigid cylinder pushed into a block's top face (static): the wall force
#   is the applied load;
# - bad input: a wall that starts inside the body (its region a face or a volume), two shapes,
#   an unknown key, augmented iterations under an explicit scheme or with a fractional count:
#   one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

bar() {  # bar FILE DIR [contact keys]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.05, 0.05], cells: [100, 1, 1], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  ${3:-}
  walls:
    - {name: wall, region: xmin, plane: {point: [0, 0, 0], normal: [1, 0, 0]}}
initial_conditions:
  velocity: [-1, 0, 0]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.012}
output: {directory: $2, every: 0, history_every: 1}
EOF
}

# The bar on 1, 2 and 3 ranks, and matrix-free on 2 (the walls' forces added node by node to
# either operator's step).
for np in 1 2 3; do
  bar "$work/bar$np.yaml" "out$np"
  run "$np" "$work/bar$np.yaml"
done
bar "$work/barmf.yaml" outmf
sed -i 's/mass: lumped,/mass: lumped, operator: matrix_free,/' "$work/barmf.yaml"
run 2 "$work/barmf.yaml"
python3 - "$work" <<'EOF'
import csv, math, sys
work = sys.argv[1]
def table(path):
    rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith("#")]
    return rows[0], [[float(x) for x in r] for r in rows[1:]]
rho, E, L, A, v0 = 1000.0, 1.0e8, 1.0, 0.05 * 0.05, 1.0
c = math.sqrt(E / rho)
h, d = table(f"{work}/out1/contact.csv")
t = [r[1] for r in d]
fx = [r[h.index("wall.fx")] for r in d]
dt = t[1] - t[0]
on = [i for i, f in enumerate(fx) if f > 0]
peak = max(fx) / (rho * c * v0 * A)
# First and last step with a force, each widened by half a step.
duration = (t[on[-1]] - t[on[0]] + dt) / (2 * L / c)
impulse = sum(fx) * dt / (2 * rho * L * A * v0)
eh, e = table(f"{work}/out1/energy.csv")
after = (e[-1][eh.index("kinetic")] + e[-1][eh.index("strain")]) / e[0][eh.index("kinetic")]
print(f"bar on a rigid wall: peak force {peak:.4f} x rho c v0 A, contact time {duration:.4f} x 2L/c, "
      f"impulse {impulse:.5f} x 2 m v0, energy after {after:.5f} x before")
ok = abs(peak - 1) < 0.05 and abs(duration - 1) < 0.05 and abs(impulse - 1) < 1e-3 and abs(after - 1) < 2e-3
if fx[-1] != 0:
    print("FAIL: the bar is still in contact at the end"); ok = False
for np in (2, 3, "mf"):
    h2, d2 = table(f"{work}/out{np}/contact.csv")
    diff = max(abs(a - b) for r, s in zip(d, d2) for a, b in zip(r, s))
    what = "matrix-free on 2 ranks" if np == "mf" else f"np {np}"
    print(f"{what} against np 1: largest difference {diff:.3g} N ({diff / max(fx):.3g} of the peak)")
    if len(d2) != len(d) or diff > 1e-8 * max(fx):
        ok = False
if not ok:
    print("FAIL: bar impact"); sys.exit(1)
EOF

# Restart with a wall in contact: the bar checkpointed at step 100 (in contact since step 1) and
# continued on 3 ranks from a 2-rank checkpoint rewrites the same contact.csv rows.
bar "$work/barc.yaml" outc
sed -i 's/history_every: 1}/history_every: 1, checkpoint: {every: 100, keep: 10}}/' "$work/barc.yaml"
run 2 "$work/barc.yaml"
cp "$work/outc/contact.csv" "$work/contact_full.csv"
run 3 "$work/barc.yaml" --restart "$work/outc/checkpoints/checkpoint_000000100.h5"
python3 - "$work" <<'EOF2'
import sys
work = sys.argv[1]
full = [l for l in open(f"{work}/contact_full.csv") if not l.startswith("#")]
again = [l for l in open(f"{work}/outc/contact.csv") if not l.startswith("#")]
rows = lambda ls: [[float(x) for x in l.split(",")] for l in ls[1:]]
a, b = rows(full), rows(again)
diff = max(abs(x - y) for r, q in zip(a, b) for x, y in zip(r, q))
print(f"restart at step 100 (2 ranks -> 3): {len(b)} rows, largest difference {diff:.3g} N")
if len(a) != len(b) or diff > 1e-8 * max(r[2] for r in a):
    print("FAIL: restart with contact"); sys.exit(1)
EOF2

# A block pressed onto the floor (static): the floor carries the load; a stiffer penalty, less
# penetration.
block() {  # block FILE DIR WALL-LINE [contact keys]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.05], cells: [4, 4, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: zmax, type: pressure, value: 1.0e4}
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
contact:
  ${4:-}
  walls:
    - $3
time: {integrator: static, dt: 1, steps: 2}
output: {directory: $2, every: 0}
EOF
}
floor="{name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}"
for np in 1 3; do
  block "$work/block$np.yaml" "block$np" "$floor"
  run "$np" "$work/block$np.yaml"
done
block "$work/soft.yaml" soft "$floor" "penalty_scale: 1"
run 2 "$work/soft.yaml"
# A rigid sphere and a rigid cylinder above the block's top face, which a force pushes up into
# them (nothing else holds the block vertically): the walls carry the whole force.
cat > "$work/ball.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.05], cells: [6, 6, 3], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmax, type: force, value: [0, 0, 20]}
contact:
  walls:
    - {name: ball, region: zmax, sphere: {center: [0.05, 0.05, 0.1], radius: 0.05}}
    - {name: pin, region: zmax, cylinder: {point: [0.05, 0.05, 0.08], axis: [1, 0, 0], radius: 0.03}}
time: {integrator: static, dt: 1, steps: 1}
output: {directory: ball, every: 0}
EOF
run 2 "$work/ball.yaml"
python3 - "$work" <<'EOF'
import csv, sys
work = sys.argv[1]
def last(path):
    rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith("#")]
    return dict(zip(rows[0], map(float, rows[-1]))), [dict(zip(rows[0], map(float, r))) for r in rows[1:]]
ok = True
for np in (1, 3):
    _, rows = last(f"{work}/block{np}/contact.csv")
    for r in rows[1:]:
        load = 1.0e4 * 0.01 * r["time"] / 2  # the static ramp
        err = abs(r["floor.fz"] - load) / load
        print(f"block, np {np}, t = {r['time']}: floor force {r['floor.fz']:.12g} N, load {load} N "
              f"({err:.2g}), {int(r['floor.active'])} nodes, penetration {r['floor.penetration']:.3g} m")
        ok = ok and err < 1e-9 and r["floor.active"] == 25 and abs(r["floor.fx"]) < 1e-9
stiff, _ = last(f"{work}/block1/contact.csv")
soft, _ = last(f"{work}/soft/contact.csv")
ratio = soft["floor.penetration"] / stiff["floor.penetration"]
print(f"penetration with penalty_scale 1 / the default (10): {ratio:.4f}")
ok = ok and abs(ratio - 10) < 0.1
ball, _ = last(f"{work}/ball/contact.csv")
# The walls push back down with the whole 20 N.
total = ball["ball.fz"] + ball["pin.fz"]
print(f"sphere and cylinder on the top face: {ball['ball.fz']:.6g} + {ball['pin.fz']:.6g} = {total:.9g} N "
      f"(load 20 N; {int(ball['ball.active'])} and {int(ball['pin.active'])} nodes)")
ok = ok and abs(total + 20) < 1e-6 and ball["ball.active"] > 0 and ball["pin.active"] > 0
if not ok:
    print("FAIL: static contact"); sys.exit(1)
EOF

# A moving wall presses the block onto the floor (both walls with a penalty per area, so that the
# block stays in uniform uniaxial compression): static, the force is E A (delta - 2 p / penalty) / H
# with p the contact pressure, sigma = E delta / H / (1 + 2 E / (penalty H)), on both walls; the
# energy balance books the moving wall's work. The same press in time (a smooth step):
# central difference, newmark and hht close their energy balance.
press() {  # press FILE DIR INTEGRATOR DT STEPS-OR-END [amplitude]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.05], cells: [4, 4, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
amplitudes:
  push: {type: smooth_step, points: [[0, 0], [0.01, 1]], continuity: 2}
contact:
  ${7:-}
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}, penalty: 1.0e10}
    - {name: press, region: zmax, plane: {point: [0, 0, 0.05], normal: [0, 0, -1]}, penalty: 1.0e10, motion: {displacement: [0, 0, -0.001]${6:-}}}
time: {integrator: $3, mass: lumped, dt: $4, $5}
output: {directory: $2, every: 0, history_every: ${8:-10}${9:-}}
EOF
}
for np in 1 2; do
  press "$work/press$np.yaml" "press$np" static 1 "steps: 2"
  run "$np" "$work/press$np.yaml"
done
# Augmented Lagrangian iterations: the same press closes both contacts to 1e-9 m, so the force
# is E A delta / H (the penalty's 4 % gone); 4 load steps, checkpointed at each, restarted from
# the second on 3 ranks (the multipliers are part of the checkpoint).
al="augmented: {tolerance: 1.0e-9}"
press "$work/pal.yaml" pal static 0.25 "steps: 4" "" "$al" 1 ", checkpoint: {every: 1, keep: 4}"
run 1 "$work/pal.yaml"
grep -q "^contact   rigid wall 'floor' .*augmented Lagrangian to 1e-09 m" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the augmented wall's log line"; exit 1; }
grep -q "^finished: .*'floor' multipliers updated [1-9][0-9]* time" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the multiplier updates in the summary"; exit 1; }
cp "$work/pal/contact.csv" "$work/pal_full.csv"
run 3 "$work/pal.yaml" --restart "$work/pal/checkpoints/checkpoint_000000002.h5"
press "$work/pal3.yaml" pal3 static 0.25 "steps: 4" "" "$al" 1
run 3 "$work/pal3.yaml"
press "$work/pdal.yaml" pdal newmark 2.0e-5 "end_time: 0.02" ", amplitude: push" "$al"
run 2 "$work/pdal.yaml"
for scheme in central_difference newmark hht; do
  dt=2.0e-5
  [ "$scheme" = central_difference ] && dt=auto
  press "$work/pd_$scheme.yaml" "pd_$scheme" "$scheme" "$dt" "end_time: 0.02" ", amplitude: push"
  run 2 "$work/pd_$scheme.yaml"
done
python3 - "$work" <<'EOF'
import csv, sys
work = sys.argv[1]
def rows(path):
    r = [x for x in csv.reader(open(path)) if x and not x[0].startswith("#")]
    return [dict(zip(r[0], map(float, x))) for x in r[1:]]
E, H, kp, d, A = 1.0e7, 0.05, 1.0e10, 0.001, 0.01
ok = True
for np in (1, 2):
    for r in rows(f"{work}/press{np}/contact.csv")[1:]:
        exact = E * d * r["time"] / 2 / H / (1 + 2 * E / (kp * H)) * A
        err = max(abs(r["floor.fz"] - exact), abs(r["press.fz"] + exact)) / exact
        print(f"press, np {np}, t = {r['time']}: floor {r['floor.fz']:.12g} N, press {r['press.fz']:.12g} N, "
              f"exact {exact:.12g} N ({err:.2g})")
        ok = ok and err < 1e-9
    e = rows(f"{work}/press{np}/energy.csv")[-1]
    print(f"  energy balance {e['total']:.3g} J of work {e['external_work']:.6g} J")
    ok = ok and abs(e["total"]) < 1e-9 * e["external_work"]
# Augmented: the force without the penalty's compliance, to the tolerance (1e-9 m of 1e-3 m).
full, resumed, three = (rows(f"{work}/{x}") for x in ("pal_full.csv", "pal/contact.csv", "pal3/contact.csv"))
for r in full[1:]:
    exact = E * d * r["time"] / H * A  # the static ramp over t = 0 to 1
    err = max(abs(r["floor.fz"] - exact), abs(r["press.fz"] + exact)) / exact
    print(f"press, augmented, t = {r['time']}: floor {r['floor.fz']:.12g} N, exact {exact:.12g} N "
          f"({err:.2g}), penetration {r['floor.penetration']:.3g} m")
    ok = ok and err < 1e-5 and r["floor.penetration"] < 1.0e-9
diff = max(abs(a[k] - b[k]) for x, y in ((full, resumed), (full, three)) for a, b in zip(x, y)
           for k in ("floor.fz", "press.fz")) / (E * d / H * A)
print(f"press, augmented: restart at step 2 (1 rank -> 3) and 3 ranks against 1: {diff:.3g} of the force")
ok = ok and len(resumed) == len(full) == len(three) == 5 and diff < 1e-8
# In time (newmark): no node deeper than the tolerance at any step (the penalty alone: 1.9e-5 m),
# and the balance closes with the multipliers' force in the press's work.
deepest = max(max(r["floor.penetration"], r["press.penetration"]) for r in rows(f"{work}/pdal/contact.csv"))
e = rows(f"{work}/pdal/energy.csv")[-1]
print(f"press in time, newmark, augmented: deepest penetration {deepest:.3g} m, balance "
      f"{e['total']:.3g} J of work {e['external_work']:.6g} J")
ok = ok and deepest < 1.0e-9 and abs(e["total"]) < 1e-6 * e["external_work"]
for scheme, bound in (("central_difference", 1e-5), ("newmark", 1e-9), ("hht", 1e-9)):
    e = rows(f"{work}/pd_{scheme}/energy.csv")
    worst = max(abs(r["total"]) for r in e)
    print(f"press in time, {scheme}: work {e[-1]['external_work']:.6g} J, largest |balance| {worst:.3g} J")
    ok = ok and e[-1]["external_work"] > 0.1 and worst < bound * e[-1]["external_work"]
if not ok:
    print("FAIL: moving wall"); sys.exit(1)
EOF

# Bad input: one line each.
press "$work/bad.yaml" bad central_difference auto "end_time: 0.02" "" "augmented: {tolerance: 1.0e-9}"
expect_error "bad.yaml:.*contact.augmented: augmented Lagrangian iterations need an implicit scheme or static" 2 "$work/bad.yaml"
press "$work/bad.yaml" bad static 1 "steps: 1" "" "augmented: {iterations: 2.5}"
expect_error "bad.yaml:.*contact.augmented.iterations: must be an integer in \[1, 1000\]" 1 "$work/bad.yaml"
# A volume region means its skin (tests/scripts/contact_parts.sh): checked as its faces are.
block "$work/bad.yaml" bad "{name: floor, region: all, plane: {point: [0, 0, 0.02], normal: [0, 0, 1]}}"
expect_error "bad.yaml:.*wall 'floor' starts inside the body: 25 node(s) of region 'all' behind it" 2 "$work/bad.yaml"
block "$work/bad.yaml" bad "{name: floor, region: zmin, plane: {point: [0, 0, 0.02], normal: [0, 0, 1]}}"
expect_error "bad.yaml:.*wall 'floor' starts inside the body: 25 node(s) of region 'zmin' behind it" 3 "$work/bad.yaml"
block "$work/bad.yaml" bad "{name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}, sphere: {center: [0, 0, 0], radius: 1}}"
expect_error "bad.yaml:.*contact.walls\[0\]: give exactly one of 'plane', 'sphere' or 'cylinder'" 1 "$work/bad.yaml"
block "$work/bad.yaml" bad "{name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 0]}}"
expect_error "bad.yaml:.*contact.walls\[0\].plane.normal: must be a non-zero vector" 1 "$work/bad.yaml"
block "$work/bad.yaml" bad "$floor" "penalty_scal: 2"
expect_error "bad.yaml:.*contact: unknown key 'penalty_scal' (did you mean 'penalty_scale'?)" 2 "$work/bad.yaml"
block "$work/bad.yaml" bad "{name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}, motion: {displacement: [0, 0, 1], amplitude: nope}}"
expect_error "bad.yaml:.*contact.walls\[0\].motion.amplitude: unknown amplitude 'nope'" 3 "$work/bad.yaml"
finish
