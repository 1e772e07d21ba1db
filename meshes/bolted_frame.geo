// A steel base block bolted to a small portal frame: a hex8 block [-a, a] x [-b, b] x [0, h]
// (its three parts in x: the two base plates' patches [+-(c - p), +-(c + p)] and the middle) and
// a portal of line2 cells: two columns at x = +-c, y = 0, from their feet (0, 0, g) above the
// patches (the base plates' thickness: the feet are no nodes of the block) up to z = h + g + H,
// and the girder between the column tops. Symmetric about x = 0.
// Physical groups: volume "block", surfaces "plate_left", "plate_right" (the patches of the top
// face under the columns), "block_top_free" (the rest of the top face), "block_base" (z = 0);
// curves "columns", "girder"; points "foot_left", "foot_right", "load_point" (the girder's
// middle, (0, 0, h + g + H)).
// gmsh -3 -format msh41 bolted_frame.geo -o bolted_frame.msh
DefineConstant[ a = 0.6, b = 0.2, h = 0.2, c = 0.5, p = 0.1, g = 0.02, H = 1.5,
                nx = 2, nm = 4, ny = 4, nz = 2, nc = 6, ng = 4 ];
xs[] = {-a, -(c - p), c - p, a};
For i In {0:3}
  Point(1 + i) = {xs[i], -b, 0};
  Point(5 + i) = {xs[i], b, 0};
EndFor
For i In {0:2}
  Line(1 + i) = {1 + i, 2 + i};    // y = -b
  Line(4 + i) = {5 + i, 6 + i};    // y = +b
EndFor
For i In {0:3}
  Line(7 + i) = {1 + i, 5 + i};    // along y
EndFor
For i In {0:2}
  Curve Loop(1 + i) = {1 + i, 8 + i, -(4 + i), -(7 + i)};
  Plane Surface(1 + i) = {1 + i};
EndFor
Transfinite Curve {1, 4, 3, 6} = nx + 1;
Transfinite Curve {2, 5} = nm + 1;
Transfinite Curve {7:10} = ny + 1;
Transfinite Surface {1:3};
Recombine Surface {1:3};
e1[] = Extrude {0, 0, h} { Surface{1}; Layers{nz}; Recombine; };
e2[] = Extrude {0, 0, h} { Surface{2}; Layers{nz}; Recombine; };
e3[] = Extrude {0, 0, h} { Surface{3}; Layers{nz}; Recombine; };
Coherence;
// The portal.
Point(101) = {-c, 0, h + g};
Point(102) = {c, 0, h + g};
Point(103) = {-c, 0, h + g + H};
Point(104) = {c, 0, h + g + H};
Point(105) = {0, 0, h + g + H};
Line(101) = {101, 103};
Line(102) = {102, 104};
Line(103) = {103, 105};
Line(104) = {105, 104};
Transfinite Curve {101, 102} = nc + 1;
Transfinite Curve {103, 104} = ng / 2 + 1;
Physical Volume("block", 1) = {e1[1], e2[1], e3[1]};
Physical Surface("plate_left", 2) = {e1[0]};
Physical Surface("plate_right", 3) = {e3[0]};
Physical Surface("block_top_free", 4) = {e2[0]};
Physical Surface("block_base", 5) = {1, 2, 3};
Physical Curve("columns", 6) = {101, 102};
Physical Curve("girder", 7) = {103, 104};
Physical Point("foot_left", 8) = {101};
Physical Point("foot_right", 9) = {102};
Physical Point("load_point", 10) = {105};
