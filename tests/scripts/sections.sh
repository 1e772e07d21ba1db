#!/usr/bin/env bash
# Section forces through planes and between regions (examples/guide/sections.md), on a hex8 tower
# 0.4 x 0.4 x 3 m:
# - static, under gravity and a sideways tip traction: through z = 1 the force on the part above
#   is its weight and the tip load, the moment the tip load times 2 m (1e-9); the part below
#   gets the opposite; through z = 0 the force is the support reaction (1e-9);
# - transient under a base acceleration record (Newmark, no damping): through z = 0 the force
#   equals reactions.csv at every row (1e-9 of the peak), with Rayleigh damping too; np 1, 2
#   and 3 agree (1e-9);
# - a response-spectrum analysis: through z = 0 the combined force is the combined base
#   reaction, missing mass included (1e-9);
# - drifts (output.drifts): the storeys' drifts add up to the whole height's, which is the
#   probes' roof - base, ratios are drift / height (1e-12); the RSA drift over the whole height
#   is the combined roof displacement (1e-4 of the largest, a corner's);
# - the same static tower plastic (J2) and neo-Hookean: the cells' own force at u in the cuts
#   (the statics to 1e-9; the neo-Hookean's moment about its swayed tip load to 1e-3);
# - a cut between two regions (below);
# - bad input: one line, exit 1.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
tower='mesh: {box: {lower: [0, 0, 0], upper: [0.4, 0.4, 3.0], cells: [2, 2, 15], element: hex8}}
materials:
  - {region: all, density: 2500, youngs_modulus: 1.0e9, poissons_ratio: 0.2}'
sections='  sections:
    - {name: above1, plane: {point: [0.2, 0.2, 1.0], normal: [0, 0, 1]}}
    - {name: below1, plane: {point: [0.2, 0.2, 1.0], normal: [0, 0, -1]}}
    - {name: base, plane: {point: [0.2, 0.2, 0.0], normal: [0, 0, 1]}}
    - {name: above2, plane: {point: [0.2, 0.2, 2.0], normal: [0, 0, 1]}}'
cat >static.yaml <<YAML
$tower
boundary_conditions:
  - {region: zmin, type: fixed}
  - {region: zmax, type: traction, value: [1000, 0, 0]}
gravity: [0, 0, -9.81]
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: static
$sections
YAML
"$INERTIA" static.yaml >static.log 2>&1 || fail "static: $(tail -1 static.log)"
python3 - <<'PY' || failed=1
import csv
rows = lambda p: list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
s, r = rows('static/sections.csv')[-1], rows('static/reactions.csv')[-1]
weight = 2500 * 9.81 * 0.4 * 0.4 * 2.0   # above z = 1
tip = 1000 * 0.4 * 0.4                   # the traction's force
checks = [('above1 fz = weight above', float(s['above1.fz']), weight),
          ('above1 fx = -tip load', float(s['above1.fx']), -tip),
          ('above1 my = -tip load x 2 m', float(s['above1.my']), -tip * 2.0),
          ('below1 fz = -weight above', float(s['below1.fz']), -weight),
          ('below1 fx = tip load', float(s['below1.fx']), tip),
          ('base fx = reaction', float(s['base.fx']), float(r['zmin.fx'])),
          ('base fz = reaction', float(s['base.fz']), float(r['zmin.fz']))]
bad = False
for name, got, want in checks:
    e = abs(got - want) / max(abs(want), 1.0)
    print('%-28s %.10g against %.10g (%.2g)' % (name, got, want, e))
    bad = bad or not e < 1e-9
moment = max(abs(float(s['above1.mx'])), abs(float(s['above1.mz'])))
print('above1 mx, mz: %.3g' % moment)
raise SystemExit(1 if bad or moment > 1e-9 * tip * 2 else 0)
PY

# The same tower plastic (J2, small strain, yielding at the foot: its dissipation > 0) and
# hyperelastic (neo-Hookean, soft, no gravity: the tip sways 11 % of the height): the cells' own
# force at u in the cuts. Plastic: the statics above (1e-9). Neo-Hookean: the forces (1e-9), the
# base cut the reaction, and the moment through z = 1 about the tip load where it is now, -P (2 +
# u_z(top)) (1e-3 of P 2 m; it is 1 % off the reference's -P 2 m).
plastic=${tower/poissons_ratio: 0.2\}/poissons_ratio: 0.2, plasticity: {yield_stress: 5.0e4\}\}}
soft=${tower/density: 2500, youngs_modulus: 1.0e9/model: neo_hookean, density: 2500, youngs_modulus: 2.0e6}
for kind in plastic soft; do
  model=$plastic gravity="gravity: [0, 0, -9.81]"
  [ $kind = soft ] && model=$soft gravity=""
  cat >$kind.yaml <<YAML
