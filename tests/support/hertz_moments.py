#!/usr/bin/env python3
"""The contact of an elastic sphere on a rigid plane, from an inertia run, against Hertz.

    python3 hertz_moments.py OUTPUT_DIR MESH --youngs 2e11 --poisson 0.3 --radius 0.01 \
        [--wall floor] [--copies 4] [--delta 1e-4] [--nodes]

Reads the run's last VTK frame (the point field `contact_pressure`; the pieces' raw appended,
zlib-compressed arrays, with the standard library only), the wall's row of contact.csv, and the
faces of the mesh's physical group "contact" (Gmsh MSH 4.1 ASCII). The sphere touches the plane
z = 0 at the origin; the model may be a symmetric part of it: `--copies` is how many such parts
make the whole (4: a quarter, cut by x = 0 and y = 0).

Hertz, for a sphere of radius R on a rigid plane, E* = E / (1 - nu^2): the total force F and the
contact radius a satisfy a^3 = 3 F R / (4 E*), and the pressure is p0 sqrt(1 - r^2 / a^2) with
p0 = 3 F / (2 pi a^2). Its moments: <r^2> = 2/5 a^2 and <r^4> / <r^2>^2 = 10/7, <r^k> the
force-weighted mean of r^k. The run's are taken over the nodal contact forces f_i = p_i A_i
(p_i the node's contact_pressure, A_i its share of the contact faces' area as the walls compute
it: a third of a straight triangle for tri3, for tri6 1/19 at the corners and 16/57 at the
mid-side nodes), with r_i the node's distance from the axis in the reference configuration (the
gap to a plane wall, z + u_z, depends on no other coordinate). So:
- a_moment = sqrt(5/2 <r^2>), compared with a_Hertz(F) = (3 F R / (4 E*))^(1/3), F the wall's
  force in contact.csv (times `--copies`): both from the run's own contact, whatever the load
  that produced it;
- <r^4> / <r^2>^2 against 10/7 (the pressure's shape; a uniform pressure gives 4/3, a parabolic
  one, as on a bed of springs, 3/2);
- sum(f_i) against the wall's force in contact.csv (the pressure field and the area shares).
Moments of the forces rather than the nodal pressures: on tri6 faces the solved forces follow the
consistent load (a smooth pressure gives the corners almost nothing), so contact_pressure
alternates between about 0.1 p0 at corner nodes and 1.16 p0 at mid-side nodes near the pole,
while sum(f_i r_i^2) is the integral of the pressure times r^2, which flat quadratic faces
interpolate exactly.
Prints one `key value` line per measure (--nodes: then r / a, p / p0 per node in contact).
"""

import argparse
import glob
import math
import os
import re
import struct
import sys
import zlib

ARRAY = re.compile(r'<DataArray type="(\w+)" Name="(\w+)"(?: NumberOfComponents="(\d+)")?'
                   r' format="appended"[^>]*? offset="(\d+)"')


def read_vtu(path):
    """{name: list of values (tuples for vectors)} of a .vtu with raw appended, zlib-compressed,
    UInt64-headed arrays (inertia's pieces)."""
    raw = open(path, "rb").read()
    start = raw.index(b'<AppendedData encoding="raw">')
    base = raw.index(b"_", start) + 1
    arrays = {}
    for m in ARRAY.finditer(raw[:start].decode()):
        kind, name, comps, offset = m.group(1), m.group(2), int(m.group(3) or 1), int(m.group(4))
        p = base + offset
        blocks = struct.unpack_from("<Q", raw, p)[0]
        sizes = struct.unpack_from(f"<{3 + blocks}Q", raw, p)[3:]
        p += 8 * (3 + blocks)
        data = b""
        for s in sizes:
            data += zlib.decompress(raw[p:p + s])
            p += s
        code = {"Float64": "d", "Int64": "q", "UInt8": "B"}[kind]
        values = struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}", data)
        arrays[name] = [values[i:i + comps] for i in range(0, len(values), comps)] \
            if comps > 1 else list(values)
    return arrays


