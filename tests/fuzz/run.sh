#!/usr/bin/env bash
# The bounded fuzz campaign that CI runs (tests/README.md, "Fuzzing"; called by .ci/run): configures
# a build directory of its own with clang and -DINERTIA_FUZZ=ON, builds the fuzz targets (only them)
# and runs each on its seed corpus (tests/fuzz/corpus/<target>) for a fixed number of inputs, with a
# fixed seed, all targets at once. Exits non-zero on any finding: a crash, a sanitizer report
# (ASan, UBSan, leaks), a hang (an input taking more than 10 s), an input needing more than 2 GB,
# or a broken contract (an exception other than InputError, a message of more than one line); the
# input that found it is kept under $build/campaign/<target>/findings.
#
# Usage: tests/fuzz/run.sh [RUNS]
#   RUNS                   inputs per target (default 10000; INERTIA_FUZZ_RUNS)
#   INERTIA_FUZZ_BUILD     the build directory (default build-fuzz)
#   INERTIA_FUZZ_SEED      libFuzzer's seed (default 1)
#   INERTIA_FUZZ_TARGETS   the targets to run (default "fuzz_gmsh fuzz_case_file fuzz_split")
# A longer campaign by hand: see tests/README.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${INERTIA_FUZZ_BUILD:-build-fuzz}
runs=${1:-${INERTIA_FUZZ_RUNS:-10000}}
seed=${INERTIA_FUZZ_SEED:-1}
read -r -a targets <<<"${INERTIA_FUZZ_TARGETS:-fuzz_gmsh fuzz_case_file fuzz_split}"
max_seconds=120  # per target: a safety net, the runs take a few seconds

# clang with libFuzzer and the sanitizer runtimes. On Debian 12 these come from clang and
# libclang-rt-14-dev, which clang only recommends (so --no-install-recommends leaves it out).
can_link_fuzzer() {
  command -v clang++ >/dev/null 2>&1 || return 1
  local tmp status=0
  tmp=$(mktemp -d)
  printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }' \
    >"$tmp/probe.cpp"
  clang++ -fsanitize=fuzzer,address,undefined "$tmp/probe.cpp" -o "$tmp/probe" >/dev/null 2>&1 ||
    status=1
  rm -rf "$tmp"
  return $status
}
if ! can_link_fuzzer; then
  echo "fuzz: installing clang and libclang-rt-14-dev"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
  can_link_fuzzer || { echo "fuzz: clang++ still cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi

cmake -S . -B "$build" -DINERTIA_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}"

# run_target TARGET: one bounded campaign; its log and findings go to $build/campaign/TARGET.
run_target() {
  local target=$1
  local work=$build/campaign/$target
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/findings"
  # New inputs go to $work/corpus; the seed corpus in the repository is only read.
  "$build/bin/$target" -runs="$runs" -seed="$seed" -max_total_time="$max_seconds" \
    -max_len=8192 -timeout=10 -rss_limit_mb=2048 -dict="tests/fuzz/$target.dict" \
    -artifact_prefix="$work/findings/" -print_final_stats=1 \
    "$work/corpus" "tests/fuzz/corpus/${target#fuzz_}" >"$work/log" 2>&1
}

start=$SECONDS
pids=()
for target in "${targets[@]}"; do
  run_target "$target" &
  pids+=($!)
done
failed=()
for i in "${!targets[@]}"; do
  target=${targets[$i]}
  work=$build/campaign/$target
  status=0
  wait "${pids[$i]}" || status=$?
  findings=$(find "$work/findings" -type f | sort)
  executed=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$' ||
    echo "?")
  if [[ $status -ne 0 || -n "$findings" ]]; then
    failed+=("$target")
    echo "FAIL  $target: exit status $status after $executed inputs; findings:" \
      "${findings:-none}"
    grep -a -m12 -E '^fuzz_[a-z_]+: |^==[0-9]+==ERROR|^SUMMARY|^ +#[0-9] 0x|ERROR: libFuzzer' \
      "$work/log" | sed 's/^/      /' || true
    echo "      full log: $work/log"
    for f in $findings; do
      echo "      reproduce: $build/bin/$target $f"
    done
  else
    echo "ok    $target: $executed inputs, no finding"
  fi
done
echo "fuzz: campaign of $runs inputs per target in $((SECONDS - start)) s (seed $seed)"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: FINDINGS in ${failed[*]}" >&2
  exit 1
fi
