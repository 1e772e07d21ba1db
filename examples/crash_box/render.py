"""Renders the crushed tube at a few moments of the run side by side into crash_box_folds.png,
for the README: the deformed shells (warped by `displacement`, scale 1), coloured by the
equivalent plastic strain.

    xvfb-run -a pvbatch examples/crash_box/render.py [OUT [NAME]]

OUT: the run's output directory (default out/ beside this script), NAME the series' name (default
crash_box: OUT/NAME.pvd). Needs ParaView's Python (Debian's python3-paraview; see
examples/seismic_tower/render_mode.py for INERTIA_PVPYTHON_ROOT).
"""

import importlib.util
import os
import sys

FRAMES = 5          # moments shown, evenly spread over the series (the first is the start)
SIZE = [1200, 560]

if importlib.util.find_spec("paraview") is None:
    root = os.environ.get("INERTIA_PVPYTHON_ROOT", "/opt/inertia-paraview-python")
    sys.path.insert(0, os.path.join(root, "usr", "lib", "python3", "dist-packages"))
# ParaView's own vtkmodules first: another VTK's (Debian's python3-vtk9) may come first and crash.
_spec = importlib.util.find_spec("paraview")
if _spec is not None and _spec.origin:
    _root = os.path.dirname(os.path.dirname(_spec.origin))
    if _root in sys.path:
        sys.path.remove(_root)
    sys.path.insert(0, _root)
from paraview import simple  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "out")
name = sys.argv[2] if len(sys.argv) > 2 else "crash_box"

reader = simple.PVDReader(FileName=os.path.join(out, f"{name}.pvd"))
reader.UpdatePipelineInformation()
times = list(reader.TimestepValues)
if len(times) < 2:
    sys.exit(f"render: {len(times)} frames in {name}.pvd")
picks = [times[round(k * (len(times) - 1) / (FRAMES - 1))] for k in range(FRAMES)]
field = "shell.equivalent_plastic_strain"

view = simple.GetActiveViewOrCreate("RenderView")
view.ViewSize = SIZE
view.OrientationAxesVisibility = 0
if hasattr(view, "UseColorPaletteForBackground"):
    view.UseColorPaletteForBackground = 0
view.Background = [1.0, 1.0, 1.0]
shown = None
for k, t in enumerate(picks):
    # each moment its own copy of the series, held at its time and moved aside
    frame = simple.ForceTime(Input=reader)
    frame.ForcedTime = t
    frame.IgnorePipelineTime = 1
    warp = simple.WarpByVector(Input=frame)
    warp.Vectors = ["POINTS", "displacement"]
    warp.ScaleFactor = 1.0
    moved = simple.Transform(Input=warp)
    moved.Transform = "Transform"
    moved.Transform.Translate = [0.06 * k, 0.0, 0.0]
    shown = simple.Show(moved, view)
    shown.SetRepresentationType("Surface With Edges")
    shown.EdgeColor = [0.2, 0.2, 0.25]
    simple.ColorBy(shown, ("CELLS", field))
title = simple.Text(Text="crush " + ", ".join(f"{1e4 * t:.0f}" for t in picks) + " mm (left to right)")
text = simple.Show(title, view)
text.WindowLocation = "Upper Center"
text.FontSize = 22
text.Color = [0.1, 0.1, 0.1]
lut = simple.GetColorTransferFunction(field)
lut.ApplyPreset("Viridis (matplotlib)", True)
lut.RescaleTransferFunction(0.0, 0.5)
shown.SetScalarBarVisibility(view, True)
bar = simple.GetScalarBar(lut, view)
bar.Title = "equivalent plastic strain"
bar.ComponentTitle = ""
bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
bar.WindowLocation = "Any Location"
bar.Position = [0.92, 0.15]
bar.ScalarBarLength = 0.7
# Seen from a corner of the tube, slightly from above.
view.CameraPosition = [0.5, -0.6, 0.35]
view.CameraFocalPoint = [0.105, 0.0, 0.05]
view.CameraViewUp = [0.0, 0.0, 1.0]
view.CameraParallelProjection = 1
simple.Render(view)
view.ResetCamera(False)
view.CameraParallelScale = 0.105
png = os.path.join(here, "crash_box_folds.png")
simple.SaveScreenshot(png, view, ImageResolution=SIZE, CompressionLevel="9")
print(f"render: wrote {png} (frames at {', '.join(f'{1e3 * t:.2f}' for t in picks)} ms)")
