#!/usr/bin/env bash
# Hex8 element technology (examples/guide/elements.md): materials[].formulation bbar and reduced.
# A cantilever 10 x 1 x 1 m (E 1 GPa, clamped at xmin, a tip traction 1 kPa down, static) at
# nu 0.4999, against tet10's converged tip deflection at that nu: tet10 on 20/40/80 x 2/4/8 x
# 2/4/8 cells gives 0.951154, 0.976735, 0.984752 of 0.0039985 m; Richardson (ratio 3.2)
# extrapolates to 0.9884, so the reference is 0.9884 x 0.0039985 m. Checked:
# - full integration locks (below 0.3 of it) and the run warns; B-bar and reduced do not warn;
# - B-bar on 40 x 4 x 4 within 2 % of the reference (measured 1.4 %), 20 x 2 x 2 within 5 %;
# - reduced converges to it from above (one point per cell underestimates the bending strain
#   energy of a coarse mesh: 2 cells through the depth carry 3/4 of it), the error falling by
#   more than 3 from 20 x 2 x 2 to 40 x 4 x 4, 40 x 4 x 4 within 8 %;
# - np 2 and 3 equal to np 1 (1e-8, the linear solver's tolerance at nu 0.4999: measured 1.4e-9);
# - an explicit run with reduced cells: energy.csv's hourglass column, a small part of the strain
#   energy, and the balance closing;
# - J2 plasticity on bbar and reduced cells: the plastic bar of tests/scripts/plasticity.sh gives
#   the 1D answer (uniform strain: all formulations agree), a restart of the reduced one (one
#   state point per cell) from 2 ranks to 3 continues exactly;
# - bad input: one error line each (a formulation the cells do not have, naming file:line and
#   key; hourglass without reduced; out of range; a large-deformation model; bbar with
#   matrix_free).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
cantilever() {  # cantilever NAME ELEMENT CELLS NU MATERIAL_EXTRA [TIME] [OPERATOR]
  cat > "$work/$1.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [10, 1, 1], cells: $3, element: $2}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e9, poissons_ratio: $4 $5}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: traction, value: [0, 0, -1.0e3]}
time: ${6:-"{integrator: static, dt: 1, steps: 1}"}
output:
  directory: $1
  every: 0
  energy: true
  probes: [{name: tip, point: [10, 0.5, 0.5], fields: [displacement]}]
EOF
}
tip() { tail -n 1 "$work/$1/probes.csv" | awk -F, '{print $NF}'; }

cantilever full hex8 "[20, 2, 2]" 0.4999 ""
run 1 "$work/full.yaml"
grep -q "warning.*poissons_ratio 0.4999 on hex8" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: no locking warning for full integration"; exit 1; }
for f in bbar reduced; do
  for cells in 20 40; do
    cantilever "${f}_$cells" hex8 "[$cells, $((cells / 10)), $((cells / 10))]" 0.4999 ", formulation: $f"
    run 1 "$work/${f}_$cells.yaml"
    ! grep -q "warning.*poissons_ratio" "$work/last.log" ||
      { cat "$work/last.log"; echo "FAIL: a locking warning for $f"; exit 1; }
  done
  grep -q "^material  all: linear_elastic.*hex8 $([ $f = bbar ] && echo B-bar || echo reduced)" \
    "$work/last.log" || { cat "$work/last.log"; echo "FAIL: the material line for $f"; exit 1; }
  for np in 2 3; do
    cp "$work/${f}_40.yaml" "$work/${f}_40_np$np.yaml"
    sed -i "s|directory: ${f}_40|directory: ${f}_40_np$np|" "$work/${f}_40_np$np.yaml"
    run $np "$work/${f}_40_np$np.yaml"
  done
done

# Explicit, reduced cells: a tip pulse, central difference with lumped mass.
cantilever dyn hex8 "[20, 2, 2]" 0.3 ", formulation: reduced" \
  "{integrator: central_difference, mass: lumped, dt: auto, end_time: 0.05}"
sed -i 's|value: \[0, 0, -1.0e3\]}|value: [0, 0, -1.0e3], amplitude: pulse}\namplitudes: {pulse: {type: table, points: [[0, 0], [0.005, 1], [0.01, 0]]}}|' "$work/dyn.yaml"
run 2 "$work/dyn.yaml"

# Plastic bars (tests/scripts/plasticity.sh's), formulation bbar and reduced.
bar() {  # bar FILE DIR FORMULATION
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: $3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.004], amplitude: cycle}
amplitudes:
  cycle: {type: table, points: [[0, 0], [1, 1], [2, -1]]}
time: {integrator: static, dt: 0.05, steps: 40}
output:
  directory: $2
  every: 40
  energy: true
  checkpoint: {every: 20, keep: 2}
EOF
}
bar "$work/bar_bbar.yaml" bar_bbar bbar
run 2 "$work/bar_bbar.yaml"
bar "$work/bar_reduced.yaml" bar_reduced reduced
run 2 "$work/bar_reduced.yaml"
cp "$work/bar_reduced/reactions.csv" "$work/reduced_reactions.csv"
run 3 "$work/bar_reduced.yaml" --restart "$work/bar_reduced/checkpoints/checkpoint_000000020.h5"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import csv, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, rows, passed
def tip(name):
    return -float(rows(f"{work}/{name}/probes.csv")[-1]["tip.uz"])
