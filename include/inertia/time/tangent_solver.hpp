#pragma once
/// \file tangent_solver.hpp
/// The linear solves of Newton's tangents (newton.hpp, "Linear solves"): chosen at the first
/// tangent as for linear steps (system/direct_solver.hpp: choose_solver, one tangent per Newton
/// iteration, ~4 per step). Either a MUMPS LDL^T factorisation used as GMRES's preconditioner,
/// factored at each solve's first iteration and kept over its further iterations while GMRES
/// needs at most max_lagged_iterations with it, or CG (GMRES with friction) + GAMG with a fresh
/// preconditioner object per solve. The choice goes into the system's solver notes.

#include "inertia/system/dynamic_system.hpp"

namespace inertia {

class TangentSolver {
 public:
  explicit TangentSolver(DynamicSystem& system) : system_(system) {}

  /// Collective. Called with each new tangent J of `snes`: the choice at the first, then
  /// whether the factorisation is kept (direct path).
  void tangent(SNES snes, Mat J);
  /// Collective. A new preconditioner object for the next solve (iterative tangents only): a
  /// step's iterations depend on that step's data alone, so a restart repeats them exactly.
  /// `after_error`: for the direct path too, after a PETSc error inside the solve (MUMPS on a
  /// singular tangent): the old object was left inside its solve (PCPreSolve without its
  /// PCPostSolve), and the third solve after two such errors stopped with "Cannot embed
  /// PCPreSolve() more than twice" instead of the solver's own message.
  void fresh_preconditioner(SNES snes, bool after_error = false) const;

 private:
  /// At the first tangent: MUMPS LDL^T per tangent or CG + GAMG (choose_solver), logged.
  void choose(SNES snes, Mat J);
  /// Direct path: whether the next tangent is factored or the last factorisation kept.
  void lag_factorisation(SNES snes) const;
  /// Krylov iterations with a kept factorisation beyond which the next tangent is refactored.
  static constexpr PetscInt max_lagged_iterations = 6;

  DynamicSystem& system_;
  bool chosen_ = false, direct_ = false;
};

}  // namespace inertia
