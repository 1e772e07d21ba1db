// A cylindrical panel for shells: axis along x, radius R, x in [0, L], the angle phi in
// [0, angle] degrees from the top (the point (x, R sin phi, R cos phi)), n x n quadrilaterals.
// Physical groups: surface "panel"; curves "end0" (x = 0), "end1" (x = L), "edge0" (phi = 0,
// the top line), "edge1" (phi = angle); points "corner00" (x = 0, phi = 0), "corner10" (L, 0),
// "corner11" (L, angle), "corner01" (0, angle).
// The shell obstacle course (MacNeal and Harder 1985):
//   Scordelis-Lo roof, the quarter (diaphragm at x = 0, symmetry at x = L and phi = 0):
//   gmsh -2 -format msh41 -setnumber R 25 -setnumber L 25 -setnumber angle 40 -setnumber n 16 \
//     shell_cylinder_panel.geo -o shell_scordelis_lo_16.msh
//   pinched cylinder, the octant (symmetry at x = 0, phi = 0 and phi = 90, diaphragm at x = L):
//   gmsh -2 -format msh41 -setnumber R 300 -setnumber L 300 -setnumber angle 90 -setnumber n 16 \
//     shell_cylinder_panel.geo -o shell_pinched_cylinder_16.msh
// quads 0: triangles (each quadrilateral of the transfinite grid cut in two), e.g. the roof's
//   shell_scordelis_lo_tri_16.msh and _tri_8.msh (-setnumber quads 0, n 16 and 8)
// order 2: 8-node quadrilaterals (curved shells, fe/shell8.hpp), their edges 3-node lines, e.g.
//   shell_pinched_cylinder_q8_4.msh, _q8_8.msh and _q8_16.msh (-setnumber order 2, n 4, 8, 16), the roof's
//   shell_scordelis_lo_q8_4.msh and _q8_8.msh (-setnumber order 2, n 4 and 8)
DefineConstant[ R = 25, L = 25, angle = 40, n = 16, quads = 1, order = 1 ];
If (order == 2)
  Mesh.ElementOrder = 2;
  Mesh.SecondOrderIncomplete = 1;
EndIf
a = angle * Pi / 180;
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Point(3) = {0, 0, R};
Point(4) = {L, 0, R};
Point(5) = {L, R * Sin(a), R * Cos(a)};
Point(6) = {0, R * Sin(a), R * Cos(a)};
Line(1) = {3, 4};      // edge0
Circle(2) = {4, 2, 5}; // end1
Line(3) = {5, 6};      // edge1
Circle(4) = {6, 1, 3}; // end0
Curve Loop(1) = {1, 2, 3, 4};
Surface(1) = {1};
Transfinite Curve {1, 2, 3, 4} = n + 1;
Transfinite Surface {1};
If (quads)
  Recombine Surface {1};
EndIf
Physical Surface("panel", 1) = {1};
Physical Curve("end0", 2) = {4};
Physical Curve("end1", 3) = {2};
Physical Curve("edge0", 4) = {1};
Physical Curve("edge1", 5) = {3};
Physical Point("corner00", 6) = {3};
Physical Point("corner10", 7) = {4};
Physical Point("corner11", 8) = {5};
Physical Point("corner01", 9) = {6};
