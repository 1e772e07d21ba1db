#!/usr/bin/env bash
# output.fields: [nodal_state] (examples/guide/outputs.md): every point-state variable averaged at
# the nodes as nodal_stress is (the cell averages of `state`, weighted by the cells' volumes, over
# the term's cells around each node only), point arrays nodal_<variable>.<component>. Checked:
# - (a) the plasticity.sh bar under uniform strain (1, 2, 3 ranks): every node's nodal equivalent
#   plastic strain equals the cells' (all equal, > 0) to 1e-12 (measured 9e-14);
# - (b) a cantilever bent into the plastic range on a graded Gmsh mesh (12 x 2 x 2 hex8 B-bar, no
#   two neighbouring cells of the same volume), plastic near the root and elastic (no state) near
#   the tip: at every node of every piece (owned and ghost copies) every array equals the
#   volume-weighted mean, computed here from the cell arrays of `state`, of the plastic cells
#   around it (exactly 0 at nodes of none) to 1e-12 of the array's largest value (5e-16), on 1, 2
#   and 3 ranks. The check has teeth: the unweighted mean differs by 0.29, and nodes on the
#   plastic/elastic interface and nodes whose plastic cells lie on two ranks exist (averages
#   without the ghosts' sums miss by 0.05 and 0.15);
# - (c) np 2 and 3 against np 1 node by node (matched by position): the solves differ by
#   round-off (the cells' arrays by up to 1e-11 of their largest value), which a node can only
#   carry over: its difference is at most its plastic cells' largest plus 1e-14 (1.9e-16), and
#   1e-10 of the array's largest value (9e-12);
# - (d) output.format: xdmf (np 1 and 3) names the same point and cell arrays as the .vtu; its HDF5
#   file holds the np-1 .vtu's nodal arrays in natural node order, bit for bit, and at the same
#   offsets the np-3 file the np-3 .vtu's to 1e-10 (2e-12; found by their bytes: no HDF5 reader
#   needed); with pvpython, check_xdmf.py also compares the np-3 series with the np-3 .pvd;
# - a case without state: nodal_state writes nothing, as `state` does; --help lists it.
set -euo pipefail
: "${INERTIA:?}" "${INERTIA_SOURCE_DIR:?}"
source "$(dirname "${BASH_SOURCE[0]}")/../support/e2e.sh"

"$INERTIA" --help all > "$work/help.txt"
grep -q "^  nodal_state " "$work/help.txt" || { echo "FAIL: --help does not list nodal_state"; exit 1; }

# (a) The bar of plasticity.sh pulled to 3.2 yield strains (uniform strain, plastic), and the
# same bar elastic (no point state).
bar() {  # bar FILE DIR FIELDS MATERIAL_KEYS
  cat > "$1" <<EOF
mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}}
materials:
  - {region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, $4}
boundary_conditions:
  - {region: xmin, type: displacement, components: [x], value: [0]}
  - {region: ymin, type: displacement, components: [y], value: [0]}
  - {region: zmin, type: displacement, components: [z], value: [0]}
  - {region: xmax, type: displacement, components: [x], value: [0.004]}
time: {integrator: static, dt: 0.5, steps: 2}
output: {directory: $2, every: 2, fields: $3}
EOF
}
for np in 1 2 3; do
  bar "$work/bar$np.yaml" "bar$np" "[state, nodal_state]" \
    "plasticity: {yield_stress: 2.5e8, isotropic_hardening: 4.0e9, kinematic_hardening: 6.0e9}"
  run "$np" "$work/bar$np.yaml"
done
bar "$work/elastic.yaml" elastic "[displacement, nodal_state]" "formulation: full"
run 1 "$work/elastic.yaml"

# (b)-(d) The graded two-material cantilever: nodes in file order (x fastest), which is the
# natural order of the XDMF output.
python3 - "$work/beam.msh" <<'PY'
import sys
r, n = 1.2, 12
xs = [(r ** i - 1) / (r ** n - 1) for i in range(n + 1)]
ys, zs = [0.0, 0.04, 0.1], [0.0, 0.065, 0.1]
nx, ny, nz = len(xs), len(ys), len(zs)
def node(i, j, k):
    return 1 + i + nx * (j + ny * k)
