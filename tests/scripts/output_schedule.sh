#!/usr/bin/env bash
# When frames and history rows are written: output.interval (simulated seconds: the first step at
# or after each multiple), output.every (steps), the last step always, output.history_every for
# probes.csv and energy.csv, and the frame count announced before the time loop. At 2 ranks.
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

run_case() {  # run_case NAME OUTPUT_KEYS: 25 Newmark steps of 1e-4 s
  mkdir -p "$work/$1"
  cat >"$work/$1/case.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [6, 1, 1], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -100]}
time: {integrator: newmark, dt: 1.0e-4, steps: 25}
output:
  directory: out
  $2
  probes: [{name: tip, point: [1, 0.05, 0.05]}]
YAML
  (cd "$work/$1" && timeout 300 "$INERTIA_MPIEXEC" --allow-run-as-root --oversubscribe -n 2 \
    "$INERTIA" case.yaml >log 2>err) || { fail "$1: exit status $?"; cat "$work/$1/err"; }
}
frame_steps() {  # the pvd's times, as step numbers
  grep -o 'timestep="[^"]*"' "$work/$1/out/case.pvd" |
    python3 -c 'import sys; print(" ".join(str(round(float(l.split("\"")[1]) / 1e-4)) for l in sys.stdin))'
}
row_steps() {  # the steps of a CSV's rows
  grep -v '^#' "$work/$1/out/$2" | tail -n +2 | cut -d, -f1 | tr '\n' ' ' | sed 's/ $//'
}
expect() {  # expect WHAT GOT WANTED
  if [ "$2" = "$3" ]; then echo "ok    $1: $2"; else fail "$1: got '$2', expected '$3'"; fi
}

run_case interval 'interval: 0.00073'
expect "interval 0.00073 s: frames at steps" "$(frame_steps interval)" "0 8 15 22 25"
grep -q '^output    4 more VTK frames (every 0.00073 s and the last step), at most' "$work/interval/log" ||
  fail "interval: the log does not announce 4 frames: $(grep '^output' "$work/interval/log")"

run_case every 'every: 10'
expect "every 10 steps: frames at steps" "$(frame_steps every)" "0 10 20 25"
grep -q '^output    3 more VTK frames (every 10 steps and the last step)' "$work/every/log" ||
  fail "every: the log does not announce 3 frames"

run_case history 'every: 0
  history_every: 10
  energy: true'
expect "history_every 10: probes.csv rows at steps" "$(row_steps history probes.csv)" "0 10 20 25"
expect "history_every 10: energy.csv rows at steps" "$(row_steps history energy.csv)" "0 10 20 25"
[ -e "$work/history/out/case.pvd" ] && fail "every: 0 wrote a .pvd"

finish
