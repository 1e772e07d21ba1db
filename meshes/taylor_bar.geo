// Taylor bar: a quarter of a copper rod (radius 3.2 mm, length 32.4 mm), hex8 cells (an O-grid:
// a square core and two outer blocks, swept along z). Units: metres. Physical groups: the
// volume "bar", the faces "impact" (z = 0), "xsym" (x = 0) and "ysym" (y = 0).
//   gmsh -3 taylor_bar.geo -format msh2 -o taylor_bar.msh           (examples/taylor_bar)
//   gmsh -3 taylor_bar.geo -setnumber nc 2 -setnumber nr 2 -setnumber nz 20 -format msh2
//        -o taylor_bar_coarse.msh                                     (tests/scripts/taylor_bar.sh)
R = 3.2e-3; L = 32.4e-3;
a = 0.55 * R;                            // the core square's half side on the axes
If (!Exists(nc)) nc = 4; EndIf   // cells along the core's sides
If (!Exists(nr)) nr = 3; EndIf   // cells from the core to the rim
If (!Exists(nz)) nz = 40; EndIf  // cells along the rod
Point(1) = {0, 0, 0};
Point(2) = {a, 0, 0};
Point(3) = {0.85 * a, 0.85 * a, 0};
Point(4) = {0, a, 0};
Point(5) = {R, 0, 0};
Point(6) = {R * Cos(Pi / 4), R * Sin(Pi / 4), 0};
Point(7) = {0, R, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {2, 5}; Circle(6) = {5, 1, 6}; Line(7) = {6, 3};
Circle(8) = {6, 1, 7}; Line(9) = {7, 4};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, -2}; Plane Surface(2) = {2};
Curve Loop(3) = {-7, 8, 9, -3}; Plane Surface(3) = {3};
Transfinite Curve{1, 2, 3, 4, 6, 8} = nc + 1;
Transfinite Curve{5, 7, 9} = nr + 1;
Transfinite Surface{1, 2, 3};
Recombine Surface{1, 2, 3};
Extrude {0, 0, L} { Surface{1, 2, 3}; Layers{nz}; Recombine; }
eps = 1e-9;
Physical Volume("bar") = Volume{:};
Physical Surface("impact") = Surface In BoundingBox{-eps, -eps, -eps, R + eps, R + eps, eps};
Physical Surface("xsym") = Surface In BoundingBox{-eps, -eps, -eps, eps, R + eps, L + eps};
Physical Surface("ysym") = Surface In BoundingBox{-eps, -eps, -eps, R + eps, eps, L + eps};
