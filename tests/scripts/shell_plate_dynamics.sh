#!/usr/bin/env bash
# Shells in dynamics through the whole program: modal (SLEPc), harmonic (modal superposition),
# central difference against Newmark, on flat plates of `shells:` (MITC4, lumped mass with the
# rotary inertia rho t^3 / 12 per rotation in modal and implicit runs).
#
# Simple support: "hard" everywhere (w = 0 and the rotation about the edge's normal held: rx on
# x = const, ry on y = const; the rotation about the edge free), the support Navier's solutions
# of both Kirchhoff's and Mindlin's plates satisfy exactly (w, psi_x, psi_y = W sin sin,
# Psi_x cos sin, Psi_y sin cos), so both have closed forms; the "soft" one (only w held) has a
# boundary layer in thick plates and no closed form (on 32 x 32 it lowers (1,1) by 0.04 % at
# a/t 200 and by 3.8 % at a/t 10, 442.52 -> 441.57 Hz from 16 to 32: measured, no closed form;
# checked in a band, -6 % to -2 %, that a change of the element or the conditions would leave).
#
# (a) A simply supported square plate, a 1, E 200 GPa, nu 0.3, 8000 kg/m^3, in-plane motion and
# drilling held (bending alone), the 6 lowest modes on 16 x 16 and 32 x 32 (shell_plate_16/32),
# against Kirchhoff (omega = pi^2 (m^2 + n^2) / a^2 sqrt(D / rho t)) and Mindlin (the lowest root
# of the 3 x 3 Navier determinant of Mindlin's 1951 equations with rotary inertia rho t^3 / 12 and
# the shear factor 5/6; the same as Hashemi and Arsanjani's 2005 closed form; t/a 0.1, (1,1):
# omega t sqrt(rho / G) = 0.0930, the published value). Measured (Hz, error against Mindlin):
#   a/t 200: (1,1) 23.7146 / 23.7524 (-0.21 / -0.053 %), (2,2) 94.235 / 94.833 (-0.84 / -0.21 %),
#            (1,3) 119.616 / 118.977 (+0.70 / +0.16 %): second order; Richardson (4 f32 - f16) / 3
#            within 0.015 % of Mindlin for all six (Mindlin is 0.009 % to 0.05 % below Kirchhoff).
#   a/t 10:  (1,1) 458.05 / 458.84 (-0.23 / -0.058 %), (2,2) 1662.6 / 1676.2 (-1.08 / -0.27 %);
#            Mindlin 3.4 % to 14 % below Kirchhoff here (shear and rotary inertia; the rotary
#            inertia alone lowers Mindlin's by 0.7 % (1,1) to 2.5 % (1,3): printed).
# Checked: 32 x 32 within 0.4 % of Mindlin, the error falling from 16 to 32, Richardson within
# 0.05 % of Mindlin, the thick plate's (1,1) > 3 % below Kirchhoff.
#
# (b) NAFEMS 13H on shells (see nafems_13h.sh for the solid model and the series): the quarter of
# the 10 x 10 x 0.05 m plate (shell_quarter_plate_10/20: 5 x 5 m, 10 x 10 and 20 x 20 cells),
# symmetry on x = 5 (u_x, ry, rz) and y = 5 (u_y, rx, rz), 100 Pa, 6 modes, 2 % modal damping,
# 0.04 to 4.16 Hz. Measured: f1 2.37328 / 2.37570 Hz (series 2.37672: -0.145 / -0.043 %), peak
# 45.385 / 45.432 mm (45.42: -0.08 / +0.03 %). The centre's M11: a static run's shell_resultants
# on the cell at the centre against the series at that cell's centre (-0.16 / -0.04 %), and at the
# resonance from the harmonic centre deflections (fourth-order difference over the nodes on the
# mid-lines) against the series' M11 at the centre, 13,347 N m/m (-0.12 / -0.02 %); the static
# centre deflection (series 1.7744 mm: -0.07 / -0.007 %). Checked: f1, the peak (against 45.42
# and the series) and its frequency within 0.2 %, M11 within 0.3 % (static 20 x 20: 0.1 %). np 1,
# 2, 3 on 20 x 20: f1 the same to 2e-12, the centre's amplitudes to 4e-11 (checked: 1e-8, 1e-6).
#
# (c) The thick plate of (a) (16 x 16, a/t 10: rho t A / 4 max(t^2 / 12, A / 8) keeps t^2 / 12,
# so the explicit run has the same mass as the implicit one) released at t = 0 from its static
# deflection under 1e5 Pa (initial_conditions: static_equilibrium, the load's amplitude 1 -> 0 at
# once; the log warns that the steps sample it only at their times and that it ends before the
# run: both intended), 3 periods of the first mode by central_difference (dt: auto, lumped) and
# by newmark (trapezoidal, dt 1.1e-5).
# Measured: the power iterations' stable step 1.19199e-5 s against the membrane's L / c_plate =
# 0.0625 / 5241.4 = 1.19243e-5 (-0.04 %); total energy constant to 3.2e-4 of the strain energy
# released (all of which turns kinetic at a quarter period), its mean over the first and the last
# sixth of the run 1.65e-4 and 1.66e-4 (an offset from the first steps that does not grow: the
# half-step kinetic energy of the released high modes); the centre's histories 1.5 % of w0 apart;
# the first mode's frequency in each history (a least-squares sinusoid) against the modal
# 458.0483 Hz: central difference +3.2e-5 (its period shortening (omega dt)^2 / 24: +3.95e-5),
# newmark -8.1e-5 (its elongation (omega dt)^2 / 12: -8.35e-5). Checked: the step within 0.5 % of
# L / c_plate, the drift below 1e-3 and its growth below 2e-5, the histories within 3 %, each
# frequency within 3e-5 of the modal f1 plus its scheme's error; the explicit run at np 1 and 2
# the same to 1e-9.
# (c2) The quarter 13H plate of (b) (10 x 10) released the same way: there the explicit run's
# rotary inertia is raised 150 times (rho t A / 8 per area against rho t^3 / 12: the stable step
# 9.54149e-5 s, L / c_plate 9.53939e-5, against 9.36622e-6 with rho t^3 / 12). Mindlin's Navier
# solution with that inertia lowers f1 by the factor 0.996951: measured 0.997126 (explicit
# 2.36631 Hz against newmark's 2.37313, whose elongation the prediction includes; newmark itself
# -6.1e-5 from the modal 2.37328, its elongation -7.4e-5). Checked: that ratio to 2e-4 (the
# shift is 3.0e-3; measured 1.0e-4 off), newmark to 3e-5, the step to 0.5 %, the energy to 1e-4
# (measured 5.7e-7).
# 17 runs, 40 to 60 s on 2 shared cores.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
meshes="$INERTIA_SOURCE_DIR/meshes"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"
material='materials:
  - {region: plate, density: 8000, youngs_modulus: 2.0e11, poissons_ratio: 0.3}'

