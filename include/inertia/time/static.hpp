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

#include <memory>

#include "inertia/parallel/petsc.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {

class NewtonSolver;

Scheme configure_static(const OptionMap& options);

/// What solve_equilibrium() keeps between calls (a static run's load steps): the load and a
/// zero velocity, and Newton, each made on first use.
struct EquilibriumWork {
  petsc::Vector load, zero;
  std::unique_ptr<NewtonSolver> newton;
  ~EquilibriumWork();
};

/// Collective. The static equilibrium f_int(u) = f_ext(t) at time t, from u (its constrained
/// entries set to the prescribed motion at t here): one linear solve for a linear system, else
/// Newton from u. What a static load step solves, and the state a transient starts from with
/// `initial_conditions: {static_equilibrium: true}`. The history variables are not committed
/// (the caller does, DynamicSystem::commit_step).
StepStats solve_equilibrium(DynamicSystem& system, double t, Vec u, EquilibriumWork& work);

}  // namespace inertia
