#pragma once
/// \file newton_problem.hpp
/// What a Newton solve (newton.hpp) is given, the problem G(y) = 0, and what it returns, its
/// report; and the lines it writes about itself: the error when it does not converge and the
/// notes it leaves in the system's solver notes for the log.

#include <functional>
#include <string>
#include <vector>

#include "inertia/parallel/petsc.hpp"

namespace inertia {

struct NewtonProblem {
  /// G(y) into g (constrained entries are zeroed afterwards by the solver).
  std::function<void(Vec y, Vec g)> residual;
  /// Writes the displacement x(y) at which the Jacobian is linearised into x.
  std::function<void(Vec y, Vec x)> configuration;
  double m = 0, k = 0, b = 0;
  /// dx/dy (x = configuration(y) = x0 + cx y) and the time at which G takes the forces: with
  /// cx > 0 the solver may build the incremental potential (newton.hpp) (0: it must not).
  double cx = 0, t = 0;
};

struct NewtonReport {
  PetscInt iterations = 0;
  PetscInt linear_iterations = 0;
  SNESConvergedReason reason = SNES_CONVERGED_ITERATING;
  std::vector<double> residuals;  ///< ||G|| before each iteration and after the last
  /// Converged at the round-off floor rather than at the tolerances (reason is then
  /// SNES_CONVERGED_FNORM_ABS, named CONVERGED_AT_ROUND_OFF).
  bool at_round_off_floor = false;
  double round_off_floor = 0;  ///< the floor measured in this solve (0: none was measured)
  std::string reason_name() const {
    return at_round_off_floor ? "CONVERGED_AT_ROUND_OFF" : SNESConvergedReasons[reason];
  }
};

/// Two solves of one step as one report (the log's iterations are the work done): iterations
/// summed, residuals in order, the later one's outcome, the larger floor.
NewtonReport combined(const NewtonReport& earlier, const NewtonReport& later);

/// The SolverError message of a solve that did not converge; `domain_error`: the last
/// configuration the elements could not take (empty if none).
std::string non_convergence_message(const NewtonReport& report, const std::string& domain_error);
/// The warning (a solver note) of the first acceptance at the round-off floor of a run.
std::string round_off_floor_warning(PetscReal gnorm, PetscReal floor, PetscReal first,
                                    PetscReal atol, PetscReal rtol);
/// The notes of full Newton steps given up: the first time in a run (`first` failed at t), and
/// after two solves in a row (the rest of the run backtracks).
std::string full_steps_failed_note(double t, const NewtonReport& first);
std::string full_steps_abandoned_note(double t);
/// The SolverError message of augmented Lagrangian iterations that did not make the constraints
/// hold: `violation` after `limit` updates, `first` after the first solve.
std::string augmentation_message(double violation, int limit, double first);

}  // namespace inertia
