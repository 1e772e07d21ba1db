#pragma once
/// \file beam_corotational.hpp
/// The corotational two-node 3D beam (large displacements and rotations, small strains): the
/// linear element of fe/beam.hpp (Euler-Bernoulli or Timoshenko, beam_local_stiffness) in a frame
/// that follows the element. Pure functions of arrays, no allocation.
///
/// References: M. A. Crisfield, "A consistent co-rotational formulation for non-linear,
/// three-dimensional, beam-elements", CMAME 81 (1990) 131-150; J.-M. Battini and C. Pacoste,
/// "Co-rotational beam elements with warping effects in instability problems", CMAME 191 (2002)
/// 1755-1789 (the corotated frame of their sec. 3, used here).
///
/// State. d[12] = [u0, u1, psi0, psi1] in global axes, the DOF values as inertia stores them:
/// u_i the total displacements of the ends, psi_i the TOTAL rotation vectors of the ends (the
/// rotation DOFs rx, ry, rz are additive). End i's triad is
///   R_i = exp(psi_i) E,    exp the Rodrigues exponential (rotation_from_vector),
/// E the element's reference triad (columns e_x, e_y, e_z of beam_frame at X0, X1, orientation).
///
/// Kinematics (Battini and Pacoste's frame). The current chord x1 - x0 (x_i = X_i + u_i), of
/// length l, gives r1 = (x1 - x0) / l; q = (R_0 e_y + R_1 e_y) / 2, the mean of the ends' second
/// axes (e_y the unit local y); r3 = normalize(r1 x q), r2 = r3 x r1. With Rr = [r1 r2 r3] the
/// local (deformational) quantities are
///   u_l = l - L0 (the extension, computed as (l^2 - L0^2) / (l + L0) without cancellation),
///   theta_i = log(Rr^T R_i) (the ends' rotations in the frame),
/// log the inverse of exp (rotation_to_vector). They enter the linear local element as the local
/// vector [0 0 0, u_l 0 0, theta_0, theta_1] (its order, see fe/beam.hpp), so the energy is
///   E(d) = 1/2 dl . K_l dl,   dl = (u_l, theta_0, theta_1),  K_l from beam_local_stiffness(L0).
/// Any rigid motion of the whole element leaves dl = 0 (E = 0, f = 0); for small d, dl is the
/// linear element's deformation (its rigid part removed), so f -> K_lin d.
///
/// Force and tangent. f = dE/dd, the gradient with respect to the STORED (additive) DOFs
/// (including the derivative of exp, the tangent T(psi)), and K = d2E/dd2, its exact (consistent)
/// derivative: the Hessian, symmetric in every state. Both are computed by forward differentiation
/// of the kinematics above (first- and second-order dual numbers carried through the exponential,
/// the frame and the logarithm, each to rounding), so f and K are the exact derivatives of the
/// energy the function returns; near psi = 0 the exponential and near theta = 0 the logarithm use
/// their series (no 0/0).
///
/// Limits.
/// - exp is not one-to-one: its tangent T(psi) is singular at |psi| = 2 pi k (k >= 1) for
///   variations of psi normal to psi (a rotation vector that has grown to 2 pi about an axis loses
///   the stiffness against perpendicular rotations at that DOF: the additive rotation DOFs are
///   singular there). Plane problems (psi along a fixed axis, the others held) are not affected.
/// - The local rotations theta_i must stay below pi (log is singular at pi); they are the
///   deformational rotations of one element, small when the mesh resolves the deformed shape.
/// - r1 parallel to q (an element twisted or bent by about 90 degrees against its ends' y axes)
///   has no frame: SolverError.
/// - f's rotation components are conjugate to the additive psi: T(psi)^T m, m the spatial end
///   moment (equal at psi = 0, e.g. a clamped support's reaction, and while psi stays along m).
///   Likewise a constant nodal moment on the rotation DOFs is the load of potential -m . psi: a
///   moment about a fixed axis only in plane motion (psi along m).
/// - The mass is not corotational here: the lumped mass of fe/beam.hpp (the same rotational
///   inertia about every axis) is invariant under rotation and is the one for explicit runs; its
///   kinetic energy 1/2 psi' . M psi' is the additive DOFs' (the angular velocity is T(psi) psi'),
///   exact for rotations about a fixed axis (a beam spun about its own axis, plane motion).
///
/// Cost (one core, -O2): the force alone ~4 us per element (12 first derivatives), with the
/// tangent ~60 us (78 second derivatives); the linear element's K d ~0.5 us.

#include "inertia/fe/beam.hpp"

namespace inertia::fe {

/// The Rodrigues exponential: R = cos a I + sin a / a [psi]x + (1 - cos a) / a^2 psi psi^T,
/// a = |psi| (3 x 3 row-major; the series below a = 1e-2).
void rotation_from_vector(const double psi[3], double R[9]);

/// Its inverse on |psi| <= pi: the rotation vector of a rotation matrix (|psi| = pi for a half
/// turn, its axis' sign arbitrary; beyond a quarter turn the axis from the symmetric part of R,
/// accurate up to the half turn). R must be orthogonal (not checked).
void rotation_to_vector(const double R[9], double psi[3]);

/// Internal force f[12] = dE/dd (global axes, the order of d), and when K is not null the tangent
/// K[144] = df/dd (row-major), and when energy is not null the stored energy E(d); see the file
/// comment. X0, X1: the reference ends; orientation: the local y hint of beam_frame (the same as
/// the linear element's). Throws SolverError for a zero-length reference or current chord, an
/// orientation parallel to the beam, or a state without a frame (r1 parallel to q); InputError
/// as beam_shear_parameters. `released`: end releases (fe/beam_release.hpp's mask): K_l is then
/// the condensed local stiffness, so the energy is the least over the released local rotations
/// (the hinge turns freely). Exact for plane motion (a release about the axis normal to the
/// plane); in 3D the released end's rotation still orients the corotated frame (its mean y axis),
/// a coupling of second order in the deformational rotations.
void corotational_beam_force(const double X0[3], const double X1[3], const double orientation[3],
                             const BeamSectionProperties& s, const BeamMaterial& m,
                             bool shear_deformable, const double d[12], double f[12], double* K,
                             double* energy, unsigned released = 0);

/// The local state: dl[7] = (u_l, theta_0, theta_1) (extension and the ends' rotations in the
/// corotated frame, see the file comment), Rr[9] the corotated frame (rows r1, r2, r3: the
/// beam_frame convention), and when forces is not null the end section forces[12] in the
/// corotated axes (N, Vy, Vz, T, My, Mz at end 0 then end 1; the signs of beam_section_forces).
void corotational_beam_local_state(const double X0[3], const double X1[3],
                                   const double orientation[3], const BeamSectionProperties& s,
                                   const BeamMaterial& m, bool shear_deformable, const double d[12],
                                   double dl[7], double Rr[9], double* forces,
                                   unsigned released = 0);

}  // namespace inertia::fe
