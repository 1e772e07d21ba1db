#pragma once
/// \file incremental_potential.hpp
/// Newton's energy line search (newton.hpp, "Line search"): where a step's residual G is the
/// gradient of an incremental potential
///   Phi(y) = 1/2 m y.M y - p.y + (s / cx) (W(x(y)) - f_ext(t).x(y)),  x(y) = x0 + cx y,
/// (W the stored energy, s cx = k), every Newton step is cut back along its direction until
/// Phi falls (Armijo), a full step that halves ||G|| is taken as it is, and a direction that is
/// not one of descent for Phi backtracks on ||G||. p is recovered once per solve from G(y0).

#include "inertia/system/dynamic_system.hpp"
#include "inertia/time/newton_problem.hpp"

namespace inertia {

class IncrementalPotential {
 public:
  explicit IncrementalPotential(DynamicSystem& system);

  /// Collective. Phi's constant terms (p, f_ext(t)) for `problem` from G(y0) = g0 (null: G is
  /// evaluated here). `problem` must outlive the evaluations and line searches that follow.
  void prepare(const NewtonProblem& problem, Vec y0, Vec g0 = nullptr);
  /// Phi(y) (NaN where an element is inverted). Collective.
  double operator()(Vec y) const;
  /// A new solve of `problem`: the constants are prepared at its first line search.
  void start(const NewtonProblem& problem) {
    problem_ = &problem;
    ready_ = false;
  }
  /// Collective. PETSc's shell line search (SNESLINESEARCHSHELL) on Phi; sets its reason.
  void line_search(SNESLineSearch line_search);

 private:
  DynamicSystem& system_;
  const NewtonProblem* problem_ = nullptr;
  petsc::Vector p_, f_ext_, x_, work_, zero_;  // the constant terms and scratch
  bool ready_ = false;                         ///< p_ and f_ext_ hold this solve's constants
};

}  // namespace inertia
