// A flat strip along x in the plane z = 0: [0, L] x [0, b], nx x ny quadrilaterals (for shells).
// Physical groups: surface "strip"; curves "root" (x = 0) and "tip" (x = L); point "tip_corner"
// at (L, 0, 0).
//   gmsh -2 -format msh41 -setnumber nx 20 -setnumber ny 2 shell_strip.geo -o shell_strip_20.msh
//   quads 0: triangles (each quadrilateral cut in two):
//   gmsh -2 -format msh41 -setnumber quads 0 shell_strip.geo -o shell_strip_tri_20.msh
//   order 2: 8-node quadrilaterals (curved shells, fe/shell8.hpp; "tip_corners" and "root_corners":
//   the ends' corners, for the consistent share of an end moment on 3-node edges and supports that
//   leave the section free to bend anticlastically):
//   gmsh -2 -format msh41 -setnumber nx 10 -setnumber ny 1 -setnumber order 2 shell_strip.geo -o shell_strip_q8_10x1.msh
DefineConstant[ L = 1, b = 0.1, nx = 20, ny = 2, quads = 1, order = 1 ];
If (order == 2)
  Mesh.ElementOrder = 2;
  Mesh.SecondOrderIncomplete = 1;
EndIf
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {L, b, 0};
Point(4) = {0, b, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve {1, 3} = nx + 1;
Transfinite Curve {2, 4} = ny + 1;
Transfinite Surface {1};
If (quads)
  Recombine Surface {1};
EndIf
Physical Surface("strip", 1) = {1};
Physical Curve("root", 2) = {4};
Physical Curve("tip", 3) = {2};
Physical Point("tip_corner", 4) = {2};
Physical Point("tip_corners", 5) = {2, 3};
Physical Point("root_corners", 6) = {1, 4};
