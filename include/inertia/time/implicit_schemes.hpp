#pragma once
/// \file implicit_schemes.hpp
/// Implicit schemes besides Newmark (spec/integrators.md items 8, 10, 11).
///
/// euler_implicit (SOFA EulerImplicitSolver, Baraff & Witkin 1998), tau = 1 or 1/2 (trapezoidal):
///   A = (1 + tau h alpha_M) M + tau h (tau h + alpha_K) K + tau h B,
///   b = h [ f(x_n, v_n) - alpha_M M v_n - (tau h + alpha_K) K v_n ],   A dv = b,
///   v+ = v_n + dv,  x+ = x_n + h v+ (tau = 1) or x_n + h/2 (v_n + v+) (trapezoidal; SOFA keeps
///   x_n + h v+, which is inconsistent), K and B the tangents at x_n (one linearisation per step),
///   f(x_n, v_n) with the loads at t_n as in SOFA.
///   first_order (SOFA firstOrder): (M + tau h K) v+ = f(x_n, v_n), x+ = x_n + h v+.
///   newton: backward Euler solved to convergence with SNES,
///   G(v+) = M (v+ - v_n) - h [f(t_{n+1}, x_n + h v+, v+) - C v+] = 0,
///   Jacobian (1 + h alpha_M) M + h (h + alpha_K) K + h B.
/// variational_symplectic, implicit (Kharevych et al. 2006, alpha = 1/2), unknown
///   r = q_{n+1/2} - q_n:  G(r) = (4/h^2 + 4 alpha_M/h) M r + (4 alpha_K/h) K r
///                                 - f(t_{n+1/2}, q_n + r, 2 r / h) - (2/h) p_n = 0,
///   Jacobian (4/h^2 + 4 alpha_M/h) M + (1 + 4 alpha_K/h) K + (2/h) B;
///   v+ = 2 r / h, x+ = q_n + h v+, p+ = M v+ + (h/2) f(t_{n+1/2}, q_n + r, v+); p_0 = M v_0.
///   Newton stops on SNES's residual test (newton_tolerance is its relative tolerance) or after
///   max_newton_steps iterations; a linear system takes one linear solve.
/// static (SOFA StaticSolver + NewtonRaphsonSolver): at each load step f_int(x) = f_ext(t),
///   solved with SNES to convergence (one linear solve for linear systems); v = a = 0.

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_euler_implicit(const IntegratorParams& params);
std::unique_ptr<Integrator> make_variational_symplectic_implicit(const IntegratorParams& params);
std::unique_ptr<Integrator> make_static(const IntegratorParams& params);

}  // namespace inertia
