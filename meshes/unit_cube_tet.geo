// Unstructured unit cube, first-order tetrahedra (tet4).
// Physical groups: Volume "cube"; Surfaces "xmin", "xmax", "ymin", "ymax", "zmin", "zmax".
// Regenerate: gmsh unit_cube_tet.geo -3 -format msh41 -o unit_cube_tet.msh
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Mesh.CharacteristicLengthMin = 0.08;
Mesh.CharacteristicLengthMax = 0.08;
eps = 1e-6;
Physical Volume("cube", 1) = {1};
Physical Surface("xmin", 2) = {Surface In BoundingBox{-eps, -eps, -eps, eps, 1 + eps, 1 + eps}};
Physical Surface("xmax", 3) = {Surface In BoundingBox{1 - eps, -eps, -eps, 1 + eps, 1 + eps, 1 + eps}};
Physical Surface("ymin", 4) = {Surface In BoundingBox{-eps, -eps, -eps, 1 + eps, eps, 1 + eps}};
Physical Surface("ymax", 5) = {Surface In BoundingBox{-eps, 1 - eps, -eps, 1 + eps, 1 + eps, 1 + eps}};
Physical Surface("zmin", 6) = {Surface In BoundingBox{-eps, -eps, -eps, 1 + eps, 1 + eps, eps}};
Physical Surface("zmax", 7) = {Surface In BoundingBox{-eps, -eps, 1 - eps, 1 + eps, 1 + eps, 1 + eps}};
