# The run and expect helpers of the end-to-end scripts (tests/scripts/*.sh), sourced by each
# right after its `set` line:
#     source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
# Needs INERTIA (the executable; a script may point it at another one, as point_state.sh does)
# and INERTIA_MPIEXEC (mpiexec on PATH when unset). Gives:
#   work                      a fresh temporary directory, removed at exit (a script that must
#                             undo more first defines e2e_cleanup)
#   failed                    0; fail sets it to 1, finish exits with it
#   mpi NP ARGS...            mpiexec on NP ranks (as root, oversubscribed)
#   run NP ARGS...            inertia on NP ranks, which must succeed: otherwise its log, a FAIL
#                             line and exit 1. The log (stdout and stderr) in $work/last.log
#   run_log LOG NP ARGS...    the same with the log in LOG
#   capture NP ARGS...        inertia on NP ranks under `timeout` (E2E_TIMEOUT seconds, 300 when
#                             unset), stdout in $work/out, stderr in $work/err, no stdin; returns
#                             its status
#   fail WHY...               a failed check: a FAIL line, and the script goes on (finish exits 1)
#   die WHY...                a failed check that ends the script: the FAIL line, $work/err and
#                             the last lines of $work/out
#   finish                    "NAME: all checks passed" when nothing failed; exits $failed
#   expect_error PATTERN NP ARGS...
#                             inertia on NP ranks fails with exactly one "inertia: error" line on
#                             stderr, matching PATTERN (grep); the script exits otherwise
#   refuses WHAT PATTERN COMMAND...
#                             COMMAND exits 1 with one line on stderr, matching PATTERN (grep -E);
#                             fail (naming WHAT) otherwise
#   check_refuses [--run] NAME PATTERN CASE-TEXT
#                             CASE-TEXT written to $work/NAME.yaml; `inertia --check NAME.yaml`
#                             (and with --run the run first) in $work refuses it as above
#   in_work COMMAND...        COMMAND run in $work (a subshell)
#   same_refusal NP PATTERN CASE
#                             the run and `--check` of CASE on NP ranks each fail with exactly
#                             one "inertia: error:" line, the same, matching PATTERN (grep -E);
#                             fail otherwise
#   one_error_line PATTERN    $work/err has exactly one "inertia: error:" line, and it matches
#                             "^inertia: error: .*PATTERN" (grep -E); die otherwise
#   once LOG TEXT             TEXT (a fixed string) on exactly one line of LOG; fail otherwise
#   has LOG TEXT, hasnt LOG TEXT
#                             LOG has (has not) a line containing TEXT; fail otherwise
#   warnings [LOG]            the number of warning lines of LOG ($work/last.log)
#   in_dir DIR NP CASE        CASE copied into $work/DIR (relative to the current directory) and
#                             run there on NP ranks, its log in $work/DIR.log
#   numpy_python WHAT         sets py to a python3 with numpy (python3 on PATH, else
#                             /usr/bin/python3), or prints SKIP (naming WHAT) and exits 0
# tests/support/csv_checks.py is the Python side: reading the CSV histories and range checks.

