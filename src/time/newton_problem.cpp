#include "inertia/time/newton_problem.hpp"

#include <algorithm>

#include "inertia/core/text.hpp"

namespace inertia {

NewtonReport combined(const NewtonReport& earlier, const NewtonReport& later) {
  NewtonReport report = later;
  report.iterations += earlier.iterations;
  report.linear_iterations += earlier.linear_iterations;
  report.residuals.insert(report.residuals.begin(), earlier.residuals.begin(),
                          earlier.residuals.end());
  report.round_off_floor = std::max(earlier.round_off_floor, later.round_off_floor);
  return report;
}

std::string non_convergence_message(const NewtonReport& report, const std::string& domain_error) {
  return cat(
      "Newton (SNES) did not converge: ", SNESConvergedReasons[report.reason], " after ",
      report.iterations, " iterations",
      report.reason == SNES_DIVERGED_LINEAR_SOLVE
          ? " (the linear solve failed: the tangent stiffness may be singular, e.g. a mechanism "
            "or a spring at its rest length with nothing holding it sideways)"
          : "; try a smaller step or -snes_monitor -snes_linesearch_monitor",
      domain_error.empty() ? "" : " (last rejected configuration: " + domain_error + ")");
}

std::string round_off_floor_warning(PetscReal gnorm, PetscReal floor, PetscReal first,
                                    PetscReal atol, PetscReal rtol) {
  return cat("warning   Newton: the residual stalls at ", g3(gnorm),
             ", the round-off floor of this model's forces (", g3(floor),
             " measured); the tolerance ", g3(std::max(atol, rtol * first)), " (-snes_rtol ",
             g3(rtol), " x the first residual ", g3(first), ", -snes_atol ", g3(atol),
             ") cannot be met; steps are accepted there (CONVERGED_AT_ROUND_OFF)");
}

std::string full_steps_failed_note(double t, const NewtonReport& first) {
  return cat("Newton: full steps did not converge at t = ", t, " (",
             SNESConvergedReasons[first.reason], " after ", first.iterations,
             " iterations); the step was solved again from its start with "
             "backtracking on ||G|| (noted once per run)");
}

std::string full_steps_abandoned_note(double t) {
  return cat("Newton: full steps did not converge in two solves in a row (t = ", t,
             "): backtracking on ||G|| for the rest of the run");
}

std::string augmentation_message(double violation, int limit, double first) {
  return cat("augmented Lagrangian: the contact constraints are still violated by ", violation,
             " times their tolerance after ", limit, " multiplier updates (", first,
             " after the first solve; contact.augmented.iterations): raise penalty_scale, "
             "iterations or the tolerance");
}

}  // namespace inertia
