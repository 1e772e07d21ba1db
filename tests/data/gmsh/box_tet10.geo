// Small second-order (tet10) test mesh: a box 1 x 0.5 x 0.5 with Volume "body" and Surface "left"
// (x=0). Gmsh writes the faces of a second-order mesh as tri6. Regenerate with generate.sh.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 0.5, 0.5};
Mesh.CharacteristicLengthMax = 0.3;
Mesh.ElementOrder = 2;
eps = 1e-6;
Physical Volume("body", 1) = {1};
Physical Surface("left", 2) = {Surface In BoundingBox{-eps, -eps, -eps, eps, 0.5 + eps, 0.5 + eps}};
