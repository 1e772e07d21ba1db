#!/usr/bin/env bash
# Drop weights (contact.walls[].mass, examples/guide/contact_walls.md), against Saint-Venant's
# solution of a rigid mass striking an elastic bar (1-D): the bar of examples/drop_weight (L 1 m,
# c = 316.2 m/s, Z = rho c A = 790.6 N s/m, 2.5 kg, 100 hex8), the weight M = 2.5 kg at
# v0 = 1 m/s, central difference, dt auto, the default penalty:
# - far end fixed: the force F = Z v0 exp(-Z t / M) until 2 L / c, then the reflected wave's jump
#   of 2 Z v0 and F = Z v0 exp(-Z s / M) (exp(-2) + 2 - 2 Z s / M) until the weight leaves
#   (s = 3.378 ms) at -0.6876 m/s; the weight's momentum change is the impulse of the force
#   summed from contact.csv (its leap-frog); contact.csv equal on 1, 2 and 3 ranks, and after a
#   restart from a checkpoint taken in contact (2 ranks -> 3);
# - far end free: the weight leaves at 2 L / c with v0 exp(-2) (the reflected tension), the
#   momentum of weight + bar stays M v0 to round-off at every step, and the energy balance
#   (the weight's kinetic energy counted) closes;
# - bad input: a mass with a motion, with damping, under newmark; an initial velocity without a
#   mass: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

example="$INERTIA_SOURCE_DIR/examples/drop_weight/drop_weight.yaml"
for np in 1 2 3; do
  sed "s|directory: out|directory: $work/fixed$np|" "$example" > "$work/fixed$np.yaml"
  run "$np" "$work/fixed$np.yaml"
done
grep -q "drop weight 'weight' (plane) on region 'xmin'.*mass 2.5 kg, initial velocity \[1, 0, 0\]" \
  "$work/last.log" || fail "the log's line of the drop weight"
sed -e "s|directory: out|directory: $work/free|" -e "/type: fixed/d" -e "s/^boundary_conditions:$//" \
  -e "s/end_time: 0.012/end_time: 0.008/" "$example" > "$work/free.yaml"
run 1 "$work/free.yaml"

# Restart in contact: checkpoints every 100 steps on 2 ranks, continued on 3 from step 200.
sed -e "s|directory: out|directory: $work/restart|" \
  -e "s|history_every: 1|history_every: 1\n  checkpoint: {every: 100, keep: 10}|" "$example" \
  > "$work/restart.yaml"
run 2 "$work/restart.yaml"
cp "$work/restart/contact.csv" "$work/restart_full.csv"
cp "$work/restart/energy.csv" "$work/restart_energy_full.csv"
run 3 "$work/restart.yaml" --restart "$work/restart/checkpoints/checkpoint_000000200.h5"

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY' || failed=1
import math, sys
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed
work = sys.argv[1]
rho, E, L, A, v0, M = 1000.0, 1.0e8, 1.0, 0.05 * 0.05, 1.0, 2.5
c = math.sqrt(E / rho)
Z, T = rho * c * A, 2 * L / c
alpha = Z / M
s_end = (1 + math.exp(-alpha * T) / 2) / alpha
v_end = v0 * math.exp(-alpha * s_end) * (math.exp(-alpha * T) - 2 * alpha * s_end)

def exact(t):
    if t < T:
        return Z * v0 * math.exp(-alpha * t)
    s = t - T
    return max(0.0, Z * v0 * math.exp(-alpha * s) * (math.exp(-alpha * T) + 2 - 2 * alpha * s))

f = read(f"{work}/fixed1/contact.csv")
t, F, vx = f["time"], f["weight.fx"], f["weight.vx"]
h = t[1] - t[0]
def window(lo, hi):
    err = [F[i] - exact(t[i]) for i in range(len(t)) if lo <= t[i] <= hi]
    return max(map(abs, err)) / (Z * v0), sum(err) / len(err) / (Z * v0)
worst, bias = window(0.1 * T, 0.9 * T)
print(f"fixed end, 0.1 to 0.9 x 2L/c: largest |F - exact| {worst:.4f} x Z v0, mean {bias:+.5f}")
check("fixed end: largest force error before the reflection / (Z v0) (the penalty's ripple)",
      worst, 0, 0.08)
def impulse(lo, hi):
    return sum((t[k + 1] - t[k]) * F[k] for k in range(len(t) - 1) if lo <= t[k] < hi)
def exact_impulse(lo, hi, n=20000):
    d = (hi - lo) / n
    return sum(exact(lo + (k + 0.5) * d) * d for k in range(n))
check("fixed end: impulse before the reflection / M v0 (1 - exp(-2))",
      impulse(0, T) / exact_impulse(0, T), 0.99, 1.01)
arrival = min(t[i] for i in range(len(t)) if t[i] > 0.9 * T and F[i] > Z * v0)
check("fixed end: the reflected wave's arrival (F > Z v0) / (2 L / c)", arrival / T, 1.0, 1.035)
check("fixed end: impulse after the reflection / exact", impulse(T, 3 * T) /
      exact_impulse(T, T + s_end), 0.97, 1.03)
