#!/usr/bin/env python3
"""Writes a Gmsh MSH 2.2 ASCII file of the unit cube cut into n^3 hexahedra of 6 tet4 each
(6 n^3 tets, (n + 1)^3 nodes), with physical groups: volume "cube" (1) and the triangles of the
face x = 0, "xmin" (2). For tests that need a large mesh file fast (gmsh's Delaunay takes
minutes for 10^6 tets; this takes seconds).

usage: box_tet_msh.py N OUT.msh
"""
import sys

import numpy as np


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    m = n + 1
    idx = np.arange(m ** 3).reshape(m, m, m)  # [i, j, k] -> node index (x fastest below)
    g = np.linspace(0.0, 1.0, m)
    z, y, x = np.meshgrid(g, g, g, indexing="ij")
    coords = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    idx = idx.transpose(2, 1, 0)  # idx[i, j, k] with x = g[i], y = g[j], z = g[k]
    c = [idx[a:a + n, b:b + n, d:d + n].ravel() + 1
         for d in (0, 1) for b in (0, 1) for a in (0, 1)]  # hex corners, bit 0 = x, 1 = y, 2 = z
    # Six tets around the diagonal 0-7 (Kuhn), each positively oriented.
    tets = np.concatenate([np.column_stack([c[0], c[p], c[q], c[7]])
                           for p, q in ((1, 3), (3, 2), (2, 6), (6, 4), (4, 5), (5, 1))])
    # The x = 0 face: two triangles per square.
    f = [idx[0, b:b + n, d:d + n].ravel() + 1 for d in (0, 1) for b in (0, 1)]
    tris = np.concatenate([np.column_stack([f[0], f[1], f[3]]), np.column_stack([f[0], f[3], f[2]])])
    with open(out, "w") as o:
        o.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        o.write('$PhysicalNames\n2\n3 1 "cube"\n2 2 "xmin"\n$EndPhysicalNames\n')
        o.write(f"$Nodes\n{len(coords)}\n")
        np.savetxt(o, np.column_stack([np.arange(1, len(coords) + 1), coords]),
                   fmt=["%d", "%.17g", "%.17g", "%.17g"])
        o.write("$EndNodes\n")
        nt, nf = len(tets), len(tris)
        o.write(f"$Elements\n{nt + nf}\n")
        np.savetxt(o, np.column_stack([np.arange(1, nf + 1), np.full(nf, 2), np.full(nf, 2),
                                       np.full(nf, 2), np.full(nf, 2), tris]), fmt="%d")
        np.savetxt(o, np.column_stack([np.arange(nf + 1, nf + nt + 1), np.full(nt, 4),
                                       np.full(nt, 2), np.ones(nt, int), np.ones(nt, int),
                                       tets]), fmt="%d")
        o.write("$EndElements\n")


if __name__ == "__main__":
    main()
