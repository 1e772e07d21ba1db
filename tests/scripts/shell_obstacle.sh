#!/usr/bin/env bash
# The shell obstacle course (MacNeal and Harder, Finite Elements in Analysis and Design 1, 1985,
# 3-20) through the whole program: `shells:` on Gmsh quadrilaterals (meshes/shell_cylinder_panel.geo),
# conditions on rotations, gravity and a point force, static, np 1, 2 and 3.
#
# Scordelis-Lo roof: R 25, L 50, t 0.25, E 4.32e8, nu 0, self-weight 90 per area (density 360
# under g = 1), diaphragms at the ends (u_y = u_z = 0), the quarter with symmetry at mid-span and
# at the crown. Published: the free edge's mid-point moves 0.3024 down. The MITC4 here: 1.0446,
# 1.0047, 0.9975 of it on 4 x 4, 8 x 8, 16 x 16 (the kernel's unit test: the same figures).
# Checked: 16 x 16 within 2 % (the issue's), the error falling from 4 to 8 to 16, np 1, 2, 3 the
# same to 1e-9. On triangles (each quadrilateral cut in two, meshes/shell_scordelis_lo_tri_16.msh:
# Allman's membrane with MITC3 bending, fe/shell3.hpp): 0.9794 (checked to 1e-3: 2 % short, the
# triangles converge more slowly: 0.893 and 0.992 on 8 and 32 in the unit test).
#
# Pinched cylinder with rigid diaphragms: R 300, L 600, t 3, E 3e6, nu 0.3, two opposite loads
# P = 1 at mid-length; the octant with a quarter load. Published: 1.8248e-5 under the load. The
# MITC4 here: 0.7533 and 0.9318 of it on 8 x 8 and 16 x 16 (32 x 32: 0.989 in the unit test).
# The issue asks for 5 % at 16 x 16: NOT met by MITC4 (6.8 % short; its published figures on
# this mesh are 0.93 to 0.95); the curved 8-node shells meet it (1.0032: shell_quad8.sh). Checked: the figure itself (0.9318 to 1e-3: a change of the element
# shows here) and the convergence from 8 to 16.
#
# And a clamped square plate under pressure (a 1, t 0.01, E 2.1e11, nu 0.3, q 1000; the edges
# clamped, rotations too) against Kirchhoff's centre deflection 0.00126532 q a^4 / D (Timoshenko
# and Woinowsky-Krieger, table 35): 0.9903 and 0.9991 on 8 x 8 and 16 x 16 (32 x 32: 1.0013, the
# shear deflection of a / t = 100). Checked: 16 x 16 within 0.3 %, the error falling from 8. A
# shell_resultants probe at the centre: M11 = M22 in the shell nearest it, 0.9507 and 0.9816 of
# Kirchhoff's -0.0231 q a^2 at the plate's centre on 8 and 16 (that shell's centre is 1/16 and
# 1/32 of the side away), rising to it.
# About 5 s in all.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
meshes="$INERTIA_SOURCE_DIR/meshes"
# shellcheck source=../support/obstacle_cases.sh
source "$INERTIA_SOURCE_DIR/tests/support/obstacle_cases.sh"

for n in 4 8 16; do
  mkdir -p roof$n && roof shell_scordelis_lo_$n > roof$n/case.yaml
  (cd roof$n && mpi 1 "$INERTIA" case.yaml > log 2>&1) || fail "roof $n: $(tail -1 roof$n/log)"
