#!/usr/bin/env bash
# Pairs that start interpenetrated (examples/guide/contact_pairs.md, "Initial penetrations"), on
# meshes/overlap_pair.msh (a 0.1 m block 2 mm into a slab, under gravity; the slab's bottom held;
# refused by default: tests/scripts/contact_setup.sh):
# - `move`: the block's 25 bottom nodes are moved 2 mm up onto the slab before the run (one log
#   line with the count and the longest move); the slab's nodes under the block then touch the
#   moved faces and stay; the run starts with no contact energy and the block rests on the slab
#   (its speed stays below 0.05 m/s, against 5.6 m/s with the penalty pushing 2 mm out, 4.8 J;
#   the mean contact force over 0.01-0.02 s 0.87 x its weight, peak 2.07: the weight applied at
#   once);
# - `ignore`: the 50 nodes (both passes) keep their 2 mm overlap (one log line with the count and
#   the deepest); the same: no energy at the start, the block rests; its contact forces are those
#   of the block starting on the slab (meshes/slide_pair.msh) to 1e-3 of the weight (measured
#   3.6e-5);
# - np 1 and 2 (and 3 for `move`) agree; a bad value, and a move longer than half the height of
#   the node's own cells, are one error line each.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
overlap() {  # overlap FILE DIR MODE
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/overlap_pair.msh}
materials:
  - {region: slab, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
boundary_conditions:
  - {region: slab_bottom, type: fixed}
contact:
  pairs:
    - {name: floor, surfaces: [block_bottom, slab_top], initial_penetration: $3}
gravity: [0, 0, -9.81]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.02}
output:
  directory: $2
  every: 0
  history_every: 1
  probes:
    - {name: top, point: [0.1, 0.1, 0.148], fields: [velocity, displacement]}
EOF
}
for np in 1 2 3; do
  overlap "$work/move$np.yaml" "move$np" move
  run $np "$work/move$np.yaml"
  grep -q "^contact   contact pair 'floor' .*, 25 node(s) moved onto the faces they penetrated (the longest move 0.002 m)" "$work/last.log" ||
    { cat "$work/last.log"; echo "FAIL: np $np: the moved nodes' log line"; exit 1; }
  [ $np = 3 ] && continue
  overlap "$work/ignore$np.yaml" "ignore$np" ignore
  run $np "$work/ignore$np.yaml"
  grep -q "^contact   contact pair 'floor' .*, 50 initial penetration(s) kept (the deepest 0.002 m)" "$work/last.log" ||
    { cat "$work/last.log"; echo "FAIL: np $np: the kept penetrations' log line"; exit 1; }
done
overlap "$work/touching.yaml" touching error
sed -i 's/overlap_pair/slide_pair/' "$work/touching.yaml"
run 1 "$work/touching.yaml"
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
weight = 1000 * 0.1 ** 3 * 9.81
for mode in ("move", "ignore"):
    e = read(f"{work}/{mode}1/energy.csv")
    p = read(f"{work}/{mode}1/probes.csv")
    c = read(f"{work}/{mode}1/contact.csv")
    late = [f for t, f in zip(c["time"], c["floor.normal"]) if t > 0.01]
    check(f"{mode}: strain energy at the start (J)", abs(e["strain"][0]), 0, 1e-12)
    check(f"{mode}: the block's largest speed (m/s)", max(abs(v) for v in p["top.vz"]), 0, 0.05)
    check(f"{mode}: mean contact force over 0.01-0.02 s / the block's weight", sum(late) / len(late) / weight, 0.7, 1.3)
    check(f"{mode}: peak contact force / weight (the weight applied at once: 2)", max(c["floor.normal"]) / weight, 1.5, 2.5)
    check(f"{mode}: deepest penetration (beyond the kept one) (m)", max(c["floor.penetration"]), 0, 1e-4)
    for np in (2, 3) if mode == "move" else (2,):
        o = read(f"{work}/{mode}{np}/contact.csv")
        check(f"{mode}: np {np} against 1: largest normal force difference / weight",
              largest_difference(c, o, ("floor.normal", "floor.fz")) / weight, 0, 1e-8)
# `ignore` acts as if the block started touching the slab (meshes/slide_pair.msh).
diff = largest_difference(read(f"{work}/ignore1/contact.csv"), read(f"{work}/touching/contact.csv"), ("floor.normal", "floor.fz"))
check("ignore against the block starting on the slab: largest force difference / weight", diff / weight, 0, 1e-3)
if not passed():
    print("FAIL: initial penetrations moved or kept"); sys.exit(1)
EOF
overlap "$work/bad.yaml" bad remove
expect_error "bad.yaml:9: contact.pairs\[0\].initial_penetration: expected error (refuse a pair that starts interpenetrated), move (move its nodes onto the faces they penetrate) or ignore (keep the overlap), not 'remove'" 1 "$work/bad.yaml"
# A move longer than half the height of the node's own cells is refused: a plate 2 mm thick (one
# cell) pressed 1.5 mm into a block (10 mm cells), given as volumes.
python3 - "$work/plate.msh" <<'EOF'
import sys
nodes, cells = [], []
def box(lo, hi, n, tag):
    first = len(nodes) + 1
    at = lambda i, j, k: first + i + (n[0] + 1) * (j + (n[1] + 1) * k)
    for k in range(n[2] + 1):
        for j in range(n[1] + 1):
            for i in range(n[0] + 1):
                nodes.append([lo[d] + (hi[d] - lo[d]) * (i, j, k)[d] / n[d] for d in range(3)])
    for k in range(n[2]):
        for j in range(n[1]):
            for i in range(n[0]):
                cells.append((tag, [at(i, j, k), at(i + 1, j, k), at(i + 1, j + 1, k), at(i, j + 1, k),
                                    at(i, j, k + 1), at(i + 1, j, k + 1), at(i + 1, j + 1, k + 1),
                                    at(i, j + 1, k + 1)]))
box((0, 0, -0.01), (0.02, 0.02, 0), (2, 2, 1), 1)
box((0.005, 0.005, -0.0015), (0.015, 0.015, 0.0005), (2, 2, 1), 2)
out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$PhysicalNames", "2", '3 1 "block"',
       '3 2 "plate"', "$EndPhysicalNames", "$Nodes", str(len(nodes))]
out += [f"{i + 1} {x!r} {y!r} {z!r}" for i, (x, y, z) in enumerate(nodes)]
out += ["$EndNodes", "$Elements", str(len(cells))]
out += [f"{e + 1} 5 2 {t} {t} " + " ".join(map(str, c)) for e, (t, c) in enumerate(cells)]
out += ["$EndElements"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
cat > "$work/plate.yaml" <<EOF
mesh: {file: $work/plate.msh}
materials:
  - {region: block, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: plate, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
contact:
  pairs:
    - {name: fit, surfaces: [plate, block], margin: 0.01, initial_penetration: move}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 1.0e-4}
output: {directory: plate, every: 0}
EOF
expect_error "plate.yaml:7: contact.pairs\[0\].initial_penetration: pair 'fit': node [0-9]* of surface 'plate' would move 0.0015 m onto the face it penetrates, 0.75 x the height of its own cells (at most 0.5)" 2 "$work/plate.yaml"
echo "initial penetrations: moved and kept, np 1, 2, 3"
