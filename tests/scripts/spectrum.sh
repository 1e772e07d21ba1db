#!/usr/bin/env bash
# Records as they come and their response spectra (examples/guide/time_integration.md,
# "Record files as they come", "Response spectra of a record"):
# - a PEER NGA .AT2 record (synthetic, 1000 values in g at 0.01 s) read by `inertia spectrum`;
#   its spectral displacements at T = 0.2, 0.5, 1 s and 5 % against the peak relative
#   displacement of a spring-mass oscillator of that period and damping (spring dashpot) whose
#   anchor follows the same record in an inertia run (Newmark, dt 1e-3): measured 1.6e-5,
#   1.7e-8, 8.1e-6 apart, checked to 1e-4. The same runs' energy balance closes to 1e-9 of the
#   work (it was 38 % off before the springs' dashpots were booked in energy.csv);
# - mpirun -n 2 and 3 write the same spectrum as one process (the tool runs on rank 0);
# - the same record as a single-column file with dt and units g, and as a table in m/s^2, gives
#   the same run (probes identical); the baseline correction's log line;
# - a record in cm/s^2 under a g header: a warning line for its peak and one for its drift (tool
#   and case), none for the sane record;
# - a record to 8.02 s at dt 0.005 in a run to 8.02 s: its last sample at the last step;
# - bad records and options: one line naming file:line or the option, exit 1.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
python3 - <<'PY'
import math
dt, n = 0.01, 1000
vals = []
for i in range(n):
    t = i * dt
    env = (t / 2) ** 2 if t < 2 else math.exp(-(t - 2) / 1.5)
    vals.append(0.2 * env * (math.sin(2 * math.pi * 1.1 * t) + 0.6 * math.sin(2 * math.pi * 3.3 * t + 1)
                             + 0.4 * math.sin(2 * math.pi * 7.1 * t + 2)))
with open('quake.AT2', 'w') as f:
    f.write('PEER NGA STRONG MOTION DATABASE RECORD\nSYNTHETIC RECORD FOR THE TEST, STATION, 090\n'
            'ACCELERATION TIME SERIES IN UNITS OF G\nNPTS=  %d, DT=   .0100 SEC\n' % n)
    for i in range(0, n, 5):
        f.write(''.join('  %.7E' % v for v in vals[i:i + 5]) + '\n')
with open('quake.txt', 'w') as f:
    f.write('# the same record, one value per line, in g\n')
    f.write(''.join('%.7E\n' % float('%.7E' % v) for v in vals))
with open('quake_si.csv', 'w') as f:
    f.write('time,acceleration\n')
    f.write(''.join('%r,%r\n' % (i * dt, float('%.7E' % v) * 9.80665) for i, v in enumerate(vals)))
PY

"$INERTIA" spectrum quake.AT2 --periods 0.2,0.5,1.0 --damping 0.05,0.02 --output spec.csv >spec.log 2>&1 ||
  fail "spectrum: $(tail -1 spec.log)"
once spec.log "record quake.AT2 (PEER AT2: SYNTHETIC RECORD FOR THE TEST, STATION, 090): 1000 values at dt = 0.01 s, t = 0 to 9.99 s, in g x 9.80665 (to m/s^2)"
once spec.log "wrote spec.csv and spec.svg"
[ "$(head -1 spec.csv)" = "period,frequency,sd_0.05,psv_0.05,psa_0.05,sd_0.02,psv_0.02,psa_0.02" ] ||
  fail "spec.csv header: $(head -1 spec.csv)"
grep -q "<polyline" spec.svg || fail "spec.svg has no curves"
for np in 2 3; do
  mpi $np "$INERTIA" spectrum quake.AT2 --periods 0.2,0.5,1.0 --damping 0.05,0.02 --output spec$np.csv \
    >spec$np.log 2>&1 || fail "np $np spectrum: $(tail -1 spec$np.log)"
  cmp -s spec.csv spec$np.csv || fail "np $np: another spectrum"
  [ "$(grep -c "wrote" spec$np.log)" = 1 ] || fail "np $np: the tool ran on more than one rank"
done

