#!/usr/bin/env bash
# Newton near a plastic collapse, and the histories of a step that fails part-way.
# Hill's sphere: an eighth of a thick-walled sphere (a = 0.1, b = 0.2 m, meshes/plastic_sphere.geo,
# tet10, 5415 DOFs), steel, perfectly plastic (sigma_y 250 MPa), the bore pressure at 0.8, 0.9,
# 0.95, 0.98 and 1.0 of the limit pressure p_L = 2 sigma_y ln(b / a) in 5 static steps. Checked:
# - Newton's iterations per step at most 8 (full steps: 6, 5, 5, 5, 6; backtracking on ||G||, the
#   default before, took 6, 9, 13, 20, 29), no step retried, no fallback to backtracking;
# - the same answer as backtracking on ||G|| (-snes_linesearch_type bt): the bore's displacement,
#   the reactions and the energies to 1e-9 of their largest value (measured 1e-14);
# - the load: each symmetry plane's reaction over the pressure is the same at every step to 1e-9
#   (the bore's area projected on the plane, 0.99999 of pi a^2 / 4: the quadratic faces);
# - np 2 equals np 1 to 1e-8.
# Past the limit (0.9 then 1.1 p_L, one halving allowed, 2 ranks): the step to 1.1 fails, its
# first half (to 1.0 p_L) converges and the second fails. probes.csv, reactions.csv and
# energy.csv end with a row numbered as the failed step at the time the run got to (t = 1.5, the
# error line's "from t = 1.5"; before, their last row was step 1), whose reaction carries the
# pressure there (to 1e-9) and whose energy balance closes (to 1e-9, measured 4e-16); a restart
# from the checkpoint before it fails the same way and leaves that row once.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
sphere() {  # sphere FILE DIR POINTS STEPS [extra time keys] [extra output keys]
  cat > "$1" <<YAML
mesh: {file: $INERTIA_SOURCE_DIR/meshes/plastic_sphere.msh}
materials:
  - {region: sphere, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8}}
boundary_conditions:
  - {region: inner, type: pressure, value: 3.4657359027997264e8, amplitude: ramp}
  - {region: xsym, type: displacement, components: [x], value: [0]}
  - {region: ysym, type: displacement, components: [y], value: [0]}
  - {region: zsym, type: displacement, components: [z], value: [0]}
amplitudes:
  ramp: {type: table, points: $3}
time: {integrator: static, dt: 1, steps: $4${5:-}}
output: {directory: $2, every: 1, probes: [{name: bore, point: [0.1, 0, 0]}]${6:-}}
YAML
}
points="[[0, 0], [1, 0.8], [2, 0.9], [3, 0.95], [4, 0.98], [5, 1.0]]"
sphere "$work/np1.yaml" np1 "$points" 5
in_work run 1 np1.yaml
cp "$work/last.log" "$work/np1.log"
sphere "$work/np2.yaml" np2 "$points" 5
in_work run 2 np2.yaml
cp "$work/last.log" "$work/np2.log"
sphere "$work/bt.yaml" bt "$points" 5
in_work run 1 bt.yaml -snes_linesearch_type bt
sphere "$work/past.yaml" past "[[0, 0], [1, 0.9], [2, 1.1]]" 2 ", max_step_halvings: 1" \
  ", checkpoint: {every: 1}"
