#!/usr/bin/env bash
# Friction with the decay law (examples/guide/contact_walls.md, "Friction"): a 0.1 m cube of
# 1 kg (4 x 3 x 2 hex8, 180 DOFs) on the plane z = 0 under gravity tilted 28 degrees (ramped on
# over 20 ms), friction {static: 0.45, kinetic: 0.15, decay: 4}: tan 28 > 0.45, so it slides with
# a = g (sin - mu(v) cos), mu(v) = 0.15 + 0.3 exp(-4 v). Under newmark (dt 2 ms) on 1 and 2 ranks:
# - Newton with the return map's tangent (the normal force's and the slip rate's dependences):
#   a mean of at most 5 iterations a step (measured 4.3; 13.1 with the tangent without them),
#   also on CG + GAMG's path (np 1; GMRES there: 52 linear iterations a step, CG ~20,000);
# - the sliding speed against the decay law's a(v) integrated from the run's speed at 50 ms;
#   the energy balance to 1e-6 of the work of gravity; no chatter (the normal force within
#   10 % of its mean after 50 ms); the same contact.csv on 1 and 2 ranks;
# - friction with augmented Lagrangian iterations, on a wall or a pair: one error line.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
block() {  # block FILE DIR [contact keys]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.1], cells: [4, 3, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
amplitudes:
  on: {type: smooth_step, points: [[0, 0], [0.02, 1]], continuity: 2}
gravity: {value: [4.605516, 0, -8.661716], amplitude: on}
contact:
  ${3:-}
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]},
       friction: {static: 0.45, kinetic: 0.15, decay: 4}}
time: {integrator: newmark, dt: 2.0e-3, end_time: 0.25}
output:
  directory: $2
  every: 0
  history_every: 1
  probes:
    - {name: top, point: [0.05, 0.05, 0.1], fields: [velocity]}
EOF
}
for np in 1 2; do
  block "$work/law$np.yaml" "law$np"
  run_log "$work/$np.log" "$np" "$work/law$np.yaml"
done
# The same with CG + GAMG's path (GMRES there with friction: the tangent is not symmetric).
block "$work/lawit.yaml" lawit
sed -i 's/dt: 2.0e-3,/dt: 2.0e-3, linear_solver: iterative,/' "$work/lawit.yaml"
run_log "$work/it.log" 1 "$work/lawit.yaml"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import math, re, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
g, th = 9.81, math.radians(28)
mu = lambda v: 0.15 + 0.3 * math.exp(-4 * v)
accel = lambda v: g * (math.sin(th) - mu(v) * math.cos(th))
for np in (1, 2, "it"):
    log = open(f"{work}/{np}.log").read()
    steps, linear, newton = map(int, re.search(
        r"finished: (\d+) steps, (\d+) linear iterations, (\d+) Newton iterations", log).groups())
    check(f"np {np}: Newton iterations per step", newton / steps, 1, 5)
    if np == "it":  # CG on the unsymmetric tangent: ~20,000 a step
        check("iterative: linear iterations per step", linear / steps, 1, 200)
        continue
    e = read(f"{work}/law{np}/energy.csv")
    check(f"np {np}: energy balance / work of gravity", abs(e["total"][-1]) / e["external_work"][-1], 0, 1e-6)
    c = read(f"{work}/law{np}/contact.csv")
    normal = [n for t, n in zip(c["time"], c["floor.normal"]) if t > 0.05]
    mean = sum(normal) / len(normal)
    check(f"np {np}: normal force after 50 ms, smallest / mean", min(normal) / mean, 0.9, 1)
    check(f"np {np}: normal force after 50 ms, largest / mean", max(normal) / mean, 1, 1.1)
    # The speed: the decay law's a(v) integrated (Heun, fine sub-steps) from the run's speed at
    # 50 ms; the block's speed from its top's.
    p = read(f"{work}/law{np}/probes.csv")
    i0 = next(i for i, t in enumerate(p["time"]) if t >= 0.05)
    v, t = p["top.vx"][i0], p["time"][i0]
    sub = 200
    h = (p["time"][-1] - t) / sub
    for _ in range(sub):
        k1 = accel(v)
        v += 0.5 * h * (k1 + accel(v + h * k1))
    check(f"np {np}: speed at {p['time'][-1]} s / the decay law's", p["top.vx"][-1] / v, 0.99, 1.01)
base, other = read(f"{work}/law1/contact.csv"), read(f"{work}/law2/contact.csv")
peak = max(abs(x) for x in base["floor.fz"])
check("np 2 against 1: largest force difference / peak normal force",
      largest_difference(base, other, ("floor.fx", "floor.fz")) / peak, 0, 1e-8)
if not passed():
    print("FAIL: friction law"); sys.exit(1)
EOF

# Friction with augmented Lagrangian iterations: refused (on a wall; on a pair).
block "$work/al.yaml" al "augmented: {tolerance: 1.0e-9}"
expect_error "al.yaml:1[0-9]: contact.walls\[0\].friction: friction with augmented Lagrangian iterations (.*al.yaml:[0-9]*: contact.augmented) is not supported" 1 "$work/al.yaml"
cat > "$work/alpair.yaml" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/slide_pair.msh}
materials:
  - {region: slab, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: slab_bottom, type: fixed}
contact:
  augmented: true
  pairs:
    - {name: floor, surfaces: [block_bottom, slab_top], friction: 0.3}
time: {integrator: newmark, dt: 2.0e-3, end_time: 0.01}
output: {directory: alpair, every: 0}
EOF
expect_error "alpair.yaml:10: contact.pairs\[0\].friction: friction with augmented Lagrangian iterations (.*alpair.yaml:8: contact.augmented) is not supported" 2 "$work/alpair.yaml"
finish
