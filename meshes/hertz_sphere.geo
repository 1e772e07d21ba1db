// An eighth of an elastic sphere of radius R = 0.01 centred at (0, 0, R): its lower quarter
// (x >= 0, y >= 0, z <= R), whose pole (0, 0, 0) touches the plane z = 0. Second-order
// tetrahedra (tet10), refined towards the pole: size h0 within 0.15 R of it, growing to hmax
// at 0.6 R. For the Hertz check (tests/scripts/hertz.sh): the flat face pushed down onto a
// rigid floor.
// Physical groups: Volume "ball"; Surfaces "contact" (the spherical cap within 0.3 R of the
// axis, the floor's wall region), "top" (the flat face z = R, the cut through the centre),
// "symx" (x = 0) and "symy" (y = 0), the symmetry planes.
// Regenerate: gmsh hertz_sphere.geo -3 -format msh41 -o hertz_sphere.msh
// Finer meshes for a refinement study: add -setnumber h0 1e-4 (see tests/scripts/hertz.sh).
SetFactory("OpenCASCADE");
R = 0.01;
If (!Exists(h0))
  h0 = 2.5e-4;
EndIf
If (!Exists(hmax))
  hmax = 2.0e-3;
EndIf
rc = 0.3 * R;                  // the cap's radius (from the axis)
zc = R - Sqrt(R * R - rc * rc);  // and height
Sphere(1) = {0, 0, R, R, -Pi / 2, 0, Pi / 2};
Box(2) = {0, 0, 0, R, R, zc};
cap() = BooleanIntersection{ Volume{1}; }{ Volume{2}; Delete; };
BooleanFragments{ Volume{1}; Delete; }{ Volume{cap()}; Delete; }
Mesh.ElementOrder = 2;  // mid-side nodes of the spherical faces on the sphere
Mesh.HighOrderOptimize = 0;
Field[1] = MathEval;
Field[1].F = "Sqrt(x * x + y * y + z * z)";  // the distance to the pole
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
symx() = Surface In BoundingBox{-eps, -eps, -eps, eps, R + eps, R + eps};
symy() = Surface In BoundingBox{-eps, -eps, -eps, R + eps, eps, R + eps};
contact() = Surface In BoundingBox{-eps, -eps, -eps, rc + eps, rc + eps, zc + eps};
// less the cap's pieces of the symmetry planes and the flat face between the cap and the rest
contact() -= {symx(), symy(), Surface In BoundingBox{-eps, -eps, zc - eps, rc + eps, rc + eps, zc + eps}};
Physical Volume("ball", 1) = {Volume{:}};
Physical Surface("contact", 2) = {contact()};
Physical Surface("top", 3) = {Surface In BoundingBox{-eps, -eps, R - eps, R + eps, R + eps, R + eps}};
Physical Surface("symx", 4) = {symx()};
Physical Surface("symy", 5) = {symy()};
