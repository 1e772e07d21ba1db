#!/usr/bin/env bash
# Element erosion (examples/guide/erosion.md): a material's failure: deletes the cells that meet
# it. Checked:
# - a bar pulled to failure breaks at the strain given: a bar of one cell along its length and
#   2 x 2 in its section (so its state is uniform), small-strain J2 with linear hardening
#   (sigma_y 250 MPa, H 2 GPa), failure at equivalent plastic strain 0.05, pulled at its end
#   (rollers at xmin, ymin, zmin) under central difference: its cells erode when u / L reaches
#   e_f + (sigma_y + H e_f) / E = 0.05175 (to 2 steps' strain, 4e-5), the reaction is
#   (sigma_y + H e_p) A just before and exactly 0 after; erosion.csv books the cells' mass
#   (rho V) and the energy balance, with the eroded cells' strain energy, closes (to 2.3e-4 of the
#   work: the trapezoidal rule's reaction work over the step of the break); the same bar breaks
#   at ln(1 + u / L) = 0.02 with principal_strain (elastic hencky) and at Johnson-Cook's e_f at
#   triaxiality 1/3 with johnson_cook (to 2 steps' strain);
# - a projectile through a plate: a steel block (4 x 4 x 6 mm, elastic) at 400 m/s on the
#   centre of a free 16 x 16 x 4 mm plate (hencky + J2, failure at equivalent plastic strain
#   0.3), one mesh: the ring of plate cells around the block erodes and the block leaves with its
#   plug; its residual velocity reported; the momentum of the model (M v) plus the eroded cells'
#   stays the initial one to round-off (1e-12 of it) at every row, x and y to 1e-12 of it too;
#   the energy balance closes; the state output marks the eroded cells (a probe's
#   erosion.eroded, erosion.time; the cell arrays);
# - np 1, 2 and 3 agree (erosion.csv and the probes to 1e-8), and a restart on 3 ranks from a
#   checkpoint written on 2 after the first erosions equals the uninterrupted run; a restart with
#   another failure strain is refused (the model's fingerprint);
# - bad input: one error line each.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
support="$INERTIA_SOURCE_DIR/tests/support"

cat > "$work/bar.yaml" <<END
mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.01, 0.01], cells: [1, 2, 2], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.0e9},
     failure: {equivalent_plastic_strain: 0.05}}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.01], amplitude: pull}
amplitudes:
  pull: {type: table, points: [[0, 0], [1.0e-3, 1]]}
time: {integrator: central_difference, mass: lumped, dt: 2.0e-7, end_time: 6.0e-4}
output:
  directory: $work/bar
  every: 0
  history_every: 1
END
run 1 "$work/bar.yaml"
cp "$work/last.log" "$work/bar.log"
has "$work/bar.log" "erosion   step"
# The same bar eroded by the largest principal strain (elastic hencky: ln(1 + u / L) = 0.02) and
# by Johnson-Cook's damage (triaxiality 1/3: e_f = 0.02 + 0.1 exp(-1)).
sed -e 's|plasticity: {yield_stress: 2.5e8, isotropic_hardening: 2.0e9},|model: hencky,|' \
    -e 's|failure: {equivalent_plastic_strain: 0.05}|failure: {principal_strain: 0.02}|' \
    -e "s|directory: $work/bar|directory: $work/bar_e1|" "$work/bar.yaml" > "$work/bar_e1.yaml"
sed -e 's|failure: {equivalent_plastic_strain: 0.05}|failure: {johnson_cook: {d1: 0.02, d2: 0.1, d3: -3}}|' \
    -e "s|directory: $work/bar|directory: $work/bar_jc|" "$work/bar.yaml" > "$work/bar_jc.yaml"
grep -q principal_strain "$work/bar_e1.yaml" && grep -q johnson_cook "$work/bar_jc.yaml" ||
  die "the bar's lines changed"
run 1 "$work/bar_e1.yaml"
run 1 "$work/bar_jc.yaml"

python3 "$support/plate_projectile_msh.py" "$work/plate.msh"
projectile() {  # projectile FILE DIR [output line]
  cat > "$1" <<END
mesh: {file: plate.msh}
materials:
  - {region: plate, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 4.0e8, isotropic_hardening: 1.0e9},
     failure: {equivalent_plastic_strain: 0.3}}
  - {region: projectile, model: hencky, density: 7800, youngs_modulus: 2.0e11,
     poissons_ratio: 0.3}
initial_conditions:
  velocity: [{region: projectile, velocity: [0, 0, -400]}]
