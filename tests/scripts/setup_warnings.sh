#!/usr/bin/env bash
# Set-ups that are legal but almost surely not meant, one warning line each at the start
# (examples/guide/run_promises.md, "Checked at the start"), by --check and by the run, at np 1 and
# 2; and the sections and options that do nothing:
# - units: a density of 2.7 with E in Pa (wave speed 1.61e5 m/s), a yield stress of 150 with E
#   7e10 (2.1e-9 of E), kinematic hardening 1e300, friction 1.5, penalty_scale 1e30 (and the 1e13
#   steps it makes); none for steel in SI units;
# - a scheme's section when another scheme runs (euler_implicit: {newton: true} under
#   central_difference); PETSc options no solver of the run reads (-snes_rtol, -pc_type in an
#   explicit run, from the command line and from petsc:), as a typo is;
# - an initial velocity given to the whole model, clamped supports included (the count of DOFs
#   where the supports win);
# - a wall moved at 10 km/s (mm/s meant): its travel per step against the node spacing;
# - two bars closing at 3000 m/s: faster than the pair catches a node crossing a face per step;
# - Rayleigh targets at 250 and 750 Hz on a cantilever whose first mode is at 51.9 Hz (it gets
#   18 % where 5 % was asked);
# - contact in a modal analysis: refused (the surfaces would be glued).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
expect() {  # expect PATTERN WHAT: one warning line matching PATTERN in the last log
  [ "$(grep -c "^warning   .*$1" "$work/last.log" || true)" = 1 ] ||
    { cat "$work/last.log"; echo "FAIL: $2: no (or not one) warning '$1'"; exit 1; }
}
none() {  # none WHAT: no warning at all in the last log
  ! grep -q "^warning" "$work/last.log" || { cat "$work/last.log"; echo "FAIL: $1: a warning"; exit 1; }
}

bar() {  # bar FILE DENSITY E MATERIAL-EXTRA CONTACT-EXTRA TIME-EXTRA [top-level extra]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.05, 0.05], cells: [20, 1, 1], element: hex8}}
materials:
  - {region: all, density: $2, youngs_modulus: $3, poissons_ratio: 0.3$4}
boundary_conditions:
  - {region: xmax, type: fixed}
contact:
  walls:
    - {name: stop, region: xmin, plane: {point: [0, 0, 0], normal: [1, 0, 0]}$5}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-4$6}
output: {directory: res, every: 0}
${7:-}
EOF
}
bar "$work/units.yaml" 2.7 7.0e10 ", plasticity: {yield_stress: 150, kinematic_hardening: 1.0e300}" ", friction: 1.5" ", euler_implicit: {newton: true}" \
  "initial_conditions: {velocity: [-1, 0, 0]}"
bar "$work/steel.yaml" 7850 2.1e11 ", plasticity: {yield_stress: 2.5e8}" ", friction: 0.3" ""
bar "$work/ram.yaml" 7850 2.1e11 "" ", motion: {displacement: [10000, 0, 0], amplitude: go}" "" \
  "amplitudes: {go: {type: table, points: [[0, 0], [1, 1]]}}"
bar "$work/ram_slow.yaml" 7850 2.1e11 "" ", motion: {displacement: [10, 0, 0], amplitude: go}" "" \
  "amplitudes: {go: {type: table, points: [[0, 0], [1, 1]]}}"
