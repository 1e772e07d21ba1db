#!/usr/bin/env bash
# Corotational beams (sections[].kinematics: corotational), meshes/beam_cantilever_16.msh (L = 2
# along x, 16 elements, clamped at "root"):
# - static: an end moment M = 2 pi E I / L rolls the cantilever into a full circle (20 load
#   steps, Newton): the tip back at the root to 1e-6 L and its rotation 2 pi, at np 1, 2, 3; a
#   quarter circle (M = pi E I / 2 L) at np 2: the tip on the 16-chord polygon the element
#   reproduces exactly in pure bending (1e-9 L), 3.6e-4 L from the continuum's arc;
# - explicit: a free beam spun about its axis at 100 rad/s with its tip kicked (torsion and
#   bending on the spin, the tip moving 0.5 m): the total energy's largest drift converges at the
#   second order of central difference (dt 1e-5, 5e-6, 2.5e-6: each halving divides it by > 3.5)
#   and is below 3e-4 at 5e-6; np 2 equals np 1; a 2-rank run's checkpoint at the middle
#   continued on 3 ranks ends where the 1-rank run does (energies, 1e-9 relative).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

roll() {  # roll FILE MOMENT
  cat > "$1" << EOF2
mesh: {file: $meshes/beam_cantilever_16.msh}
materials:
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, area: 0.01, iy: 8.0e-5, iz: 2.0e-5, torsion: 1.0e-5, theory: euler_bernoulli, kinematics: corotational}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: beam, type: fixed, components: [z, rx, ry]}   # the plane of the roll
  - {region: tip, type: moment, value: [0, 0, $2]}
time: {integrator: static, dt: 0.05, end_time: 1}
output:
  directory: out
  every: 0
  probes: [{name: tip, point: [2, 0, 0], fields: [displacement, rotation]}]
EOF2
}
# E Iz / L = 2.1e11 x 2e-5 / 2 = 2.1e6 N m
roll circle.yaml 13194689.145077132
roll quarter.yaml 3298672.286269283
spin() {  # spin FILE DT
  cat > "$1" << EOF2
mesh: {file: $meshes/beam_cantilever_16.msh}
materials:
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, shape: {type: circle, diameter: 0.1}, kinematics: corotational}
initial_conditions:
  velocity: [{region: beam, angular_velocity: [100, 0, 0]},
             {region: tip, velocity: [0, 0, 5], angular_velocity: [120, 0, 0]}]
time: {integrator: central_difference, mass: lumped, dt: $2, end_time: 0.2}
output: {directory: out, every: 0, history_every: 100}
EOF2
}
spin spin1.yaml 1e-5
spin spin2.yaml 5e-6
spin spin3.yaml 2.5e-6
sed 's/history_every: 100}/history_every: 100, checkpoint: {every: 10000}}/' spin1.yaml > spinck.yaml

for np in 1 2 3; do in_dir "circle$np" "$np" circle.yaml; done
in_dir quarter2 2 quarter.yaml
in_dir spin1 1 spin1.yaml
in_dir spin2 1 spin2.yaml
in_dir spin3 1 spin3.yaml
in_dir spin2np2 2 spin2.yaml
in_dir spinck 2 spinck.yaml
(cd spinck && run_log "$work/restart.log" 3 spinck.yaml --restart out/checkpoints/checkpoint_000010000.h5)
grep -q "restart   from .*checkpoint_000010000.h5: step 10000" "$work/restart.log" ||
  fail "the restart did not start from step 10000"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" << 'PY' || failed=1
import math
import sys

sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed

work = sys.argv[1]
L = 2.0
for np_ in (1, 2, 3):
    p = read(f"{work}/circle{np_}/out/probes.csv")
    gap = math.hypot(L + p["tip.ux"][-1], p["tip.uy"][-1])
    check(f"np {np_}: full circle, |tip - root| / L", gap / L, 0, 1e-6)
    check(f"np {np_}: full circle, tip rotation / 2 pi", p["tip.rz"][-1] / (2 * math.pi),
          1 - 1e-6, 1 + 1e-6)
# Pure bending: each of the 16 elements keeps its length as a chord turned by theta / 16.
p = read(f"{work}/quarter2/out/probes.csv")
theta, n = math.pi / 2, 16
chords = [(L / n * math.cos((k + 0.5) * theta / n), L / n * math.sin((k + 0.5) * theta / n))
          for k in range(n)]
x, y = sum(c[0] for c in chords), sum(c[1] for c in chords)
tip = (L + p["tip.ux"][-1], p["tip.uy"][-1])
check("quarter circle: tip against the 16-chord polygon, / L",
      math.hypot(tip[0] - x, tip[1] - y) / L, 0, 1e-9)
check("quarter circle: tip against the continuum arc (2L/pi, 2L/pi), / L (the chords' error)",
      math.hypot(tip[0] - 2 * L / math.pi, tip[1] - 2 * L / math.pi) / L, 2e-4, 6e-4)
check("quarter circle: tip rotation / (pi/2)", p["tip.rz"][-1] / theta, 1 - 1e-9, 1 + 1e-9)

drift = []
for k in (1, 2, 3):
    e = read(f"{work}/spin{k}/out/energy.csv")
    drift.append(max(abs(t - e["total"][0]) for t in e["total"]) / e["total"][0])
    print(f"     spin, dt {1e-5 / 2 ** (k - 1):g}: largest energy drift {drift[-1]:.3e} of "
          f"{e['total'][0]:.6g} J, strain energy up to {max(e['strain']):.4g} J")
check("spin: strain energy reached (J), the kick deforms the spinning beam",
      max(read(f"{work}/spin1/out/energy.csv")["strain"]), 10, 1e9)
check("spin: drift ratio dt 1e-5 / 5e-6 (second order: 4)", drift[0] / drift[1], 3.5, 5)
check("spin: drift ratio dt 5e-6 / 2.5e-6 (second order: 4)", drift[1] / drift[2], 3.5, 5)
check("spin: largest energy drift at dt 5e-6", drift[1], 0, 3e-4)
a, b = read(f"{work}/spin2/out/energy.csv"), read(f"{work}/spin2np2/out/energy.csv")
check("spin: np 2 against np 1, energies (J)",
      largest_difference(a, b, ["kinetic", "strain", "total"]), 0, 1e-6)
a, b = read(f"{work}/spin1/out/energy.csv"), read(f"{work}/spinck/out/energy.csv")
check("spin: restarted on 3 ranks from a 2-rank checkpoint against np 1, energies / E0",
      largest_difference(a, b, ["kinetic", "strain", "total"]) / a["total"][0], 0, 1e-9)
sys.exit(0 if passed() else 1)
PY
finish
