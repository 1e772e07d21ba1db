"""Checks a plastic shell strip's surface stresses in ParaView (pvpython): the last frame of the
strip of tests/scripts/shell_paraview.sh, bent about y by 0.9 of its plastic moment: at every
cell the top and bottom surfaces on the yield surface (their von Mises stress between sigma_y and
1.05 sigma_y: a little hardening), the bottom's s11 the top's opposite (a symmetric section in
bending) and the middle's stresses below 1e-4 sigma_y (no membrane force: both to Newton's
tolerance, 2.3e-6 and 3.9e-6 measured); the state's
equivalent plastic strain positive; with shell_plastic_strain, the surfaces' points plastic and
alike (to 1e-4: Newton's tolerance, 5.3e-6 measured), the middle's none, and the points' mean the
state's."""
import math
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
    path, sy = sys.argv[1], float(sys.argv[2])
    opened = check_pvd.open_series("check_plastic_shells_pvd", path)
    if isinstance(opened, int):
        return opened
    from vtkmodules.numpy_interface import dataset_adapter as dsa
    import numpy as np
    data = dsa.WrapDataObject(check_pvd.last_frame(opened))
    if "shell_stress" not in data.CellData.keys():
        print("check_plastic_shells_pvd: FAIL no shell_stress (have %s)" % data.CellData.keys())
        return 1
    s = stored_tuples(data, "shell_stress")
    alpha = [k for k in data.CellData.keys() if k.endswith("equivalent_plastic_strain")]

    def mises(a):
        return np.sqrt(a[:, 0]**2 - a[:, 0] * a[:, 1] + a[:, 1]**2 + 3 * a[:, 2]**2)
    top, bottom, middle = mises(s[:, 6:9]), mises(s[:, 0:3]), np.abs(s[:, 3:6]).max()
    symmetry = np.abs(s[:, 0] + s[:, 6]).max() / sy
    plastic = np.asarray(data.CellData[alpha[0]]).min() if alpha else -1
    print("check_plastic_shells_pvd: von Mises top %.4g to %.4g, bottom %.4g to %.4g (sigma_y "
          "%.4g); s11 bottom + top %.2g sigma_y; middle %.2g sigma_y; least mean alpha %.3g"
          % (top.min(), top.max(), bottom.min(), bottom.max(), sy, symmetry, middle / sy, plastic))
    ok = (top.min() >= sy * (1 - 1e-9) and top.max() <= 1.05 * sy and
          bottom.min() >= sy * (1 - 1e-9) and bottom.max() <= 1.05 * sy and
          symmetry < 1e-4 and middle < 1e-4 * sy and plastic > 0 and not math.isnan(top.sum()))
    if "shell_plastic_strain" in data.CellData.keys():
        # Per point through the thickness (bottom to top, 5 Simpson points): the surfaces yield
        # alike, the middle stays elastic, and their mean is the state's (over all the points).
        layers = stored_tuples(data, "shell_plastic_strain")
        mean = np.asarray(data.CellData[alpha[0]]) if alpha else None
        surfaces = np.abs(layers[:, 0] - layers[:, 4]).max() / layers[:, 4].max()
        gap = np.abs(layers.mean(axis=1) - mean).max() / mean.max() if mean is not None else 1
        print("check_plastic_shells_pvd: shell_plastic_strain %d components, bottom %.4g to "
              "%.4g, top - bottom %.2g, middle at most %.2g, mean - state's %.2g"
              % (layers.shape[1], layers[:, 0].min(), layers[:, 0].max(), surfaces,
                 np.abs(layers[:, 2]).max(), gap))
        ok = (ok and layers.shape[1] == 5 and layers[:, 0].min() > 0 and surfaces < 1e-4 and
              np.abs(layers[:, 2]).max() == 0 and gap < 1e-12)
    print("check_plastic_shells_pvd: " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
