// A thin U-shaped strip (tests/scripts/contact_thin_wall.sh): two legs 20 mm long, 0.5 mm thick
// (one hex8 through the thickness, 2.5 mm long), 4 mm apart, joined by a half ring (inner radius
// 2 mm), 5 mm wide (z, 2 cells). Its self-contact is given with one entry: the volume `strip` (its skin) or
// the surface `skin` (the same faces as a physical group). leg1_sides and leg2_sides: the legs'
// inner and outer faces, which hold every node of a leg (initial velocities).
// gmsh -3 u_strip.geo -o u_strip.msh
L = 0.02; t = 0.0005; a = 0.002; w = 0.005;
nl = 8; nb = 2; nw = 2;  // cells along a leg, along a quarter of the ring, across the width
Point(1) = {0, a, 0}; Point(2) = {L, a, 0}; Point(3) = {L, a + t, 0}; Point(4) = {0, a + t, 0};
Point(5) = {0, -a - t, 0}; Point(6) = {L, -a - t, 0}; Point(7) = {L, -a, 0}; Point(8) = {0, -a, 0};
Point(9) = {0, 0, 0}; Point(10) = {-a, 0, 0}; Point(11) = {-a - t, 0, 0};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Line(5) = {5, 6}; Line(6) = {6, 7}; Line(7) = {7, 8}; Line(8) = {8, 5};
Circle(9) = {1, 9, 10}; Circle(10) = {10, 9, 8}; Circle(11) = {4, 9, 11}; Circle(12) = {11, 9, 5};
Line(13) = {10, 11};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Curve Loop(2) = {5, 6, 7, 8}; Plane Surface(2) = {2};
Curve Loop(3) = {9, 13, -11, 4}; Plane Surface(3) = {3};
Curve Loop(4) = {10, 8, -12, -13}; Plane Surface(4) = {4};
Transfinite Curve {1, 3, 5, 7} = nl + 1;
Transfinite Curve {9, 10, 11, 12} = nb + 1;
Transfinite Curve {2, 4, 6, 8, 13} = 2;
Transfinite Surface {1, 2, 3, 4};
Recombine Surface {1, 2, 3, 4};
leg1[] = Extrude {0, 0, w} { Surface{1}; Layers{nw}; Recombine; };
leg2[] = Extrude {0, 0, w} { Surface{2}; Layers{nw}; Recombine; };
ring1[] = Extrude {0, 0, w} { Surface{3}; Layers{nw}; Recombine; };
ring2[] = Extrude {0, 0, w} { Surface{4}; Layers{nw}; Recombine; };
Physical Volume("strip") = {leg1[1], leg2[1], ring1[1], ring2[1]};
Physical Surface("skin") = CombinedBoundary{ Volume{leg1[1], leg2[1], ring1[1], ring2[1]}; };
// Extrude's lateral faces follow the curve loop: [2] from the first curve, [4] from the third.
Physical Surface("leg1_sides") = {leg1[2], leg1[4]};
Physical Surface("leg2_sides") = {leg2[2], leg2[4]};
Mesh.MshFileVersion = 4.1;