lines, e = [], 0
for i, name in ((0, 2), (n, 3)):  # the quads of x = 0 (xmin) and x = 1 (tip)
    for k in range(nz - 1):
        for j in range(ny - 1):
            e += 1
            lines.append(f"{e} 3 2 {name} {name} {node(i, j, k)} {node(i, j + 1, k)} "
                         f"{node(i, j + 1, k + 1)} {node(i, j, k + 1)}")
for k in range(nz - 1):
    for j in range(ny - 1):
        for i in range(n):
            e += 1
            tag = 4 if i < 7 else 5  # plastic near the root, elastic near the tip
            lines.append(f"{e} 5 2 {tag} {tag} {node(i, j, k)} {node(i + 1, j, k)} "
                         f"{node(i + 1, j + 1, k)} {node(i, j + 1, k)} {node(i, j, k + 1)} "
                         f"{node(i + 1, j, k + 1)} {node(i + 1, j + 1, k + 1)} {node(i, j + 1, k + 1)}")
with open(sys.argv[1], "w") as o:
    o.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n4\n"
            '2 2 "xmin"\n2 3 "tip"\n3 4 "plastic"\n3 5 "elastic"\n$EndPhysicalNames\n')
    o.write(f"$Nodes\n{nx * ny * nz}\n")
    o.write("".join(f"{node(i, j, k)} {xs[i]!r} {ys[j]!r} {zs[k]!r}\n"
                    for k in range(nz) for j in range(ny) for i in range(nx)))
    o.write(f"$EndNodes\n$Elements\n{len(lines)}\n" + "\n".join(lines) + "\n$EndElements\n")
PY
beam() {  # beam DIR FORMAT
  cat > "$work/$1.yaml" <<EOF
mesh: {file: beam.msh}
materials:
  - {region: plastic, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: bbar,
     plasticity: {yield_stress: 2.5e8, isotropic_hardening: 4.0e9}}
  - {region: elastic, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, formulation: bbar}
boundary_conditions:
  - {region: xmin, type: fixed}
  - {region: tip, type: displacement, components: [z], value: [-0.04]}
time: {integrator: static, dt: 0.5, steps: 2}
output: {directory: $1, format: $2, every: 2, fields: [state, nodal_state, region]}
EOF
}
for np in 1 2 3; do
  beam "beam$np" vtu
  run "$np" "$work/beam$np.yaml"
done
for np in 1 3; do
  beam "xdmf$np" xdmf
  run "$np" "$work/xdmf$np.yaml"
done

python3 - "$work" <<'PY'
import glob, re, struct, sys, zlib
work = sys.argv[1]
failed = []
def check(what, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {detail}")
    if not ok:
        failed.append(what)

TAG = re.compile(r'<(/?)(PointData|CellData|Points|Cells)\b|<DataArray type="(\w+)" Name="([^"]+)"'
                 r'(?: NumberOfComponents="(\d+)")?[^>]*? offset="(\d+)"')
def read_vtu(path):
    """{"point"|"cell"|"points"|"cells": {name: values}} of one piece (names with dots too; a
    point and a cell array may share a name). Vectors as tuples."""
    raw = open(path, "rb").read()
    start = raw.index(b'<AppendedData encoding="raw">')
    base = raw.index(b"_", start) + 1
    out, section = {"point": {}, "cell": {}, "points": {}, "cells": {}}, None
    for m in TAG.finditer(raw[:start].decode()):
        if m.group(2):
            section = None if m.group(1) else {"PointData": "point", "CellData": "cell",
                                                "Points": "points", "Cells": "cells"}[m.group(2)]
            continue
        kind, name, comps, p = m.group(3), m.group(4), int(m.group(5) or 1), base + int(m.group(6))
        blocks = struct.unpack_from("<Q", raw, p)[0]
        sizes = struct.unpack_from(f"<{3 + blocks}Q", raw, p)[3:]
        p += 8 * (3 + blocks)
        data = b""
        for s in sizes:
            data += zlib.decompress(raw[p:p + s])
            p += s
        code = {"Float64": "d", "Int64": "q", "Int32": "i", "UInt8": "B"}[kind]
        v = struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}", data)
        out[section][name] = [v[i:i + comps] for i in range(0, len(v), comps)] if comps > 1 else list(v)
    return out

