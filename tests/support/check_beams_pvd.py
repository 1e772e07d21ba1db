#!/usr/bin/env pvpython
"""Opens a beam model's .pvd (or .xdmf) as a ParaView user would and checks what it shows.

    xvfb-run -a pvpython check_beams_pvd.py FILE.pvd --beams N [--root-my VALUE] [--nodes N]
        [--arrays a,b] [--at X,Y,Z --rotation RX,RY,RZ --displacement UX,UY,UZ]

Checks, at the last time step: the N beams are VTK_LINE cells (2 points each), the cell array
section_forces has 12 components, and the largest |My| at an end (components 4 and 10) equals
VALUE to 1e-9 relative (a cantilever: P L at its root). With --nodes: the points are the mesh's
nodes and nothing else, N distinct positions (the pieces' shared nodes counted once), and the
points at one position carry the same displacement (a beam node's rotations are its point array
`rotation`, never a second point at its place whose `displacement` holds radians; and `rotation`
is not zero everywhere). --vector: the translations' array (mode_shape); --no-section-forces: a
series without them (mode shapes). --arrays: point
arrays that must be present. --at: the point there has that `rotation` and `displacement` (a
probe's values) to 1e-12 relative to their largest component, the same in every piece. Then the guide's recipe runs on the
series: Warp By Vector, Extract Surface, Tube. Prints one line; exits 0 if all is well, 1 on a
mismatch, 2 without ParaView.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import open_series  # noqa: E402  (puts ParaView's own vtkmodules first)


def key_of(p):
    return tuple(round(c, 9) for c in p)


rotations = {}  # position -> the set of the point array rotation's tuples there (point_values)


def point_values(data, vector):
    """Per position (to 1e-9): the set of `vector` tuples of the points there, over every
    piece; the rotations by position in `rotations`."""
    blocks = []
    if data.IsA("vtkCompositeDataSet"):
        it = data.NewIterator()
        it.InitTraversal()
        while not it.IsDoneWithTraversal():
            blocks.append(it.GetCurrentDataObject())
            it.GoToNextItem()
    else:
        blocks.append(data)
    out = {}
    for block in blocks:
        u = block.GetPointData().GetArray(vector)
        r = block.GetPointData().GetArray("rotation")
        for i in range(block.GetNumberOfPoints()):
            k = key_of(block.GetPoint(i))
            out.setdefault(k, set()).add(u.GetTuple(i) if u else None)
            rotations.setdefault(k, set()).add(r.GetTuple(i) if r else None)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd")
    parser.add_argument("--beams", type=int, required=True)
    parser.add_argument("--root-my", type=float)
    parser.add_argument("--nodes", type=int, help="the mesh's node count")
    parser.add_argument("--arrays", default="", help="point arrays that must be present")
    parser.add_argument("--at", help="X,Y,Z of a node whose values are given")
    parser.add_argument("--rotation", help="RX,RY,RZ expected at --at")
    parser.add_argument("--displacement", help="UX,UY,UZ expected at --at")
    parser.add_argument("--vector", default="displacement",
                        help="the translations' point array (mode_shape in a modes series)")
    parser.add_argument("--no-section-forces", action="store_true",
                        help="a series without section_forces (mode shapes)")
    a = parser.parse_args()
    opened = open_series("check_beams_pvd", a.pvd)
    if isinstance(opened, int):
        return opened
    servermanager, simple, reader, times = opened
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(times[-1])
    data = servermanager.Fetch(merged)
    problems = []
    # VTK_LINE; XDMF's polyline of 2 points comes as VTK_POLY_LINE (4)
    lines = [c for c in range(data.GetNumberOfCells()) if data.GetCellType(c) in (3, 4)]
    if len(lines) != a.beams or any(data.GetCell(c).GetNumberOfPoints() != 2 for c in lines):
        problems.append(f"{len(lines)} VTK_LINE cells of 2 points, expected {a.beams}")
    forces = data.GetCellData().GetArray("section_forces")
    if a.no_section_forces:
        pass
    elif forces is None or forces.GetNumberOfComponents() != 12:
        problems.append("no 12-component cell array section_forces")
    elif a.root_my is not None:
        my = max((abs(forces.GetComponent(c, k)) for c in lines for k in (4, 10)), default=0)
        if abs(my - abs(a.root_my)) > 1e-9 * abs(a.root_my):
            problems.append(f"largest |My| {my}, expected {abs(a.root_my)}")
    pd = data.GetPointData()
    for name in filter(None, a.arrays.split(",")):
        if pd.GetArray(name) is None:
            problems.append(f"no point array {name}")
    reader.UpdatePipeline(times[-1])
    points = point_values(servermanager.Fetch(reader), a.vector)
    if a.nodes is not None:
        if len(points) != a.nodes:
            problems.append(f"{len(points)} point positions, expected the mesh's {a.nodes} nodes")
        twins = [k for k, v in points.items() if len(v) > 1]
        if twins:
            problems.append(f"{len(twins)} positions hold points with different displacements "
                            f"(e.g. {twins[0]}: {sorted(points[twins[0]])[:2]})")
    if a.at:
        at = key_of([float(x) for x in a.at.split(",")])
        if at not in points:
            problems.append(f"no point at {a.at}")
        else:
            for name in ("rotation", "displacement"):
                want = getattr(a, name)
                if want is None:
                    continue
                want = [float(x) for x in want.split(",")]
                have = points[at] if name == "displacement" else rotations[at]
                if len(have) != 1:
                    problems.append(f"the pieces' points at {a.at} disagree on {name}: {have}")
                    continue
                have = next(iter(have))
                scale = max(abs(x) for x in want) or 1.0
                if have is None or max(abs(x - y) for x, y in zip(have, want)) > 1e-12 * scale:
                    problems.append(f"{name} at {a.at} is {have}, expected {want}")
    if a.nodes is not None and not any(r and any(r) for v in rotations.values() for r in v):
        problems.append("the point array rotation is zero everywhere")
    warped = simple.WarpByVector(Input=merged, Vectors=["POINTS", a.vector])
    surface = simple.ExtractSurface(Input=warped)  # Tube takes polydata
    tube = simple.Tube(Input=surface, Radius=0.05)
    tube.UpdatePipeline(times[-1])
    if servermanager.Fetch(tube).GetNumberOfPoints() == 0:
        problems.append("the Tube filter made nothing")
    name = os.path.basename(a.pvd)
    if problems:
        print(f"check_beams_pvd: FAIL {name}: " + "; ".join(problems))
        return 1
    said = [f"{a.beams} beams as lines" + ("" if a.no_section_forces else ", section_forces")]
    if a.root_my is not None:
        said.append(f"root |My| {abs(a.root_my):g}")
    if a.nodes is not None:
        said.append(f"{a.nodes} points, one displacement per position")
    if a.arrays:
        said.append(f"point arrays {a.arrays}")
    if a.at:
        said.append(f"rotation and displacement at ({a.at}) to 1e-12")
    print(f"check_beams_pvd: ok {name}: " + ", ".join(said) +
          "; Warp By Vector, Extract Surface and Tube run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
