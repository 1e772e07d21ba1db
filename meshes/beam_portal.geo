// A portal frame for beam elements in the x-z plane, z up: two columns of height H at x = 0 and
// x = B, fixed feet at z = 0, and a girder of span B joining their tops; n line2 cells per member.
// Physical groups: curve "columns", curve "girder", point "base" (both feet), point "corner"
// (the top of the left column, (0, 0, H)).
// gmsh -1 -format msh41 -setnumber n 4 beam_portal.geo -o beam_portal.msh
DefineConstant[ n = 4, H = 3, B = 4 ];
Point(1) = {0, 0, 0};
Point(2) = {0, 0, H};
Point(3) = {B, 0, H};
Point(4) = {B, 0, 0};
Line(1) = {1, 2};  // left column, upwards
Line(2) = {2, 3};  // girder
Line(3) = {4, 3};  // right column, upwards
Transfinite Curve {1, 2, 3} = n + 1;
Physical Curve("columns", 1) = {1, 3};
Physical Curve("girder", 2) = {2};
Physical Point("base", 3) = {1, 4};
Physical Point("corner", 4) = {2};
