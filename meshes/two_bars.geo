Geometry.AutoCoherence = 0;  // the bars touch but share no node
// Two identical bars along x, end to end and touching (nodes not shared): the left bar
// (x in [0, 1]) hits the right one (x in [1, 2]). 0.05 m x 0.05 m, hex8: 40 x 2 x 2 each.
// Physical groups: the volumes bar1 and bar2, the touching end faces bar1_end and bar2_end, and
// both of them as one surface, ends (self-contact). gmsh -3 two_bars.geo -o two_bars.msh
L = 1; w = 0.05; n = 40; m = 2;
For b In {0:1}
  x0 = b * L;
  p = newp;
  Point(p) = {x0, 0, 0}; Point(p + 1) = {x0, w, 0}; Point(p + 2) = {x0, w, w}; Point(p + 3) = {x0, 0, w};
  l = newl;
  Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3}; Line(l + 3) = {p + 3, p};
  c = newll; Curve Loop(c) = {l, l + 1, l + 2, l + 3};
  s = news; Plane Surface(s) = {c};
  Transfinite Curve {l:l + 3} = m + 1;
  Transfinite Surface {s};
  Recombine Surface {s};
  out[] = Extrude {L, 0, 0} { Surface{s}; Layers{n}; Recombine; };
  // out[0]: the far face (x = x0 + L), out[1]: the volume.
  If (b == 0)
    Physical Volume("bar1") = {out[1]};
    Physical Surface("bar1_end") = {out[0]};
  Else
    Physical Volume("bar2") = {out[1]};
    Physical Surface("bar2_end") = {s};
    Physical Surface("ends") = {s, end1};
  EndIf
  end1 = out[0];
EndFor
Mesh.MshFileVersion = 4.1;
