#pragma once
/// \file newmark.hpp
/// Newmark's method (SOFA NewmarkImplicitSolver; spec/integrators.md item 9), unknown a_{n+1}:
///   A = (1 + h gamma alpha_M) M + (h^2 beta + h gamma alpha_K) K,
///   b = f(t_{n+1}, x_n, v_n) - alpha_M M v_n - (alpha_K + h) K v_n
///       - h (1 - gamma) alpha_M M a_n - (h (1 - gamma) alpha_K + h^2 (1/2 - beta)) K a_n,
///   v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1},
///   x_{n+1} = x_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1},
/// i.e. M a_{n+1} + C v_{n+1} + K x_{n+1} = f_ext(t_{n+1}) for linear materials, with
/// a_0 = M^{-1} (f(x_0, v_0, t_0) - C v_0). Constrained DOFs follow their prescribed motion.

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_newmark(const IntegratorParams& params);

}  // namespace inertia