done
mkdir -p roof_tri16 && roof shell_scordelis_lo_tri_16 > roof_tri16/case.yaml
(cd roof_tri16 && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "roof on triangles: $(tail -1 roof_tri16/log)"
for np in 2 3; do
  mkdir -p roof16_np$np && roof shell_scordelis_lo_16 > roof16_np$np/case.yaml
  (cd roof16_np$np && mpi $np "$INERTIA" case.yaml > log 2>&1) ||
    fail "roof 16 np $np: $(tail -1 roof16_np$np/log)"
done
for n in 8 16; do
  mkdir -p cyl$n && cylinder shell_pinched_cylinder_$n > cyl$n/case.yaml
  (cd cyl$n && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "cylinder $n: $(tail -1 cyl$n/log)"
done
for n in 8 16; do
  mkdir -p plate$n && cat > plate$n/case.yaml <<YAML
mesh: {file: $meshes/shell_plate_$n.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01}
boundary_conditions:
  - {region: edges, type: fixed}
  - {region: plate, type: pressure, value: 1000}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  probes:
    - {name: centre, point: [0.5, 0.5, 0]}
    - {name: moment, point: [0.5, 0.5, 0], fields: [shell_resultants]}
YAML
  (cd plate$n && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "plate $n: $(tail -1 plate$n/log)"
done
grep -q "^shells    region 'panel': 256 shells (MITC4, linear)" roof16/log ||
  fail "the log's shell line: $(grep '^shells' roof16/log)"

python3 - <<'PY' || failed=1
import csv
def last(path, column):
    rows = list(csv.DictReader(l for l in open(path) if not l.startswith('#')))
    return float(rows[-1][column])
bad = []
roof = {n: -last('roof%d/out/probes.csv' % n, 'free.uz') / 0.3024 for n in (4, 8, 16)}
for n, r in roof.items():
    print('Scordelis-Lo %2d x %-2d: %.4f of 0.3024' % (n, n, r))
if not abs(roof[16] - 1) < 0.02: bad.append('Scordelis-Lo 16 x 16 not within 2 %')
if not abs(roof[4] - 1) > abs(roof[8] - 1) > abs(roof[16] - 1): bad.append('Scordelis-Lo does not converge')
tri = -last('roof_tri16/out/probes.csv', 'free.uz') / 0.3024
print('Scordelis-Lo on triangles, 16 x 16 quadrilaterals cut in two: %.4f of 0.3024' % tri)
if not abs(tri - 0.9794) < 1e-3: bad.append('Scordelis-Lo on triangles moved from 0.9794')
for np in (2, 3):
    r = -last('roof16_np%d/out/probes.csv' % np, 'free.uz') / 0.3024
    print('Scordelis-Lo 16 x 16 on %d ranks: %.3g apart from 1 rank' % (np, abs(r / roof[16] - 1)))
    if not abs(r / roof[16] - 1) < 1e-9: bad.append('np %d differs' % np)
cyl = {n: -last('cyl%d/out/probes.csv' % n, 'load.uz') / 1.8248e-5 for n in (8, 16)}
for n, r in cyl.items():
    print('pinched cylinder %2d x %-2d: %.4f of 1.8248e-5' % (n, n, r))
print('pinched cylinder 16 x 16: %.1f %% short (the issue asks for 5 %%: not met by MITC4; quad8: shell_quad8.sh)' % (100 * (1 - cyl[16])))
if not abs(cyl[16] - 0.9318) < 1e-3: bad.append('pinched cylinder 16 x 16 moved from 0.9318')
if not abs(1 - cyl[8]) > abs(1 - cyl[16]): bad.append('pinched cylinder does not converge')
D = 2.1e11 * 0.01**3 / (12 * (1 - 0.3**2))
plate = {n: -last('plate%d/out/probes.csv' % n, 'centre.uz') / (0.00126532 * 1000 / D) for n in (8, 16)}
for n, r in plate.items():
    print('clamped plate %2d x %-2d: %.4f of Kirchhoff' % (n, n, r))
if not abs(plate[16] - 1) < 3e-3: bad.append('clamped plate 16 x 16 not within 0.3 %')
if not abs(plate[8] - 1) > abs(plate[16] - 1): bad.append('clamped plate does not converge')
# The shell_resultants probe: the shell whose centre is nearest the plate's (1 / 2n of the side
# off both axes): M11 = M22 there, approaching Kirchhoff's centre moment -0.0231 q a^2 from below
# as that centre approaches the plate's.
m = {}
for n in (8, 16):
    rows = list(csv.DictReader(l for l in open('plate%d/out/probes.csv' % n) if not l.startswith('#')))
    m11, m22 = float(rows[-1]['moment.M11']), float(rows[-1]['moment.M22'])
    m[n] = m11 / -23.1
    print('clamped plate %2d x %-2d: M11 at the centre shell %.4f of Kirchhoff\'s centre moment, '
          'M22 - M11 %.2g' % (n, n, m[n], abs(m22 / m11 - 1)))
    if not abs(m22 / m11 - 1) < 1e-9: bad.append('M11 != M22 at the centre')
if not 0.95 < m[8] < m[16] < 1: bad.append('the centre moment does not approach Kirchhoff\'s')
if bad: print('FAIL: ' + ', '.join(bad))
raise SystemExit(1 if bad else 0)
PY
finish
