#!/usr/bin/env bash
# Nonlinear isotropic hardening and the strain-rate factor of J2 plasticity
# (examples/guide/plasticity.md): plasticity.voce, plasticity.yield_curve, plasticity.johnson_cook.
# A hex8 bar (1 x 0.1 x 0.1 m, 4 cells, rollers on xmin, ymin, zmin) pulled at xmax to 1.5 % strain
# (static, 30 load steps), steel (E 200 GPa, nu 0.3, sigma_y 250 MPa). Uniaxial monotonic flow
# keeps one direction, so the return map is exact at any step: the reaction over the area
# follows the 1D curve sigma = k(alpha) R, eps = sigma / E + alpha. Checked:
# - Voce (2 GPa linear + 150 MPa (1 - exp(-30 alpha))) and a yield curve (250, 290, 320, 330 MPa
#   at alpha 0, 0.2, 0.5, 1 %, flat beyond): the reaction / A against the 1D curve to 1e-8 of
#   sigma_y, np 1, 2, 3 equal;
# - Johnson-Cook (C 0.02, reference rate 1 / s) on the linear hardening: the same pull over
#   1e-3 s (15 / s) and over 100 s (1.5e-4 / s, below the reference: R = 1), each against the 1D
#   recursion sigma_n+1 = k(alpha_n+1) (1 + C ln(max(1, (alpha_n+1 - alpha_n) / dt))) to 1e-8
#   of sigma_y; the fast one ends higher by the factor's size; a restart from step 15 (2 ranks
#   -> 3) continues exactly (the state's time is checkpointed);
# - the energy balance closes with the plastic dissipation (1e-9 of the work);
# - bad input: one error line each (a yield curve not monotone, not starting at 0, with a
#   yield_stress too; voce or johnson_cook incomplete).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
bar() {  # bar NAME PLASTICITY [END_TIME]
  cat > "$work/$1.yaml" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: $2}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.015], amplitude: pull}
amplitudes:
  pull: {type: table, points: [[0, 0], [${3:-1}, 1]]}
time: {integrator: static, dt: $(awk "BEGIN {printf \"%.17g\", ${3:-1} / 30}"), steps: 30}
output:
  directory: $1
  every: 0
  energy: true
  checkpoint: {every: 15, keep: 2}
EOF
}
voce="{yield_stress: 2.5e8, isotropic_hardening: 2.0e9, voce: {saturation: 1.5e8, rate: 30}}"
curve="{yield_curve: [[0, 2.5e8], [0.002, 2.9e8], [0.005, 3.2e8], [0.01, 3.3e8]]}"
jc="{yield_stress: 2.5e8, isotropic_hardening: 2.0e9, johnson_cook: {c: 0.02, reference_rate: 1.0}}"
for np in 1 2 3; do
  bar "voce$np" "$voce"
  run $np "$work/voce$np.yaml"
  bar "curve$np" "$curve"
  run $np "$work/curve$np.yaml"
done
grep -q "linear_elastic + J2 plasticity" "$work/last.log" || { cat "$work/last.log"; exit 1; }
bar fast "$jc" 1.0e-3
run 2 "$work/fast.yaml"
cp "$work/fast/reactions.csv" "$work/fast_reactions.csv"
run 3 "$work/fast.yaml" --restart "$work/fast/checkpoints/checkpoint_000000015.h5"
bar slow "$jc" 100
run 1 "$work/slow.yaml"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import csv, math, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, rows, passed
E, sy, A = 2e11, 2.5e8, 0.01
def voce(a):
    return sy + 2e9 * a + 1.5e8 * (1 - math.exp(-30 * a)), 2e9 + 1.5e8 * 30 * math.exp(-30 * a)
xs, ys = [0, 0.002, 0.005, 0.01], [2.5e8, 2.9e8, 3.2e8, 3.3e8]
def curve(a):
    if a >= xs[-1]:
        return ys[-1], 0.0
    i = next(i for i in range(1, len(xs)) if xs[i] > a)
    s = (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1])
    return ys[i - 1] + s * (a - xs[i - 1]), s
def linear(a):
    return sy + 2e9 * a, 2e9
