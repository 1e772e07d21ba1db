// A rigid weight on the end of an elastic bar (tests/scripts/rigid_body.sh), hex8, 0.05 m x
// 0.05 m, one cell across: the weight x in [-0.01, 0] (1 cell), the bar x in [0, 1] (100
// cells). Welded = 1 (rigid_bar.msh): they share the nodes at x = 0; Welded = 0
// (rigid_bar_pair.msh): they touch there without sharing a node, with the faces weight_face and
// bar_start for a contact pair. Physical groups: the volumes weight and bar, the bar's far end
// bar_end (x = 1).
// gmsh -3 rigid_bar.geo -o rigid_bar.msh
// gmsh -3 -setnumber Welded 0 rigid_bar.geo -o rigid_bar_pair.msh
If (!Exists(Welded))
  Welded = 1;
EndIf
Geometry.AutoCoherence = Welded;
w = 0.05;
For b In {0:1}
  x0 = (b == 0) ? -0.01 : 0;
  len = (b == 0) ? 0.01 : 1;
  n = (b == 0) ? 1 : 100;
  p = newp;
  Point(p) = {x0, 0, 0}; Point(p + 1) = {x0, w, 0}; Point(p + 2) = {x0, w, w}; Point(p + 3) = {x0, 0, w};
  l = newl;
  Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3}; Line(l + 3) = {p + 3, p};
  c = newll; Curve Loop(c) = {l, l + 1, l + 2, l + 3};
  s = news; Plane Surface(s) = {c};
  Transfinite Curve {l:l + 3} = 2;
  Transfinite Surface {s};
  Recombine Surface {s};
  out[] = Extrude {len, 0, 0} { Surface{s}; Layers{n}; Recombine; };
  If (b == 0)
    Physical Volume("weight") = {out[1]};
    If (!Welded)
      Physical Surface("weight_face") = {out[0]};
    EndIf
  Else
    Physical Volume("bar") = {out[1]};
    Physical Surface("bar_end") = {out[0]};
    If (!Welded)
      Physical Surface("bar_start") = {s};
    EndIf
  EndIf
EndFor
Mesh.MshFileVersion = 4.1;
