#pragma once
/// \file static.hpp
/// Static equilibrium (SOFA StaticSolver + NewtonRaphsonSolver): each step is a load step
/// t_{n+1} where f_int(u) = f_ext(t_{n+1}) is solved with SNES to convergence (one linear solve
/// for linear systems; SOFA's default of a single Newton iteration is not copied); v = a = 0.
/// Time is a load factor: loads and prescribed displacements without an amplitude ramp from zero
/// at t = 0 to their full value at the end time (as *STATIC does in CalculiX and Abaqus).
/// Damping has no meaning and is refused. No options.

#include "inertia/time/scheme.hpp"

namespace inertia {

Scheme configure_static(const OptionMap& options);

}  // namespace inertia
