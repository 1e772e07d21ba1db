#!/usr/bin/env bash
# Blow-ups stopped early (examples/guide/run_promises.md), at 1 and 2 ranks: euler_explicit (which
# grows at any step; no time.allow_unstable needed) on a beam. The run stops within a few steps of
# where the growth became visible, with one line naming that step, exit status 1 and the files
# marked INCOMPLETE; checkpoints written after that step are renamed *.unstable (so --restart DIR
# cannot take them) and keep: 1 did not delete the last one before it, which --restart DIR then
# takes. With energy: false the displacement test stops it instead (a million times the model's
# size). And:
# - time.allow_unstable: true lets a growing run go on: central difference at 10x its stable step
#   warns once (the step and the growth) and runs until the energies overflow (step 61), which
#   stops it with nothing non-finite written (the old code stopped it at step 3); SOFA's "RK2 high" (rk2,
#   dt 0.1, k 1000, m 10: omega h = 1, |R| = sqrt(1.25) per step) runs its 50 steps and every
#   step is the scalar recurrence (the old code stopped it at step 7);
# - the energy balance is watched at every step, whatever history_every: a 40-step hencky + J2
#   run on reduced hex8 (rk2 above the step where it grows fast) with history_every: 40 stops at
#   step 3x (the old code ended at exit 0 with total 2.3e8 J from 321 J);
# - a floor: a static rigid translation of a hencky bar, whose energies are all round-off
#   (1e-11 J, the balance all of it), runs to the end with its checkpoints (the old code stopped
#   it at step 3 and renamed them *.unstable).
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

# The stable step of central difference on this beam is 7.99908e-06 s: dt FACTOR times it.
case_file() {  # case_file FILE FACTOR [EXTRA OUTPUT LINE] [INTEGRATOR AND OPTIONS]
  local dt
  dt=$(python3 -c "print(7.99908e-06 * $2)")
  cat >"$1" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [20, 2, 2], element: hex8}}
materials:
  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1.0e5]}
time: {integrator: ${4:-euler_explicit}, mass: lumped, dt: $dt, steps: 2000}
output:
  directory: out
  every: 0
  probes: [{name: tip, point: [1.0, 0.05, 0.05]}]
  checkpoint: {every: 10, keep: 1}
${3:-}
YAML
}
# stopped LOG PATTERN: the run failed with one error line matching PATTERN (grep -E)
stopped() {
  local n
  n=$(grep -c '^inertia: error:' "$1")
  [ "$n" = 1 ] || { fail "$1: $n error lines"; return; }
  grep -qE "$2" "$1" || fail "$1: $(grep '^inertia: error:' "$1")"
}

