#pragma once
/// \file variational_symplectic.hpp
/// The variational symplectic integrator (SOFA VariationalSymplecticSolver; Kharevych et al.
/// 2006, alpha = 1/2), implicit by default or explicit with `explicit: true`.
///
/// Implicit, unknown r = q_{n+1/2} - q_n:
///   G(r) = (4/h^2 + 4 alpha_M/h) M r + (4 alpha_K/h) K r - f(t_{n+1/2}, q_n + r, 2 r / h)
///          - (2/h) p_n = 0,
///   Jacobian (4/h^2 + 4 alpha_M/h) M + (1 + 4 alpha_K/h) K + (2/h) B;
///   v+ = 2 r / h, x+ = q_n + h v+, p+ = M v+ + (h/2) f(t_{n+1/2}, q_n + r, v+); p_0 = M v_0.
///   p is integrator state (p+ != M v+) and is checkpointed. Newton stops on SNES's residual test
///   (newton_tolerance is its relative tolerance) or after max_newton_steps iterations (SOFA stops
///   on |r_i - r_{i-1}| / |q_n| <= 0.01 after at most 5); a linear system takes one linear solve.
///   Second order in the position, unconditionally stable; has_hamiltonian(): 1/2 p.M^{-1} p +
///   potential, constant for conservative systems. With Rayleigh damping (either term) the
///   position is first order, and State.v is the step's mean velocity (q_{n+1} - q_n) / h, a
///   first-order value of v(t_{n+1}) (tests/unit/time_schemes.cpp measures them).
///
/// Explicit (SOFA's explicitIntegration) advances the momentum p (p_0 = M v_0):
///   v_{n+1} = M^{-1} (p_n + h f(t_n, x_n, v_n) - h alpha_K K(x_n) v_n) - h alpha_M v_n,
///   x_{n+1} = x_n + h v_{n+1},
///   p_{n+1} = M v_{n+1}.
/// The alpha_K term is ours (SOFA ignores it). It is computed as v_{n+1} = M^{-1} (p_n + h (f - C
/// v_n)), the same on the free DOFs (a consistent mass also keeps the alpha_M M_fc coupling to
/// prescribed velocities, which the pointwise alpha_M term drops). Since p_n = M v_n, this is
/// v_{n+1} = v_n + h M^{-1} (f - C v_n): symplectic Euler in momentum form, so first order (it
/// looks second order only when a_0 = 0, e.g. a free vibration started from x_0 = 0) and stable
/// for omega h <= 2. Because p = M v holds exactly, p_n is recomputed from State.v at the start of
/// each step (the same one product with M as updating it at the end): the scheme's state is just
/// (x, v), so velocity damping applied by the driver and restarts need nothing more. No
/// acceleration is computed (acceleration() is null).
///
/// Options (time.variational_symplectic): explicit (default false), newton_tolerance (default
/// 1e-10), max_newton_steps (1 to 1000, default 5).

#include "inertia/time/scheme.hpp"

namespace inertia {

struct VariationalSymplecticParams {
  bool explicit_integration = false;
  double newton_tolerance = 1e-10;
  int max_newton_steps = 5;
};

Scheme configure_variational_symplectic(const OptionMap& options);

}  // namespace inertia
