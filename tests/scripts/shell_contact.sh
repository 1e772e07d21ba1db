#!/usr/bin/env bash
# Shells in contact (examples/guide/contact_pairs.md, "Shells"): a shell's faces are its
# mid-surface with both sides and half its thickness, so contact starts where another surface
# comes within that of it.
# - A plate (t 10 mm) falling at 1 m/s onto a plane wall 20 mm below its mid-surface: the first
#   wall force in the step where it has fallen 15 mm (not 20), the plate thrown back; a wall closer
#   than t / 2 is refused as starting inside.
# - The same plate under generalized-alpha (implicit, np 2), 0.5 mm above that distance: it flies
#   at 1 m/s, its residual at round-off from the first step (the unknown, the acceleration, is
#   zero: the round-off floor's probe takes 1e-8 of the displacement, not of the acceleration,
#   which stalled every step before), touches at 0.5 ms and is thrown back.
# - The plate resting on a wall t / 2 below its mid-surface, pressed (static, Newton): the wall
#   carries the load, np 1 and 3.
# - The same, held by an augmented Lagrangian to 1e-9 m: the wall's penetration at most that (the
#   multipliers' update had measured the gap from the nodes, not from the shells' surface, and
#   left the penalty's 4e-8 m).
# - The plate resting on the wall, pressed (1e5 Pa) and pulled along x (2e4 Pa) suddenly, with
#   friction 0.3 (explicit): it sticks, the wall's friction force is -0.2 of its normal force at
#   every row (the friction's commit had measured the gap from the nodes too: the sticking force
#   was dropped every step and the run blew up in 31 steps).
# - The same pressed and pulled plate static (Newton), free along x but for the friction: held
#   (the wall's friction force -0.2 of its normal force), np 1 and 2; Newton's first iteration had
#   nothing holding x (the sticking spring of nodes exactly touching left out), and the run died
#   in MUMPS. Without friction it cannot be held: one error line, naming a singular tangent or,
#   where the factorisation's round-off hid the singularity, the displacement's blow-up (1e9 m);
#   not "Cannot embed PCPreSolve() more than twice" (the old object left mid-solve by errors).
# - Offsets (walls): the plate with its nodes on its top surface (offset t / 2) and the wall 5 mm
#   lower, or on its bottom surface (-t / 2) and the wall 5 mm higher, falls as the plain plate
#   does: the same wall force at every step (dt given, so that the steps meet the wall alike);
#   with the nodes on the bottom surface a wall 4 mm below them is 4 mm away (the plain plate is
#   refused there as starting inside). Pairs: the upper plate below with its nodes 6 mm above
#   its mid-surface touches 2 ms (1,000 steps) earlier and then with the plain pair's forces,
#   step for step to 1e-4 (np 2; the offset couples the plate's membrane and bending, so it is
#   not the same structure); `initial_penetration: move` on offset shells: one error line.
# - A plate (t 20 mm) falling at 3 m/s onto a larger one (t 10 mm) 30 mm below, meshed apart: the
#   first contact after 15 mm (t1 / 2 + t2 / 2); the same plate coming from below gives the same
#   forces (both sides); np 1, 2 and 3 agree.
# - The lower plate (t 10 mm) thrown at 5 m/s onto a solid block 60 mm below: contact after 55 mm.
# - A U-shaped strip of shells (t 0.5 mm, legs 4.5 mm apart) whose legs are thrown at each other
#   (self-contact, corotational): no force while the legs are farther apart than t, then the
#   mid-surfaces t less the penetration apart, the legs thrown back; np 1 and 2 agree.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
meshes=$INERTIA_SOURCE_DIR/meshes

