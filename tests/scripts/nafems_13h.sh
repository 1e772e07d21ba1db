#!/usr/bin/env bash
# NAFEMS 13H (R0016, "Selected Benchmarks for Forced Vibration", Maguire, Dawswell and Gould
# 1989): a simply-supported thin square plate, 10 x 10 x 0.05 m, E 200 GPa, nu 0.3, 8000 kg/m^3,
# under a uniform harmonic pressure of 100 N/m^2, swept over 0 to 4.16 Hz by modal superposition
# with 2 % damping in every mode. Published: the centre's peak displacement 45.42 mm at 2.377 Hz
# (the first natural frequency) and the peak extreme-fibre bending stress 30.03 N/mm^2 there.
#
# Computed here too, from Kirchhoff's series (D = E h^3 / 12 (1 - nu^2), modes sin(m pi x/a)
# sin(n pi y/a), modal load 16 q / (pi^2 m n) for odd m, n): f1 2.37672 Hz, the peak 45.442 mm
# at 2.3758 Hz (45.428 mm at 2.377 Hz), the stress at the peak 32.033 N/mm^2 (32.029 at f1).
# The published displacement and frequency agree with the series; the published stress does
# not: 30.03 is 6.3 % below the series' 32.03 (by 2.00 N/mm^2: a slip of one digit?), and the
# finite elements converge to the series (below). The stress is checked against the series;
# the published value is printed, not checked.
#
# Model: a quarter plate (5 x 5 x 0.05 m), box generator, 30 x 30 x 1 tet10 (33,489 DOFs);
# simple support on the side faces x = 0 and y = 0 as the exact 3-D solution of the
# Navier problem has it (u_z and the tangential displacement held through the thickness, the
# normal one free: the edge rotates freely; NAFEMS's shell model holds the same rotation about the
# edge's normal); symmetry u_x = 0 on x = 5, u_y = 0 on y = 5; pressure 100 on the top face (along
# the inward normal, -z: the phase at low frequency is 180 deg); the 6 lowest modes (those
# symmetric about both mid-lines: (1,1), (1,3) +- (3,1), (3,3), (1,5) +- (5,1), up to 31 Hz;
# the full plate's lowest 17, NAFEMS used 16). The stress comes from the harmonic displacements of
# probes on the nodes of the top face near the centre: eps_xx, eps_yy the derivatives of the
# quadratic tet10 field along the element edges at the centre, sigma_xx = E / (1 - nu^2)
# (eps_xx + nu eps_yy) (the top face is free of stress but 100 Pa); a static run checks that
# this is the stress inertia's own probe gives at that point (30 x 30: 0.11 % for sxx, 0.03 % for
# syy).
#
# Convergence (hard simple support as here, 6 modes, one tet10 layer; a second layer changes
# f1 by 5e-5 relative):
#   cells        DOFs     f1 (Hz)   peak w (mm)   stress (N/mm^2)
#   10 x 10      3,969    2.42605   43.807        32.172
#   20 x 20     15,129    2.38096   45.294        32.080
#   30 x 30     33,489    2.37769   45.406        32.049
#   40 x 40     59,049    2.37699   45.431        32.041
#   60 x 60    131,769    2.37666   45.442        32.036
# Richardson (30, 40, 60; order 3.3 and 3.4): f1 -> 2.37654 (series 2.37672: -0.008 %, the plate's
# thickness), peak -> 45.445 mm (series 45.442), stress -> 32.033 (series 32.033). The 30 x 30
# mesh's discretisation error: f1 +0.048 %, peak -0.088 %, stress +0.05 %. Its results against
# the references: f1 +0.029 % of 2.377 and +0.041 % of the series, peak -0.032 % of 45.42 and
# -0.081 % of the series, its frequency +0.050 % of the series' (2.377 against 2.3758 Hz),
# stress +0.050 % of the series (+6.7 % of the published 30.03).
# Tolerances (about twice the discretisation error): f1 and the peak's frequency 0.1 %, the peak
# 0.2 % (against both 45.42 and the series), the stress 0.2 % of the series, the static check
# 0.3 %. Hex8 `full` shear-locks here (f1 5.63 Hz on 20 x 20 x 1, 2.74 Hz on 80 x 80 x 2).
# Holding only u_z on the side faces (the "soft" support: the tangential displacement free)
# converges to f1 2.3736 Hz, peak 45.53 mm: 0.13 % lower, 0.2 % higher than Kirchhoff's, the
# boundary layer of that support, not the discretisation.
#
# Then np 1, 2 and 3. Their first frequencies differ by round-off: 1.4e-9 and 1.7e-9 relative
# (MUMPS's ordering alone, -st_mat_mumps_icntl_7 2 on 1 rank, moves it 1.4e-9; the eigenvalue of a
# thin plate of solids is that sensitive: the condition of K - sigma M, (omega_max / omega_1)^2
# = (1.1e6 / 14.9)^2, is 6e9). A lightly damped resonance amplifies that: the amplitudes move by
# S |df1 / f1|, S = |d ln|H| / d ln omega_1| = |Re (2 + 2 i xi r) / (1 - r^2 + 2 i xi r)| (2 below
# the resonance, up to 1 / xi = 50 near it): 4.4e-8 of the peak at 2.33 Hz, which harmonic.sh's
# 1e-9 cannot hold. Checked: f1 equal to 1e-8, and each harmonic.csv row's amplitudes equal to
# 1e-9 + 1.5 S |df1 / f1| of the row's largest (measured: at most 0.98 of 1e-9 + S |df1 / f1|,
# i.e. all of the difference is the first frequency's). Then the fields file at 2.377 Hz.
#
# NAFEMS's direct solution: Rayleigh damping alpha_M 0.299, alpha_K 1.339e-3 (2 % at 2.377 Hz),
# method: direct at six frequencies on 2 ranks (1.9 s each, 33,489 DOFs): the peak 45.377 mm at
# the model's f1 (-0.095 % of 45.42; checked to 0.2 %), and against modal superposition of the
# same 6 modes with the same Rayleigh damping: 5e-7 to 5e-6 apart between 2.37 and 2.38 Hz
# (checked to 2e-5), 5.8e-4 and 4.0e-4 at 1 and 3 Hz (the static part of the modes left out;
# checked below 1e-3 and above 1e-5: the direct solve has what the modes miss).
# About 30 s in all on 2 cores (np 1 3.5 s, np 2 3 s, np 3 4.6 s, the static run 1 s, the direct
# sweep 12 s).
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1