time: {integrator: central_difference, mass: lumped, dt: 5.0e-8, end_time: 3.0e-5}
output:
  directory: $2
  every: 300
  fields: [state]
  history_every: 10
  probes: [{name: top, point: [0, 0, 0.006], fields: [velocity, displacement]},
           {name: ring, point: [-0.003, 0.001, -0.001], fields: [state]},
           {name: far, point: [-0.007, 0.007, -0.001], fields: [state]}]
  ${3:-}
END
}
for np in 1 2 3; do
  projectile "$work/pp$np.yaml" "pp$np"
  (cd "$work" && run_log "$work/pp$np.log" "$np" "pp$np.yaml")
done
projectile "$work/ppc.yaml" "ppc" "checkpoint: {every: 200, keep: 3}"
(cd "$work" && run_log "$work/ppc.log" 2 "ppc.yaml")
(cd "$work" && run_log "$work/ppr.log" 3 "ppc.yaml" --restart "ppc/checkpoints/checkpoint_000000200.h5")
has "$work/ppr.log" "cells had eroded at the checkpoint"
# Another failure strain is another model: its restart is refused (the fingerprint has it).
sed -e 's/equivalent_plastic_strain: 0.3/equivalent_plastic_strain: 0.25/' -e 's/directory: ppc/directory: ppd/' \
  "$work/ppc.yaml" > "$work/ppd.yaml"
(cd "$work" && expect_error "written for another model" 1 ppd.yaml --restart ppc/checkpoints/checkpoint_000000200.h5)
grep "erosion" "$work/pp1.log" | tail -n 2
for a in eroded time mass kinetic_energy strain_energy momentum_z damage; do  # the state output
  grep -q "Name=\"erosion.$a\"" "$work/pp3/pp3_000002.pvtu" || fail "no cell array erosion.$a"
done

python3 - "$work" "$support" <<'PY'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, read, passed
# The bar: u(t) = 0.01 t / 1 ms at its end, L = 0.1.
E, sy, H, ef, L, A, rho = 2.0e11, 2.5e8, 2.0e9, 0.05, 0.1, 1e-4, 7800
er = read(f"{work}/bar/erosion.csv")
re = read(f"{work}/bar/reactions.csv")
strain = lambda t: 0.01 * t / 1.0e-3 / L
i = next(k for k, c in enumerate(er["cells"]) if c > 0)
check("bar: nominal strain when its cells erode - (e_f + (sigma_y + H e_f) / E)",
      strain(er["time"][i]) - (ef + (sy + H * ef) / E), -4e-5, 4e-5)
check("bar: cells eroded", er["cells"][-1], 4, 4)
check("bar: eroded mass / rho A L - 1", er["eroded_mass"][-1] / (rho * A * L) - 1, -1e-12, 1e-12)
# Uniaxial stress with linear hardening: sigma = E (e - e_p), sigma = sigma_y + H e_p, so
# sigma = (H e + sigma_y) E / (E + H).
e1 = strain(re["time"][i - 1])
check("bar: reaction before the break / sigma(e) A - 1", -re["xmin.fx"][i - 1] / ((H * e1 + sy) * E / (E + H) * A) - 1, -0.01, 0.01)
check("bar: largest |reaction| after the break (N)", max(abs(x) for x in re["xmin.fx"][i:]), 0, 0)
import math
for name, expected in (("principal strain", math.exp(0.02) - 1),
                       ("Johnson-Cook", 0.02 + 0.1 * math.exp(-1) + (sy + H * (0.02 + 0.1 * math.exp(-1))) / E)):
    d = read(f"{work}/bar_{'e1' if name[0] == 'p' else 'jc'}/erosion.csv")
    k = next(k for k, c in enumerate(d["cells"]) if c > 0)
    check(f"bar, {name}: nominal strain at the first erosion - expected", strain(d["time"][k]) - expected, -4e-5, 4e-5)
    check(f"bar, {name}: cells eroded", d["cells"][-1], 4, 4)
en = read(f"{work}/bar/energy.csv")
w = en["external_work"][-1]
check("bar: energy balance / work", abs(en["total"][-1] - en["total"][0]) / w, 0, 1e-3)
check("bar: eroded (strain) energy / work", en["eroded"][-1] / w, 1e-4, 1)

# The projectile.
e = read(f"{work}/pp1/erosion.csv")
p0 = e["momentum_z"][0]
check("projectile: cells eroded", e["cells"][-1], 4, 200)
worst = max(abs(m + q - p0) for m, q in zip(e["momentum_z"], e["eroded_momentum_z"]))
check("projectile: |p_z + eroded p_z - p_z(0)| / |p_z(0)|, every row", worst / abs(p0), 0, 1e-12)
for c in "xy":
    w = max(abs(m + q) for m, q in zip(e[f"momentum_{c}"], e[f"eroded_momentum_{c}"]))
    check(f"projectile: |p_{c} + eroded p_{c}| / |p_z(0)|", w / abs(p0), 0, 1e-12)