for np in 1 2; do
  d="$work/np$np"
  mkdir -p "$d"
  # 10x the stable step: unstable from the first state on, stopped within 5 steps.
  case_file "$d/fast.yaml" 10
  if (cd "$d" && mpi "$np" "$INERTIA" fast.yaml >fast.log 2>&1); then fail "np $np: 10x: exit 0"; fi
  stopped "$d/fast.log" "after step [1-5], .*the solution blows up: .*growing since the run's first state \(step 0\).*no checkpoint before step 0"
  grep -q '^# INCOMPLETE: .*blows up' "$d/out/probes.csv" || fail "np $np: probes.csv not marked"
  echo "ok    np $np: 10x: $(grep '^inertia: error:' "$d/fast.log")"

  # 0.38x (omega h = 0.76 on the highest mode, whose energy grows by 1.58 per step): the growth
  # shows after some 30 steps. The checkpoint of step 30 is set aside, the one of step 20 kept
  # (keep: 1 notwithstanding), and --restart DIR takes it.
  rm -rf "$d/out"
  case_file "$d/slow.yaml" 0.38
  if (cd "$d" && mpi "$np" "$INERTIA" slow.yaml >slow.log 2>&1); then fail "np $np: 1.01x: exit 0"; fi
  stopped "$d/slow.log" "after step 3[0-9], .*the solution blows up: the energy balance .*growing since step 2[0-9].*checkpoint from step 2[0-9] on renamed \*\.unstable; the newest checkpoint before step 2[0-9]: .*checkpoint_000000020\.h5"
  [ -f "$d/out/checkpoints/checkpoint_000000020.h5" ] || fail "np $np: checkpoint 20 was removed"
  [ -f "$d/out/checkpoints/checkpoint_000000030.h5.unstable" ] || fail "np $np: checkpoint 30 not set aside"
  (cd "$d" && mpi "$np" "$INERTIA" slow.yaml --restart out/checkpoints >restart.log 2>&1)
  grep -q '^restart   from out/checkpoints/checkpoint_000000020.h5: step 20' "$d/restart.log" ||
    fail "np $np: the restart did not take checkpoint 20: $(grep -E '^restart|error' "$d/restart.log")"
  echo "ok    np $np: 0.38x: $(grep '^inertia: error:' "$d/slow.log")"

  # The same without the energy balance: the displacement test.
  rm -rf "$d/out"
  case_file "$d/quiet.yaml" 0.38 "  energy: false"
  if (cd "$d" && mpi "$np" "$INERTIA" quiet.yaml >quiet.log 2>&1); then fail "np $np: energy off: exit 0"; fi
  stopped "$d/quiet.log" "the largest displacement is 1\.[0-9]+e\+06 m at step [0-9]+, .* times the model's size \(1\.01 m\); growing since (step [0-9]+|the run's first state)"
  [ -f "$d/out/checkpoints/checkpoint_000000020.h5" ] || fail "np $np: energy off: checkpoint 20 was removed"
  echo "ok    np $np: energy off: $(grep '^inertia: error:' "$d/quiet.log")"

  # time.allow_unstable: true, central difference at 10x: one warning, then on until the energies
  # overflow (step 61), which stops it; no row holds a non-finite number.
  rm -rf "$d/out"
  case_file "$d/allowed.yaml" 10 "" "central_difference, allow_unstable: true"
  if (cd "$d" && mpi "$np" "$INERTIA" allowed.yaml >allowed.log 2>&1); then fail "np $np: allowed: exit 0"; fi
  n=$(grep -c '^warning   the solution grows' "$d/allowed.log")
  [ "$n" = 1 ] || fail "np $np: allowed: $n growth warnings"
  grep -qE '^warning   the solution grows: the energy balance is .* at step [1-5], .*time\.allow_unstable: true' \
    "$d/allowed.log" || fail "np $np: allowed: $(grep '^warning   the solution' "$d/allowed.log")"
  stopped "$d/allowed.log" "after step [1-9][0-9]+, .*the (energy|solution) is not finite at step [1-9][0-9]+"
  if grep -v '^#' "$d/out/energy.csv" "$d/out/probes.csv" | grep -qiE '(^|,)[-+]?(nan|inf)'; then
    fail "np $np: allowed: a non-finite number written"
  fi
  echo "ok    np $np: allowed: $(grep '^inertia: error:' "$d/allowed.log")"

  # SOFA's RK2 high with time.allow_unstable: a bob of 10 kg on a spring of 1000 N/m along y,
  # v0 = 1 mm/s, rk2 at dt 0.1: all 50 steps, every one the scalar recurrence.
  cat >"$d/rk2.yaml" <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/tests/data/springs/hanging.msh}
springs: [{region: spring, stiffness: 1000}]
point_masses: [{region: bob, mass: 10}]
boundary_conditions:
  - {region: anchor, type: fixed}
  - {region: bob, type: fixed, components: [x, z]}
initial_conditions:
  velocity: [{region: bob, velocity: [0, 0.001, 0]}]
time: {integrator: rk2, dt: 0.1, steps: 50, allow_unstable: true}
output:
  directory: rk2
  every: 0
  probes: [{name: bob, point: [0, -1, 0], fields: [displacement, velocity]}]