# 0.04 to 4.16 Hz every 0.04 Hz (0 Hz is refused: frequencies must be > 0), 2.30 to 2.46 Hz
# every 0.0005 Hz (2.377 among them), and the model's own f1 (2.37769 Hz on 30 x 30 x 1).
frequencies=$(python3 -c "
f = {round(0.04 * k, 4) for k in range(1, 105)} | {round(2.3 + 0.0005 * k, 4) for k in range(321)}
print(', '.join(repr(x) for x in sorted(f | {2.37769})))") || exit 1
model='mesh: {box: {lower: [0, 0, 0], upper: [5, 5, 0.05], cells: [30, 30, 1], element: tet10}}
materials:
  - {region: all, density: 8000, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed, components: [y, z]}
  - {region: ymin, type: fixed, components: [x, z]}
  - {region: xmax, type: fixed, components: [x]}
  - {region: ymax, type: fixed, components: [y]}
  - {region: zmax, type: pressure, value: 100}'
# The centre (mid-surface, top, bottom), and the top face's nodes 1/12 and 1/6 m from it along
# the mid-lines (the edges of the cells at the centre: the strain there).
probes='  probes:
    - {name: mid, point: [5, 5, 0.025]}
    - {name: top, point: [5, 5, 0.05]}
    - {name: bot, point: [5, 5, 0]}
    - {name: x1, point: [4.916666666666667, 5, 0.05]}
    - {name: x2, point: [4.833333333333333, 5, 0.05]}
    - {name: y1, point: [5, 4.916666666666667, 0.05]}
    - {name: y2, point: [5, 4.833333333333333, 0.05]}'
printf '%s\n%s\n%s\n%s\n' "$model" 'modal: {modes: 6}' \
  "harmonic: {frequencies: [$frequencies], damping: 0.02, fields_at: [2.377]}" \
  "output:
  directory: out
$probes" >plate.yaml
for np in 1 2 3; do
  mkdir -p np$np && cp plate.yaml np$np/
  (cd np$np && mpi $np "$INERTIA" plate.yaml >log 2>&1) || fail "plate np $np: $(tail -1 np$np/log)"
done
printf '%s\n%s\n%s\n%s\n' "$model" 'time: {integrator: static, dt: 1, steps: 1}' \
  "output:
  directory: static
  every: 0
$probes" '    - {name: stress, point: [5, 5, 0.05], fields: [stress]}' >static.yaml
mpi 2 "$INERTIA" static.yaml >static.log 2>&1 || fail "static: $(tail -1 static.log)"
[ "$(grep -Ec "^  probe [a-z0-9]+: node [0-9]+ at .*, distance 0 from" np2/log)" = 7 ] ||
  fail "the probes are not on nodes: $(grep '^  probe' np2/log)"

python3 - <<'PY' || failed=1
import cmath, csv, math
E, nu, rho, h, a, q, xi = 200e9, 0.3, 8000.0, 0.05, 10.0, 100.0, 0.02
D = E * h**3 / (12 * (1 - nu**2))

def series(f, M=99):
    """Kirchhoff's centre deflection and extreme-fibre sigma_xx (complex) at f Hz."""
    W = S = 0
    for m in range(1, M + 1, 2):
        for n in range(1, M + 1, 2):
            w = math.pi**2 * ((m / a)**2 + (n / a)**2) * math.sqrt(D / (rho * h))
            Om = 2 * math.pi * f
            c = 16 * q / (math.pi**2 * m * n) / (rho * h * (w * w - Om * Om + 2j * xi * w * Om))
            s = (-1)**((m + n) // 2 - 1)  # sin(m pi/2) sin(n pi/2)
            W += c * s
            S += c * s * (math.pi / a)**2 * (m * m + nu * n * n)  # -(w_xx + nu w_yy)
    return W, S * E / (1 - nu**2) * h / 2

f1 = math.pi / a**2 * math.sqrt(D / (rho * h))  # pi^2 (2 / a^2) sqrt(D / rho h) / 2 pi
lo, hi = 0.99 * f1, f1  # the peak of |w| (golden section)
g = (math.sqrt(5) - 1) / 2
for _ in range(60):
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    if abs(series(x1)[0]) > abs(series(x2)[0]): hi = x2
    else: lo = x1
f_peak = (lo + hi) / 2
w_peak = abs(series(f_peak)[0])
s_peak = abs(series(f_peak)[1])
print('series: f1 %.5f Hz, peak %.3f mm at %.4f Hz (%.3f mm at 2.377 Hz), stress %.3f N/mm^2'
      % (f1, w_peak * 1e3, f_peak, abs(series(2.377)[0]) * 1e3, s_peak / 1e6))
bad = []
def check(what, value, reference, tolerance):
    error = value / reference - 1
    print('%-34s %12.6g against %12.6g: %+.3f %% (tolerance %.2g %%)'
          % (what, value, reference, 100 * error, 100 * tolerance))
    if not abs(error) < tolerance: bad.append(what)

modes = list(csv.DictReader(open('np2/out/modes.csv')))
fe_f1 = float(modes[0]['frequency'])
check('f1 (Hz) vs NAFEMS', fe_f1, 2.377, 1e-3)
check('f1 (Hz) vs series', fe_f1, f1, 1e-3)

rows = list(csv.DictReader(open('np2/out/harmonic.csv')))
def U(r, p, c):  # the complex amplitude of probe p's component c
    column = '%s.u%s_' % (p, c)
    return float(r[column + 'amplitude']) * cmath.exp(1j * math.radians(float(r[column + 'phase'])))
d = 5.0 / 30
def stress(r):  # sigma_xx at the top of the centre, from the quadratic field along the edges
    exx = (3 * U(r, 'top', 'x') - 4 * U(r, 'x1', 'x') + U(r, 'x2', 'x')) / d
    eyy = (3 * U(r, 'top', 'y') - 4 * U(r, 'y1', 'y') + U(r, 'y2', 'y')) / d
    return abs(E / (1 - nu**2) * (exx + nu * eyy))
peak = max(rows, key=lambda r: float(r['mid.uz_amplitude']))
w = float(peak['mid.uz_amplitude'])
check('peak centre uz (m) vs NAFEMS', w, 45.42e-3, 2e-3)
check('peak centre uz (m) vs series', w, w_peak, 2e-3)
check('frequency of the peak (Hz)', float(peak['frequency']), f_peak, 1e-3)
s = max(stress(r) for r in rows)
check('peak stress (Pa) vs series', s, s_peak, 2e-3)
print('peak stress against the published 30.03 N/mm^2: %+.2f %% (not checked: see the header)'
      % (100 * (s / 30.03e6 - 1)))
phase = float(rows[0]['mid.uz_phase'])
print('phase of the centre at %s Hz: %.4f deg' % (rows[0]['frequency'], phase))
if not abs(abs(phase) - 180) < 0.1: bad.append('the pressure does not push the plate down')

# The static run: the stress from the nodes as above against inertia's own stress probe, and the
# centre's deflection against Kirchhoff's (series 1.7744 mm).
r = list(csv.DictReader(l for l in open('static/probes.csv') if not l.startswith('#')))[-1]
exx = (3 * float(r['top.ux']) - 4 * float(r['x1.ux']) + float(r['x2.ux'])) / d
eyy = (3 * float(r['top.uy']) - 4 * float(r['y1.uy']) + float(r['y2.uy'])) / d
from_nodes = E / (1 - nu**2) * (exx + nu * eyy)
check('static: sxx from the nodes vs probe', from_nodes, float(r['stress.sxx']), 3e-3)
check('static: syy from the nodes vs probe', from_nodes, float(r['stress.syy']), 3e-3)
check('static: centre uz (m) vs series', -float(r['mid.uz']), abs(series(1e-9)[0]), 2e-3)
if bad: print('out of tolerance: ' + ', '.join(bad))
raise SystemExit(1 if bad else 0)
PY

python3 - <<'PY' || failed=1
import csv
xi = 0.02
def table(np):
    return [[float(x) for x in r] for r in list(csv.reader(open('np%d/out/harmonic.csv' % np)))[1:]]
def frequencies(np):
    return [float(r['frequency']) for r in csv.DictReader(open('np%d/out/modes.csv' % np))]
a, f1 = table(1), frequencies(1)[0]
bad = len(a) < 400 or len(frequencies(1)) != 6
for np in (2, 3):
    b, shift = table(np), frequencies(np)[0] / f1 - 1
    worst = 0
    for ra, rb in zip(a, b):
        # |d ln|H| / d ln omega_1| of the first mode's H = 1 / (omega_1^2 - Omega^2 + 2 i xi omega_1 Omega)
        r = ra[0] / f1
        S = abs(((2 + 2j * xi * r) / complex(1 - r * r, 2 * xi * r)).real)
        largest = max(abs(x) for x in ra[1::2])  # amplitudes
        difference = max(abs(ra[i] - rb[i]) for i in range(1, len(ra), 2)) / largest
        worst = max(worst, difference / (1e-9 + 1.5 * S * abs(shift)))
    print('np %d against np 1: f1 %.3g apart (tolerance 1e-8), harmonic.csv at %.2f of its tolerance'
          % (np, shift, worst))
    bad = bad or len(b) != len(a) or not abs(shift) < 1e-8 or not worst < 1
raise SystemExit(1 if bad else 0)
PY
[ -f np2/out/plate_harmonic.pvd ] || fail "no plate_harmonic.pvd"

# The direct solution with NAFEMS's Rayleigh damping, against modal superposition with the same.
for method in direct modal; do
  printf '%s\n%s\n%s\n%s\n' "$model" 'modal: {modes: 6}' \
    "harmonic: {method: $method, frequencies: [1.0, 2.37, 2.375, 2.37769, 2.38, 3.0],
           rayleigh: {mass: 0.299, stiffness: 1.339e-3}}" \
    "output: {directory: $method, probes: [{name: mid, point: [5, 5, 0.025]}]}" >$method.yaml
  mpi 2 "$INERTIA" $method.yaml >$method.log 2>&1 || fail "$method: $(tail -1 $method.log)"
done
grep -q "direct solve (MUMPS" direct.log || fail "direct: $(grep '^harmonic  [0-9]' direct.log)"
python3 - <<'PY' || failed=1
import csv
d = list(csv.DictReader(open('direct/harmonic.csv')))
m = list(csv.DictReader(open('modal/harmonic.csv')))
peak = max(float(r['mid.uz_amplitude']) for r in d)
bad = not abs(peak / 45.42e-3 - 1) < 2e-3
print('direct, Rayleigh 0.299 / 1.339e-3: peak %.3f mm, %+.3f %% of 45.42 (tolerance 0.2 %%)'
      % (peak * 1e3, 100 * (peak / 45.42e-3 - 1)))
for a, b in zip(d, m):
    f, x, y = float(a['frequency']), float(a['mid.uz_amplitude']), float(b['mid.uz_amplitude'])
    gap = abs(x / y - 1)
    near = 2.36 < f < 2.39
    print('  %.5f Hz: direct %.6g, modal %.6g, %.2g apart' % (f, x, y, gap))
    bad = bad or (gap > 2e-5 if near else not 1e-5 < gap < 1e-3)
raise SystemExit(1 if bad or len(d) != 6 or len(m) != 6 else 0)
PY

finish
