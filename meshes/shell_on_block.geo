// A skin of shells on a solid block (tests/mpi/turned_offsets.cpp): the block [0, 1] x [0, 1] x
// [0, 0.2] (hex8, 4 x 4 x 2: volume "block") and its top face z = 0.2 (quad4, 4 x 4: surface
// "skin"), sharing its nodes: a skin node is in solid and shell cells, which the partitioner may
// place on different ranks (the node then owned apart from its rotation node).
//   gmsh -3 -format msh22 shell_on_block.geo -o shell_on_block.msh, then the hexahedra's lines
//   (type 5) moved before the quadrilaterals' in $Elements, so that `partitioner: block` (cells
//   in file order) puts the skin's shells on the last rank and the block's hexahedra before it.
SetFactory("Built-in");
Point(1) = {0, 0, 0}; Point(2) = {1, 0, 0}; Point(3) = {1, 1, 0}; Point(4) = {0, 1, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Transfinite Curve {1, 2, 3, 4} = 5; Transfinite Surface {1}; Recombine Surface {1};
out[] = Extrude {0, 0, 0.2} { Surface{1}; Layers{2}; Recombine; };
Physical Volume("block") = {out[1]};
Physical Surface("skin") = {out[0]};
