#pragma once
/// \file rk2.hpp
/// Explicit midpoint Runge-Kutta (SOFA RungeKutta2Solver; spec/integrators.md item 4; not Heun),
/// on x' = v, v' = a(t, x, v) = M^{-1} (f(t, x, v) - C(x) v):
///   a_1     = a(t_n, x_n, v_n),
///   x_m     = x_n + (h/2) v_n,   v_m = v_n + (h/2) a_1,
///   a_2     = a(t_n + h/2, x_m, v_m),
///   x_{n+1} = x_n + h v_m,       v_{n+1} = v_n + h a_2.
/// Second order. Its amplification factor on an undamped mode, |1 + i omega h - (omega h)^2/2|
/// = sqrt(1 + (omega h)^4 / 4), exceeds 1: undamped oscillations grow (slowly) for any step.
/// The stage state takes the prescribed motion g(t_n + h/2) on the constrained DOFs.
/// acceleration() is the last stage's a_2.

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_rk2(const IntegratorParams& params);

}  // namespace inertia
