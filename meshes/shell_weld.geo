// A shell strip welded to a solid block (tests/scripts/shell_weld.sh): the plate [0, 1] x [0, 0.2]
// in z = 0 (20 x 4 quads, surface "plate", edges "weld" at x = 0 and "tip" at x = 1), and the
// block [-0.1, 0] x [0, 0.2] x [-0.05, 0.05] (hex8, 2 x 4 x 4: volume "block", faces "block_face"
// at x = 0 and "block_back" at x = -0.1). Meshed apart: the plate's edge nodes lie on the block's
// face (its nodes at z = 0) without sharing them.
//   gmsh -3 shell_weld.geo -o shell_weld.msh
Point(1) = {0, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {1, 0.2, 0}; Point(4) = {0, 0.2, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Transfinite Curve {1, 3} = 21; Transfinite Curve {2, 4} = 5;
Transfinite Surface {1}; Recombine Surface {1};
Point(11) = {-0.1, 0, -0.05}; Point(12) = {-0.1, 0.2, -0.05};
Line(11) = {11, 12}; Transfinite Curve {11} = 5;
f[] = Extrude {0, 0, 0.1} { Curve{11}; Layers{4}; Recombine; };
b[] = Extrude {0.1, 0, 0} { Surface{f[1]}; Layers{2}; Recombine; };
Physical Surface("plate") = {1};
Physical Curve("weld") = {4};
Physical Curve("tip") = {2};
Physical Volume("block") = {b[1]};
Physical Surface("block_face") = {b[0]};
Physical Surface("block_back") = {f[1]};
Mesh.MshFileVersion = 4.1;