$model
boundary_conditions:
  - {region: zmin, type: fixed}
  - {region: zmax, type: traction, value: [1000, 0, 0]}
$gravity
time: {integrator: static, dt: 0.1, end_time: 1}
output:
  directory: $kind
  reactions: true
  probes: [{name: top, point: [0.2, 0.2, 3.0], fields: [displacement]}]
$sections
YAML
  "$INERTIA" $kind.yaml >$kind.log 2>&1 || fail "$kind: $(tail -1 $kind.log)"
done
grep -q "plasticity" plastic.yaml && grep -q "neo_hookean" soft.yaml || fail "plastic.yaml, soft.yaml not made"
python3 - <<'PY' || failed=1
import csv
rows = lambda p: list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
weight, tip, bad = 2500 * 9.81 * 0.4 * 0.4 * 2.0, 1000 * 0.4 * 0.4, []
def near(name, got, want, scale, tol=1e-9):
    e = abs(got - want) / scale
    print('%-44s %.10g against %.10g (%.2g)' % (name, got, want, e))
    if not e < tol: bad.append(name)
for kind in ('plastic', 'soft'):
    s, r = rows(f'{kind}/sections.csv')[-1], rows(f'{kind}/reactions.csv')[-1]
    if kind == 'plastic':
        near('plastic: above1 fz = weight above', float(s['above1.fz']), weight, weight)
    near(f'{kind}: above1 fx = -tip load', float(s['above1.fx']), -tip, tip)
    near(f'{kind}: below1 fx = tip load', float(s['below1.fx']), tip, tip)
    for c in 'xyz':
        near(f'{kind}: base f{c} = reaction', float(s[f'base.f{c}']), float(r[f'zmin.f{c}']), tip)
    if kind == 'plastic':
        near('plastic: above1 my = -tip load x 2 m', float(s['above1.my']), -tip * 2.0, tip * 2.0)
        e = rows('plastic/energy.csv')[-1]
        print('plastic: dissipation %.4g J' % float(e['plastic_dissipation']))
        if not float(e['plastic_dissipation']) > 0: bad.append('plastic: no dissipation')
    else:
        top = rows('soft/probes.csv')[-1]
        ux, uz = float(top['top.ux']), float(top['top.uz'])
        print('soft: the top moved (%.4f, %.4f) m' % (ux, uz))
        near('soft: above1 my = -P (2 + u_z(top))', float(s['above1.my']), -tip * (2 + uz), tip * 2, 1e-3)
        if not abs(float(s['above1.my']) / (-tip * 2) - 1) > 5e-3: bad.append('soft: no sway in my')
for x in bad: print('FAIL', x)
raise SystemExit(1 if bad else 0)
PY

# Transient: a base acceleration, Newmark, no damping, consistent mass.
printf '0,0\n0.05,1\n0.1,-1\n0.15,0.5\n0.2,0\n' >pulse.csv
cat >transient.yaml <<YAML
$tower
boundary_conditions:
  - {region: zmin, type: fixed, components: [y, z]}
  - {region: zmin, type: acceleration, components: [x], value: [3.0], amplitude: pulse}
amplitudes: {pulse: {type: table, file: pulse.csv}}
modal: {modes: 6}
response_spectrum: {spectrum: {record: pulse, scale: 3.0}, directions: [x], missing_mass: true}
time: {integrator: newmark, dt: 0.002, end_time: 0.4}
output:
  directory: out
  every: 0
  probes: [{name: roof, point: [0.2, 0.2, 3.0]}, {name: base, point: [0.2, 0.2, 0.0]}]
  drifts:
    - {name: storeys, point: [0.2, 0.2], levels: [0, 1, 2, 3]}
    - {name: whole, point: [0.2, 0.2], levels: [0, 3]}
$sections
YAML
for np in 1 2 3; do
  mkdir -p np$np && cp transient.yaml pulse.csv np$np/
  (cd np$np && mpi $np "$INERTIA" transient.yaml >log 2>&1) || fail "transient np $np: $(tail -1 np$np/log)"
