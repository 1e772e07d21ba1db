#!/usr/bin/env bash
# --check refuses what the run refuses (README, "Running a case"): six cases that the run refuses
# at its start and that --check once passed as OK (issue 42: an RSA of a plastic solid, a harmonic
# analysis without loads, a section plane cutting nothing, section regions sharing no node, a
# section over plastic cells with stiffness-proportional damping, a drift level outside the mesh). On 1 and 2 ranks, the run and
# --check each exit non-zero with one error line, the same line.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1

tower='mesh: {box: {lower: [0, 0, 0], upper: [0.4, 0.4, 3.0], cells: [2, 2, 6], element: hex8}}
materials:
  - {region: all, density: 2500, youngs_modulus: 1.0e9, poissons_ratio: 0.2}
boundary_conditions: [{region: zmin, type: fixed}]'
plastic=${tower/poissons_ratio: 0.2\}/poissons_ratio: 0.2, plasticity: {yield_stress: 2.5e8\}\}}
transient='time: {dt: 0.01, steps: 1}'
rsa='modal: {modes: 2}
response_spectrum: {spectrum: {points: [[0, 1], [1, 2]]}, directions: [x]}'
cp "$INERTIA_SOURCE_DIR/meshes/two_bars.msh" .
bars='mesh: {file: two_bars.msh}
materials:
  - {region: bar1, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}
  - {region: bar2, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3}'

printf '%s\n' "$plastic" "$rsa" 'output: {directory: out}' > rsa_plastic.yaml
printf '%s\n' "$tower" 'modal: {modes: 2}' 'harmonic: {frequencies: [1]}' 'output: {directory: out}' \
  > harmonic_no_load.yaml
printf '%s\n' "$tower" "$transient" \
  'output: {directory: out, sections: [{name: high, plane: {point: [0, 0, 9], normal: [0, 0, 1]}}]}' \
  > plane_cuts_nothing.yaml
printf '%s\n' "$bars" "$transient" 'output: {directory: out, sections: [{name: s, regions: [bar1, bar2]}]}' \
  > regions_apart.yaml
printf '%s\n' "$plastic" 'time: {dt: 0.01, steps: 1, rayleigh: {mass: 0, stiffness: 1.0e-4}}' \
  'output: {directory: out, sections: [{name: s, plane: {point: [0, 0, 1], normal: [0, 0, 1]}}]}' \
  > section_plastic.yaml
printf '%s\n' "$tower" "$transient" 'output: {directory: out, drifts: [{name: d, point: [0.2, 0.2], levels: [0, 5]}]}' \
  > drift_level_outside.yaml
grep -q 'plasticity: {yield_stress' section_plastic.yaml || fail "the plastic tower has no plasticity"

for np in 1 2; do
  same_refusal "$np" "materials\[0\]: response_spectrum needs linear-elastic materials" rsa_plastic.yaml
  same_refusal "$np" "harmonic: the case has no loads" harmonic_no_load.yaml
  same_refusal "$np" "output\.sections\[0\] 'high': the plane cuts no solid" plane_cuts_nothing.yaml
  same_refusal "$np" "output\.sections\[0\] 's': the regions 'bar1' and 'bar2' share no node" regions_apart.yaml
  same_refusal "$np" "output\.sections\[0\] 's': the cells at the cut are plastic or hyperelastic and the damping has a stiffness part" section_plastic.yaml
  same_refusal "$np" "output\.drifts\[0\]: probe d\.z1 at \(0\.2, 0\.2, 5\) is outside the mesh" drift_level_outside.yaml
  [ "$failed" = 1 ] || echo "np $np: the six cases refused by the run and --check with the same line"
done
finish
