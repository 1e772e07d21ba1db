#pragma once
/// \file newmark.hpp
/// Newmark's method (SOFA NewmarkImplicitSolver), unknown a_{n+1}:
///   A = (1 + h gamma alpha_M) M + (h^2 beta + h gamma alpha_K) K,
///   b = f(t_{n+1}, x_n, v_n) - alpha_M M v_n - (alpha_K + h) K v_n
///       - h (1 - gamma) alpha_M M a_n - (h (1 - gamma) alpha_K + h^2 (1/2 - beta)) K a_n,
///   v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1},
///   x_{n+1} = x_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1},
/// i.e. M a_{n+1} + C v_{n+1} + K x_{n+1} = f_ext(t_{n+1}) for linear materials, with
/// a_0 = M^{-1} (f(x_0, v_0, t_0) - C v_0). Constrained DOFs: the balance at t_{n+1} sees them at
/// their prescribed g(t_{n+1}), g'(t_{n+1}), g''(t_{n+1}) (the predictors' constrained entries are
/// chosen so: src/time/newmark_family.hpp), and the step ends on that path.
/// Deviations from SOFA, all deliberate: the load is taken at t_{n+1} (SOFA lags it to t_n),
/// a_0 uses the real mass matrix and the damping, and dashpot damping is not counted twice.
/// Nonlinear systems: the same residual solved with Newton (SNES).
///
/// Options (time.newmark): beta in (0, 1/2] (default 1/4), gamma in (0, 1] (default 1/2).

#include "inertia/core/options.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {

struct NewmarkParams {
  double beta = 0.25;
  double gamma = 0.5;
};

Scheme configure_newmark(const OptionMap& options);

}  // namespace inertia