def last_frame(out):
    """Per point (its reference coordinates) the contact pressure of the run's last frame; the
    pieces repeat the points ranks share, which must agree."""
    frames = sorted(glob.glob(os.path.join(out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu")))
    if not frames:
        sys.exit(f"hertz_moments: no .pvtu frame in {out}")
    pressure = {}
    for piece in sorted(glob.glob(frames[-1][:-len(".pvtu")] + "/piece_*.vtu")):
        d = read_vtu(piece)
        for x, p in zip(d["Points"], d["contact_pressure"]):
            if x in pressure and pressure[x] != p:
                sys.exit(f"hertz_moments: point {x}: pressure {pressure[x]} and {p} in two pieces")
            pressure[x] = p
    return pressure


def area_shares(mesh, group):
    """Per node (its coordinates) its share of the area of the faces of physical group `group`."""
    lines = open(mesh).read().split("\n")
    i = lines.index("$PhysicalNames")
    tags = {}
    for line in lines[i + 2:i + 2 + int(lines[i + 1])]:
        dim, tag, name = line.split(maxsplit=2)
        tags[(int(dim), name.strip('"'))] = int(tag)
    tag = tags[(2, group)]
    i = lines.index("$Entities")
    points, curves, surfaces, _ = map(int, lines[i + 1].split())
    in_group = set()
    for line in lines[i + 2 + points + curves:i + 2 + points + curves + surfaces]:
        f = line.split()
        if tag in map(int, f[8:8 + int(f[7])]):
            in_group.add(int(f[0]))
    i = lines.index("$Nodes")
    xyz, j = {}, i + 2
    for _ in range(int(lines[i + 1].split()[0])):
        n = int(lines[j].split()[3])
        for k in range(n):
            xyz[int(lines[j + 1 + k])] = tuple(map(float, lines[j + 1 + n + k].split()))
        j += 1 + 2 * n
    i = lines.index("$Elements")
    share, j = {}, i + 2
    for _ in range(int(lines[i + 1].split()[0])):
        dim, entity, kind, n = map(int, lines[j].split())
        if dim == 2 and entity in in_group:
            weights = {2: [1 / 3] * 3, 9: [1 / 19] * 3 + [16 / 57] * 3}[kind]
            for line in lines[j + 1:j + 1 + n]:
                nodes = [xyz[int(t)] for t in line.split()[1:]]
                u = [nodes[1][c] - nodes[0][c] for c in range(3)]
                v = [nodes[2][c] - nodes[0][c] for c in range(3)]
                w = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                     u[0] * v[1] - u[1] * v[0])
                area = 0.5 * math.sqrt(sum(c * c for c in w))
                for x, s in zip(nodes, weights):
                    share[x] = share.get(x, 0.0) + s * area
        j += 1 + n
    return share


def two_body_frame(out, mesh, groups):
    """For two bodies pressed together along z (the first group's body above): per group, {point:
    contact pressure} of the run's last frame at the nodes of that group's faces, and the groups'
    area shares. A point of both groups (the two bodies' nodes at one place, where they first
    touched) is told apart by its cells: the upper body's reach above z = 0."""
    frames = sorted(glob.glob(os.path.join(out, "*_[0-9][0-9][0-9][0-9][0-9][0-9].pvtu")))
    if not frames:
        sys.exit(f"hertz_moments: no .pvtu frame in {out}")
    shares = [area_shares(mesh, g) for g in groups]
    pressures = [{}, {}]
    for piece in sorted(glob.glob(frames[-1][:-len(".pvtu")] + "/piece_*.vtu")):
        d = read_vtu(piece)
        points = d["Points"]
        above = [None] * len(points)  # per point: its cells reach above z = 0
        start = 0
        for end in d["offsets"]:
            cell = d["connectivity"][start:end]
            up = max(points[i][2] for i in cell) > 0
            for i in cell:
                above[i] = up
            start = end
        for x, up, p in zip(points, above, d["contact_pressure"]):
            k = 0 if up else 1
            if x not in shares[k]:
                continue
            if x in pressures[k] and pressures[k][x] != p:
                sys.exit(f"hertz_moments: point {x}: pressure {pressures[k][x]} and {p}")
            pressures[k][x] = p
    return pressures, shares


def moments(pressure, share, force, youngs, poisson, radius):
    """The contact radius and pressure shape of nodal pressures (module text) against Hertz's
    for the total force `force`; sum_p_area: the sum of pressure x area share."""
    contact = [(math.hypot(x[0], x[1]), p * share[x]) for x, p in pressure.items() if p > 0]
    f = sum(c[1] for c in contact)
    m2 = sum(c[1] * c[0] ** 2 for c in contact) / f
    m4 = sum(c[1] * c[0] ** 4 for c in contact) / f
    a_hertz = (3 * force * radius * (1 - poisson ** 2) / (4 * youngs)) ** (1 / 3)
    return {"sum_p_area": f, "a_ratio": math.sqrt(2.5 * m2) / a_hertz,
            "shape_ratio": m4 / m2 ** 2 / (10 / 7), "nodes": len(contact)}


def wall_row(out, wall):
    rows = [line.strip().split(",") for line in open(os.path.join(out, "contact.csv"))
            if line.strip() and not line.startswith("#")]
    return dict(zip(rows[0], map(float, rows[-1])))


def measure(out, mesh, youngs, poisson, radius, wall="floor", copies=4, delta=None):
    """The measures as a dict (see the module's text), and the nodes in contact (r, p)."""
    pressure = last_frame(out)
    share = area_shares(mesh, "contact")
    row = wall_row(out, wall)
    contact = [(math.hypot(x[0], x[1]), p, p * share[x]) for x, p in pressure.items() if p > 0]
    outside = [x for x, p in pressure.items() if p > 0 and x not in share]
    if outside:
        sys.exit(f"hertz_moments: {len(outside)} nodes with a pressure off the contact faces")
    f = sum(c[2] for c in contact)
    if not contact or f <= 0 or row[f"{wall}.fz"] <= 0:
        sys.exit(f"hertz_moments: no contact force: {len(contact)} nodes with a pressure, the "
                 f"wall's force {row[f'{wall}.fz']} N (expected along +z)")
    m2 = sum(c[2] * c[0] ** 2 for c in contact) / f
    m4 = sum(c[2] * c[0] ** 4 for c in contact) / f
    e_star = youngs / (1 - poisson ** 2)
    force = copies * row[f"{wall}.fz"]
    a_hertz = (3 * force * radius / (4 * e_star)) ** (1 / 3)
    a_moment = math.sqrt(2.5 * m2)
    m = {
        "force": force,
        "force_from_pressure_error": f / row[f"{wall}.fz"] - 1,
        "active": int(row[f"{wall}.active"]),
        "penetration": row[f"{wall}.penetration"],
        "a_hertz": a_hertz,
        "a_moment": a_moment,
        "a_ratio": a_moment / a_hertz,
        "shape": m4 / m2 ** 2,
        "shape_ratio": m4 / m2 ** 2 / (10 / 7),
        "outermost_node_over_a": max(c[0] for c in contact) / a_hertz,
        "p0_hertz": 3 * force / (2 * math.pi * a_hertz ** 2),
    }
    if delta:
        m["force_over_hertz_of_delta"] = force / (4 / 3 * e_star * math.sqrt(radius) * delta ** 1.5)
        m["penetration_over_delta"] = m["penetration"] / delta
    return m, sorted((c[0], c[1]) for c in contact)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("mesh")
    parser.add_argument("--youngs", type=float, required=True)
    parser.add_argument("--poisson", type=float, required=True)
    parser.add_argument("--radius", type=float, required=True)
    parser.add_argument("--wall", default="floor")
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--delta", type=float, help="the flat face's displacement (for F(delta))")
    parser.add_argument("--nodes", action="store_true", help="print r / a, p / p0 per node")
    args = parser.parse_args()
    m, nodes = measure(args.out, args.mesh, args.youngs, args.poisson, args.radius, args.wall,
                       args.copies, args.delta)
    for k, v in m.items():
        print(f"{k} {v:.12g}")
    if args.nodes:
        for r, p in nodes:
            print(f"node {r / m['a_hertz']:.5f} {p / m['p0_hertz']:.5f}")


if __name__ == "__main__":
    main()