for attempt in first restart; do
  args=(past.yaml -snes_max_it 20)
  [ $attempt = restart ] && args+=(--restart past/checkpoints/checkpoint_000000001.h5)
  if (cd "$work" && mpi 2 "$INERTIA" "${args[@]}" > "past_$attempt.log" 2> "past_$attempt.err"); then
    cat "$work/past_$attempt.log"
    echo "FAIL: the sphere at 1.1 p_L converged ($attempt)"
    exit 1
  fi
  cat "$work/past_$attempt.err"
  mkdir -p "$work/past_$attempt"
  cp "$work"/past/*.csv "$work/past_$attempt/"
done

python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'PY'
import math, re, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, passed
p_L, a = 3.4657359027997264e8, 0.1
levels = [0, 0.8, 0.9, 0.95, 0.98, 1.0]
for np in (1, 2):
    log = open(f"{work}/np{np}.log").read()
    its = [int(x) for x in re.findall(r"newton its (\d+)", log)]
    print(f"np {np}: Newton iterations per step {its}")
    check(f"np {np}: load steps", len(its), 5, 5)
    check(f"np {np}: largest Newton iterations in a step (0.8 ... 1.0 p_L)", max(its), 1, 8)
    check(f"np {np}: steps retried", log.count("\nretry"), 0, 0)
    check(f"np {np}: fallbacks to backtracking", log.count("full steps did not converge"), 0, 0)
def values(d):
    out = []
    for f in ("probes.csv", "reactions.csv", "energy.csv"):
        cols = read(f"{work}/{d}/{f}")
        out += [cols[k] for k in cols if k not in ("step", "time", "total")]
    return out
def difference(x, y):
    scale = max(max(abs(v) for v in c) for c in x)
    return max(abs(u - v) for cx, cy in zip(x, y) for u, v in zip(cx, cy)) / scale
one, bt, two = values("np1"), values("bt"), values("np2")
check("against backtracking on ||G||: largest difference / largest value", difference(one, bt), 0, 1e-9)
check("np 2 against np 1: largest difference / largest value", difference(one, two), 0, 1e-8)
r = read(f"{work}/np1/reactions.csv")
# The bore's area projected on a symmetry plane, from the first step's reaction: pi a^2 / 4 less
# the quadratic faces' departure from the sphere.
area = -r["xsym.fx"][1] / (levels[1] * p_L)
check("the bore's projected area (from the reaction at 0.8 p_L) / (pi a^2 / 4)", area / (math.pi * a * a / 4), 1 - 1e-4, 1 + 1e-4)
check("reactions against p x that area, largest relative difference",
      max(abs(-r[f"{s}.f{c}"][i] / (l * p_L * area) - 1)
          for i, l in enumerate(levels) if l > 0
          for s, c in (("xsym", "x"), ("ysym", "y"), ("zsym", "z"))), 0, 1e-9)
for attempt in ("first", "restart"):
    err = open(f"{work}/past_{attempt}.err").read()
    m = re.search(r"the step from t = (\S+) with dt = (\S+) failed after 1 halvings", err)
    if not m:
        print(f"FAIL: {attempt}: no failed-step line in: {err}")
        sys.exit(1)
    reached = float(m.group(1))
    what = f"past the limit ({attempt})"
    check(f"{what}: the failed step's last converged part ends at t", reached, 1.5, 1.5)
    csv = {f: read(f"{work}/past_{attempt}/{f}") for f in ("probes.csv", "reactions.csv", "energy.csv")}
    for f, cols in csv.items():
        check(f"{what}: {f} rows (steps 0, 1 and the failed step 2)", len(cols["step"]), 3, 3)
        check(f"{what}: {f}: the last row's step", cols["step"][-1], 2, 2)
        check(f"{what}: {f}: the last row's time / the reached t", cols["time"][-1] / reached, 1, 1)
    level = 0.9 + 0.2 * (reached - 1)
    check(f"{what}: the last row's reaction / (the pressure there x the projected area)",
          -csv["reactions.csv"]["xsym.fx"][-1] / (level * p_L * area), 1 - 1e-9, 1 + 1e-9)
    e = csv["energy.csv"]
    check(f"{what}: the last row's energy balance / work", abs(e["total"][-1]) / e["external_work"][-1], 0, 1e-9)
    u = csv["probes.csv"]["bore.ux"]
    check(f"{what}: the bore's displacement at the last row / at step 1", u[-1] / u[-2], 1.05, 10)
if not passed():
    print("FAIL: newton_collapse")
    sys.exit(1)
PY
finish
