#!/usr/bin/env bash
# One run per output directory (examples/guide/run_promises.md): a run locks its output directory
# and its checkpoint directory for its life (flock on .inertia.lock, taken by rank 0 before any
# work). A second run into either is refused at once in one line naming the holder, and the
# first run is unaffected (each history row once). A run killed with SIGKILL leaves the file but
# no lock: the next run takes it and says so, and a --restart into the directory of a run that
# ended works. --check takes no lock. On a file system without flock (an LD_PRELOAD shim,
# tests/support/noflock.c), a run warns and goes on. At 1 and 2 ranks.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_NOFLOCK:?set INERTIA_NOFLOCK to the no-flock shim (libinertia_noflock.so)}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
first=""
e2e_cleanup() {
  if [ -n "$first" ]; then
    pkill -CONT -f "^$INERTIA $work/" 2>/dev/null || true
    kill "$first" 2>/dev/null || true
  fi
}

each_step_once() {  # each_step_once CSV LAST: the rows are steps 0, 1, ..., LAST, each once
  python3 - "$1" "$2" <<'PY'
import sys
rows = [l for l in open(sys.argv[1]).read().splitlines() if l and not l[0].isalpha() and l[0] != '#']
steps = [int(r.split(',')[0]) for r in rows]
assert steps == list(range(int(sys.argv[2]) + 1)), f"{sys.argv[1]}: steps {steps[:3]}...{steps[-3:]}, {len(steps)} rows"
PY
}
ranks() {  # ranks CASE: the pids of the ranks running inertia CASE (not mpiexec's)
  pgrep -f "^$INERTIA $1\$" || true
}
case_file() {  # case_file DIR STEPS OUTPUT_DIR CHECKPOINT_DIR
  mkdir -p "$1"
  cat > "$1/case.yaml" <<EOF
mesh:
  box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [8, 2, 2], element: hex8}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000]}
time: {integrator: central_difference, dt: 2.0e-5, steps: $2}
output:
  directory: $3
  every: 0
  fields: [displacement]
  probes: [{name: tip, point: [1, 0.1, 0.1]}]
  checkpoint: {every: 500, keep: 2, directory: $4}
EOF
}

