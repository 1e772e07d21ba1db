#!/usr/bin/env pvpython
"""Opens an inertia modal series (<case>_modes.pvd) the way a ParaView user would and checks it.

    xvfb-run -a pvpython check_modes_pvd.py CASE_modes.pvd --modes 4 \
        --lower 0,0,0 --upper 1,0.1,0.1 --cells 10,2,2 --density 7800

For a box-generator hex8 mesh clamped on its xmin face. Checks: the series has exactly the time
steps 1, 2, ..., N (mode n is step n); at every step the point array `mode_shape` has 3 finite
components on every point, and the points are the box's grid nodes, each of them (a node on two
ranks' pieces carries the same shape in both); the shape is zero (1e-12) on the clamped face,
nonzero everywhere else, and the free end moves at least half the peak; the shapes are
mass-normalised and M-orthogonal: phi_i^T M phi_j, with the consistent mass of the hex8 grid
computed here, is the identity (1e-8), so no step repeats, flips or rescales another's shape.
Prints one summary line; exits 0 if all is well, 1 on any mismatch, 2 if ParaView is missing.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import open_series  # noqa: E402


def triple(text, kind=float):
    values = [kind(v) for v in text.split(",")]
    if len(values) != 3:
        raise argparse.ArgumentTypeError(f"expected three comma-separated values: {text}")
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd")
    parser.add_argument("--modes", type=int, required=True, help="expected number of modes")
    parser.add_argument("--lower", type=triple, required=True, help="the box's lower corner")
    parser.add_argument("--upper", type=triple, required=True, help="the box's upper corner")
    parser.add_argument("--cells", type=lambda t: triple(t, int), required=True)
    parser.add_argument("--density", type=float, required=True)
    args = parser.parse_args()
    label = os.path.basename(args.pvd)

    opened = open_series("check_modes_pvd", args.pvd)
    if isinstance(opened, int):
        return opened
    servermanager, simple, reader, times = opened

    problems = []
    expected_times = [float(n) for n in range(1, args.modes + 1)]
    if times != expected_times:
        problems.append(f"time steps {times}, expected {expected_times}")
    if "mode_shape" not in reader.PointData.keys():
        problems.append(f"no point array 'mode_shape' (have {list(reader.PointData.keys())})")

    # The box's grid: node (i, j, k) and its lumped mass (rho times its share of the cells).
    lower, upper, cells = args.lower, args.upper, args.cells
    h = [(upper[d] - lower[d]) / cells[d] for d in range(3)]
    tolerance = 1e-9 * max(abs(v) for v in lower + upper + [1.0])
    num_nodes = (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1)

    def node_of(point):
        index = []
        for d in range(3):
            i = round((point[d] - lower[d]) / h[d])
            if not 0 <= i <= cells[d] or abs(lower[d] + i * h[d] - point[d]) > tolerance:
                return None
            index.append(i)
        return tuple(index)

    # The consistent mass of a trilinear hex8 on the grid: rho h0 h1 h2 times the tensor product
    # of the 1D linear element's mass [[1/3, 1/6], [1/6, 1/3]].
    def mass_product(a, b):
        total = 0.0
        corners = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
        for cell in ((i, j, k) for i in range(cells[0]) for j in range(cells[1])
                     for k in range(cells[2])):
            for p in corners:
                u = a[tuple(c + o for c, o in zip(cell, p))]
                for q in corners:
                    weight = 1.0
                    for d in range(3):
                        weight *= 1.0 / 3.0 if p[d] == q[d] else 1.0 / 6.0
                    v = b[tuple(c + o for c, o in zip(cell, q))]
                    total += weight * (u[0] * v[0] + u[1] * v[1] + u[2] * v[2])
        return args.density * h[0] * h[1] * h[2] * total

    def read_shape(t):
        """Mode t's shape as {grid node: (ux, uy, uz)}, or a string saying what is wrong."""
        reader.UpdatePipeline(t)
        data = servermanager.Fetch(reader)
        array, num_points = data.GetPointData().GetArray("mode_shape"), data.GetNumberOfPoints()
        if array is None:
            return "no point array 'mode_shape'"
        if array.GetNumberOfComponents() != 3 or array.GetNumberOfTuples() != num_points:
            return (f"'mode_shape' has {array.GetNumberOfComponents()} components and "
                    f"{array.GetNumberOfTuples()} tuples for {num_points} points")
        shape = {}
        for p in range(num_points):
            node, u = node_of(data.GetPoint(p)), array.GetTuple3(p)
            if node is None:
                return f"point {data.GetPoint(p)} is not a grid node"
            if not all(math.isfinite(c) for c in u):
                return f"non-finite mode_shape {u} at {data.GetPoint(p)}"
            if node in shape and max(abs(a - b) for a, b in zip(shape[node], u)) > 1e-12:
                return f"the pieces disagree at {data.GetPoint(p)}: {shape[node]} and {u}"
            shape[node] = u
        if len(shape) != num_nodes:
            return f"{len(shape)} distinct nodes, expected {num_nodes}"
        return shape

    shapes = []  # per mode: {node: (ux, uy, uz)}
    for t in times if not problems else []:
        shape = read_shape(t)
        if isinstance(shape, str):
            problems.append(f"mode {t:g}: {shape}")
            continue
        size = {node: math.sqrt(sum(c * c for c in u)) for node, u in shape.items()}
        peak = max(size.values())
        clamped = max(s for node, s in size.items() if node[0] == 0)
        if not clamped <= 1e-12:
            problems.append(f"mode {t:g}: |mode_shape| up to {clamped:g} on the clamped face")
        free = min(s for node, s in size.items() if node[0] > 0)
        if not (peak > 0 and free > 1e-9 * peak):
            problems.append(f"mode {t:g}: |mode_shape| {free:g} off the clamped face "
                            f"(peak {peak:g})")
        tip = max(s for node, s in size.items() if node[0] == cells[0])
        if not tip >= 0.5 * peak:
            problems.append(f"mode {t:g}: free end moves {tip:g}, the shape's peak is {peak:g}")
        shapes.append(shape)

    # phi_i^T M phi_j: the identity (mass-normalised, M-orthogonal modes).
    worst = 0.0
    for i, a in enumerate(shapes if len(shapes) == len(times) else []):
        for j, b in enumerate(shapes[: i + 1]):
            product = mass_product(a, b)
            expected = 1.0 if i == j else 0.0
            worst = max(worst, abs(product - expected))
            if not abs(product - expected) <= 1e-8:
                problems.append(f"modes {j + 1} and {i + 1}: phi^T M phi = {product:.10g}, "
                                f"expected {expected:g} (mass-normalised, M-orthogonal)")

    summary = (f"{label}: {len(times)} modes at steps {','.join(f'{t:g}' for t in times)}, "
               f"{num_nodes} nodes, mode_shape zero on the clamped face, "
               f"phi^T M phi within {worst:.2g} of the identity")
    if problems:
        print(f"check_modes_pvd: FAIL {label}: " + "; ".join(problems))
        return 1
    print(f"check_modes_pvd: OK {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
