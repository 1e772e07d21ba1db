"""Checks a shell model's ParaView output (pvpython): the last frame of a .pvd or .xdmf series of
the clamped square plate of tests/scripts/shell_paraview.sh.

What a user sees: the shells drawn as their quadrilaterals (VTK_QUAD, the rotation nodes not
drawn), the point arrays displacement and rotation, the cell arrays shell_resultants (8
components) and thickness; the resultants symmetric (M11 at (x, y) is M22 at (y, x)), M11 < 0 at
the centre (the pressure pushes the plate down: its bottom is stretched there) and of Kirchhoff's
size there, 0.0231 q a^2 (Timoshenko and Woinowsky-Krieger, table 35), within 8 % at the cells
next to the centre (their centres 1/16 of the side from it)."""
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import check_pvd  # noqa: E402


def stored_tuples(data, name):
    """A cell array's tuples in their stored order (the numpy adapter reads 9 components as a
    3 x 3 tensor, transposed)."""
    import numpy as np
    a = data.VTKObject.GetCellData().GetArray(name)
    return np.array([a.GetTuple(i) for i in range(a.GetNumberOfTuples())])


def main():
    path, cells, thickness, q, a = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
        float(sys.argv[4]), float(sys.argv[5])
    opened = check_pvd.open_series("check_shells_pvd", path)
    if isinstance(opened, int):
        return opened
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    import numpy as np
    data = dsa.WrapDataObject(check_pvd.last_frame(opened))
    problems = []
    n = data.GetNumberOfCells()
    types = {data.GetCellType(i) for i in range(n)}
    print("check_shells_pvd: %d cells of VTK types %s, %d points" % (n, sorted(types),
                                                                    data.GetNumberOfPoints()))
    if n != cells or types != {9}:
        problems.append("expected %d VTK_QUAD cells" % cells)
    side = int(round(cells ** 0.5))
    # The pieces of a parallel run share their boundary nodes (merged blocks keep both copies),
    # and a piece may hold a node of the edges' line cells that none of its shells uses: the
    # distinct places, and every point outside the cells a copy of a drawn node (its
    # displacement; a rotation node would carry the rotations).
    points = np.round(np.asarray(data.Points), 12)
    distinct = len({tuple(p) for p in points})
    used = {data.GetCell(i).GetPointId(k) for i in range(n) for k in range(4)}
    u = np.asarray(data.PointData["displacement"]) if "displacement" in data.PointData.keys() \
        else None
    drawn = {tuple(points[i]): i for i in used}
    strays = [i for i in range(data.GetNumberOfPoints()) if i not in used]
    if distinct != (side + 1) ** 2 or u is None or any(
            tuple(points[i]) not in drawn or np.abs(u[i] - u[drawn[tuple(points[i])]]).max() > 0
            for i in strays):
        problems.append("%d distinct points, %d of %d outside the cells: rotation nodes drawn?"
                        % (distinct, len(strays), data.GetNumberOfPoints()))
    for name in ("displacement", "rotation"):
        if name not in data.PointData.keys():
            problems.append("no point array " + name)
    for name in ("shell_resultants", "thickness", "shell_stress"):
        if name not in data.CellData.keys():
            problems.append("no cell array " + name)
    if problems:
        print("check_shells_pvd: FAIL " + "; ".join(problems))
        return 1
    t = np.asarray(data.CellData["thickness"])
    r = np.asarray(data.CellData["shell_resultants"])
    if r.shape != (cells, 8) or not np.allclose(t, thickness, rtol=0, atol=1e-15):
        problems.append("thickness %s, resultants %s" % (t[:3], r.shape))
    import vtkmodules.vtkFiltersCore as core  # cell centres
    f = core.vtkCellCenters()
    f.SetInputData(data.VTKObject)
    f.Update()
    centres = np.asarray(dsa.WrapDataObject(f.GetOutput()).Points)
    near = [i for i in range(cells) if np.hypot(*(centres[i, :2] - a / 2)) < 0.75 * a / side]
    m11, m22 = r[near, 3], r[near, 4]
    kirchhoff = 0.0231 * q * a * a
    print("check_shells_pvd: M11 at the %d cells next to the centre %s, M22 %s (Kirchhoff at the "
          "centre -%.4g)" % (len(near), np.round(m11, 4), np.round(m22, 4), kirchhoff))
    if len(near) != 4 or not np.all(m11 < 0) or not np.all(abs(-m11 / kirchhoff - 1) < 0.08):
        problems.append("M11 at the centre")
    # Symmetry about the diagonal: the cell at (y, x) has M22 = the M11 of the cell at (x, y).
    worst = 0.0
    for i in range(cells):
        j = int(np.argmin(np.hypot(centres[:, 0] - centres[i, 1], centres[:, 1] - centres[i, 0])))
        worst = max(worst, abs(r[i, 3] - r[j, 4]))
    print("check_shells_pvd: M11(x, y) - M22(y, x) at most %.3g (of %.4g)" % (worst, kirchhoff))
    if not worst < 1e-6 * kirchhoff:
        problems.append("the resultants are not symmetric")
    if "shell_stress" not in data.CellData.keys():
        problems.append("no cell array shell_stress")
    else:  # elastic: the surfaces' stresses N / t -+ 6 M / t^2
        st = stored_tuples(data, "shell_stress")
        expect = np.concatenate([r[:, :3] / thickness - 6 * r[:, 3:6] / thickness**2,
                                 r[:, :3] / thickness,
                                 r[:, :3] / thickness + 6 * r[:, 3:6] / thickness**2], axis=1)
        gap = np.abs(st - expect).max() / np.abs(expect).max()
        print("check_shells_pvd: shell_stress against N / t -+ 6 M / t^2: %.2g; the centre's top "
              "s11 %.4g Pa" % (gap, st[near[0], 6]))
        if st.shape != (cells, 9) or not gap < 1e-12 or not np.all(st[near, 6] < 0):
            problems.append("shell_stress")
    if problems:
        print("check_shells_pvd: FAIL " + "; ".join(problems))
        return 1
    print("check_shells_pvd: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