done
# With Rayleigh damping (mass and stiffness): the mass damping acts on the velocity relative to
# the ground, in the section as in the reactions (the base section once differed from
# reactions.csv by alpha_M M v_ground: 3.4e-3 of the peak here).
mkdir -p damped && cp pulse.csv damped/
sed -e 's/time: {integrator: newmark, dt: 0.002, end_time: 0.4}/time: {integrator: newmark, dt: 0.002, end_time: 0.4, rayleigh: {mass: 2.0, stiffness: 1.0e-4}}/' \
  -e '/^modal:/d' -e '/^response_spectrum:/d' transient.yaml >damped/transient.yaml
grep -q "rayleigh: {mass: 2.0" damped/transient.yaml || fail "damped: the case has no damping"
(cd damped && mpi 2 "$INERTIA" transient.yaml >log 2>&1) || fail "damped: $(tail -1 damped/log)"
python3 - <<'PY' || failed=1
import csv
rows = lambda p: list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
s, r = rows('damped/out/sections.csv'), rows('damped/out/reactions.csv')
peak = max(abs(float(x['zmin.fx'])) for x in r)
worst = max(abs(float(a['base.fx']) - float(b['zmin.fx'])) for a, b in zip(s, r)) / peak
print('damped transient: base section against the reaction, %d rows: %.3g of the peak' % (len(s), worst))
raise SystemExit(0 if worst < 1e-9 and len(s) == len(r) > 100 else 1)
PY
# Each cut is one layer of 3 x 3 nodes on every rank count (on 2 and 3 ranks a section once
# inherited the previous one's marks on the ghost nodes: 18 at z = 2).
for np in 1 2 3; do
  [ "$(grep -c "^section   [a-z0-9]*: 9 nodes on the cut" np$np/log)" = 4 ] ||
    fail "np $np: $(grep "nodes on the cut" np$np/log | tr '\n' ' ')"
done
grep -Eq "^section   above1: largest \|f\| x [0-9.e+-]+ at t = [0-9.]+, y " np2/log || fail "no envelope line"
python3 - <<'PY' || failed=1
import csv
rows = lambda p: list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
bad = False
s, r = rows('np2/out/sections.csv'), rows('np2/out/reactions.csv')
peak = max(abs(float(x['zmin.fx'])) for x in r)
worst = max(abs(float(a['base.fx']) - float(b['zmin.fx'])) for a, b in zip(s, r)) / peak
print('transient: base section against the reaction, %d rows: %.3g of the peak %.6g N' % (len(s), worst, peak))
bad = bad or not (worst < 1e-9 and len(s) == len(r) == 201)
for np in (1, 3):
    o = rows('np%d/out/sections.csv' % np)
    d = max(abs(float(a[k]) - float(b[k])) for a, b in zip(s, o) for k in a if k not in ('step', 'time'))
    scale = max(abs(float(a[k])) for a in s for k in a if k not in ('step', 'time'))
    print('np %d against np 2: %.3g' % (np, d / scale))
    bad = bad or not d < 1e-9 * scale
# Drifts: the storeys add up to the whole height's, which is the probes' roof - base; ratios.
d, p = rows('np2/out/drifts.csv'), rows('np2/out/probes.csv')
scale = max(abs(float(x['whole.s1.drift_x'])) for x in d)
worst = 0
for a, b in zip(d, p):
    total = sum(float(a['storeys.s%d.drift_x' % i]) for i in (1, 2, 3))
    worst = max(worst, abs(total - float(a['whole.s1.drift_x'])),
                abs(float(a['whole.s1.drift_x']) - (float(b['roof.ux']) - float(b['base.ux']))),
                abs(float(a['storeys.s2.ratio_x']) - float(a['storeys.s2.drift_x'])) * 1.0,
                abs(3 * float(a['whole.s1.ratio_x']) - float(a['whole.s1.drift_x'])))
print('drifts: sum of storeys, roof - base, ratios: %.3g of the peak %.6g m' % (worst / scale, scale))
bad = bad or not (worst < 1e-12 * scale and len(d) == 201)
rsa = {x['quantity']: x for x in csv.DictReader(open('np2/out/rsa.csv'))}
e = abs(float(rsa['base.force']['x']) / float(rsa['base_reaction']['x']) - 1)
print('RSA: base section %s against the base reaction %s (%.2g)' % (rsa['base.force']['x'], rsa['base_reaction']['x'], e))
bad = bad or not e < 1e-9
# The RSA drift over the whole height is the combined displacement of the roof's centre (the base
# is at rest in the relative frame): 2.7e-6 below the largest over all nodes (the roof's corners);
# storey drifts combine the modes' drifts, so they add up to at least the whole (CQC is a norm).
whole = float(rsa['whole.s1.drift']['x'])
e = abs(whole / float(rsa['max_displacement']['x']) - 1)
parts = sum(float(rsa['storeys.s%d.drift' % i]['x']) for i in (1, 2, 3))
print('RSA: drift over the height %.10g, largest displacement %s (%.2g apart); storeys %.10g' % (whole, rsa['max_displacement']['x'], e, parts))
bad = bad or not (e < 1e-4 and parts >= whole * (1 - 1e-12))
raise SystemExit(1 if bad else 0)
PY

