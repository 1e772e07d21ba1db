#include "inertia/time/newton.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

NewtonSolver::NewtonSolver(DynamicSystem& system) : system_(system) {
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
    if (!self->chosen_) self->choose_linear_solver(J);
    if (self->direct_) self->lag_factorisation();
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
    if (iteration == 0) {
      self->first_residual_ = fnorm;
      self->floor_ = self->floor_measured_at_ = 0;
    } else if ((*reason == SNES_CONVERGED_ITERATING || *reason == SNES_DIVERGED_MAX_IT) &&
               fnorm > 0.5 * self->previous_residual_) {
      // A stall (Newton's steps no longer contract): at the floor, or a real difficulty. SNES's
      // current function vector is G at its current solution (the line search set both).
      Vec y, g;
      INERTIA_PETSC(SNESGetSolution(snes, &y));
      INERTIA_PETSC(SNESGetFunction(snes, &g, nullptr, nullptr));
      if (self->at_round_off_floor(y, g, fnorm)) {
        *reason = SNES_CONVERGED_FNORM_ABS;
        self->accepted_at_floor_ = true;
      }
    }
    // Full steps (choose_line_search): the first may raise ||G||, a later one that does is not
    // converging (a cycle, a divergence); solve_once then backtracks from the step's start.
    if (self->full_steps_ && iteration >= 2 && *reason == SNES_CONVERGED_ITERATING &&
        fnorm > self->previous_residual_)
      *reason = SNES_DIVERGED_DTOL;
    self->previous_residual_ = fnorm;
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

bool NewtonSolver::at_round_off_floor(Vec y, Vec g, PetscReal gnorm) {
  if (floor_measured_at_ > 0 && gnorm >= 0.1 * floor_measured_at_)
    return gnorm <= floor_factor * floor_;  // no closer to the floor than at the last measurement
  if (!probe_) {
    probe_ = system_.create_vector();
    probe_g_ = system_.create_vector();
    probe_h_ = system_.create_vector();
  }
  // G(y_probe) into out; false where the elements cannot take y_probe (raised on every rank).
  auto evaluate = [&](Vec y_probe, Vec out) {
    try {
      problem_->residual(y_probe, out);
    } catch (const SolverError&) {
      return false;
    }
    system_.zero_constrained(out);
    return true;
  };
  // delta = relative_probe y on the free entries (the prescribed ones must not move), in
  // probe_g_ until both probe points are formed.
  INERTIA_PETSC(VecCopy(y, probe_g_));
  INERTIA_PETSC(VecScale(probe_g_, relative_probe));
  system_.zero_constrained(probe_g_);
  INERTIA_PETSC(VecWAXPY(probe_, 1.0, probe_g_, y));
  bool measured = evaluate(probe_, probe_h_);
  INERTIA_PETSC(VecWAXPY(probe_, -1.0, probe_g_, y));
  measured = measured && evaluate(probe_, probe_g_);
  PetscReal second_difference = 0;
  if (measured) {
    INERTIA_PETSC(VecAXPBYPCZ(probe_h_, 1.0, -2.0, 1.0, probe_g_, g));
    INERTIA_PETSC(VecNorm(probe_h_, NORM_2, &second_difference));
  }
  floor_ = measured && std::isfinite(second_difference) ? second_difference / std::sqrt(6.0) : 0;
  floor_measured_at_ = gnorm;
  return floor_ > 0 && gnorm <= floor_factor * floor_;
}

void NewtonSolver::warn_round_off_floor(PetscReal gnorm, PetscReal first) {
  floor_warned_ = true;
  PetscReal atol = 0, rtol = 0, stol = 0;
  PetscInt max_iterations = 0, max_evaluations = 0;
  INERTIA_PETSC(SNESGetTolerances(snes_, &atol, &rtol, &stol, &max_iterations, &max_evaluations));
  system_.add_solver_note(
      cat("warning   Newton: the residual stalls at ", g3(gnorm),
          ", the round-off floor of this model's forces (", g3(floor_),
          " measured); the tolerance ", g3(std::max(atol, rtol * first)), " (-snes_rtol ", g3(rtol),
          " x the first residual ", g3(first), ", -snes_atol ", g3(atol),
          ") cannot be met; steps are accepted there (CONVERGED_AT_ROUND_OFF)"));
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

void NewtonSolver::prepare_potential(const Problem& problem, Vec y0) {
  problem_ = &problem;
  if (!p_) p_ = system_.create_vector();
  problem.residual(y0, p_);
  system_.zero_constrained(p_);
  set_potential_constants(y0, p_);
}

void NewtonSolver::set_potential_constants(Vec y0, Vec g0) {
  if (!f_ext_) {
    if (!p_) p_ = system_.create_vector();
    f_ext_ = system_.create_vector();
    work_ = system_.create_vector();
    zero_ = system_.create_vector();
  }
  const Problem& problem = *problem_;
  // G(y) = m M y - p + s (f_int(x(y)) - f_ext(t)) with s = k / cx, for every y: so
  // p = m M y0 - s force(t, x0) - G(y0) (force = f_ext - f_int without dashpots).
  const double s = problem.k / problem.cx;
  if (g0 != p_.get()) INERTIA_PETSC(VecCopy(g0, p_));
  problem.configuration(y0, x_);
  system_.force(problem.t, x_, zero_, work_);
  INERTIA_PETSC(VecAXPBY(p_, -s, -1.0, work_));  // -G(y0) - s force
  system_.mult_mass(y0, work_);
  INERTIA_PETSC(VecAXPY(p_, problem.m, work_));
  system_.external_force(problem.t, f_ext_);
}

double NewtonSolver::potential(Vec y) {
  const Problem& problem = *problem_;
  const double s = problem.k / problem.cx;
  problem.configuration(y, x_);
  const double stored = system_.strain_energy(x_);  // NaN where an element is inverted
  system_.mult_mass(y, work_);
  PetscScalar yMy = 0, py = 0, fx = 0;
  INERTIA_PETSC(VecDot(y, work_, &yMy));
  INERTIA_PETSC(VecDot(p_, y, &py));
  INERTIA_PETSC(VecDot(f_ext_, x_, &fx));
  return 0.5 * problem.m * yMy - py + s / problem.cx * (stored - fx);
}

PetscErrorCode NewtonSolver::line_search_callback(SNESLineSearch line_search, void* context) {
  auto* self = static_cast<NewtonSolver*>(context);
  try {
    self->energy_line_search(line_search);
  } catch (...) {
    self->error_ = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

void NewtonSolver::energy_line_search(SNESLineSearch line_search) {
  // The step is X - lambda Y (PETSc's convention), F = G(X).
  Vec X, F, Y, W, G;
  SNES snes;
  INERTIA_PETSC(SNESLineSearchGetVecs(line_search, &X, &F, &Y, &W, &G));
  INERTIA_PETSC(SNESLineSearchGetSNES(line_search, &snes));
  PetscReal xnorm = 0, fnorm = 0, ynorm = 0;
  INERTIA_PETSC(SNESLineSearchGetNorms(line_search, &xnorm, &fnorm, &ynorm));
  PetscScalar yf = 0;
  INERTIA_PETSC(VecDot(Y, F, &yf));
  const double slope = -yf;  // d Phi(X - lambda Y) / d lambda at 0
  const bool descent = slope < 0;
  if (!potential_ready_) {
    // The first line search of a solve starts from the initial guess, where SNES has just
    // evaluated G: p comes from that G (no second evaluation).
    set_potential_constants(X, F);
    potential_ready_ = true;
  }
  const double phi0 = descent ? potential(X) : 0.0;
  // Residual norm at W into G (false if the elements cannot take W).
  auto residual_norm = [&](PetscReal& gnorm) {
    INERTIA_PETSC(SNESComputeFunction(snes, W, G));
    PetscBool domain = PETSC_FALSE;
    INERTIA_PETSC(SNESGetFunctionDomainError(snes, &domain));
    INERTIA_PETSC(VecNorm(G, NORM_2, &gnorm));
    return !domain && std::isfinite(gnorm);
  };
  double lambda = 1;
  bool accepted = false, have_g = false;
  for (int trial = 0; trial < 40 && !accepted; ++trial) {
    INERTIA_PETSC(VecWAXPY(W, -lambda, Y, X));
    have_g = false;
    double phi = std::numeric_limits<double>::quiet_NaN();
    PetscReal gnorm = 0;
    if (descent) {
      phi = potential(W);  // NaN where an element is inverted
      accepted = std::isfinite(phi) && phi <= phi0 + 1e-4 * lambda * slope;
      // A full step that halves the residual is Newton's contraction: taken whatever Phi says,
      // because close to the solution Phi's change (~ the residual squared) is below the
      // round-off of its evaluation, where the residual is still exact.
      if (!accepted && trial == 0 && std::isfinite(phi)) {
        have_g = residual_norm(gnorm);
        accepted = have_g && gnorm <= 0.5 * fnorm;
      }
    } else {
      // Not a descent direction of Phi (an indefinite tangent): Newton's direction is still one
      // of 1/2 ||G||^2 (slope -||G||^2), so backtrack on the residual norm.
      have_g = residual_norm(gnorm);
      accepted = have_g && gnorm * gnorm <= (1 - 2e-4 * lambda) * fnorm * fnorm;
    }
    if (accepted) break;
    if (std::isfinite(phi)) {
      // Minimum of the quadratic through Phi(0), Phi'(0) and Phi(lambda), within [0.1, 0.5] lambda.
      const double curvature = phi - phi0 - slope * lambda;
      const double next = curvature > 0 ? -slope * lambda * lambda / (2 * curvature) : 0.5 * lambda;
      lambda = std::clamp(next, 0.1 * lambda, 0.5 * lambda);
    } else {
      lambda *= descent ? 0.25 : 0.5;  // an inverted element, or the residual norm's backtracking
    }
  }
  if (!accepted) {
    INERTIA_PETSC(SNESLineSearchSetReason(line_search, SNES_LINESEARCH_FAILED_REDUCT));
    return;
  }
  INERTIA_PETSC(VecCopy(W, X));
  if (have_g) {
    INERTIA_PETSC(VecCopy(G, F));
  } else {
    INERTIA_PETSC(SNESComputeFunction(snes, X, F));
    PetscBool domain = PETSC_FALSE;
    INERTIA_PETSC(SNESGetFunctionDomainError(snes, &domain));
    if (domain) {
      INERTIA_PETSC(SNESLineSearchSetReason(line_search, SNES_LINESEARCH_FAILED_DOMAIN));
      return;
    }
  }
  INERTIA_PETSC(SNESLineSearchSetLambda(line_search, lambda));
  INERTIA_PETSC(SNESLineSearchComputeNorms(line_search));
  INERTIA_PETSC(SNESLineSearchSetReason(line_search, SNES_LINESEARCH_SUCCEEDED));
}

void NewtonSolver::choose_linear_solver(Mat J) {
  chosen_ = true;
  // A tangent per Newton iteration, about four iterations per step (one per load step for the
  // static solver); each tangent costs a numeric factorisation or a GAMG set-up.
  const double solves = 4 * std::max(1.0, system_.expected_solves());
  const SolverChoice choice = choose_solver(J, "", system_.linear_solver(), solves,
                                            amg_products_per_solve, "time.linear_solver", solves);
  system_.add_solver_note(
      cat("Newton's tangents (", system_.num_global_dofs(), " DOFs): ", choice.why));
  direct_ = choice.direct;
  if (!direct_) {
    // Friction's tangent is not symmetric (the slip's dependence on the normal force): GMRES,
    // not CG (which took ~20,000 iterations a step on a sliding block), unless -ksp_type says.
    PetscBool given = PETSC_FALSE;
    INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-ksp_type", &given));
    if (system_.has_friction() && !given) {
      KSP ksp;
      INERTIA_PETSC(SNESGetKSP(snes_, &ksp));
      INERTIA_PETSC(KSPSetType(ksp, KSPGMRES));
      system_.add_solver_note(
          "Newton's tangents: GMRES instead of CG (friction's tangent is not symmetric)");
    }
    return;
  }
  // LDL^T (MUMPS, symmetric indefinite: a tangent need not be positive definite) as the
  // preconditioner of GMRES with the exact tangent, factored at the first Newton iteration of
  // each step and kept while it stays a good one (lag_factorisation).
  KSP ksp;
  INERTIA_PETSC(SNESGetKSP(snes_, &ksp));
  use_mumps_cholesky(ksp);
  // GMRES, not CG: a kept factorisation of an earlier tangent need not be positive definite
  // with the current one (CG failed on examples/large_deflection and halved 72 steps).
  INERTIA_PETSC(KSPSetType(ksp, KSPGMRES));
  INERTIA_PETSC(KSPSetFromOptions(ksp));
}

void NewtonSolver::lag_factorisation() {
  // Called with each new tangent. SNES rebuilds the preconditioner at its first tangent of each
  // solve (the lag does not persist across solves: a step's work depends on that step alone, so
  // a restart repeats it exactly); after that the factorisation is kept (lag -1) until a solve
  // needs more Krylov iterations than a refactorisation is worth (a factorisation costs about
  // ten solves with it on the examples), then rebuilt once (lag -2).
  KSP ksp;
  INERTIA_PETSC(SNESGetKSP(snes_, &ksp));
  PetscInt iteration = 0, krylov = 0;
  INERTIA_PETSC(SNESGetIterationNumber(snes_, &iteration));
  INERTIA_PETSC(KSPGetIterationNumber(ksp, &krylov));
  if (iteration > 0 && krylov > max_lagged_iterations) {
    INERTIA_PETSC(SNESSetLagPreconditioner(snes_, -2));
  } else {
    INERTIA_PETSC(SNESSetLagPreconditioner(snes_, iteration == 0 ? -2 : -1));
  }
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
    if (update == limit)
      throw SolverError(
          cat("augmented Lagrangian: the contact constraints are still violated by ", violation,
              " times their tolerance after ", limit, " multiplier updates (", first,
              " after the first solve; contact.augmented.iterations): raise penalty_scale, "
              "iterations or the tolerance"));
    ++augmentations_;
    const NewtonReport next = solve_once(problem, y);
    report.iterations += next.iterations;
    report.linear_iterations += next.linear_iterations;
    report.residuals.insert(report.residuals.end(), next.residuals.begin(), next.residuals.end());
    report.reason = next.reason;
    report.at_round_off_floor = next.at_round_off_floor;
    report.round_off_floor = std::max(report.round_off_floor, next.round_off_floor);
  }
  last_ = report;
  return report;
}

void NewtonSolver::choose_line_search(bool energy) {
  SNESLineSearch line_search;
  INERTIA_PETSC(SNESGetLineSearch(snes_, &line_search));
  full_steps_ = false;
  if (energy) {
    potential_ready_ = false;  // built at the first line search (energy_line_search)
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

void NewtonSolver::fresh_preconditioner() {
  // A fresh preconditioner object for every solve (GAMG then reuses its interpolation only
  // within this solve, and its random eigenvalue estimates start from the same seed): a step's
  // iterations depend on that step's data alone, so a restarted run repeats them exactly, and
  // the coarse spaces follow the configuration as it moves.
  if (direct_) return;
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

NewtonReport NewtonSolver::run_snes(Vec y) {
  PetscErrorCode code = SNESSolve(snes_, nullptr, y);
  rethrow_collectively(system_.comm(), error_);  // rank-local exceptions fail together
  if (code) throw_petsc_error(code, "SNESSolve", __FILE__, __LINE__);
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
    system_.add_solver_note(cat("Newton: full steps did not converge at t = ", problem_->t, " (",
                                SNESConvergedReasons[first.reason], " after ", first.iterations,
                                " iterations); the step was solved again from its start with "
                                "backtracking on ||G|| (noted once per run)"));
  } else if (full_steps_ && full_step_failures_ == 2) {
    system_.add_solver_note(cat("Newton: full steps did not converge in two solves in a row (t = ",
                                problem_->t, "): backtracking on ||G|| for the rest of the run"));
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
  floor_ = floor_measured_at_ = 0;
  NewtonReport report = run_snes(y);
  INERTIA_PETSC(SNESLineSearchSetType(line_search, previous.c_str()));
  // The report counts both solves (the log's iterations are the work done).
  report.iterations += first.iterations;
  report.linear_iterations += first.linear_iterations;
  report.residuals.insert(report.residuals.begin(), first.residuals.begin(), first.residuals.end());
  return report;
}

NewtonReport NewtonSolver::solve_once(const Problem& problem, Vec y) {
  problem_ = &problem;
  error_ = nullptr;
  domain_error_.clear();
  accepted_at_floor_ = false;
  floor_ = floor_measured_at_ = 0;
  if (!guess_) guess_ = system_.create_vector();
  INERTIA_PETSC(VecCopy(y, guess_));
  const bool energy = has_potential(problem);
  choose_line_search(energy);
  fresh_preconditioner();
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
  report.round_off_floor = floor_;
  if (accepted_at_floor_ && !floor_warned_ && !report.residuals.empty())
    warn_round_off_floor(report.residuals.back(), first_residual_);
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
