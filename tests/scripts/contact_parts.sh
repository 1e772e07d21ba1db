#!/usr/bin/env bash
# Part-based contact surfaces (examples/guide/contact_pairs.md, "Part-based surfaces"):
# a volume region named as a pair's surface or a wall's region means its skin, the faces of its
# cells that no other solid cell shares (found across the ranks: the faces of a cell on one rank
# and of its neighbour on another are matched by their corner nodes):
# - the two-bar impact (meshes/two_bars.msh) with the pair given as the bars' volumes
#   [bar1, bar2] gives the contact force history of the end faces [bar1_end, bar2_end] on 1, 2
#   and 3 ranks (the bars' skins: 330 + 330 nodes instead of 9 + 9): the same on as many ranks
#   (measured: equal), to 1e-10 of the peak force against 1 rank (measured 2.6e-12 at np 3);
# - a bar hitting a rigid wall given its volume `all` gives the wall force of its face `xmin`,
#   on 1 and 2 ranks;
# - a volume whose skin starts behind a wall is refused as a face region is;
# - the faces between two parts that share nodes are on neither skin, on 1, 2 and 3 ranks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}" "${INERTIA_MPIEXEC:=mpiexec}"
bars() {  # bars FILE DIR SURFACES
  cat > "$1" <<EOF
mesh: {file: $INERTIA_SOURCE_DIR/meshes/two_bars.msh}
materials:
  - {region: bar1, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
  - {region: bar2, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  pairs:
    - {name: ends, surfaces: $3}
initial_conditions:
  velocity:
    - {region: bar1, velocity: [1, 0, 0]}
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.012}
output: {directory: $2, every: 0, history_every: 1}
EOF
}
wall() {  # wall FILE DIR REGION [PLANE_X]
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.05, 0.05], cells: [40, 2, 2], element: hex8}}
materials:
  - {region: all, density: 1000, youngs_modulus: 1.0e8, poissons_ratio: 0.0}
contact:
  walls:
    - {name: stop, region: $3, plane: {point: [${4:-0}, 0, 0], normal: [1, 0, 0]}}
initial_conditions:
  velocity: [-1, 0, 0]
time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.008}
output: {directory: $2, every: 0, history_every: 1}
EOF
}
bars "$work/faces.yaml" faces "[bar1_end, bar2_end]"
run 1 "$work/faces.yaml"
bars "$work/faces3.yaml" faces3 "[bar1_end, bar2_end]"
run 3 "$work/faces3.yaml"
for np in 1 2 3; do
  bars "$work/parts$np.yaml" "parts$np" "[bar1, bar2]"
  run $np "$work/parts$np.yaml"
  grep -q "^contact   contact pair 'ends' between regions 'bar1' and 'bar2': 330 + 330 nodes" "$work/last.log" ||
    { cat "$work/last.log"; echo "FAIL: np $np: the pair's log line (the bars' skins)"; exit 1; }
done
wall "$work/xmin.yaml" xmin xmin
run 1 "$work/xmin.yaml"
for np in 1 2; do
  wall "$work/all$np.yaml" "all$np" all
  run $np "$work/all$np.yaml"
  grep -q "^contact   rigid wall 'stop' (plane) on region 'all': 330 nodes" "$work/last.log" ||
    { cat "$work/last.log"; echo "FAIL: np $np: the wall's log line (the bar's skin)"; exit 1; }
done
python3 - "$work" "$INERTIA_SOURCE_DIR/tests/support" <<'EOF'
import sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from csv_checks import read, check, largest_difference, passed
faces = read(f"{work}/faces/contact.csv")
peak = max(abs(x) for x in faces["ends.fx"])
check("the end faces' peak contact force (N)", peak, 400, 500)
for np in (1, 2, 3):
    parts = read(f"{work}/parts{np}/contact.csv")
    check(f"volumes, np {np}: rows", len(parts["ends.fx"]), len(faces["ends.fx"]), len(faces["ends.fx"]))
    diff = largest_difference(faces, parts, ("ends.fx", "ends.fy", "ends.fz", "ends.normal"))
    check(f"volumes, np {np}, against the end faces: largest force difference / peak", diff / peak, 0, 1e-10)
    check(f"volumes, np {np}: same nodes in contact", int(parts["ends.active"] == faces["ends.active"]), 1, 1)
