#!/usr/bin/env python3
"""Writes a Gmsh MSH 2.2 ASCII file of a square plate with a square projectile standing on its
centre, one mesh (the projectile's bottom nodes are the plate's top nodes): hex8 cells of size
h, the plate n x n x t cells (z from -t h to 0), the projectile p x p x q cells (z from 0 to
q h) centred on it. Physical groups: volumes "plate" (1) and "projectile" (2). With a gap g
(metres), the projectile is a body of its own (nodes of its own, from z = g to g + q h): it meets
the plate through contact; shifted by s (metres) in x and y (its nodes off the plate's: no node of
one on an edge of the other's faces).

usage: plate_projectile_msh.py OUT.msh [h n t p q [g [s]]]  (defaults: 0.002 8 2 2 3, shared nodes)
"""
import sys


def main():
    out = sys.argv[1]
    h, n, t, p, q = (float(sys.argv[2]), *map(int, sys.argv[3:7])) if len(sys.argv) > 2 else (
        0.002, 8, 2, 2, 3)
    gap = float(sys.argv[7]) if len(sys.argv) > 7 else None
    shift = float(sys.argv[8]) if len(sys.argv) > 8 else 0.0
    assert (n - p) % 2 == 0, "n - p must be even (the projectile centred)"
    nodes, index = [], {}

    def node(i, j, k, body=1):
        own = gap is not None and body == 2  # a separate projectile: its own nodes, raised
        key = (i, j, k, own)
        if key not in index:
            index[key] = len(nodes) + 1
            d = shift if own else 0.0
            nodes.append((i * h - n * h / 2 + d, j * h - n * h / 2 + d, k * h + (gap if own else 0.0)))
        return index[key]

    cells = []

    def hexa(group, i, j, k):
        g = group
        cells.append((group, [node(i, j, k, g), node(i + 1, j, k, g), node(i + 1, j + 1, k, g),
                              node(i, j + 1, k, g), node(i, j, k + 1, g), node(i + 1, j, k + 1, g),
                              node(i + 1, j + 1, k + 1, g), node(i, j + 1, k + 1, g)]))

    for k in range(-t, 0):
        for j in range(n):
            for i in range(n):
                hexa(1, i, j, k)
    a = (n - p) // 2
    for k in range(q):
        for j in range(a, a + p):
            for i in range(a, a + p):
                hexa(2, i, j, k)
    with open(out, "w") as o:
        o.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        o.write('$PhysicalNames\n2\n3 1 "plate"\n3 2 "projectile"\n$EndPhysicalNames\n')
        o.write(f"$Nodes\n{len(nodes)}\n")
        o.write("".join(f"{i + 1} {x!r} {y!r} {z!r}\n" for i, (x, y, z) in enumerate(nodes)))
        o.write(f"$EndNodes\n$Elements\n{len(cells)}\n")
        o.write("".join(f"{e + 1} 5 2 {g} {g} {' '.join(map(str, c))}\n"
                        for e, (g, c) in enumerate(cells)))
        o.write("$EndElements\n")


if __name__ == "__main__":
    main()
