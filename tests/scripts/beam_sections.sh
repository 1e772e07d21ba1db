#!/usr/bin/env bash
# Section cuts through beams (output.sections) and the section_forces probe field, on the
# three-storey frame (meshes/beam_frame3.msh, its four feet made groups foot1..4 here so that
# reactions.csv has each foot's force and moment) and the cantilever (beam_cantilever_*.msh):
# - static floor loads F = [10, 5, 0] kN at each floor (its 4 corners), np 1, 2, 3: each storey
#   cut (a plane just above the floor below it) carries -(the loads above) and the moment about
#   its point of -(sum of (r - p) x load above) (1e-10); the base cut is the feet's reactions,
#   forces and moments (sum of m_foot + (r_foot - p) x f_foot), 1e-10;
# - a transient under base acceleration (Newmark, consistent mass, Rayleigh damping), np 1, 2, 3:
#   the base cut equals the feet's reactions at every row (1e-9 of the peak), and the ranks agree;
# - response spectrum (CQC): the base section's combined force is the combined base reaction;
# - corotational beams at the cuts (their own force at u), np 1 and 3: each storey carries the
#   loads above (1e-9), the base cut the feet's reactions with their moments (1e-9), and a
#   storey's moment moves off the linear frame's by the sway's lever (between 1e-9 and 1e-2);
# - a cantilever (L = 2) with a tip force (300, 1000, 2000) N and tip torque 50 N m: probes'
#   section_forces at x = 0.5 (one element: linear between its ends) and 0.55 (16 elements) give
#   N = 300, Vy = 1000, Vz = 2000, T = 50, My = -2000 (L - x), Mz = 1000 (L - x) (1e-10), np 1, 2, 3;
#   in a transient the probe's columns equal the frames' cell data section_forces of its element
#   interpolated at its point (1e-12 of the peak, np 1, 2; the .vtu read here in numpy).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
numpy_python "beam section checks"
meshes="$INERTIA_SOURCE_DIR/meshes"
cd "$work"

# The frame with its feet as four point groups (tags 3, 7, 8, 9; "base" was tag 3).
"$py" - "$meshes/beam_frame3.msh" feet.msh << 'PY'
import sys
src = open(sys.argv[1]).read()
names = '6\n0 3 "base"\n'
assert names in src
src = src.replace(names, '9\n0 3 "foot1"\n0 7 "foot2"\n0 8 "foot3"\n0 9 "foot4"\n', 1)
lines = src.split('\n')
i = lines.index('$Entities')
for j in range(i + 2, i + 6):  # the point entities 1..4 (the feet)
    f = lines[j].split()
    assert f[0] in '1234' and f[-1] == '3', f
    f[-1] = {'1': '3', '2': '7', '3': '8', '4': '9'}[f[0]]
    lines[j] = ' '.join(f) + ' '
open(sys.argv[2], 'w').write('\n'.join(lines))
PY

