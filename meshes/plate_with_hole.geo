// Plate 0.2 x 0.1 x 0.01 with a central through hole of radius 0.02, second-order tetrahedra.
// Physical groups: Volume "plate"; Surfaces "left" (x = 0), "right" (x = 0.2), "hole" (the hole's
// cylindrical face). Refined towards the hole, where the stress concentrates.
// Saved as MSH 2.2 binary to exercise that reader path:
//   gmsh plate_with_hole.geo -3 -format msh22 -bin -o plate_with_hole.msh
SetFactory("OpenCASCADE");
Lx = 0.2;
Ly = 0.1;
T = 0.01;
R = 0.02;
Box(1) = {0, 0, 0, Lx, Ly, T};
Cylinder(2) = {Lx / 2, Ly / 2, -T, 0, 0, 3 * T, R};
BooleanDifference(3) = {Volume{1}; Delete;}{Volume{2}; Delete;};
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;
// element size: 0.002 at the hole, growing to 0.008 away from it
Field[1] = Distance;
Field[1].SurfacesList = {Surface In BoundingBox{Lx / 2 - R - 1e-6, Ly / 2 - R - 1e-6, -1e-6,
                                                Lx / 2 + R + 1e-6, Ly / 2 + R + 1e-6, T + 1e-6}};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = 0.002;
Field[2].SizeMax = 0.008;
Field[2].DistMin = 0.0;
Field[2].DistMax = 0.05;
Background Field = 2;
Mesh.CharacteristicLengthExtendFromBoundary = 0;
Mesh.CharacteristicLengthFromPoints = 0;
eps = 1e-6;
hole() = Surface In BoundingBox{Lx / 2 - R - eps, Ly / 2 - R - eps, -eps,
                                 Lx / 2 + R + eps, Ly / 2 + R + eps, T + eps};
Physical Volume("plate", 1) = {3};
Physical Surface("left", 2) = {Surface In BoundingBox{-eps, -eps, -eps, eps, Ly + eps, T + eps}};
Physical Surface("right", 3) = {Surface In BoundingBox{Lx - eps, -eps, -eps, Lx + eps, Ly + eps, T + eps}};
Physical Surface("hole", 4) = {hole()};
