#pragma once
/// \file newton.hpp
/// Newton's method through PETSc SNES for the implicit schemes on nonlinear systems: solves
/// G(y) = 0 with the Jacobian m M + k K(x) + b B(x), where x is the displacement the scheme
/// associates with the iterate y. The Jacobian keeps the operator's constraint treatment (scaled
/// identity rows), and G's constrained entries are zero, so the prescribed entries of the initial
/// guess never move. Every SNES/KSP option is overridable from the command line (no prefix:
/// -snes_rtol, -snes_linesearch_type, -ksp_type, ...). No exception crosses a PETSc callback.

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

struct NewtonReport {
  PetscInt iterations = 0;
  PetscInt linear_iterations = 0;
  SNESConvergedReason reason = SNES_CONVERGED_ITERATING;
  std::vector<double> residuals;  ///< ||G|| before each iteration and after the last
  std::string reason_name() const { return SNESConvergedReasons[reason]; }
};

class NewtonSolver {
 public:
  struct Problem {
    /// G(y) into g (constrained entries are zeroed afterwards by the solver).
    std::function<void(Vec y, Vec g)> residual;
    /// Writes the displacement x(y) at which the Jacobian is linearised into x.
    std::function<void(Vec y, Vec x)> configuration;
    double m = 0, k = 0, b = 0;
  };

  /// Collective. Creates the SNES (Newton with line search) and its Jacobian matrix.
  explicit NewtonSolver(MechanicalSystem& system);

  /// The report of the last solve (residual history included).
  const NewtonReport& last_report() const { return last_; }

  /// Relative residual tolerance and iteration limit (before command-line options, which win).
  void set_tolerances(double relative, int max_iterations);

  /// Collective. Solves G(y) = 0 from the initial guess in y. Throws SolverError naming SNES's
  /// reason if it does not converge.
  NewtonReport solve(const Problem& problem, Vec y);

 private:
  static PetscErrorCode residual_callback(SNES, Vec y, Vec g, void* context);
  static PetscErrorCode jacobian_callback(SNES, Vec y, Mat J, Mat P, void* context);

  MechanicalSystem& system_;
  petsc::Snes snes_;
  petsc::Matrix jacobian_;
  petsc::Vector residual_, x_, guess_;
  const Problem* problem_ = nullptr;
  std::exception_ptr error_;
  std::string domain_error_;  ///< the last configuration the elements could not take
  std::vector<PetscReal> history_;
  NewtonReport last_;
};

}  // namespace inertia