wall() {  # wall FILE DIR WALL_Z [TIME [OFFSET]]
  cat > "$1" <<EOF
mesh: {file: $meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01, offset: ${5:-0}}
contact:
  walls:
    - {name: floor, region: plate, plane: {point: [0, 0, $3], normal: [0, 0, 1]}}
initial_conditions:
  velocity: [0, 0, -1]
time: ${4:-{integrator: central_difference, dt: auto, end_time: 0.02\}}
output: {directory: $2, every: 0, history_every: 1,
         probes: [{name: c, point: [0.5, 0.5, 0], fields: [velocity]}]}
EOF
}
rest() {  # rest FILE DIR [CONTACT-LINE]: the plate on the wall t / 2 below it, pressed by 1e5 Pa
  cat > "$1" <<EOF
mesh: {file: $meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01}
boundary_conditions:
  - {region: plate, type: fixed, components: [x, y, rz]}
  - {region: plate, type: pressure, value: 1.0e5}
contact:
  ${3:-penalty_scale: 10}
  walls:
    - {name: floor, region: plate, plane: {point: [0, 0, -0.005], normal: [0, 0, 1]}}
time: {integrator: static, dt: 1, steps: 2}
output: {directory: $2, every: 0, history_every: 1}
EOF
}
pulled() {  # pulled FILE DIR [FRICTION-TEXT [TIME]]: the plate on the wall, pressed and pulled along x
  cat > "$1" <<EOF
mesh: {file: $meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01}
boundary_conditions:
  - {region: plate, type: fixed, components: [y, rz]}
  - {region: plate, type: pressure, value: 1.0e5}
  - {region: plate, type: traction, value: [2.0e4, 0, 0]}
contact:
  walls:
    - {name: floor, region: plate, plane: {point: [0, 0, -0.005], normal: [0, 0, 1]}${3-, friction: 0.3}}
time: ${4:-{integrator: central_difference, mass: lumped, dt: auto, end_time: 0.01\}}
output: {directory: $2, every: 0, history_every: 5,
         probes: [{name: c, point: [0.5, 0.5, 0], fields: [displacement]}]}
EOF
}
plates() {  # plates FILE DIR MOVING VELOCITY_Z PAIR_OTHER END
  cat > "$1" <<EOF
mesh: {file: $meshes/shell_contact.msh}
materials:
  - {region: lower, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
$( [ "$3" = lower ] || echo "  - {region: $3, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}" )
  - {region: block, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
shells:
  - {region: lower, thickness: 0.01}
$( [ "$3" = lower ] || echo "  - {region: $3, thickness: 0.02}" )
contact:
  pairs:
    - {name: hit, surfaces: [$5, lower]}
initial_conditions:
  velocity:
    - {region: $3, velocity: [0, 0, $4]}
time: {integrator: central_difference, mass: lumped, dt: 2.0e-6, end_time: $6}
output: {directory: $2, every: 0, history_every: 1}
EOF
}
strip() {  # strip FILE DIR
  cat > "$1" <<EOF
mesh: {file: $meshes/shell_u_strip.msh}
materials:
  - {region: strip, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
shells:
  - {region: strip, thickness: 0.0005, kinematics: corotational}
contact:
  pairs:
    - {name: fold, surfaces: [strip]}
initial_conditions:
  velocity:
    - {region: leg1, velocity: [0, -4, 0]}
    - {region: leg2, velocity: [0, 4, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-3}
output:
  directory: $2
  every: 0
  history_every: 1
  probes:
    - {name: tip1, point: [0.02, 0.00225, 0.0025], fields: [velocity]}
    - {name: tip2, point: [0.02, -0.00225, 0.0025], fields: [velocity]}
    - {name: a1, point: [0.005, 0.00225, 0], fields: [displacement]}
    - {name: a2, point: [0.005, -0.00225, 0], fields: [displacement]}
EOF
}

cd "$work"
wall wall.yaml wall -0.02
run 2 wall.yaml
wall implicit.yaml implicit -0.0055 "{integrator: generalized_alpha, generalized_alpha: {rho_infinity: 0.3}, dt: 5.0e-6, end_time: 0.002}"
run 2 implicit.yaml
hasnt "$work/last.log" retry
fixed="{integrator: central_difference, dt: 1.6e-5, end_time: 0.02}"
wall plain.yaml plain -0.02 "$fixed"
run 1 plain.yaml
wall top.yaml top -0.025 "$fixed" 0.005
run 2 top.yaml
wall bottom.yaml bottom -0.015 "$fixed" -0.005
run 1 bottom.yaml
wall near.yaml near -0.004 "{integrator: central_difference, dt: auto, end_time: 0.001}" -0.005
run 1 near.yaml
wall inside.yaml inside -0.004
for np in 1 3; do
  rest "rest$np.yaml" "rest$np"
  run $np "rest$np.yaml"
done
rest augmented.yaml augmented "augmented: {tolerance: 1.0e-9, iterations: 20}"
run 1 augmented.yaml
pulled pulled.yaml pulled
run 2 pulled.yaml
for np in 1 2; do
  pulled "pulled_static$np.yaml" "pulled_static$np" ", friction: 0.3" "{integrator: static, dt: 1, steps: 3}"
  run $np "pulled_static$np.yaml"
  pulled "free$np.yaml" "free$np" "" "{integrator: static, dt: 1, steps: 3}"
  expect_error "a singular tangent\|the solution blows up: the largest displacement" $np "free$np.yaml"
  grep -q "PCPreSolve" "$work/err" && fail "np $np: the singular tangent's error names PCPreSolve"
done
expect_error "wall 'floor' starts inside the body: 81 node(s) of region 'plate' behind it or closer to it than half their shells' thickness" 1 inside.yaml
plates offset_pair.yaml offset_pair upper -3 upper 0.006
sed -i 's/{region: upper, thickness: 0.02}/{region: upper, thickness: 0.02, offset: 0.006}/' offset_pair.yaml
run 2 offset_pair.yaml
sed -e 's/{name: hit, surfaces: \[upper, lower\]}/{name: hit, surfaces: [upper, lower], initial_penetration: move}/' offset_pair.yaml > offset_move.yaml
expect_error "initial_penetration: move on shells with an offset is not built" 1 offset_move.yaml
for np in 1 2 3; do
  plates "above$np.yaml" "above$np" upper -3 upper 0.008
  run $np "above$np.yaml"
done
plates below.yaml below below 3 below 0.008
run 1 below.yaml
plates solid.yaml solid lower -5 block 0.014
run 2 solid.yaml
for np in 1 2; do
  strip "strip$np.yaml" "strip$np"
  run $np "strip$np.yaml"
done
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed

def first_contact(c, name):
    i = next(i for i, f in enumerate(c[f"{name}.normal"]) if f > 0)
    return c["time"][i - 1], c["time"][i], i

# The wall: the mid-surface reaches t / 2 above it after 15 mm at 1 m/s.
c, e, p = read(f"{work}/wall/contact.csv"), read(f"{work}/wall/energy.csv"), read(f"{work}/wall/probes.csv")
before, at, _ = first_contact(c, "floor")
check("wall: the step of the first force starts at or before 0.015 s (s)", before, 0, 0.015)
check("wall: and ends at or after it (s)", at, 0.015, 0.02)
check("wall: the plate thrown back (vz at the end, m/s)", p["c.vz"][-1], 0.99, 1.0)
check("wall: energy at the end / initial", e["total"][-1] / e["total"][0], 0.995, 1.0)

# Implicit: free flight at 1 m/s, then the wall 0.5 mm below the lower surface.
c, p = read(f"{work}/implicit/contact.csv"), read(f"{work}/implicit/probes.csv")
before, at, i = first_contact(c, "floor")
check("implicit: the step of the first force starts at or before 0.5 ms (s)", before, 0, 5e-4)
check("implicit: and ends at or after it (s)", at, 5e-4, 5.05e-4)
check("implicit: free flight, largest |vz + 1| before the contact (m/s)",
      max(abs(v + 1) for v in p["c.vz"][:i]), 0, 1e-9)
check("implicit: the plate thrown back (vz at the end, m/s; generalized-alpha's dissipation)",
      p["c.vz"][-1], 0.85, 1.0)

# Offsets: the same wall force at every step as the plain plate's, the wall moved by the offset.
c = read(f"{work}/plain/contact.csv")
peak = max(c["floor.normal"])
for case in ("top", "bottom"):
    o = read(f"{work}/{case}/contact.csv")
    check(f"offset ({case} surface): largest wall force difference from the plain plate's / peak",
          largest_difference(c, o, ("floor.normal", "floor.fz")) / peak, 0, 1e-9)
check("offset: the plain plate touches in the step ending after 0.015 s (s)", first_contact(c, "floor")[1], 0.015, 0.015 + 1.6e-5)
n = read(f"{work}/near/contact.csv")
check("offset (bottom surface), the wall 4 mm below the nodes: no force in 1 ms (N)", max(n["floor.normal"]), 0, 0)

# Static (Newton): the plate resting on the wall t / 2 below its mid-surface carries the load.
for np in (1, 3):
    r = read(f"{work}/rest{np}/contact.csv")
    check(f"static, np {np}: wall force / (pressure x area) at the ramp's end", r["floor.normal"][-1] / 1e5, 1 - 1e-9, 1 + 1e-9)
    check(f"static, np {np}: penetration (m)", r["floor.penetration"][-1], 0, 1e-7)

r = read(f"{work}/augmented/contact.csv")
check("static, augmented to 1e-9 m: penetration (m)", r["floor.penetration"][-1], 0, 1e-9)
check("static, augmented: wall force / (pressure x area)", r["floor.normal"][-1] / 1e5, 1 - 1e-9, 1 + 1e-9)
r, p = read(f"{work}/pulled/contact.csv"), read(f"{work}/pulled/probes.csv")
peak = max(r["floor.normal"])
check("pulled, friction 0.3: the normal force's peak / (pressure x area)", peak / 1e5, 1, 2.5)
check("pulled: sticking, largest |fx + 0.2 normal| / peak",
      max(abs(fx + 0.2 * n) for fx, n in zip(r["floor.fx"], r["floor.normal"])) / peak, 0, 1e-6)
check("pulled: sticking, largest |ux| (m)", max(abs(u) for u in p["c.ux"]), 0, 1e-6)
for np in (1, 2):
    r = read(f"{work}/pulled_static{np}/contact.csv")
    check(f"pulled, static, np {np}: friction / normal force at the end", r["floor.fx"][-1] / r["floor.normal"][-1], -0.2 - 1e-9, -0.2 + 1e-9)
    check(f"pulled, static, np {np}: normal force / (pressure x area)", r["floor.normal"][-1] / 1e5, 1 - 1e-9, 1 + 1e-9)

# Plate on plate, from above and from below: contact after 15 mm at 3 m/s.
a1 = read(f"{work}/above1/contact.csv")
before, at, _ = first_contact(a1, "hit")
check("plates: first contact's step starts at or before 0.005 s (s)", before, 0, 0.005)
check("plates: and ends at or after it (s)", at, 0.005, 0.006)
peak = max(a1["hit.normal"])
check("plates: peak contact force (N)", peak, 1e4, 1e8)
e = read(f"{work}/above1/energy.csv")
check("plates: energy at the end / initial", e["total"][-1] / e["total"][0], 0.99, 1.003)
for np in (2, 3):
    o = read(f"{work}/above{np}/contact.csv")
    check(f"plates: np {np} against np 1, largest force difference / peak",
          largest_difference(a1, o, ("hit.normal", "hit.fz")) / peak, 0, 1e-9)
b = read(f"{work}/below/contact.csv")
o = read(f"{work}/offset_pair/contact.csv")
shifted = {k: v[1000:1000 + len(o["time"])] for k, v in a1.items()}
# Not to round-off: the offset plate is another structure (its membrane and bending coupled by
# the offset), and the lower plate bends under it: 1.2e-5 of the peak (8.9e-6 with the shift
# not turned with the nodes).
check("plates, the upper's nodes 6 mm above its mid-surface: its forces are the plain pair's 1,000 steps (2 ms) later, largest difference / peak",
      largest_difference(o, shifted, ("hit.normal", "hit.fz")) / peak, 0, 1e-4)
before, at, _ = first_contact(o, "hit")
check("plates, offset: the first contact's step ends 2 ms before the plain pair's (s)", at, 0.003, 0.003 + 2e-6)
check("plates, offset: contact in the first 3 ms (N)", max(o["hit.normal"]), 1e4, 1e8)
check("plates: from below against from above, largest normal force difference / peak",
      largest_difference(a1, b, ("hit.normal",)) / peak, 0, 1e-9)
check("plates: from below, the force on the moving plate points down (fz at the peak, N)",
      b["hit.fz"][b["hit.normal"].index(max(b["hit.normal"]))], -1e9, -1e4)

# Shell against solid: the plate's mid-surface t / 2 above the block's top after 55 mm at 5 m/s.
s = read(f"{work}/solid/contact.csv")
before, at, _ = first_contact(s, "hit")
check("shell on solid: first contact's step starts at or before 0.011 s (s)", before, 0, 0.011)
check("shell on solid: and ends at or after it (s)", at, 0.011, 0.012)

# The U strip: mid-surfaces t = 0.5 mm apart where the legs first touch (near their root).
c, e, p = (read(f"{work}/strip1/{f}.csv") for f in ("contact", "energy", "probes"))
gap = [0.0045 + u1 - u2 for u1, u2 in zip(p["a1.uy"], p["a2.uy"])]
_, at, i = first_contact(c, "fold")
check("strip: no force before 0.4 ms (N)", max(f for t, f in zip(c["time"], c["fold.normal"]) if t < 4e-4), 0, 0)
check("strip: legs 5 mm from the root, mid-surfaces apart the step before (mm)", 1e3 * gap[i - 1], 0.5, 4.5)
check("strip: at the first contact, distance + penetration / t", (gap[i] + c["fold.penetration"][i]) / 0.0005, 0.98, 1.02)
check("strip: penetration at the first contact / t", c["fold.penetration"][i] / 0.0005, 0, 0.25)
check("strip: leg 1's tip thrown back (vy at the end, m/s)", p["tip1.vy"][-1], 0.5, 10)
check("strip: leg 2's tip thrown back (vy at the end, m/s)", p["tip2.vy"][-1], -10, -0.5)
check("strip: energy at the end / initial", e["total"][-1] / e["total"][0], 0.98, 1.02)
o = read(f"{work}/strip2/contact.csv")
check("strip: np 2 against np 1, largest normal force difference / peak",
      largest_difference(c, o, ("fold.normal",)) / max(c["fold.normal"]), 0, 1e-8)
if not passed():
    print("FAIL: shells in contact"); sys.exit(1)
EOF
finish
