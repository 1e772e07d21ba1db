#!/usr/bin/env bash
# Friction restarts bit-identical (README, "Contact with rigid walls", "Friction"): a block
# sliding with the decay law (the block of contact_friction_law.sh, 180 DOFs, a rigid wall with
# {static: 0.45, kinetic: 0.15, decay: 4}) checkpointed while sliding and continued from the
# checkpoint on the same ranks rewrites energy.csv and contact.csv byte for byte: the energy
# balance adds friction's dissipation step by step (not as differences of a running total, which
# a restart starts again from zero and so rounds otherwise in the last digits). Central difference
# on 1 and 2 ranks, newmark (Newton with the return map's tangent) on 1 rank.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
block() {  # block DIR TIME_KEYS CHECKPOINT_EVERY
  mkdir -p "$work/$1"
  cat > "$work/$1/case.yaml" <<YAML
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.1, 0.1], cells: [4, 3, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
amplitudes:
  on: {type: smooth_step, points: [[0, 0], [0.02, 1]], continuity: 2}
gravity: {value: [4.605516, 0, -8.661716], amplitude: on}
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]},
       friction: {static: 0.45, kinetic: 0.15, decay: 4}}
time: {$2, end_time: 0.1}
output:
  directory: $work/$1/out
  every: 0
  history_every: 1
  checkpoint: {every: $3, keep: 3}
YAML
}
fail=0
same() {  # same NP DIR TIME_KEYS CHECKPOINT_STEP
  block "$2" "$3" "$4"
  run "$1" "$work/$2/case.yaml"
  for f in energy contact; do cp "$work/$2/out/$f.csv" "$work/$2/$f.full"; done
  local c
  c=$(printf "%s/%s/out/checkpoints/checkpoint_%09d.h5" "$work" "$2" "$4")
  run "$1" "$work/$2/case.yaml" --restart "$c"
  for f in energy contact; do
    if cmp -s "$work/$2/$f.full" "$work/$2/out/$f.csv"; then
      echo "$2 (np $1): $f.csv after the restart at step $4 == uninterrupted"
    else
      echo "FAIL: $2 (np $1): $f.csv after the restart at step $4 differs from the uninterrupted run:"
      diff "$work/$2/$f.full" "$work/$2/out/$f.csv" | head -3 || true
      fail=1
    fi
  done
}
same 1 cd1 "integrator: central_difference, mass: lumped, dt: 1.0e-4" 400
same 2 cd2 "integrator: central_difference, mass: lumped, dt: 1.0e-4" 400
same 1 newmark1 "integrator: newmark, dt: 2.0e-3" 25
[ "$fail" = 0 ] || exit 1
echo "friction restarts: all checks passed"
