#pragma once
/// \file newmark_family.hpp
/// Private to src/time: what Newmark and the alpha schemes (hht, generalized_alpha) share, written
/// once: the start a_0 = M^{-1} (f(t_0, u_0, v_0) - C v_0), the predictors, and the linear step
/// (Newmark's is the alpha schemes' at alpha_m = alpha_f = 0).
///
/// Prescribed motion enters each step at its exact value: the predictors' constrained entries are
/// chosen (DynamicSystem::prescribe_increments) so that Newmark's update with the prescribed
/// acceleration g''(t_{n+1}) ends on g(t_{n+1}) and g'(t_{n+1}); the balance at t_{n+1} (or the
/// alpha-weighted one between t_n and t_{n+1}) therefore sees the supports where they are, with
/// their prescribed velocity and acceleration (the M_fc a_c and C_fc v_c couplings included),
/// whatever the shape of g between the steps.

#include <memory>
#include <string_view>

#include "inertia/time/alpha_schemes.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia::newmark_detail {

/// The alpha schemes' integrator (src/time/alpha_schemes.cpp) with coefficients `c`, named
/// `name` (which must outlive it: a literal): hht, generalized_alpha, and newmark at
/// alpha_m = alpha_f = 0.
std::unique_ptr<Integrator> make_alpha_scheme(std::string_view name, const AlphaCoefficients& c);

/// Collective. a = M^{-1} (f(t, u, v) - C v) at the state, the constrained DOFs of a prescribed;
/// rhs and w are work vectors. Returns the solve's report.
inline SolveReport initial_acceleration(DynamicSystem& system, const State& state, Vec a, Vec rhs,
                                        Vec w) {
  system.update_tangent(state.u);
  system.force(state.time, state.u, state.v, rhs);
  system.mult_damping(state.v, w);
  INERTIA_PETSC(VecAXPY(rhs, -1.0, w));
  system.apply_constraints(state.time, nullptr, nullptr, a);
  return system.solve(1.0, 0.0, rhs, a);
}

/// Collective. The predictors' increments from the state at t_n (a_n in `a`):
///   du = h v_n + h^2 (1/2 - beta) a_n,  dv = h (1 - gamma) a_n
/// on the free DOFs, and on the constrained ones the increments that the update
///   u_{n+1} = u_n + du + h^2 beta a_{n+1},  v_{n+1} = v_n + dv + h gamma a_{n+1}
/// with the prescribed a_{n+1} = g''(t_{n+1}) turns into g(t_{n+1}) and g'(t_{n+1}).
inline void predictor_increments(const DynamicSystem& system, const State& state, double h,
                                 const NewmarkWeights& c, Vec a, Vec du, Vec dv) {
  INERTIA_PETSC(VecAXPBYPCZ(du, h, h * h * (0.5 - c.beta), 0.0, state.v, a));
  INERTIA_PETSC(VecAXPBY(dv, h * (1 - c.gamma), 0.0, a));
  system.prescribe_increments(state.time, state.after(h), h, c.beta, c.gamma, du, dv);
}

/// Collective. One step of a linear system (f = f_ext - K u, C = alpha_M M + alpha_K K): with the
/// predictors u* = u_n + du, v* = v_n + dv (predictor_increments) and the balance's states
///   x_u = (1 - alpha_f) u* + alpha_f u_n = u_n + (1 - alpha_f) du,
///   x_v = (1 - alpha_f) v* + alpha_f v_n = v_n + (1 - alpha_f) dv,
/// a_{n+1} solves
///   A a_{n+1} = (1 - alpha_f) f_ext(t_{n+1}) + alpha_f f_ext(t_n)
///     - M (alpha_m a_n + alpha_M x_v) - K (x_u + alpha_K x_v),
///   A = m M + k K,  m = 1 - alpha_m + (1 - alpha_f) h gamma alpha_M,
///                   k = (1 - alpha_f) (h^2 beta + h gamma alpha_K),
/// the constrained DOFs of a_{n+1} prescribed, their coupling into the free rows carried by the
/// same two products: M (alpha_m a_n + alpha_M x_v + m a_c) and K (x_u + alpha_K x_v + k a_c)
/// (Coupling::in_rhs); then u_{n+1} = u* + h^2 beta a_{n+1}, v_{n+1} = v* + h gamma a_{n+1}, and
/// the constrained entries set to the prescribed motion (which they equal up to round-off).
/// Products per step: one with K, and one with M where alpha_m, alpha_M or a moving support
/// needs it (pointwise for a lumped M), moving supports included. state.time and step are the
/// caller's. `a` holds a_n on entry and a_{n+1} on return; du, dv, x, rhs, w, mw are work vectors.
inline SolveReport linear_step(DynamicSystem& system, State& state, double h,
                               const NewmarkWeights& c, Vec a, Vec du, Vec dv, Vec x, Vec rhs,
                               Vec w, Vec mw) {
  const auto [alpha_M, alpha_K] = system.rayleigh();
  const double am = c.alpha_m, af = c.alpha_f, wm = 1 - am, wf = 1 - af;
  const double t0 = state.time, t1 = state.after(h);
  const double m = wm + wf * h * c.gamma * alpha_M;
  const double k = wf * (h * h * c.beta + h * c.gamma * alpha_K);
  const bool moving = system.has_prescribed_motion();
  const bool mass_coupling = moving && !system.lumped_mass();  // a lumped M couples no DOFs
  predictor_increments(system, state, h, c, a, du, dv);
  system.external_force(t1, rhs);
  if (af != 0) {
    system.external_force(t0, w);
    INERTIA_PETSC(VecAXPBY(rhs, af, wf, w));
  }
  if (alpha_M != 0 || alpha_K != 0) INERTIA_PETSC(VecWAXPY(x, wf, dv, state.v));  // x_v
  if (alpha_M != 0 || am != 0 || mass_coupling) {
    // - M (alpha_m a_n + alpha_M x_v + m a_c)
    if (alpha_M != 0)
      INERTIA_PETSC(VecAXPBYPCZ(w, am, alpha_M, 0.0, a, x));
    else
      INERTIA_PETSC(VecAXPBY(w, am, 0.0, a));
    if (mass_coupling) {
      system.apply_constraints(t1, nullptr, nullptr, a);  // a_c = g''(t_{n+1})
      system.add_constrained(m, a, w);
    }
    system.mult_mass(w, mw);
    INERTIA_PETSC(VecAXPY(rhs, -1.0, mw));
  }
  // Solve for a_{n+1} (initial guess a_n; constrained DOFs prescribed).
  system.apply_constraints(t1, nullptr, nullptr, a);
  // - K (x_u + alpha_K x_v + k a_c), x_u = u_n + (1 - alpha_f) du
  INERTIA_PETSC(VecWAXPY(w, wf, du, state.u));
  if (alpha_K != 0) INERTIA_PETSC(VecAXPY(w, alpha_K, x));
  if (moving) system.add_constrained(k, a, w);
  system.mult_stiffness(w, mw);
  INERTIA_PETSC(VecAXPY(rhs, -1.0, mw));

  const SolveReport r = system.solve(m, k, rhs, a, 0, DynamicSystem::Coupling::in_rhs);
  INERTIA_PETSC(VecAXPBYPCZ(state.u, 1.0, h * h * c.beta, 1.0, du, a));
  INERTIA_PETSC(VecAXPBYPCZ(state.v, 1.0, h * c.gamma, 1.0, dv, a));
  system.apply_constraints(t1, state.u, state.v, nullptr);
  return r;
}

}  // namespace inertia::newmark_detail
