#include "inertia/time/newton.hpp"

#include <cmath>

#include "inertia/parallel/session.hpp"

namespace inertia {

NewtonSolver::NewtonSolver(MechanicalSystem& system) : system_(system) {
  residual_ = system_.create_vector();
  x_ = system_.create_vector();
  jacobian_ = system_.create_operator();
  INERTIA_PETSC(SNESCreate(system_.comm(), snes_.out()));
  INERTIA_PETSC(SNESSetType(snes_, SNESNEWTONLS));
  INERTIA_PETSC(SNESSetFunction(snes_, residual_, residual_callback, this));
  INERTIA_PETSC(SNESSetJacobian(snes_, jacobian_, jacobian_, jacobian_callback, this));
  // Relative residual 1e-9: tighter stalls at round-off on stiff solids (internal forces are
  // large next to their residual). Inexact Newton: linear solves to 1e-8, so the last iteration
  // still gains eight digits (a nearly linear problem is exact after two iterations).
  INERTIA_PETSC(SNESSetTolerances(snes_, 1e-50, 1e-9, 1e-14, 50, 10000));
  // Critical-point line search: the residuals here are gradients of an (incremental) energy,
  // and the first Newton step of a bending structure often raises ||G|| (membrane strains of the
  // linearised rotation) while lowering the energy, which stalls a backtracking search on ||G||.
  SNESLineSearch line_search;
  INERTIA_PETSC(SNESGetLineSearch(snes_, &line_search));
  INERTIA_PETSC(SNESLineSearchSetType(line_search, SNESLINESEARCHCP));
  KSP ksp;
  INERTIA_PETSC(SNESGetKSP(snes_, &ksp));
  // CG: tangents are symmetric and, away from instabilities, positive definite (2x faster than
  // GMRES here). Where one is indefinite (compressed springs, buckling, a nearly inverted
  // element) CG stops early; SNES then carries on with that partial direction and the line search
  // rather than failing the step (-ksp_type gmres for problems that live there).
  INERTIA_PETSC(KSPSetType(ksp, KSPCG));
  INERTIA_PETSC(SNESSetMaxLinearSolveFailures(snes_, 1000));
  INERTIA_PETSC(KSPSetTolerances(ksp, 1e-8, 1e-50, PETSC_DEFAULT, 10000));
  PC pc;
  INERTIA_PETSC(KSPGetPC(ksp, &pc));
  INERTIA_PETSC(PCSetType(pc, PCGAMG));
  history_.resize(1001);
  INERTIA_PETSC(SNESSetConvergenceHistory(snes_, history_.data(), nullptr,
                                          static_cast<PetscInt>(history_.size()), PETSC_TRUE));
  INERTIA_PETSC(SNESSetFromOptions(snes_));
}

void NewtonSolver::set_tolerances(double relative, int max_iterations) {
  INERTIA_PETSC(SNESSetTolerances(snes_, 1e-50, relative, 1e-14, max_iterations, 10000));
  INERTIA_PETSC(SNESSetFromOptions(snes_));
}

PetscErrorCode NewtonSolver::residual_callback(SNES snes, Vec y, Vec g, void* context) {
  auto* self = static_cast<NewtonSolver*>(context);
  try {
    self->problem_->residual(y, g);
    self->system_.zero_constrained(g);
    PetscReal norm = 0;
    INERTIA_PETSC(VecNorm(g, NORM_2, &norm));
    if (!std::isfinite(norm)) INERTIA_PETSC(SNESSetFunctionDomainError(snes));
  } catch (const SolverError& e) {
    // A configuration the elements cannot take (an inverted element, a collapsed spring; the
    // assembler raises it on every rank): a domain error. The default critical-point search
    // does not back off from it; solve() then retries with a backtracking search, which does,
    // and a step that still fails is halved by the step controller.
    self->domain_error_ = e.what();
    SNESSetFunctionDomainError(snes);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

PetscErrorCode NewtonSolver::jacobian_callback(SNES, Vec y, Mat J, Mat, void* context) {
  auto* self = static_cast<NewtonSolver*>(context);
  try {
    self->problem_->configuration(y, self->x_);
    self->system_.update_tangent(self->x_);
    self->system_.fill_operator(self->problem_->m, self->problem_->k, self->problem_->b, J);
    // AMG's near-null space: the rigid-body modes of the current configuration.
    self->system_.assembler().attach_rigid_body_modes(J, self->x_);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

NewtonReport NewtonSolver::solve(const Problem& problem, Vec y) {
  problem_ = &problem;
  error_ = nullptr;
  domain_error_.clear();
  if (!guess_) guess_ = system_.create_vector();
  INERTIA_PETSC(VecCopy(y, guess_));
  // A fresh preconditioner object for every solve (GAMG then reuses its interpolation only
  // within this solve, and its random eigenvalue estimates start from the same seed): a step's
  // iterations depend on that step's data alone, so a restarted run repeats them exactly, and
  // the coarse spaces follow the configuration as it moves.
  {
    KSP ksp;
    PC old_pc, pc;
    PCType type;
    const char* prefix = nullptr;
    INERTIA_PETSC(SNESGetKSP(snes_, &ksp));
    INERTIA_PETSC(KSPGetPC(ksp, &old_pc));
    INERTIA_PETSC(PCGetType(old_pc, &type));
    INERTIA_PETSC(KSPGetOptionsPrefix(ksp, &prefix));
    INERTIA_PETSC(PCCreate(system_.comm(), &pc));
    INERTIA_PETSC(PCSetOptionsPrefix(pc, prefix));
    if (type) INERTIA_PETSC(PCSetType(pc, type));
    INERTIA_PETSC(PCSetFromOptions(pc));
    INERTIA_PETSC(KSPSetPC(ksp, pc));
    INERTIA_PETSC(PCDestroy(&pc));  // the KSP holds it
  }
  PetscErrorCode code = SNESSolve(snes_, nullptr, y);
  rethrow_collectively(system_.comm(), error_);  // rank-local exceptions fail together
  if (code) throw_petsc_error(code, "SNESSolve", __FILE__, __LINE__);
  NewtonReport report;
  INERTIA_PETSC(SNESGetConvergedReason(snes_, &report.reason));
  if (report.reason == SNES_DIVERGED_FUNCTION_DOMAIN) {
    // A trial point left the elements' domain (an inverted element): solve again from the same
    // guess with a backtracking line search, which backs off from such points.
    SNESLineSearch line_search;
    SNESLineSearchType type;
    INERTIA_PETSC(SNESGetLineSearch(snes_, &line_search));
    INERTIA_PETSC(SNESLineSearchGetType(line_search, &type));
    const std::string previous = type;
    INERTIA_PETSC(VecCopy(guess_, y));
    INERTIA_PETSC(SNESLineSearchSetType(line_search, SNESLINESEARCHBT));
    code = SNESSolve(snes_, nullptr, y);
    INERTIA_PETSC(SNESLineSearchSetType(line_search, previous.c_str()));
    rethrow_collectively(system_.comm(), error_);
    if (code) throw_petsc_error(code, "SNESSolve", __FILE__, __LINE__);
    INERTIA_PETSC(SNESGetConvergedReason(snes_, &report.reason));
  }
  problem_ = nullptr;
  INERTIA_PETSC(SNESGetIterationNumber(snes_, &report.iterations));
  INERTIA_PETSC(SNESGetLinearSolveIterations(snes_, &report.linear_iterations));
  const PetscReal* history = nullptr;
  PetscInt length = 0;
  INERTIA_PETSC(
      SNESGetConvergenceHistory(snes_, const_cast<PetscReal**>(&history), nullptr, &length));
  report.residuals.assign(history, history + length);
  last_ = report;
  if (report.reason < 0)
    throw SolverError(cat(
        "Newton (SNES) did not converge: ", SNESConvergedReasons[report.reason], " after ",
        report.iterations, " iterations",
        report.reason == SNES_DIVERGED_LINEAR_SOLVE
            ? " (the linear solve failed: the tangent stiffness may be singular, e.g. a mechanism "
              "or a spring at its rest length with nothing holding it sideways)"
            : "; try a smaller step or -snes_monitor -snes_linesearch_monitor",
        domain_error_.empty() ? "" : " (last rejected configuration: " + domain_error_ + ")"));
  return report;
}

}  // namespace inertia
