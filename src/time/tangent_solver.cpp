#include "inertia/time/tangent_solver.hpp"

#include <algorithm>

#include "inertia/core/text.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

void TangentSolver::tangent(SNES snes, Mat J) {
  if (!chosen_) choose(snes, J);
  if (direct_) lag_factorisation(snes);
}

void TangentSolver::choose(SNES snes, Mat J) {
  chosen_ = true;
  // A tangent per Newton iteration, about four iterations per step (one per load step for the
  // static solver); each tangent costs a numeric factorisation or a GAMG set-up.
  const double solves = 4 * std::max(1.0, system_.expected_solves());
  const SolverChoice choice = choose_solver(J, "", system_.linear_solver(), solves,
                                            amg_products_per_solve, "time.linear_solver", solves);
  system_.add_solver_note(
      cat("Newton's tangents (", system_.num_global_dofs(), " DOFs): ", choice.why));
  direct_ = choice.direct;
  KSP ksp;
  INERTIA_PETSC(SNESGetKSP(snes, &ksp));
  if (!direct_) {
    // Friction's tangent is not symmetric (the slip's dependence on the normal force): GMRES,
    // not CG (which took ~20,000 iterations a step on a sliding block), unless -ksp_type says.
    PetscBool given = PETSC_FALSE;
    INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-ksp_type", &given));
    if (system_.has_friction() && !given) {
      INERTIA_PETSC(KSPSetType(ksp, KSPGMRES));
      system_.add_solver_note(
          "Newton's tangents: GMRES instead of CG (friction's tangent is not symmetric)");
    }
    return;
  }
  // LDL^T (MUMPS, symmetric indefinite: a tangent need not be positive definite) as the
  // preconditioner of GMRES with the exact tangent, factored at the first Newton iteration of
  // each step and kept while it stays a good one (lag_factorisation).
  use_mumps_cholesky(ksp);
  // GMRES, not CG: a kept factorisation of an earlier tangent need not be positive definite
  // with the current one (CG failed on examples/large_deflection and halved 72 steps).
  INERTIA_PETSC(KSPSetType(ksp, KSPGMRES));
  INERTIA_PETSC(KSPSetFromOptions(ksp));
}

void TangentSolver::lag_factorisation(SNES snes) const {
  // Called with each new tangent. SNES rebuilds the preconditioner at its first tangent of each
  // solve (the lag does not persist across solves: a step's work depends on that step alone, so
  // a restart repeats it exactly); after that the factorisation is kept (lag -1) until a solve
  // needs more Krylov iterations than a refactorisation is worth (a factorisation costs about
  // ten solves with it on the examples), then rebuilt once (lag -2).
  KSP ksp;
  INERTIA_PETSC(SNESGetKSP(snes, &ksp));
  PetscInt iteration = 0, krylov = 0;
  INERTIA_PETSC(SNESGetIterationNumber(snes, &iteration));
  INERTIA_PETSC(KSPGetIterationNumber(ksp, &krylov));
  if (iteration > 0 && krylov > max_lagged_iterations) {
    INERTIA_PETSC(SNESSetLagPreconditioner(snes, -2));
  } else {
    INERTIA_PETSC(SNESSetLagPreconditioner(snes, iteration == 0 ? -2 : -1));
  }
}

void TangentSolver::fresh_preconditioner(SNES snes, bool after_error) const {
  // A fresh preconditioner object for every solve (GAMG then reuses its interpolation only
  // within this solve, and its random eigenvalue estimates start from the same seed): a step's
  // iterations depend on that step's data alone, so a restarted run repeats them exactly, and
  // the coarse spaces follow the configuration as it moves.
  if (direct_ && !after_error) return;
  KSP ksp;
  PC old_pc, pc;
  PCType type;
  const char* prefix = nullptr;
  INERTIA_PETSC(SNESGetKSP(snes, &ksp));
  INERTIA_PETSC(KSPGetPC(ksp, &old_pc));
  INERTIA_PETSC(PCGetType(old_pc, &type));
  INERTIA_PETSC(KSPGetOptionsPrefix(ksp, &prefix));
  INERTIA_PETSC(PCCreate(system_.comm(), &pc));
  INERTIA_PETSC(PCSetOptionsPrefix(pc, prefix));
  if (type) INERTIA_PETSC(PCSetType(pc, type));
  if (direct_) INERTIA_PETSC(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  INERTIA_PETSC(PCSetFromOptions(pc));
  INERTIA_PETSC(KSPSetPC(ksp, pc));
  INERTIA_PETSC(PCDestroy(&pc));  // the KSP holds it
}

}  // namespace inertia
