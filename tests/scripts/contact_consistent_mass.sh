#!/usr/bin/env bash
# A steel block (0.2 x 0.2 x 0.1 m, hex8) resting on a rigid floor under gravity, explicit
# (central difference, dt auto), with the default consistent mass and with lumped masses:
# the stable step must hold with the floor's penalty pressing every bottom node.
# The penalties' share of omega_max^2 is the largest eigenvalue of M^-1 D (D the penalties'
# diagonal); max k / m over the lumped masses, which the consistent mass's lighter modes (1/27
# for a hex8 cell) exceed, gave a step at which this block blew up in 22 steps (the energy ten
# times larger every two steps). Checks: the run ends; the floor carries the weight (mean over
# the second half 1 +- 5 %: 0.997 consistent, 1.026 lumped, whose oscillation the window cuts
# elsewhere; at most twice it: the sudden load's overshoot); the energy balance within 1 % of the
# work of gravity (0.10 % consistent, 0.75 % lumped); np 3 as np 1.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"

block() {  # block FILE DIR MASS
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 0.1], cells: [4, 4, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
gravity: [0, 0, -9.81]
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
time: {integrator: central_difference, mass: $3, dt: auto, end_time: 0.002}
output: {directory: $2, every: 0, history_every: 1}
EOF
}

cd "$work"
for np in 1 3; do
  block "consistent$np.yaml" "consistent$np" consistent
  run $np "consistent$np.yaml"
done
block lumped.yaml lumped lumped
run 1 lumped.yaml
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed

weight = 7800 * 0.2 * 0.2 * 0.1 * 9.81
for case in ("consistent1", "consistent3", "lumped"):
    c, e = read(f"{work}/{case}/contact.csv"), read(f"{work}/{case}/energy.csv")
    fz = c["floor.fz"]
    half = fz[len(fz) // 2:]
    check(f"{case}: the floor's mean force over the second half / weight", sum(half) / len(half) / weight, 0.95, 1.05)
    check(f"{case}: its largest / weight", max(fz) / weight, 1.0, 2.05)
    check(f"{case}: largest |energy balance| / largest work of gravity",
          max(abs(t) for t in e["total"]) / max(e["external_work"]), 0, 1e-2)
a, b = read(f"{work}/consistent1/contact.csv"), read(f"{work}/consistent3/contact.csv")
check("np 3 against np 1: largest floor force difference / weight",
      largest_difference(a, b, ("floor.fz",)) / weight, 0, 1e-6)
if not passed():
    print("FAIL: contact with a consistent mass"); sys.exit(1)
EOF
finish
