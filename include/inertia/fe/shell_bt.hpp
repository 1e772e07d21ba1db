#pragma once
/// \file shell_bt.hpp
/// The one-point four-node shell for explicit runs (Belytschko, Lin and Tsay, CMAME 42, 1984,
/// 225-251; the element explicit codes use by default for crash, LS-DYNA's ELFORM 2): one
/// in-plane point, a corotated frame through the current nodes, Mindlin kinematics, and a
/// stiffness-form hourglass control (Belytschko and Tsay, IJNME 19, 1983, 405-419; Flanagan and
/// Belytschko's orthogonal hourglass vector). Force only (no tangent): explicit runs. Pure
/// function, no allocation, no derivatives by jets.
///
/// DOFs and state: those of shell_nonlinear.hpp. d[24] = [u0..u3, psi0..psi3] global, the
/// TOTAL translations and rotation vectors psi (the node's rotation exp(psi)); f[24] conjugate to
/// them (additive DOFs); one in-plane point, so one ShellLayers state
/// (shell4_bt_state_size = shell_layers_state_size doubles: the J2 state of each point through
/// the thickness, none for an elastic section).
///
/// Kinematics (a total corotational small-strain form, the EICR of shell_nonlinear.hpp with one
/// point and its derivatives in closed form):
/// - the frame of a set of nodes x_a: g1 = (x1 + x2 - x0 - x3) / 2, g2 = (x2 + x3 - x0 - x1) / 2,
///   e3 along g1 x g2 (the cross product of the diagonals, as BLT), e1 along g1 (the mean of
///   sides 0-1 and 3-2: BLT take side 0-1; the two differ by a rotation of second order in the
///   shear of the element), e2 = e3 x e1. R0 the reference's (rows e1 e2 e3), Rr the current
///   nodes'; x0_a = R0 (X_a - C) the reference's local coordinates (C the mean node), h_a its
///   height above the plane (a warped element, tied to its projection by rigid links as
///   shell.hpp).
/// - local deformational displacements u'_a = Rr (x_a - c) - x0_a, rotations theta_a =
///   log(Rr exp(psi_a) R0^T) (small: one element's deformational rotation).
/// - strains of the flat reference projection at its centre (one point): membrane [u,x, v,y,
///   u,y + v,x], curvatures [beta_x,x, beta_y,y, beta_x,y + beta_y,x] (beta_x = theta_y,
///   beta_y = -theta_x), through shell_layers_update (elastic, or plane-stress J2 through the
///   thickness with every hardening law of the solids; the state per point), times the area.
/// - transverse shear (elastic, k G t): MITC4's tied field (the covariant shear at the four edge
///   midpoints, shell.hpp) integrated exactly on the element's parallelogram, A [|g0|^2 + (c1
///   d1^2 + c2 d2^2) / 3] / 2 k G t with g0 the centre's shear and d1, d2 the field's variation
///   along each direction. The centre's part is BLT's shear; the variation (which an assumed
///   shear at one point drops) resists the w hourglass mode and the rotations' curl mode (beta =
///   (y, -x)), physically: the w mode needs no coefficient (Belytschko, Wong and Chiang's
///   physical stabilization of the shear, CMAME 96, 1992, is of this kind). MITC4's field does
///   not lock.
/// - drilling: (theta_z - omega)^2 at the centre, penalty `drilling` G t A, omega = (v,x - u,y)
///   / 2, and 1 % of it on each node's theta_z against the element's mean (the three patterns the
///   centre does not see; shell.hpp keeps 1 % at 2 x 2 for the same purpose).
/// - hourglass (in-plane and bending): gamma_a = (h_a - (h . x) N_a,x - (h . y) N_a,y) / 4, h =
///   (1, -1, 1, -1) (orthogonal to the linear fields: the hourglass force does no work in a
///   constant-strain state), q = gamma . [u' v' theta_x theta_y], energy 1/2 k q^2 with
///   k_m = r E t A (b . b) / 8 (u', v') and k_b = r E t^3 A (b . b) / 192 (theta_x, theta_y), BLT's
///   scales; b . b = sum_a N_a,x^2 + N_a,y^2, r the coefficient (`hourglass`, 0.1 by default as
///   LS-DYNA's). Elastic always (also for plastic sections), and counted apart (hourglass).
/// Force: f = B^T f_l, B = d dl / dd exactly (shell_bt.cpp's to_global): the local forces'
/// moment about the centre through the frame's spin (which follows the nodes: e3 and e1 turn
/// with g1 and g2), the log's tangent J(theta)^-T on the local moments, and T(psi_a)^T, the
/// exponential's left tangent (exp(psi + dpsi) = exp([T dpsi]x) exp(psi) to first order), so f is
/// the gradient of the stored energy (elastic) to rounding at any rotation: the explicit run's
/// energy balance holds as for the corotational MITC4. Holding the frame (f = T^T Rr^T f_l, as
/// explicit codes' shells do) costs the same but leaves an error of the order of the elements'
/// deformational rotations (measured: 2.7e-5 of dE at local rotations 1e-4; a clamped plate
/// swinging to twice its thickness loses 0.14 % of its energy with it).
///
/// Exact and not. Exact (to rounding): rigid motions of any size give f = 0 and E = 0 (the frame
/// and the local state are invariant); f = dE/dd; a constant membrane or bending strain state
/// gives the exact nodal forces of the constant resultants on any flat quad (the patch test)
/// and on a parallelogram the linear MITC4's force (the hourglass vector is orthogonal to linear
/// fields). Not exact: small strains (the local state is linear in dl, as shell_nonlinear.hpp's);
/// the shear's variation and the area are those of the flat projection (exact for
/// parallelograms); one point in the plane (a yielding element yields all at once).
/// One-point membranes are soft in in-plane bending (the hourglass stiffness alone resists it;
/// BLT's known limit): mesh a beam-like in-plane bending with several elements across.
///
/// Cost: see examples/guide/shells.md (measured per element and explicit step).