# The oscillators: k = omega^2 (m = 1 kg), c = 2 xi omega, on the anchor-bob mesh.
cp "$INERTIA_SOURCE_DIR/meshes/hanging_mass.msh" osc.msh
oscillator() {  # oscillator PERIOD AMPLITUDE-SPEC DIRECTORY
  python3 - "$1" "$2" "$3" <<'PY'
import math, sys
T, amplitude, out = float(sys.argv[1]), sys.argv[2], sys.argv[3]
w = 2 * math.pi / T
open(out + '.yaml', 'w').write(f'''mesh: {{file: osc.msh}}
springs:
  - {{region: spring, stiffness: {w * w!r}, damping: {2 * 0.05 * w!r}, rest_length: mesh}}
point_masses:
  - {{region: bob, mass: 1.0}}
boundary_conditions:
  - {{region: anchor, type: acceleration, components: [z], value: [1], amplitude: quake}}
  - {{region: anchor, type: fixed, components: [x, y]}}
  - {{region: bob, type: fixed, components: [x, y]}}
amplitudes:
  quake: {amplitude}
time: {{integrator: newmark, mass: lumped, dt: 0.001, end_time: 11}}
output:
  directory: {out}
  every: 0
  history_every: 1
  probes:
    - {{name: bob, point: [0, 0, -1]}}
    - {{name: anchor, point: [0, 0, 0]}}
''')
PY
}
for T in 0.2 0.5 1.0; do
  oscillator $T "{type: table, file: quake.AT2}" osc$T
  "$INERTIA" osc$T.yaml >osc$T.log 2>&1 || fail "oscillator T $T: $(tail -1 osc$T.log)"
done
python3 - <<'PY' || failed=1
import csv
def rows(path):
    return list(csv.DictReader(l for l in open(path) if not l.startswith('#')))
spectrum = {float(r['period']): float(r['sd_0.05']) for r in rows('spec.csv')}
bad = False
for T in ('0.2', '0.5', '1.0'):
    peak = max(abs(float(r['bob.uz']) - float(r['anchor.uz'])) for r in rows('osc%s/probes.csv' % T))
    error = abs(peak / spectrum[float(T)] - 1)
    print('T %s s: Sd %.6g m, oscillator %.6g m, %.2g apart' % (T, spectrum[float(T)], peak, error))
    if not error < 1e-4:
        print('FAIL  T %s: the spectrum and the time integration differ by %.3g' % (T, error)); bad = True
    energy = rows('osc%s/energy.csv' % T)
    scale = max(abs(float(r['external_work'])) for r in energy)
    balance = max(abs(float(r['total']) - float(energy[0]['total'])) for r in energy)
    if not balance < 1e-9 * scale:
        print('FAIL  T %s: energy balance %.3g of the work %.3g' % (T, balance, scale)); bad = True
raise SystemExit(1 if bad else 0)
PY

# The same record in three files: the same run, to the digit (np 2).
oscillator 0.5 "{type: table, file: quake.txt, dt: 0.01, units: g}" single
oscillator 0.5 "{type: table, file: quake_si.csv}" table
for case in single table; do
  mpi 2 "$INERTIA" $case.yaml >$case.log 2>&1 || fail "$case: $(tail -1 $case.log)"
done
once single.log "amplitude quake: quake.txt (single column), 1000 values at dt = 0.01 s, t = 0 to 9.99 s"
once single.log "amplitude quake: values in g x 9.80665 (to m/s^2)"
python3 - <<'PY' || failed=1
import csv
def column(path):
    return [float(r['bob.uz']) - float(r['anchor.uz']) for r in csv.DictReader(l for l in open(path) if not l.startswith('#'))]
a, b, c = column('osc0.5/probes.csv'), column('single/probes.csv'), column('table/probes.csv')
worst = max(max(abs(x - y), abs(x - z)) for x, y, z in zip(a, b, c))
scale = max(abs(x) for x in a)
print('AT2, single column, table: %.3g apart' % (worst / scale))
raise SystemExit(0 if worst < 1e-12 * scale and len(a) == len(b) == len(c) else 1)
PY

# Baseline correction: the log says what it did.
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: polynomial, degree: 3}}" corrected
"$INERTIA" --check corrected.yaml >corrected.log 2>&1 || fail "corrected: $(tail -1 corrected.log)"
grep -Eq "^amplitude quake: baseline corrected \(polynomial of degree 3 fitted to the displacement, Boore and Bommer 2005\): at t = 9.99 s the ground's displacement 0.446152 -> -0.00397073, velocity 0.0557721 -> -0.00120558; " corrected.log ||
  fail "corrected: no baseline line: $(grep baseline corrected.log)"

# The high-pass filter: the log (case) and the tool's output say what it did.
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: butterworth, corner: 0.1}}" filtered
"$INERTIA" --check filtered.yaml >filtered.log 2>&1 || fail "filtered: $(tail -1 filtered.log)"
once filtered.log "amplitude quake: baseline corrected (acausal Butterworth high-pass, order 4 each way, corner 0.1 Hz; zero pads of 30 s at each end: the record is delayed by 30 s, Boore and Bommer 2005): at t = 69.99 s the ground's displacement 0.446152 -> "
"$INERTIA" spectrum quake.AT2 --highpass 0.1,2 --output filtered.csv >filtered_tool.out 2>&1 ||
  fail "spectrum --highpass: $(tail -1 filtered_tool.out)"
