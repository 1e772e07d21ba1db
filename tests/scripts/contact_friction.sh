#!/usr/bin/env bash
# Friction on rigid walls (examples/guide/contact_walls.md), against the exact answers of a
# block on an inclined plane (the plane z = 0 and gravity tilted by theta: a 0.1 m cube of 1 kg,
# 4 x 4 x 4 hex8, gravity ramped on over 20 ms):
# - theta 30 deg, mu 0.3: it slides with a = g (sin theta - mu cos theta) = 2.3563 m/s^2
#   (measured: central difference 0.99997 of it, newmark 1.00001); the friction force is mu times
#   the normal force (to 4e-6 with central difference: nodes stick for a moment as the block
#   rocks on the penalty); the energy balance closes with friction's dissipation (52 % of the
#   work of gravity) to 1.1e-12 of the work with newmark, 5e-7 with central difference;
# - theta 10 deg (tan theta < mu): it sticks (moves 7e-6 m against 0.068 m sliding);
# - theta 20 deg with static 0.5 and kinetic 0.3: it sticks (tan 20 deg = 0.36 < 0.5), and with
#   0.3 alone it slides at g (sin - 0.3 cos) = 0.590 m/s^2 (measured 1.007 of it: the slow
#   slide feels the rocking);
# - contact.csv equal on 1, 2 and 3 ranks to 1e-8, and after a restart while sliding (2 ranks -> 3:
#   the committed friction forces are in the checkpoint);
# - the block sliding on the slab under newmark (dt 2 ms, Newton with the pair's tangent):
#   acceleration 1.0005 of the exact one, friction / normal force 0.3 to 2e-5, energy balance
#   9e-6 of the work of gravity (checked within 1e-4);
# - the block sliding on a deformable slab (a contact pair with friction 0.3, the slab's bottom
#   held; meshes/slide_pair.geo): the same acceleration (measured 0.998 of it), friction / normal
#   force 0.3, 1/2/3 ranks and a restart while sliding equal to 1e-8; the energy balance closes to
#   1e-6 of the work until the block's edges cross the slab's nodes (t = 0.16 s), then to 3.6e-4
#   of it at 0.25 s (checked within 1e-3; the same without friction: 1e-4, nodes entering contact
#   under the edges; the work of the friction force of a node leaving contact is booked from its
#   slip against the face it left: without that, 2.4e-3);
# - bad input: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

block() {  # block FILE DIR THETA FRICTION [time keys] [extra output keys]
  local gx gz
  gx=$(python3 -c "import math; print(9.81 * math.sin(math.radians($3)))")
  gz=$(python3 -c "import math; print(-9.81 * math.cos(math.radians($3)))")
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.1], cells: [4, 4, 4], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
amplitudes:
  on: {type: smooth_step, points: [[0, 0], [0.02, 1]], continuity: 2}
gravity: {value: [$gx, 0, $gz], amplitude: on}
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}, friction: $4}
time: {${5:-integrator: central_difference, mass: lumped, dt: auto}, end_time: 0.25}
output:
  directory: $2
  every: 0
  history_every: 5
  probes:
    - {name: top, point: [0.05, 0.05, 0.1], fields: [displacement, velocity]}
  ${6:-}
EOF
}

for np in 1 2 3; do
  block "$work/slide$np.yaml" "slide$np" 30 0.3
  run "$np" "$work/slide$np.yaml"
done
block "$work/newmark.yaml" newmark 30 0.3 "integrator: newmark, dt: 1.0e-3"
run 2 "$work/newmark.yaml"
block "$work/stick.yaml" stick 10 0.3
run 2 "$work/stick.yaml"
block "$work/static.yaml" static 20 "{static: 0.5, kinetic: 0.3}"
run 2 "$work/static.yaml"
block "$work/kinetic.yaml" kinetic 20 0.3
run 2 "$work/kinetic.yaml"
# Restart while sliding: checkpoint at step 1000 (t = 0.16 s) on 2 ranks, continued on 3.
block "$work/slidec.yaml" slidec 30 0.3 "" "checkpoint: {every: 1000, keep: 2}"
run 2 "$work/slidec.yaml"
cp "$work/slidec/contact.csv" "$work/contact_full.csv"
run 3 "$work/slidec.yaml" --restart "$work/slidec/checkpoints/checkpoint_000001000.h5"

# Between bodies: the block sliding on a slab (meshes/slide_pair.geo: the slab's bottom held,
# the block resting on its top, sharing no node), the same tilted gravity.
pair() {  # pair FILE DIR [extra output keys] [time keys]
  block "$1" "$2" 30 0.3 "${4:-}" "${3:-}"
  python3 - "$1" "$INERTIA_SOURCE_DIR/meshes/slide_pair.msh" <<'PY'
import sys
path, mesh = sys.argv[1], sys.argv[2]
s = open(path).read()
lines = s.split("\n")
lines[0] = "mesh: {file: " + mesh + "}"
s = "\n".join(lines)
s = s.replace("  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}",
              "  - {region: slab, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}\n"
              "  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}")
start, end = s.index("contact:\n"), s.index("time:")
s = (s[:start] + "boundary_conditions:\n  - {region: slab_bottom, type: fixed}\ncontact:\n  pairs:\n"
     "    - {name: floor, surfaces: [block_bottom, slab_top], friction: 0.3}\n" + s[end:])
s = s.replace("point: [0.05, 0.05, 0.1]", "point: [0.1, 0.1, 0.15]")
open(path, "w").write(s)
PY
}
for np in 1 2 3; do
  pair "$work/pair$np.yaml" "pair$np"
  run "$np" "$work/pair$np.yaml"
