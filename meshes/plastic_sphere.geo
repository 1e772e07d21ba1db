// An eighth of a thick-walled sphere, inner radius a = 0.1, outer b = 0.2 (x, y, z >= 0), for the
// elastic-plastic sphere under internal pressure (Hill's sphere; tests/scripts/newton_collapse.sh):
// the three symmetry planes held normally, the pressure on the bore. Its limit (collapse)
// pressure, perfectly plastic: p_L = 2 sigma_y ln(b / a), the plastic zone through the wall.
// Second-order tetrahedra (tet10), unstructured, size h (default 0.03: 1805 nodes, 954 tets);
// the mid-side nodes of the spherical faces on the spheres.
// Physical groups: Volume "sphere"; Surfaces "inner" (r = a), "xsym" (x = 0), "ysym" (y = 0),
// "zsym" (z = 0).
// Regenerate: gmsh plastic_sphere.geo -3 -format msh41 -o plastic_sphere.msh
// Finer: add -setnumber h 0.015.
SetFactory("OpenCASCADE");
a = 0.1;
b = 0.2;
If (!Exists(h))
  h = 0.03;
EndIf
Sphere(1) = {0, 0, 0, b, 0, Pi / 2, Pi / 2};
Sphere(2) = {0, 0, 0, a, 0, Pi / 2, Pi / 2};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
Mesh.MeshSizeMin = h;
Mesh.MeshSizeMax = h;
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;
e = 1e-6;
Physical Volume("sphere", 1) = {3};
Physical Surface("inner", 2) = Surface In BoundingBox{-e, -e, -e, a + e, a + e, a + e};
Physical Surface("xsym", 3) = Surface In BoundingBox{-e, -e, -e, e, b + e, b + e};
Physical Surface("ysym", 4) = Surface In BoundingBox{-e, -e, -e, b + e, e, b + e};
Physical Surface("zsym", 5) = Surface In BoundingBox{-e, -e, -e, b + e, b + e, e};