for np in 1 2; do
  # ---- 1. Two runs at once ---------------------------------------------------------------------
  # The first is frozen (SIGSTOP) once it writes rows, so that it holds its directories while the
  # others try, whatever the machine's speed; then it goes on and must finish as if alone.
  d="$work/np$np"
  case_file "$d/a" 3000 out "$d/ckpt"
  case_file "$d/b" 300 ../a/out ../b/ckpt    # another case into the same output directory
  case_file "$d/c" 300 out "$d/ckpt"          # another case into the same checkpoint directory
  timeout 300 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$np" "$INERTIA" \
    "$d/a/case.yaml" > "$work/first.out" 2> "$work/first.err" < /dev/null &
  first=$!
  for _ in $(seq 1200); do
    [ -s "$d/a/out/probes.csv" ] && [ "$(wc -l < "$d/a/out/probes.csv")" -gt 3 ] && break
    kill -0 "$first" 2>/dev/null || break
    sleep 0.05
  done
  pids=$(ranks "$d/a/case.yaml")
  [ -n "$pids" ] || die "np $np: the first run ended before it could be held"
  # shellcheck disable=SC2086
  kill -STOP $pids
  grep -q "^the run of $d/a/case.yaml (pid [0-9]* on host .*, started 20[0-9-]* [0-9:]*)\$" \
    "$d/a/out/.inertia.lock" || die "np $np: the lock file does not describe its holder"
  if capture "$np" "$d/a/case.yaml"; then die "np $np: a second run of the case was not refused"; fi
  one_error_line "a/out: in use by the run of $d/a/case\\.yaml \\(pid [0-9]+ on host [^,]+, started [0-9-]+ [0-9:]+\\); wait for it to end, or give this run another output\\.directory\$"
  echo "ok: np $np, the same case twice: $(grep '^inertia: error:' "$work/err")"
  if capture "$np" "$d/b/case.yaml"; then die "np $np: another case into the same directory ran"; fi
  one_error_line "a/out: in use by the run of $d/a/case\\.yaml"
  if capture "$np" "$d/c/case.yaml"; then die "np $np: another case into the same checkpoint directory ran"; fi
  one_error_line "ckpt: in use by the run of $d/a/case\\.yaml .*another output\\.checkpoint\\.directory\$"
  [ ! -e "$d/c/out/probes.csv" ] || die "np $np: the refused run wrote probes.csv"
  echo "ok: np $np, another case into its checkpoint directory: $(grep '^inertia: error:' "$work/err" | cut -c1-90)..."
  capture "$np" --check "$d/a/case.yaml" || die "np $np: --check of a case whose run is going on"
  # shellcheck disable=SC2086
  kill -CONT $pids
  status=0
  wait "$first" || status=$?
  first=""
  [ "$status" = 0 ] || { cat "$work/first.err"; die "np $np: the first run failed (status $status)"; }
  each_step_once "$d/a/out/probes.csv" 3000
  each_step_once "$d/a/out/energy.csv" 3000
  [ ! -e "$d/a/out/.inertia.lock" ] && [ ! -e "$d/ckpt/.inertia.lock" ] ||
    die "np $np: a lock file stayed after a clean end"
  echo "ok: np $np, the first run was unaffected: each of its 3001 rows once, no lock file left"

  # ---- 2. A run killed with SIGKILL ------------------------------------------------------------
  case_file "$d/k" 3000 out ckpt
  timeout 300 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$np" "$INERTIA" \
    "$d/k/case.yaml" > "$work/first.out" 2> "$work/first.err" < /dev/null &
  first=$!
  for _ in $(seq 1200); do
    [ -e "$d/k/ckpt/checkpoint_000000500.h5" ] && break
    kill -0 "$first" 2>/dev/null || break
    sleep 0.02
  done
  pids=$(ranks "$d/k/case.yaml")
  [ -n "$pids" ] || die "np $np: the run ended before it could be killed"
  # shellcheck disable=SC2086
  kill -KILL $pids
  wait "$first" || true
  first=""
  killed=$(grep -o 'pid [0-9]*' "$d/k/out/.inertia.lock") || die "np $np: no lock file left by the killed run"
  # The newest complete checkpoint the killed run left (500 or later: a loaded machine may let it
  # write another before the kill lands).
  newest=$(find "$d/k/ckpt" -name 'checkpoint_*.h5' | sort | tail -n 1)
  [ -n "$newest" ] || die "np $np: no checkpoint left by the killed run"
  capture "$np" "$d/k/case.yaml" --restart "$d/k/ckpt" ||
    die "np $np: the run after a killed one (its lock file left) was refused or failed"
  grep -q "^lock      .*k/out: the run of $d/k/case.yaml ($killed .*) ended without releasing the output directory (killed or crashed)" "$work/out" ||
    die "np $np: the takeover of the killed run's lock was not logged"
  grep -q "^restart   from $newest: step" "$work/out" ||
    die "np $np: not restarted from the newest complete checkpoint $newest: $(grep '^restart' "$work/out")"
  each_step_once "$d/k/out/probes.csv" 3000
  [ ! -e "$d/k/out/.inertia.lock" ] && [ ! -e "$d/k/ckpt/.inertia.lock" ] ||
    die "np $np: a lock file stayed after the restarted run"
  echo "ok: np $np, after kill -9 the next run (--restart into its own directory) took the lock: $(grep -m1 '^lock ' "$work/out" | cut -c1-100)..."

  # ---- 3. A file system without flock ----------------------------------------------------------
  case_file "$d/n" 50 out ckpt
  LD_PRELOAD="$INERTIA_NOFLOCK" capture "$np" "$d/n/case.yaml" || die "np $np: a run without flock failed"
  grep -q "^warning   .*n/out: cannot lock the output directory (flock: No locks available; a file system without locks): nothing stops another run from writing into it at the same time\$" "$work/out" ||
    die "np $np: no warning without flock"
  grep -q "^warning   .*n/ckpt: cannot lock the checkpoint directory" "$work/out" ||
    die "np $np: no warning for the checkpoint directory without flock"
  [ ! -e "$d/n/out/.inertia.lock" ] && [ ! -e "$d/n/ckpt/.inertia.lock" ] ||
    die "np $np: a lock file left without flock"
  each_step_once "$d/n/out/probes.csv" 50
  echo "ok: np $np, without flock: $(grep -m1 '^warning   .*cannot lock' "$work/out" | sed 's|/tmp/[^ ]*/n/|.../n/|' | cut -c1-120)..."
done
finish
