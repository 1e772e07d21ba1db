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
///
/// Section law (shell8_update; shell8_plastic.cpp): the same element with fe/shell_section.hpp's
/// section (elastic, or plane-stress J2 through the thickness) at its 2 x 2 in-plane points, linear
/// kinematics. At each point, in its lamina axes, the generalized strains ek = [e11 e22 g12 k11 k22
/// k12] are linear in d: the in-plane strain rows B(z) at the point's two Gauss heights z-, z+
/// (zeta = -+1 / sqrt 3, z = zeta t / 2 - o) give the curvature rows k = (B(z+) - B(z-)) / (z+ -
/// z-) and the membrane rows e = B(z-) - z- k at the nodes' surface (z = 0), the section's
/// reference; the section's resultants nm and tangent D act on them with the weight |X,xi x
/// X,eta| of the mid-surface: f = sum w G^T nm, K = sum w G^T D G (G = [e; k], 6 x 48). The
/// transverse shear (k G, at the two heights, weight det J) and the drilling penalty stay the
/// elastic element's. On a flat element B is linear in z and det J = |X,xi x X,eta| t / 2, so
/// that an elastic section gives shell8_stiffness's K exactly (to round-off); on a curved one B(z)
/// is rational in z and det J varies through the thickness (the factor 1 - z / R): the linear
/// interpolation is exact at the two heights, the weight is the mid-surface's, so the elastic
/// membrane and bending stiffness differ from the elastic element's by terms of the order of
/// (t / R)^2 (the section integrates e + z k on flat layers; the first-order terms cancel between
/// the two heights): 1.9e-5 and 1.7e-3 of K at t / R = 0.01 and 0.1 (unit.Shell8Plastic). The
/// program keeps the elastic element for elastic sections.
/// The state per element: 4 x shell_layers_state_size doubles (point-major, the points in the order
/// (xi, eta) = (-g, -g), (-g, g), (g, -g), (g, g)).

#include <span>

#include "inertia/fe/beam_fiber.hpp"
#include "inertia/fe/shell.hpp"
#include "inertia/fe/shell_section.hpp"

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

/// The doubles of state of one element with the section law: 4 x shell_layers_state_size(s).
int shell8_state_size(const ShellLayers& s);

/// The weights of the 2 x 2 points (the order of shell8_update): the mid-surface's area element
/// |X,xi x X,eta| at each; their sum is close to the area (exact for a flat parallelogram).
void shell8_gauss_weights(const double xyz[24], const ShellSection& s, double w[4]);

/// The element with the section law (file comment) at d (48, global) from the committed state
/// into trial (shell8_state_size each; trial may alias committed; empty for an elastic section):
/// the internal force f[48], and when K is not null the consistent tangent K[2304] (row-major,
/// symmetric for the associated J2 law), and when resultants is not null the resultants at the 4
/// points (4 x 8: N11 N22 N12 M11 M22 M12 Q1 Q2 in the output axes of shell.hpp at each point,
/// M about the nodes' surface). Returns the stored energy (the section's, the transverse shear's
/// and the drilling's) and the section's dissipation over the step, integrated over the element.
/// Throws std::invalid_argument for a degenerate element, InputError, InternalError and
/// SolverError as shell_layers_update.
FiberEnergy shell8_update(const double xyz[24], const ShellLayers& s, const double d[48],
                          std::span<const double> committed, std::span<double> trial, double f[48],
                          double* K, double* resultants);

/// The generalized strains ek[24] (4 x [e11 e22 g12 k11 k22 k12]) at the 2 x 2 points at d and
/// each point's lamina axes R[36] (4 x rows e1, e2, e3): what shell8_update gives the section law
/// (for outputs: the stresses through the thickness with shell_layers_stresses).
void shell8_strains(const double xyz[24], const ShellLayers& s, const double d[48], double ek[24],
                    double R[36]);

}  // namespace inertia::fe
