#pragma once
/// \file step_control.hpp
/// Step halving: a step whose solve fails (a diverged Newton or linear solve, an element that
/// cannot take the configuration) is retried as two steps of half the size, recursively, before
/// the run stops with the reason and the time. An accepted step (each half of a retried one too)
/// commits the system's history variables at its end (DynamicSystem::commit_step); a failed one
/// discards its trial history (reject_step) with the rest of its state. A step that still fails
/// leaves the state where its converged parts got to (its start if none did), so that the run can
/// record where it stopped.

#include <functional>
#include <string>
#include <vector>

#include "inertia/time/integrator.hpp"

namespace inertia {

class StepController {
 public:
  /// `max_halvings`: how many times a step may be halved (0: never retried). `on_retry` is
  /// called (on every rank) with a one-line description whenever a step is retried.
  StepController(int max_halvings, std::function<void(const std::string&)> on_retry);

  /// Collective. Advances `state` by dt (state.step by one, state.time by dt). Throws
  /// SolverError naming the time and the last failure when the halvings are exhausted; with
  /// max_halvings > 0 the state is then the end of the step's last converged part (u, v, the
  /// integrator's internal state and the time; the committed history is that part's), or the
  /// step's start if no part converged, and state.step the step's start either way.
  StepStats advance(DynamicSystem& system, Integrator& integrator, State& state, double dt);
  /// After advance() threw: whether a part of the step converged (the state is then inside the
  /// step, at the end of the last one).
  bool failed_part_way() const { return failed_part_way_; }
  /// Called (on every rank) at each boundary inside a step retried in halves, with the state
  /// there and the size of the part that just ended.
  void on_within_step(std::function<void(const State&, double)> f) { within_ = std::move(f); }
  /// The size of the last part of the last step: its dt, or less where it was retried.
  double last_dt() const { return last_dt_; }

 private:
  StepStats attempt(DynamicSystem& system, Integrator& integrator, State& state, double dt,
                    int depth);
  struct Snapshot {
    petsc::Vector u, v;
    std::vector<petsc::Vector> internal;
    double previous_dt = 0;  ///< State::previous_dt
  };
  void save(DynamicSystem& system, Integrator& integrator, const State& state, int depth);
  void restore(Integrator& integrator, State& state, int depth);

  int max_halvings_;
  std::function<void(const std::string&)> on_retry_;
  std::function<void(const State&, double)> within_;
  double last_dt_ = 0;
  std::int64_t start_step_ = 0;  ///< the step advance() is taking: its number and time
  double start_time_ = 0;
  bool failed_part_way_ = false;
  std::vector<Snapshot> snapshots_;  ///< one per recursion depth, allocated once
};

}  // namespace inertia