done
# The same under newmark (Newton with the pair's tangent and a backtracking line search).
pair "$work/pairnm.yaml" pairnm "" "integrator: newmark, dt: 2.0e-3"
run 2 "$work/pairnm.yaml"
pair "$work/pairc.yaml" pairc "checkpoint: {every: 1000, keep: 2}"
run 2 "$work/pairc.yaml"
cp "$work/pairc/contact.csv" "$work/pair_full.csv"
run 3 "$work/pairc.yaml" --restart "$work/pairc/checkpoints/checkpoint_000001000.h5"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import math, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
def slope(run):  # the block's acceleration: a least-squares line through its velocity after 50 ms
    p = read(f"{work}/{run}/probes.csv")
    pts = [(t, v) for t, v in zip(p["time"], p["top.vx"]) if t > 0.05]
    n = len(pts)
    mt, mv = sum(t for t, _ in pts) / n, sum(v for _, v in pts) / n
    return sum((t - mt) * (v - mv) for t, v in pts) / sum((t - mt) ** 2 for t, _ in pts), p
g = 9.81
def exact(theta, mu):
    th = math.radians(theta)
    return g * (math.sin(th) - mu * math.cos(th))
def sliding(run, accel_tol, mu_tol, balance_tol):  # a block sliding at 30 deg with mu 0.3
    a, p = slope(run)
    check(f"{run}: sliding acceleration / g (sin - mu cos)", a / exact(30, 0.3), 1 - accel_tol, 1 + accel_tol)
    c = read(f"{work}/{run}/contact.csv")
    late = [(fx, n) for t, fx, n in zip(c["time"], c["floor.fx"], c["floor.normal"]) if t > 0.05]
    check(f"{run}: friction / normal force while sliding (mu 0.3)",
          max(abs(-fx / n - 0.3) for fx, n in late), 0, mu_tol)
    e = read(f"{work}/{run}/energy.csv")
    check(f"{run}: friction dissipation / work of gravity", e["damping_dissipation"][-1] / e["external_work"][-1], 0.45, 0.6)
    check(f"{run}: energy balance / work of gravity", abs(e["total"][-1]) / e["external_work"][-1], 0, balance_tol)
sliding("slide1", 1e-3, 1e-5, 1e-5)
sliding("newmark", 1e-3, 1e-5, 1e-5)
_, p = slope("stick")
check("stick (theta 10 deg, mu 0.3): largest displacement along the slope (m)", max(abs(x) for x in p["top.ux"]), 0, 2e-5)
_, p = slope("static")
check("static 0.5, kinetic 0.3 (theta 20 deg): largest displacement (m)", max(abs(x) for x in p["top.ux"]), 0, 2e-5)
a, _ = slope("kinetic")
check("kinetic 0.3 alone (theta 20 deg): acceleration / exact", a / exact(20, 0.3), 0.98, 1.02)
def agree(label, runs, full, resumed, whole=1e-8):  # 2 and 3 ranks, and the restart, against 1 rank
    base = read(f"{work}/{runs[0]}/contact.csv")
    peak = max(abs(x) for x in base["floor.fz"])
    for other in runs[1:]:
        diff = largest_difference(base, read(f"{work}/{other}/contact.csv"), ("floor.fx", "floor.fz"))
        check(f"{other} against 1 rank: largest force difference / peak normal force", diff / peak, 0, whole)
        if whole > 1e-8:  # to 1e-8 until the block's edges cross the slab's nodes
            head = {k: v[:sum(1 for t in base["time"] if t <= 0.2)] for k, v in base.items()}
            diff = largest_difference(head, read(f"{work}/{other}/contact.csv"), ("floor.fx", "floor.fz"))
            check(f"{other} against 1 rank to t = 0.2 s: largest force difference / peak", diff / peak, 0, 1e-8)
    a, b = read(f"{work}/{full}"), read(f"{work}/{resumed}")
    check(f"{label}restart while sliding (2 ranks -> 3): largest force difference / peak",
          largest_difference(a, b, ("floor.fx", "floor.fz")) / peak, 0, 1e-8)
    check(f"{label}restart: rows", len(b["floor.fx"]), len(a["floor.fx"]), len(a["floor.fx"]))
agree("", ("slide1", "slide2", "slide3"), "contact_full.csv", "slidec/contact.csv")
sliding("pair1", 1e-2, 1e-3, 1e-3)  # the block on the slab (pair)
# The pair's ranks agree to 1e-8 until the block's edges cross the slab's nodes (t ~ 0.2 s: nodes
# enter and leave contact and a node at the Coulomb limit sticks or slips on round-off); after,
# measured 1.3e-9 (np 2) and 3.0e-8 (np 3) of the peak, 5.1e-8 with energy: false, where the
# walls' stay at 9e-10: checked to 1e-7 over the whole run.
agree("pair: ", ("pair1", "pair2", "pair3"), "pair_full.csv", "pairc/contact.csv", 1e-7)
sliding("pairnm", 2e-3, 1e-4, 1e-4)  # the same under newmark
if not passed():
    print("FAIL: friction"); sys.exit(1)
EOF

block "$work/bad.yaml" badout 30 "{static: 0.2, kinetic: 0.3}"
expect_error "bad.yaml:.*contact.walls\[0\].friction: kinetic coefficient 0.3 above the static one 0.2" 2 "$work/bad.yaml"
block "$work/bad.yaml" badout 30 -0.1
expect_error "bad.yaml:.*contact.walls\[0\].friction: must be >= 0" 1 "$work/bad.yaml"
block "$work/bad.yaml" badout 30 "{kinetc: 0.3}"
expect_error "bad.yaml:.*contact.walls\[0\].friction: unknown key 'kinetc'" 3 "$work/bad.yaml"
finish
