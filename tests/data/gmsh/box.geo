// Small tet4 test mesh for the Gmsh reader (tests/unit/mesh_gmsh_reader.cpp).
// A box 1 x 0.5 x 0.5; the x=0 face is in two surface groups ("left" and "both"), the z=0 face is in
// an unnamed group (tag 20), and the corner (1, 0.5, 0.5) is a physical point. Regenerate with
// generate.sh.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 0.5, 0.5};
Mesh.CharacteristicLengthMax = 0.25;
eps = 1e-6;
left() = Surface In BoundingBox{-eps, -eps, -eps, eps, 0.5 + eps, 0.5 + eps};
right() = Surface In BoundingBox{1 - eps, -eps, -eps, 1 + eps, 0.5 + eps, 0.5 + eps};
bottom() = Surface In BoundingBox{-eps, -eps, -eps, 1 + eps, 0.5 + eps, eps};
corner() = Point In BoundingBox{1 - eps, 0.5 - eps, 0.5 - eps, 1 + eps, 0.5 + eps, 0.5 + eps};
Physical Volume("body", 1) = {1};
Physical Surface("left", 2) = {left()};
Physical Surface("both", 7) = {left(), right()};
Physical Surface(20) = {bottom()};
Physical Point("corner", 8) = {corner()};
