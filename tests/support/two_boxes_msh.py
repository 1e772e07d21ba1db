#!/usr/bin/env python3
"""Writes a Gmsh MSH 2.2 ASCII file of two unit cubes side by side, n^3 hex8 each, NOT fused:
the second cube has its own nodes on x = 1 (what a geometry of two boxes meshed without
Coherence or BooleanFragments gives). Physical groups: volumes "left" (1) and "right" (2), the
quads of the left cube's face x = 0, "base" (3).

usage: two_boxes_msh.py N OUT.msh
"""
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    nodes, cells = [], []

    def cube(x0, tag):
        first = len(nodes) + 1
        def at(i, j, k):
            return first + i + (n + 1) * (j + (n + 1) * k)
        for k in range(n + 1):
            for j in range(n + 1):
                for i in range(n + 1):
                    nodes.append((x0 + i / n, j / n, k / n))
        for k in range(n):
            for j in range(n):
                for i in range(n):
                    cells.append((5, tag, [at(i, j, k), at(i + 1, j, k), at(i + 1, j + 1, k),
                                           at(i, j + 1, k), at(i, j, k + 1), at(i + 1, j, k + 1),
                                           at(i + 1, j + 1, k + 1), at(i, j + 1, k + 1)]))
        return at

    left = cube(0.0, 1)
    cube(1.0, 2)
    for k in range(n):
        for j in range(n):
            cells.append((3, 3, [left(0, j, k), left(0, j, k + 1), left(0, j + 1, k + 1),
                                 left(0, j + 1, k)]))
    lines = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$PhysicalNames", "3", '3 1 "left"',
             '3 2 "right"', '2 3 "base"', "$EndPhysicalNames", "$Nodes", str(len(nodes))]
    lines += [f"{i + 1} {x!r} {y!r} {z!r}" for i, (x, y, z) in enumerate(nodes)]
    lines += ["$EndNodes", "$Elements", str(len(cells))]
    lines += [f"{e + 1} {t} 2 {tag} {tag} " + " ".join(map(str, c))
              for e, (t, tag, c) in enumerate(cells)]
    lines += ["$EndElements"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
