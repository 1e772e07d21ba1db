// A stiffened strip: a flat strip [0, L] x [0, b] in z = 0 in two halves that share the line
// y = b / 2, which is also a line region for a beam along the strip (shells and beams sharing
// nodes, and the rotations of those nodes). nx x ny quadrilaterals per half.
// Physical groups: surface "plate", curve "stiffener" (y = b / 2), curves "root" (x = 0) and
// "tip" (x = L), point "tip_mid" (L, b / 2, 0).
//   gmsh -2 -format msh41 shell_stiffened_strip.geo -o shell_stiffened_strip.msh
DefineConstant[ L = 1, b = 0.2, nx = 20, ny = 2 ];
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, b / 2, 0};
Point(4) = {0, b / 2, 0};
Point(5) = {L, b, 0};
Point(6) = {0, b, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {4, 3};  // the stiffener, from the root to the tip
Line(4) = {4, 1};
Line(5) = {3, 5};
Line(6) = {5, 6};
Line(7) = {6, 4};
Curve Loop(1) = {1, 2, -3, 4};
Plane Surface(1) = {1};
Curve Loop(2) = {3, 5, 6, 7};
Plane Surface(2) = {2};
Transfinite Curve {1, 3, 6} = nx + 1;
Transfinite Curve {2, 4, 5, 7} = ny + 1;
Transfinite Surface {1, 2};
Recombine Surface {1, 2};
Physical Surface("plate", 1) = {1, 2};
Physical Curve("stiffener", 2) = {3};
Physical Curve("root", 3) = {4, 7};
Physical Curve("tip", 4) = {2, 5};
Physical Point("tip_mid", 5) = {3};
Physical Point("root_mid", 6) = {4};
