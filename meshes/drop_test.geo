// A steel block above a steel plate (examples/drop_test). The plate: 0.6 m x 0.6 m x 0.02 m,
// x and y in [-0.3, 0.3], z in [-0.02, 0], hex8: 10 x 10 cells of 0.01 m under the block, 0.0125 m
// outside it, 2 through the thickness (fully integrated hex8 is too stiff in bending: this mesh's
// first plate frequency is 531 Hz against 498 Hz for a thin plate, 620 Hz with cells growing to
// 0.037 m at the edges). The block: a 0.1 m cube above the plate's centre, its bottom face `gap`
// above the plate's top, hex8 of 0.01 m x 0.01 m x 0.02 m.
// Physical groups: the volumes plate and block; block_bottom and plate_top (the contact pair);
// plate_edges (the four side faces of the plate, the supports); plate_centre (the top face under
// the block, loaded by examples/drop_test/stiffness.yaml). The gap keeps the two bodies apart, so
// the default Geometry.AutoCoherence is kept: it joins the plate's nine patches (with gap = 0 the
// bodies would share nodes, and Geometry.AutoCoherence = 0 would split the plate).
// gmsh -3 drop_test.geo -format msh41 -o drop_test.msh
a = 0.3; h = 0.02; b = 0.05; H = 0.1; gap = 0.001;
nc = 10; no = 20; nt = 2; nb = 5;  // cells: under the block, outside it, thickness, block height

// The plate: 3 x 3 patches in the plane (the middle one under the block), extruded down.
xs[] = {-a, -b, b, a};
For j In {0:3}
  For i In {0:3}
    pt[4 * j + i] = newp; Point(pt[4 * j + i]) = {xs[i], xs[j], 0};
  EndFor
EndFor
// Lines along x (hx[3 * j + i]: from column i to i + 1 on row j) and along y (hy[4 * j + i]).
For j In {0:3}
  For i In {0:2}
    hx[3 * j + i] = newl; Line(hx[3 * j + i]) = {pt[4 * j + i], pt[4 * j + i + 1]};
    Transfinite Curve {hx[3 * j + i]} = (i == 1 ? nc : no) + 1;
  EndFor
EndFor
For j In {0:2}
  For i In {0:3}
    hy[4 * j + i] = newl; Line(hy[4 * j + i]) = {pt[4 * j + i], pt[4 * (j + 1) + i]};
    Transfinite Curve {hy[4 * j + i]} = (j == 1 ? nc : no) + 1;
  EndFor
EndFor
top[] = {};
For j In {0:2}
  For i In {0:2}
    c = newll;
    Curve Loop(c) = {hx[3 * j + i], hy[4 * j + i + 1], -hx[3 * (j + 1) + i], -hy[4 * j + i]};
    s = news; Plane Surface(s) = {c};
    Transfinite Surface {s}; Recombine Surface {s};
    top[] += s;
  EndFor
EndFor
plate[] = {}; edges[] = {};
For k In {0:8}
  out[] = Extrude {0, 0, -h} { Surface{top[k]}; Layers{nt}; Recombine; };
  // out[0]: the bottom face, out[1]: the volume, out[2..5]: the sides along the curve loop
  // (y = row's lower edge, x = column's right edge, y = upper edge, x = left edge).
  plate[] += out[1];
  i = k % 3; j = (k - i) / 3;
  If (j == 0)
    edges[] += out[2];
  EndIf
  If (i == 2)
    edges[] += out[3];
  EndIf
  If (j == 2)
    edges[] += out[4];
  EndIf
  If (i == 0)
    edges[] += out[5];
  EndIf
EndFor

// The block: its bottom face extruded up.
p = newp;
Point(p) = {-b, -b, gap}; Point(p + 1) = {b, -b, gap}; Point(p + 2) = {b, b, gap}; Point(p + 3) = {-b, b, gap};
l = newl;
Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3}; Line(l + 3) = {p + 3, p};
Transfinite Curve {l:l + 3} = nc + 1;
c = newll; Curve Loop(c) = {l, l + 1, l + 2, l + 3};
s = news; Plane Surface(s) = {c};
Transfinite Surface {s}; Recombine Surface {s};
blk[] = Extrude {0, 0, H} { Surface{s}; Layers{nb}; Recombine; };

Physical Volume("plate") = {plate[]};
Physical Volume("block") = {blk[1]};
Physical Surface("plate_top") = {top[]};
Physical Surface("block_bottom") = {s};
Physical Surface("plate_edges") = {edges[]};
Physical Surface("plate_centre") = {top[4]};
Mesh.MshFileVersion = 4.1;