def pieces(d):
    frame = sorted(glob.glob(f"{work}/{d}/*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu"))[-1]
    return [read_vtu(p) for p in sorted(glob.glob(frame[:-len(".pvtu")] + "/piece_*.vtu"))]

def key(x):
    return tuple(round(c, 9) for c in x)

# (a) The bar: uniform strain.
[bar] = pieces("bar1")
cell_names = sorted(n for n in bar["cell"] if n.startswith("plasticity."))
point_names = sorted(n for n in bar["point"] if n.startswith("nodal_plasticity."))
check("bar: a point array nodal_<name> per cell array <name> of state, and no other",
      point_names == sorted("nodal_" + n for n in cell_names) and len(cell_names) >= 26
      and sorted(bar["point"]) == point_names, f"{len(point_names)} arrays")
a = bar["cell"]["plasticity.equivalent_plastic_strain"][0]
for np in (1, 2, 3):
    ps = pieces(f"bar{np}")
    cells = [v for p in ps for v in p["cell"]["plasticity.equivalent_plastic_strain"]]
    nodal = [v for p in ps for v in p["point"]["nodal_plasticity.equivalent_plastic_strain"]]
    check(f"bar np {np}: the cells' equivalent plastic strain uniform and plastic",
          len(ps) == np and a > 1e-3 and max(abs(c - a) for c in cells) <= 1e-12 * a, f"{a:.6g}")
    err = max(abs(v - a) for v in nodal) / a
    check(f"bar np {np}: every node's nodal equivalent plastic strain / the np-1 cells', "
          "largest error", len(nodal) >= 20 and err <= 1e-12, f"{err:.2e} over {len(nodal)} points")
[el] = pieces("elastic")
check("elastic bar (no state): nodal_state writes nothing", sorted(el["point"]) == ["displacement"]
      and not el["cell"], f"point arrays {sorted(el['point'])}, cell arrays {sorted(el['cell'])}")

# (b) The cantilever: the volume-weighted mean of the plastic cells around each node.
names = cell_names
PLASTIC = 4
def expected(ps):
    """Per node (position): per array the weighted mean, the unweighted mean; the plastic cells'
    pieces; whether an elastic cell touches it. Every cell must be in exactly one piece."""
    seen, at = set(), {}
    for r, p in enumerate(ps):
        pts, conn, off = p["points"]["Points"], p["cells"]["connectivity"], p["cells"]["offsets"]
        for c in range(len(off)):
            xyz = [pts[i] for i in conn[(off[c - 1] if c else 0):off[c]]]
            nodes = [key(x) for x in xyz]
            cid = tuple(sorted(nodes))
            assert cid not in seen, f"cell {cid} in two pieces"
            seen.add(cid)
            plastic = p["cell"]["region"][c] == PLASTIC
            vol = 1.0
            for d in range(3):
                vol *= max(x[d] for x in xyz) - min(x[d] for x in xyz)
            for x in nodes:
                e = at.setdefault(x, {"w": 0.0, "n": 0, "sw": [0.0] * len(names),
                                      "s": [0.0] * len(names), "ranks": set(), "elastic": False})
                if not plastic:
                    e["elastic"] = True
                    continue
                e["w"] += vol
                e["n"] += 1
                e["ranks"].add(r)
                for k, name in enumerate(names):
                    v = p["cell"][name][c]
                    e["sw"][k] += vol * v
                    e["s"][k] += v
    return at

