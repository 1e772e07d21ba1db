#!/usr/bin/env python3
"""Damages split files (`inertia --split N`) on purpose, for tests/scripts/split.sh and
tests/support/split_bitflip.sh. The layout (include/inertia/partition/split_file.hpp), all in
8-byte little-endian words: magic, version, parts P, facts words F, stamp words S, checksum; P + 1
share offsets (words from the first share); P share checksums; facts; stamp; the shares.
A share starts with node_begin (8 bytes), num_owned (4), then its ghosts (a size word and 8 bytes
each), then its coordinates (a size word and 8 bytes each).

usage:
  split_tool.py flip FILE BIT             flips bit BIT (0 = lowest bit of the first byte)
  split_tool.py set-word FILE WORD VALUE  sets 8-byte word WORD to VALUE
  split_tool.py where FILE WHAT [RANK]    prints a byte offset: header (the rank count's word),
                                          facts (their middle), shares (the first share's start:
                                          the index's length), share (the middle of rank RANK's),
                                          coordinate (the exponent byte of rank RANK's first
                                          coordinate)
  split_tool.py bits FILE                 prints the file's number of bits
  split_tool.py edit-mesh MSH             changes one digit of the first node's first coordinate
                                          in an ASCII Gmsh file, keeping its size
"""
import struct
import sys


def words(data, first, count):
    return struct.unpack_from("<%dQ" % count, data, 8 * first)


def where(path, what, rank):
    data = open(path, "rb").read()
    _, _, parts, facts, stamp, _ = words(data, 0, 6)
    offsets = words(data, 6, parts + 1)
    index = 6 + 2 * parts + 1 + facts + stamp
    if what == "header":
        return 8 * 2
    if what == "facts":
        return 8 * (6 + 2 * parts + 1) + 4 * facts
    if what == "shares":
        return 8 * index
    begin = 8 * (index + offsets[rank])
    if what == "share":
        return (begin + 8 * (index + offsets[rank + 1])) // 2
    if what == "coordinate":
        ghosts, = struct.unpack_from("<Q", data, begin + 12)
        first = begin + 12 + 8 + 8 * ghosts + 8
        return first + 6  # the high bytes of the double hold its exponent
    sys.exit("split_tool.py: unknown place " + what)


def edit_mesh(path):
    text = open(path, "rb").read()
    start = text.index(b"$Nodes")
    lines = text[start:].split(b"\n")
    pos = start
    for line in lines:
        fields = line.split()
        if len(fields) == 3 and all(b"." in f or f.isdigit() for f in fields):
            for k, ch in enumerate(line):
                if 0x31 <= ch <= 0x38:  # a digit 1..8: one more keeps the size
                    at = pos + k
                    data = bytearray(text)
                    data[at] += 1
                    open(path, "wb").write(bytes(data))
                    return
        pos += len(line) + 1
    sys.exit("split_tool.py: no node coordinate to edit in " + path)


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "flip":
        bit = int(sys.argv[3])
        data = bytearray(open(path, "rb").read())
        data[bit // 8] ^= 1 << (bit % 8)
        open(path, "wb").write(bytes(data))
    elif command == "set-word":
        data = bytearray(open(path, "rb").read())
        struct.pack_into("<Q", data, 8 * int(sys.argv[3]), int(sys.argv[4]))
        open(path, "wb").write(bytes(data))
    elif command == "where":
        print(where(path, sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0))
    elif command == "bits":
        print(8 * len(open(path, "rb").read()))
    elif command == "edit-mesh":
        edit_mesh(path)
    else:
        sys.exit("split_tool.py: unknown command " + command)


if __name__ == "__main__":
    main()