last = max(i for i, x in enumerate(F) if x > 0)
check("fixed end: contact end / exact (2L/c + 3.378 ms)", (t[last] + h / 2) / (T + s_end), 0.98, 1.02)
check("fixed end: the weight's velocity after / exact (-0.6876 m/s)", vx[-1] / v_end, 0.97, 1.04)
# The weight's leap-frog: M (v0 - w_N) is the force's impulse, sum of (t_k+1 - t_k) F_k over the
# steps plus half the last step's F_N (F_0 = 0: the weight starts touching).
total = sum((t[k + 1] - t[k]) * F[k] for k in range(len(t) - 1)) + (t[-1] - t[-2]) * F[-1] / 2
check("fixed end: M (v0 - v_end) - impulse of contact.csv, / (M v0)",
      abs(M * (v0 - vx[-1]) - total) / (M * v0), 0, 1e-10)
for np in (2, 3):
    g = read(f"{work}/fixed{np}/contact.csv")
    d = max(abs(a - b) for k in f for a, b in zip(f[k], g[k]))
    check(f"fixed end: contact.csv np {np} against np 1, / (Z v0)", d / (Z * v0), 0, 1e-9)
e = read(f"{work}/fixed1/energy.csv")
drift = max(abs(x - e["total"][0]) for x in e["total"]) / e["total"][0]
check("fixed end: energy balance, largest |total - initial| / initial", drift, 0, 3e-3)

g = read(f"{work}/free/contact.csv")
t, F, vx = g["time"], g["weight.fx"], g["weight.vx"]
p = max(abs(x - M * v0) for x in g["total.px"]) / (M * v0)
check("free end: |momentum of weight + bar - M v0| / (M v0), every step", p, 0, 1e-11)
last = max(i for i, x in enumerate(F) if x > 0)
check("free end: contact end / (2 L / c)", (t[last] + h / 2) / T, 0.98, 1.03)
check("free end: the weight's velocity after / v0 exp(-2)", vx[-1] / (v0 * math.exp(-2)), 0.97, 1.03)
check("free end: the bar's momentum after / M v0 (1 - exp(-2))",
      g["body.px"][-1] / (M * v0 * (1 - math.exp(-2))), 0.995, 1.005)
e = read(f"{work}/free/energy.csv")
check("free end: initial energy / (M v0^2 / 2)", e["total"][0] / (0.5 * M * v0 * v0), 1 - 1e-12, 1 + 1e-12)
drift = max(abs(x - e["total"][0]) for x in e["total"]) / e["total"][0]
check("free end: energy balance, largest |total - initial| / initial", drift, 0, 3e-3)

full, again = read(f"{work}/restart_full.csv"), read(f"{work}/restart/contact.csv")
d = max(abs(a - b) for k in full for a, b in zip(full[k], again[k]))
check("restart at step 200 (2 ranks -> 3): rows", len(again["step"]), len(full["step"]), len(full["step"]))
check("restart at step 200 (2 ranks -> 3): contact.csv, largest difference / (Z v0)", d / (Z * v0), 0, 1e-9)
full, again = read(f"{work}/restart_energy_full.csv"), read(f"{work}/restart/energy.csv")
d = max(abs(a - b) for k in full for a, b in zip(full[k], again[k]))
check("restart: energy.csv, largest difference (J)", d, 0, 1e-9)
sys.exit(0 if passed() else 1)
PY

bad() {  # bad NAME WALL-KEYS [TIME]
  sed -e "s|directory: out|directory: $work/bad|" \
    -e "s|       mass: 2.5, initial_velocity: \[1, 0, 0\]}|       $2}|" "$example" > "$work/$1.yaml"
  if [ -n "${3:-}" ]; then sed -i "s|integrator: central_difference, mass: lumped|$3|" "$work/$1.yaml"; fi
}
bad motion "mass: 2.5, motion: {displacement: [0.001, 0, 0]}"
expect_error "motion.yaml:.*contact.walls\[0\].mass: give either 'motion' .* or 'mass'" 2 "$work/motion.yaml"
bad damped "mass: 2.5, damping: 0.1"
expect_error "damped.yaml:.*contact.walls\[0\].damping: damping on a wall with a mass .* is not supported" 1 "$work/damped.yaml"
bad novel "initial_velocity: [1, 0, 0]"
expect_error "novel.yaml:.*contact.walls\[0\].initial_velocity: an initial velocity needs a 'mass'" 1 "$work/novel.yaml"
bad newmark "mass: 2.5, initial_velocity: [1, 0, 0]" "integrator: newmark, dt: 1.0e-5, mass: lumped"
sed -i 's/dt: auto, //' "$work/newmark.yaml"
expect_error "newmark.yaml:.*contact.walls\[0\].mass: a wall with a mass (a drop weight) moves with the leap-frog of central difference" 3 "$work/newmark.yaml"
finish
