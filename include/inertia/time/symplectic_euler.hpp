#pragma once
/// \file symplectic_euler.hpp
/// Symplectic (semi-implicit) Euler (SOFA EulerExplicitSolver's default, symplectic = true):
///   a_n     = M^{-1} (f(t_n, x_n, v_n) - C v_n),   C = alpha_M M + alpha_K K(x_n),
///   v_{n+1} = v_n + h a_n,
///   x_{n+1} = x_n + h v_{n+1}.
/// First order (at whole periods of an undamped oscillation the first-order error vanishes, so
/// sample elsewhere); stable for omega h <= 2, and its energy stays bounded (it exactly conserves
/// a modified quadratic energy of a linear undamped system). acceleration() is the last a_n.
/// Constrained DOFs follow their prescribed motion g(t).

#include "inertia/time/scheme.hpp"

namespace inertia {

/// No options.
Scheme configure_symplectic_euler(const OptionMap& options);

}  // namespace inertia
