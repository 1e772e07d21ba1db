#!/usr/bin/env bash
# SIGTERM and SIGINT outside the time loop (examples/guide/run_promises.md; faults.sh checks the
# time loop): during a modal analysis (SLEPc), the set-up (mesh read, partition, assembly, the
# solver set-up's power iterations) and `inertia --split`, the ranks stop within seconds,
# together, with exit status 128 + the signal, one line "inertia: error: interrupted by SIGTERM
# ...", nothing half-written and the output directory's lock released; also when only one rank
# receives the signal (a batch system may signal one process). Each run would go on for tens of
# seconds (or minutes) if the signal were ignored; `timeout` turns a hang into a failure.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# Seconds from the signal to the exit of every process (a loaded 2-core CI machine; measured:
# 0.3 to 4 s, examples/guide/run_promises.md).
LIMIT=${INERTIA_SIGNAL_LIMIT:-10}
launcher=""
e2e_cleanup() {
  [ -n "$launcher" ] && kill "$launcher" 2>/dev/null
}

start() {  # start NP ARGS...: inertia on NP ranks in the background (output in $work/out, err)
  local np=$1
  shift
  : > "$work/out"
  timeout 120 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$np" "$INERTIA" "$@" \
    > "$work/out" 2> "$work/err" < /dev/null &
  launcher=$!
}
wait_for() {  # wait_for PATTERN: until stdout has a line matching PATTERN (1: the run ended first)
  for _ in $(seq 1200); do
    grep -Eq "$1" "$work/out" && return 0
    kill -0 "$launcher" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
ranks() {  # ranks ARGS...: the pids of the ranks running inertia ARGS (not mpiexec's)
  pgrep -f "^$INERTIA $*\$" || true
}
rank_pid() {  # rank_pid RANK ARGS...: the pid of one rank
  local rank=$1 pid
  shift
  for pid in $(ranks "$@"); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
      echo "$pid"
      return
    fi
  done
}
# interrupt SIGNAL WHO PATTERN ARGS...: once stdout matches PATTERN, sends SIGNAL to the ranks
# (WHO: all, or a rank number: that rank only) and waits for the run's end; sets $status and
# $elapsed (seconds from the signal to the launcher's exit).
interrupt() {
  local signal=$1 who=$2 pattern=$3 pids
  shift 3
  if ! wait_for "$pattern"; then
    status=0
    wait "$launcher" || status=$?
    launcher=""
    die "the run ended (status $status) before stdout matched /$pattern/: nothing to interrupt"
  fi
  sleep "${DELAY:-0}"
  if [ "$who" = all ]; then pids=$(ranks "$@"); else pids=$(rank_pid "$who" "$@"); fi
  [ -n "$pids" ] || die "no rank to signal"
  local t0=$EPOCHREALTIME
  # shellcheck disable=SC2086
  kill -s "$signal" $pids
  status=0
  wait "$launcher" || status=$?
  launcher=""
  elapsed=$(python3 -c "print(f'{$EPOCHREALTIME - $t0:.2f}')")
}
stopped() {  # stopped STATUS PATTERN: the exit status, the line, promptly
  [ "$status" = "$1" ] || die "exit status $status, expected $1"
  one_error_line "$2"
  python3 -c "import sys; sys.exit(0 if $elapsed <= $LIMIT else 1)" ||
    die "stopped $elapsed s after the signal (more than $LIMIT s)"
}

# ---- 1. A modal analysis (SLEPc) ---------------------------------------------------------------
# 60 modes of a clamped 24 x 12 x 12 hex8 block: about 7 s of work on one core, 17-32 s on this
# machine under load; the signal comes a second after the "modal" line (the analysis started).
d="$work/modal"
mkdir -p "$d"
cat > "$d/case.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [2, 1, 1], cells: [24, 12, 12], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
modal: {modes: 60}
output: {directory: out}
EOF
for np in 1 2; do
  who=all
  [ "$np" = 2 ] && who=1  # one rank only: the flag is combined at every inner solve
  rm -rf "$d/out"
  start "$np" "$d/case.yaml"
  DELAY=1 interrupt TERM "$who" '^modal ' "$d/case.yaml"
  # Inside SLEPc's solve, or (a loaded machine that is slower to set the solver up than the
  # delay) just before it: both stop the analysis.
  stopped 143 "interrupted by SIGTERM during the modal analysis \\((SLEPc, after [0-9]+ inner solves?|before SLEPc's solve)\\); no output written$"
  [ ! -e "$d/out/modes.csv" ] || die "modal: modes.csv written"
  [ ! -e "$d/out/.inertia.lock" ] || die "modal: the lock was not released"
  echo "ok: np $np, SIGTERM to $who during the modal analysis: status 143 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"
done

# ---- 1b. A harmonic sweep ------------------------------------------------------------------------
# The direct solve at 100000 frequencies of a clamped 16 x 4 x 4 hex8 beam (ms each: the sweep
# takes minutes); the signal comes a second after the "harmonic" line. The ranks combine their
# flags before each frequency (the modal sweep: every 4096).
d="$work/harmonic"
mkdir -p "$d"
cat > "$d/case.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [16, 4, 4], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: force, value: [0, 0, 100]}
harmonic: {method: direct, frequencies: {from: 1, to: 5000, count: 100000},
           rayleigh: {damping_ratios: [0.02, 0.02], frequencies: [100, 3000]}}
output: {directory: out}
EOF
for np in 1 2; do
  rm -rf "$d/out"
  start "$np" "$d/case.yaml"
  DELAY=1 interrupt TERM all '^harmonic ' "$d/case.yaml"
  stopped 143 "interrupted by SIGTERM during the harmonic sweep \\([0-9]+ of its 100000 frequencies solved\\)"
  [ ! -e "$d/out/.inertia.lock" ] || die "harmonic: the lock was not released"
  echo "ok: np $np, SIGTERM during the harmonic sweep: status 143 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"
done

# ---- 2. The set-up ------------------------------------------------------------------------------
# A 40^3 hex8 cube read from a mesh file on rank 0, central difference with a consistent mass:
# the highest frequency's power iterations solve with M each, minutes in all. Signalled right
# after the first line (the mesh is being read, partitioned, distributed or assembled), or after
# the partition table (the power iterations: the "solver setup" phase).
d="$work/setup"
mkdir -p "$d"
python3 "$INERTIA_SOURCE_DIR/tests/support/hex_cube_msh.py" 40 "$d/cube.msh"
cat > "$d/case.yaml" <<EOF
mesh: {file: cube.msh}
materials:
  - {region: cube, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
time: {integrator: central_difference, dt: auto, steps: 100}
output: {directory: out, every: 10, probes: [{name: tip, point: [1, 0.5, 0.5]}]}
EOF
no_outputs() {
  for f in probes.csv energy.csv case.pvd; do
    [ ! -e "$d/out/$f" ] || die "set-up: $f written"
  done
  [ ! -e "$d/out/.inertia.lock" ] || die "set-up: the lock was not released"
}
for np in 1 2; do
  rm -rf "$d/out"
  start "$np" "$d/case.yaml"
  interrupt TERM all '^inertia .*: case ' "$d/case.yaml"
  stopped 143 'interrupted by SIGTERM (while (reading|checking)|during the set-up).*; no output written$'
  no_outputs
  echo "ok: np $np, SIGTERM at the start of the set-up: status 143 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"
done
rm -rf "$d/out"
start 2 "$d/case.yaml"
interrupt INT all '^partition ' "$d/case.yaml"
stopped 130 "interrupted by SIGINT during the set-up \\(the highest frequency's power iteration"
no_outputs
echo "ok: np 2, SIGINT in the solver set-up: status 130 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"
rm -rf "$d/out"
start 2 "$d/case.yaml"
DELAY=1 interrupt TERM 1 '^inertia .*: case ' "$d/case.yaml"
stopped 143 'interrupted by SIGTERM during the set-up'
no_outputs
echo "ok: np 2, SIGTERM to rank 1 only in the set-up: status 143 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"

# ---- 3. inertia --split ----------------------------------------------------------------------------
# A 50^3 hex8 cube (20 MB): reading, partitioning and writing its split take seconds.
python3 "$INERTIA_SOURCE_DIR/tests/support/hex_cube_msh.py" 50 "$d/cube.msh"
start 1 --split 2 "$d/case.yaml"
interrupt TERM all '^split .* into ' --split 2 "$d/case.yaml"
stopped 143 'interrupted by SIGTERM (while (reading|checking) .*cube\.msh|during --split).*; no split written$'
ls "$d"/*split* > /dev/null 2>&1 && die "split: a split file was left"
echo "ok: SIGTERM during --split: status 143 after $elapsed s: $(grep -o 'interrupted.*' "$work/err")"
finish
