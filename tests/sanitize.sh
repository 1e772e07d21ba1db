#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer (tests/README.md):
# configures build-asan (-DINERTIA_SANITIZE=ON, GCC's sanitizers, nothing to install beyond the
# README's packages), builds it and runs ctest there. Not part of CI (it takes about three times
# as long as the normal suite on 2 cores); run it on demand, e.g. before a release:
#
#   tests/sanitize.sh [ctest arguments, e.g. -R mpi -j2]
#
# Any heap or stack error or undefined behaviour makes the test that hit it fail with the
# sanitizer's report. Leak checking is off: Open MPI and PETSc keep allocations until exit by
# design, which LeakSanitizer would report from every rank.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${INERTIA_SANITIZE_BUILD:-build-asan}
cmake -S . -B "$build" -DINERTIA_SANITIZE=ON >/dev/null
cmake --build "$build" -j2
# verify_asan_link_order=0: the full-disk shim of tests/scripts/faults.sh is LD_PRELOADed ahead of
# the ASan runtime (the shim only wraps write functions).
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:verify_asan_link_order=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir "$build" --output-on-failure --timeout 1800 "${@:--j2}"
