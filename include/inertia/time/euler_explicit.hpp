#pragma once
/// \file euler_explicit.hpp
/// Forward Euler (SOFA EulerExplicitSolver with symplectic = false; spec/integrators.md item 1):
///   a_n     = M^{-1} (f(t_n, x_n, v_n) - C v_n),   C = alpha_M M + alpha_K K(x_n),
///   x_{n+1} = x_n + h v_n,
///   v_{n+1} = v_n + h a_n.
/// First order. Its amplification factor on an undamped mode is |1 + i omega h| > 1: every
/// undamped oscillation grows, whatever the step. It is here because the seeds teach it.
/// acceleration() is the last a_n (the start of the last step). Constrained DOFs follow their
/// prescribed motion g(t).

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_euler_explicit(const IntegratorParams& params);

}  // namespace inertia
