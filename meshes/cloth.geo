// A square cloth, 1 m x 1 m in the x-y plane at z = 0, 20 x 20 structured divisions, tri3
// (alternating diagonals). Regions: surface "cloth"; points "pin_a" (0, 1, 0) and "pin_b" (1, 1, 0),
// the two corners the cloth hangs from (examples/cloth).
//   gmsh cloth.geo -2 -format msh41 -o cloth.msh
n = 20;
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {1, 1, 0};
Point(4) = {0, 1, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 2, 3, 4} = n + 1;
Transfinite Surface{1} Alternate;
Physical Surface("cloth") = {1};
Physical Point("pin_a") = {4};
Physical Point("pin_b") = {3};
