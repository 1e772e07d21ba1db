#!/usr/bin/env bash
# J2 plasticity at small strain (examples/guide/plasticity.md), against the exact answer of a bar in
# uniaxial stress: a hex8 bar (1 x 0.1 x 0.1 m, 4 cells, rollers on xmin, ymin, zmin) pulled at
# xmax to 3.2 yield strains and pushed back to -3.2 (static, 40 load steps), steel with linear
# isotropic (4 GPa) and kinematic (6 GPa) hardening. Checked:
# - the reaction over the area against the 1D return map (exact for linear hardening: the
#   Bauschinger effect included) to 1e-9 of the yield stress (measured 3e-11);
# - the probe's stress and the cells' `stress` (last frame) equal to it (the return map's stress,
#   not the elastic law's of the total strain);
# - Newton converges quadratically: a cantilever (hex8 B-bar, 20 x 2 x 2) bent by its tip into
#   the plastic range in 5 static steps, (||G_k+1|| / F) / (||G_k|| / F)^2 <= 100 with F =
#   sigma_y x the section (measured at most 4.2; linear convergence would give ~1e6 and more);
# - the energy balance, with energy.csv's plastic_dissipation and plastic_work_error, closes to
#   1e-9 of the work (1.4e-12); the dissipation, booked from the return map, equals sigma_y alpha
#   V (its exact value for linear hardening) to 1e-9 (0.23 % before it was booked from the
#   return map: the trapezoidal rule over the steps that cross the yield surface, now in
#   plastic_work_error), and damping_dissipation stays 0;
# - np 1, 2 and 3 equal to 1e-8, and a restart from step 20 (2 ranks -> 3) equal to the
#   uninterrupted run, its balance closed too;
# - the same bar pulled under central difference: the balance closes to 1e-4 of the work;
# - bad input: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
bar() {  # bar FILE DIR [time line] [plasticity] [amplitude points]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: ${4:-"{yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}"}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.004], amplitude: cycle}
amplitudes:
  cycle: {type: table, points: ${5:-"[[0, 0], [1, 1], [2, -1]]"}}
time: ${3:-"{integrator: static, dt: 0.05, steps: 40}"}
output:
  directory: $2
  every: 40
  fields: [stress, von_mises, state]
  probes: [{name: mid, point: [0.5, 0.05, 0.05], fields: [stress, state]}]
  checkpoint: {every: 20, keep: 2}
EOF
}
for np in 1 2 3; do
  bar "$work/bar$np.yaml" "bar$np"
  run "$np" "$work/bar$np.yaml" -snes_monitor
  cp "$work/last.log" "$work/bar$np.log"
done
grep -q "^material  all: linear_elastic + J2 plasticity" "$work/bar1.log" ||
  { cat "$work/bar1.log"; echo "FAIL: the material's log line"; exit 1; }
cp "$work/bar2/reactions.csv" "$work/full_reactions.csv"
run 3 "$work/bar2.yaml" --restart "$work/bar2/checkpoints/checkpoint_000000020.h5"
# Newton's convergence: a cantilever bent into the plastic range (tip pushed down, B-bar hex8).
cat > "$work/bend.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [20, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: bbar,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: displacement, components: [z], value: [-0.03], amplitude: ramp}
amplitudes: {ramp: {type: table, points: [[0, 0], [5, 1]]}}
time: {integrator: static, dt: 1, steps: 5}
output: {directory: bend, every: 0}
EOF
run 2 "$work/bend.yaml" -snes_monitor
cp "$work/last.log" "$work/bend.log"
bar "$work/cd.yaml" cd "{integrator: central_difference, mass: lumped, dt: auto, end_time: 0.02}" "" \
  "[[0, 0], [0.01, 1], [0.02, 1]]"
run 1 "$work/cd.yaml"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import csv, glob, math, re, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from hertz_moments import read_vtu
from csv_checks import check, rows, passed
E, sy, Hi, Hk, A = 2e11, 2.5e8, 4e9, 6e9, 0.01
# The 1D return map of the same path.
ep = alpha = beta = 0.0
exact = []
for r in rows(f"{work}/bar1/reactions.csv"):
    t = float(r["time"])
    eps = 0.004 * (t if t <= 1 else 3 - 2 * t)
    xi = E * (eps - ep) - beta
    f = abs(xi) - (sy + Hi * alpha)
    if f > 0:
        dg, n = f / (E + Hi + Hk), math.copysign(1.0, xi)
        ep, alpha, beta = ep + dg * n, alpha + dg, beta + Hk * dg * n
    exact.append(E * (eps - ep))
react = {np: [float(r["xmax.fx"]) / A for r in rows(f"{work}/bar{np}/reactions.csv")] for np in (1, 2, 3)}
check("reaction / A against the 1D return map, largest error / sigma_y",
      max(abs(a - b) for a, b in zip(react[1], exact)) / sy, 0, 1e-9)
