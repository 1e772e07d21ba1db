// Cantilever beam 1.0 x 0.1 x 0.1 (x from 0 to 1), second-order tetrahedra (tet10).
// Physical groups: Volume "beam"; Surfaces "clamp" (x = 0), "tip" (x = 1), "top" (z = 0.1).
// Gmsh writes the faces of a second-order mesh as tri6 (see src/mesh/gmsh_reader.cpp).
// Regenerate: gmsh cantilever.geo -3 -format msh41 -o cantilever.msh
SetFactory("OpenCASCADE");
L = 1.0;
W = 0.1;
H = 0.1;
Box(1) = {0, 0, 0, L, W, H};
Mesh.CharacteristicLengthMin = 0.03;
Mesh.CharacteristicLengthMax = 0.03;
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;  // straight-sided elements: midside nodes at edge midpoints
eps = 1e-6;
Physical Volume("beam", 1) = {1};
Physical Surface("clamp", 2) = {Surface In BoundingBox{-eps, -eps, -eps, eps, W + eps, H + eps}};
Physical Surface("tip", 3) = {Surface In BoundingBox{L - eps, -eps, -eps, L + eps, W + eps, H + eps}};
Physical Surface("top", 4) = {Surface In BoundingBox{-eps, -eps, H - eps, L + eps, W + eps, H + eps}};
