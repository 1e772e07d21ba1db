#pragma once
/// \file beam_release.hpp
/// End releases (hinges) of the two-node beam of fe/beam.hpp: rotation components of an end that
/// transmit no moment (SAP2000's frame releases, Abaqus' *RELEASE). Pure functions, no
/// allocation.
///
/// Releases are a bit mask over the six local rotation DOFs of the element (fe/beam.hpp's local
/// order [u0, u1, theta0, theta1]): bit 3 e + k releases component k at end e, k = 0 the torsion
/// t (moment about e_x), 1 the moment my about e_y, 2 the moment mz about e_z.
///
/// Static condensation. With b the released local DOFs and a the others, the element's own end
/// rotations at b follow the others so that the moments there vanish:
///   u_b = -K_bb^-1 K_ba u_a,   i.e. u = T u,   T = I - E_b K_bb^-1 K_b.
/// (E_b puts the |b| rows at b; T's columns b are zero.) The condensed stiffness K_c = T^T K T is
/// the Schur complement K_aa - K_ab K_bb^-1 K_ba with zero rows and columns at b: the node's
/// rotation there no longer meets this element. The consistent mass is condensed with the same T
/// (M_c = T^T M T, Guyan's reduction: the inertia of the element moving in its static
/// deflected shape, exact in statics and the standard choice of the programs above), and so are
/// consistent loads (f_c = T^T f: a span load's fixed-end moment at a hinge goes to the other
/// end, e.g. q L^2 / 8 at the clamped end of a propped span). K_bb is positive definite except
/// when the torsion is released at both ends (the twist is then a mechanism): the callers
/// refuse that. T is the same in local and in global axes up to the frame: T_g = T_r^T T T_r
/// (T_r = diag(R, R, R, R), beam_to_global).

namespace inertia::fe {

/// The bit of component k (0: t, 1: my, 2: mz) at end e (0, 1).
constexpr unsigned beam_release_bit(int end, int component) {
  return 1u << static_cast<unsigned>(3 * end + component);
}
/// Both ends' torsion released: a mechanism.
constexpr bool beam_releases_twist(unsigned released) {
  return (released & beam_release_bit(0, 0)) && (released & beam_release_bit(1, 0));
}

/// T (12 x 12 row-major, local axes) of the file comment from the local stiffness. released == 0
/// gives the identity. Throws SolverError when K_bb is not positive definite (torsion released at
/// both ends).
void beam_release_transform(const double K_local[144], unsigned released, double T[144]);

/// out = T^T A T (12 x 12; out may not alias A).
void beam_condense(const double T[144], const double A[144], double out[144]);

/// f = T^T f (12 values, in place).
void beam_condense_vector(const double T[144], double f[12]);

}  // namespace inertia::fe
