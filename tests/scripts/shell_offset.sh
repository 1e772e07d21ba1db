#!/usr/bin/env bash
# Shells whose nodes are off their mid-surface (`offset:`), through the case file:
# - a strip (meshes/shell_strip_20.msh: L 1, b 0.1, 20 x 2 quadrilaterals; t 0.01, E 2.1e11,
#   nu 0: a beam) with its nodes on its top surface (`offset: top`), clamped at x = 0 and pulled
#   along by P at its tip's nodes: a tension P and a moment P t / 2 on the section. At x = 0.5 it
#   moves along by P x / (E A) + P o^2 x / (E I), down by P o x^2 / (2 E I) and turns by
#   P o x / (E I) (constant curvature: exact on the mesh; checked to 1e-6), on 1, 2 and 3 ranks
#   (the same to 1e-9, 9e-11 measured); with `kinematics: corotational` the same to 1e-3 (P = 1 N: the
#   tension's stiffening is of order P x^2 / (E I) = 1.4e-4); at P = 1000 N (P L^2 / (E I) =
#   0.57) the corotational strip is a beam-column in tension, the eccentricity's moment easing as
#   it bends: w(x) = o (1 - cosh(k x)) / cosh(k L), k^2 = P / (E I), 0.78 of the linear
#   deflection, to 1e-3 (1.8e-4 measured; Belytschko-Tsay and MITC4 explicit, damped to rest,
#   give the same: -2.7815e-4 against -2.7810e-4, measured);
# - a T-section: meshes/shell_stiffened_strip.msh's strip (b 0.2) as a flange on a stiffener
#   beam (0.01 x 0.04) whose axis is the shared nodes, the flange's mid-surface 0.025 above them
#   (`offset: -0.025`): the cantilever's tip deflection under a tip force against
#   P L^3 / (3 E I_T) of the T's composite section (to 1 %, 0.34 % measured: the flange's shear
#   lag and the shells' transverse shear, which beam theory leaves out; without the offset the
#   tip moves about 4 times as far);
# - an offset 100 times the thickness (a length in the wrong units, more likely than not): one
#   warning line;
# - a contact pair moving initial penetrations on offset shells (walls and pairs take offsets:
#   e2e.shell_contact) and a bad offset: one error line.
# About 10 s.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1

strip() {  # strip NAME SHELL_EXTRA FORCE
  cat > "$1.yaml" <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_strip_20.msh}
materials:
  - {region: strip, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
shells:
  - {region: strip, thickness: 0.01$2}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: tip, type: force, value: [$3, 0, 0]}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  probes: [{name: mid, point: [0.5, 0.05, 0], fields: [displacement, rotation]}]
YAML
}
strip linear ", offset: top" 1000
strip corotational ", offset: top, kinematics: corotational" 1
strip tension ", offset: top, kinematics: corotational" 1000
for np in 1 2 3; do
  mkdir -p linear$np && cp linear.yaml linear$np/
  (cd linear$np && mpi $np "$INERTIA" linear.yaml > log 2>&1) || fail "np $np: $(tail -1 linear$np/log)"
done
for run in corotational tension; do
  mkdir -p $run && cp $run.yaml $run/
  (cd $run && mpi 2 "$INERTIA" $run.yaml > log 2>&1) || fail "$run: $(tail -1 $run/log)"
done
grep -q "the nodes 0.005 above the mid-surface (offset)" linear1/log ||
  fail "the log does not state the offset: $(grep region linear1/log)"