grep -q "^baseline corrected (acausal Butterworth high-pass, order 2 each way, corner 0.1 Hz, zero pads of 15 s" filtered_tool.out ||
  fail "spectrum --highpass: $(grep baseline filtered_tool.out)"

# Plausibility (issue 42): the record in cm/s^2 under its "UNITS OF G" header (peak 310 "g",
# 438 m of ground drift): one warning line each from the tool and from a case, never an error;
# none for the record in g.
python3 - <<'PY'
lines = open('quake.AT2').read().splitlines()
with open('bad.AT2', 'w') as f:
    f.write('\n'.join(lines[:4]) + '\n')
    for line in lines[4:]:
        f.write(''.join('  %.7E' % (float(v) * 980.665) for v in line.split()) + '\n')
PY
"$INERTIA" spectrum bad.AT2 --periods 0.2,0.5,1.0 --output bad.csv >bad_tool.log 2>&1 ||
  fail "spectrum bad.AT2: $(tail -1 bad_tool.log)"
once bad_tool.log "warning   bad.AT2: peak acceleration 309.795 g at t = 2.11 s with the values in g (from the file's header), more than any recorded earthquake's (5 g): in cm/s2 it would be 0.315903 g; check the file's units line (--units must agree with it)"
once bad_tool.log "warning   bad.AT2: the ground's displacement reaches 437.526 m at the record's end, t = 9.99 s with the values in g (from the file's header), "
[ "$(grep -c "^warning" bad_tool.log)" = 2 ] || fail "bad.AT2: $(grep -c "^warning" bad_tool.log) warnings"
oscillator 0.5 "{type: table, file: bad.AT2}" bad
"$INERTIA" --check bad.yaml >bad.log 2>&1 || fail "bad case: $(tail -1 bad.log)"
once bad.log "warning   amplitude 'quake' (bad.AT2): peak acceleration 309.795 g at t = 2.11 s "
once bad.log "warning   amplitude 'quake' (bad.AT2): the ground's displacement reaches 437.526 m "
mpi 2 "$INERTIA" --check bad.yaml >bad2.log 2>&1 || fail "bad case np 2: $(tail -1 bad2.log)"
once bad2.log "warning   amplitude 'quake' (bad.AT2): peak acceleration 309.795 g at t = 2.11 s "
for log in spec.log osc0.5.log single.log corrected.log filtered.log filtered_tool.out; do
  grep -q "^warning.*\(peak acceleration\|ground's displacement\)" $log && fail "$log: a sane record warned"
done

# The record's last sample at the run's last step (issue 42): a ground acceleration of 1 m/s^2
# to 8.02 s (dt 0.005, a single-column file), a run of dt 0.005 to 8.02 s. The last step from
# 8.015 reached 8.015 + 0.005 = 8.020000000000001, past the record, and took 0 there: the
# anchor's 2 kg showed it, its reaction (f_int + M a) falling by 2 N at the last step.
python3 - <<'PY'
import math
w = 2 * math.pi / 0.5
open('ends.txt', 'w').write('# 1 m/s^2 from 0 to 8.02 s at dt 0.005\n' + '1.0\n' * 1605)
open('ends.yaml', 'w').write(f'''mesh: {{file: osc.msh}}
springs:
  - {{region: spring, stiffness: {w * w!r}, rest_length: mesh}}
point_masses:
  - {{region: bob, mass: 1.0}}
  - {{region: anchor, mass: 2.0}}
boundary_conditions:
  - {{region: anchor, type: acceleration, components: [z], value: [1], amplitude: ground}}
  - {{region: anchor, type: fixed, components: [x, y]}}
  - {{region: bob, type: fixed, components: [x, y]}}
amplitudes:
  ground: {{type: table, file: ends.txt, dt: 0.005, units: m/s2}}
time: {{integrator: newmark, mass: lumped, dt: 0.005, end_time: 8.02}}
output: {{directory: ends, every: 0, history_every: 1}}
''')
PY
"$INERTIA" ends.yaml >ends.log 2>&1 || fail "ends: $(tail -1 ends.log)"
python3 - <<'PY' || failed=1
import csv
rows = list(csv.DictReader(l for l in open('ends/reactions.csv') if not l.startswith('#')))
f = [float(r['anchor.fz']) for r in rows]
jump = f[-1] - (2 * f[-2] - f[-3])  # against the last two steps' trend
print('last step at t = %r: reaction %.6g N, %.3g off the trend' % (float(rows[-1]['time']), f[-1], jump))
ok = len(rows) == 1605 and float(rows[-1]['time']) == 8.02 and abs(jump) < 0.1
raise SystemExit(0 if ok else 1)
PY

