#!/usr/bin/env bash
# Blow-ups stopped early (README, "What a run promises"), at 1 and 2 ranks: central difference
# above its stable step (time.allow_unstable) grows without bound. The run stops within a few
# steps of where the growth became visible, with one line naming that step, exit status 1 and
# the files marked INCOMPLETE; checkpoints written after that step are renamed *.unstable (so
# --restart DIR cannot take them) and keep: 1 did not delete the last one before it, which
# --restart DIR then takes. With energy: false the displacement test stops it instead (a million
# times the model's size).
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_MPIEXEC:=mpiexec}"
work=$(mktemp -d "${TMPDIR:-/tmp}/inertia_blow_up.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL  $*"; failed=1; }
mpi() { "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$@"; }

# The stable step of this beam is 7.99908e-06 s: dt FACTOR times it.
case_file() {  # case_file FILE FACTOR [EXTRA OUTPUT LINE]
  local dt
  dt=$(python3 -c "print(7.99908e-06 * $2)")
  cat >"$1" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [20, 2, 2], element: hex8}}
materials:
  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1.0e5]}
time: {integrator: central_difference, mass: lumped, dt: $dt, steps: 2000, allow_unstable: true}
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
  # 10x the stable step: unstable from the first state on, stopped within 5 steps (the old
  # code ran to step 120, where the numbers overflowed).
  case_file "$d/fast.yaml" 10
  if (cd "$d" && mpi "$np" "$INERTIA" fast.yaml >fast.log 2>&1); then fail "np $np: 10x: exit 0"; fi
  stopped "$d/fast.log" "after step [1-5], .*the solution blows up: .*growing since the run's first state \(step 0\).*no checkpoint before step 0"
  grep -q '^# INCOMPLETE: .*blows up' "$d/out/probes.csv" || fail "np $np: probes.csv not marked"
  echo "ok    np $np: 10x: $(grep '^inertia: error:' "$d/fast.log")"

  # 1.01x: the unstable mode shows after some 30 steps. The checkpoint of step 30 is set aside,
  # the one of step 20 kept (keep: 1 notwithstanding), and --restart DIR takes it.
  rm -rf "$d/out"
  case_file "$d/slow.yaml" 1.01
  if (cd "$d" && mpi "$np" "$INERTIA" slow.yaml >slow.log 2>&1); then fail "np $np: 1.01x: exit 0"; fi
  stopped "$d/slow.log" "after step 3[0-9], .*the solution blows up: the energy balance .*growing since step 2[0-9].*checkpoint from step 2[0-9] on renamed \*\.unstable; the newest checkpoint before step 2[0-9]: .*checkpoint_000000020\.h5"
  [ -f "$d/out/checkpoints/checkpoint_000000020.h5" ] || fail "np $np: checkpoint 20 was removed"
  [ -f "$d/out/checkpoints/checkpoint_000000030.h5.unstable" ] || fail "np $np: checkpoint 30 not set aside"
  (cd "$d" && mpi "$np" "$INERTIA" slow.yaml --restart out/checkpoints >restart.log 2>&1)
  grep -q '^restart   from out/checkpoints/checkpoint_000000020.h5: step 20' "$d/restart.log" ||
    fail "np $np: the restart did not take checkpoint 20: $(grep -E '^restart|error' "$d/restart.log")"
  echo "ok    np $np: 1.01x: $(grep '^inertia: error:' "$d/slow.log")"

  # The same without the energy balance: the displacement test.
  rm -rf "$d/out"
  case_file "$d/quiet.yaml" 1.01 "  energy: false"
  if (cd "$d" && mpi "$np" "$INERTIA" quiet.yaml >quiet.log 2>&1); then fail "np $np: energy off: exit 0"; fi
  stopped "$d/quiet.log" "the largest displacement is 1\.[0-9]+e\+06 m at step [0-9]+, .* times the model's size \(1\.01 m\); growing since step [0-9]+"
  [ -f "$d/out/checkpoints/checkpoint_000000020.h5" ] || fail "np $np: energy off: checkpoint 20 was removed"
  echo "ok    np $np: energy off: $(grep '^inertia: error:' "$d/quiet.log")"
done
exit $failed