# Bad input.
head="$tower
boundary_conditions: [{region: zmin, type: fixed}]
time: {dt: 0.01, steps: 1}"
check_refuses --run zero_normal "output\.sections\[0\]\.plane\.normal: must not be zero" "$head
output: {sections: [{name: s, plane: {point: [0, 0, 1], normal: [0, 0, 0]}}]}"
check_refuses --run duplicate "output\.sections\[1\]\.name: duplicate section 's'" "$head
output: {sections: [{name: s, plane: {point: [0, 0, 1], normal: [0, 0, 1]}}, {name: s, plane: {point: [0, 0, 2], normal: [0, 0, 1]}}]}"
check_refuses --run outside "output\.sections\[0\] 'high': the plane cuts no solid" "$head
output: {sections: [{name: high, plane: {point: [0, 0, 9], normal: [0, 0, 1]}}]}"
check_refuses --run key "output\.sections\[0\]: unknown key 'plain'" "$head
output: {sections: [{name: s, plain: {point: [0, 0, 1], normal: [0, 0, 1]}}]}"

check_refuses --run levels "output\.drifts\[0\]\.levels\[2\]: levels must increase strictly \(1 after 2\)" "$head
output: {drifts: [{name: d, point: [0.2, 0.2], levels: [0, 2, 1]}]}"
check_refuses --run drift_point "output\.drifts\[0\]\.point: expected a list of 2 numbers" "$head
output: {drifts: [{name: d, point: [0.2, 0.2, 0], levels: [0, 1]}]}"
check_refuses --run drift_outside "output\.drifts.*outside" "$head
output: {drifts: [{name: d, point: [5, 5], levels: [0, 1]}]}"

# A cut between two regions (output.sections with regions: [A, B]): a column of two volumes
# sharing the face z = 1 (meshes/two_storeys.msh), static under gravity and a top traction.
# The force on the upper storey from the lower one equals the plane cut at z = 1 (1e-12 of the
# largest component; the moments about the same point: the cut nodes' centroid, (0.5, 0.5, 1)),
# and holds the upper storey's weight and the top load, force and moment (1e-9); the reverse cut
# is the opposite; np 1, 2 and 3 agree (1e-12). Measured 1.3e-13, 2e-16, 7e-16, 4e-16.
cp "$INERTIA_SOURCE_DIR/meshes/two_storeys.msh" .
cat >storeys.yaml <<YAML
mesh: {file: two_storeys.msh}
materials:
  - {region: lower, density: 2500, youngs_modulus: 3.0e9, poissons_ratio: 0.2}
  - {region: upper, density: 1500, youngs_modulus: 1.0e9, poissons_ratio: 0.25}
gravity: [0, 0, -9.81]
boundary_conditions:
  - {region: base, type: fixed}
  - {region: top, type: traction, value: [1000, 500, -2000]}
time: {integrator: static, dt: 1, steps: 1}
output:
  directory: out
  every: 0
  sections:
    - {name: storey, regions: [upper, lower]}
    - {name: plane, plane: {point: [0.5, 0.5, 1.0], normal: [0, 0, 1]}}
    - {name: reverse, regions: [lower, upper]}
YAML
for np in 1 2 3; do
  mkdir -p storeys$np && cp storeys.yaml two_storeys.msh storeys$np/
  (cd storeys$np && mpi $np "$INERTIA" storeys.yaml >log 2>&1) || fail "storeys np $np: $(tail -1 storeys$np/log)"
done
grep -q "section   storey: 9 nodes on the cut, moments about (0.5, 0.5, 1)" storeys2/log || fail "storeys: $(grep '^section' storeys2/log)"
python3 - <<'PY' || failed=1
import csv
def last(np):
    rows = list(csv.DictReader(l for l in open('storeys%d/out/sections.csv' % np) if not l.startswith('#')))
    return rows[-1]
