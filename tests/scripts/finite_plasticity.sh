#!/usr/bin/env bash
# J2 plasticity at finite strain (examples/guide/plasticity.md): model hencky with plasticity, the
# law in the Lagrangian logarithmic strain space. Checked:
# - a hex8 bar (1 x 0.1 x 0.1 m, rollers on xmin, ymin, zmin) pulled at xmax to a stretch of 1.5
#   and back to 1.1 (static, 40 load steps), linear isotropic and kinematic hardening: the
#   reaction's Kirchhoff stress (reaction / A0 x stretch) against the 1D return map in the true
#   strain ln(stretch) (exact: the axes stay fixed), to 1e-9 of sigma_y (measured 1e-11), the
#   Bauschinger effect included; the probe's Cauchy stress times J equal to it; the same bar on
#   reduced and fbar hex8 and on tet10 cells;
# - np 1, 2, 3 equal, and a restart from step 20 (2 ranks -> 3) equal to the uninterrupted run;
# - the energy balance: the work of the reaction (trapezoidal in u) against the stored energy,
#   the dissipation and the work error (trapezoidal in the log strain), which differ at finite
#   strain by the rule's error only (measured 4e-5 of the work at 40 steps; 20 steps: about 4
#   times more); the plastic dissipation, booked from the return map, against sigma_y alpha V0,
#   its exact value for linear hardening, to 1e-9 (measured 7e-16; 4 % before it was booked from
#   the return map); plastic_work_error against it: the trapezoidal rule's error at the three
#   steps, 8 yield strains each, that cross the yield surface (measured 4 %, which depends on
#   where in those steps the surface lies; 20 steps: 3 times that);
# - Newton converges quadratically: a cantilever (hex8 reduced, and fbar, 20 x 2 x 2) whose tip
#   is pushed down by 0.3 x its length in 6 static steps (large rotation and yielding),
#   (||G_k+1|| / F) / (||G_k|| / F)^2 <= 100, F = sigma_y x the section, above 1e-11 F (the
#   residual's round-off floor is 5e-13 to 1.3e-12 F: the elastic strain is a small difference of
#   large log strains, so T = D (E - E_p) carries their round-off times E);
# - central difference: the bar pulled fast, balance closed to 1e-3 of the work;
# - bad input: one error line each; an explicit impact whose cells flatten below what its dt
#   allows stops with a line that says so.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
bar() {  # bar FILE DIR [element] [formulation] [time line] [amplitude points] [material extra]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: ${3:-hex8}}}
materials:
  - {region: all, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,${4:-}
     plasticity: ${7:-"{yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}"}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.5], amplitude: cycle}
amplitudes:
  cycle: {type: table, points: ${6:-"[[0, 0], [1, 1], [2, 0.2]]"}}
time: ${5:-"{integrator: static, dt: 0.05, steps: 40}"}
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
  run "$np" "$work/bar$np.yaml"
done
grep -q "^material  all: hencky + J2 plasticity" "$work/last.log" ||
  { cat "$work/last.log"; echo "FAIL: the material's log line"; exit 1; }
cp "$work/bar2/reactions.csv" "$work/full_reactions.csv"
run 3 "$work/bar2.yaml" --restart "$work/bar2/checkpoints/checkpoint_000000020.h5"
bar "$work/reduced.yaml" reduced hex8 " formulation: reduced,"
run 2 "$work/reduced.yaml"
bar "$work/tet10.yaml" tet10 tet10
run 2 "$work/tet10.yaml"
bar "$work/coarse.yaml" coarse hex8 "" "{integrator: static, dt: 0.1, steps: 20}"
run 1 "$work/coarse.yaml"
bar "$work/cd.yaml" cd hex8 "" "{integrator: central_difference, mass: lumped, dt: auto, end_time: 0.02}" \
  "[[0, 0], [0.01, 0.2], [0.02, 0.2]]"
run 1 "$work/cd.yaml"
cat > "$work/bend.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [20, 2, 2], element: hex8}}
materials:
  - {region: all, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     formulation: reduced,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: xmax, type: displacement, components: [z], value: [-0.3], amplitude: ramp}
