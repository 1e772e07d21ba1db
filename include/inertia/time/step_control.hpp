#pragma once
/// \file step_control.hpp
/// Step halving: a step whose solve fails (a diverged Newton or linear solve, an element that
/// cannot take the configuration) is retried as two steps of half the size, recursively, before
/// the run stops with the reason and the time. An accepted step (each half of a retried one too)
/// commits the system's history variables at its end (DynamicSystem::commit_step); a failed one
/// discards its trial history (reject_step) with the rest of its state.

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
  /// SolverError naming the time and the last failure when the halvings are exhausted.
  StepStats advance(DynamicSystem& system, Integrator& integrator, State& state, double dt);
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
  };
  void save(DynamicSystem& system, Integrator& integrator, const State& state, int depth);
  void restore(Integrator& integrator, State& state, int depth);

  int max_halvings_;
  std::function<void(const std::string&)> on_retry_;
  std::function<void(const State&, double)> within_;
  double last_dt_ = 0;
  std::vector<Snapshot> snapshots_;  ///< one per recursion depth, allocated once
};

}  // namespace inertia
