#!/usr/bin/env bash
# A run as a sequence of analyses (analyses:, examples/guide/analyses.md), each from the state the
# one before left:
# - gravity (static), then a transient with nothing more: every dynamic scheme stays at the
#   static deflection, |u - u_static| / |u_static| below 1e-9 at every row, np 1 (and 2 for
#   newmark and central_difference);
# - gravity, then the ground shakes (linear model): the static solution plus the transient from
#   rest under the base motion alone (superposition) to 1e-9 of the largest |u|, and the
#   supports' vertical reaction at the transient's start carries the weight, np 1, 2 and 3;
# - a plastic bar pressed past yield and released (static, then static): the residual elongation
#   is the 1-D closed form eps_p L, eps_p = (sigma_max - sigma_y) / H, to 1e-12, np 1 and 2;
# - modes about a preloaded state (modal, static, modal) of a pinned wire (Saint Venant-Kirchhoff):
#   for a pinned Euler-Bernoulli beam under an axial force P, f_n^2 = f_n0^2 + n^2 P / (4 L' m)
#   (the string's term, of the stretched length L' and the mass m, added to the bending one; P
#   measured as the support's reaction): in tension (P = 4.9 kN, f1 14.1 -> 80.8 Hz) and in compression at half
#   the Euler load (f1^2 / f1_0^2 = 1 - P / P_cr), modes 1 to 3 to 3e-4;
# - a restart in the middle of the second analysis: at np 1 bit-identical histories, at np 2
#   from np 1's checkpoint to 1e-11 (the round-off of another rank count's sums); the analyses
#   before it are skipped;
# - refusals: model keys in an analysis, a repeated name, a static with steps and no end_time.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
cd "$work"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"

clamp="  - {region: xmin, type: fixed}"
beam() {  # beam FILE GRAVITY-Z ANALYSES [SUPPORTS] [EXTRA-OUTPUT]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
${4:-$clamp}
amplitudes: {shake: {type: sine, frequency: 20}}
gravity: [0, 0, $2]
time: {mass: lumped}
analyses:
$3
output:
  every: 0
  history_every: 1
  probes: [{name: tip, point: [1, 0.05, 0.05], fields: [displacement]}]
${5:-}
EOF
}

# 1. Gravity, then a transient: every scheme stays at the static deflection.
for s in newmark hht generalized_alpha central_difference symplectic_euler rk2 heun rk4 \
         euler_implicit euler_explicit variational_symplectic; do
  extra=""
  [ "$s" = euler_explicit ] && extra=", allow_unstable: true"
  beam "$s.yaml" -9.81 "  - {name: gravity, type: static}
  - {name: hold, type: transient, integrator: $s, dt: 2.0e-6, steps: 40$extra}"
  for np in 1 2; do
    [ "$np" = 2 ] && [ "$s" != newmark ] && [ "$s" != central_difference ] && continue
    run "$np" "$s.yaml"
    grep -q "^analysis  2 of 2: 'hold' (transient), from t = 0 s" last.log ||
      { cat last.log; echo "FAIL: $s np $np: no analysis line"; exit 1; }
    python3 - "out/$s/gravity/probes.csv" "out/$s/hold/probes.csv" "$s np $np" <<'PY'
import sys
from csv_checks import read, check, passed, check_at_static_deflection
ref, run = read(sys.argv[1]), read(sys.argv[2])
norm = check_at_static_deflection(ref, run, sys.argv[3])
check(f'{sys.argv[3]}: static deflection (m)', norm, 1e-5, 1e-4)
sys.exit(0 if passed() and len(run['time']) == 41 else 1)
PY
  done
done

# 2. Gravity, then the ground shakes: superposition on a linear model.
supports="  - {region: xmin, type: fixed, components: [x, z]}
  - {region: xmin, type: acceleration, components: [y], value: [3], amplitude: shake}"
beam both.yaml -9.81 "  - {name: gravity, type: static}
  - {name: quake, type: transient, integrator: newmark, dt: 2.5e-4, steps: 200}" "$supports"
beam quake.yaml 0 "  - {name: quake, type: transient, integrator: newmark, dt: 2.5e-4, steps: 200}" \
  "$supports"
for np in 1 2 3; do
  run "$np" both.yaml
  run "$np" quake.yaml
  python3 - out/both/gravity/probes.csv out/both/quake/probes.csv out/quake/quake/probes.csv \
    out/both/quake/reactions.csv "np $np" <<'PY'
