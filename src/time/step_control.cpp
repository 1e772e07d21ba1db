#include "inertia/time/step_control.hpp"

namespace inertia {

StepController::StepController(int max_halvings, std::function<void(const std::string&)> on_retry)
    : max_halvings_(max_halvings), on_retry_(std::move(on_retry)) {}

void StepController::save(DynamicSystem& system, Integrator& integrator, const State& state,
                          int depth) {
  if (static_cast<int>(snapshots_.size()) <= depth) snapshots_.resize(depth + 1);
  Snapshot& s = snapshots_[depth];
  if (!s.u) {
    s.u = system.create_vector();
    s.v = system.create_vector();
  }
  INERTIA_PETSC(VecCopy(state.u, s.u));
  INERTIA_PETSC(VecCopy(state.v, s.v));
  s.previous_dt = state.previous_dt;
  const auto internal = integrator.internal_state();
  s.internal.resize(internal.size());
  for (std::size_t i = 0; i < internal.size(); ++i) {
    if (!s.internal[i]) INERTIA_PETSC(VecDuplicate(internal[i].second, s.internal[i].out()));
    INERTIA_PETSC(VecCopy(internal[i].second, s.internal[i]));
  }
}

void StepController::restore(Integrator& integrator, State& state, int depth) {
  const Snapshot& s = snapshots_[depth];
  INERTIA_PETSC(VecCopy(s.u, state.u));
  INERTIA_PETSC(VecCopy(s.v, state.v));
  state.previous_dt = s.previous_dt;
  const auto internal = integrator.internal_state();
  for (std::size_t i = 0; i < internal.size(); ++i)
    INERTIA_PETSC(VecCopy(s.internal[i], internal[i].second));
}

StepStats StepController::attempt(DynamicSystem& system, Integrator& integrator, State& state,
                                  double dt, int depth) {
  const double t0 = state.time;
  const std::int64_t n0 = state.step;
  // Each part's start is kept: a failed part is retried from it, and the last part to fail
  // leaves the state where the step's converged parts got to.
  if (max_halvings_ > 0) save(system, integrator, state, depth);
  try {
    StepStats stats = integrator.step(system, state, dt);
    system.commit_step(state.u);  // the step is accepted once its history is
    // Cells that fail at the accepted state erode; the scheme continues with the new model.
    if (system.erode(state.u, state.v) > 0) integrator.model_changed(system, state, dt);
    last_dt_ = dt;
    return stats;
  } catch (const SolverError& e) {
    system.reject_step();
    if (max_halvings_ > 0) {
      restore(integrator, state, depth);
      state.time = t0;
      state.step = n0;
    }
    if (depth >= max_halvings_) {
      if (max_halvings_ > 0) {
        failed_part_way_ = t0 != start_time_;
        state.step = start_step_;  // the step that failed is the next one
      }
      throw SolverError(cat("the step from t = ", t0, " with dt = ", dt, " failed",
                            max_halvings_ > 0 ? cat(" after ", max_halvings_, " halvings") : "",
                            ": ", e.what()));
    }
    on_retry_(cat("step from t = ", t0, " with dt = ", dt, " failed (", e.what(),
                  "); retrying as two steps of ", dt / 2));
    StepStats first = attempt(system, integrator, state, dt / 2, depth + 1);
    if (within_) within_(state, last_dt_);
    StepStats second = attempt(system, integrator, state, dt / 2, depth + 1);
    second.linear_iterations += first.linear_iterations;
    second.nonlinear_iterations += first.nonlinear_iterations;
    return second;
  }
}

StepStats StepController::advance(DynamicSystem& system, Integrator& integrator, State& state,
                                  double dt) {
  const std::int64_t n0 = state.step;
  start_step_ = n0;
  start_time_ = state.time;
  failed_part_way_ = false;
  StepStats stats = attempt(system, integrator, state, dt, 0);
  state.step = n0 + 1;  // halved steps still count as one step of the run
  return stats;
}

}  // namespace inertia