check("peak stress / sigma_y (hardened)", max(react[1]) / sy, 1.05, 1.2)
check("stress at -3.2 yield strains / -sigma_y (hardened)", react[1][-1] / -sy, 1.05, 1.3)
probe = rows(f"{work}/bar1/probes.csv")
check("probe sxx against reaction / A, largest difference / sigma_y",
      max(abs(float(p["mid.sxx"]) - s) for p, s in zip(probe, react[1])) / sy, 0, 1e-9)
check("probe's equivalent plastic strain against the 1D alpha",
      abs(float(probe[-1]["mid.plasticity.equivalent_plastic_strain"]) - alpha) / alpha, 0, 1e-9)
last = sorted(glob.glob(f"{work}/bar1/bar1_[0-9]*.pvtu"))[-1]
cells = read_vtu(sorted(glob.glob(last[:-5] + "/piece_*.vtu"))[0])
stress = cells["stress"]
sxx = [s[0] for s in stress] if isinstance(stress[0], (list, tuple)) else list(stress[0::6])
check("cells' stress xx (last frame) against reaction / A, / sigma_y",
      max(abs(s - react[1][-1]) for s in sxx) / sy, 0, 1e-9)
# Newton: quadratic at the plastic steps of the bent cantilever. With e_k = ||G_k|| / F (F =
# sigma_y x the section, 2.5e6 N: the problem's force scale), e_k+1 / e_k^2 stays O(1) where
# convergence is quadratic and grows like 1 / e_k where it is linear; round-off (e below 1e-12)
# left out.
log = open(f"{work}/bend.log").read()
F = sy * A
worst, pairs = 0, 0
for block in re.split(r"\n(?=\s*0 SNES Function norm)", log):
    e = [float(x) / F for x in re.findall(r"\d+ SNES Function norm (\S+)", block)]
    for k in range(len(e) - 1):
        if e[k + 1] > 1e-12:
            worst, pairs = max(worst, e[k + 1] / e[k] ** 2), pairs + 1
check("bent cantilever, Newton: largest (||G_k+1|| / F) / (||G_k|| / F)^2", worst, 1e-30, 100)
check("bent cantilever, Newton: iterations above round-off", pairs, 6, 1e9)
for name in ("bar1", "bar3"):
    e = rows(f"{work}/{name}/energy.csv")[-1]
    check(f"{name}: energy balance / work", abs(float(e["total"])) / float(e["external_work"]), 0, 1e-9)
    check(f"{name}: plastic dissipation / work (cyclic)", float(e["plastic_dissipation"]) / float(e["external_work"]), 0.5, 1)
    check(f"{name}: plastic dissipation against sigma_y alpha V (its rate for linear hardening)",
          abs(float(e["plastic_dissipation"]) / (sy * alpha * 0.01) - 1), 0, 1e-9)
    check(f"{name}: damping_dissipation (no damping)", abs(float(e["damping_dissipation"])), 0, 0)
for np in (2, 3):
    check(f"np {np} against np 1 / sigma_y", max(abs(x - y) for x, y in zip(react[1], react[np])) / sy, 0, 1e-8)
full, resumed = rows(f"{work}/full_reactions.csv"), rows(f"{work}/bar2/reactions.csv")
check("restart (2 ranks -> 3) against the uninterrupted run / sigma_y",
      max(abs(float(a["xmax.fx"]) - float(b["xmax.fx"])) / A for a, b in zip(full, resumed)) / sy
      if len(full) == len(resumed) == 41 else 1, 0, 1e-8)
e = rows(f"{work}/bar2/energy.csv")[-1]
check("restart: energy balance / work", abs(float(e["total"])) / float(e["external_work"]), 0, 1e-9)
e = rows(f"{work}/cd/energy.csv")[-1]
check("central difference: energy balance / work", abs(float(e["total"])) / float(e["external_work"]), 0, 1e-4)
if not passed():
    print("FAIL: plasticity"); sys.exit(1)
PY

# Bad input: one line each.
bar "$work/bad.yaml" bad "" "{yield_stress: 0}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_stress: must be > 0" 1 "$work/bad.yaml"
bar "$work/bad.yaml" bad "" "{yield_stress: 2.5e8, isotropic_hardening: -1}"
expect_error "bad.yaml:4: materials\[0\].plasticity.isotropic_hardening: must be >= 0" 2 "$work/bad.yaml"
bar "$work/bad.yaml" bad "" "{yield_stres: 2.5e8}"
expect_error "bad.yaml:4: materials\[0\].plasticity: unknown key 'yield_stres'" 3 "$work/bad.yaml"
finish