#include <span>

#include "inertia/fe/beam_fiber.hpp"
#include "inertia/fe/shell_section.hpp"

namespace inertia::fe {

/// The doubles of state of one element: shell_layers_state_size(s) (one in-plane point).
int shell4_bt_state_size(const ShellLayers& s);

/// What one call gives besides the force.
struct ShellBtResult {
  FiberEnergy energy;      ///< stored (section, shear, drilling, hourglass) and dissipated
  double hourglass = 0;    ///< the part of energy.stored in the hourglass modes
  double resultants[8]{};  ///< N11 N22 N12 M11 M22 M12 Q1 Q2 at the point, output axes (current)
};

/// What the element's reference nodes X give once: its frame (rows e1 e2 e3), its nodes' local
/// coordinates and heights, the flat reference's shape-function derivatives at the centre, the
/// inverse Jacobian and area, and the hourglass vector gamma with b . b. An explicit run builds
/// it at set-up (39 doubles an element) instead of on every call. Throws SolverError for
/// collinear nodes.
struct ShellBtReference {
  double R0[9];
  double x[4], y[4], h[4];
  double Nx[4], Ny[4], inv[2][2], area;
  double gamma[4], bb;
};
ShellBtReference shell4_bt_reference(const double X[12]);

/// The element's force f[24] at d (total, global) from the committed state into trial (
/// shell4_bt_state_size each; trial may alias committed); `hourglass` the coefficient r >= 0.
/// X: the reference nodes (4 x 3). Throws SolverError for a current state without a frame
/// (collapsed element, non-finite d), InputError as shell_layers_update, InternalError for short
/// spans.
ShellBtResult shell4_bt(const double X[12], const ShellLayers& s, double hourglass,
                        const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24]);
/// The same with the reference built once (ref = shell4_bt_reference(X)); without `resultants`
/// the result's resultants are left zero (a force pass needs none); QT (if not null): each
/// node's shell4_bt_node_rotation of its psi in d, computed once per node for all the elements
/// around it (4 x 18 values).
ShellBtResult shell4_bt(const ShellBtReference& ref, const double X[12], const ShellLayers& s,
                        double hourglass, const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24], bool resultants = true,
                        const double* const* QT = nullptr);
/// A node's rotation exp(psi) (Rodrigues, 9 values row-major) and its left tangent T
/// (exp(psi + dpsi) = exp([T dpsi]x) exp(psi) to first order; 9 values) into QT[18].
void shell4_bt_node_rotation(const double psi[3], double QT[18]);

/// The generalized strains ek[6] ([e11 e22 g12 k11 k22 k12], fe/shell_section.hpp's order) at
/// the point at d, in the current element's axes, whose rows go to R[9] (for outputs).
void shell4_bt_strains(const ShellBtReference& ref, const double X[12], const double d[24],
                       double ek[6], double R[9]);

}  // namespace inertia::fe
