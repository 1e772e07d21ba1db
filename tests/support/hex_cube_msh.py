#!/usr/bin/env python3
"""Writes a Gmsh MSH 2.2 ASCII file of the unit cube cut into n^3 hex8 ((n + 1)^3 nodes), with
physical groups: volume "cube" (1) and the quads of the face x = 0, "xmin" (2). Pure Python (no
numpy): for tests that need a mesh file of some megabytes in a few seconds.

usage: hex_cube_msh.py N OUT.msh
"""
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    m = n + 1
    h = 1.0 / n

    def node(i, j, k):
        return 1 + i + m * (j + m * k)

    with open(out, "w") as o:
        o.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        o.write('$PhysicalNames\n2\n2 2 "xmin"\n3 1 "cube"\n$EndPhysicalNames\n')
        o.write(f"$Nodes\n{m ** 3}\n")
        o.write("".join(f"{node(i, j, k)} {i * h} {j * h} {k * h}\n"
                        for k in range(m) for j in range(m) for i in range(m)))
        o.write(f"$EndNodes\n$Elements\n{n ** 3 + n * n}\n")
        lines = []
        e = 0
        for k in range(n):
            for j in range(n):
                e += 1
                lines.append(f"{e} 3 2 2 2 {node(0, j, k)} {node(0, j, k + 1)} "
                             f"{node(0, j + 1, k + 1)} {node(0, j + 1, k)}\n")
        for k in range(n):
            for j in range(n):
                for i in range(n):
                    e += 1
                    lines.append(f"{e} 5 2 1 1 {node(i, j, k)} {node(i + 1, j, k)} "
                                 f"{node(i + 1, j + 1, k)} {node(i, j + 1, k)} "
                                 f"{node(i, j, k + 1)} {node(i + 1, j, k + 1)} "
                                 f"{node(i + 1, j + 1, k + 1)} {node(i, j + 1, k + 1)}\n")
        o.write("".join(lines))
        o.write("$EndElements\n")


if __name__ == "__main__":
    main()
