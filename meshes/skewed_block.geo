// A skewed, tapered block meshed with hexahedra (transfinite + recombine): no two cells are
// parallelepipeds, so quadrature-point data differs from point to point. Used by the
// matrix-free tests. Physical groups: Volume "block"; Surfaces "fixed" (x = 0), "loaded" (x = 1).
// Regenerate: gmsh -3 -format msh41 skewed_block.geo -o skewed_block.msh
SetFactory("Built-in");
Point(1) = {0, 0, 0};
Point(2) = {1, 0.1, 0.05};
Point(3) = {1.05, 0.5, 0.0};
Point(4) = {-0.05, 0.6, 0.1};
Point(5) = {0.1, 0.05, 0.4};
Point(6) = {0.95, 0.0, 0.3};
Point(7) = {1.0, 0.45, 0.35};
Point(8) = {0.0, 0.55, 0.5};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {5, 6}; Line(6) = {6, 7}; Line(7) = {7, 8}; Line(8) = {8, 5};
Line(9) = {1, 5}; Line(10) = {2, 6}; Line(11) = {3, 7}; Line(12) = {4, 8};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, 8}; Plane Surface(2) = {2};
Curve Loop(3) = {1, 10, -5, -9}; Surface(3) = {3};
Curve Loop(4) = {2, 11, -6, -10}; Surface(4) = {4};
Curve Loop(5) = {3, 12, -7, -11}; Surface(5) = {5};
Curve Loop(6) = {4, 9, -8, -12}; Surface(6) = {6};
Surface Loop(1) = {1, 2, 3, 4, 5, 6};
Volume(1) = {1};
Transfinite Curve{1, 3, 5, 7} = 9 Using Progression 1.1;
Transfinite Curve{2, 4, 6, 8} = 6;
Transfinite Curve{9, 10, 11, 12} = 5;
Transfinite Surface{1, 2, 3, 4, 5, 6};
Recombine Surface{1, 2, 3, 4, 5, 6};
Transfinite Volume{1};
Physical Volume("block", 1) = {1};
Physical Surface("fixed", 2) = {6};
Physical Surface("loaded", 3) = {4};
