// A quarter of a thick-walled cylinder, inner radius a = 0.1, outer b = 0.2, a slice t = 0.01
// thick in z (x >= 0, y >= 0, 0 <= z <= t), for the elastic-plastic cylinder under internal
// pressure (examples/plastic_cylinder, tests/scripts/plastic_cylinder.sh): plane strain by
// holding u_z on both z faces, the symmetry planes held normally.
// Second-order tetrahedra (tet10) on a structured grid: nr cells across the wall, nt along the
// quarter circle, one layer in z; each hexahedral cell of the grid is cut into 6 tets by the
// extrusion, so the cells lie in rings between the radii a + i (b - a) / nr. tet10 rather than
// hex8: fully integrated hex8 locks under the isochoric plastic flow (README, "Plasticity"),
// tet10's quadratic field carries it; the mid-side nodes of the arcs lie on the circles.
// Physical groups: Volume "cylinder"; Surfaces "inner" (r = a), "outer" (r = b), "xsym"
// (x = 0, u_x held), "ysym" (y = 0, u_y held), "zfaces" (z = 0 and z = t, u_z held).
// nt = 2 nr keeps the cells' circumferential size at most twice their radial one (nt = nr on the
// same nr: 2-3x the stress error); the answer does not depend on z, so one layer at any t is exact.
// Regenerate: the coarse mesh (nr 8, nt 16; 768 tet10) and the fine one (nr 12, nt 24; 1728):
//   gmsh plastic_cylinder.geo -3 -format msh41 -o plastic_cylinder.msh
//   gmsh plastic_cylinder.geo -3 -format msh41 -setnumber nr 12 -setnumber nt 24 -o plastic_cylinder_fine.msh
a = 0.1;
b = 0.2;
t = 0.01;
If (!Exists(nr))
  nr = 8;
EndIf
If (!Exists(nt))
  nt = 16;
EndIf
Point(1) = {0, 0, 0};
Point(2) = {a, 0, 0};
Point(3) = {b, 0, 0};
Point(4) = {0, b, 0};
Point(5) = {0, a, 0};
Line(1) = {2, 3};        // y = 0
Circle(2) = {3, 1, 4};   // r = b
Line(3) = {4, 5};        // x = 0
Circle(4) = {5, 1, 2};   // r = a
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 3} = nr + 1;
Transfinite Curve{2, 4} = nt + 1;
Transfinite Surface{1};
// out[0]: the face z = t, out[1]: the volume, out[2..5]: the faces swept by curves 1..4.
out[] = Extrude{0, 0, t}{ Surface{1}; Layers{1}; };
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;
Mesh.SecondOrderLinear = 0;  // mid-side nodes of the arcs on the circles
Physical Volume("cylinder", 1) = {out[1]};
Physical Surface("inner", 2) = {out[5]};
Physical Surface("outer", 3) = {out[3]};
Physical Surface("xsym", 4) = {out[4]};
Physical Surface("ysym", 5) = {out[2]};
Physical Surface("zfaces", 6) = {1, out[0]};