# The block rings: its residual velocity is its top's mean velocity over the last 10 us.
pr = read(f"{work}/pp1/probes.csv")
first = next(t for t, c in zip(e["time"], e["cells"]) if c > 0)
check("projectile: a ring cell's state erosion.eroded at the end", pr["ring.erosion.eroded"][-1], 1, 1)
# erosion.csv's first row with eroded cells (every 10 steps of 5e-8 s) follows their erosion.
check("projectile: its erosion.time - the time of erosion.csv's first row with eroded cells (s)",
      pr["ring.erosion.time"][-1] - first, -5e-7, 0)
check("projectile: erosion.eroded of a cell before its erosion time, and of a far cell",
      max(x for t, x in zip(pr["time"], pr["ring.erosion.eroded"]) if t < pr["ring.erosion.time"][-1]) + pr["far.erosion.eroded"][-1], 0, 0)
j = next(k for k, t in enumerate(pr["time"]) if t >= 2.0e-5)
v = (pr["top.uz"][-1] - pr["top.uz"][j]) / (pr["time"][-1] - pr["time"][j])
print(f"projectile: residual velocity {v:.6g} m/s (from -400)")
check("projectile: residual velocity (m/s)", v, -400, -10)
en = read(f"{work}/pp1/energy.csv")
k0 = en["kinetic"][0]
check("projectile: energy balance / initial kinetic energy, every row", max(abs(t - en["total"][0]) for t in en["total"]) / k0, 0, 2e-3)
check("projectile: eroded energy / initial kinetic energy", en["eroded"][-1] / k0, 1e-4, 1)
# Ranks agree; the restart equals the uninterrupted run.
def group(k):  # the columns of one quantity share a scale (x and y momenta are round-off)
    for g in ("momentum", "top.v", "top.u"):
        if g in k:
            return g
    return k
def compare(a, b, label):
    scale = {}
    for k in a:
        scale[group(k)] = max(scale.get(group(k), 1e-300), max(abs(x) for x in a[k]))
    worst = max(abs(x - y) / scale[group(k)] for k in a if k not in ("step", "time")
                for x, y in zip(a[k], b[k]))
    check(label, worst if len(a["time"]) == len(b["time"]) else 1, 0, 1e-8)
for np in (2, 3):
    compare(read(f"{work}/pp1/erosion.csv"), read(f"{work}/pp{np}/erosion.csv"), f"np {np} against np 1: erosion.csv, largest difference / the quantity's scale")
    compare(read(f"{work}/pp1/probes.csv"), read(f"{work}/pp{np}/probes.csv"), f"np {np} against np 1: probes.csv")
compare(read(f"{work}/pp1/erosion.csv"), read(f"{work}/ppc/erosion.csv"), "restart 2 -> 3 ranks against the uninterrupted run: erosion.csv")
compare(read(f"{work}/pp1/energy.csv"), read(f"{work}/ppc/energy.csv"), "restart: energy.csv")
compare(read(f"{work}/pp1/probes.csv"), read(f"{work}/ppc/probes.csv"), "restart: probes.csv")
if not passed():
    print("FAIL: erosion"); sys.exit(1)
PY

# Bad input: one error line each.
base='mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.01, 0.01], cells: [2, 1, 1]}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8}, failure: {equivalent_plastic_strain: 0.05}}'
check_refuses implicit "failure: element erosion runs in a transient with time.scheme: central_difference" \
  "$base
time: {integrator: newmark, dt: 1.0e-6, steps: 2}"
check_refuses consistent "failure: element erosion needs time.mass: lumped" \
  "$base
time: {integrator: central_difference, dt: 1.0e-7, steps: 2}"
check_refuses --run contact "contact.walls\[0\].region: region 'xmin' has nodes of cells that can erode" \
  "$base
contact:
  walls:
    - {name: floor, region: xmin, plane: {point: [0, 0, 0], normal: [1, 0, 0]}}
time: {integrator: central_difference, mass: lumped, dt: 1.0e-7, steps: 2}
output: {directory: refused_contact}"
check_refuses linear "erosion takes a nonlinear model" \
  'mesh: {box: {lower: [0, 0, 0], upper: [0.1, 0.01, 0.01], cells: [2, 1, 1]}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     failure: {principal_strain: 0.05}}
time: {integrator: central_difference, mass: lumped, dt: 1.0e-7, steps: 2}'
check_refuses two "expected exactly one criterion" \
  "${base/equivalent_plastic_strain: 0.05/equivalent_plastic_strain: 0.05, principal_strain: 0.1}
time: {integrator: central_difference, mass: lumped, dt: 1.0e-7, steps: 2}"
finish
