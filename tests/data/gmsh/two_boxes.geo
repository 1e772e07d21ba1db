// Two boxes side by side, only the second one in a physical group: the saved node tags are not
// contiguous (the nodes of the first box are not written). Regenerate with generate.sh.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
Box(2) = {1, 0, 0, 1, 1, 1};
Coherence;
Mesh.CharacteristicLengthMax = 0.5;
Physical Volume("second") = {Volume In BoundingBox{1 - 1e-6, -1e-6, -1e-6, 2 + 1e-6, 1 + 1e-6, 1 + 1e-6}};
