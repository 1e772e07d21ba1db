#!/usr/bin/env python3
"""Regenerates the seed corpus of the fuzz targets (tests/fuzz/corpus/) from the repository's data.

- gmsh/: a few elements of each kind (and the nodes they use) of the Gmsh test meshes of
  tests/data/gmsh, written in the four formats the reader supports (MSH 2.2 and 4.1, ASCII and
  binary, 4- and 8-byte sizes, parametric nodes, unknown sections, no physical groups, tet10).
- case_file/: the example case files (examples/*/*.yaml) without their comment lines.
- split/: splits (`inertia --split N`) of small cases on the gmsh/ seeds and the hanging mass: tet4
  and tet10 solids with their faces, edge springs, line springs and point masses, for 1 to 3 ranks.
  These need the inertia program: $INERTIA, else build/bin/inertia.

Seeds are small (libFuzzer mutates small inputs best: each under the campaign's 8192-byte
max_len) and the whole corpus stays in the tens of KB.
Usage: tests/fuzz/make_corpus.py (writes into tests/fuzz/corpus/, replacing what is there).
"""

import glob
import os
import shutil
import struct
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "gmsh")

NUM_NODES = {1: 2, 2: 3, 3: 4, 4: 4, 5: 8, 8: 3, 9: 6, 11: 10, 15: 1}
DIM = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 8: 1, 9: 2, 11: 3, 15: 0}


class Mesh:
    def __init__(self):
        self.names = []  # (dim, tag, name)
        self.nodes = {}  # tag -> (x, y, z)
        self.elements = []  # (type, entity tag, [physical tags], [node tags])


def read_msh22(path):
    m = Mesh()
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "$PhysicalNames":
            n = int(lines[i + 1])
            for line in lines[i + 2:i + 2 + n]:
                dim, tag, name = line.split(" ", 2)
                m.names.append((int(dim), int(tag), name.strip('"')))
        elif lines[i] == "$Nodes":
            n = int(lines[i + 1])
            for line in lines[i + 2:i + 2 + n]:
                t, x, y, z = line.split()
                m.nodes[int(t)] = (float(x), float(y), float(z))
        elif lines[i] == "$Elements":
            n = int(lines[i + 1])
            for line in lines[i + 2:i + 2 + n]:
                f = [int(v) for v in line.split()]
                ntags = f[2]
                tags = f[3:3 + ntags]
                physical = [tags[0]] if tags and tags[0] != 0 else []
                m.elements.append((f[1], tags[1] if ntags > 1 else 0, physical, f[3 + ntags:]))
        i += 1
    return m


def read_msh41(path):
    m = Mesh()
    it = iter(open(path).read().split("\n"))
    entities = {}
    for line in it:
        if line == "$PhysicalNames":
            for _ in range(int(next(it))):
                dim, tag, name = next(it).split(" ", 2)
                m.names.append((int(dim), int(tag), name.strip('"')))
        elif line == "$Entities":
            counts = [int(v) for v in next(it).split()]
            for dim in range(4):
                for _ in range(counts[dim]):
                    f = next(it).split()
                    k = 4 if dim == 0 else 7
                    entities[(dim, int(f[0]))] = [int(v) for v in f[k + 1:k + 1 + int(f[k])]]
        elif line == "$Nodes":
            blocks = int(next(it).split()[0])
            for _ in range(blocks):
                dim, _, parametric, count = (int(v) for v in next(it).split())
                tags = [int(next(it)) for _ in range(count)]
                for t in tags:
                    m.nodes[t] = tuple(float(v) for v in next(it).split()[:3])
        elif line == "$Elements":
            blocks = int(next(it).split()[0])
            for _ in range(blocks):
                dim, entity, etype, count = (int(v) for v in next(it).split())
                for _ in range(count):
                    f = [int(v) for v in next(it).split()]
                    m.elements.append((etype, entity, entities.get((dim, entity), []), f[1:]))
    return m


def subset(m, per_kind):
    """The first `per_kind` elements of each (type, entity, groups), and the nodes they use."""
    s = Mesh()
    s.names = m.names
    seen = {}
    for e in m.elements:
        key = (e[0], e[1], tuple(e[2]))
        if seen.get(key, 0) < per_kind:
            seen[key] = seen.get(key, 0) + 1
            s.elements.append(e)
    used = sorted({n for e in s.elements for n in e[3]})
    s.nodes = {t: m.nodes[t] for t in used}
    return s


def fmt(x):
    return repr(x) if x != int(x) else str(int(x))


def names_section(m):
    if not m.names:
        return ""
    out = "$PhysicalNames\n%d\n" % len(m.names)
    out += "".join('%d %d "%s"\n' % n for n in m.names)
    return out + "$EndPhysicalNames\n"


