// A crash box: a square steel tube of side b (mid-surface) and length L along z, for shells
// (examples/crash_box). The bottom edge at z = 0, the top edge at z = L; quadrilaterals of about
// h (a structured, recombined mesh: 4 b / h around, about L / h along).
// The trigger: two dents near the top, so that the first fold forms there, as crash boxes are
// made to do. The faces x = +-b/2 are pushed in and the faces y = +-b/2 out by `dent` at
// z = L - zd, the amplitude a half sine across the face (zero at the corners, which stay
// straight) and falling linearly to zero at z = L - zd -+ wd: the shape of the first lobe of
// the symmetric folding mode, in which two opposite faces fold in and the other two out.
// Physical groups: surface "tube"; curves "bottom" (z = 0) and "top" (z = L).
//   gmsh -2 -format msh41 crash_box.geo -o crash_box.msh                      (h = 5 mm)
//   gmsh -2 -format msh41 -setnumber h 0.005 -setnumber L 0.035 crash_box.geo \
//     -o crash_box_coarse.msh                                                 (the test's)
DefineConstant[ b = 0.04, L = 0.12, h = 0.005, dent = 0.0003, zd = 0.0125, wd = 0.0075 ];
a = b / 2;
ns = Round(b / h);                  // cells along a side
z[] = {0, L - zd - wd, L - zd, L - zd + wd, L};   // the levels of the dent's lines
nz[] = {};
For k In {0 : 3}
  nz[k] = Round((z[k + 1] - z[k]) / h);
  If (nz[k] < 1)
    nz[k] = 1;
  EndIf
EndFor
// The corners (x, y) counter-clockwise seen from +z, and each face's inward normal sign: the
// faces x = +-a (0 and 2) are dented in, y = +-a (1 and 3) out.
cx[] = {a, a, -a, -a};
cy[] = {-a, a, a, -a};
sgn[] = {1, -1, 1, -1};
// Corner points at each level: p[4 level + corner].
For l In {0 : 4}
  For c In {0 : 3}
    p[4 * l + c] = newp;
    Point(p[4 * l + c]) = {cx[c], cy[c], z[l]};
  EndFor
EndFor
// Vertical lines along the corners: v[4 segment + corner].
For s In {0 : 3}
  For c In {0 : 3}
    v[4 * s + c] = newl;
    Line(v[4 * s + c]) = {p[4 * s + c], p[4 * (s + 1) + c]};
    Transfinite Curve {v[4 * s + c]} = nz[s] + 1;
  EndFor
EndFor
// Horizontal lines of each face at each level: e[4 level + face], face f from corner f to f + 1.
// At the dent's middle level a spline through the dented points (a half sine across the face).
For l In {0 : 4}
  For f In {0 : 3}
    g = (f + 1) % 4;
    e[4 * l + f] = newl;
    If (l == 2 && dent > 0)
      q[] = {p[4 * l + f]};
      For i In {1 : 7}
        s = i / 8;
        d = dent * Sin(Pi * s);
        xi = cx[f] + s * (cx[g] - cx[f]);
        yi = cy[f] + s * (cy[g] - cy[f]);
        // the face's inward direction is -(x, y) of its middle, normalised
        mx = (cx[f] + cx[g]) / 2;
        my = (cy[f] + cy[g]) / 2;
        nn = Sqrt(mx * mx + my * my);
        pt = newp;
        Point(pt) = {xi - sgn[f] * d * mx / nn, yi - sgn[f] * d * my / nn, z[l]};
        q[] += {pt};
      EndFor
      q[] += {p[4 * l + g]};
      Spline(e[4 * l + f]) = q[];
    Else
      Line(e[4 * l + f]) = {p[4 * l + f], p[4 * l + g]};
    EndIf
    Transfinite Curve {e[4 * l + f]} = ns + 1;
  EndFor
EndFor
// The faces: a patch per face and segment (Coons patches where the dent bends them).
faces[] = {};
For s In {0 : 3}
  For f In {0 : 3}
    g = (f + 1) % 4;
    cl = newll;
    Curve Loop(cl) = {e[4 * s + f], v[4 * s + g], -e[4 * (s + 1) + f], -v[4 * s + f]};
    sf = news;
    Surface(sf) = {cl};
    Transfinite Surface {sf};
    Recombine Surface {sf};
    faces[] += {sf};
  EndFor
EndFor
Physical Surface("tube", 1) = {faces[]};
Physical Curve("bottom", 2) = {e[0], e[1], e[2], e[3]};
Physical Curve("top", 3) = {e[16], e[17], e[18], e[19]};
