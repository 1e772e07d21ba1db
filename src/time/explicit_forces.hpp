#pragma once
/// \file explicit_forces.hpp
/// Private to src/time: the evaluations every explicit scheme (runge_kutta, symplectic_euler,
/// central_difference, explicit variational_symplectic)
/// shares, written once: the net force r = f(t, u, v) - C v, C = alpha_M M + alpha_K K(u), and the
/// mass solve a = M^{-1} r, pointwise for a lumped mass and a CG + Jacobi KSP solve for a
/// consistent one; the constrained DOFs of a hold the prescribed acceleration g''(t). Schemes
/// whose formula treats alpha_M M v on its own (central difference, variational) add alpha_M v
/// back where the formula needs it: the same on the free DOFs, and with a consistent mass it
/// keeps the alpha_M M_fc coupling to prescribed velocities that a pointwise term would drop.

#include "inertia/system/dynamic_system.hpp"

namespace inertia::explicit_detail {

class ExplicitForces {
 public:
  /// Allocates the work vectors; call from Integrator::initialize(), never from step().
  void allocate(const DynamicSystem& system);

  /// Collective. r = f(t, u, v) - C v with the tangent K(u) (updated only when alpha_K != 0; a
  /// no-op for linear models anyway). Returns r, owned here and valid until the next call.
  Vec net_force(DynamicSystem& system, double t, Vec u, Vec v);

  /// Collective. a = M^{-1} r on the free DOFs; the constrained DOFs of a are set to g''(t) first.
  /// Returns the KSP iterations (0 for a lumped mass).
  static PetscInt solve_mass(DynamicSystem& system, double t, Vec r, Vec a);

  /// Collective. a = a(t, u, v) = M^{-1} (f(t, u, v) - C v), constrained DOFs g''(t): the
  /// acceleration of the Euler and Runge-Kutta schemes. Returns the KSP iterations.
  PetscInt acceleration(DynamicSystem& system, double t, Vec u, Vec v, Vec a);

 private:
  petsc::Vector r_, w_;
};

}  // namespace inertia::explicit_detail