# (a) --------------------------------------------------------------------------------------------
for n in 16 32; do
  for t in 0.005 0.1; do
    mkdir -p a_${n}_$t
    cat > a_${n}_$t/case.yaml <<YAML
mesh: {file: $meshes/shell_plate_$n.msh}
$material
shells:
  - {region: plate, thickness: $t}
boundary_conditions:
  - {region: plate, type: fixed, components: [x, y, rz]}
  - {region: xmin, type: fixed, components: [z, rx]}
  - {region: xmax, type: fixed, components: [z, rx]}
  - {region: ymin, type: fixed, components: [z, ry]}
  - {region: ymax, type: fixed, components: [z, ry]}
modal: {modes: 6}
output: {directory: out}
YAML
    (cd a_${n}_$t && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "plate $n t $t: $(tail -1 a_${n}_$t/log)"
    has a_${n}_$t/log "rotary inertia rho t^3 / 12"
  done
done
# The soft support (only w held on the edges) on 32 x 32, for comparison.
for t in 0.005 0.1; do
  mkdir -p soft_$t && sed 's/components: \[z, r.\]/components: [z]/' a_32_$t/case.yaml > soft_$t/case.yaml
  (cd soft_$t && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "soft $t: $(tail -1 soft_$t/log)"
done
python3 - <<'PY' || failed=1
import csv, math
from plate import kirchhoff, mindlin, G, rho
from csv_checks import check, passed
modes = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)]
def fe(n, t):
    d = 'soft_%s' % t if n == 'soft' else 'a_%d_%s' % (n, t)
    return [float(r['frequency']) for r in csv.DictReader(open(d + '/out/modes.csv'))]
