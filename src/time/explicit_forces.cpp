#include "explicit_forces.hpp"

namespace inertia::explicit_detail {

void ExplicitForces::allocate(const DynamicSystem& system) {
  r_ = system.create_vector();
  w_ = system.create_vector();
}

Vec ExplicitForces::net_force(DynamicSystem& system, double t, Vec u, Vec v) {
  const auto [alpha_m, alpha_k] = system.rayleigh();
  system.force(t, u, v, r_);
  if (alpha_m != 0 || alpha_k != 0) {
    // K(u) only matters through alpha_K: do not re-linearise a nonlinear model for nothing.
    if (alpha_k != 0) system.update_tangent(u);
    system.mult_damping(v, w_);
    INERTIA_PETSC(VecAXPY(r_, -1.0, w_));
  }
  return r_;
}

PetscInt ExplicitForces::solve_mass(DynamicSystem& system, double t, Vec r, Vec a) {
  system.apply_constraints(t, nullptr, nullptr, a);
  return system.solve(1.0, 0.0, r, a).iterations;
}

PetscInt ExplicitForces::acceleration(DynamicSystem& system, double t, Vec u, Vec v, Vec a) {
  const auto [alpha_m, alpha_k] = system.rayleigh();
  if (alpha_m == 0 && alpha_k == 0 && system.lumped_acceleration(t, u, a)) {
    system.apply_constraints(t, nullptr, nullptr, a);
    return 0;
  }
  return solve_mass(system, t, net_force(system, t, u, v), a);
}

}  // namespace inertia::explicit_detail
