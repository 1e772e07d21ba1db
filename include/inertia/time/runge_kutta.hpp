#pragma once
/// \file runge_kutta.hpp
/// Explicit Runge-Kutta schemes on x' = v, v' = a(t, x, v) = M^{-1} (f(t, x, v) - C(x) v),
/// C = alpha_M M + alpha_K K(x), all driven by one stepping loop over their Butcher tableau
/// (a_ij, b_i, c_i; as MFEM's ExplicitRKSolver):
///   X_1 = x_n, V_1 = v_n;
///   X_i = x_n + h sum_{j<i} a_ij V_j,  V_i = v_n + h sum_{j<i} a_ij A_j   (i > 1),
///   A_i = a(t_n + c_i h, X_i, V_i),
///   x_{n+1} = x_n + h sum_i b_i V_i,   v_{n+1} = v_n + h sum_i b_i A_i.
/// Each stage state takes the prescribed motion at its stage time on the constrained DOFs, and
/// acceleration() is the last stage's A_s. The schemes:
///
/// euler_explicit (SOFA EulerExplicitSolver, symplectic = false): one stage, b = 1:
///   x_{n+1} = x_n + h v_n, v_{n+1} = v_n + h a(t_n, x_n, v_n). First order; its amplification
///   factor on an undamped mode is |1 + i omega h| > 1: every undamped oscillation grows,
///   whatever the step. It is here because the seeds teach it (the log warns).
/// rk2 (SOFA RungeKutta2Solver: explicit midpoint, not Heun): a_21 = 1/2, b = (0, 1),
///   c = (0, 1/2). Second order; amplification sqrt(1 + (omega h)^4 / 4) > 1: undamped
///   oscillations grow slowly for any step.
/// heun (the trapezoidal-predictor RK2 of seed 003's table; not in SOFA): a_21 = 1, b = (1/2,
///   1/2), c = (0, 1). Second order, the same stability polynomial as rk2.
/// rk4 (SOFA RungeKutta4Solver, classical): a_21 = a_32 = 1/2, a_43 = 1, b = (1, 2, 2, 1)/6,
///   c = (0, 1/2, 1/2, 1). Fourth order; stable on undamped modes for omega h <= 2 sqrt 2.
///
/// None has options.

#include "inertia/time/scheme.hpp"

namespace inertia {

Scheme configure_euler_explicit(const OptionMap& options);
Scheme configure_rk2(const OptionMap& options);
Scheme configure_heun(const OptionMap& options);
Scheme configure_rk4(const OptionMap& options);

}  // namespace inertia