# The T-section: flange (the strip) above a stiffener along its middle line.
cat > tee.yaml <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_stiffened_strip.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
  - {region: stiffener, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
shells:
  - {region: plate, thickness: 0.01, offset: -0.025}
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
  probes: [{name: tip, point: [1, 0.1, 0]}]
YAML
mkdir -p tee && cp tee.yaml tee/
(cd tee && mpi 2 "$INERTIA" tee.yaml > log 2>&1) || fail "tee: $(tail -1 tee/log)"

python3 - <<'PY' || failed=1
import csv
import math
def row(path):
    return list(csv.DictReader(l for l in open(path) if not l.startswith('#')))[-1]
E, b, t, x = 2.1e11, 0.1, 0.01, 0.5
A, I, o = b * t, b * t**3 / 12, t / 2
bad = []
def check(label, got, want, tol):
    err = abs(got - want) / abs(want)
    print(f"{label}: {got:.6e} against {want:.6e} ({err:.1e}, tolerance {tol:g})")
    if not err <= tol: bad.append(label)
for P, name, tol in ((1000.0, 'linear1', 1e-6), (1.0, 'corotational', 1e-3)):
    r = row(f'{name}/out/probes.csv')
    k = P * o / (E * I)
    check(f'{name}: u at x = 0.5', float(r['mid.ux']), P * x / (E * A) + k * o * x, tol)
    check(f'{name}: w at x = 0.5', float(r['mid.uz']), -k * x * x / 2, tol)
    check(f'{name}: ry at x = 0.5', float(r['mid.ry']), k * x, tol)
r = row('tension/out/probes.csv')  # the beam-column: z'' = k^2 z, z = o + w(L) - w
k = math.sqrt(1000.0 / (E * I))
check('tension (beam-column): w at x = 0.5', float(r['mid.uz']),
      o * (1 - math.cosh(k * x)) / math.cosh(k), 1e-3)
check('tension (beam-column): ry at x = 0.5', float(r['mid.ry']),
      o * k * math.sinh(k * x) / math.cosh(k), 1e-3)
r1 = row('linear1/out/probes.csv')
for np in (2, 3):
    r = row(f'linear{np}/out/probes.csv')
    gap = max(abs(float(r[k]) - float(r1[k])) / abs(float(r1[k])) for k in ('mid.ux', 'mid.uz', 'mid.ry'))
    print(f'np {np} against np 1: {gap:.1e}')
    if not gap < 1e-9: bad.append(f'np {np}')
# The T: flange 0.2 x 0.01 (mid-surface 0.025 above the stiffener's axis), stiffener 0.01 x 0.04.
Af, Ab, zf = 0.2 * 0.01, 0.01 * 0.04, 0.025
zbar = Af * zf / (Af + Ab)
IT = 0.01 * 0.04**3 / 12 + Ab * zbar**2 + 0.2 * 0.01**3 / 12 + Af * (zf - zbar)**2
tip = -float(row('tee/out/probes.csv')['tip.uz'])
check('T-section: tip deflection', tip, 1000.0 / (3 * E * IT), 1e-2)
if bad: print('FAIL: ' + ', '.join(bad))
raise SystemExit(1 if bad else 0)
PY

# An offset of 100 thicknesses: one warning.
strip far ", offset: 1.0" 1000
mkdir -p far && cp far.yaml far/
(cd far && mpi 1 "$INERTIA" far.yaml > log 2>&1) || fail "far: $(tail -1 far/log)"
[ "$(grep -c '^warning' far/log)" = 1 ] && grep -q "shells\[0\]\.offset: 1 is 100 times the thickness 0.01" far/log ||
  fail "an offset of 100 thicknesses: not one warning: $(grep '^warning' far/log)"

# A contact pair's `initial_penetration: move` on offset shells is refused (walls and pairs take
# offsets: e2e.shell_contact); so is an offset that is no length.
cat > contact.yaml <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_strip_20.msh}
materials:
  - {region: strip, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0}
shells:
  - {region: strip, thickness: 0.01, offset: bottom}
boundary_conditions:
  - {region: root, type: fixed}
contact:
  pairs:
    - {name: fold, surfaces: [strip], initial_penetration: move}
time: {integrator: static, dt: 1, steps: 1}
output: {directory: refused}
YAML
expect_error "initial_penetration: move on shells with an offset is not built" 2 contact.yaml
sed 's/offset: bottom/offset: sideways/' contact.yaml > bad.yaml
expect_error "offset.*must be top, middle, bottom or a length" 1 bad.yaml
finish
