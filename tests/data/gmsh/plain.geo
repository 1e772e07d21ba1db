// A box without physical groups: every element is saved and the reader makes the regions "all",
// "all_2d", "all_1d" and "all_0d". Regenerate with generate.sh.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 0.5, 0.5};
Mesh.CharacteristicLengthMax = 0.5;
