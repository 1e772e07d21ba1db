#pragma once
/// \file newmark_family.hpp
/// Private to src/time: what Newmark and the alpha schemes (hht, generalized_alpha) share, written
/// once: the start a_0 = M^{-1} (f(t_0, u_0, v_0) - C v_0) and the Newmark update of u and v from
/// a_n and a_{n+1}.

#include "inertia/time/integrator.hpp"

namespace inertia::newmark_detail {

/// Collective. a = M^{-1} (f(t, u, v) - C v) at the state, the constrained DOFs of a prescribed;
/// rhs and w are work vectors. Returns the solve's report.
inline SolveReport initial_acceleration(MechanicalSystem& system, const State& state, Vec a,
                                        Vec rhs, Vec w) {
  system.update_tangent(state.u);
  system.force(state.time, state.u, state.v, rhs);
  system.mult_damping(state.v, w);
  INERTIA_PETSC(VecAXPY(rhs, -1.0, w));
  system.apply_constraints(state.time, nullptr, nullptr, a);
  return system.solve(1.0, 0.0, rhs, a);
}

/// x += h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1};  v += h (1 - gamma) a_n + h gamma a_{n+1}.
inline void update(State& state, double h, double beta, double gamma, Vec a_n, Vec a_next) {
  INERTIA_PETSC(VecAXPBYPCZ(state.u, h * h * (0.5 - beta), h * h * beta, 1.0, a_n, a_next));
  INERTIA_PETSC(VecAXPY(state.u, h, state.v));
  INERTIA_PETSC(VecAXPBYPCZ(state.v, h * (1 - gamma), h * gamma, 1.0, a_n, a_next));
}

}  // namespace inertia::newmark_detail