amplitudes: {ramp: {type: table, points: [[0, 0], [6, 1]]}}
time: {integrator: static, dt: 1, steps: 6}
output: {directory: bend, every: 0}
EOF
run 2 "$work/bend.yaml" -snes_monitor
cp "$work/last.log" "$work/bend.log"
sed 's/formulation: reduced/formulation: fbar/' "$work/bend.yaml" > "$work/bend_fbar.yaml"
run 2 "$work/bend_fbar.yaml" -snes_monitor
cp "$work/last.log" "$work/bend_fbar.log"
bar "$work/fbar.yaml" fbar hex8 " formulation: fbar,"
run 3 "$work/fbar.yaml"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import csv, math, re, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, rows, passed
E, sy, Hi, Hk, A = 2e11, 2.5e8, 4e9, 6e9, 0.01
def stretch(t):
    return 1 + 0.5 * (t if t <= 1 else 1 - 0.8 * (t - 1))
# The 1D return map in the true strain ln(stretch): the Kirchhoff stress.
ep = alpha = beta = 0.0
exact = []
for r in rows(f"{work}/bar1/reactions.csv"):
    eps = math.log(stretch(float(r["time"])))
    xi = E * (eps - ep) - beta
    f = abs(xi) - (sy + Hi * alpha)
    if f > 0:
        dg, n = f / (E + Hi + Hk), math.copysign(1.0, xi)
        ep, alpha, beta = ep + dg * n, alpha + dg, beta + Hk * dg * n
    exact.append(E * (eps - ep))
def kirchhoff(name):
    return [float(r["xmax.fx"]) / A * stretch(float(r["time"])) for r in rows(f"{work}/{name}/reactions.csv")]
tau = {name: kirchhoff(name) for name in ("bar1", "bar2", "bar3", "reduced", "tet10", "fbar")}
check("reaction's Kirchhoff stress against the 1D return map in ln(stretch), largest error / sigma_y",
      max(abs(a - b) for a, b in zip(tau["bar1"], exact)) / sy, 0, 1e-9)
check("true strain reached", math.log(1.5), 0.4, 0.41)
check("peak Kirchhoff stress / sigma_y (hardened)", max(tau["bar1"]) / sy, 10, 20)
check("Kirchhoff stress at the end / sigma_y (reversed yielding)", tau["bar1"][-1] / sy, -12, -5)
check("equivalent plastic strain at the end (1D)", alpha, 0.5, 0.8)
probe = rows(f"{work}/bar1/probes.csv")
worst = 0
for p, t in zip(probe[1:], exact[1:]):
    J = math.exp(sum(float(p[f"mid.plasticity.strain_{c}"]) for c in ("xx", "yy", "zz")))
    worst = max(worst, abs(float(p["mid.sxx"]) * J - t) / sy)
check("probe: Cauchy sxx x J against the 1D Kirchhoff stress / sigma_y", worst, 0, 1e-9)
check("probe: equivalent plastic strain against the 1D alpha",
      abs(float(probe[-1]["mid.plasticity.equivalent_plastic_strain"]) - alpha) / alpha, 0, 1e-9)
check("probe: log strain xx against ln(stretch)",
      abs(float(probe[-1]["mid.plasticity.strain_xx"]) - math.log(stretch(2.0))), 0, 1e-12)
for name in ("reduced", "tet10", "fbar"):
    check(f"{name} cells against the 1D return map / sigma_y", max(abs(a - b) for a, b in zip(tau[name], exact)) / sy, 0, 1e-9)
for np in (2, 3):
    check(f"np {np} against np 1 / sigma_y", max(abs(x - y) for x, y in zip(tau["bar1"], tau[f"bar{np}"])) / sy, 0, 1e-8)
full, resumed = rows(f"{work}/full_reactions.csv"), rows(f"{work}/bar2/reactions.csv")
check("restart (2 ranks -> 3) against the uninterrupted run / sigma_y",
      max(abs(float(a["xmax.fx"]) - float(b["xmax.fx"])) / A for a, b in zip(full, resumed)) / sy
      if len(full) == len(resumed) == 41 else 1, 0, 1e-8)
