#!/usr/bin/env bash
# A restart knows its model (examples/guide/run_promises.md): a checkpoint carries a fingerprint of
# what determines the solution (node coordinates, elements, materials, mass treatment, damping,
# conditions with their amplitudes' contents, integrator, the parsed values of sections such as
# contact:), the same at every rank count. A
# checkpoint written on 2 ranks continues the same case on 1 and 3 ranks, also with other output
# options and a later end_time; a case that changed any of those is refused in one line naming
# what changed, and --allow-changed-model continues anyway with the change as a warning.
set -uo pipefail
: "${INERTIA:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

cat >"$work/case.yaml" <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [6, 2, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -2000], amplitude: ramp}
amplitudes:
  ramp: {type: table, points: [[0, 0], [0.002, 1], [1, 1]]}
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, -1], normal: [0, 0, 1]}, friction: 0.3}
time:
  integrator: newmark
  dt: 1.0e-4
  steps: 20
  mass: consistent
  rayleigh: {mass: 2, stiffness: 1.0e-5}
output:
  directory: out
  every: 0
  probes: [{name: tip, point: [1, 0.1, 0.1]}]
  checkpoint: {every: 10, keep: 2}
YAML
(cd "$work" && mpi 2 "$INERTIA" case.yaml >run.log 2>&1) || { cat "$work/run.log"; exit 1; }
checkpoint="$work/out/checkpoints/checkpoint_000000010.h5"

# variant LABEL SED: the case with one edit, as variant_LABEL.yaml (output in out_LABEL).
variant() {
  sed -e "$2" -e "s|directory: out|directory: out_$1|" "$work/case.yaml" >"$work/variant_$1.yaml"
  cmp -s "$work/case.yaml" "$work/variant_$1.yaml" && fail "$1: the edit '$2' changed nothing"
}
# restart NP LABEL [ARGS]: restarts variant LABEL from the 2-rank checkpoint; log in LABEL.log
restart() {
  local np=$1 label=$2
  shift 2
  (cd "$work" && mpi "$np" "$INERTIA" "variant_$label.yaml" --restart "$checkpoint" "$@" \
    >"$label.log" 2>&1)
}

# The same model: on 1 and 3 ranks, with other output options and a later end_time.
# The contact section's parsed values count, not its text: friction 0.30 is 0.3.
variant same 's/every: 0/every: 5/; s/steps: 20/steps: 30/; s/keep: 2/keep: 5/; s/friction: 0.3}/friction: 0.30}/'
for np in 1 3; do
  restart "$np" same || fail "np $np: the same model was refused: $(tail -1 "$work/same.log")"
  grep -q "^restart   from .*checkpoint_000000010.h5: step 10" "$work/same.log" ||
    fail "np $np: no restart line"
  ! grep -q "warning   restart" "$work/same.log" || fail "np $np: $(grep 'warning   restart' "$work/same.log")"
  echo "ok    np $np: the 2-rank checkpoint continues the same model"
done

# Each change, refused on 1 and 3 ranks with one line naming it.
changes=(
  "geometry|s/upper: \[1, 0.2, 0.2\]/upper: [1.1, 0.2, 0.2]/|the node coordinates"
  "element|s/element: hex8/element: tet4/|the elements"
  "material|s/youngs_modulus: 1.0e6/youngs_modulus: 1.1e6/|the materials"
  "mass|s/mass: consistent/mass: lumped/|the mass treatment"
  "damping|s/rayleigh: {mass: 2,/rayleigh: {mass: 3,/|the damping"
  "amplitude|s/\[0.002, 1\], \[1, 1\]/[0.002, 5], [1, 5]/|the boundary conditions, loads or their amplitudes"
  "condition|s/value: \[0, 0, -2000\]/value: [0, 0, -2001]/|the boundary conditions, loads or their amplitudes"
  "integrator|s/integrator: newmark/integrator: newmark\n  newmark: {beta: 0.3025, gamma: 0.6}/|the integrator or its options"
  "contact|s/friction: 0.3}/friction: 0.4}/|the contact section)"
)
for entry in "${changes[@]}"; do
  IFS='|' read -r label edit named <<<"$entry"
  variant "$label" "$edit"
  for np in 1 3; do
    if restart "$np" "$label"; then fail "np $np: $label: a changed model was accepted"; continue; fi
    errors=$(grep -c '^inertia: error:' "$work/$label.log")
    [ "$errors" = 1 ] || fail "np $np: $label: $errors error lines"
    grep -qF "it was written for another model (changed: $named" "$work/$label.log" ||
      fail "np $np: $label: $(grep '^inertia: error:' "$work/$label.log")"
  done
  echo "ok    $label: refused: $(grep '^inertia: error:' "$work/$label.log")"
done

# --allow-changed-model: the material change continues, with the change as a warning.
restart 2 material --allow-changed-model ||
  fail "--allow-changed-model: $(tail -1 "$work/material.log")"
grep -q "^warning   restart: it was written for another model (changed: the materials" \
  "$work/material.log" || fail "--allow-changed-model: no warning"
echo "ok    --allow-changed-model: $(grep '^warning   restart' "$work/material.log")"

finish