scale = {}
runs = {np: pieces(f"beam{np}") for np in (1, 2, 3)}
for k, name in enumerate(names):
    scale[name] = max(abs(v) for p in runs[1] for v in p["cell"][name])
eq = names.index("plasticity.equivalent_plastic_strain")
for np, ps in runs.items():
    at = expected(ps)
    worst, unweighted, checked = 0.0, 0.0, 0
    for p in ps:
        for i, x in enumerate(p["points"]["Points"]):
            e = at[key(x)]
            for k, name in enumerate(names):
                got = p["point"]["nodal_" + name][i]
                want = e["sw"][k] / e["w"] if e["w"] else 0.0
                if scale[name] == 0 or not e["w"]:
                    ok = got == want
                    worst = max(worst, 0.0 if ok else float("inf"))
                else:
                    worst = max(worst, abs(got - want) / scale[name])
                    unweighted = max(unweighted, abs(e["s"][k] / e["n"] - want) / scale[name])
                checked += 1
    check(f"np {np}: every node of every piece, every array against the weighted mean, "
          "largest error / the array's largest value", worst <= 1e-12,
          f"{worst:.2e} ({checked} values, {sum(len(p['points']['Points']) for p in ps)} points)")
    check(f"np {np}: the unweighted mean would differ by", unweighted > 1e-3, f"{unweighted:.3g}")
    interface = sum(1 for e in at.values() if e["w"] and e["elastic"])
    elastic_only = sum(1 for e in at.values() if not e["w"])
    check(f"np {np}: nodes on the plastic/elastic interface, nodes of elastic cells only",
          interface > 0 and elastic_only > 0, f"{interface}, {elastic_only}")
    if np > 1:
        split = sum(1 for e in at.values() if len(e["ranks"]) > 1)
        check(f"np {np}: nodes whose plastic cells lie on two ranks or more", split > 0, f"{split}")
plastic_cells = sum(1 for p in runs[1] for v in p["cell"]["plasticity.equivalent_plastic_strain"] if v > 0)
check("the cantilever yields (plastic cells of 28)", 4 <= plastic_cells < 28, f"{plastic_cells}")

# (c) np 2 and 3 against np 1, node by node. The solves on 2 and 3 ranks differ from np 1's by
# round-off (the cells' arrays by up to ~1e-11 of their largest value), which the average can
# only carry over: a node's difference is at most its plastic cells' largest (to 1e-14), and
# 1e-10 of the array's largest value at most.
def by_node(ps):
    out = {}
    for p in ps:
        for i, x in enumerate(p["points"]["Points"]):
            out.setdefault(key(x), []).append([p["point"]["nodal_" + n][i] for n in names])
    return out
def by_cell(ps):
    out = {}
    for p in ps:
        pts, conn, off = p["points"]["Points"], p["cells"]["connectivity"], p["cells"]["offsets"]
        for c in range(len(off)):
            nodes = tuple(sorted(key(pts[i]) for i in conn[(off[c - 1] if c else 0):off[c]]))
            if p["cell"]["region"][c] == PLASTIC:
                out[nodes] = [p["cell"][n][c] for n in names]
    return out
one, cells_one = by_node(runs[1]), by_cell(runs[1])
def relative(d, name):
    return d / scale[name] if scale[name] else (0.0 if d == 0 else float("inf"))
for np in (2, 3):
    other, cells_other = by_node(runs[np]), by_cell(runs[np])
    bound = {}  # per node and array: the largest difference of its plastic cells
    for c, values in cells_other.items():
        for x in c:
            b = bound.setdefault(x, [0.0] * len(names))
            for k in range(len(names)):
                b[k] = max(b[k], abs(values[k] - cells_one[c][k]))
    worst = worst_cells = excess = 0.0
    for x, copies in other.items():
        for values in copies:
            for k, name in enumerate(names):
                d = abs(values[k] - one[x][0][k])
                worst = max(worst, relative(d, name))
                b = bound.get(x, [0.0] * len(names))[k]
                worst_cells = max(worst_cells, relative(b, name))
                excess = max(excess, relative(max(0.0, d - b), name))
    check(f"np {np} against np 1, every node and array: largest difference / largest value "
          "(the cells': " + f"{worst_cells:.2e}), beyond its cells'", set(other) == set(one)
          and worst <= 1e-10 and excess <= 1e-14, f"{worst:.2e}, {excess:.2e}")