t = 0.1
print('Mindlin (1,1), t/a 0.1: omega t sqrt(rho/G) = %.4f (published 0.0930)'
      % (2 * math.pi * mindlin(1, 1, t, 1) * t * math.sqrt(rho / G)))
for t in ('0.005', '0.1'):
    f16, f32 = fe(16, t), fe(32, t)
    print('a/t %g     Kirchhoff   Mindlin  (no rot. inertia)   16 x 16    32 x 32  Richardson' % (1 / float(t)))
    for (m, n), a, b in zip(modes, f16, f32):
        K, M, M0 = kirchhoff(m, n, float(t), 1), mindlin(m, n, float(t), 1), mindlin(m, n, float(t), 1, J=0)
        R = (4 * b - a) / 3
        print('  (%d,%d) %10.4f %10.4f %10.4f %+8.3f %% %+8.3f %% %+8.3f %%  %+.4f %%'
              % (m, n, K, M, M0, 100 * (a / M - 1), 100 * (b / M - 1), 100 * (R / M - 1),
                 100 * (M / K - 1)))
        check('a/t %s (%d,%d) 32 x 32 / Mindlin - 1' % (t, m, n), b / M - 1, -4e-3, 4e-3)
        check('a/t %s (%d,%d) |error 32| / |error 16|' % (t, m, n), abs(b / M - 1) / abs(a / M - 1), 0, 0.5)
        check('a/t %s (%d,%d) Richardson / Mindlin - 1' % (t, m, n), R / M - 1, -5e-4, 5e-4)
    soft = fe('soft', t)
    print('  soft support, 32 x 32: %s Hz; (1,1) %+.3f %% from the hard one'
          % (' '.join('%.4f' % x for x in soft), 100 * (soft[0] / f32[0] - 1)))
    if t == '0.1':
        check('a/t 10 (1,1): 32 x 32 / Kirchhoff - 1', f32[0] / kirchhoff(1, 1, 0.1, 1) - 1, -1, -0.03)
        check('a/t 10 (1,1): soft / hard support - 1 (the boundary layer)', soft[0] / f32[0] - 1, -0.06, -0.02)
    else:
        check('a/t 200 (1,1): soft / hard support - 1', soft[0] / f32[0] - 1, -1e-3, 0)
raise SystemExit(0 if passed() else 1)
PY

