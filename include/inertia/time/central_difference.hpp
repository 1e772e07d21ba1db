#pragma once
/// \file central_difference.hpp
/// Central difference, a.k.a. leap-frog / Verlet (SOFA CentralDifferenceSolver). The scheme's
/// velocity is the half-step velocity v_{n-1/2}:
///   a_n       = M^{-1} (f(t_n, x_n, v_{n-1/2}) - alpha_K K(x_n) v_{n-1/2}),
///   v_{n+1/2} = c_v v_{n-1/2} + c_a a_n,
///   x_{n+1}   = x_n + h v_{n+1/2},
/// with c_v = (1/h - alpha_M/2) / (1/h + alpha_M/2), c_a = 1 / (1/h + alpha_M/2): the exact
/// central difference of the mass-proportional damping (v_{n+1/2} - v_{n-1/2}) / h =
/// a_n - alpha_M (v_{n-1/2} + v_{n+1/2}) / 2; c_v = 1, c_a = h without it. The alpha_K part is
/// explicit (SOFA has none). a_n is computed as M^{-1} (f - C v_{n-1/2}) + alpha_M v_{n-1/2}: the
/// same on the free DOFs, and with a consistent mass it keeps the alpha_M M_fc coupling to
/// prescribed velocities. Start (option half_step_start):
///   true  (default): v_{-1/2} = v_0 - (h/2) a_0, a_0 = M^{-1} (f(t_0, x_0, v_0) - C v_0): second
///                    order;
///   false (SOFA):    v_{-1/2} = v_0: positions first order.
/// Stable for omega h <= 2 (undamped). Second order, except with alpha_K: the explicit alpha_K
/// term takes the lagging v_{n-1/2}, which makes the scheme first order (tests/unit/
/// time_schemes.cpp measures both).
///
/// State.v is the whole-step velocity v_{n+1} = (v_{n+1/2} + v_{n+3/2}) / 2, and acceleration()
/// the whole-step acceleration (v_{n+3/2} - v_{n+1/2}) / h = a_{n+1} - alpha_M v_{n+1}: a step
/// therefore ends by evaluating a_{n+1}, which the next step uses (still one force evaluation and
/// one mass solve per step). The half-step velocity v_{n+1/2} is integrator state
/// (internal_state() "half_step_velocity"); the half-step start is taken when the first step
/// starts from State.step == 0, while a restart (State.step > 0) continues from the restored
/// half-step velocity. Velocity changes made to State.v between steps do not reach the scheme.
/// Constrained DOFs follow their prescribed motion (v_{n+1/2} takes g'(t_{n+1/2})).

#include "inertia/time/scheme.hpp"

namespace inertia {

struct CentralDifferenceParams {
  bool half_step_start = true;  ///< false: SOFA's start v_{-1/2} = v_0 (first order)
};

/// Options (time.central_difference): half_step_start (default true).
Scheme configure_central_difference(const OptionMap& options);

}  // namespace inertia
