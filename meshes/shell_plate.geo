// A flat square plate of side a in the plane z = 0, [0, a] x [0, a], n x n quadrilaterals (for
// shells: `shells:` turns them into shell4 cells). Physical groups: surface "plate"; curves
// "xmin", "xmax", "ymin", "ymax" (its sides) and "edges" (all four); point "corner" at (a, a, 0).
//   gmsh -2 -format msh41 -setnumber a 1 -setnumber n 4 shell_plate.geo -o shell_plate_4.msh
//   (and n 8, 16: shell_plate_8.msh, shell_plate_16.msh)
//   gmsh -2 -format msh41 -setnumber a 5 -setnumber n 10 shell_plate.geo -o shell_quarter_plate_10.msh
//   gmsh -2 -format msh41 -setnumber a 5 -setnumber n 20 shell_plate.geo -o shell_quarter_plate_20.msh
//   gmsh -2 -format msh41 -setnumber a 1 -setnumber n 16 shell_plate.geo -o shell_plate_16.msh (and 32)
//   gmsh -2 -format msh41 -setnumber a 1 -setnumber n 8 -setnumber quads 0 shell_plate.geo -o shell_plate_tri_8.msh
//   (each quadrilateral cut in two triangles)
// (shell_quarter_plate_10.msh: the quarter of NAFEMS 13H's 10 m plate, its centre at "corner")
//   gmsh -2 -format msh41 -setnumber a 1 -setnumber n 8 -setnumber order 2 shell_plate.geo -o shell_plate_q8_8.msh
//   (8-node quadrilaterals: curved shells, fe/shell8.hpp; and n 16: shell_plate_q8_16.msh)
DefineConstant[ a = 1, n = 4, quads = 1, order = 1 ];
If (order == 2)
  Mesh.ElementOrder = 2;
  Mesh.SecondOrderIncomplete = 1;
EndIf
Point(1) = {0, 0, 0};
Point(2) = {a, 0, 0};
Point(3) = {a, a, 0};
Point(4) = {0, a, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve {1, 2, 3, 4} = n + 1;
Transfinite Surface {1};
If (quads)
  Recombine Surface {1};
EndIf
Physical Surface("plate", 1) = {1};
Physical Curve("ymin", 2) = {1};
Physical Curve("xmax", 3) = {2};
Physical Curve("ymax", 4) = {3};
Physical Curve("xmin", 5) = {4};
Physical Curve("edges", 6) = {1, 2, 3, 4};
Physical Point("corner", 7) = {3};