ref = 0.9884 * 0.0039985
check("full hex8 20x2x2, nu 0.4999: tip / reference (locks)", tip("full") / ref, 0, 0.3)
check("bbar 20x2x2: |tip / reference - 1|", abs(tip("bbar_20") / ref - 1), 0, 0.05)
check("bbar 40x4x4: |tip / reference - 1|", abs(tip("bbar_40") / ref - 1), 0, 0.02)
e20, e40 = tip("reduced_20") / ref - 1, tip("reduced_40") / ref - 1
check("reduced 20x2x2: tip / reference - 1 (too soft)", e20, 0, 0.4)
check("reduced 40x4x4: tip / reference - 1", e40, 0, 0.08)
check("reduced: error 20 / error 40 (converging)", e20 / e40, 3, 100)
for f in ("bbar", "reduced"):
    for np in (2, 3):
        check(f"{f} 40x4x4: np {np} against np 1", abs(tip(f"{f}_40_np{np}") / tip(f"{f}_40") - 1), 0, 1e-8)
# Explicit with reduced cells: hourglass column, balance.
e = rows(f"{work}/dyn/energy.csv")
work_done = max(abs(float(r["external_work"])) for r in e)
check("explicit reduced: |total| / largest work", max(abs(float(r["total"])) for r in e) / work_done, 0, 1e-2)
ratio = max(float(r["hourglass"]) for r in e) / max(float(r["strain"]) for r in e)
check("explicit reduced: largest hourglass / largest strain energy", ratio, 1e-6, 0.05)
check("hourglass energy never negative", min(float(r["hourglass"]) for r in e), 0, 1e300)
# Plastic bars: the 1D return map (tests/scripts/plasticity.sh), for both formulations.
E, sy, Hi, Hk, A = 2e11, 2.5e8, 4e9, 6e9, 0.01
for name in ("bar_bbar", "bar_reduced"):
    ep = alpha = beta = 0.0
    worst = 0
    for r in rows(f"{work}/{name}/reactions.csv"):
        t = float(r["time"])
        eps = 0.004 * (t if t <= 1 else 3 - 2 * t)
        xi = E * (eps - ep) - beta
        f = abs(xi) - (sy + Hi * alpha)
        if f > 0:
            dg = f / (E + Hi + Hk)
            n = 1 if xi > 0 else -1
            ep, alpha, beta = ep + dg * n, alpha + dg, beta + Hk * dg * n
        worst = max(worst, abs(float(r["xmax.fx"]) / A - E * (eps - ep)) / sy)
    check(f"{name}: reaction / A against the 1D return map / sigma_y", worst, 0, 1e-8)
    en = rows(f"{work}/{name}/energy.csv")[-1]
    check(f"{name}: energy balance / work", abs(float(en["total"])) / float(en["external_work"]), 0, 1e-9)
full, resumed = rows(f"{work}/reduced_reactions.csv"), rows(f"{work}/bar_reduced/reactions.csv")
check("reduced plastic bar: restart (2 ranks -> 3) against the uninterrupted run / sigma_y",
      max(abs(float(a["xmax.fx"]) - float(b["xmax.fx"])) / A for a, b in zip(full, resumed)) / sy, 0, 1e-8)
if not passed():
    print("FAIL: element_technology"); sys.exit(1)
PY

# Bad input: one line each.
cantilever bad tet10 "[4, 1, 1]" 0.3 ", formulation: bbar"
expect_error "bad.yaml:3: materials\[0\].formulation: bbar is available for hex8 cells only, and region 'all' has tet10 cells" 2 "$work/bad.yaml"
cantilever bad hex8 "[4, 1, 1]" 0.3 ", hourglass: 0.1"
expect_error "bad.yaml:3: materials\[0\].hourglass: the hourglass coefficient belongs to formulation: reduced" 1 "$work/bad.yaml"
cantilever bad hex8 "[4, 1, 1]" 0.3 ", formulation: reduced, hourglass: 2"
expect_error "bad.yaml:3: materials\[0\].hourglass: must lie in (0, 1\]" 3 "$work/bad.yaml"
cantilever bad hex8 "[4, 1, 1]" 0.3 ", model: neo_hookean, formulation: bbar"
expect_error "bad.yaml:3: materials\[0\].formulation: bbar is a small-strain formulation (model linear_elastic, not neo_hookean)" 1 "$work/bad.yaml"
cantilever bad hex8 "[4, 1, 1]" 0.3 ", formulation: bar"
expect_error "bad.yaml:3: materials\[0\].formulation: .*bbar" 1 "$work/bad.yaml"
cantilever bad hex8 "[4, 1, 1]" 0.3 ", formulation: bbar" \
  "{integrator: central_difference, mass: lumped, dt: auto, steps: 2, operator: matrix_free}"
expect_error "matrix_free covers .* in formulation bbar" 2 "$work/bad.yaml"
finish