sed -e 's/^contact:/contact:\n  penalty_scale: 1.0e30/' "$work/steel.yaml" > "$work/penalty.yaml"
bars() {  # bars FILE SPEED
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/two_bars.msh}
materials:
  - {region: bar1, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
  - {region: bar2, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  pairs:
    - {name: ends, surfaces: [bar1_end, bar2_end]}
initial_conditions:
  velocity:
    - {region: bar1, velocity: [$2, 0, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-4}
output: {directory: res, every: 0}
EOF
}
bars "$work/fast.yaml" 3000
bars "$work/slow.yaml" 1
cat > "$work/frame.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.05, 0.05], cells: [20, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: force, value: [0, 0, -100]}
modal: {modes: 2}
time: {integrator: newmark, dt: 1.0e-4, steps: 2,
       rayleigh: {damping_ratios: [0.05, 0.05], frequencies: [250, 750]}}
output: {directory: res, every: 0}
EOF
sed -e 's/frequencies: \[250, 750\]/frequencies: [30, 300]/' "$work/frame.yaml" > "$work/frame_ok.yaml"
sed -e '/^modal:/d' -e 's/rayleigh: {damping_ratios: \[0.05, 0.05\], frequencies: \[250, 750\]}//' "$work/frame.yaml" > "$work/plain.yaml"
cat >> "$work/plain.yaml" <<EOF
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
modal: {modes: 4}
EOF

for np in 1 2; do
  for mode in --check ""; do
    run $np $mode "$work/units.yaml"
    expect "units.yaml:3: materials: region 'all': the wave speed sqrt(E / density) is 1.61e+05 m/s (E 7e+10, density 2.7), outside what solids have" "np $np $mode: wave speed"
    expect "units.yaml:3: materials: region 'all': the yield stress 150 is 2.14e-09 of E 7e+10, outside what materials have" "np $np $mode: yield stress"
    expect "units.yaml:8: contact.walls\[0\].friction: a coefficient of 1.5 is above 1" "np $np $mode: friction"
    expect "units.yaml:3: materials: region 'all': kinematic_hardening 1e+300 is above E 7e+10" "np $np $mode: hardening"
    expect "units.yaml:9: time.euler_implicit: configures the euler_implicit scheme, but the run uses central_difference: this section does nothing" "np $np $mode: scheme section"
    expect "units.yaml: initial_conditions.velocity: given on 4 constrained DOFs" "np $np $mode: velocity on supports"
    run $np $mode "$work/steel.yaml"
    none "np $np $mode: steel"
    run $np $mode "$work/ram.yaml"
    expect "ram.yaml:8: contact.walls\[0\]: wall 'stop' moves 0.05.. m in the step to t = .* s (1e+04 m/s), more than half the node spacing of region 'xmin' (0.025 m)" "np $np $mode: fast wall"
    run $np $mode "$work/ram_slow.yaml"
    none "np $np $mode: slow wall"
    run $np $mode "$work/fast.yaml"
    expect "contact 'ends': the initial velocities close at up to 3000 m/s, .* m per step of .* s, more than the 0.00625 m within which the pair catches a node crossing a face" "np $np $mode: fast pair"
    run $np $mode "$work/slow.yaml"
    none "np $np $mode: slow pair"
    expect_error "plain.yaml:.*: modal: the model has contact (contact:), which a linear analysis cannot represent" $np $mode "$work/plain.yaml"
  done
  run $np --check "$work/penalty.yaml"  # --check only: the run would be 1e13 steps
  expect "penalty.yaml:7: contact.penalty_scale: 1e+30 is far from 1 (explicit) or 10 (implicit)" "np $np: penalty_scale"
  expect "the run is [0-9]* steps of .* s: check the units, a penalty or a material" "np $np: steps"
  run $np "$work/frame.yaml"
  expect "frame.yaml: time.rayleigh: mode 1 (51.8.* Hz) gets a damping ratio of 0.183.*, more than twice the largest target (0.05 at 250 and 750 Hz)" "np $np: Rayleigh targets"
  run $np "$work/frame_ok.yaml"
  none "np $np: Rayleigh targets around the modes"
  # Options no solver of an explicit run reads, from the command line and from petsc:.
  run $np "$work/steel.yaml" -snes_rtol 1e-3 -pc_type lu -ksp_typo 1
  for o in "-snes_rtol 1e-3" "-pc_type lu" "-ksp_typo 1"; do
    expect "PETSc option $o was not used" "np $np: option $o"
  done
  echo "petsc: -snes_max_it 3" >> "$work/steel.yaml"
  run $np "$work/steel.yaml"
  expect "PETSc option -snes_max_it 3 was not used" "np $np: petsc: -snes_max_it"
  sed -i '$d' "$work/steel.yaml"
done
echo "set-up warnings: units, friction, scheme section, options, supports' velocity, fast wall and pair, Rayleigh targets, contact in modal: np 1, 2"
