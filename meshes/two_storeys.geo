// A column 1 x 1 x 2 m in two volumes sharing the face z = 1 (nodes shared): the storeys
// lower (z in [0, 1]) and upper (z in [1, 2]), hex8 2 x 2 x 2 cells each. Physical groups: the
// volumes lower and upper, the faces base (z = 0) and top (z = 2), the point roof_centre
// (0.5, 0.5, 2).
// gmsh -3 two_storeys.geo -o two_storeys.msh
Point(1) = {0, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {1, 1, 0}; Point(4) = {0, 1, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve {1:4} = 3;
Transfinite Surface {1};
Recombine Surface {1};
lower[] = Extrude {0, 0, 1} { Surface{1}; Layers{2}; Recombine; };
upper[] = Extrude {0, 0, 1} { Surface{lower[0]}; Layers{2}; Recombine; };
Physical Volume("lower") = {lower[1]};
Physical Volume("upper") = {upper[1]};
Physical Surface("base") = {1};
Physical Surface("top") = {upper[0]};
Point(100) = {0.5, 0.5, 2};
Point{100} In Surface{upper[0]};
Physical Point("roof_centre") = {100};
Mesh.MshFileVersion = 4.1;
