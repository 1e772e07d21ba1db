#include "inertia/time/incremental_potential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "inertia/core/error.hpp"

namespace inertia {

IncrementalPotential::IncrementalPotential(DynamicSystem& system) : system_(system) {}

void IncrementalPotential::prepare(const NewtonProblem& problem, Vec y0, Vec g0) {
  problem_ = &problem;
  if (!p_) {
    p_ = system_.create_vector();
    f_ext_ = system_.create_vector();
    x_ = system_.create_vector();
    work_ = system_.create_vector();
    zero_ = system_.create_vector();
  }
  if (!g0) {
    problem.residual(y0, p_);
    system_.zero_constrained(p_);
  }
  // G(y) = m M y - p + s (f_int(x(y)) - f_ext(t)) with s = k / cx, for every y: so
  // p = m M y0 - s force(t, x0) - G(y0) (force = f_ext - f_int without dashpots).
  const double s = problem.k / problem.cx;
  if (g0) INERTIA_PETSC(VecCopy(g0, p_));
  problem.configuration(y0, x_);
  system_.force(problem.t, x_, zero_, work_);
  INERTIA_PETSC(VecAXPBY(p_, -s, -1.0, work_));  // -G(y0) - s force
  system_.mult_mass(y0, work_);
  INERTIA_PETSC(VecAXPY(p_, problem.m, work_));
  system_.external_force(problem.t, f_ext_);
}

double IncrementalPotential::operator()(Vec y) const {
  const NewtonProblem& problem = *problem_;
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

void IncrementalPotential::line_search(SNESLineSearch line_search) {
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
  if (!ready_) {
    // The first line search of a solve starts from the initial guess, where SNES has just
    // evaluated G: p comes from that G (no second evaluation).
    prepare(*problem_, X, F);
    ready_ = true;
  }
  const double phi0 = descent ? (*this)(X) : 0.0;
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
      phi = (*this)(W);  // NaN where an element is inverted
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

}  // namespace inertia
