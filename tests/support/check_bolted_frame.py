#!/usr/bin/env pvpython
"""The column feet of examples/bolted_frame in its frames, as ParaView reads them.

    xvfb-run -a pvpython check_bolted_frame.py FILE.pvd --load P --height H --half-span C
        --foot-z Z

At the last time step, the two beam cells with an end at height Z (the columns' feet) carry, by
the frame's symmetry about x = 0 under a horizontal load P at the girder's middle (antisymmetric),
the shear P/2 each; and the frame above the feet is in equilibrium: P H = |M_left| + |M_right| +
C (|N_left| + |N_right|) (the feet's bending moments and the axial forces' couple). Both to 1e-6
relative; the cell arrays von_mises (the block) and section_forces are there. Prints one line;
exits 0 if all is well, 1 on a mismatch, 2 without ParaView.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import last_frame, open_series  # noqa: E402  (puts ParaView's own vtkmodules first)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd")
    parser.add_argument("--load", type=float, required=True)
    parser.add_argument("--height", type=float, required=True, help="load's height over the feet")
    parser.add_argument("--half-span", type=float, required=True)
    parser.add_argument("--foot-z", type=float, required=True)
    a = parser.parse_args()
    opened = open_series("check_bolted_frame", a.pvd)
    if isinstance(opened, int):
        return opened
    data = last_frame(opened)
    forces = data.GetCellData().GetArray("section_forces")
    name = os.path.basename(a.pvd)
    if forces is None or data.GetCellData().GetArray("von_mises") is None:
        print(f"check_bolted_frame: FAIL {name}: no cell arrays section_forces and von_mises")
        return 1
    feet = []  # (x of the foot, the section forces at the foot's end)
    for c in range(data.GetNumberOfCells()):
        if data.GetCellType(c) not in (3, 4):  # VTK_LINE, or XDMF's 2-point VTK_POLY_LINE
            continue
        ids = data.GetCell(c).GetPointIds()
        for end in range(2):
            x, _, z = data.GetPoint(ids.GetId(end))
            if abs(z - a.foot_z) < 1e-9:
                feet.append((x, [forces.GetComponent(c, 6 * end + k) for k in range(6)]))
    if len(feet) != 2:
        print(f"check_bolted_frame: FAIL {name}: {len(feet)} beam ends at z = {a.foot_z}, expected 2")
        return 1
    feet.sort()
    problems, said = [], []
    shear = [math.hypot(f[1], f[2]) for _, f in feet]
    moment = [math.hypot(f[4], f[5]) for _, f in feet]
    axial = [abs(f[0]) for _, f in feet]
    for side, v in zip(("left", "right"), shear):
        if abs(v / (a.load / 2) - 1) > 1e-6:
            problems.append(f"the {side} foot's shear {v:.9g}, expected P/2 = {a.load / 2:.9g}")
    resisting = moment[0] + moment[1] + a.half_span * (axial[0] + axial[1])
    if abs(resisting / (a.load * a.height) - 1) > 1e-6:
        problems.append(f"|M_l| + |M_r| + c (|N_l| + |N_r|) = {resisting:.9g}, expected P H = "
                        f"{a.load * a.height:.9g}")
    if problems:
        print(f"check_bolted_frame: FAIL {name}: " + "; ".join(problems))
        return 1
    print(f"check_bolted_frame: ok {name}: feet's shears {shear[0]:.9g}, {shear[1]:.9g} "
          f"(P/2 = {a.load / 2:g}); moments {moment[0]:.6g}, {moment[1]:.6g}, axial "
          f"{axial[0]:.6g}, {axial[1]:.6g}: resisting {resisting:.9g} = P H {a.load * a.height:g} "
          f"(relative {resisting / (a.load * a.height) - 1:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
