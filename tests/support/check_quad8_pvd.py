"""Checks the curved 8-node shells' ParaView output (pvpython): the last frame of the pinched
cylinder of examples/pinched_cylinder (quad8 cells, 16 x 16 on the octant), a .pvd or .xdmf series.

What a user sees: the shells drawn as their quadratic quadrilaterals (VTK_QUADRATIC_QUAD, 23: 8
points each, the rotation nodes not drawn: 833 distinct places), the point arrays displacement
and rotation, the cell arrays shell_resultants (8 components), shell_stress (9) and thickness
(3 everywhere); the point under the load moved down by the probe's figure (argv[2], the
displacement along z), and the cylinder's shape drawn: every drawn point on the radius 300."""
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import check_pvd  # noqa: E402


def main():
    path, uz_load = sys.argv[1], float(sys.argv[2])
    opened = check_pvd.open_series("check_quad8_pvd", path)
    if isinstance(opened, int):
        return opened
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    import numpy as np
    data = dsa.WrapDataObject(check_pvd.last_frame(opened))
    problems = []
    n = data.GetNumberOfCells()
    types = {data.GetCellType(i) for i in range(n)}
    sizes = {data.GetCell(i).GetNumberOfPoints() for i in range(n)}
    points = np.round(np.asarray(data.Points), 9)
    used = {data.GetCell(i).GetPointId(k) for i in range(n) for k in range(8) if 8 in sizes}
    distinct = len({tuple(points[i]) for i in used})
    print("check_quad8_pvd: %d cells of VTK types %s (%s points each), %d distinct drawn points"
          % (n, sorted(types), sorted(sizes), distinct))
    if n != 256 or types != {23} or sizes != {8}:
        problems.append("expected 256 VTK_QUADRATIC_QUAD cells of 8 points")
    if distinct != 33 * 33 - 256:
        problems.append("%d distinct drawn points, expected 833 (rotation nodes drawn?)" % distinct)
    radius = np.array([np.hypot(points[i][1], points[i][2]) for i in used])
    if used and np.abs(radius - 300).max() > 1e-6:
        problems.append("drawn points off the radius 300 by %.3g" % np.abs(radius - 300).max())
    for name in ("displacement", "rotation"):
        if name not in data.PointData.keys():
            problems.append("no point array " + name)
    for name, components in (("shell_resultants", 8), ("shell_stress", 9), ("thickness", 1)):
        if name not in data.CellData.keys():
            problems.append("no cell array " + name)
            continue
        a = data.VTKObject.GetCellData().GetArray(name)
        if a.GetNumberOfComponents() != components:
            problems.append("%s has %d components" % (name, a.GetNumberOfComponents()))
    if "thickness" in data.CellData.keys():
        t = np.asarray(data.CellData["thickness"])
        if np.abs(t - 3).max() > 0:
            problems.append("thickness not 3 everywhere")
    if "displacement" in data.PointData.keys():
        u = np.asarray(data.PointData["displacement"])
        at = [i for i in used if abs(points[i][0]) < 1e-9 and abs(points[i][1]) < 1e-9]
        if not at:
            problems.append("no drawn point under the load")
        else:
            uz = u[at[0]][2]
            print("check_quad8_pvd: under the load u_z %.6e (the probe: %.6e)" % (uz, uz_load))
            if abs(uz / uz_load - 1) > 1e-9:
                problems.append("u_z under the load %.6e, the probe says %.6e" % (uz, uz_load))
    for p in problems:
        print("check_quad8_pvd: FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
