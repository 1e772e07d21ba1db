#!/usr/bin/env bash
# Element erosion through contact (examples/guide/erosion.md, "Erosion and contact"): a pair on
# volume regions follows the erosion (the faces eroded cells uncover join its surfaces). Checked:
# - a projectile through a plate: a steel block (4 x 4 x 6 mm, elastic hencky, a body of its own:
#   no node shared with the plate, 10 um above it, shifted 0.25 mm in x and y so that no node of
#   one lies on an edge of the other's faces) at 900 m/s on a free 12 x 12 x 6 mm plate of 1 mm
#   cells (hencky + J2, failure at equivalent plastic strain 0.4), the pair {projectile, plate}
#   (penalty): the plate's cells under the block erode layer by layer, the block perforates it;
#   its residual velocity (its top's mean velocity over the last quarter) reported; the momentum
#   of the model (M v) plus the eroded cells' stays the initial one to round-off (1e-12 of it) at
#   every row, x and y too: the pair's forces are equal and opposite and act on nodes with mass
#   (the eroded cells' nodes leave the surfaces);
# - the rebuild matters: with `eroding: false` (the eroded cells' faces leave the surfaces, the
#   faces they uncover do not join) the block meets no face once the first layers have gone (the
#   plate pushes it after 5 us with 0.5 % of its momentum at most, against 5 % or more) and passes
#   through the plate's interior faster;
# - np 1, 2 and 3 agree (erosion.csv, contact.csv and the probes to 1e-10 of each quantity's
#   scale, the residual velocities to 1e-10), and a restart on 3 ranks from a checkpoint written
#   on 2 after the first erosions (the surfaces rebuilt from the checkpoint's eroded flags) equals
#   the uninterrupted run;
# - bad input: one error line each (a wall on nodes of eroding cells, a pair's region of faces on
#   eroding cells, friction on a pair whose surfaces erode).
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
support="$INERTIA_SOURCE_DIR/tests/support"

# h 1 mm, plate 12 x 12 x 6 cells, block 4 x 4 x 6 cells, 10 um gap, shifted 0.25 mm.
python3 "$support/plate_projectile_msh.py" "$work/plate.msh" 0.001 12 6 4 6 1.0e-5 2.5e-4
hit() {  # hit FILE DIR [pair keys] [output line]
  cat > "$1" <<END
mesh: {file: plate.msh}
materials:
  - {region: plate, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 4.0e8, isotropic_hardening: 1.0e9},
     failure: {equivalent_plastic_strain: 0.4}}
  - {region: projectile, model: hencky, density: 7800, youngs_modulus: 2.0e11,
     poissons_ratio: 0.3}
initial_conditions:
  velocity: [{region: projectile, velocity: [0, 0, -900]}]
contact:
  pairs:
    - {name: hit, surfaces: [projectile, plate]${3:-}}
time: {integrator: central_difference, mass: lumped, dt: 5.0e-8, end_time: 2.5e-5}
output:
  directory: $2
  every: 0
  history_every: 5
  probes: [{name: top, point: [0.00025, 0.00025, 0.00601], fields: [velocity, displacement]}]
  ${4:-}
END
}
hit "$work/pe1.yaml" pe1
hit "$work/pe2.yaml" pe2 "" "checkpoint: {every: 100, keep: 5}"
hit "$work/pe3.yaml" pe3
hit "$work/pn.yaml" pn ", eroding: false"
(cd "$work" && run_log "$work/pe1.log" 1 pe1.yaml)
(cd "$work" && run_log "$work/pe2.log" 2 pe2.yaml)
(cd "$work" && run_log "$work/pe3.log" 3 pe3.yaml)
(cd "$work" && run_log "$work/pn.log" 1 pn.yaml)
cp -r "$work/pe2" "$work/pe2_run"
# The restart: the checkpoint of step 100 (t = 5 us, after the first erosions) on 3 ranks.
(cd "$work" && run_log "$work/per.log" 3 pe2.yaml --restart pe2/checkpoints/checkpoint_000000100.h5)
has "$work/pe1.log" "its surfaces follow the erosion"
has "$work/pn.log" "the eroded cells' faces leave its surfaces (eroding: false)"
has "$work/per.log" "cells had eroded at the checkpoint"
grep "finished" "$work/pe1.log"

python3 - "$work" "$support" <<'PY'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import check, read, passed
def residual(run):  # the block's top's mean velocity over the last quarter of the run
    pr = read(f"{work}/{run}/probes.csv")
    t = pr["time"]
    j = next(k for k, x in enumerate(t) if x >= 0.75 * t[-1])
    return (pr["top.uz"][-1] - pr["top.uz"][j]) / (t[-1] - t[j]), pr["top.uz"][-1]
