"""Writes a CalculiX input (C3D10, *FREQUENCY, 10 modes) of NAFEMS FV52 from meshes/fv52.msh, for the
comparison in tests/mpi/app_modal.cpp (NafemsFv52OnItsOwnMesh): the nodes, the tet10 cells in
CalculiX's node order, and u_z held at every node of the bottom face's four edges (selected by
their coordinates, not by the mesh's groups). Not run by the suite (CalculiX is not a dependency):
    python3 tests/support/fv52_calculix.py meshes/fv52.msh fv52.inp && ccx fv52
(Debian: apt-get install calculix-ccx; the frequencies in fv52.dat)."""
import sys
lines = open(sys.argv[1]).read().split('\n')
i = 0; nodes = {}; tets = []
while i < len(lines):
    l = lines[i].strip()
    if l == '$Nodes':
        nb, nn, _, _ = map(int, lines[i+1].split()); i += 2
        for b in range(nb):
            dim, tag, param, cnt = map(int, lines[i].split()); i += 1
            ids = [int(lines[i+k]) for k in range(cnt)]; i += cnt
            for k in range(cnt):
                nodes[ids[k]] = tuple(map(float, lines[i+k].split()[:3]))
            i += cnt
        continue
    if l == '$Elements':
        nb, ne, _, _ = map(int, lines[i+1].split()); i += 2
        for b in range(nb):
            dim, tag, etype, cnt = map(int, lines[i].split()); i += 1
            for k in range(cnt):
                p = list(map(int, lines[i+k].split()))
                if etype == 11: tets.append(p[1:])
            i += cnt
        continue
    i += 1
out = open(sys.argv[2], 'w')
out.write('*NODE, NSET=NALL\n')
for k in sorted(nodes): out.write('%d, %.15g, %.15g, %.15g\n' % ((k,) + nodes[k]))
out.write('*ELEMENT, TYPE=C3D10, ELSET=EALL\n')
for e, t in enumerate(tets, 1):
    # gmsh tet10: 0-3 corners, 4 (0,1), 5 (1,2), 6 (2,0), 7 (3,0), 8 (3,2), 9 (3,1)
    # ccx C3D10: 1-4 corners, 5 (1,2), 6 (2,3), 7 (3,1), 8 (1,4), 9 (2,4), 10 (3,4)
    o = [t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[9], t[8]]
    out.write('%d, %s\n' % (e, ', '.join(map(str, o))))
sup = [k for k, (x, y, z) in nodes.items() if abs(z) < 1e-9 and (abs(x) < 1e-9 or abs(x - 10) < 1e-9 or abs(y) < 1e-9 or abs(y - 10) < 1e-9)]
out.write('*NSET, NSET=SUP\n' + '\n'.join(map(str, sorted(sup))) + '\n')
out.write('''*MATERIAL, NAME=STEEL
*ELASTIC
2.0E11, 0.3
*DENSITY
8000.
*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL
*BOUNDARY
SUP, 3, 3
*STEP
*FREQUENCY
10
*NODE FILE
U
*END STEP
''')
print(len(nodes), 'nodes', len(tets), 'tets', len(sup), 'supported nodes', file=sys.stderr)
