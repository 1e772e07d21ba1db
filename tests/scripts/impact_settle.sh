#!/usr/bin/env bash
# An impact, then a static settle (examples/impact_settle, examples/guide/analyses.md): a steel bar
# with its sides held (uniaxial strain), J2 with linear hardening H, pressed onto a rigid wall by
# P0, hits it at 15 m/s (central difference), then a static analysis settles it under the held
# press and presses it to 10 P0 in 10 load steps. With no lateral motion every cell of the
# 20 x 1 x 1 hex8 bar has one strain and one state at its 8 points, so the model is the 1-D bar
# of linear elements, which is statically determinate. Exact, whatever the impact left:
# - at every load step the wall carries the press P(t) A (equilibrium), and each cell's stress
#   is -P, so its strain is (-P + 2 mu p_xx) / M (M = lambda + 2 mu, p_xx its plastic strain;
#   the plastic flow keeps the volume: p_yy = p_zz = -p_xx / 2): the bar's shortening is
#   sum h (-P + 2 mu p_xx) / M over the cells, to round-off (2e-14 measured; checked to 1e-12);
# - the settle under the held press is elastic: the impact's flow is all in compression
#   (p_xx = -alpha, checked), so sum h p_xx = -D / (sigma_y A), D the impact's plastic dissipation
#   (sigma_y alpha V for linear hardening): shortening = -P0 L / M - (2 mu / M) D / (sigma_y A);
# - pressed to 10 P0, past every cell's yield stress, each cell ends on the yield surface at
#   sigma_xx = -P: alpha and the strain are the closed form of one cell in uniaxial strain, the
#   same for every cell: the press wipes out the impact's history;
# - the same bar elastic settles to -P0 L / M exactly. The case's model is explicit (time:
#   central_difference) and a static analysis solves it: before, its walls stayed node-by-node
#   terms of a linear model, which the static analysis solved without them (singular: the run
#   failed);
# - the wall's penalty is the explicit schemes' (penalty_scale 1) when an analysis is explicit,
#   whichever section names its integrator: the impact identical with the integrator in the
#   entry and in time:, the wall's 4 nodes in contact at every row of it (before, with the entry's
#   integrator, the model took the implicit 10 and they chattered: 0 and 4 from step to step);
# - restarts from load step 4 of the settle: bit-identical at the same rank count (np 1 from np
#   1's checkpoint); from np 1's checkpoint on 2 ranks and from np 2's on 3, equal to the
#   uninterrupted runs to 1e-13 of the largest |u| (uninterrupted runs on 1, 2 and 3 ranks differ
#   by up to 1.1e-15 of it themselves, the round-off of other sums: checked to 1e-13 too);
# - a matrix-free model (`operator: matrix_free`) with a static, an implicit or a modal analysis
#   is refused at --check, one line naming the analysis (before, --check passed and the run
#   failed at that analysis with "create_operator: no assembled matrix", or with "invalid node;
#   first invalid key" for an implicit transient entry).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
cd "$work"
export PYTHONPATH="$INERTIA_SOURCE_DIR/tests/support"

# The example, with a state probe at the centre of each of its 20 cells.
example="$INERTIA_SOURCE_DIR/examples/impact_settle/impact_settle.yaml"
{
  cat "$example"
  for i in $(seq 0 19); do
    echo "    - {name: c$i, point: [$(awk "BEGIN {print ($i + 0.5) * 0.005}"), 0.005, 0.005], fields: [state]}"
  done
} > settle.yaml
sed '/plasticity: {yield_stress/d; s/poissons_ratio: 0.3,$/poissons_ratio: 0.3}/' settle.yaml > elastic.yaml