: "${INERTIA:?set INERTIA to the path of the inertia executable}"
: "${INERTIA_MPIEXEC:=mpiexec}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
e2e_name=$(basename "$0" .sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/inertia_$e2e_name.XXXXXX")
failed=0
e2e_exit() {
  local status=$?
  if declare -F e2e_cleanup > /dev/null; then e2e_cleanup || true; fi
  rm -rf "$work"
  exit $status
}
trap e2e_exit EXIT

mpi() {
  "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$@"
}
run_log() {
  local log=$1 np=$2
  shift 2
  mpi "$np" "$INERTIA" "$@" > "$log" 2>&1 || { cat "$log"; echo "FAIL: ${INERTIA##*/} $*"; exit 1; }
}
run() {
  run_log "$work/last.log" "$@"
}
capture() {
  local np=$1
  shift
  timeout -k 10 "${E2E_TIMEOUT:-300}" "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe \
    -n "$np" "$INERTIA" "$@" > "$work/out" 2> "$work/err" < /dev/null
}

fail() {
  echo "FAIL  $*"
  failed=1
}
die() {
  echo "FAIL: $*"
  if [ -e "$work/err" ]; then
    echo "--- stderr:"; head -c 4000 "$work/err"; echo
  fi
  if [ -e "$work/out" ]; then
    echo "--- stdout (last lines):"; tail -n 5 "$work/out" | head -c 2000
  fi
  exit 1
}
finish() {
  [ "$failed" = 0 ] && echo "$e2e_name: all checks passed"
  exit "$failed"
}

expect_error() {
  local pattern=$1 np=$2
  shift 2
  if mpi "$np" "$INERTIA" "$@" > "$work/out" 2> "$work/err"; then
    echo "FAIL: expected an error for: $*"; exit 1
  fi
  [ "$(grep -c 'inertia: error' "$work/err")" = 1 ] || { cat "$work/err"; echo "FAIL: not one error line"; exit 1; }
  grep -q "$pattern" "$work/err" || { cat "$work/err"; echo "FAIL: expected '$pattern'"; exit 1; }
}
refuses() {
  local name=$1 pattern=$2 status=0
  shift 2
  "$@" > "$work/refused.out" 2> "$work/refused.err" || status=$?
  [ $status = 1 ] || fail "$name: exit $status, expected 1"
  [ "$(grep -c . "$work/refused.err")" = 1 ] || fail "$name: $(grep -c . "$work/refused.err") stderr lines"
  grep -Eq -- "$pattern" "$work/refused.err" ||
    fail "$name: '$(cat "$work/refused.err")' does not match '$pattern'"
}
in_work() {
  (cd "$work" && "$@")
}
check_refuses() {
  local mode modes=(--check)
  if [ "$1" = --run ]; then
    modes=("" --check)
    shift
  fi
  printf '%s\n' "$3" > "$work/$1.yaml"
  for mode in "${modes[@]}"; do
    refuses "$1${mode:+ $mode}" "$2" in_work "$INERTIA" $mode "$1.yaml"
  done
}
same_refusal() {
  local np=$1 pattern=$2 case=$3 mode status lines=()
  for mode in "" --check; do
    status=0
    mpi "$np" "$INERTIA" $mode "$case" > "$work/refused.out" 2> "$work/refused.err" || status=$?
    [ $status != 0 ] || fail "${case##*/} np $np $mode: accepted"
    [ "$(grep -c '^inertia: error:' "$work/refused.err")" = 1 ] ||
      fail "${case##*/} np $np $mode: not one error line: $(head -c 400 "$work/refused.err")"
    lines+=("$(grep -m1 '^inertia: error:' "$work/refused.err")")
    grep -Eq -- "^inertia: error: .*$pattern" <<< "${lines[-1]}" ||
      fail "${case##*/} np $np $mode: '${lines[-1]}' does not match '$pattern'"
  done
  [ "${lines[0]}" = "${lines[1]}" ] ||
    fail "${case##*/} np $np: the run says '${lines[0]}', --check '${lines[1]}'"
}
one_error_line() {
  [ "$(grep -c '^inertia: error:' "$work/err")" = 1 ] || die "expected one error line"
  grep -Eq "^inertia: error: .*$1" "$work/err" || die "the error line does not match /$1/"
}

once() {
  local n
  n=$(grep -cF -- "$2" "$1")
  [ "$n" = 1 ] || fail "${1#"$work"/}: '$2' on $n lines"
}
has() {
  grep -qF -- "$2" "$1" || fail "${1#"$work"/}: no line with '$2'"
}
hasnt() {
  ! grep -qF -- "$2" "$1" || fail "${1#"$work"/}: unexpected '$2'"
}
warnings() {
  grep -c "^warning   " "${1:-$work/last.log}" || true
}

in_dir() {
  mkdir -p "$1" && cp "$3" "$1/"
  (cd "$1" && run_log "$work/$1.log" "$2" "$3")
}

numpy_python() {
  py=""
  local candidate
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" > /dev/null && "$candidate" -c 'import numpy' 2> /dev/null; then
      py=$candidate
      return 0
    fi
  done
  echo "SKIP: no python3 with numpy; $1 not run"
  exit 0
}