import sys
from csv_checks import read, passed, check_superposition
ref, both, quake, reactions = (read(p) for p in sys.argv[1:5])
check_superposition(ref, both, quake, reactions, 7850 * 1 * 0.1 * 0.1 * 9.81, sys.argv[5])
sys.exit(0 if passed() and len(both['time']) == 201 else 1)
PY
done
# One time line for ParaView: the gravity's frames, then the quake's.
beam frames.yaml -9.81 "  - {name: gravity, type: static}
  - {name: quake, type: transient, integrator: newmark, dt: 2.5e-4, steps: 8}" "$supports"
sed -i 's/every: 0/every: 4/' frames.yaml
run 1 frames.yaml
python3 - out/frames/frames.pvd <<'PY'
import re, sys, os
text = open(sys.argv[1]).read()
sets = re.findall(r'timestep="([^"]*)"[^>]*file="([^"]*)"', text)
files = [f for _, f in sets]
times = [float(t) for t, _ in sets]
assert files == ['quake/frames_000000.pvtu', 'quake/frames_000001.pvtu',
                 'quake/frames_000002.pvtu'], files
assert times == sorted(times) and times[-1] == 8 * 2.5e-4, times
assert all(os.path.exists(os.path.join(os.path.dirname(sys.argv[1]), f)) for f in files)
print('one time line:', sets)
PY

# 3. Press and release a plastic bar: the residual elongation.
cat > press.yaml <<'EOF'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.0e9}}
boundary_conditions:
  - {region: xmin, type: fixed, components: [x]}
  - {region: ymin, type: fixed, components: [y]}
  - {region: zmin, type: fixed, components: [z]}
  - {region: xmax, type: traction, value: [3.75e8, 0, 0], amplitude: press}
amplitudes: {press: {type: table, points: [[0, 0], [1, 1], [2, 0]]}}
analyses:
  - {name: press, type: static, end_time: 1, steps: 10}
  - {name: release, type: static, end_time: 2, steps: 4}
output:
  every: 0
  probes: [{name: tip, point: [1, 0.1, 0.1], fields: [displacement]}]
EOF
for np in 1 2; do
  run "$np" press.yaml
  python3 - out/press/press/probes.csv out/press/release/probes.csv "np $np" <<'PY'
import sys
from csv_checks import read, check, passed
press, release = read(sys.argv[1]), read(sys.argv[2])
E, nu, sy, H, smax, L = 2e11, 0.3, 2.5e8, 2e9, 3.75e8, 1.0
ep = (smax - sy) / H
check(f'{sys.argv[3]}: elongation under the load against (sigma/E + eps_p) L, relative',
      abs(press['tip.ux'][-1] - (smax / E + ep) * L) / (ep * L), 0, 1e-12)
check(f'{sys.argv[3]}: residual elongation after the release against eps_p L = {ep * L:.6g} m, '
      f'relative', abs(release['tip.ux'][-1] - ep * L) / (ep * L), 0, 1e-12)
check(f'{sys.argv[3]}: residual lateral contraction against -eps_p/2 x 0.1 m, relative',
      abs(release['tip.uy'][-1] + ep / 2 * 0.1) / (ep / 2 * 0.1), 0, 1e-12)
sys.exit(0 if passed() and release['time'][-1] == 2 else 1)
PY
done

# 4. Modes about a preloaded state: a pinned wire in tension and in compression.
python3 "$INERTIA_SOURCE_DIR/tests/support/wire_mesh.py" 200 0.005 wire.msh
wire() {  # wire FILE END-DISPLACEMENT
  cat > "$1" <<EOF
mesh: {file: wire.msh}
materials:
  - {region: wire, model: saint_venant_kirchhoff, density: 7800, youngs_modulus: 2.0e11,
     poissons_ratio: 0}
boundary_conditions:
  - {region: pin_a, type: fixed}
  - {region: key, type: fixed, components: [z]}
  - {region: pin_b, type: fixed, components: [y, z]}
  - {region: pin_b, type: displacement, components: [x], value: [$2], amplitude: pull}
amplitudes: {pull: {type: table, points: [[0, 0], [1, 1]]}}
analyses:
  - {name: at_rest, type: modal, modes: 6}
  - {name: preload, type: static, end_time: 1}
  - {name: loaded, type: modal, modes: 6}
output: {every: 0}
EOF
}
stretch_tension=1.0e-3 stretch_compression=-1.54e-5
wire tension.yaml $stretch_tension
wire compression.yaml $stretch_compression
for np in 1 2; do
  for case in tension compression; do
    [ "$np" = 2 ] && [ "$case" = compression ] && continue
    run "$np" "$case.yaml"
    grep -q "^modal     about the state at t = 1 s" last.log || { cat last.log; exit 1; }
    stretch=stretch_$case
    python3 - "out/$case" "$case np $np" "${!stretch}" <<'PY'
