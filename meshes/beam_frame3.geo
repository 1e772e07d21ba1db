// A three-storey space frame for beam elements, one bay by one bay: columns at the corners of a
// BX x BY plan (x, y), storeys of height H (z up), and the four floor beams around each floor;
// n line2 cells per member. Physical groups: curve "columns", curve "beams", point "base" (the 4
// feet), points "floor1", "floor2", "floor3" (the 4 corners of each floor).
// gmsh -1 -format msh41 -setnumber n 2 beam_frame3.geo -o beam_frame3.msh
DefineConstant[ n = 2, BX = 5, BY = 4, H = 3.2 ];
xs[] = {0, BX, BX, 0};
ys[] = {0, 0, BY, BY};
For level In {0:3}
  For c In {0:3}
    Point(10 * level + c + 1) = {xs[c], ys[c], level * H};
  EndFor
EndFor
columns[] = {};
beams[] = {};
For level In {1:3}
  For c In {0:3}
    Line(100 + 10 * level + c) = {10 * (level - 1) + c + 1, 10 * level + c + 1};
    columns[] += {100 + 10 * level + c};
    Line(200 + 10 * level + c) = {10 * level + c + 1, 10 * level + (c + 1) % 4 + 1};
    beams[] += {200 + 10 * level + c};
  EndFor
EndFor
Transfinite Curve {columns[], beams[]} = n + 1;
Physical Curve("columns", 1) = {columns[]};
Physical Curve("beams", 2) = {beams[]};
Physical Point("base", 3) = {1, 2, 3, 4};
Physical Point("floor1", 4) = {11, 12, 13, 14};
Physical Point("floor2", 5) = {21, 22, 23, 24};
Physical Point("floor3", 6) = {31, 32, 33, 34};
