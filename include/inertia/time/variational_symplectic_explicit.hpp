#pragma once
/// \file variational_symplectic_explicit.hpp
/// The explicit variational symplectic integrator (SOFA VariationalSymplecticSolver with
/// explicitIntegration; spec/integrators.md item 7; registered as `variational_symplectic` with
/// `explicit: true`). It advances the momentum p (p_0 = M v_0):
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

#include <memory>

#include "inertia/time/integrator.hpp"

namespace inertia {

std::unique_ptr<Integrator> make_variational_symplectic_explicit(const IntegratorParams& params);

}  // namespace inertia