def write_msh22(m, binary, extra=""):
    out = "$MeshFormat\n2.2 %d 8\n" % binary
    data = out.encode()
    if binary:
        data += struct.pack("<i", 1) + b"\n"
    data += b"$EndMeshFormat\n" + names_section(m).encode() + extra.encode()
    data += b"$Nodes\n%d\n" % len(m.nodes)
    if binary:
        data += b"".join(struct.pack("<i3d", t, *x) for t, x in m.nodes.items()) + b"\n"
    else:
        data += "".join("%d %s\n" % (t, " ".join(fmt(v) for v in x))
                        for t, x in m.nodes.items()).encode()
    data += b"$EndNodes\n$Elements\n%d\n" % len(m.elements)
    for k, (etype, entity, physical, nodes) in enumerate(m.elements, 1):
        tags = [physical[0] if physical else 0, entity]
        if binary:
            data += struct.pack("<3i", etype, 1, len(tags))
            data += struct.pack("<%di" % (1 + len(tags) + len(nodes)), k, *tags, *nodes)
        else:
            data += ("%d %d %d %s %s\n" % (k, etype, len(tags), " ".join(map(str, tags)),
                                           " ".join(map(str, nodes)))).encode()
    if binary:
        data += b"\n"
    return data + b"$EndElements\n"


def write_msh41(m, binary, size_bytes=8, parametric=False):
    entities = {}  # (dim, tag) -> (physicals, nodes)
    for etype, entity, physical, nodes in m.elements:
        ent = entities.setdefault((DIM[etype], entity), (set(), set()))
        ent[0].update(physical)
        ent[1].update(nodes)
    size = "<I" if size_bytes == 4 else "<Q"
    pieces = []

    def put(fmt_, *values, text=None):
        pieces.append(struct.pack(fmt_, *values) if binary else (text or "").encode())

    def sizes(*values):
        if binary:
            for v in values:
                pieces.append(struct.pack(size, v))
        else:
            pieces.append((" ".join(map(str, values)) + "\n").encode())

    head = "$MeshFormat\n4.1 %d %d\n" % (binary, size_bytes)
    pieces.append(head.encode())
    if binary:
        pieces.append(struct.pack("<i", 1) + b"\n")
    pieces.append(b"$EndMeshFormat\n" + names_section(m).encode() + b"$Entities\n")
    counts = [sum(1 for d, _ in entities if d == dim) for dim in range(4)]
    sizes(*counts)
    for (dim, tag), (physicals, nodes) in sorted(entities.items()):
        xs = [m.nodes[n] for n in nodes]
        lo = [min(x[k] for x in xs) for k in range(3)]
        hi = [max(x[k] for x in xs) for k in range(3)]
        box = lo if dim == 0 else lo + hi
        ph = sorted(physicals)
        if binary:
            pieces.append(struct.pack("<i%dd" % len(box), tag, *box))
            pieces.append(struct.pack(size, len(ph)) + struct.pack("<%di" % len(ph), *ph))
            if dim > 0:
                pieces.append(struct.pack(size, 0))
        else:
            fields = [str(tag)] + [fmt(v) for v in box] + [str(len(ph))] + list(map(str, ph))
            fields += ["0"] if dim > 0 else []
            pieces.append((" ".join(fields) + " \n").encode())
    pieces.append(b"%s$EndEntities\n$Nodes\n" % (b"\n" if binary else b""))
    volume = min(t for d, t in entities if d == max(d for d, _ in entities))
    tags = list(m.nodes)
    sizes(1, len(tags), min(tags), max(tags))
    if binary:
        pieces.append(struct.pack("<3i", 3, volume, int(parametric)))
        pieces.append(struct.pack(size, len(tags)))
        pieces.append(b"".join(struct.pack(size, t) for t in tags))
        extra = (0.25, 0.5, 0.75) if parametric else ()
        pieces.append(b"".join(struct.pack("<%dd" % (3 + len(extra)), *m.nodes[t], *extra)
                               for t in tags))
    else:
        pieces.append(b"3 %d %d %d\n" % (volume, int(parametric), len(tags)))
        pieces.append("".join("%d\n" % t for t in tags).encode())
        extra = " 0.25 0.5 0.75" if parametric else ""
        pieces.append("".join(" ".join(fmt(v) for v in m.nodes[t]) + extra + "\n"
                              for t in tags).encode())
    pieces.append(b"%s$EndNodes\n$Elements\n" % (b"\n" if binary else b""))
    blocks = {}
    for etype, entity, physical, nodes in m.elements:
        block = blocks.setdefault((DIM[etype], entity, etype), [])
        if nodes not in block:
            block.append(nodes)
    total = sum(len(b) for b in blocks.values())
    sizes(len(blocks), total, 1, total)
    k = 0
    for (dim, entity, etype), elements in sorted(blocks.items()):
        if binary:
            pieces.append(struct.pack("<3i", dim, entity, etype) + struct.pack(size, len(elements)))
        else:
            pieces.append(b"%d %d %d %d\n" % (dim, entity, etype, len(elements)))
        for nodes in elements:
            k += 1
            if binary:
                pieces.append(b"".join(struct.pack(size, v) for v in [k] + nodes))
            else:
                pieces.append((" ".join(map(str, [k] + nodes)) + " \n").encode())
    pieces.append(b"%s$EndElements\n" % (b"\n" if binary else b""))
    return b"".join(pieces)