frame() {  # frame FILE CONDITIONS REST
  cat > "$1" << EOF
mesh: {file: $work/feet.msh}
materials:
  - {region: columns, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
  - {region: beams, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: columns, area: 0.012, iy: 1.5e-4, iz: 1.0e-4, torsion: 5.0e-5, theory: euler_bernoulli}
  - {region: beams, area: 0.008, iy: 1.2e-4, iz: 2.0e-5, torsion: 2.0e-5, theory: euler_bernoulli}
point_masses:
  - {region: floor1, mass: 1.0e4}
  - {region: floor2, mass: 1.0e4}
  - {region: floor3, mass: 1.0e4}
boundary_conditions:
$2
$3
output:
  directory: out
  every: 0
  history_every: 1
  reactions: true
  sections:
    - {name: base, plane: {point: [1, 1, 0], normal: [0, 0, 1]}}
    - {name: s2, plane: {point: [1, 1, 3.3], normal: [0, 0, 1]}}
    - {name: s3, plane: {point: [1, 1, 6.5], normal: [0, 0, 1]}}
EOF
}
fixed=""
for f in 1 2 3 4; do fixed+="  - {region: foot$f, type: fixed}
"; done
frame static.yaml "$fixed  - {region: floor1, type: force, value: [10000, 5000, 0]}
  - {region: floor2, type: force, value: [10000, 5000, 0]}
  - {region: floor3, type: force, value: [10000, 5000, 0]}" "time: {integrator: static, dt: 1, end_time: 1}"
shaken=""
for f in 1 2 3 4; do shaken+="  - {region: foot$f, type: fixed, components: [y, z, rx, ry, rz]}
  - {region: foot$f, type: acceleration, components: [x], value: [3.0], amplitude: pulse}
"; done
printf '0,0\n0.05,1\n0.1,-1\n0.15,0.5\n0.2,0\n' > pulse.csv
frame transient.yaml "$shaken" "amplitudes: {pulse: {type: table, file: $work/pulse.csv}}
modal: {modes: 6}
response_spectrum: {spectrum: {record: pulse, scale: 3.0}, directions: [x], combination: cqc}
time: {integrator: newmark, mass: consistent, dt: 0.005, end_time: 0.5, rayleigh: {mass: 0.5, stiffness: 1.0e-4}}"
for np in 1 2 3; do
  in_dir "static$np" "$np" static.yaml
  in_dir "transient$np" "$np" transient.yaml
done

"$py" - "$work" << 'PY' || failed=1
import csv, sys
import numpy as np
work = sys.argv[1]
failed = []
def rows(path):
    return list(csv.DictReader(l for l in open(path) if not l.startswith('#')))
def check(what, got, want, tol, scale):
    e = np.abs(np.asarray(got) - np.asarray(want)).max() / scale
    print(f"{'ok  ' if e <= tol else 'FAIL'} {what}: error {e:.2e} of {scale:.4g} (tolerance {tol:.0e})")
    if not e <= tol: failed.append(what)
feet = {1: (0, 0, 0), 2: (5, 0, 0), 3: (5, 4, 0), 4: (0, 4, 0)}
corners = [(0, 0), (5, 0), (5, 4), (0, 4)]
F = np.array([10000.0, 5000.0, 0.0])
def loads_above(z, p):  # the loads above a plane at z: their sum and moment about p
    f, m = np.zeros(3), np.zeros(3)
    for level in (1, 2, 3):
        h = 3.2 * level
        if h <= z: continue
        for x, y in corners:
            f += F / 4
            m += np.cross(np.array([x, y, h]) - p, F / 4)
    return f, m
def base_from_reactions(r, p):  # the feet's reactions as a force and a moment about p
    f, m = np.zeros(3), np.zeros(3)
    for k, at in feet.items():
        fk = np.array([float(r[f'foot{k}.f{c}']) for c in 'xyz'])
        mk = np.array([float(r[f'foot{k}.m{c}']) for c in 'xyz'])
        f += fk
        m += mk + np.cross(np.array(at, float) - p, fk)
    return f, m
section = lambda s, name: (np.array([float(s[f'{name}.f{c}']) for c in 'xyz']),
                           np.array([float(s[f'{name}.m{c}']) for c in 'xyz']))
for np_ in (1, 2, 3):
    s, r = rows(f'{work}/static{np_}/out/sections.csv')[-1], rows(f'{work}/static{np_}/out/reactions.csv')[-1]
    scale_f, scale_m = 3 * np.abs(F).max(), 3 * np.abs(F).max() * 9.6
    for name, z in (('base', 0.0), ('s2', 3.3), ('s3', 6.5)):
        p = np.array([1, 1, z])
        f, m = section(s, name)
        wf, wm = loads_above(z, p)
        print(f'  static np {np_} {name}: force {f} moment {m}')
        check(f'static np {np_}: {name} force = -(the loads above)', f, -wf, 1e-10, scale_f)
        check(f'static np {np_}: {name} moment = -(sum (r - p) x load above)', m, -wm, 1e-10, scale_m)
    f, m = section(s, 'base')
    rf, rm = base_from_reactions(r, np.array([1, 1, 0]))
    check(f'static np {np_}: base force = the feet reactions', f, rf, 1e-10, scale_f)
    check(f'static np {np_}: base moment = the feet reactions\' moments about (1, 1, 0)', m, rm, 1e-10, scale_m)
runs = {}
for np_ in (1, 2, 3):
    s, r = rows(f'{work}/transient{np_}/out/sections.csv'), rows(f'{work}/transient{np_}/out/reactions.csv')
    assert len(s) == len(r) == 101, (len(s), len(r))
    got = np.array([np.concatenate(section(x, 'base')) for x in s])
    want = np.array([np.concatenate(base_from_reactions(x, np.array([1, 1, 0]))) for x in r])
    peak_f, peak_m = np.abs(want[:, :3]).max(), np.abs(want[:, 3:]).max()
    print(f'  transient np {np_}: peak base shear {peak_f:.6g} N, peak base moment {peak_m:.6g} N m')
    check(f'transient np {np_}: base force = the feet reactions at all {len(s)} rows', got[:, :3], want[:, :3], 1e-9, peak_f)
    check(f'transient np {np_}: base moment = the feet reactions\' at all rows', got[:, 3:], want[:, 3:], 1e-9, peak_m)
    runs[np_] = np.array([[float(x[k]) for k in x if k not in ('step', 'time')] for x in s])
    peak2 = np.abs(runs[np_][:, 6:9]).max()  # s2.fx, fy, fz
    print(f'  transient np {np_}: peak storey-2 shear {peak2:.6g} N (the base\'s {peak_f:.6g} N)')
    if not 0.2 * peak_f < peak2 < peak_f:
        print(f'FAIL transient np {np_}: the storey-2 shear is not a part of the base shear')
        failed.append('storey 2')
for np_ in (2, 3):
    check(f'transient: sections.csv np {np_} = np 1', runs[np_], runs[1], 1e-9, np.abs(runs[1]).max())
for np_ in (1, 2, 3):
    rsa = {x['quantity']: x for x in csv.DictReader(l for l in open(f'{work}/transient{np_}/out/rsa.csv') if not l.startswith('#'))}
    got, want = float(rsa['base.force']['x']), float(rsa['base_reaction']['x'])
    print(f'  RSA np {np_}: base section {got:.9g}, base reaction {want:.9g}, storeys 2, 3: {rsa["s2.force"]["x"]}, {rsa["s3.force"]["x"]}')
    check(f'RSA np {np_}: the base section\'s combined force = the combined base reaction', got, want, 1e-9, abs(want))
sys.exit(1 if failed else 0)
PY

# Corotational beams at a cut: their own force at u (the same static loads, np 1 and 3).
sed -e 's/theory: euler_bernoulli}/theory: euler_bernoulli, kinematics: corotational}/' \
  static.yaml > corotational.yaml
grep -q "kinematics: corotational" corotational.yaml || die "corotational.yaml has no corotational beams"
for np in 1 3; do in_dir "corotational$np" "$np" corotational.yaml; done
"$py" - "$work" << 'PY' || failed=1
import csv, sys
import numpy as np
work = sys.argv[1]
def rows(path):
    return list(csv.DictReader(l for l in open(path) if not l.startswith('#')))
feet = {1: (0, 0, 0), 2: (5, 0, 0), 3: (5, 4, 0), 4: (0, 4, 0)}
F, bad = np.array([10000.0, 5000.0, 0.0]), []
for np_ in (1, 3):
    s = rows(f'{work}/corotational{np_}/out/sections.csv')[-1]
    r = rows(f'{work}/corotational{np_}/out/reactions.csv')[-1]
    lin = rows(f'{work}/static1/out/sections.csv')[-1]
    get = lambda row, name, q: np.array([float(row[f'{name}.{q}{c}']) for c in 'xyz'])
    for name, above in (('base', 3), ('s2', 2), ('s3', 1)):
        e = np.abs(get(s, name, 'f') + above * F).max() / np.abs(F).max()
        print(f"  corotational np {np_} {name}: force {get(s, name, 'f')}, moment {get(s, name, 'm')} (linear {get(lin, name, 'm')})")
        if not e < 1e-9: bad.append(f'np {np_} {name} force {e:.1e}')
    f, m = np.zeros(3), np.zeros(3)
    for k, at in feet.items():
        fk = np.array([float(r[f'foot{k}.f{c}']) for c in 'xyz'])
        f += fk
        m += np.array([float(r[f'foot{k}.m{c}']) for c in 'xyz']) + np.cross(np.array(at, float) - [1, 1, 0], fk)
    e = max(np.abs(get(s, 'base', 'f') - f).max() / np.abs(F).max(),
            np.abs(get(s, 'base', 'm') - m).max() / (np.abs(F).max() * 9.6))
    print(f"  corotational np {np_}: base cut against the feet's reactions {e:.1e}")
    if not e < 1e-9: bad.append(f'np {np_} base against reactions {e:.1e}')
    d = np.abs(get(s, 's2', 'm') - get(lin, 's2', 'm')).max() / (np.abs(F).max() * 9.6)
    print(f"  corotational np {np_}: s2's moment against the linear frame's {d:.1e} (the sway's lever)")
    if not 1e-9 < d < 1e-2: bad.append(f'np {np_} s2 moment against linear {d:.1e}')
for x in bad: print('FAIL corotational cut:', x)
sys.exit(1 if bad else 0)
PY

# The cantilever's section_forces probes.
cantilever() {  # cantilever FILE MESH PROBE_X
  cat > "$1" << EOF
mesh: {file: $meshes/$2}
materials:
  - {region: beam, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
sections:
  - {region: beam, shape: {type: rectangle, width: 0.1, height: 0.2}}
boundary_conditions:
  - {region: root, type: fixed}
  - {region: tip, type: force, value: [300, 1000, 2000]}
  - {region: tip, type: moment, value: [50, 0, 0]}
time: {integrator: static, dt: 1, end_time: 1}
output:
  directory: out
  every: 0
  probes:
    - {name: q, point: [$3, 0, 0], fields: [section_forces]}
EOF
}
cantilever one.yaml beam_cantilever_1.msh 0.5
cantilever sixteen.yaml beam_cantilever_16.msh 0.55
for np in 1 2 3; do
  in_dir "one$np" "$np" one.yaml
  in_dir "sixteen$np" "$np" sixteen.yaml
done
"$py" - "$work" << 'PY' || failed=1
import csv, sys
work = sys.argv[1]
bad = False
for run, x in (('one', 0.5), ('sixteen', 0.55)):
    want = {'N': 300, 'Vy': 1000, 'Vz': 2000, 'T': 50, 'My': -2000 * (2 - x), 'Mz': 1000 * (2 - x)}
    for np_ in (1, 2, 3):
        row = list(csv.DictReader(l for l in open(f'{work}/{run}{np_}/out/probes.csv') if not l.startswith('#')))[-1]
        worst = max(abs(float(row[f'q.{k}']) - v) / 3000 for k, v in want.items())
        print(f"{'ok  ' if worst <= 1e-10 else 'FAIL'} cantilever {run} np {np_}: probe at x = {x}: "
              + ', '.join(f"{k} {float(row[f'q.{k}']):.10g}" for k in want) + f' (error {worst:.1e} of 3 kN m)')
        bad = bad or not worst <= 1e-10
sys.exit(1 if bad else 0)
PY
grep -q "probe q: section_forces in beam element" one1/out/probes.csv || fail "probes.csv: no comment on the probe's beam"

# In a transient (Newmark, the tip loads applied suddenly) the probe's columns are the frames'
# cell data section_forces of its element, interpolated at the probe's point (np 1 and 2).
sed -e 's/time: {integrator: static, dt: 1, end_time: 1}/time: {integrator: newmark, dt: 2.0e-4, end_time: 0.02}/' \
  -e 's/  every: 0/  every: 10\n  fields: [section_forces]/' sixteen.yaml > moving.yaml
grep -q "integrator: newmark" moving.yaml || die "moving.yaml is not a transient"
for np in 1 2; do
  in_dir "moving$np" "$np" moving.yaml
done
"$py" - "$work" << 'PY' || failed=1
import csv, glob, re, struct, sys, zlib
import numpy as np
work = sys.argv[1]
def vtu_arrays(path):
    """The DataArrays of a .vtu as inertia writes them (raw appended, zlib, UInt64 headers)."""
    data = open(path, 'rb').read()
    head, _, raw = data.partition(b'<AppendedData encoding="raw">')
    raw = raw[raw.index(b'_') + 1:]
    out = {}
    for m in re.finditer(rb'<DataArray ([^>]*)>', head):
        a = dict(re.findall(rb'(\w+)="([^"]*)"', m.group(1)))
        at = int(a[b'offset'])
        n = struct.unpack_from('<Q', raw, at)[0]
        pos, chunks = at + 24 + 8 * n, []
        for size in struct.unpack_from(f'<{n}Q', raw, at + 24):
            chunks.append(zlib.decompress(raw[pos:pos + size]))
            pos += size
        dtype = {b'Float64': '<f8', b'Int64': '<i8', b'Int32': '<i4', b'UInt8': 'u1'}[a[b'type']]
        v = np.frombuffer(b''.join(chunks), dtype)
        k = int(a.get(b'NumberOfComponents', b'1'))
        out[a[b'Name'].decode()] = v.reshape(-1, k) if k > 1 else v
    return out
def at_point(frame, x):  # the frame's section forces of the line cell holding x, interpolated
    for piece in glob.glob(f'{frame}/*.vtu'):
        a = vtu_arrays(piece)
        start = 0
        for c, end in enumerate(a['offsets']):
            nodes = a['connectivity'][start:end]
            start = end
            x0, x1 = a['Points'][nodes, 0] if len(nodes) == 2 else (0, 0)
            if min(x0, x1) < x < max(x0, x1):
                s = (x - x0) / (x1 - x0)
                return (1 - s) * a['section_forces'][c, :6] + s * a['section_forces'][c, 6:]
    raise SystemExit(f'{frame}: no beam cell holds x = {x}')
bad = False
for np_ in (1, 2):
    out = f'{work}/moving{np_}/out'
    rows = {int(r['step']): r for r in csv.DictReader(l for l in open(f'{out}/probes.csv') if not l.startswith('#'))}
    frames = sorted(d for d in glob.glob(f'{out}/moving_*') if not d.endswith('.pvtu'))
    worst, peak = 0.0, 0.0
    for k, frame in enumerate(frames):
        want = at_point(frame, 0.55)
        got = np.array([float(rows[10 * k][f'q.{c}']) for c in ('N', 'Vy', 'Vz', 'T', 'My', 'Mz')])
        worst, peak = max(worst, np.abs(got - want).max()), max(peak, np.abs(want).max())
    ok = len(frames) == 11 and peak > 0 and worst <= 1e-12 * peak
    print(f"{'ok  ' if ok else 'FAIL'} transient np {np_}: the probe's section forces = the frames' cell "
          f"data at {len(frames)} frames: largest difference {worst:.2g} of {peak:.6g}")
    bad = bad or not ok
sys.exit(1 if bad else 0)
PY
finish
