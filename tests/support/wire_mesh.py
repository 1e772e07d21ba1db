# A wire 1 x a x a, N x 2 x 2 hex8, with physical points at its end centres ('pin_a', 'pin_b')
# and one at (0, a, a/2) ('key', holding the twist): MSH 2.2 ASCII.
import sys
N, a = int(sys.argv[1]), float(sys.argv[2])
L = 1.0
nid = lambda i, j, k: 1 + i * 9 + j * 3 + k
nodes = [(nid(i, j, k), i * L / N, j * a / 2, k * a / 2) for i in range(N + 1) for j in range(3) for k in range(3)]
els = []
for i in range(N):
    for j in range(2):
        for k in range(2):
            c = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                 nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
            els.append((5, 1, c))
els += [(15, 2, [nid(0, 1, 1)]), (15, 3, [nid(N, 1, 1)]), (15, 4, [nid(0, 2, 1)])]
out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$PhysicalNames", "4",
       '3 1 "wire"', '0 2 "pin_a"', '0 3 "pin_b"', '0 4 "key"', "$EndPhysicalNames",
       "$Nodes", str(len(nodes))] + [f"{n} {x!r} {y!r} {z!r}" for n, x, y, z in nodes] + ["$EndNodes", "$Elements", str(len(els))]
out += [f"{e + 1} {t} 2 {p} {p} " + " ".join(map(str, c)) for e, (t, p, c) in enumerate(els)]
out += ["$EndElements"]
open(sys.argv[3], "w").write("\n".join(out) + "\n")
