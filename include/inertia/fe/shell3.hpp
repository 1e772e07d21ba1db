#pragma once
/// \file shell3.hpp
/// Three-node flat shell element, linear (small displacements and rotations), the triangle of the
/// four-node shell (shell.hpp) with the same conventions: Allman's membrane triangle (D. J.
/// Allman, Computers & Structures 19, 1984, 1-8: the in-plane displacements quadratic, their
/// mid-side values from the corner translations and drilling rotations) with the Hughes-Brezzi
/// drilling penalty, and Reissner-Mindlin bending with MITC3 transverse shear (P.-S. Lee and
/// K. J. Bathe, Computers & Structures 82, 2004, 945-962: the covariant shear strains tied at the
/// edge midpoints, so a thin element does not lock). Pure functions, no allocation.
///
/// DOFs. Element vectors and matrices have 18 DOFs in the order
///   [u0 (x y z), u1, u2, th0 (x y z), th1, th2]   (global axes),
/// matrices 18 x 18 row-major; the shell3_local_* functions use the same order in local axes.
///
/// Local frame (shell3_frame): e1 = normalize(x1 - x0), e3 = normalize((x1 - x0) x (x2 - x0)),
/// e2 = e3 x e1, R has the rows e1, e2, e3; the origin at the centroid.
///
/// Membrane (local x, y; area coordinates L_a): u = sum_a L_a (2 L_a - 1) u_a + sum_edges
/// 4 L_i L_j u_ij with the mid-side value u_ij = (u_i + u_j) / 2 + (th_z,j - th_z,i) / 8 (y_j -
/// y_i, x_i - x_j) (the edge's normal displacement cubic, its slope the drilling rotation), strains
/// by 3 points. Drilling: omega = (v,x - u,y) / 2, penalty energy 1/2 alpha (th_z - omega)^2 per
/// area (alpha = drilling G t) by one point, the centroid: it holds the one zero-energy mode of
/// Allman's triangle (equal drilling rotations, no translation).
/// Bending: beta_x = th_y, beta_y = -th_x linear, constant curvatures; transverse shear MITC3: with
/// r = L1, s = L2, e_rt tied at (1/2, 0), e_st at (0, 1/2), both at (1/2, 1/2):
///   e_rt = a + c s, e_st = b - c r  (the field whose tangential strain is the tied one at each
/// edge's midpoint), by 3 points. Section as for the quad (membrane, bending, shear k G t).
///
/// Lumped mass (diagonal, 18 values): rho t A / 3 per translation, rho t^3 / 12 A / 3 per
/// rotation about each global axis.
///
/// Stress resultants (shell3_resultants) at the centroid, in the output axes of shell.hpp:
/// N11 N22 N12 M11 M22 M12 Q1 Q2.
///
/// Limits: flat triangles lock in the inextensional bending of doubly curved shells (membrane
/// locking: the pinched hemisphere gives 0.020, 0.200, 0.771, 0.972 of the answer at 4, 8, 16, 32
/// quads per side cut in two, against the quads' 0.924, 0.984, 0.990); singly curved shells
/// converge (the Scordelis-Lo roof: 0.489, 0.893, 0.979, 0.992). Prefer quads on domes.

#include "inertia/fe/shell.hpp"

namespace inertia::fe {

/// The triangle's local frame and its nodes' local coordinates.
struct Shell3Frame {
  double R[9];        ///< rows e1, e2, e3
  double center[3];   ///< the centroid
  double x[3], y[3];  ///< nodes in the local plane
  double area = 0;
};

/// The frame of the triangle with node coordinates xyz (3 x 3). Throws std::invalid_argument for
/// a degenerate triangle (collinear or coincident nodes).
Shell3Frame shell3_frame(const double xyz[9]);

/// The stiffness in local axes (18 x 18, the local DOF order).
void shell3_local_stiffness(const Shell3Frame& f, const ShellSection& s, double K[324]);

/// The stiffness in global axes: T^T K_local T, T = diag(R, ..., R).
void shell3_stiffness(const double xyz[9], const ShellSection& s, double K[324]);

/// The lumped mass (18 diagonal values, global DOF order).
void shell3_lumped_mass(const double xyz[9], const ShellSection& s, double m[18]);

/// The stress resultants at the centroid (output axes) from the element's global displacements
/// and rotations d (18). out: N11 N22 N12 M11 M22 M12 Q1 Q2.
void shell3_resultants(const double xyz[9], const ShellSection& s, const double d[18],
                       double out[8]);

}  // namespace inertia::fe
