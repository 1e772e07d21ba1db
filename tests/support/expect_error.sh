# Sourced by end-to-end scripts (tests/scripts/restart.sh, split.sh); needs $work, $INERTIA and
# $INERTIA_MPIEXEC. expect_error PATTERN NP ARGS...: inertia on NP ranks must fail with exactly
# one "inertia: error" line on stderr, matching PATTERN (grep); the script exits otherwise.
expect_error() {
  local pattern=$1 np=$2
  shift 2
  if "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n "$np" "$INERTIA" "$@" > "$work/out" 2> "$work/err"; then
    echo "FAIL: expected an error for: $*"; exit 1
  fi
  [ "$(grep -c 'inertia: error' "$work/err")" = 1 ] || { cat "$work/err"; echo "FAIL: not one error line"; exit 1; }
  grep -q "$pattern" "$work/err" || { cat "$work/err"; echo "FAIL: expected '$pattern'"; exit 1; }
}