import sys, math
from csv_checks import read, check, passed
d = sys.argv[1]
rest, loaded = read(d + '/at_rest/modes.csv'), read(d + '/loaded/modes.csv')
P = read(d + '/preload/reactions.csv')['pin_b.fx'][-1]
rho_a, L = 7800 * 0.005 ** 2, 1.0
stretched = L + float(sys.argv[3])  # the string's length; its mass per length rho A L / stretched
for n in (1, 2, 3):
    for k in (2 * n - 2, 2 * n - 1):  # the bending pair (y and z)
        f0, f = rest['frequency'][k], loaded['frequency'][k]
        string = n ** 2 * P / (4 * stretched * L * rho_a)
        check(f'{sys.argv[2]}: mode {k + 1} ({f0:.4f} -> {f:.4f} Hz): (f^2 - f0^2) against '
              f'n^2 P / (4 L\' m), P = {P:.6g} N, relative', abs((f * f - f0 * f0) / string - 1),
              0, 3e-4)
if P < 0:  # half the Euler load of the model's own bending stiffness: f1^2 / f1_0^2 = 1 - P/P_cr
    f0, f = rest['frequency'][0], loaded['frequency'][0]
    p_cr = (2 * math.pi * f0) ** 2 * rho_a * L ** 2 / math.pi ** 2
    check(f'{sys.argv[2]}: P / P_cr', -P / p_cr, 0.45, 0.55)
    check(f'{sys.argv[2]}: f1^2 / f1_0^2 against 1 - P / P_cr', abs(f * f / (f0 * f0) - (1 + P / p_cr)),
          0, 1e-4)
sys.exit(0 if passed() else 1)
PY
  done
done

# 5. A restart in the middle of the second analysis.
beam restart.yaml -9.81 "  - {name: gravity, type: static}
  - {name: quake, type: transient, integrator: newmark, dt: 2.5e-4, steps: 60}
  - {name: after, type: transient, integrator: central_difference, dt: auto, end_time: 0.0155}" \
  "$supports" "  checkpoint: {every: 20, keep: 5}"
run 1 restart.yaml
cp -r out/restart full
for np in 1 2; do  # from step 20 of the quake, as if the run had stopped there
  rm -r out/restart/after out/restart/quake/checkpoints/checkpoint_0000000[46]0.h5
  run "$np" restart.yaml --restart out/restart/quake/checkpoints
  grep -q "analysis  skipped: before the checkpoint's analysis" last.log || { cat last.log; exit 1; }
  grep -q "^restart   from .*checkpoint_000000020.h5: step 20" last.log || { cat last.log; exit 1; }
  if [ "$np" = 1 ]; then
    for a in quake after; do
      cmp "full/$a/probes.csv" "out/restart/$a/probes.csv" || fail "np 1: $a's probes differ"
    done
  fi
  python3 - full out/restart "np $np" <<'PY'
import sys
from csv_checks import read, check, passed
for a in ('quake', 'after'):
    f, r = read(f'{sys.argv[1]}/{a}/probes.csv'), read(f'{sys.argv[2]}/{a}/probes.csv')
    peak = max(abs(x) for c in 'xyz' for x in f[f'tip.u{c}'])
    worst = max(abs(x - y) for c in 'xyz' for x, y in zip(f[f'tip.u{c}'], r[f'tip.u{c}']))
    # Another rank count sums in another order: the uninterrupted runs at np 1, 2, 3 differ by
    # 1e-12 to 3e-12 of the largest |u| themselves (the superposition check above).
    check(f'{sys.argv[3]}: {a}: restarted against uninterrupted, of the largest |u|', worst / peak,
          0, 0 if sys.argv[3] == 'np 1' else 1e-11)
    check(f'{sys.argv[3]}: {a}: rows', len(r['time']), len(f['time']), len(f['time']))
sys.exit(0 if passed() else 1)
PY
done

# 6. Refusals, one line each, at --check and at the run.
check_refuses --run model_key "analyses\[0\]\.mass: belongs to the model" \
  "$(beam /dev/stdout -9.81 "  - {name: a, type: transient, dt: 1.0e-4, steps: 2, mass: lumped}")"
check_refuses --run twice "analysis 'a' is given twice" \
  "$(beam /dev/stdout -9.81 "  - {name: a, type: static}
  - {name: a, type: static}")"
check_refuses --run steps_without_end "load steps need an end_time" \
  "$(beam /dev/stdout -9.81 "  - {name: a, type: static, steps: 3}")"
finish