physics() {  # physics OUTPUT-DIRECTORY LABEL plastic|elastic
  python3 - "$@" <<'PY'
import sys
from csv_checks import read, check, passed
d, label, plastic = sys.argv[1], sys.argv[2], sys.argv[3] == 'plastic'
E, nu, sy, H = 2.0e11, 0.3, 2.5e8, 2.0e9
L, A, n, P0 = 0.1, 1.0e-4, 20, 1.0e8
lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
M = lam + 2 * mu  # uniaxial strain: sigma_xx = M eps - 2 mu p_xx
h = L / n
impact, settle = read(f'{d}/impact/probes.csv'), read(f'{d}/settle/probes.csv')
wall = read(f'{d}/settle/contact.csv')
# The press keeps the bar on the wall: its 4 nodes in contact at every row of the impact (with
# the implicit schemes' penalty, 10 times stiffer, they chatter: 0 and 4 from step to step).
check(f'{label}: the fewest wall nodes in contact over the impact',
      min(read(f'{d}/impact/contact.csv')['wall.active'][1:]), 4, 4)


def cells(p, r, what):
    return [p[f'c{i}.plasticity.{what}'][r] for i in range(n)] if plastic else [0.0] * n


def press(t):  # the table: 1 to t = 2.01e-5, then linearly to 10 at 2.1e-5
    return P0 * (1 + 9 * max(0.0, t - 2.01e-5) / 0.09e-5)


if plastic:
    alpha, p = (cells(impact, -1, k) for k in ('equivalent_plastic_strain', 'plastic_strain_xx'))
    check(f'{label}: cells that yielded in the impact', sum(a > 0 for a in alpha), 15, 19)
    check(f'{label}: the impact\'s flow in compression only: largest |p_xx + alpha| / largest '
          'alpha', max(abs(x + y) for x, y in zip(p, alpha)) / max(alpha), 0, 1e-12)
force = shape = 0
for r in range(1, len(settle['time'])):
    P = press(settle['time'][r])
    force = max(force, abs(wall['wall.fx'][r] - P * A) / (P * A))
    short = settle['top.ux'][r] - settle['foot.ux'][r]
    exact = sum(h * (-P + 2 * mu * x) / M for x in cells(settle, r, 'plastic_strain_xx'))
    shape = max(shape, abs(short - exact) / abs(exact))
check(f'{label}: the wall force against the press P(t) A, every load step, relative', force, 0,
      1e-12)
check(f'{label}: the shortening against sum h (-P + 2 mu p_xx) / M, every load step, relative',
      shape, 0, 1e-12)
short = settle['top.ux'][1] - settle['foot.ux'][1]
if plastic:
    D = read(f'{d}/impact/energy.csv')['plastic_dissipation'][-1]
    exact = -P0 * L / M - 2 * mu / M * D / (sy * A)
    check(f'{label}: settled, the shortening {short:.6e} m against -P0 L/M - (2 mu/M) '
          f'D/(sigma_y A), D = {D:.6g} J, relative', abs(short - exact) / -exact, 0, 1e-12)
    P = press(settle['time'][-1])
    pf = (-P + M * sy / (2 * mu)) / (M * (3 * mu + H) / (2 * mu) - 2 * mu)
    eps = (-P + 2 * mu * pf) / M
    alpha = cells(settle, -1, 'equivalent_plastic_strain')
    check(f'{label}: pressed to {P:.3g} Pa, every cell\'s alpha against the closed form '
          f'{-pf:.6g}, relative', max(abs(a + pf) for a in alpha) / -pf, 0, 1e-12)
    short = settle['top.ux'][-1] - settle['foot.ux'][-1]
    check(f'{label}: pressed, the shortening {short:.6e} m against L eps, relative',
          abs(short - L * eps) / -(L * eps), 0, 1e-12)
else:
    check(f'{label}: settled, the shortening {short:.6e} m against -P0 L / M, relative',
          abs(short + P0 * L / M) / (P0 * L / M), 0, 1e-12)
sys.exit(0 if passed() and len(settle['time']) == 11 else 1)
PY
}

compare() {  # compare DIR-A DIR-B LABEL TOLERANCE: the probes of both analyses, of the largest |u|
  python3 - "$@" <<'PY'
import sys
from csv_checks import read, check, passed
a, b, label, tolerance = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
for analysis in ('impact', 'settle'):
    f, r = read(f'{a}/{analysis}/probes.csv'), read(f'{b}/{analysis}/probes.csv')
    columns = [k for k in f if k.endswith('.ux')]
    peak = max(abs(x) for k in columns for x in f[k])
    worst = max(abs(x - y) for k in columns for x, y in zip(f[k], r[k]))
    check(f'{label}: {analysis}: largest difference of the displacements, of the largest |u| '
          f'({peak:.4g} m)', worst / peak, 0, tolerance)
    check(f'{label}: {analysis}: rows', len(r['time']), len(f['time']), len(f['time']))
sys.exit(0 if passed() else 1)
PY
}