# (b) --------------------------------------------------------------------------------------------
frequencies=$(python3 -c "
f = {round(0.04 * k, 4) for k in range(1, 105)} | {round(2.3 + 0.0005 * k, 4) for k in range(321)}
print(', '.join(repr(x) for x in sorted(f)))") || exit 1
quarter() {  # $1: cells a side, $2: the analysis lines, $3: more output lines
  local h
  h=$(python3 -c "print(5 / $1)")
  cat <<YAML
mesh: {file: $meshes/shell_quarter_plate_$1.msh}
$material
shells:
  - {region: plate, thickness: 0.05}
boundary_conditions:
  - {region: xmin, type: fixed, components: [z, rx]}
  - {region: ymin, type: fixed, components: [z, ry]}
  - {region: xmax, type: fixed, components: [x, ry, rz]}
  - {region: ymax, type: fixed, components: [y, rx, rz]}
  - {region: plate, type: pressure, value: 100}
$2
output:
  directory: out
$3
  probes:
    - {name: c, point: [5, 5, 0]}
    - {name: x1, point: [$(python3 -c "print(5 - $h)"), 5, 0]}
    - {name: x2, point: [$(python3 -c "print(5 - 2 * $h)"), 5, 0]}
    - {name: y1, point: [5, $(python3 -c "print(5 - $h)"), 0]}
    - {name: y2, point: [5, $(python3 -c "print(5 - 2 * $h)"), 0]}
YAML
}
for n in 10 20; do
  mkdir -p b_$n s_$n
  quarter $n "modal: {modes: 6}
harmonic: {frequencies: [$frequencies], damping: 0.02}" "" > b_$n/case.yaml
  quarter $n "time: {integrator: static, dt: 1, steps: 1}" "  fields: [shell_resultants]" > s_$n/case.yaml
  (cd b_$n && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "13H $n: $(tail -1 b_$n/log)"
  (cd s_$n && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "13H static $n: $(tail -1 s_$n/log)"
done
for np in 1 3; do
  mkdir -p b_20_np$np && cp b_20/case.yaml b_20_np$np/
  (cd b_20_np$np && mpi $np "$INERTIA" case.yaml > log 2>&1) || fail "13H np $np: $(tail -1 b_20_np$np/log)"
done
python3 - <<'PY' || failed=1
import cmath, csv, glob, math
from hertz_moments import read_vtu
from csv_checks import check, passed
E, nu, rho, h, a, q, xi = 200e9, 0.3, 8000.0, 0.05, 10.0, 100.0, 0.02
D = E * h**3 / (12 * (1 - nu**2))
def series(f, x=5.0, y=5.0, M=199):
    """Kirchhoff's deflection and M11 = -D (w_xx + nu w_yy) at (x, y) at f Hz (complex; the
    pressure pushes along -z)."""
    W = M11 = 0
    for m in range(1, M + 1, 2):
        for n in range(1, M + 1, 2):
            w = math.pi**2 * ((m / a)**2 + (n / a)**2) * math.sqrt(D / (rho * h))
            Om = 2 * math.pi * f
            c = -16 * q / (math.pi**2 * m * n) / (rho * h * (w * w - Om * Om + 2j * xi * w * Om))
            s = math.sin(m * math.pi * x / a) * math.sin(n * math.pi * y / a)
            W += c * s
            M11 += c * s * (math.pi / a)**2 * (m * m + nu * n * n) * D
    return W, M11
f1 = math.pi / a**2 * math.sqrt(D / (rho * h))
lo, hi, g = 0.99 * f1, f1, (math.sqrt(5) - 1) / 2
for _ in range(60):
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    if abs(series(x1)[0]) > abs(series(x2)[0]): hi = x2
    else: lo = x1
f_peak = (lo + hi) / 2
w_peak, m_peak = (abs(v) for v in series(f_peak))
print('series: f1 %.5f Hz, peak %.3f mm at %.4f Hz, |M11| there %.2f N m/m' % (f1, 1e3 * w_peak, f_peak, m_peak))
def harmonic(d):
    return list(csv.DictReader(open(d + '/out/harmonic.csv')))
def U(r, p):
    return float(r[p + '.uz_amplitude']) * cmath.exp(1j * math.radians(float(r[p + '.uz_phase'])))
for n in (10, 20):
    s = 5.0 / n
    fe_f1 = float(next(csv.DictReader(open('b_%d/out/modes.csv' % n)))['frequency'])
    check('13H %d x %d: f1 / 2.377 - 1' % (n, n), fe_f1 / 2.377 - 1, -2e-3, 2e-3)
    check('13H %d x %d: f1 / series - 1' % (n, n), fe_f1 / f1 - 1, -2e-3, 2e-3)
    rows = harmonic('b_%d' % n)
    peak = max(rows, key=lambda r: float(r['c.uz_amplitude']))
    w = float(peak['c.uz_amplitude'])
    check('13H %d x %d: peak w / 45.42 mm - 1' % (n, n), w / 45.42e-3 - 1, -2e-3, 2e-3)
    check('13H %d x %d: peak w / series - 1' % (n, n), w / w_peak - 1, -2e-3, 2e-3)
    check('13H %d x %d: frequency of the peak / series - 1' % (n, n), float(peak['frequency']) / f_peak - 1, -2e-3, 2e-3)
    # M11 at the centre from the nodes on the mid-lines: w_xx = (-2 w2 + 32 w1 - 30 w0) / 12 s^2
    # (fourth order, w even about the centre).
    def m11(r):
        wxx = (-2 * U(r, 'x2') + 32 * U(r, 'x1') - 30 * U(r, 'c')) / (12 * s * s)
        wyy = (-2 * U(r, 'y2') + 32 * U(r, 'y1') - 30 * U(r, 'c')) / (12 * s * s)
        return abs(-D * (wxx + nu * wyy))
    m = max(m11(r) for r in rows)
    check('13H %d x %d: peak |M11| (nodes) / series - 1' % (n, n), m / m_peak - 1, -3e-3, 3e-3)
    # The static run: shell_resultants on the cell at the centre against the series there.
    frame = sorted(glob.glob('s_%d/out/case_[0-9]*.pvtu' % n))[-1]
    best = None
    for piece in sorted(glob.glob(frame[:-5] + '/piece_*.vtu')):
        d = read_vtu(piece)
        P, conn, start = d['Points'], d['connectivity'], 0
        for e, end in enumerate(d['offsets']):
            nodes, start = conn[start:end], end
            if len(nodes) != 4: continue
            cx, cy = (sum(P[k][i] for k in nodes) / 4 for i in (0, 1))
            if best is None or math.hypot(cx - 5, cy - 5) < best[0]:
                best = (math.hypot(cx - 5, cy - 5), cx, cy, d['shell_resultants'][e])
    _, cx, cy, r = best
    W0, M0 = (v.real for v in series(1e-12, cx, cy))
    print('static: the cell at (%.4g, %.4g): M11 %.3f, M22 %.3f, M12 %.3g N m/m; series M11 %.3f'
          % (cx, cy, r[3], r[4], r[5], M0))
    check('13H static %d x %d: M11 at the centre cell / series - 1' % (n, n), r[3] / M0 - 1, -3e-3 if n == 10 else -1e-3, 1e-3)
    check('13H static %d x %d: M22 / M11 - 1 (symmetry)' % (n, n), r[4] / r[3] - 1, -1e-9, 1e-9)
    wc = float(list(csv.DictReader(l for l in open('s_%d/out/probes.csv' % n) if not l.startswith('#')))[-1]['c.uz'])
    check('13H static %d x %d: centre w / series - 1' % (n, n), wc / series(1e-12)[0].real - 1, -1e-3, 1e-3)
f = {np: float(next(csv.DictReader(open(d + '/out/modes.csv')))['frequency'])
     for np, d in ((1, 'b_20_np1'), (2, 'b_20'), (3, 'b_20_np3'))}
h = {np: [float(r['c.uz_amplitude']) for r in harmonic(d)] for np, d in ((1, 'b_20_np1'), (2, 'b_20'), (3, 'b_20_np3'))}
for np in (2, 3):
    check('13H 20 x 20: np %d f1 / np 1 - 1' % np, f[np] / f[1] - 1, -1e-8, 1e-8)
    check('13H 20 x 20: np %d centre amplitudes, largest relative difference from np 1' % np,
          max(abs(x / y - 1) for x, y in zip(h[np], h[1])), 0, 1e-6)
raise SystemExit(0 if passed() else 1)
PY

# (c) --------------------------------------------------------------------------------------------
release() {  # $1: the time: section
  cat <<YAML
mesh: {file: $meshes/shell_plate_16.msh}
$material
shells:
  - {region: plate, thickness: 0.1}
boundary_conditions:
  - {region: xmin, type: fixed, components: [x, z, rx]}
  - {region: xmax, type: fixed, components: [z, rx]}
  - {region: ymin, type: fixed, components: [y, z, ry]}
  - {region: ymax, type: fixed, components: [z, ry]}
  - {region: plate, type: pressure, value: 1.0e5, amplitude: release}
amplitudes: {release: {type: table, points: [[0, 1], [1.0e-9, 0]]}}
initial_conditions: {static_equilibrium: true}
time: $1
output:
  directory: out
  every: 0
  probes: [{name: c, point: [0.5, 0.5, 0]}]
YAML
}
mkdir -p cd nm
release "{integrator: central_difference, mass: lumped, dt: auto, end_time: 0.0066}" > cd/case.yaml
release "{integrator: newmark, mass: lumped, dt: 1.1e-5, end_time: 0.0066}" > nm/case.yaml
mkdir -p cd_np1 && cp cd/case.yaml cd_np1/
for s in cd nm cd_np1; do
  np=2 && [ $s = cd_np1 ] && np=1
  (cd $s && mpi $np "$INERTIA" case.yaml > log 2>&1) || fail "release $s: $(tail -1 $s/log)"
done
has cd/log "rotary inertia scaled for the explicit step"
has nm/log "rotary inertia rho t^3 / 12"
stable=$(sed -nE 's/.*stable step of central_difference: dt <= 2\/omega = (\S+) s$/\1/p' cd/log)
python3 - "${stable:-nan}" <<'PY' || failed=1
import bisect, csv, math, sys
from csv_checks import check, passed
from plate import frequency
E, nu, rho = 2.0e11, 0.3, 8000.0
c = math.sqrt(E / (rho * (1 - nu * nu)))
stable = float(sys.argv[1])
print('stable step (power iterations) %.6g s, membrane L / c_plate = 0.0625 / %.1f = %.6g s' % (stable, c, 0.0625 / c))
check('stable step / (L / c_plate) - 1', stable / (0.0625 / c) - 1, -5e-3, 5e-3)
def hist(d):
    rows = list(csv.DictReader(l for l in open(d + '/out/probes.csv') if not l.startswith('#')))
    return [float(r['time']) for r in rows], [float(r['c.uz']) for r in rows]
def at(t, w, x):
    i = min(max(bisect.bisect_left(t, x), 1), len(t) - 1)
    return w[i - 1] + (w[i] - w[i - 1]) * (x - t[i - 1]) / (t[i] - t[i - 1])
tc, wc = hist('cd'); tn, wn = hist('nm')
t1, w1 = hist('cd_np1')
check('central difference: np 2 against np 1, largest |w difference| / w0',
      max(abs(a - b) for a, b in zip(wc, w1)) / abs(w1[0]) if len(w1) == len(wc) else 1, 0, 1e-9)
f1 = float(next(csv.DictReader(open('a_16_0.1/out/modes.csv')))['frequency'])
dt_cd = tc[1] - tc[0]
for name, t, w, expected in (
        ('central difference', tc, wc, (2 * math.pi * f1 * dt_cd)**2 / 24),  # the period shortens
        ('newmark', tn, wn, -(2 * math.pi * f1 * 1.1e-5)**2 / 12)):          # and lengthens
    f = frequency(t, w, 400, 500)
    print('%s: %.4f Hz, %+.3g of the modal f1 %.4f (the scheme: %+.3g)' % (name, f, f / f1 - 1, f1, expected))
    check('%s: frequency / modal f1 - 1 - the scheme\'s' % name, f / f1 - 1 - expected, -3e-5, 3e-5)
w0 = abs(wc[0])
check('|w_cd(t) - w_newmark(t)| / w0, largest', max(abs(w - at(tn, wn, t)) for t, w in zip(tc, wc)) / w0, 0, 0.03)
e = list(csv.DictReader(open('cd/out/energy.csv')))
U0 = float(e[0]['strain'])
check('central difference: total energy drift / strain energy at release',
      max(abs(float(r['total']) - float(e[0]['total'])) for r in e) / U0, 0, 1e-3)
def mean_drift(part):  # the mean of total - total(0) over a part of the run, / U0
    return sum(float(r['total']) - float(e[0]['total']) for r in part) / len(part) / U0
first, last = mean_drift(e[1:len(e) // 6]), mean_drift(e[-len(e) // 6:])
print('mean drift over the first and the last sixth of the run: %.3g, %.3g' % (first, last))
check('central difference: the drift does not grow (last sixth - first sixth)', abs(last - first), 0, 2e-5)
check('central difference: largest kinetic / strain energy at release', max(float(r['kinetic']) for r in e) / U0, 0.98, 1.0)
raise SystemExit(0 if passed() else 1)
PY

# (c2) The quarter 13H plate (10 x 10, h 0.5 m, t 0.05) released the same way: here the explicit
# run's rotary inertia is raised 150 times (rho t A / 8 per area against rho t^3 / 12), which
# lowers the first frequency by the factor Mindlin's Navier solution gives with that inertia.
release13h() {  # $1: the time: section
  cat <<YAML
mesh: {file: $meshes/shell_quarter_plate_10.msh}
$material
shells:
  - {region: plate, thickness: 0.05}
boundary_conditions:
  - {region: xmin, type: fixed, components: [z, rx]}
  - {region: ymin, type: fixed, components: [z, ry]}
  - {region: xmax, type: fixed, components: [x, ry, rz]}
  - {region: ymax, type: fixed, components: [y, rx, rz]}
  - {region: plate, type: pressure, value: 100, amplitude: release}
amplitudes: {release: {type: table, points: [[0, 1], [1.0e-7, 0]]}}
initial_conditions: {static_equilibrium: true}
time: $1
output:
  directory: out
  every: 0
  probes: [{name: c, point: [5, 5, 0]}]
YAML
}
mkdir -p cd13 nm13
release13h "{integrator: central_difference, mass: lumped, dt: auto, end_time: 1.3}" > cd13/case.yaml
release13h "{integrator: newmark, mass: lumped, dt: 0.002, end_time: 1.3}" > nm13/case.yaml
for s in cd13 nm13; do
  (cd $s && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "release $s: $(tail -1 $s/log)"
done
stable=$(sed -nE 's/.*stable step of central_difference: dt <= 2\/omega = (\S+) s$/\1/p' cd13/log)
stable_physical=$(sed -nE 's/.*stable step of central_difference: dt <= 2\/omega = (\S+) s \(newmark.*/\1/p' nm13/log)
# The log's largest displacement of the preload (the model's, not rank 0's): the centre's 1.77323 mm.
largest=$(sed -nE 's/^initial   static equilibrium.*; largest displacement (\S+) m .*/\1/p' cd13/log)
centre=$(awk -F, '$1 == 0 {printf "%.5e", -$5}' cd13/out/probes.csv)
[ "$(printf '%.5e' "${largest:-0}")" = "$centre" ] ||
  fail "13H np 2: the log's largest displacement ${largest:-(none)} m is not the centre's $centre m"
python3 - "${stable:-nan}" "${stable_physical:-nan}" <<'PY' || failed=1
import cmath, csv, math, sys
from csv_checks import check, passed
from plate import frequency, mindlin
E, nu, rho, t, h = 2.0e11, 0.3, 8000.0, 0.05, 0.5
c = math.sqrt(E / (rho * (1 - nu * nu)))
stable, physical = float(sys.argv[1]), float(sys.argv[2])
print('13H 10 x 10: stable step %.6g s (scaled rotary inertia), %.6g s (rho t^3 / 12), L / c_plate %.6g s'
      % (stable, physical, h / c))
check('13H: stable step / (L / c_plate) - 1', stable / (h / c) - 1, -5e-3, 5e-3)
def hist(d):
    rows = list(csv.DictReader(l for l in open(d + '/out/probes.csv') if not l.startswith('#')))
    return [float(r['time']) for r in rows], [float(r['c.uz']) for r in rows]
tc, wc = hist('cd13')
tn, wn = hist('nm13')
every = max(1, len(tc) // 1500)
fc, fn = frequency(tc[::every], wc[::every], 2.2, 2.5), frequency(tn, wn, 2.2, 2.5)
omega_dt = 2 * math.pi * fn * 0.002
ratio = mindlin(1, 1, t, 10, J=rho * t * h * h / 8) / mindlin(1, 1, t, 10) * (1 + omega_dt**2 / 12)
print('13H: explicit %.5f Hz, newmark %.5f Hz: ratio %.6f; Mindlin with rho t h^2 / 8 against '
      'rho t^3 / 12 (and newmark\'s period elongation): %.6f' % (fc, fn, fc / fn, ratio))
f1 = float(next(csv.DictReader(open('b_10/out/modes.csv')))['frequency'])
print('13H: newmark %+.3g of the modal f1 %.5f (its period elongation: %+.3g)' % (fn / f1 - 1, f1, -omega_dt**2 / 12))
check('13H: newmark frequency / modal f1 - 1 - its elongation', fn / f1 - 1 + omega_dt**2 / 12, -3e-5, 3e-5)
check('13H: (explicit / newmark frequency) / predicted - 1', fc / fn / ratio - 1, -2e-4, 2e-4)
e = list(csv.DictReader(open('cd13/out/energy.csv')))
U0 = float(e[0]['strain'])
check('13H: central difference total energy drift / strain energy at release',
      max(abs(float(r['total']) - float(e[0]['total'])) for r in e) / U0, 0, 1e-4)
raise SystemExit(0 if passed() else 1)
PY
finish
