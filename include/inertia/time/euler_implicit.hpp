#pragma once
/// \file euler_implicit.hpp
/// Implicit Euler (SOFA EulerImplicitSolver, Baraff & Witkin 1998), tau = 1, or 1/2 with
/// `trapezoidal: true`:
///   A = (1 + tau h alpha_M) M + tau h (tau h + alpha_K) K + tau h B,
///   b = h [ f(x_n, v_n) - alpha_M M v_n - (tau h + alpha_K) K v_n ],   A dv = b,
///   v+ = v_n + dv,  x+ = x_n + h v+ (tau = 1) or x_n + h/2 (v_n + v+) (trapezoidal; SOFA keeps
///   x_n + h v+, which is inconsistent), K and B the tangents at x_n (one linearisation per step,
///   as in SOFA), f(x_n, v_n) with the loads at t_n as in SOFA.
/// first_order (SOFA firstOrder): (M + tau h K) v+ = f(x_n, v_n), x+ = x_n + h v+; Rayleigh
///   damping has no meaning there (no inertia to damp) and is refused.
/// newton: backward Euler solved to convergence with SNES,
///   G(v+) = M (v+ - v_n) - h [f(t_{n+1}, x_n + h v+, v+) - C v+] = 0,
///   Jacobian (1 + h alpha_M) M + h (h + alpha_K) K + h B.
/// First order (second with trapezoidal under constant loads: with the loads at t_n, a
/// time-varying load makes trapezoidal first order too), unconditionally stable; an undamped
/// mode's energy decays by 1 / (1 + (omega h)^2) per step.
/// Constrained DOFs: the unknown velocity's constrained entries are those that put x+ on the
/// prescribed g(t_{n+1}) ((g(t_{n+1}) - x_n) / h, or its trapezoidal counterpart); after the step
/// they take the prescribed velocity g'(t_{n+1}).
///
/// Options (time.euler_implicit): trapezoidal, first_order, newton (default false each; newton
/// combines with neither of the others, and trapezoidal not with first_order).

#include "inertia/time/scheme.hpp"

namespace inertia {

struct EulerImplicitParams {
  bool trapezoidal = false;
  bool first_order = false;
  bool newton = false;
};

Scheme configure_euler_implicit(const OptionMap& options);

}  // namespace inertia
