#pragma once
/// \file static.hpp
/// Static equilibrium (SOFA StaticSolver + NewtonRaphsonSolver): each step is a load step
/// t_{n+1} where f_int(u) = f_ext(t_{n+1}) is solved with SNES to convergence (one linear solve
/// for linear systems; SOFA's default of a single Newton iteration is not copied); v = a = 0.
/// Time is a load factor: loads and prescribed displacements without an amplitude ramp from zero
/// at t = 0 to their full value at the end time (as *STATIC does in CalculiX and Abaqus).
/// Damping has no meaning and is refused. No options. With plastic solids and prescribed motion
/// each load step starts from a predictor: one linear solve with the tangent at the last state
/// (K_t du = f_ext(t_{n+1}) - f_int(u_n), du the prescribed increment on the constrained DOFs),
/// so that Newton does not start with the whole increment in the cells next to the support.

#include "inertia/time/scheme.hpp"

namespace inertia {

Scheme configure_static(const OptionMap& options);

}  // namespace inertia
