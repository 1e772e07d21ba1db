#!/usr/bin/env bash
# Friction without chatter (README, "Contact with rigid walls", "Friction"): the decay-law block of
# contact_friction_law.sh ({static: 0.45, kinetic: 0.15, decay: 4} at 28 degrees, 180 DOFs) under
# central difference (dt auto) chatters on the undamped penalty (normal force 0.06 to 2.5 x its
# mean after 50 ms, energy balance 3.9e-4 of the work of gravity); with the wall's normal dashpot
# `damping: 0.3` (of the penalty spring's critical damping, booked as damping dissipation) on 1
# and 2 ranks: the normal force within 2 % of its mean after 50 ms (measured 0.4 %), the balance
# to 1e-6 of the work (1.5e-7), friction dissipating about half of it; the same block under
# newmark (dt 2 ms, Newton with the dashpot's matrix), 1 and 2 ranks: within 2 % (0.8 %), balance
# 1e-6 (1.1e-8).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
block() {  # block NAME TIME_KEYS
  cat > "$work/$1.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.1], cells: [4, 3, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
amplitudes:
  on: {type: smooth_step, points: [[0, 0], [0.02, 1]], continuity: 2}
gravity: {value: [4.605516, 0, -8.661716], amplitude: on}
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}, damping: 0.3,
       friction: {static: 0.45, kinetic: 0.15, decay: 4}}
time: {$2, end_time: 0.25}
output: {directory: $work/$1, every: 0, history_every: 1}
YAML
}
for np in 1 2; do
  block "cd$np" "integrator: central_difference, mass: lumped, dt: auto"
  run "$np" "$work/cd$np.yaml"
  block "newmark$np" "integrator: newmark, dt: 2.0e-3"
  run "$np" "$work/newmark$np.yaml"
done
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed
for run in ("cd1", "cd2", "newmark1", "newmark2"):
    c = read(f"{work}/{run}/contact.csv")
    normal = [n for t, n in zip(c["time"], c["floor.normal"]) if t > 0.05]
    mean = sum(normal) / len(normal)
    check(f"{run}: normal force after 50 ms, smallest / mean", min(normal) / mean, 0.98, 1)
    check(f"{run}: normal force after 50 ms, largest / mean", max(normal) / mean, 1, 1.02)
    e = read(f"{work}/{run}/energy.csv")
    w = e["external_work"][-1]
    check(f"{run}: energy balance / work of gravity", abs(e["total"][-1]) / w, 0, 1e-6)
    check(f"{run}: dissipation / work of gravity", e["damping_dissipation"][-1] / w, 0.4, 0.6)
if not passed():
    print("FAIL: friction chatter"); sys.exit(1)
PY
echo "friction chatter: all checks passed"
