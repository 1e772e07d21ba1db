#pragma once
/// \file shell_nonlinear.hpp
/// The corotational four-node shell (large displacements and rotations, small strains): the
/// small-strain MITC4 element of fe/shell.hpp (membrane, Mindlin bending, MITC4 transverse shear,
/// drilling) in a frame that follows the element, with the section law of fe/shell_section.hpp
/// (elastic, or plastic through the thickness) at its 2 x 2 in-plane points. Pure functions of
/// arrays, no allocation.
///
/// References: C. C. Rankin and B. Nour-Omid, "The use of projectors to improve finite element
/// performance", Computers & Structures 30 (1988) 257-267; C. A. Felippa and B. Haugen, "A
/// unified formulation of small-strain corotational finite elements: I. Theory", CMAME 194 (2005)
/// 2285-2335 (element-independent corotational kinematics, EICR). fe/beam_corotational.hpp is the
/// same construction for the beam.
///
/// State. d[24] = [u0 .. u3 (xyz), psi0 .. psi3 (xyz)] in global axes (the order of shell.hpp):
/// u_a the total displacements, psi_a the TOTAL rotation vectors (the additive rotation DOFs).
/// Node a's triad is R_a = exp(psi_a) (rotation_from_vector of fe/beam_corotational.hpp) applied
/// to the reference triad.
///
/// Kinematics. The reference frame R0 (rows e1, e2, e3), centre C and local coordinates x0_a =
/// R0 (X_a - C) are shell4_frame's of the reference nodes X; the corotated frame Rr and centre c
/// are the same construction on the current nodes x_a = X_a + u_a (e1 along g1 = (x1 + x2 - x0 -
/// x3) / 2, e3 along g1 x g2). The local deformational displacements and rotations are
///   u_a' = Rr (x_a - c) - x0_a,     theta_a = log(Rr exp(psi_a) R0^T),
/// log the inverse of exp (|theta_a| < pi). They drive the small-strain MITC4 element on the
/// reference's flat projection (x0, y0 of shell4_frame): membrane strains, curvatures, MITC4
/// shear strains and the drilling strain, each linear in dl = [u', theta] (shell.hpp's formulas).
/// A warped reference (node heights h_a above the plane) has shell.hpp's warping correction:
/// rigid links to the projected nodes, u'_a -= h_a theta_a,y, v'_a += h_a theta_a,x. The
/// drilling penalty (alpha = drilling G t) is integrated 99 % by the centre point (weight the
/// area) and 1 % by the 2 x 2 points: the rule of shell.hpp's revision with the warping
/// correction (the revision before it integrates all of it by 2 x 2; the tests compare the two
/// elements without drilling and the drilling by its own energy).
/// Any rigid motion leaves dl = 0 exactly (f = 0, E = 0); for small d, dl is the linear element's
/// deformation with its rigid part removed (the linear warped element's rigid modes are those of
/// its warped nodes), so f -> shell4_stiffness(X) d and K(d = 0) = shell4_stiffness(X) (to
/// rounding).
///
/// Section. At each 2 x 2 Gauss point (xi, eta) = (-g, -g), (-g, g), (g, -g), (g, g), g =
/// 1 / sqrt 3, the generalized strains [e11 e22 g12 k11 k22 k12] go through shell_layers_update
/// from that point's committed state into its trial state (shell_layers_state_size doubles per
/// point, the points in that order); the transverse shear (k G t) and the drilling (alpha =
/// drilling G t) stay elastic. The incompatible membrane modes of shell.hpp are KEPT, condensed
/// with the ELASTIC membrane matrix: the membrane strain rows are B~ = Bm - Ba Kaa^-1 Kam, a fixed
/// assumed-strain (B-bar) operator. For an elastic section this is exactly shell.hpp's condensed
/// membrane (same accuracy: in-plane bending without shear locking); once the section yields the
/// modes are not re-condensed with the plastic tangent, so the membrane is somewhat stiffer in
/// plastic in-plane bending than a fully enhanced element would be (bending through the thickness,
/// the usual plastic mechanism of a shell, is not affected). The tangent stays consistent: it is
/// the exact derivative of the force the element computes.
///
/// Force and tangent. f = B^T f_l, B = d dl / dd (with the derivative of exp: f's rotation
/// components are conjugate to the additive psi), f_l the local element's force; K = B^T K_l B +
/// sum_k f_l,k d2 dl_k / dd2, K_l the local tangent (from the section's consistent tangent). B is
/// computed by first-order forward differentiation of the kinematics, the second term by second-
/// order differentiation of f_l . dl (the frame's by second-order jets, the rotations' by the
/// chain rule through log(Rr exp(psi) R0^T)); both exact to rounding, with series near psi = 0
/// and theta = 0. So K is the exact derivative of f, symmetric when the section's tangent is
/// (elastic, associated J2); for an elastic section f and K are the gradient and Hessian of the
/// returned energy. The force alone uses first-order derivatives only.
///
/// Exact and approximate. Exact (to rounding): rigid motions of any size (f = 0, E = 0, also
/// for warped elements), f and K as derivatives, the linear element at d = 0, and the pure
/// bending of a strip (the regular polygon of the elements' chords: each element's deformation
/// is then the linear element's constant curvature). Of second order in the deformational
/// rotations: the local small-strain measure and the choice of the corotated frame.
///
/// Limits.
/// - exp is not one-to-one: its tangent is singular at |psi| = 2 pi k (k >= 1) for variations of
///   psi normal to psi (as for the beam): a node whose rotation vector reaches 2 pi about an axis
///   loses the stiffness against perpendicular rotations there. Plane problems (psi along a fixed
///   axis, the other rotations held) are not affected.
/// - The local rotations theta_a must stay below pi (log is singular there): they are one
///   element's deformational rotations, small when the mesh resolves the deformed shape.
/// - Small strains: the local element is linear in dl (membrane strains and curvatures of the
///   order of the rotations' squares are second order and omitted, as in every EICR element).
/// - Warped elements: the rigid links are exact for the linear element and for rigid motions;
///   the flat projection's strains are the small-strain ones (a strongly warped element is as
///   approximate here as in shell.hpp).
/// - The frame follows g1 (edge-biased, not a best fit): for the small strains this is for, the
///   difference is of second order.
/// - Mass: the lumped mass of shell.hpp (the same rotary inertia about every axis) is invariant
///   under rotation and is the one for explicit runs.
///
/// Cost (one core, the Release build, measured by unit.ShellNonlinear.CostPerElement): the force
/// alone ~5 us per element (the explicit path: first-order derivatives, 15 per node), force and
/// tangent ~32 us; the linear element's K d from a stored K ~0.1 us.

