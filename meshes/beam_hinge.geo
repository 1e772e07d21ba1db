// A straight beam along x for end releases (hinges): line2 cells from (0, 0, 0) to (L, 0, 0)
// with a point at x = a, n elements on each side of it.
// Physical groups: curve "left" (0 to a), "right" (a to L); point "root"
// (x = 0), "hinge" (x = a), "end" (x = L).
//   gmsh -1 -format msh41 -setnumber L 10 -setnumber a 5 -setnumber n 8 beam_hinge.geo \
//     -o beam_hinge_two_span.msh     (two spans of 5 over three supports)
//   gmsh -1 -format msh41 -setnumber L 5 -setnumber a 3 -setnumber n 6 beam_hinge.geo \
//     -o beam_hinge_gerber.msh       (a Gerber beam: clamped at 0, hinge at 3, roller at 5)
DefineConstant[ n = 8, L = 10, a = 5 ];
Point(1) = {0, 0, 0};
Point(2) = {a, 0, 0};
Point(3) = {L, 0, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Transfinite Curve {1, 2} = n + 1;
Physical Curve("left", 2) = {1};
Physical Curve("right", 3) = {2};
Physical Point("root", 4) = {1};
Physical Point("hinge", 5) = {2};
Physical Point("end", 6) = {3};
