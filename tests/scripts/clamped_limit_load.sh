#!/usr/bin/env bash
# A clamped steel cantilever (1 x 0.1 x 0.1 m, 40 x 4 x 4 hex8, all of xmin held, sigma_y 250 MPa,
# no hardening) whose tip is pushed down 0.05 m in 10 static steps, on each hex8 formulation
# (examples/guide/plasticity.md). Beam theory's plastic-hinge load is F_p = sigma_y b h^2 / (4 L);
# the clamp holds the hinge section towards plane strain, whose limit is 2 / sqrt 3 = 1.155 F_p, so
# the collapse load lies in [F_p, 1.155 F_p]. Checked:
# - bbar levels off inside that range (measured 1.133 F_p, +0.06 % over the last step);
# - reduced too (1.114, +0.35 %);
# - full does not: it locks under the isochoric flow, past 1.155 and still rising (1.296, +1 %);
# - bbar on 1 and 3 ranks equal to 1e-8.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
for f in full bbar reduced; do
  cat > "$work/$f.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [40, 4, 4], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: $f,
     plasticity: {yield_stress: 2.5e8}}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: displacement, components: [z], value: [-0.05], amplitude: ramp}
amplitudes: {ramp: {type: table, points: [[0, 0], [10, 1]]}}
time: {integrator: static, dt: 1, steps: 10}
output: {directory: $f, every: 0}
EOF
  run 2 "$work/$f.yaml"
done
sed 's/directory: bbar/directory: bbar1/' "$work/bbar.yaml" > "$work/bbar1.yaml"
run 1 "$work/bbar1.yaml"
sed 's/directory: bbar/directory: bbar3/' "$work/bbar.yaml" > "$work/bbar3.yaml"
run 3 "$work/bbar3.yaml"
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import csv, math, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, passed
Fp = 2.5e8 * 0.1 * 0.1 ** 2 / 4 / 1.0
def load(name):  # the tip force over F_p at each step
    rows = list(csv.DictReader(l for l in open(f"{work}/{name}/reactions.csv") if not l.startswith("#")))
    return [-float(r["xmax.fz"]) / Fp for r in rows]
limit = 2 / math.sqrt(3)
for name, rise in (("bbar", 0.002), ("reduced", 0.005)):
    f = load(name)
    check(f"{name}: tip force at the end / F_p", f[-1], 1.0, limit)
    check(f"{name}: rise over the last step", f[-1] / f[-2] - 1, 0, rise)
f = load("full")
check("full: tip force at the end / F_p (locked: above the plane-strain limit)", f[-1], limit + 0.05, 2)
check("full: rise over the last step (still rising)", f[-1] / f[-2] - 1, 0.008, 1)
a, b, c = load("bbar1"), load("bbar"), load("bbar3")
for np, other in ((2, b), (3, c)):
    check(f"bbar: np {np} against np 1 (of F_p)", max(abs(x - y) for x, y in zip(a, other)) if len(other) == len(a) else 1, 0, 1e-8)
if not passed():
    print("FAIL: clamped_limit_load"); sys.exit(1)
PY
finish
