// Two bars from the supports (-1, 0, 0) and (1, 0, 0) to the apex (0, h, 0), one line2 cell each
// (a two-bar truss when their end moments are released).
// Physical groups: curve "bars", point "supports", point "apex".
//   gmsh -1 -format msh41 beam_hinge_truss.geo -o beam_hinge_truss.msh
DefineConstant[ h = 1 ];
Point(1) = {-1, 0, 0};
Point(2) = {0, h, 0};
Point(3) = {1, 0, 0};
Line(1) = {1, 2};
Line(2) = {3, 2};
Transfinite Curve {1, 2} = 2;
Physical Curve("bars", 1) = {1, 2};
Physical Point("supports", 2) = {1, 3};
Physical Point("apex", 3) = {2};