YAML
  (cd "$d" && mpi "$np" "$INERTIA" rk2.yaml >rk2.log 2>&1) || fail "np $np: rk2 high: $(grep error "$d/rk2.log")"
  n=$(grep -c '^warning   the solution grows: .* at step 7, .*allow_unstable' "$d/rk2.log")
  [ "$n" = 1 ] || fail "np $np: rk2 high: $n growth warnings naming step 7"
  python3 - "$d/rk2/probes.csv" <<'PY' || fail "np $np: rk2 high: the recurrence"
import csv, sys
rows = list(csv.DictReader(r for r in open(sys.argv[1]) if not r.startswith("#")))
h, w2, x, v, worst, scale = 0.1, 1000 / 10, 0.0, 0.001, 0.0, 0.0
for r in rows[1:]:  # explicit midpoint: x += h (v + h/2 a(x)), v += h a(x + h/2 v)
    x, v = x + h * (v - h / 2 * w2 * x), v - h * w2 * (x + h / 2 * v)
    worst = max(worst, abs(float(r["bob.uy"]) - x), h * abs(float(r["bob.vy"]) - v))
    scale = max(scale, abs(x), h * abs(v))
growth = (float(rows[-1]["bob.uy"]) ** 2 + float(rows[-1]["bob.vy"]) ** 2 / w2) / (0.001 ** 2 / w2)
print(f"rk2 high: {len(rows) - 1} steps, largest difference from the recurrence {worst / scale:.2e} of the"
      f" amplitude, energy x {growth:.4g} (1.25^50 = {1.25 ** 50:.4g})")
sys.exit(0 if len(rows) == 51 and worst <= 1e-12 * scale and abs(growth / 1.25 ** 50 - 1) < 0.2 else 1)
PY
  echo "ok    np $np: rk2 high: $(grep -c '^50,' "$d/rk2/probes.csv") row at step 50"

  # Every step watched: hencky + J2 on reduced hex8, rk2 at 1.5e-5 s (omega h ~ 2.2), 40 steps,
  # history_every: 40.
  cat >"$d/every.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 1, 1], element: hex8}}
materials:
  - {region: all, model: hencky, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3,
     formulation: reduced, plasticity: {yield_stress: 150}}
boundary_conditions:
  - {region: xmin, type: fixed}
initial_conditions:
  velocity: [0, 0, -5]
time: {integrator: rk2, mass: lumped, dt: 1.5e-5, steps: 40}
output:
  directory: every
  every: 0
  history_every: 40
YAML
  if (cd "$d" && mpi "$np" "$INERTIA" every.yaml >every.log 2>&1); then fail "np $np: history_every 40: exit 0"; fi
  stopped "$d/every.log" "after step 3[0-9], .*the solution blows up: the energy balance .* at step 3[0-9]"
  echo "ok    np $np: history_every 40: $(grep '^inertia: error:' "$d/every.log")"

  # The floor: a static rigid translation of a hencky bar, all energies round-off.
  cat >"$d/rigid.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}
materials:
  - {region: all, model: hencky, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: displacement, value: [1.0e-3, 2.0e-3, -1.0e-3], amplitude: ramp}
amplitudes:
  ramp: {type: table, points: [[0, 0], [1, 1]]}
time: {integrator: static, dt: 0.025, steps: 40}
output:
  directory: rigid
  every: 0
  checkpoint: {every: 2, keep: 2}
YAML
  (cd "$d" && mpi "$np" "$INERTIA" rigid.yaml >rigid.log 2>&1) || fail "np $np: rigid: $(grep error "$d/rigid.log")"
  ls "$d/rigid/checkpoints" | grep -q unstable && fail "np $np: rigid: checkpoints set aside"
  [ -f "$d/rigid/checkpoints/checkpoint_000000040.h5" ] || fail "np $np: rigid: no checkpoint 40"
  echo "ok    np $np: rigid translation ran to the end: $(tail -1 "$d/rigid/energy.csv")"
done
finish
