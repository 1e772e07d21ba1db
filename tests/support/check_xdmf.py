#!/usr/bin/env pvpython
"""Opens an inertia .xdmf series (output.format: xdmf) with ParaView's Xdmf3 reader and compares
it with the .pvd series of the same case run with output.format: vtu.

    xvfb-run -a pvpython check_xdmf.py FILE.xdmf --pvd FILE.pvd --steps N --points P --cells C

Checks: the series has N time steps, at the same times as the .pvd; the last step has P points and
C cells; every point array of the .pvd's last step is in the .xdmf with the same values per point
(points matched by position) to --tol; every cell array likewise (cells matched by type and node
positions), and each cell's nodes come in the same order (VTK's), so tet10's mid-side nodes sit
where they should; each tet10's mid-side nodes are the midpoints of edges (0,1), (1,2), (2,0),
(0,3), (1,3), (2,3) of its corners (the meshes checked have straight edges).
Prints one summary line; exits 0 if all is well, 1 on any mismatch, 2 if ParaView is missing.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import open_series  # noqa: E402  (puts ParaView's own vtkmodules first)

VTK_QUADRATIC_TETRA = 24
TET10_EDGES = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]


def leaves(data):
    """The vtkDataSets of a (possibly composite) data object."""
    if data.IsA("vtkCompositeDataSet"):
        it = data.NewIterator()
        it.InitTraversal()
        while not it.IsDoneWithTraversal():
            yield it.GetCurrentDataObject()
            it.GoToNextItem()
    else:
        yield data


def key_of(p, scale):
    return tuple(round(c / scale, 6) for c in p)


def tables(data, scale):
    """Per point position: the point arrays' tuples; per cell (type and sorted node positions):
    the ordered node positions and the cell arrays' tuples; and the counts of points and cells."""
    points, cells, n_points, n_cells = {}, {}, 0, 0
    for block in leaves(data):
        n_points += block.GetNumberOfPoints()
        n_cells += block.GetNumberOfCells()
        pd, cd = block.GetPointData(), block.GetCellData()
        parrays = [pd.GetArray(i) for i in range(pd.GetNumberOfArrays())]
        carrays = [cd.GetArray(i) for i in range(cd.GetNumberOfArrays())]
        for i in range(block.GetNumberOfPoints()):
            points[key_of(block.GetPoint(i), scale)] = {
                a.GetName(): a.GetTuple(i) for a in parrays if a is not None
            }
        for c in range(block.GetNumberOfCells()):
            ids = block.GetCell(c).GetPointIds()
            xyz = [block.GetPoint(ids.GetId(k)) for k in range(ids.GetNumberOfIds())]
            ordered = tuple(key_of(p, scale) for p in xyz)
            # XDMF's polyvertex and polyline: VTK's poly vertex and poly line, one point and two
            # points here (the same picture as the .vtu's vertex and line)
            cell_type = {2: 1, 4: 3}.get(block.GetCellType(c), block.GetCellType(c))
            key = (cell_type, tuple(sorted(ordered)))
            cells[key] = (ordered, xyz, {a.GetName(): a.GetTuple(c) for a in carrays if a})
    return points, cells, n_points, n_cells


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xdmf")
    parser.add_argument("--pvd", required=True, help="the same case's VTK series")
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--points", type=int, required=True, help="nodes of the mesh")
    parser.add_argument("--cells", type=int, required=True, help="cells of the output")
    parser.add_argument("--tol", type=float, default=1e-12,
                        help="largest |difference| allowed, relative to the array's largest value")
    parser.add_argument("--ignore", default="", help="arrays not compared (comma-separated)")
    parser.add_argument("--scale", type=float, default=1e-6, help="position matching resolution")
    args = parser.parse_args()
    label = os.path.basename(args.xdmf)

    opened = open_series("check_xdmf", args.xdmf)
    if isinstance(opened, int):
        return opened
    servermanager, simple, reader, times = opened
    ref = open_series("check_xdmf", args.pvd)
    if isinstance(ref, int):
        return ref
    _, _, ref_reader, ref_times = ref
    problems = []
    if len(times) != args.steps:
        problems.append(f"{len(times)} time steps, expected {args.steps}")
    if len(times) != len(ref_times) or any(abs(a - b) > 1e-15 * max(1, abs(b))
                                           for a, b in zip(times, ref_times)):
        problems.append(f"times {times} differ from the .pvd's {ref_times}")
    if not times:
        print(f"check_xdmf: FAIL {label}: " + "; ".join(problems))
        return 1
    reader.UpdatePipeline(times[-1])
    ref_reader.UpdatePipeline(ref_times[-1])
    xp, xc, n_points, n_cells = tables(servermanager.Fetch(reader), args.scale)
    rp, rc, _, _ = tables(servermanager.Fetch(ref_reader), args.scale)
    if n_points != args.points:
        problems.append(f"{n_points} points, expected {args.points}")
    if n_cells != args.cells:
        problems.append(f"{n_cells} cells, expected {args.cells}")
    if len(xp) != n_points:
        problems.append(f"{n_points - len(xp)} points at the position of another")

    worst, largest = {}, {}  # array -> largest difference, largest |value|

    def compare(kind, name, a, b):
        d = max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else float("inf")
        worst[(kind, name)] = max(worst.get((kind, name), 0.0), d)
        largest[(kind, name)] = max([largest.get((kind, name), 0.0)] + [abs(x) for x in a])

    missing = set()
    for key, arrays in rp.items():
        if key not in xp:
            missing.add(f"point at {key}")
            continue
        for name, value in arrays.items():
            if name not in xp[key]:
                missing.add(f"point array {name}")
            else:
                compare("point", name, value, xp[key][name])
    for key, (ordered, _, arrays) in rc.items():
        if key not in xc:
            missing.add(f"cell of type {key[0]}")
            continue
        if xc[key][0] != ordered:
            problems.append(f"a cell of type {key[0]} has its nodes in another order")
        for name, value in arrays.items():
            if name not in xc[key][2]:
                missing.add(f"cell array {name}")
            else:
                compare("cell", name, value, xc[key][2][name])
    for name in filter(None, args.ignore.split(",")):
        for kind in ("point", "cell"):
            worst.pop((kind, name), None)
    problems += sorted(f"missing {m}" for m in missing)
    problems += [f"{kind} array {name} differs by {d:.3g} (largest value {largest[(kind, name)]:.3g})"
                 for (kind, name), d in worst.items() if d > args.tol * max(largest[(kind, name)], 1e-300)]

    tet10 = 0
    for (cell_type, _), (_, xyz, _) in xc.items():
        if cell_type != VTK_QUADRATIC_TETRA:
            continue
        tet10 += 1
        for k, (a, b) in enumerate(TET10_EDGES):
            mid = [(xyz[a][i] + xyz[b][i]) / 2 for i in range(3)]
            if max(abs(mid[i] - xyz[4 + k][i]) for i in range(3)) > 1e-9:
                problems.append(f"a tet10's node {4 + k} is not the midpoint of edge {a}-{b}")
                break
        if len(problems) > 20:
            break
    if problems:
        print(f"check_xdmf: FAIL {label}: " + "; ".join(problems[:20]))
        return 1
    compared = ", ".join(f"{n} {d:.1g} (of {largest[(k, n)]:.1g})"
                         for (k, n), d in sorted(worst.items()))
    print(f"check_xdmf: ok {label}: {len(times)} steps, {n_points} points, {n_cells} cells "
          f"({tet10} tet10 mid-side nodes checked); largest differences from the .pvd: {compared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
