// meshes/slide_pair.geo with the block 2 mm into the slab (its bottom at z = 0.048, the slab's
// top at 0.05): a contact pair that starts interpenetrated (tests/scripts/contact_setup.sh).
// A block (0.1 m cube, 4 x 4 x 4 hex8) in a slab (0.4 x 0.2 x 0.05 m, 16 x 8 x 2 hex8),
// sharing no node.
// Physical groups: slab, block, slab_top, block_bottom, slab_bottom.
Geometry.AutoCoherence = 0;
Macro Brick  // lower corner (x0, y0, z0), size (a, b, c), cells (na, nb, nc)
  p = newp;
  Point(p) = {x0, y0, z0}; Point(p + 1) = {x0 + a, y0, z0};
  Point(p + 2) = {x0 + a, y0 + b, z0}; Point(p + 3) = {x0, y0 + b, z0};
  l = newl;
  Line(l) = {p, p + 1}; Line(l + 1) = {p + 1, p + 2}; Line(l + 2) = {p + 2, p + 3}; Line(l + 3) = {p + 3, p};
  Transfinite Curve {l, l + 2} = na + 1; Transfinite Curve {l + 1, l + 3} = nb + 1;
  cl = newll; Curve Loop(cl) = {l, l + 1, l + 2, l + 3};
  s = news; Plane Surface(s) = {cl};
  Transfinite Surface {s}; Recombine Surface {s};
  out[] = Extrude {0, 0, c} { Surface{s}; Layers{nc}; Recombine; };
Return
x0 = 0; y0 = 0; z0 = 0; a = 0.4; b = 0.2; c = 0.05; na = 16; nb = 8; nc = 2;
Call Brick;
Physical Volume("slab") = {out[1]};
Physical Surface("slab_bottom") = {s};
Physical Surface("slab_top") = {out[0]};
x0 = 0.05; y0 = 0.05; z0 = 0.048; a = 0.1; b = 0.1; c = 0.1; na = 4; nb = 4; nc = 4;
Call Brick;
Physical Volume("block") = {out[1]};
Physical Surface("block_bottom") = {s};
Mesh.MshFileVersion = 4.1;
