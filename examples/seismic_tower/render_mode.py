"""Renders the seismic tower's first mode shape into mode1.png (600 x 800), for the README.

    mpirun -n 2 build/bin/inertia examples/seismic_tower/seismic_tower.yaml
    xvfb-run -a pvbatch examples/seismic_tower/render_mode.py

Reads out/seismic_tower_modes.pvd (mode n is the series' time step n) and out/modes.csv next to
this script. The shape is warped by `mode_shape` so that its largest displacement is 25 % of the
tower's height, coloured by the shape's magnitude, over the undeformed outline; the camera looks
across the direction the tower sways in, so the bending is seen side-on.

Needs ParaView's Python (Debian's python3-paraview). Where that package cannot be installed
(it conflicts with python3-vtk9), unpack it aside and set INERTIA_PVPYTHON_ROOT to the folder
holding its usr/ (see .ci/run); /opt/inertia-paraview-python is tried by default.
"""

import csv
import importlib.util
import math
import os
import sys

MODE = 1
PEAK_FRACTION = 0.25  # largest warped displacement as a fraction of the tower's height
SIZE = [600, 800]

if importlib.util.find_spec("paraview") is None:
    root = os.environ.get("INERTIA_PVPYTHON_ROOT", "/opt/inertia-paraview-python")
    sys.path.insert(0, os.path.join(root, "usr", "lib", "python3", "dist-packages"))
from paraview import servermanager
from paraview import simple

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "out")


def frequency(mode):
    with open(os.path.join(out, "modes.csv")) as f:
        for row in csv.DictReader(f):
            if int(row["mode"]) == mode:
                return float(row["frequency"])
    sys.exit(f"render_mode: no mode {mode} in {os.path.join(out, 'modes.csv')}")


def peak_displacement(data):
    """The largest |mode_shape| over the points, and the point's horizontal direction (x, y)."""
    shape = data.GetPointData().GetArray("mode_shape")
    peak, direction = 0.0, (1.0, 0.0)
    for p in range(data.GetNumberOfPoints()):
        u = shape.GetTuple3(p)
        size = math.sqrt(u[0] ** 2 + u[1] ** 2 + u[2] ** 2)
        if size > peak:
            peak = size
            horizontal = math.hypot(u[0], u[1])
            if horizontal > 0:
                direction = (u[0] / horizontal, u[1] / horizontal)
    return peak, direction


reader = simple.PVDReader(FileName=os.path.join(out, "seismic_tower_modes.pvd"))
reader.UpdatePipelineInformation()
if MODE not in [round(t) for t in reader.TimestepValues]:
    sys.exit(f"render_mode: mode {MODE} not in the series (steps {list(reader.TimestepValues)})")
reader.UpdatePipeline(MODE)
# The pieces are merged on this (single) pvbatch process: Fetch gives the whole tower.
tower = servermanager.Fetch(reader)
peak, sway = peak_displacement(tower)
if not peak > 0:
    sys.exit("render_mode: mode_shape is zero everywhere")
bounds = tower.GetBounds()
height = bounds[5] - bounds[4]  # the tower stands along z
scale = PEAK_FRACTION * height / peak
print(f"render_mode: mode {MODE}, height {height:g} m, peak |mode_shape| {peak:.6g}, "
      f"warp scale {scale:.4g}, sway direction ({sway[0]:.3f}, {sway[1]:.3f})")

view = simple.GetActiveViewOrCreate("RenderView")
view.ViewSize = SIZE
view.ViewTime = MODE
view.OrientationAxesVisibility = 1
if hasattr(view, "UseColorPaletteForBackground"):
    view.UseColorPaletteForBackground = 0
view.Background = [1.0, 1.0, 1.0]

outline = simple.Show(reader, view)
outline.SetRepresentationType("Outline")
outline.AmbientColor = outline.DiffuseColor = [0.45, 0.45, 0.45]
outline.LineWidth = 1.5
outline.ColorArrayName = ["POINTS", ""]  # solid grey

warp = simple.WarpByVector(Input=reader)
warp.Vectors = ["POINTS", "mode_shape"]
warp.ScaleFactor = scale
shape = simple.Show(warp, view)
shape.SetRepresentationType("Surface With Edges")
shape.EdgeColor = [0.15, 0.15, 0.2]
simple.ColorBy(shape, ("POINTS", "mode_shape", "Magnitude"))
lut = simple.GetColorTransferFunction("mode_shape")
lut.ApplyPreset("Viridis (matplotlib)", True)
lut.RescaleTransferFunction(0.0, peak)
shape.SetScalarBarVisibility(view, True)
bar = simple.GetScalarBar(lut, view)
bar.Title = "mode_shape"
bar.ComponentTitle = "magnitude"
bar.TitleColor = bar.LabelColor = [0.1, 0.1, 0.1]
bar.RangeLabelFormat = "%-#6.3g"
bar.TitleFontSize = bar.LabelFontSize = 14
bar.WindowLocation = "Any Location"
bar.Position = [0.78, 0.06]
bar.ScalarBarLength = 0.4

title = simple.Text(Text=f"mode {MODE}: {frequency(MODE):.2f} Hz")
label = simple.Show(title, view)
label.WindowLocation = "Upper Center"
label.FontSize = 30
label.Color = [0.1, 0.1, 0.1]
note = simple.Text(Text=f"warped x {scale:.3g}: peak {PEAK_FRACTION:.0%} of the height")
small = simple.Show(note, view)
small.WindowLocation = "Lower Left Corner"
small.FontSize = 14
small.Color = [0.25, 0.25, 0.25]

# Look across the sway, slightly from above and turned a little, so the bending is seen side-on
# and the tower still reads as a solid.
turn, rise = math.radians(25.0), math.radians(12.0)
across = (-sway[1], sway[0])  # horizontal, perpendicular to the sway
look = (
    math.cos(turn) * across[0] + math.sin(turn) * sway[0],
    math.cos(turn) * across[1] + math.sin(turn) * sway[1],
)
center = [0.5 * (bounds[2 * k] + bounds[2 * k + 1]) for k in range(3)]
distance = 4.0 * height
view.CameraFocalPoint = center
view.CameraPosition = [
    center[0] + distance * math.cos(rise) * look[0],
    center[1] + distance * math.cos(rise) * look[1],
    center[2] + distance * math.sin(rise),
]
view.CameraViewUp = [0.0, 0.0, 1.0]
view.CameraParallelProjection = 1
simple.Render(view)
view.ResetCamera(False)  # centres on what is shown, keeps the direction
view.CameraParallelScale = 0.6 * height

png = os.path.join(here, f"mode{MODE}.png")
simple.SaveScreenshot(png, view, ImageResolution=SIZE, CompressionLevel="9")
print(f"render_mode: wrote {png} ({os.path.getsize(png) // 1024} KiB)")
