#!/usr/bin/env bash
# Runs an inertia-bench command line (the arguments) and checks only the shape of its output:
# exit status 0; every line is a `# comment` or `name value unit` with a lower-case name, a
# finite number and a one-word unit; the key figures are present; the last line is
# `bench_complete 1 flag`. No timing assertions. Used by ctest (bench.quick).
set -u
out=$("$@")
status=$?
printf '%s\n' "$out"
fail() { echo "check_bench_output: FAIL: $*" >&2; exit 1; }
[ "$status" -eq 0 ] || fail "exit status $status"
bad=$(printf '%s\n' "$out" | grep -v '^#' |
      grep -Ev '^[a-z][a-z0-9_]* [-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)? [^ ]+$')
[ -z "$bad" ] || fail "malformed lines:
$bad"
for name in ranks dofs setup_seconds assembly_hex8_stiffness_seconds matmult_aij_seconds \
            matmult_aij_bandwidth matmult_baij_seconds explicit_step_assembled_seconds \
            explicit_step_over_matmult implicit_newmark_step_seconds \
            implicit_newmark_iterations_per_step static_gamg_setup_seconds \
            static_gamg_solve_seconds static_gamg_iterations peak_memory_per_dof \
            stream_triad_bandwidth matmult_aij_fraction_of_triad; do
  printf '%s\n' "$out" | grep -q "^$name " || fail "missing line '$name'"
done
dups=$(printf '%s\n' "$out" | grep -v '^#' | cut -d' ' -f1 | sort | uniq -d)
[ -z "$dups" ] || fail "duplicate names: $dups"
[ "$(printf '%s\n' "$out" | tail -n 1)" = "bench_complete 1 flag" ] || fail "last line is not 'bench_complete 1 flag'"
echo "check_bench_output: OK"
