#!/usr/bin/env bash
# The default mass treatment (consistent) of an explicit run of shells alone: the shells'
# consistent mass is their lumped one, so the run is the lumped one, with no mass matrix and no
# mass solve (SystemOperators; ForceTerm::consistent_mass_is_lumped). A clamped plate (8 x 8
# Belytschko-Tsay shells and 8 x 8 MITC4, q 1000, central difference, 300 steps) with the default
# and with mass: lumped: the centre's history the same bit for bit, no linear iterations, the
# log's time line "consistent (diagonal: ...)". A solid box keeps its consistent mass and its
# mass solves (linear iterations > 0, the plain "consistent mass"). np 1 and 2. About 5 s.
set -uo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cd "$work" || exit 1
plate() {  # $1: formulation, $2: extra time keys
  cat <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/shell_plate_8.msh}
materials:
  - {region: plate, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
shells:
  - {region: plate, thickness: 0.01, formulation: $1}
boundary_conditions:
  - {region: edges, type: fixed}
  - {region: plate, type: pressure, value: 1000}
time: {integrator: central_difference, dt: auto, steps: 300$2}
output: {directory: out, every: 0, probes: [{name: c, point: [0.5, 0.5, 0]}]}
YAML
}
for f in belytschko_tsay mitc4; do
  for np in 1 2; do
    for mass in default lumped; do
      d=${f}_${mass}_$np
      mkdir -p $d
      if [ $mass = lumped ]; then plate $f ", mass: lumped" > $d/case.yaml; else plate $f "" > $d/case.yaml; fi
      (cd $d && mpi $np "$INERTIA" case.yaml > log 2>&1) || fail "$d: $(tail -1 $d/log)"
    done
    cmp -s ${f}_default_$np/out/probes.csv ${f}_lumped_$np/out/probes.csv ||
      fail "$f np $np: the default's history differs from the lumped run's"
    once ${f}_default_$np/log "consistent (diagonal: every term's is its lumped one, no mass solve) mass"
    once ${f}_default_$np/log "finished: 300 steps, 0 linear iterations"
  done
done
mkdir -p box && cat > box/case.yaml <<'YAML'
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1000]}
time: {integrator: central_difference, dt: auto, steps: 50}
output: {directory: out, every: 0}
YAML
(cd box && mpi 2 "$INERTIA" case.yaml > log 2>&1) || fail "box: $(tail -1 box/log)"
has box/log ", consistent mass, rayleigh"
hasnt box/log "finished: 50 steps, 0 linear iterations"
finish
