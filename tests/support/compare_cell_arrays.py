#!/usr/bin/env pvpython
"""Compares a cell array of two inertia .pvd series, as ParaView reads them.

    xvfb-run -a pvpython compare_cell_arrays.py A.pvd ARRAY_A B.pvd ARRAY_B --tol T [--absolute]

Reads the last time step of each (the same mesh on the same number of ranks: the cells come in
the same order) and checks that ARRAY_A and ARRAY_B (cell arrays of equal size) differ by at most
T times the largest magnitude of ARRAY_B (with --absolute: ARRAY_A against |ARRAY_B|). Prints one line; exits 0 if they agree, 1 if not, 2 if
ParaView is missing.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_pvd import last_frame, open_series  # noqa: E402  (puts ParaView's own vtkmodules first)


def cell_values(path, name):
    opened = open_series("compare_cell_arrays", path)
    if isinstance(opened, int):
        return opened
    data = last_frame(opened)
    array = data.GetCellData().GetArray(name)
    if array is None:
        print(f"compare_cell_arrays: FAIL {os.path.basename(path)}: no cell array '{name}'")
        return 1
    return [array.GetComponent(i, c) for i in range(array.GetNumberOfTuples())
            for c in range(array.GetNumberOfComponents())]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("array_a")
    parser.add_argument("b")
    parser.add_argument("array_b")
    parser.add_argument("--tol", type=float, required=True)
    parser.add_argument("--absolute", action="store_true", help="compare with |ARRAY_B|")
    args = parser.parse_args()
    a = cell_values(args.a, args.array_a)
    if isinstance(a, int):
        return a
    b = cell_values(args.b, args.array_b)
    if isinstance(b, int):
        return b
    if args.absolute:
        b = [abs(x) for x in b]
    if len(a) != len(b) or not b:
        print(f"compare_cell_arrays: FAIL {len(a)} values against {len(b)}")
        return 1
    scale = max(abs(x) for x in b)
    worst = max(abs(x - y) for x, y in zip(a, b)) / scale if scale > 0 else 0.0
    ok = scale > 0 and worst <= args.tol
    print(f"compare_cell_arrays: {'ok' if ok else 'FAIL'} {args.array_a} against {args.array_b}: "
          f"{worst:.3g} of the largest |{args.array_b}| {scale:.6g} ({len(b)} values, "
          f"tolerance {args.tol:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
