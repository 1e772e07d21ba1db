"""Checks the shells' resultants of a harmonic analysis in ParaView (pvpython): the frame of
`fields_at` of tests/scripts/shell_paraview.sh's clamped plate, swept by its pressure far below
its first mode (0.01 Hz, undamped, direct), against the static run's shell_resultants: the real
part equal to them (to 1e-6: the inertia at 0.01 Hz is 1e-9 of the stiffness), the imaginary part
zero, the amplitude their absolute value; 8 components each."""
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import check_pvd  # noqa: E402


def cells_by_centre(data):
    """The cell data's rows ordered by the cells' centres."""
    import numpy as np
    import vtkmodules.vtkFiltersCore as core
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    f = core.vtkCellCenters()
    f.SetInputData(data.VTKObject)
    f.Update()
    centres = np.round(np.asarray(dsa.WrapDataObject(f.GetOutput()).Points), 9)
    return np.lexsort((centres[:, 2], centres[:, 1], centres[:, 0]))


def main():
    static_path, harmonic_path = sys.argv[1], sys.argv[2]
    opened = check_pvd.open_series("check_harmonic_shells_pvd", static_path)
    if isinstance(opened, int):
        return opened
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    import numpy as np
    static = dsa.WrapDataObject(check_pvd.last_frame(opened))
    harmonic = dsa.WrapDataObject(check_pvd.last_frame(
        check_pvd.open_series("check_harmonic_shells_pvd", harmonic_path)))
    names = ["shell_resultants_" + p for p in ("real", "imag", "amplitude")]
    missing = [n for n in names if n not in harmonic.CellData.keys()]
    if missing:
        print("check_harmonic_shells_pvd: FAIL no cell arrays %s" % missing)
        return 1
    r = np.asarray(static.CellData["shell_resultants"])[cells_by_centre(static)]
    order = cells_by_centre(harmonic)
    re, im, amp = (np.asarray(harmonic.CellData[n])[order] for n in names)
    scale = np.abs(r).max()
    gaps = (np.abs(re - r).max() / scale, np.abs(im).max() / scale,
            np.abs(amp - np.abs(r)).max() / scale)
    print("check_harmonic_shells_pvd: %s cells x %s; real - static %.2g, imaginary %.2g, "
          "amplitude - |static| %.2g (of the largest resultant %.4g)"
          % (re.shape[0], re.shape[1], gaps[0], gaps[1], gaps[2], scale))
    if re.shape != r.shape or r.shape[1] != 8 or not max(gaps) < 1e-6:
        print("check_harmonic_shells_pvd: FAIL")
        return 1
    print("check_harmonic_shells_pvd: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
