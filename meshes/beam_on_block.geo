// A beam standing on a block: a hex8 block [-a, a] x [-a, a] x [0, h] (2 n x 2 n x m cells) and a
// beam of nb line2 cells along z from the top face's centre (0, 0, h) to (0, 0, h + L). The beam's
// foot is a node of the block's top face (the base square is four quadrants meeting at its centre,
// extruded upwards): a beam end shared with a solid node, which alone transmits forces only.
// Physical groups: volume "block", surface "block_top" (z = h), surface "block_base" (z = 0),
// curve "beam", point "beam_end" (the foot, (0, 0, h)), point "tip" ((0, 0, h + L)), point
// "block_corner" ((a, a, h): a solid node, for the refusals).
// With g > 0 the beam starts g above the face's centre (its foot is no node of the block; "tip"
// at (0, 0, h + g + L)).
// gmsh -3 -format msh41 beam_on_block.geo -o beam_on_block.msh
// gmsh -3 -format msh41 -setnumber g 0.5 beam_on_block.geo -o beam_on_block_offset.msh
DefineConstant[ a = 0.5, h = 1, L = 3, n = 2, m = 4, nb = 6, g = 0 ];
Point(1) = {0, 0, 0};
Point(2) = {a, 0, 0};
Point(3) = {a, a, 0};
Point(4) = {0, a, 0};
Point(5) = {-a, a, 0};
Point(6) = {-a, 0, 0};
Point(7) = {-a, -a, 0};
Point(8) = {0, -a, 0};
Point(9) = {a, -a, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Line(5) = {4, 5};
Line(6) = {5, 6};
Line(7) = {6, 1};
Line(8) = {6, 7};
Line(9) = {7, 8};
Line(10) = {8, 1};
Line(11) = {8, 9};
Line(12) = {9, 2};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {-4, 5, 6, 7};
Curve Loop(3) = {-7, 8, 9, 10};
Curve Loop(4) = {-10, 11, 12, -1};
Plane Surface(1) = {1};
Plane Surface(2) = {2};
Plane Surface(3) = {3};
Plane Surface(4) = {4};
Transfinite Curve {1:12} = n + 1;
Transfinite Surface {1:4};
Recombine Surface {1:4};
q1[] = Extrude {0, 0, h} { Surface{1}; Layers{m}; Recombine; };
q2[] = Extrude {0, 0, h} { Surface{2}; Layers{m}; Recombine; };
q3[] = Extrude {0, 0, h} { Surface{3}; Layers{m}; Recombine; };
q4[] = Extrude {0, 0, h} { Surface{4}; Layers{m}; Recombine; };
foot[] = Point In BoundingBox {-1e-6, -1e-6, h - 1e-6, 1e-6, 1e-6, h + 1e-6};
If (g > 0)  // the beam's foot g above the face, not a node of the block: a rigid link's case
  Point(101) = {0, 0, h + g};
  foot[0] = 101;
EndIf
Point(100) = {0, 0, h + g + L};
Line(100) = {foot[0], 100};
Transfinite Curve {100} = nb + 1;
Physical Volume("block", 1) = {q1[1], q2[1], q3[1], q4[1]};
Physical Surface("block_top", 2) = {q1[0], q2[0], q3[0], q4[0]};
Physical Surface("block_base", 3) = {1, 2, 3, 4};
Physical Curve("beam", 4) = {100};
Physical Point("beam_end", 5) = {foot[0]};
Physical Point("tip", 6) = {100};
corner[] = Point In BoundingBox {a - 1e-6, a - 1e-6, h - 1e-6, a + 1e-6, a + 1e-6, h + 1e-6};
Physical Point("block_corner", 7) = {corner[0]};
