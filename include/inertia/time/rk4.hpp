#pragma once
/// \file rk4.hpp
/// Classical fourth-order Runge-Kutta (SOFA RungeKutta4Solver; spec/integrators.md item 6) on
/// x' = v, v' = a(t, x, v) = M^{-1} (f(t, x, v) - C(x) v):
///   a_1 = a(t_n, x_n, v_n),
///   x_2 = x_n + (h/2) v_n,  v_2 = v_n + (h/2) a_1,  a_2 = a(t_n + h/2, x_2, v_2),
///   x_3 = x_n + (h/2) v_2,  v_3 = v_n + (h/2) a_2,  a_3 = a(t_n + h/2, x_3, v_3),
///   x_4 = x_n + h v_3,      v_4 = v_n + h a_3,      a_4 = a(t_n + h,   x_4, v_4),
///   x_{n+1} = x_n + (h/6) (v_n + 2 v_2 + 2 v_3 + v_4),
///   v_{n+1} = v_n + (h/6) (a_1 + 2 a_2 + 2 a_3 + a_4).
/// Fourth order; stable on undamped modes for omega h <= 2 sqrt(2). Each stage state takes the
/// prescribed motion at its stage time on the constrained DOFs. acceleration() is a_4.

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_rk4(const IntegratorParams& params);

}  // namespace inertia
