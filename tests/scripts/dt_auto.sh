#!/usr/bin/env bash
# dt: auto following the deforming mesh (README "Explicit time step"; app/auto_step.hpp):
# - one hex8 cell (10 mm, copper-like hencky solid) compressed to half its height by its top
#   face in 1e-4 s, its sides free: every step's smallest transit time (dt.csv) is the cell's
#   height at the step's start (probes.csv) over c = sqrt((lambda + 2 mu) / rho) to 1e-12, and
#   every step's dt is round6(0.9 x 2 / (2 / (k L/c))) bit for bit (k: the calibration the log
#   prints); the step at the end is about half the first (the cell half as high);
# - a copper rod (2 x 2 x 20 F-bar J2 cells) hitting a wall: np 1, 2 and 3 step the same dt
#   sequence bit for bit (dt.csv: step, time, dt, controlling cell), and the step shrinks as the
#   impact end flattens;
# - that rod restarted at step 150 on 2 ranks from np 1's checkpoint continues the same sequence;
# - bad input: time.safety_factor above 1, time.mass_scaling without dt: auto, with steps.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cat > "$work/block.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [0.01, 0.01, 0.01], cells: [1, 1, 1], element: hex8}}
materials:
  - {region: all, model: hencky, density: 8930, youngs_modulus: 1.17e11, poissons_ratio: 0.35}
amplitudes:
  ramp: {type: table, points: [[0, 0], [1.0e-4, 1]]}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: zmax, type: displacement, components: [z], value: [-0.005], amplitude: ramp}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-4}
output:
  directory: $work/block
  every: 0
  history_every: 1
  probes:
    - {name: top, point: [0, 0, 0.01], fields: [displacement]}
YAML
run 1 "$work/block.yaml"
cp "$work/last.log" "$work/block.log"
rod() {  # rod NAME [END_TIME]
  cat > "$work/$1.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [0.0032, 0.0032, 0.0324], cells: [2, 2, 20], element: hex8}}
materials:
  - {region: all, model: hencky, density: 8930, youngs_modulus: 1.17e11, poissons_ratio: 0.35,
     formulation: fbar, plasticity: {yield_stress: 4.0e8, isotropic_hardening: 1.0e8}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
contact:
  walls:
    - {name: anvil, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
initial_conditions:
  velocity: [0, 0, -227]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: ${2:-2.0e-5}}
output:
  directory: $work/$1
  every: 0
  history_every: 1
  checkpoint: {every: 150}
YAML
}
for np in 1 2 3; do
  rod "rod$np"
  run "$np" "$work/rod$np.yaml"
  cp "$work/last.log" "$work/rod$np.log"
done
cp "$work/rod1/dt.csv" "$work/rod1_full.csv"
run 2 "$work/rod1.yaml" --restart "$(printf "%s/rod1/checkpoints/checkpoint_%09d.h5" "$work" 150)"
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, read, passed
from dt_checks import round_down_to_digits, calibration, wave_speed
c = wave_speed(1.17e11, 0.35, 8930)
k = calibration(f"{work}/block.log")
d, p = read(f"{work}/block/dt.csv"), read(f"{work}/block/probes.csv")
uz = dict(zip(p["step"], p["top.uz"]))
worst_length = max(abs(t * c / (0.01 + uz[s - 1]) - 1) for s, t in zip(d["step"], d["smallest_transit"]))
check("block: smallest L/c against (H + u_top) / c, largest relative difference", worst_length, 0, 1e-12)
def formula(t):
    cells = 2 / (k * t)
    return round_down_to_digits(0.9 * 2 / (cells * cells) ** 0.5, 6)
inner = list(zip(d["dt"], d["smallest_transit"]))[1:-2]  # the first may be the cap, the last two fit the end
misses = sum(dt != formula(t) for dt, t in inner)
check(f"block: steps 2 to {len(inner) + 1} whose dt is not round6(0.9 x 2 / omega(k L/c)) bit for bit", misses, 0, 0)
check("block: the last dt over the first (the cell half as high: about 0.5)", d["dt"][-3] / d["dt"][0], 0.45, 0.55)
check("block: the run ends at end_time exactly (t - 1e-4)", d["time"][-1] - 1.0e-4, 0, 0)
name = {1: f"{work}/rod1_full.csv", 2: f"{work}/rod2/dt.csv", 3: f"{work}/rod3/dt.csv"}
lines = {np: [l.split(",") for l in open(name[np]) if not l.startswith("#")][1:] for np in (1, 2, 3)}
for np in (2, 3):
    same = len(lines[np]) == len(lines[1]) and all(a[:3] + a[4:] == b[:3] + b[4:] for a, b in zip(lines[1], lines[np]))
    check(f"rod: np {np} steps, times, dt and controlling cells against np 1, rows that differ",
          0 if same else 1, 0, 0)
r = read(f"{work}/rod1_full.csv")
check("rod: steps", len(r["dt"]), 100, 100000)
check("rod: smallest dt / first dt (the impact end flattened)", min(r["dt"]) / r["dt"][0], 0.05, 0.95)
rows = [l.split(",") for l in open(f"{work}/rod1/dt.csv") if not l.startswith("#")]
full = {a[0]: a[:3] for a in lines[1]}
after = [a[:3] for a in rows[1:] if int(a[0]) > 150]
check("rod: restarted at step 150 on 2 ranks: rows after it that differ from np 1's uninterrupted run",
      sum(a != full.get(a[0]) for a in after) + (0 if len(after) == len(lines[1]) - 150 else 1), 0, 0)
if not passed():
    print("FAIL: dt_auto"); sys.exit(1)
PY
check_refuses safety "safety_factor: must be in \(0, 1\]" "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}}
materials: [{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1, safety_factor: 1.5}"
check_refuses scaling_dt "mass_scaling: needs dt: auto" "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}}
materials: [{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}]
time: {integrator: central_difference, mass: lumped, dt: 0.1, end_time: 1, mass_scaling: {dt_min: 0.2}}"
check_refuses scaling_key "mass_scaling: unknown key" "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}}
materials: [{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3}]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1, mass_scaling: {dt_mn: 0.2}}"
finish
