#!/usr/bin/env pvpython
"""Opens a beam model's .pvd as a ParaView user would and checks what it shows.

    xvfb-run -a pvpython check_beams_pvd.py FILE.pvd --beams N --root-my VALUE

Checks, at the last time step: the N beams are VTK_LINE cells (2 points each), the cell array
section_forces has 12 components, and the largest |My| at an end (components 4 and 10) equals
VALUE to 1e-9 relative (a cantilever: P L at its root). Then the guide's recipe runs on the series:
Warp By Vector, Extract Surface, Tube. Prints one line; exits 0 if all is well, 1 on a mismatch, 2 without ParaView.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import open_series  # noqa: E402  (puts ParaView's own vtkmodules first)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd")
    parser.add_argument("--beams", type=int, required=True)
    parser.add_argument("--root-my", type=float, required=True)
    a = parser.parse_args()
    opened = open_series("check_beams_pvd", a.pvd)
    if isinstance(opened, int):
        return opened
    servermanager, simple, reader, times = opened
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(times[-1])
    data = servermanager.Fetch(merged)
    problems = []
    lines = [c for c in range(data.GetNumberOfCells()) if data.GetCellType(c) == 3]
    if len(lines) != a.beams or any(data.GetCell(c).GetNumberOfPoints() != 2 for c in lines):
        problems.append(f"{len(lines)} VTK_LINE cells of 2 points, expected {a.beams}")
    forces = data.GetCellData().GetArray("section_forces")
    if forces is None or forces.GetNumberOfComponents() != 12:
        problems.append("no 12-component cell array section_forces")
    else:
        my = max((abs(forces.GetComponent(c, k)) for c in lines for k in (4, 10)), default=0)
        if abs(my - abs(a.root_my)) > 1e-9 * abs(a.root_my):
            problems.append(f"largest |My| {my}, expected {abs(a.root_my)}")
    warped = simple.WarpByVector(Input=merged, Vectors=["POINTS", "displacement"])
    surface = simple.ExtractSurface(Input=warped)  # Tube takes polydata
    tube = simple.Tube(Input=surface, Radius=0.05)
    tube.UpdatePipeline(times[-1])
    if servermanager.Fetch(tube).GetNumberOfPoints() == 0:
        problems.append("the Tube filter made nothing")
    name = os.path.basename(a.pvd)
    if problems:
        print(f"check_beams_pvd: FAIL {name}: " + "; ".join(problems))
        return 1
    print(f"check_beams_pvd: ok {name}: {a.beams} beams as lines, section_forces with root "
          f"|My| {abs(a.root_my):g}, Warp By Vector, Extract Surface and Tube run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
