#pragma once
/// \file transient_analysis.hpp
/// The transient analysis of a run (`time:`): the initial state, the integrator, the monitors
/// (histories, frames, checkpoints, the blow-up watch, progress), the time loop, a restart from a
/// checkpoint, and what a failure or a signal leaves behind.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inertia/app/analysis.hpp"
#include "inertia/app/auto_step.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/monitors.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/app/time_step_choice.hpp"
#include "inertia/core/files.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/step_control.hpp"

namespace inertia {

/// What the run measured before the transient: the time step and its plan, the inputs to plan
/// again (a restart), the model's size (the blow-up watch's scale) and the probes, located.
struct TransientInputs {
  TimeStep step;
  PlanInputs plan_inputs;
  double model_size = 1;
  ProbeSites probes;
};

class TransientAnalysis : AnalysisPart {
 public:
  /// `monitors` is the run's list (with the memory monitor), which the transient's outputs and
  /// watches join; `restarting`: --restart (the checkpoints' monitor restores from it).
  TransientAnalysis(const AnalysisContext& context, TransientInputs inputs, MonitorList& monitors,
                    bool restarting);

  /// The initial state (u = 0, the initial velocities, the prescribed motion at t = 0), or with
  /// `from` (an analysis of a sequence) the displacements and velocities the one before left,
  /// and the integrator, which completes it (a_0, ...); the output directories exist.
  void initialize(const State* from = nullptr);

  /// The state reached (after time_loop()): where the next analysis of a sequence starts.
  const State& state() const { return state_; }

  /// Calls every monitor's finish() (its closing lines in the log) while the run's context is
  /// alive: an analysis of a sequence, whose monitors are its own.
  void finish_monitors() {
    for (const auto& m : monitors_) m->finish();
  }

  /// --restart: the state, the step and the monitors' sums of the newest usable checkpoint (a
  /// damaged newer one is skipped, and the log says why); the plan continues from it.
  void restore_checkpoint(const std::filesystem::path& from, bool allow_changed_model);

  /// Opens the outputs (continued after a restart) and records step 0: starts every monitor.
  void open_outputs();

  /// Every step from the current one to the last, with its monitors; a failure marks the
  /// written files INCOMPLETE with the reason before it propagates, and a signal stops the loop
  /// after a complete step (stop()).
  void time_loop();

  /// The closing summary: steps, iterations, the monitors' summaries.
  void summary();

 private:
  /// initial_conditions.static_equilibrium: u becomes the static equilibrium under the loads at
  /// the start (the prescribed motion there included), its history committed; logged.
  void start_from_equilibrium();

  /// The run's monitors (app/monitors.hpp), in the loop's order: what each step's outputs are.
  void build_monitors();

  /// Appends a monitor to the list; returns it.
  template <class M, class... Args>
  M* add(Args&&... args) {
    auto m = std::make_unique<M>(std::forward<Args>(args)...);
    M* raw = m.get();
    monitors_.push_back(std::move(m));
    return raw;
  }

  void flush_monitors();

  /// A step that failed after parts of it converged (StepController::failed_part_way): the
  /// histories' rows at the end of the last part, numbered as the failed step, so that they end
  /// where the run got to (a restart from an earlier checkpoint drops them). `reason` gains a
  /// failure to record them.
  void record_reached(std::string& reason);

  /// What the loop was doing, for the INCOMPLETE marks.
  std::string activity() const;

  /// The outputs, then the histories, marked INCOMPLETE.
  void mark_failed(const std::string& reason);

  /// After a signal: a checkpoint of this step (if checkpoints are on), the files marked
  /// INCOMPLETE after their last complete step, and Interrupted for the exit status.
  void stop(int signal);

  /// One step with its velocity damping and the monitors that belong to it (history rows, the
  /// blow-up watch). `signal`: the signal received by any rank (0: none), agreed on every rank.
  StepView advance(StepController& steps, int& signal);
  /// A varying step: the next dt (AutoStep), the step's end on the clock and the estimate of
  /// the last step's number (the plan's steps and the schedule's last step).
  double next_auto_step();

  PlanInputs plan_inputs_;  ///< what the run measured for its plan (a restart plans again)
  RunPlan plan_;            ///< dt, steps, Rayleigh coefficients, output schedule (plan_run())
  FrequencyEstimate frequency_;
  double model_size_ = 1;   ///< the bounding box's diagonal
  ProbeSites probe_sites_;  ///< located by the model's report, handed to the probes' monitor
  bool restarting_ = false;
  State state_;
  std::unique_ptr<Integrator> integrator_;
  StepStats stats_;
  /// The outputs and watches, in the loop's order; split into those of the step (history rows,
  /// the blow-up watch) and those after it (frames, checkpoints, the progress line).
  MonitorList& monitors_;
  std::vector<Monitor*> step_monitors_, output_monitors_;
  bool wants_removed_kinetic_ = false;        ///< a monitor measures velocity damping's share
  CheckpointMonitor* checkpoints_ = nullptr;  ///< in monitors_, with checkpoints or --restart
  /// In monitors_ with a varying step (RunPlan::varying_dt): the next step's dt.
  AutoStep* auto_step_ = nullptr;
  double next_history_time_ = 0;       ///< OutputSchedule::history_due's clock
  std::optional<RunContext> context_;  ///< what the monitors see, once the outputs open
  bool resumed_ = false;               ///< --restart: continuing a checkpoint's run
  std::optional<SpaceReserve> reserve_;
  double loop_start_ = 0;
  std::int64_t first_step_ = 0, linear_its_ = 0, newton_its_ = 0;
  LoopActivity activity_ = LoopActivity::step;
};

}  // namespace inertia
