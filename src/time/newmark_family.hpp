#pragma once
/// \file newmark_family.hpp
/// Private to src/time: what Newmark and the alpha schemes (hht, generalized_alpha) share, written
/// once: the start a_0 = M^{-1} (f(t_0, u_0, v_0) - C v_0), the Newmark update of u and v from
/// a_n and a_{n+1}, and the linear step (Newmark's is the alpha schemes' at alpha_m = alpha_f = 0).

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

/// Weights of the alpha schemes' balance (Chung & Hulbert's convention): alpha_m on the inertia,
/// alpha_f on the forces; both 0 for Newmark.
struct AlphaWeights {
  double alpha_m = 0, alpha_f = 0, beta = 0.25, gamma = 0.5;
};

/// Collective. One step of a linear system (f = f_ext - K u, C = alpha_M M + alpha_K K): a_{n+1}
/// from
///   A a_{n+1} = (1 - alpha_f) f(t_{n+1}, u_n) + alpha_f f(t_n, u_n)
///     - M (alpha_M v_n + (alpha_m + (1 - alpha_f) h (1 - gamma) alpha_M) a_n)
///     - K ((alpha_K + (1 - alpha_f) h) v_n
///          + (1 - alpha_f) (h (1 - gamma) alpha_K + h^2 (1/2 - beta)) a_n),
///   A = (1 - alpha_m + (1 - alpha_f) h gamma alpha_M) M + (1 - alpha_f) (h^2 beta + h gamma
///   alpha_K) K,
/// the constrained DOFs of a_{n+1} prescribed, then u and v updated (state.time and step are the
/// caller's). a holds a_n on entry and a_{n+1} on return; rhs, w, mw are work vectors.
inline SolveReport linear_step(MechanicalSystem& system, State& state, double h,
                               const AlphaWeights& c, Vec a, Vec rhs, Vec w, Vec mw) {
  const auto [alpha_M, alpha_K] = system.rayleigh();
  const double am = c.alpha_m, af = c.alpha_f, beta = c.beta, gamma = c.gamma;
  const double wm = 1 - am, wf = 1 - af;
  const double t0 = state.time, t1 = t0 + h;
  system.force(t1, state.u, state.v, rhs);
  if (af != 0) {
    system.force(t0, state.u, state.v, w);  // K u_n is remembered from the call above
    INERTIA_PETSC(VecAXPBY(rhs, af, wf, w));
  }
  if (alpha_M != 0 || am != 0) {
    INERTIA_PETSC(VecAXPBYPCZ(w, alpha_M, am + wf * h * (1 - gamma) * alpha_M, 0.0, state.v, a));
    system.mult_mass(w, mw);
    INERTIA_PETSC(VecAXPY(rhs, -1.0, mw));
  }
  INERTIA_PETSC(VecAXPBYPCZ(w, alpha_K + wf * h,
                            wf * h * (1 - gamma) * alpha_K + wf * h * h * (0.5 - beta), 0.0,
                            state.v, a));
  system.mult_stiffness(w, mw);
  INERTIA_PETSC(VecAXPY(rhs, -1.0, mw));

  // Solve for a_{n+1} (initial guess a_n; constrained DOFs prescribed).
  INERTIA_PETSC(VecCopy(a, w));  // keep a_n
  system.apply_constraints(t1, nullptr, nullptr, a);
  const SolveReport r = system.solve(wm + wf * h * gamma * alpha_M,
                                     wf * h * h * beta + wf * h * gamma * alpha_K, rhs, a);
  update(state, h, beta, gamma, w, a);  // w holds a_n
  return r;
}

}  // namespace inertia::newmark_detail