def late_impulse(run):  # the plate's push against the block after 5 us (N s, the rows' fz > 0)
    c = read(f"{work}/{run}/contact.csv")
    t, f = c["time"], c["hit.fz"]
    return sum(max(f[k], 0) * (t[k] - t[k - 1]) for k in range(1, len(t)) if t[k] > 5e-6)
v1, z1 = residual("pe1")
vn, zn = residual("pn")
print(f"residual velocity: {v1:.6g} m/s (from -900), eroding: false {vn:.6g} m/s")
e = read(f"{work}/pe1/erosion.csv")
print(f"cells eroded: {e['cells'][-1]:.0f} (eroding: false: {read(f'{work}/pn/erosion.csv')['cells'][-1]:.0f})")
check("perforation: the block's bottom at the end (its top's uz + 10 um) below the plate's bottom (m)", z1 + 1e-5, -1, -0.006)
check("residual velocity (m/s)", v1, -800, -100)
check("cells eroded", e["cells"][-1], 50, 400)
c = read(f"{work}/pe1/contact.csv")
late = max(abs(f) for t, f in zip(c["time"], c["hit.fz"]) if t >= 0.75 * c["time"][-1])
print(f"contact over the last quarter (the block pushing debris): largest |fz| {late:.4g} N, "
      f"{late / max(abs(f) for f in c['hit.fz']):.3g} of the impact's")
p0 = e["momentum_z"][0]
worst = max(abs(m + q - p0) for m, q in zip(e["momentum_z"], e["eroded_momentum_z"]))
check("|p_z + eroded p_z - p_z(0)| / |p_z(0)|, every row", worst / abs(p0), 0, 1e-12)
for a in "xy":
    w = max(abs(m + q) for m, q in zip(e[f"momentum_{a}"], e[f"eroded_momentum_{a}"]))
    check(f"|p_{a} + eroded p_{a}| / |p_z(0)|, every row", w / abs(p0), 0, 1e-12)
# The rebuild: the uncovered faces take contact; without them the block meets nothing more.
i1, i0 = late_impulse("pe1"), late_impulse("pn")
print(f"the plate's push on the block after 5 us: {i1:.4g} N s; eroding: false {i0:.4g} N s")
check("the plate's push after 5 us / the block's initial momentum, eroding: true", i1 / abs(p0), 0.05, 1)
check("the plate's push after 5 us / the block's initial momentum, eroding: false", i0 / abs(p0), 0, 0.005)
check("residual velocity: eroding: false - eroding: true (m/s)", vn - v1, -1000, -50)
en = read(f"{work}/pe1/energy.csv")
print(f"energy: total at the end / at the start - 1 = {en['total'][-1] / en['total'][0] - 1:.3g}")
def group(k):
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
    check(label, worst if len(a["time"]) == len(b["time"]) else 1, 0, 1e-10)
for np in (2, 3):
    for f in ("erosion", "contact", "probes"):
        compare(read(f"{work}/pe1/{f}.csv"), read(f"{work}/{'pe2_run' if np == 2 else 'pe3'}/{f}.csv"), f"np {np} against np 1: {f}.csv, largest difference / the quantity's scale")
    check(f"np {np}: residual velocity / np 1's - 1", residual("pe2_run" if np == 2 else "pe3")[0] / v1 - 1, -1e-10, 1e-10)
for f in ("erosion", "contact", "probes", "energy"):
    compare(read(f"{work}/pe1/{f}.csv"), read(f"{work}/pe2/{f}.csv"), f"restart 2 -> 3 ranks from step 100 against np 1: {f}.csv")
if not passed():
    print("FAIL: erosion_contact"); sys.exit(1)
PY

# Bad input: one error line each, on 1 and 3 ranks.
base='mesh: {box: {lower: [0, 0, 0], upper: [0.01, 0.01, 0.01], cells: [3, 3, 3]}}
materials:
  - {region: all, model: hencky, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3,
     plasticity: {yield_stress: 2.5e8}, failure: {equivalent_plastic_strain: 0.05}}
time: {integrator: central_difference, mass: lumped, dt: 1.0e-8, steps: 2}'
printf '%s\n' "$base
contact:
  walls:
    - {name: floor, region: zmin, plane: {point: [0, 0, 0], normal: [0, 0, 1]}}" > "$work/wall.yaml"
printf '%s\n' "$base
contact:
  pairs:
    - {name: self, surfaces: [zmax]}" > "$work/faces.yaml"
printf '%s\n' "$base
contact:
  pairs:
    - {name: self, surfaces: [all], friction: 0.2}" > "$work/friction.yaml"
for np in 1 3; do
  same_refusal $np "contact.walls\[0\].region: region 'zmin' has nodes of cells that can erode" "$work/wall.yaml"
  same_refusal $np "contact.pairs\[0\].surfaces: region 'zmax' is a region of faces on cells that can erode" "$work/faces.yaml"
  same_refusal $np "contact.pairs\[0\].friction: friction on a pair whose surfaces erode is not supported" "$work/friction.yaml"
done
finish