diff = largest_difference(read(f"{work}/faces3/contact.csv"), read(f"{work}/parts3/contact.csv"), ("ends.fx", "ends.normal"))
check("volumes against the end faces, both on 3 ranks: largest force difference / peak", diff / peak, 0, 0)
xmin = read(f"{work}/xmin/contact.csv")
peak = max(abs(x) for x in xmin["stop.fx"])
check("the wall's peak force on xmin (N)", peak, 700, 1000)
for np in (1, 2):
    skin = read(f"{work}/all{np}/contact.csv")
    diff = largest_difference(xmin, skin, ("stop.fx", "stop.normal"))
    check(f"wall on the volume, np {np}, against xmin: largest force difference / peak", diff / peak, 0, 1e-10)
    check(f"wall on the volume, np {np}: same nodes in contact", int(skin["stop.active"] == xmin["stop.active"]), 1, 1)
if not passed():
    print("FAIL: part-based contact surfaces"); sys.exit(1)
EOF
wall "$work/bad.yaml" bad all 0.02
expect_error "bad.yaml:6: contact.walls\[0\]: wall 'stop' starts inside the body: 9 node(s) of region 'all' behind it" 2 "$work/bad.yaml"
# Two parts meshed with shared nodes (a 4 x 2 x 2 hex8 grid, `left` the cells with x < 0.5): the
# faces between them are interior to the model, not on either skin: `left`'s skin has 25 of its
# 27 nodes (neither its own centre nor the centre of the face it shares with `right`), on 1, 2
# and 3 ranks (the faces of the two parts on different ranks).
python3 - "$work/fused.msh" <<'EOF'
import sys
at = lambda i, j, k: 1 + i + 5 * (j + 3 * k)
nodes = [(i / 4, j / 4, k / 4) for k in range(3) for j in range(3) for i in range(5)]
cells = [(1 if i < 2 else 2, [at(i, j, k), at(i + 1, j, k), at(i + 1, j + 1, k), at(i, j + 1, k),
                              at(i, j, k + 1), at(i + 1, j, k + 1), at(i + 1, j + 1, k + 1),
                              at(i, j + 1, k + 1)])
         for k in range(2) for j in range(2) for i in range(4)]
out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$PhysicalNames", "2", '3 1 "left"',
       '3 2 "right"', "$EndPhysicalNames", "$Nodes", str(len(nodes))]
out += [f"{i + 1} {x!r} {y!r} {z!r}" for i, (x, y, z) in enumerate(nodes)]
out += ["$EndNodes", "$Elements", str(len(cells))]
out += [f"{e + 1} 5 2 {t} {t} " + " ".join(map(str, c)) for e, (t, c) in enumerate(cells)]
out += ["$EndElements"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
cat > "$work/fused.yaml" <<EOF
mesh: {file: $work/fused.msh}
materials:
  - {region: left, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
  - {region: right, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}
contact:
  walls:
    - {name: far, region: left, plane: {point: [-1, 0, 0], normal: [1, 0, 0]}}
time: {integrator: central_difference, mass: lumped, dt: auto, steps: 2}
output: {directory: $work/fused, every: 0}
EOF
for np in 1 2 3; do
  run $np "$work/fused.yaml"
  grep -q "^contact   rigid wall 'far' (plane) on region 'left': 25 nodes" "$work/last.log" ||
    { cat "$work/last.log"; echo "FAIL: np $np: the skin of a part fused to another"; exit 1; }
done
echo "part-based contact surfaces: pairs and walls on volumes equal to their faces, fused parts, np 1, 2, 3"
