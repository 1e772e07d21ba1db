#!/usr/bin/env pvpython
"""Opens an inertia .pvd series the way a ParaView user would and checks it.

    xvfb-run -a pvpython check_pvd.py FILE.pvd --arrays displacement,velocity \
        --cell-arrays von_mises,rank --steps N [--vector displacement]

Checks: the series has N time steps; the point and cell arrays named are present; Warp By Vector
on the vector array updates at every time step and moves every point by exactly that vector.
Prints one summary line; exits 0 if all is well, 1 on any mismatch, 2 if ParaView is missing.

Also runs under plain python3 with PYTHONPATH pointing at ParaView's Python packages (Debian's
python3-paraview conflicts with libvtk9-dev, so a build machine may only have it unpacked).
"""

import argparse
import importlib.util
import math
import os
import sys


def prefer_paraview_vtkmodules():
    """Put the directory holding `paraview` first, so that its own vtkmodules is the one imported
    (an unrelated VTK's vtkmodules, e.g. Debian's python3-vtk9, may come first and crash)."""
    spec = importlib.util.find_spec("paraview")
    if spec is None or not spec.origin:
        return
    root = os.path.dirname(os.path.dirname(spec.origin))
    if root in sys.path:
        sys.path.remove(root)
    sys.path.insert(0, root)


def open_series(tool, path):
    """ParaView's servermanager and a reader of the .pvd at path, updated, with its time steps;
    or an exit code (2: no ParaView, 1: no such file or unreadable) after one FAIL line."""
    label = os.path.basename(path)
    prefer_paraview_vtkmodules()
    try:
        from paraview import servermanager
        from paraview import simple
    except ImportError as e:
        print(f"{tool}: FAIL {label}: cannot import paraview.simple ({e})")
        return 2
    if not os.path.isfile(path):
        print(f"{tool}: FAIL {label}: no such file {path}")
        return 1
    reader = simple.OpenDataFile(path)
    if reader is None:
        print(f"{tool}: FAIL {label}: ParaView cannot open it")
        return 1
    reader.UpdatePipelineInformation()
    times = reader.TimestepValues
    if isinstance(times, (int, float)):  # ParaView gives a scalar for a single step
        times = [times]
    times = list(times) if times is not None else []
    return servermanager, simple, reader, times


def last_frame(opened):
    """The merged dataset of an open_series result's last time step (step 0 without steps)."""
    servermanager, simple, reader, times = opened
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(times[-1] if times else 0)
    return servermanager.Fetch(merged)


def names(text):
    return [n for n in text.split(",") if n] if text else []


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd")
    parser.add_argument("--arrays", default="", help="point arrays that must be present")
    parser.add_argument("--cell-arrays", default="", help="cell arrays that must be present")
    parser.add_argument("--steps", type=int, required=True, help="expected number of time steps")
    parser.add_argument("--vector", default="displacement", help="point array to warp by")
    args = parser.parse_args()
    label = os.path.basename(args.pvd)

    opened = open_series("check_pvd", args.pvd)
    if isinstance(opened, int):
        return opened
    servermanager, simple, reader, times = opened
    problems = []
    if len(times) != args.steps:
        problems.append(f"{len(times)} time steps, expected {args.steps}")
    if any(not math.isfinite(t) for t in times) or times != sorted(times):
        problems.append(f"time steps not finite and increasing: {times}")

    point_arrays = list(reader.PointData.keys())
    cell_arrays = list(reader.CellData.keys())
    for name in names(args.arrays):
        if name not in point_arrays:
            problems.append(f"no point array '{name}' (have {point_arrays})")
    for name in names(args.cell_arrays):
        if name not in cell_arrays:
            problems.append(f"no cell array '{name}' (have {cell_arrays})")

    num_points = num_cells = 0
    if args.vector in point_arrays:
        vector = reader.PointData[args.vector]
        if vector.GetNumberOfComponents() != 3:
            problems.append(f"'{args.vector}' has {vector.GetNumberOfComponents()} components")
        warp = simple.WarpByVector(Input=reader)
        warp.Vectors = ["POINTS", args.vector]
        warp.ScaleFactor = 1.0
        for t in times or [0.0]:
            try:
                warp.UpdatePipeline(t)
            except Exception as e:  # noqa: BLE001 - any pipeline failure is a finding
                problems.append(f"Warp By Vector fails at t={t}: {e}")
                break
            original = servermanager.Fetch(reader)
            warped = servermanager.Fetch(warp)
            num_points, num_cells = original.GetNumberOfPoints(), original.GetNumberOfCells()
            if num_points == 0 or num_cells == 0:
                problems.append(f"empty mesh at t={t}")
            if warped.GetNumberOfPoints() != num_points:
                problems.append(f"Warp By Vector changed the point count at t={t}")
                break
            d = original.GetPointData().GetArray(args.vector)
            worst = 0.0
            for p in range(num_points):
                x, y = original.GetPoint(p), warped.GetPoint(p)
                for k in range(3):
                    worst = max(worst, abs(y[k] - x[k] - d.GetComponent(p, k)))
            if not worst <= 1e-12 * (1.0 + max(map(abs, original.GetBounds()))):
                problems.append(f"Warp By Vector moved points wrongly at t={t} (off by {worst})")
    elif names(args.arrays) or args.vector:
        problems.append(f"no point array '{args.vector}' to warp by")

    summary = (f"{label}: {len(times)} steps, {num_points} points, {num_cells} cells, "
               f"point arrays {','.join(point_arrays)}, cell arrays {','.join(cell_arrays)}")
    if problems:
        print(f"check_pvd: FAIL {summary}: " + "; ".join(problems))
        return 1
    print(f"check_pvd: OK {summary}, warp by {args.vector} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
