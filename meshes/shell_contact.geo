// Shells in contact (tests/scripts/shell_contact.sh): flat plates in planes z = const, meshed
// apart (no shared nodes, non-matching). "lower": 1 x 1 m at z = 0, 8 x 8 quads (edges
// "lower_edges"); "upper": 0.5 x 0.5 m centred over it at z = 0.03, 5 x 5; "below": the same at
// z = -0.03. "block": a solid 0.5 x 0.5 x 0.1 m box (hex8, 5 x 5 x 2) under the lower plate,
// its top 0.06 m below it (z = -0.06), its top face "block_top". Thicknesses are the case's.
//   gmsh -3 shell_contact.geo -o shell_contact.msh
SetFactory("Built-in");
Point(1) = {0, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {1, 1, 0}; Point(4) = {0, 1, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Transfinite Curve {1, 2, 3, 4} = 9; Transfinite Surface {1}; Recombine Surface {1};
For k In {0:2}
  z = k == 0 ? 0.03 : (k == 1 ? -0.03 : -0.16);
  p = newp;
  Point(p) = {0.25, 0.25, z}; Point(p + 1) = {0.75, 0.25, z};
  Point(p + 2) = {0.75, 0.75, z}; Point(p + 3) = {0.25, 0.75, z};
  l = newl;
  Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3};
  Line(l + 3) = {p + 3, p};
  c = newll; Curve Loop(c) = {l, l + 1, l + 2, l + 3};
  s = news; Plane Surface(s) = {c};
  Transfinite Curve {l, l + 1, l + 2, l + 3} = 6; Transfinite Surface {s}; Recombine Surface {s};
  plate[k] = s;
EndFor
block[] = Extrude {0, 0, 0.1} { Surface{plate[2]}; Layers{2}; Recombine; };
Physical Surface("lower") = {1};
Physical Curve("lower_edges") = {1, 2, 3, 4};
Physical Surface("upper") = {plate[0]};
Physical Surface("below") = {plate[1]};
Physical Volume("block") = {block[1]};
Physical Surface("block_top") = {block[0]};
Mesh.MshFileVersion = 4.1;