# 1. The uninterrupted runs on 1, 2 and 3 ranks: the exact answers; how much they differ.
for np in 1 2 3; do
  run "$np" settle.yaml
  grep -q "^analysis  2 of 2: 'settle' (static), from t = 2e-05 s" last.log ||
    { cat last.log; die "np $np: no settle line"; }
  physics out "np $np" plastic || fail "np $np: the settle's exact answers"
  mv out "full$np"
done
compare full1 full2 "np 1 against np 2" 1e-13 || fail "np 1 and 2 differ"
compare full1 full3 "np 1 against np 3" 1e-13 || fail "np 1 and 3 differ"

# 2. The same bar elastic: its settle is the uniform compression. And the plastic bar with the
# integrator named by the impact's entry (time: the default newmark): the same penalty.
for np in 1 2; do
  run "$np" elastic.yaml
  physics out "elastic np $np" elastic || fail "elastic np $np"
  rm -r out
done
sed 's/time: {integrator: central_difference, mass: lumped}/time: {mass: lumped}/;
     s/- {name: impact, type: transient, dt: auto/- {name: impact, type: transient, integrator: central_difference, dt: auto/' \
  settle.yaml > entry.yaml
grep -q "integrator: central_difference, dt: auto" entry.yaml || die "entry.yaml"
run 1 entry.yaml
physics out "the entry's integrator" plastic || fail "the entry's integrator"
compare full1 out "the entry's integrator against time:'s" 0 || fail "the entry's integrator"
rm -r out

# 3. Restarts from load step 4 of the settle, as if the run had stopped there.
restart() {  # restart FROM-NP NP: np FROM-NP's run, cut after step 4, continued on NP ranks
  rm -rf out
  cp -r "full$1" out
  rm out/settle/checkpoints/checkpoint_0000000{06,08,10}.h5
  run "$2" settle.yaml --restart out/settle/checkpoints
  grep -q "analysis  skipped: before the checkpoint's analysis" last.log || { cat last.log; exit 1; }
  grep -q "^restart   from .*settle/checkpoints/checkpoint_000000004.h5: step 4" last.log ||
    { cat last.log; die "np $1 -> $2: not from step 4 of the settle"; }
}
restart 1 1
for f in probes contact reactions; do
  cmp "full1/settle/$f.csv" "out/settle/$f.csv" || fail "np 1 -> 1: the settle's $f.csv differs"
done
restart 1 2
physics out "np 1 -> 2" plastic || fail "np 1 -> 2: the settle's exact answers"
compare full1 out "np 1 -> 2 against np 1" 1e-13 || fail "np 1 -> 2"
restart 2 3
physics out "np 2 -> 3" plastic || fail "np 2 -> 3: the settle's exact answers"
compare full2 out "np 2 -> 3 against np 2" 1e-13 || fail "np 2 -> 3"

# 4. A matrix-free model has no assembled stiffness for a static, implicit or modal analysis.
matrix_free() {  # matrix_free FIRST-ANALYSIS: a case with operator: matrix_free
  cat <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials: [{region: all, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3}]
boundary_conditions: [{region: xmin, type: fixed}]
gravity: [0, 0, -9.81]
time: {integrator: central_difference, mass: lumped, operator: matrix_free}
analyses:
  - $1
  - {name: hold, type: transient, dt: 1.0e-6, steps: 2}
output: {every: 0}
EOF
}
refusal="analyses\[0\]: time.operator: matrix_free has no assembled stiffness, which a"
check_refuses --run matrix_free_static "$refusal static analysis solves with" \
  "$(matrix_free "{name: gravity, type: static}")"
check_refuses --run matrix_free_newmark "$refusal transient analysis under newmark solves with" \
  "$(matrix_free "{name: first, type: transient, integrator: newmark, dt: 1.0e-6, steps: 2}")"
check_refuses --run matrix_free_modal "$refusal modal analysis solves with" \
  "$(matrix_free "{name: modes, type: modal, modes: 2}")"
finish