def exact(k, eps, alpha_n, dt=None):
    """The 1D return: sigma = E (eps - alpha) = k(alpha) R(alpha - alpha_n), alpha >= alpha_n."""
    if E * (eps - alpha_n) <= k(alpha_n)[0]:
        return E * (eps - alpha_n), alpha_n
    alpha = alpha_n + 1e-12
    for _ in range(100):
        kk, dk = k(alpha)
        R, dR = 1.0, 0.0
        if dt and (alpha - alpha_n) / dt > 1.0:
            R, dR = 1 + 0.02 * math.log((alpha - alpha_n) / dt), 0.02 / (alpha - alpha_n)
        g = E * (eps - alpha) - kk * R
        alpha -= g / (-E - dk * R - kk * dR)
        alpha = max(alpha, alpha_n + 1e-16)
        if abs(g) < 1e-6:
            break
    return E * (eps - alpha), alpha
def compare(name, k, dt=None):
    alpha, worst, last = 0.0, 0.0, 0.0
    for r in rows(f"{work}/{name}/reactions.csv")[1:]:
        t = float(r["time"])
        eps = 0.015 * t / (float(rows(f"{work}/{name}/reactions.csv")[-1]["time"]))
        sigma, alpha = exact(k, eps, alpha, dt)
        worst = max(worst, abs(float(r["xmax.fx"]) / A - sigma) / sy)
        last = float(r["xmax.fx"]) / A
    return worst, last
for label, k in (("voce", voce), ("curve", curve)):
    worst, last = compare(f"{label}1", k)
    check(f"{label}: reaction / A against the 1D curve / sigma_y", worst, 0, 1e-8)
    ref = [float(r["xmax.fx"]) for r in rows(f"{work}/{label}1/reactions.csv")]
    for np in (2, 3):
        other = [float(r["xmax.fx"]) for r in rows(f"{work}/{label}{np}/reactions.csv")]
        check(f"{label}: np {np} against np 1", max(abs(a - b) for a, b in zip(ref, other)) / max(map(abs, ref)), 0, 1e-10)
    e = rows(f"{work}/{label}1/energy.csv")[-1]
    check(f"{label}: energy balance / work", abs(float(e["total"])) / float(e["external_work"]), 0, 1e-9)
check("curve: last stress (flat beyond 1 %) / 330 MPa", compare("curve1", curve)[1] / 3.3e8, 1 - 1e-9, 1 + 1e-9)
fast_worst, fast_last = compare("fast", linear, 1e-3 / 30)
slow_worst, slow_last = compare("slow", linear, 100 / 30)
check("johnson_cook, 15 / s: reaction / A against the 1D recursion / sigma_y", fast_worst, 0, 1e-8)
check("johnson_cook, 1.5e-4 / s (R = 1): against the rate-free curve / sigma_y", slow_worst, 0, 1e-8)
check("johnson_cook: fast / slow final stress - 1 (0.02 ln 15 = 0.054)", fast_last / slow_last - 1, 0.04, 0.06)
full, resumed = rows(f"{work}/fast_reactions.csv"), rows(f"{work}/fast/reactions.csv")
check("johnson_cook: restart (2 ranks -> 3) against the uninterrupted run / sigma_y",
      max(abs(float(a["xmax.fx"]) - float(b["xmax.fx"])) / A for a, b in zip(full, resumed)) / sy, 0, 1e-10)
if not passed():
    print("FAIL: hardening"); sys.exit(1)
PY

# Bad input: one line each.
bar bad "{yield_curve: [[0, 2.5e8], [0.01, 2.4e8]]}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_curve\[1\]\[1\]: the yield stress must not decrease" 2 "$work/bad.yaml"
bar bad "{yield_curve: [[0.001, 2.5e8], [0.01, 2.6e8]]}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_curve\[0\]\[0\]: the first row is the initial yield stress" 1 "$work/bad.yaml"
bar bad "{yield_curve: [[0, 2.5e8], [0.01, 2.6e8], [0.01, 2.7e8]]}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_curve\[2\]\[0\]: plastic strains must increase" 1 "$work/bad.yaml"
bar bad "{yield_stress: 2.5e8, yield_curve: [[0, 2.5e8]]}"
expect_error "bad.yaml:4: materials\[0\].plasticity.yield_stress: yield_curve gives the whole isotropic hardening" 3 "$work/bad.yaml"
bar bad "{yield_stress: 2.5e8, voce: {saturation: 1.0e8}}"
expect_error "bad.yaml:4: materials\[0\].plasticity.voce: missing key 'rate'" 1 "$work/bad.yaml"
bar bad "{yield_stress: 2.5e8, johnson_cook: {c: 0.02, reference_rate: 0}}"
expect_error "bad.yaml:4: materials\[0\].plasticity.johnson_cook.reference_rate: must be > 0" 1 "$work/bad.yaml"
finish
