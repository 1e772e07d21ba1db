// Two identical elastic spheres of radius R = 0.01 touching at the origin, a quarter of each
// (x >= 0, y >= 0): the upper one centred at (0, 0, R), its lower half; the lower one centred at
// (0, 0, -R), its upper half. Each is meshed as meshes/hertz_sphere.geo's (tet10, size h0 within
// 0.15 R of the pole, growing to hmax at 0.6 R); the two are separate bodies (no shared node).
// For the two-sphere Hertz check (tests/scripts/hertz.sh): the flat faces pushed together.
// Physical groups: Volumes "upper", "lower"; Surfaces "upper_contact", "lower_contact" (the
// spherical caps within 0.3 R of the axis), "top" (z = R), "bottom" (z = -R), "symx" (x = 0) and
// "symy" (y = 0) of both.
// Regenerate: gmsh hertz_two_spheres.geo -3 -format msh41 -o hertz_two_spheres.msh
SetFactory("OpenCASCADE");
R = 0.01;
If (!Exists(h0))
  h0 = 2.5e-4;
EndIf
If (!Exists(hmax))
  hmax = 2.0e-3;
EndIf
rc = 0.3 * R;
zc = R - Sqrt(R * R - rc * rc);
Sphere(1) = {0, 0, R, R, -Pi / 2, 0, Pi / 2};
Box(2) = {0, 0, 0, R, R, zc};
cap() = BooleanIntersection{ Volume{1}; }{ Volume{2}; Delete; };
up() = BooleanFragments{ Volume{1}; Delete; }{ Volume{cap()}; Delete; };
Sphere(11) = {0, 0, -R, R, 0, Pi / 2, Pi / 2};
Box(12) = {0, 0, -zc, R, R, zc};
cap2() = BooleanIntersection{ Volume{11}; }{ Volume{12}; Delete; };
down() = BooleanFragments{ Volume{11}; Delete; }{ Volume{cap2()}; Delete; };
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;
Field[1] = MathEval;
Field[1].F = "Sqrt(x * x + y * y + z * z)";  // the distance to the poles
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = h0;
Field[2].SizeMax = hmax;
Field[2].DistMin = 0.15 * R;
Field[2].DistMax = 0.6 * R;
Background Field = 2;
Mesh.CharacteristicLengthExtendFromBoundary = 0;
Mesh.CharacteristicLengthFromPoints = 0;
Mesh.CharacteristicLengthFromCurvature = 0;
eps = 1e-6;
symx() = Surface In BoundingBox{-eps, -eps, -R - eps, eps, R + eps, R + eps};
symy() = Surface In BoundingBox{-eps, -eps, -R - eps, R + eps, eps, R + eps};
c1() = Surface In BoundingBox{-eps, -eps, -eps, rc + eps, rc + eps, zc + eps};
c1() -= {symx(), symy(), Surface In BoundingBox{-eps, -eps, zc - eps, rc + eps, rc + eps, zc + eps}};
c2() = Surface In BoundingBox{-eps, -eps, -zc - eps, rc + eps, rc + eps, eps};
c2() -= {symx(), symy(), Surface In BoundingBox{-eps, -eps, -zc - eps, rc + eps, rc + eps, -zc + eps}};
Physical Volume("upper", 1) = {Volume In BoundingBox{-eps, -eps, -eps, R + eps, R + eps, R + eps}};
Physical Volume("lower", 2) = {Volume In BoundingBox{-eps, -eps, -R - eps, R + eps, R + eps, eps}};
Physical Surface("upper_contact", 3) = {c1()};
Physical Surface("lower_contact", 4) = {c2()};
Physical Surface("top", 5) = {Surface In BoundingBox{-eps, -eps, R - eps, R + eps, R + eps, R + eps}};
Physical Surface("bottom", 6) = {Surface In BoundingBox{-eps, -eps, -R - eps, R + eps, R + eps, -R + eps}};
Physical Surface("symx", 7) = {symx()};
Physical Surface("symy", 8) = {symy()};