#include <span>

#include "inertia/fe/beam_fiber.hpp"
#include "inertia/fe/shell.hpp"
#include "inertia/fe/shell_section.hpp"

namespace inertia::fe {

/// The doubles of state of one element: 4 x shell_layers_state_size(s).
int shell4_nonlinear_state_size(const ShellLayers& s);

/// The element's update at d (24, global, the order of shell.hpp) from the committed state into
/// trial (shell4_nonlinear_state_size each; trial may alias committed): the internal force f[24]
/// = conjugate to the additive DOFs, and when K is not null its consistent tangent K[576] (row-
/// major), and when resultants is not null the resultants at the 4 Gauss points (4 x 8: N11 N22
/// N12 M11 M22 M12 Q1 Q2, in the output axes of shell.hpp taken on the CURRENT element: a1 the
/// global X axis projected on its plane). Returns the stored energy and the dissipation of the
/// step, integrated over the element. X: the reference nodes (4 x 3). Throws
/// std::invalid_argument as shell4_frame for a degenerate reference, SolverError for a current
/// state without a frame (collapsed element, non-finite d), InputError as shell_layers_update,
/// InternalError for short spans.
FiberEnergy shell4_nonlinear(const double X[12], const ShellLayers& s, const double d[24],
                             std::span<const double> committed, std::span<double> trial,
                             double f[24], double* K, double* resultants);

/// The generalized strains ek[24] (4 x [e11 e22 g12 k11 k22 k12], fe/shell_section.hpp's order)
/// at the 2 x 2 points at d, in the corotated axes, whose rows e1, e2, e3 go to R[9]: what
/// shell4_nonlinear gives the section law (for outputs: the stresses through the thickness with
/// shell_layers_stresses and the point state).
void shell4_nonlinear_strains(const double X[12], const ShellLayers& s, const double d[24],
                              double ek[24], double R[9]);

/// The corotated state: dl[24] = [u'_0 .. u'_3, theta_0 .. theta_3] (local axes, see the file
/// comment) and the corotated frame Rr[9] (rows e1, e2, e3).
void shell4_corotated_state(const double X[12], const double d[24], double dl[24], double Rr[9]);

}  // namespace inertia::fe
