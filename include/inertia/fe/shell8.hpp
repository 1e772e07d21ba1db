#pragma once
/// \file shell8.hpp
/// Eight-node curved shell element, linear (small displacements and rotations): the degenerated
/// continuum shell (Ahmad, Irons and Zienkiewicz, IJNME 2, 1970, 419-451) on the serendipity
/// quadrilateral, integrated by 2 x 2 points in its plane (uniformly reduced: Zienkiewicz, Taylor
/// and Too, IJNME 3, 1971, 275-290; the S8R class), 2 Gauss points through the thickness. Pure
/// functions, no allocation.
///
/// DOFs. A shell8 cell has nodes [n0..n7, r0..r7] (Gmsh's and VTK's quad8 order: the corners,
/// then the midpoints of the edges (0,1), (1,2), (2,3), (3,0)); element vectors and matrices have
/// 48 DOFs in the order [u0 (x y z), .., u7, th0 (x y z), .., th7] (global axes), matrices 48 x 48
/// row-major.
///
/// Geometry and kinematics. The nodes' directors V_a are the unit normals x,xi x x,eta of the
/// element's own (quadratic) surface at its nodes; a point (xi, eta, zeta) of the shell is
///   X = sum_a N_a (x_a + (zeta t / 2 - o) V_a),
/// o the offset (the nodes' surface o above the mid-surface, shell.hpp), and it moves by
///   U = sum_a N_a (u_a + (zeta t / 2 - o) th_a x V_a).
/// A rigid motion (u_a = c + w x x_a, th_a = w) moves every point rigidly: no strain.
/// Strains: the displacement gradient dU/dX = J^-1 dU/d(xi, eta, zeta), in the lamina axes e1 =
/// X,xi / |X,xi|, e3 = X,xi x X,eta normalized, e2 = e3 x e1 at the point: [e11, e22, g12, g13,
/// g23] (e33 dropped); plane stress E / (1 - nu^2) [1 nu 0; nu 1 0; 0 0 (1 - nu) / 2] and the
/// transverse shear k G (k = shear_factor). The in-plane 2 x 2 rule leaves the serendipity
/// element's one non-communicating zero-energy mode, which a mesh with supports does not
/// excite; it relieves the membrane and shear locking of curved shells (the pinched cylinder).
/// Drilling: the rotation about e3 has no stiffness in this kinematics; the penalty
/// 1/2 alpha (e3 . th - omega)^2 per area, omega = (v,x - u,y) / 2 the mid-surface's in-plane
/// rotation and alpha = drilling G t, by the same 2 x 2 points, holds it (a rigid rotation has
/// e3 . th = omega: no energy). The results hardly depend on alpha: the pinched cylinder at
/// 4 x 4, 8 x 8, 16 x 16 gives 0.858, 0.977, 1.003 with alpha = G t and 0.901, 0.980, 1.003 with
/// G t / 1e5; a small alpha would put the drilling rotations' modes among a thin shell's
/// structural ones (12 alpha / (rho t^3) against the rotary inertia).
///
/// Lumped mass (diagonal, 48 values): HRZ (Hinton, Rock and Zienkiewicz 1976): node a's share of
/// the mass rho t A is int N_a^2 / sum_b int N_b^2 (3 x 3 points); its rotations the same share of
/// rho (t^3 / 12 + t o^2) A about each global axis.
///
/// Stress resultants (shell8_resultants) at the centre, in shell.hpp's output axes: N11 N22 N12
/// M11 M22 M12 Q1 Q2, M about the nodes' surface (M = int sigma z dz - o N, z from the
/// mid-surface).

#include "inertia/fe/shell.hpp"

namespace inertia::fe {

/// The stiffness in global axes (48 x 48) of the quad8 with node coordinates xyz (8 x 3). Throws
/// std::invalid_argument for a degenerate element (a non-positive Jacobian at a point).
void shell8_stiffness(const double xyz[24], const ShellSection& s, double K[2304]);

/// The lumped mass (48 diagonal values, global DOF order).
void shell8_lumped_mass(const double xyz[24], const ShellSection& s, double m[48]);

/// The area of the element's (curved) mid-surface, by 3 x 3 points.
double shell8_area(const double xyz[24]);

/// The consistent nodal forces of a pressure-like load q (force per area, a global vector)
/// uniform over the surface: f_a = q int N_a dA (8 nodes x 3; the corners' shares are negative,
/// as the serendipity element's are).
void shell8_surface_load(const double xyz[24], const double q[3], double f[24]);

/// The stress resultants at the element's centre (output axes) from the element's global
/// displacements and rotations d (48). out: N11 N22 N12 M11 M22 M12 Q1 Q2.
void shell8_resultants(const double xyz[24], const ShellSection& s, const double d[48],
                       double out[8]);

}  // namespace inertia::fe