# (d) XDMF: the same arrays as the .vtu; their values in the HDF5 file, which stores each dataset
# contiguously, the nodes in natural order (the mesh file's): at np 1 found by the bytes of the
# np-1 .vtu's (the same solve: bit for bit), at np 3 read at the same offsets (the np-3 file has
# the same layout: its geometry at the same offset) and compared with the np-3 .vtu's (another
# solve on 3 ranks, which may differ by round-off: ghost sums arrive in any order).
msh = open(f"{work}/beam.msh").read()
body = msh.split("$Nodes\n")[1].split("$EndNodes")[0].split("\n")[1:]
coords = [tuple(float(t) for t in line.split()[1:]) for line in body if line.strip()]
natural = [key(x) for x in coords]
geometry = struct.pack(f"<{3 * len(coords)}d", *(c for x in coords for c in x))
h5 = {}
for np in (1, 3):
    xml = open(f"{work}/xdmf{np}/xdmf{np}.xdmf").read()
    last = xml.split("<Grid Name=\"step_")[-1]
    attrs = re.findall(r'<Attribute Name="([^"]+)" AttributeType="\w+" Center="(\w+)"', last)
    got = (sorted(n for n, c in attrs if c == "Node"), sorted(n for n, c in attrs if c == "Cell"))
    want = (sorted(runs[np][0]["point"]), sorted(runs[np][0]["cell"]))
    check(f"xdmf np {np}: the .vtu's point and cell arrays", got == want,
          f"{len(got[0])} point, {len(got[1])} cell arrays")
    h5[np] = open(f"{work}/xdmf{np}/xdmf{np}.h5", "rb").read()
at = h5[1].find(geometry)
check("xdmf: the geometry in natural order, at the same offset at np 1 and 3",
      at > 0 and h5[3].find(geometry) == at, f"offset {at}")
blobs = [struct.pack(f"<{len(natural)}d", *(one[x][0][k] for x in natural))
         for k in range(len(names))]
offsets = [h5[1].rfind(b) for b in blobs]  # rfind: the last frame's
check("xdmf np 1: the .vtu's nodal arrays, bit for bit", min(offsets) > 0,
      f"{sum(o > 0 for o in offsets)} of {len(names)} ({len(set(blobs))} distinct)")
three, worst = by_node(runs[3]), 0.0
for k, name in enumerate(names):
    values = struct.unpack_from(f"<{len(natural)}d", h5[3], max(offsets[k], 0))
    for x, v in zip(natural, values):
        worst = max(worst, relative(abs(v - three[x][0][k]), name))
check("xdmf np 3: the np-3 .vtu's nodal arrays, largest difference / largest value",
      worst <= 1e-10, f"{worst:.2e}")
if failed:
    sys.exit(f"nodal_state: {len(failed)} check(s) failed: {failed}")
PY

# With ParaView: the np-3 XDMF series against the np-3 .pvd, every point and cell array (1e-10:
# two solves on 3 ranks, which differ by round-off).
pv_status=0
(
  source "$INERTIA_SOURCE_DIR/tests/support/pvpython.sh"
  find_pvpython "nodal_state XDMF check"
  "${pv[@]}" "$INERTIA_SOURCE_DIR/tests/support/check_xdmf.py" "$work/xdmf3/xdmf3.xdmf" \
    --pvd "$work/beam3/beam3.pvd" --steps 2 --points 117 --cells 48 --tol 1e-10
) || pv_status=1
[ "$pv_status" = 0 ] || { echo "FAIL: check_xdmf.py"; exit 1; }
finish
