// NAFEMS FV52: simply supported "solid" square plate, 10 x 10 x 1 m, quadratic tetrahedra (tet10)
// on a structured grid of n x n x m cubes (each split into six tetrahedra). The benchmark's own
// mesh is 4 x 4 x 1 twenty-node bricks; the committed fv52.msh is n = 4, m = 1.
// Physical groups: Volume "plate"; Curves "supported" (the four edges of the bottom face z = 0,
// where the benchmark holds the out-of-plane displacement).
// Regenerate: gmsh fv52.geo -3 -setnumber n 4 -setnumber m 1 -format msh41 -o fv52.msh
SetFactory("OpenCASCADE");
DefineConstant[ n = 4, m = 1 ];
Box(1) = {0, 0, 0, 10, 10, 1};
eps = 1e-6;
Transfinite Curve{:} = n + 1;
For i In {0:1}
  For j In {0:1}
    Transfinite Curve{Curve In BoundingBox{10*i - eps, 10*j - eps, -eps, 10*i + eps, 10*j + eps, 1 + eps}} = m + 1;
  EndFor
EndFor
Transfinite Surface{:};
Transfinite Volume{1};
Mesh.ElementOrder = 2;
Mesh.HighOrderOptimize = 0;  // straight-sided elements: midside nodes at edge midpoints
Physical Volume("plate", 1) = {1};
Physical Curve("supported", 2) = {Curve In BoundingBox{-eps, -eps, -eps, 10 + eps, 10 + eps, eps}};