balance, dissipation = {}, {}
for name in ("bar1", "bar2", "bar3", "coarse"):
    e = rows(f"{work}/{name}/energy.csv")[-1]
    balance[name] = abs(float(e["total"])) / float(e["external_work"])
    check(f"{name}: energy balance / work (trapezoidal rules in u and in the log strain)", balance[name], 0, 1e-3)
    # sigma_y alpha V0 is the dissipation of linear hardening (the rest of the plastic work is
    # stored by the hardening), what the return map books; the trapezoidal rule errs at the three
    # steps that cross the yield surface, each of 0.02 true strain (8 yield strains): up to
    # 3 x 0.02 / alpha = 9 % of it, in plastic_work_error.
    check(f"{name}: plastic dissipation against sigma_y alpha V0",
          abs(float(e["plastic_dissipation"]) / (sy * alpha * 0.01) - 1), 0, 1e-9)
    dissipation[name] = abs(float(e["plastic_work_error"]) / (sy * alpha * 0.01))
    check(f"{name}: plastic work error against sigma_y alpha V0", dissipation[name], 0, 0.06 if name != "coarse" else 0.2)
check("plastic work error, 20 steps over 40 (the rule's error at the yield crossings)",
      dissipation["coarse"] / dissipation["bar1"], 1.5, 5)
check("balance error, 20 steps over 40 (a quadrature error: shrinks with the step)",
      balance["coarse"] / balance["bar1"], 2, 8)
e = rows(f"{work}/cd/energy.csv")[-1]
check("central difference: energy balance / work", abs(float(e["total"])) / float(e["external_work"]), 0, 1e-3)
F = sy * A
for name in ("bend", "bend_fbar"):
    log = open(f"{work}/{name}.log").read()
    worst, pairs = 0, 0
    for block in re.split(r"\n(?=\s*0 SNES Function norm)", log):
        e = [float(x) / F for x in re.findall(r"\d+ SNES Function norm (\S+)", block)]
        for k in range(len(e) - 1):
            if e[k + 1] > 1e-11:  # the forces' round-off floor: 5e-13 to 1.3e-12 of F here
                worst, pairs = max(worst, e[k + 1] / e[k] ** 2), pairs + 1
    check(f"{name}: Newton's largest (||G_k+1|| / F) / (||G_k|| / F)^2", worst, 1e-30, 100)
    check(f"{name}: Newton iterations above round-off", pairs, 6, 1e9)
if not passed():
    print("FAIL: finite_plasticity"); sys.exit(1)
PY

# Bad input: one line each.
bar "$work/bad.yaml" bad hex8 "" "" "" "{yield_stress: -1}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_stress: must be > 0" 1 "$work/bad.yaml"
bar "$work/bad.yaml" bad hex8 " formulation: bbar,"
expect_error "bad.yaml:3: materials\[0\].formulation: bbar is a small-strain formulation (model linear_elastic, not hencky)" 2 "$work/bad.yaml"
sed 's/model: hencky/model: neo_hookean/' "$work/bar1.yaml" > "$work/bad.yaml"
expect_error "bad.yaml:4: materials\[0\].plasticity: J2 plasticity takes model linear_elastic (small strain) or hencky (finite strain), not neo_hookean" 1 "$work/bad.yaml"
sed 's/model: hencky/model: linear_elastic/' "$work/fbar.yaml" > "$work/bad.yaml"
expect_error "bad.yaml:3: materials\[0\].formulation: fbar takes model hencky with plasticity (not linear_elastic); at small strain use bbar" 2 "$work/bad.yaml"
cat > "$work/bad.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: reduced}
boundary_conditions:
  - {region: xmin, type: fixed}
time: {integrator: static, dt: 1, steps: 1}
EOF
expect_error "bad.yaml:3: materials\[0\].formulation: reduced takes model linear_elastic, or hencky with plasticity (not hencky without plasticity)" 3 "$work/bad.yaml"
# A copper column hitting a wall at 227 m/s with a dt fit for the undeformed cells only: the
# flattened cells invert, and the message says why.
cat > "$work/bad.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [0.0032, 0.0032, 0.0324], cells: [2, 2, 20], element: hex8}}
materials:
  - {region: all, model: hencky, density: 8930, youngs_modulus: 1.17e11, poissons_ratio: 0.35,
     formulation: fbar, plasticity: {yield_stress: 4.0e8, isotropic_hardening: 1.0e8}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
contact:
  walls:
    - {name: anvil, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}
initial_conditions:
  velocity: [0, 0, -227]
time: {integrator: central_difference, mass: lumped, dt: 6.0e-8, end_time: 8.0e-5}
output: {directory: bad, every: 0}
EOF
expect_error "inverted element .*an explicit run keeps the dt chosen for the undeformed mesh: cells flattened by large deformation need a smaller time.dt" 2 "$work/bad.yaml"
finish