keys = ['fx', 'fy', 'fz', 'mx', 'my', 'mz']
r = last(2)
region = [float(r['storey.' + k]) for k in keys]
plane = [float(r['plane.' + k]) for k in keys]
reverse = [float(r['reverse.' + k]) for k in keys]
scale = max(abs(x) for x in region)
gap = max(abs(a - b) for a, b in zip(region, plane)) / scale
opposite = max(abs(a + b) for a, b in zip(region[:3], reverse[:3])) / scale
# The upper storey (1 m^3, 1500 kg/m^3) and the top load on 1 m^2: the force from below holds them.
# Moments about (0.5, 0.5, 1): the top load 1 m above gives r x F = (-500, 1000, 0), the weight
# none (its centroid straight above): the cut holds the opposite.
weight = 1500 * 9.81
expected = [-1000, -500, 2000 + weight, 500, -1000, 0]
load = max(abs(a - b) for a, b in zip(region, expected)) / scale
ranks = max(abs(float(last(np)['storey.' + k]) - float(r['storey.' + k])) for np in (1, 3) for k in keys) / scale
print('region cut: %s; against the plane %.3g, the opposite side %.3g, the loads %.3g, np 1/3 %.3g'
      % (' '.join('%.6g' % x for x in region), gap, opposite, load, ranks))
raise SystemExit(0 if gap < 1e-12 and opposite < 1e-12 and load < 1e-9 and ranks < 1e-12 else 1)
PY
# A point mass (100 kg at the roof's centre, meshes/two_storeys.geo's roof_centre) away from
# the cut is part of its side's balance: the storey force holds its weight too, and the base
# section is the reaction (1e-9).
sed -e 's|^gravity:|point_masses: [{region: roof_centre, mass: 100}]\ngravity:|' storeys.yaml >storeys_mass.yaml
mkdir -p mass && cp storeys_mass.yaml two_storeys.msh mass/
sed -i 's|    - {name: reverse, regions: \[lower, upper\]}|    - {name: base, plane: {point: [0.5, 0.5, 0.0], normal: [0, 0, 1]}}|' mass/storeys_mass.yaml
(cd mass && mpi 2 "$INERTIA" storeys_mass.yaml >log 2>&1) || fail "point mass: $(tail -1 mass/log)"
python3 - <<'PY' || failed=1
import csv
rows = lambda p: list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
s, r = rows('mass/out/sections.csv')[-1], rows('mass/out/reactions.csv')[-1]
expected = 2000 + (1500 + 100) * 9.81
storey = abs(float(s['storey.fz']) - expected) / expected
base = max(abs(float(s['base.f' + c]) - float(r['base.f' + c])) for c in 'xyz') / abs(float(r['base.fz']))
print('point mass above the cut: storey fz %.6g against %.6g (%.3g); base section against the reaction %.3g'
      % (float(s['storey.fz']), expected, storey, base))
raise SystemExit(0 if storey < 1e-9 and base < 1e-9 else 1)
PY
storeys_head='mesh: {file: two_storeys.msh}
materials:
  - {region: lower, density: 2500, youngs_modulus: 3.0e9, poissons_ratio: 0.2}
  - {region: upper, density: 1500, youngs_modulus: 1.0e9, poissons_ratio: 0.25}
boundary_conditions: [{region: base, type: fixed}]
time: {dt: 0.01, steps: 1}'
check_refuses --run region_unknown "output\.sections\[0\] 's': unknown region 'roof'" "$storeys_head
output: {sections: [{name: s, regions: [upper, roof]}]}"
check_refuses --run region_surface "output\.sections\[0\] 's': region 'top' is not a volume region" "$storeys_head
output: {sections: [{name: s, regions: [top, upper]}]}"
check_refuses --run region_same "output\.sections\[0\]\.regions: the two regions must differ" "$storeys_head
output: {sections: [{name: s, regions: [upper, upper]}]}"
check_refuses --run region_both "output\.sections\[0\]: a section needs 'name' and either 'plane' or 'regions'" "$storeys_head
output: {sections: [{name: s, regions: [upper, lower], plane: {point: [0, 0, 1], normal: [0, 0, 1]}}]}"
cp "$INERTIA_SOURCE_DIR/meshes/two_bars.msh" .
check_refuses --run region_apart "output\.sections\[0\] 's': the regions 'bar1' and 'bar2' share no node" 'mesh: {file: two_bars.msh}
materials:
  - {region: bar1, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
  - {region: bar2, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
time: {dt: 1e-6, steps: 1}
output: {sections: [{name: s, regions: [bar1, bar2]}]}'

finish
