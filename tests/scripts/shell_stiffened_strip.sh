#!/usr/bin/env bash
# Shells and beams sharing nodes: a strip (L 1, b 0.2, t 0.01, E 2.1e11, nu 0) stiffened along
# its middle line by a beam (rectangle 0.01 x 0.04, Euler-Bernoulli, its centroid in the
# shell's mid-surface: meshes/shell_stiffened_strip.geo, 20 x 2 quadrilaterals a half), clamped
# at x = 0 (translations and rotations), a tip force P = 1000 N down split over the tip's nodes.
# The section bends as one: the tip moves P L^3 / (3 E (I_beam + I_plate)) = 0.0226757 (the
# shells' transverse shear and the mesh: -0.045 %), and the beam carries its share of the moment,
# I_beam / (I_beam + I_plate) = 0.7619 of P (L - x) (at x = 0.025 and 0.525: -0.065 % and
# -0.005 %), which
# only a node shared by the shell and the beam with one set of rotations gives. Checked: the tip
# to 0.2 %, the beam's moment to 0.3 %, np 1, 2 and 3 the same to 1e-9. About 3 s.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
cat > strip.yaml <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_stiffened_strip.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
  - {region: stiffener, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
shells:
  - {region: plate, thickness: 0.01}
sections:
  - {region: stiffener, shape: {type: rectangle, width: 0.01, height: 0.04},
     orientation: [0, 1, 0], theory: euler_bernoulli}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: tip, type: force, value: [0, 0, -1000]}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  probes:
    - {name: tip, point: [1, 0.1, 0]}
    - {name: root, point: [0.025, 0.1, 0], fields: [section_forces]}
    - {name: middle, point: [0.525, 0.1, 0], fields: [section_forces]}
YAML
for np in 1 2 3; do
  mkdir -p np$np && cp strip.yaml np$np/
  (cd np$np && mpi $np "$INERTIA" strip.yaml > log 2>&1) || fail "np $np: $(tail -1 np$np/log)"
done
python3 - <<'PY' || failed=1
import csv
E, P, L = 2.1e11, 1000.0, 1.0
Ib, Ip = 0.01 * 0.04**3 / 12, 0.2 * 0.01**3 / 12
share = Ib / (Ib + Ip)
def row(np):
    return list(csv.DictReader(l for l in open('np%d/out/probes.csv' % np) if not l.startswith('#')))[-1]
r = row(1)
bad = []
tip = -float(r['tip.uz']) / (P * L**3 / (3 * E * (Ib + Ip)))
print('tip deflection: %.5f of P L^3 / 3 E (I_beam + I_plate)' % tip)
if not abs(tip - 1) < 2e-3: bad.append('tip')
for name, x in (('root', 0.025), ('middle', 0.525)):
    m = abs(float(r[name + '.My'])) / (share * P * (L - x))
    print('the beam\'s moment at x = %.3f: %.5f of its share %.4f P (L - x)' % (x, m, share))
    if not abs(m - 1) < 3e-3: bad.append(name)
for np in (2, 3):
    s = row(np)
    gap = max(abs(float(s[k]) - float(r[k])) / max(abs(float(r[k])), 1e-30)
              for k in ('tip.uz', 'root.My', 'middle.My'))
    print('np %d against np 1: %.2g' % (np, gap))
    if not gap < 1e-9: bad.append('np %d' % np)
if bad: print('FAIL: ' + ', '.join(bad))
raise SystemExit(1 if bad else 0)
PY
finish