# Split seeds: (name, mesh file, case lines, rank counts).
SPLIT_CASES = [
    ("box_tet4", os.path.join(HERE, "corpus", "gmsh", "box_22.msh"),
     "materials: [{region: body, density: 1000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}]\n"
     "springs: [{region: left, edges_of: surface, stiffness: 10.0}]\n"
     "point_masses: [{region: corner, mass: 1.0}]\n", (1, 2, 3)),
    ("tet10", os.path.join(HERE, "corpus", "gmsh", "tet10_41.msh"),
     "materials: [{region: body, density: 1000, youngs_modulus: 1.0e9, poissons_ratio: 0.3}]\n",
     (2,)),
    ("hanging_mass", os.path.join(ROOT, "meshes", "hanging_mass.msh"),
     "springs: [{region: spring, stiffness: 100.0}]\n"
     "point_masses: [{region: bob, mass: 1.0}]\n", (1, 2)),
]


def make_splits(out):
    inertia = os.environ.get("INERTIA", os.path.join(ROOT, "build", "bin", "inertia"))
    if not os.access(inertia, os.X_OK):
        raise SystemExit("make_corpus.py: the split seeds need the inertia program; set INERTIA "
                         "(not found: %s)" % inertia)
    with tempfile.TemporaryDirectory() as tmp:
        for name, mesh, lines, rank_counts in SPLIT_CASES:
            shutil.copy(mesh, os.path.join(tmp, "mesh.msh"))
            case = os.path.join(tmp, name + ".yaml")
            with open(case, "w") as f:
                f.write("mesh: {file: mesh.msh}\n" + lines +
                        "time: {integrator: central_difference, dt: 1.0e-6, steps: 1}\n")
            for ranks in rank_counts:
                subprocess.run([inertia, "--split", str(ranks), case], check=True,
                               stdout=subprocess.DEVNULL)
                split = os.path.join(tmp, "%s.p%d.split" % (name, ranks))
                size = os.path.getsize(split)
                assert size <= 8192, "%s: %d bytes, more than the campaign's max_len" % (split, size)
                # Not named *.split: .gitignore keeps splits out of the repository.
                shutil.copy(split, os.path.join(out, "split", "%s_p%d" % (name, ranks)))


def main():
    out = os.path.join(HERE, "corpus")
    for target in ("gmsh", "case_file", "split"):
        shutil.rmtree(os.path.join(out, target), ignore_errors=True)
        os.makedirs(os.path.join(out, target))

    def save(name, data):
        with open(os.path.join(out, "gmsh", name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    box = subset(read_msh22(os.path.join(DATA, "box_22.msh")), 2)
    save("box_22.msh", write_msh22(box, 0))
    save("box_22_bin.msh", write_msh22(box, 1))
    save("box_41.msh", write_msh41(box, 0))
    save("box_41_bin.msh", write_msh41(box, 1))
    save("box_41_bin4.msh", write_msh41(box, 1, size_bytes=4))
    save("box_41_param.msh", write_msh41(box, 0, parametric=True))
    save("box_41_param_bin.msh", write_msh41(box, 1, parametric=True))
    sections = ("$Comments\nsome text\n$EndComments\n"
                "$NodeData\n1\n\"u\"\n1\n0.0\n3\n0\n1\n1\n1 0.5\n$EndNodeData\n")
    save("box_22_sections.msh", write_msh22(box, 0, extra=sections))
    plain = subset(read_msh22(os.path.join(DATA, "plain_22.msh")), 1)
    save("plain_22.msh", write_msh22(plain, 0))
    tet10 = subset(read_msh41(os.path.join(DATA, "box_tet10_41.msh")), 1)
    save("tet10_41.msh", write_msh41(tet10, 0))
    save("tet10_22_bin.msh", write_msh22(tet10, 1))

    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.yaml"))):
        text = "".join(line for line in open(path) if not line.lstrip().startswith("#"))
        name = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path)
        with open(os.path.join(out, "case_file", name), "w") as f:
            f.write(text)

    make_splits(out)


if __name__ == "__main__":
    main()
