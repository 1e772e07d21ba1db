// A straight cantilever along x for beam elements: line2 cells from (0, 0, 0) to (L, 0, 0).
// Physical groups: curve "beam", point "root" (x = 0), point "tip" (x = L).
// n elements along the beam:
//   gmsh -1 -format msh41 -setnumber n 16 beam_cantilever.geo -o beam_cantilever_16.msh
// (committed: n = 1 as beam_cantilever_1.msh, n = 16 as beam_cantilever_16.msh)
DefineConstant[ n = 8, L = 2 ];
Point(1) = {0, 0, 0};
Point(2) = {L, 0, 0};
Line(1) = {1, 2};
Transfinite Curve {1} = n + 1;
Physical Curve("beam", 1) = {1};
Physical Point("root", 2) = {1};
Physical Point("tip", 3) = {2};