# Bad input: one line, exit 1.
{ head -3 quake.AT2; echo "NPTS=  1001, DT=   .0100 SEC"; tail -n +5 quake.AT2; } >npts.AT2
refuses npts_tool "npts\.AT2:4: NPTS = 1001 but 1000 values follow" "$INERTIA" spectrum npts.AT2
oscillator 0.5 "{type: table, file: npts.AT2}" npts
refuses npts_case "^inertia: error: (\./)?npts\.AT2:4: NPTS = 1001 but 1000 values follow" "$INERTIA" --check npts.yaml
mpi 3 "$INERTIA" --check npts.yaml >npts3.out 2>npts3.err && fail "npts np 3: accepted"
[ "$(grep -c "^inertia: error: .*npts\.AT2:4: NPTS = 1001" npts3.err)" = 1 ] || fail "npts np 3: $(head -3 npts3.err)"
oscillator 0.5 "{type: table, file: quake.AT2, units: m/s2}" units
refuses units_case "units\.yaml:[0-9]+: amplitudes\.quake\.units: the file says its values are in g, not m/s2" "$INERTIA" --check units.yaml
oscillator 0.5 "{type: table, file: quake.AT2, dt: 0.01}" dt
refuses dt_case "amplitudes\.quake\.dt: only for a single-column file \(format: single\); an AT2 file's header gives its DT" "$INERTIA" --check dt.yaml
oscillator 0.5 "{type: table, file: quake.txt, format: single}" nodt
refuses nodt_case "amplitudes\.quake: a single-column file needs dt:" "$INERTIA" --check nodt.yaml
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {degree: 9}}" degree
refuses degree_case "amplitudes\.quake\.baseline\.degree: must be an integer in \[2, 6\]" "$INERTIA" --check degree.yaml
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: butterworth, corner: 0.1, degree: 3}}" filter_degree
refuses filter_degree_case "amplitudes\.quake\.baseline\.degree: is a key of method: polynomial" "$INERTIA" --check filter_degree.yaml
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: butterworth, corner: 0.1, order: 3}}" filter_order
refuses filter_order_case "amplitudes\.quake\.baseline\.order: must be even \(2, 4, 6 or 8\), got 3" "$INERTIA" --check filter_order.yaml
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: butterworth, corner: 60}}" filter_corner
refuses filter_corner_case "amplitudes\.quake\.baseline: the filter's corner 60 Hz must be above 0 and below the record's Nyquist frequency 50 Hz" "$INERTIA" --check filter_corner.yaml
oscillator 0.5 "{type: table, file: quake.AT2, baseline: {method: butterworth}}" filter_none
refuses filter_none_case "amplitudes\.quake\.baseline: missing key 'corner'" "$INERTIA" --check filter_none.yaml
refuses tool_two "--baseline and --highpass are two corrections: choose one" "$INERTIA" spectrum quake.AT2 --baseline 3 --highpass 0.1
oscillator 0.5 "{type: table, file: quake.txt, dt: 0.01, units: furlongs}" furlongs
refuses furlongs_case "amplitudes\.quake\.units: unknown units 'furlongs'" "$INERTIA" --check furlongs.yaml
refuses damping "--damping: a damping ratio must be in \[0, 1\), got 1" "$INERTIA" spectrum quake.AT2 --damping 0.05,1
refuses periods "--periods: periods must increase \(0\.5 after 1\)" "$INERTIA" spectrum quake.AT2 --periods 1,0.5
refuses periods_range "--periods: expected FIRST:LAST:COUNT" "$INERTIA" spectrum quake.AT2 --periods 1:0.1:10
refuses tool_dt "--dt: a single-column record needs the time between its values" "$INERTIA" spectrum quake.txt --format single
refuses tool_units "quake\.AT2: the file says its values are in g, not cm/s2" "$INERTIA" spectrum quake.AT2 --units cm/s2
refuses tool_missing "nothing\.AT2: cannot open: No such file or directory" "$INERTIA" spectrum nothing.AT2
refuses tool_option "spectrum: unexpected argument '--bogus'" "$INERTIA" spectrum quake.AT2 --bogus
"$INERTIA" spectrum --help >tool_help.txt && grep -q "Nigam and Jennings" tool_help.txt || fail "inertia spectrum --help"
"$INERTIA" --help all >help.txt && grep -q "inertia spectrum RECORD" help.txt || fail "inertia --help does not name the spectrum tool"
grep -q "baseline: {method: polynomial, degree: 3}" help.txt || fail "inertia --help does not name the record keys"

finish
