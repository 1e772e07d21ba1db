#include "inertia/time/newton.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

NewtonSolver::NewtonSolver(DynamicSystem& system)
    : system_(system), potential_(system), tangents_(system), floor_(system) {
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
  INERTIA_PETSC(SNESSetConvergenceTest(snes_, convergence_callback, this, nullptr));
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
    KSP ksp;
    PC pc;
    INERTIA_PETSC(SNESGetKSP(self->snes_, &ksp));
    INERTIA_PETSC(KSPGetPC(ksp, &pc));
    self->system_.fill_operator(self->problem_->m, self->problem_->k, self->problem_->b, J, pc);
    // AMG's near-null space: the rigid-body modes of the current configuration.
    self->system_.attach_near_null_space(J, self->x_);
    self->tangents_.tangent(self->snes_, J);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

PetscErrorCode NewtonSolver::convergence_callback(SNES snes, PetscInt iteration, PetscReal xnorm,
                                                  PetscReal step_norm, PetscReal fnorm,
                                                  SNESConvergedReason* reason, void* context) {
  auto* self = static_cast<NewtonSolver*>(context);
  try {
    INERTIA_PETSC(SNESConvergedDefault(snes, iteration, xnorm, step_norm, fnorm, reason, nullptr));
    self->test_convergence(snes, iteration, fnorm, reason);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

void NewtonSolver::test_convergence(SNES snes, PetscInt iteration, PetscReal fnorm,
                                    SNESConvergedReason* reason) {
  if (iteration == 0) {
    first_residual_ = fnorm;
    floor_.reset();
  } else if ((*reason == SNES_CONVERGED_ITERATING || *reason == SNES_DIVERGED_MAX_IT) &&
             fnorm > 0.5 * previous_residual_) {
    // A stall (Newton's steps no longer contract): at the floor, or a real difficulty. SNES's
    // current function vector is G at its current solution (the line search set both).
    Vec y, g;
    INERTIA_PETSC(SNESGetSolution(snes, &y));
    INERTIA_PETSC(SNESGetFunction(snes, &g, nullptr, nullptr));
    if (floor_.reached(problem_->residual, problem_->configuration, problem_->cx, y, g, fnorm)) {
      *reason = SNES_CONVERGED_FNORM_ABS;
      accepted_at_floor_ = true;
    }
  }
  // Full steps (choose_line_search): the first may raise ||G||, a later one that does is not
  // converging (a cycle, a divergence); solve_once then backtracks from the step's start.
  if (full_steps_ && iteration >= 2 && *reason == SNES_CONVERGED_ITERATING &&
      fnorm > previous_residual_)
    *reason = SNES_DIVERGED_DTOL;
  previous_residual_ = fnorm;
}

namespace {
/// True if the command line chooses the line search (-snes_linesearch_type).
bool line_search_given() {
  PetscBool given = PETSC_FALSE;
  INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-snes_linesearch_type", &given));
  return given;
}
}  // namespace

bool NewtonSolver::has_potential(const Problem& problem) const {
  if (problem.cx <= 0 || system_.has_dashpots() || system_.rayleigh().stiffness != 0 ||
      system_.has_friction())
    return false;
  return !line_search_given();
}

PetscErrorCode NewtonSolver::line_search_callback(SNESLineSearch line_search, void* context) {
  auto* self = static_cast<NewtonSolver*>(context);
  try {
    self->potential_.line_search(line_search);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

NewtonReport NewtonSolver::solve(const Problem& problem, Vec y) {
  NewtonReport report = solve_once(problem, y);
  const int limit = system_.augmentation_limit();
  double first = 0;
  for (int update = 0; limit > 0; ++update) {
    problem.configuration(y, x_);
    const double inertia = problem.k > 0 ? problem.m / problem.k : 0.0;
    const double violation = system_.augment(x_, problem.t, inertia);  // updates them if > 1
    if (violation <= 1) break;
    if (update == 0) first = violation;
    if (update == limit) throw SolverError(augmentation_message(violation, limit, first));
    ++augmentations_;
    report = combined(report, solve_once(problem, y));
  }
  last_ = report;
  return report;
}

void NewtonSolver::choose_line_search(bool energy) {
  SNESLineSearch line_search;
  INERTIA_PETSC(SNESGetLineSearch(snes_, &line_search));
  full_steps_ = false;
  if (energy) {
    potential_.start(*problem_);  // its constants are built at the first line search
    INERTIA_PETSC(SNESLineSearchSetType(line_search, SNESLINESEARCHSHELL));
    INERTIA_PETSC(SNESLineSearchShellSetUserFunc(line_search, line_search_callback, this));
  } else if (!line_search_given()) {
    // Plasticity and friction: no energy, and the critical-point search, which assumes one,
    // stalls where nodes slip (a block starting to slide on another). Full Newton steps first:
    // near a plastic collapse the first step raises ||G|| (the plastic zone's flow overshoots)
    // and the next ones converge quadratically, where backtracking on ||G|| cuts every step to
    // a fraction (Hill's sphere at its limit pressure: 6 against 29 iterations). Full steps are
    // given up where ||G|| grows after the second iteration (convergence_callback) or SNES fails,
    // and the solve is repeated from the same guess with backtracking on ||G|| (solve_once).
    // After two such solves in a row the rest of the run backtracks (a finite-strain bend,
    // whose full steps cycle at every step: 2 wasted iterations once or twice, not every step).
    full_steps_ = system_.has_friction() && full_step_failures_ < 2;
    INERTIA_PETSC(SNESLineSearchSetType(line_search, full_steps_              ? SNESLINESEARCHBASIC
                                                     : system_.has_friction() ? SNESLINESEARCHBT
                                                                              : SNESLINESEARCHCP));
  }
}

NewtonReport NewtonSolver::run_snes(Vec y) {
  PetscErrorCode code = SNESSolve(snes_, nullptr, y);
  rethrow_collectively(system_.comm(), error_);  // rank-local exceptions fail together
  if (code) {
    try {
      tangents_.fresh_preconditioner(snes_, true);  // the next attempt starts clean
    } catch (const std::exception&) {
      // The original error is the one to report.
    }
    try {
      throw_petsc_error(code, "SNESSolve", __FILE__, __LINE__);
    } catch (const SolverError& e) {
      // MUMPS refuses to solve after a factorisation that failed (PETSc keeps that failure to
      // itself): the tangent was singular.
      const std::string what = e.what();
      if (what.find("MUMPS in solve phase: INFOG(1)=-3") == std::string::npos) throw;
      throw SolverError(cat(what,
                            ": the tangent's factorisation had failed, a singular tangent "
                            "(a part free to move where nothing holds it: supports, "
                            "contact and friction included)"));
    }
  }
  NewtonReport report;
  INERTIA_PETSC(SNESGetConvergedReason(snes_, &report.reason));
  INERTIA_PETSC(SNESGetIterationNumber(snes_, &report.iterations));
  INERTIA_PETSC(SNESGetLinearSolveIterations(snes_, &report.linear_iterations));
  const PetscReal* history = nullptr;
  PetscInt length = 0;
  INERTIA_PETSC(
      SNESGetConvergenceHistory(snes_, const_cast<PetscReal**>(&history), nullptr, &length));
  report.residuals.assign(history, history + length);
  return report;
}

NewtonReport NewtonSolver::retry_backtracking(const NewtonReport& first, Vec y) {
  if (full_steps_) ++full_step_failures_;
  if (full_steps_ && !full_steps_noted_) {
    full_steps_noted_ = true;
    system_.add_solver_note(full_steps_failed_note(problem_->t, first));
  } else if (full_steps_ && full_step_failures_ == 2) {
    system_.add_solver_note(full_steps_abandoned_note(problem_->t));
  }
  SNESLineSearch line_search;
  SNESLineSearchType type;
  INERTIA_PETSC(SNESGetLineSearch(snes_, &line_search));
  INERTIA_PETSC(SNESLineSearchGetType(line_search, &type));
  const std::string previous = type;
  INERTIA_PETSC(VecCopy(guess_, y));
  INERTIA_PETSC(SNESLineSearchSetType(line_search, SNESLINESEARCHBT));
  full_steps_ = false;
  accepted_at_floor_ = false;
  floor_.reset();
  const NewtonReport report = run_snes(y);
  INERTIA_PETSC(SNESLineSearchSetType(line_search, previous.c_str()));
  return combined(first, report);  // the log's iterations are the work done
}

NewtonReport NewtonSolver::solve_once(const Problem& problem, Vec y) {
  problem_ = &problem;
  error_ = nullptr;
  domain_error_.clear();
  accepted_at_floor_ = false;
  floor_.reset();
  if (!guess_) guess_ = system_.create_vector();
  INERTIA_PETSC(VecCopy(y, guess_));
  const bool energy = has_potential(problem);
  choose_line_search(energy);
  tangents_.fresh_preconditioner(snes_);
  NewtonReport report = run_snes(y);
  if (full_steps_ && report.reason > 0) full_step_failures_ = 0;
  // Full steps that failed, or a trial point that left the elements' domain (an inverted
  // element) under a search that does not back off from it: solve again from the same guess
  // with a backtracking line search, which does.
  if ((full_steps_ && report.reason < 0) ||
      (report.reason == SNES_DIVERGED_FUNCTION_DOMAIN && !energy))
    report = retry_backtracking(report, y);
  problem_ = nullptr;
  report.at_round_off_floor = accepted_at_floor_;
  report.round_off_floor = floor_.floor();
  if (accepted_at_floor_ && !floor_warned_ && !report.residuals.empty()) {
    floor_warned_ = true;
    PetscReal atol = 0, rtol = 0, stol = 0;
    PetscInt max_iterations = 0, max_evaluations = 0;
    INERTIA_PETSC(SNESGetTolerances(snes_, &atol, &rtol, &stol, &max_iterations, &max_evaluations));
    system_.add_solver_note(round_off_floor_warning(report.residuals.back(), floor_.floor(),
                                                    first_residual_, atol, rtol));
  }
  last_ = report;
  if (report.reason < 0) throw SolverError(non_convergence_message(report, domain_error_));
  return report;
}

}  // namespace inertia
