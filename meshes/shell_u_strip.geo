// A thin U-shaped strip as shells (tests/scripts/shell_contact.sh): the mid-surface of
// u_strip.geo's strip. Two legs 20 mm long along x, their mid-surfaces at y = +-2.25 mm (4.5 mm
// apart), joined by a half cylinder of radius 2.25 mm at x <= 0; 5 mm wide (z). Quads: 8 along
// a leg, 2 per quarter of the ring, 2 across the width. Physical groups: "strip" (all of it, the
// shells and their self-contact), "leg1" (y > 0) and "leg2" (y < 0) (their nodes: initial
// velocities).
//   gmsh -2 shell_u_strip.geo -o shell_u_strip.msh
L = 0.02; a = 0.00225; w = 0.005;
nl = 8; nb = 2; nw = 2;
Point(1) = {0, a, 0}; Point(2) = {L, a, 0}; Point(3) = {0, -a, 0}; Point(4) = {L, -a, 0};
Point(5) = {0, 0, 0}; Point(6) = {-a, 0, 0};
Line(1) = {1, 2}; Line(2) = {3, 4};
Circle(3) = {1, 5, 6}; Circle(4) = {6, 5, 3};
Transfinite Curve {1, 2} = nl + 1;
Transfinite Curve {3, 4} = nb + 1;
leg1[] = Extrude {0, 0, w} { Curve{1}; Layers{nw}; Recombine; };
leg2[] = Extrude {0, 0, w} { Curve{2}; Layers{nw}; Recombine; };
ring1[] = Extrude {0, 0, w} { Curve{3}; Layers{nw}; Recombine; };
ring2[] = Extrude {0, 0, w} { Curve{4}; Layers{nw}; Recombine; };
Physical Surface("strip") = {leg1[1], leg2[1], ring1[1], ring2[1]};
Physical Surface("leg1") = {leg1[1]};
Physical Surface("leg2") = {leg2[1]};
Mesh.MshFileVersion = 4.1;
