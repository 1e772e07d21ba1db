#pragma once
/// \file heun.hpp
/// Heun's method, the trapezoidal-predictor variant of RK2 (seed 003's table; not in SOFA;
/// spec/integrators.md item 5), on x' = v, v' = a(t, x, v) = M^{-1} (f(t, x, v) - C(x) v):
///   a_1     = a(t_n, x_n, v_n),
///   x_p     = x_n + h v_n,              v_p = v_n + h a_1,
///   a_2     = a(t_n + h, x_p, v_p),
///   x_{n+1} = x_n + (h/2) (v_n + v_p),  v_{n+1} = v_n + (h/2) (a_1 + a_2).
/// Second order, two stages, same stability polynomial as rk2 (so the same slow growth of
/// undamped oscillations). The predictor takes the prescribed motion g(t_n + h) on the
/// constrained DOFs. acceleration() is the last stage's a_2.

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_heun(const IntegratorParams& params);

}  // namespace inertia
