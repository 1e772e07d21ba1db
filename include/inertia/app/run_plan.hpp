#pragma once
/// \file run_plan.hpp
/// The run plan: the time step and where it came from, the step count and the end time, the
/// Rayleigh coefficients and the output schedule, computed once from the parsed case and the
/// few numbers the driver measures (the highest frequency, the modes, a checkpoint's step).
/// A pure function of plain values: no MPI, no PETSc, so unit tests call it directly
/// (tests/unit/app_run_plan.cpp). The parsed case stays as it was read.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inertia/app/case_file.hpp"

namespace inertia {

struct FrequencyEstimate;

/// A mode of the modal analysis, as the plan uses it.
struct PlanMode {
  double frequency = 0;  ///< Hz
  bool rigid = false;    ///< a rigid-body mode (0 Hz)
};

/// Where a run continues from (--restart): the checkpoint's step, time and dt, and with
/// time.rayleigh.modes the coefficients the run started with.
struct PlanRestart {
  std::int64_t step = 0;
  double time = 0;
  double dt = 0;
  std::optional<RayleighDamping> rayleigh;
};

/// What the driver measured before the plan.
struct PlanInputs {
  double highest_omega = 0;  ///< the highest frequency's estimate (rad/s), 0: none
  /// The modal analysis's modes in order (empty: it did not run, or has not yet).
  std::vector<PlanMode> modes;
  std::optional<PlanRestart> restart;
  /// The model is nonlinear (its cells deform): an explicit run's dt: auto then follows the
  /// mesh (RunPlan::varying_dt).
  bool nonlinear = false;
  /// time.mass_scaling (app/mass_scaling.hpp): dt: auto's calibration of the unscaled model
  /// (0: none) and the local cells' transit time factors.
  double mass_scaling_calibration = 0;
  std::shared_ptr<const std::vector<double>> mass_scaling_cells;
  /// A linear model's power iterations, kept for the analyses after the first of a sequence
  /// (the same operators give the same estimate): [0] with the system's own mass, [1] with the
  /// lumped masses standing in (estimate_highest_frequency's `lumped`). Null: not measured.
  std::shared_ptr<const FrequencyEstimate> linear_frequency[2];
};

/// Where the run's dt came from.
enum class DtSource {
  given,              ///< time.dt as written
  given_shortened,    ///< time.dt shortened to end exactly at end_time
  automatic,          ///< dt: auto, 0.9 x the stable step rounded down to 3 digits
  automatic_fitted,   ///< dt: auto, then shortened to end exactly at end_time
  automatic_varying,  ///< dt: auto recomputed every step (RunPlan::varying_dt)
  checkpoint,         ///< --restart: the checkpoint's dt
};

/// The rayleigh coefficients and the targets they come from.
struct RayleighPlan {
  RayleighDamping coefficients;
  /// time.rayleigh's targets (zeta, Hz), the modes' frequencies filled in once known.
  std::vector<std::pair<double, double>> targets;
  /// time.rayleigh.modes whose modes are not computed (--check): coefficients zero for now.
  bool pending = false;
};

/// Serial, pure. The Rayleigh coefficients: given, solved from damping ratios at two
/// frequencies (the case's), or at two modes of `modes` (time.rayleigh.modes; pending when
/// `modes` does not hold them). Throws InputError "<case>: time.rayleigh..." for a rigid-body
/// mode, two modes of one frequency, or ratios no positive coefficients give.
RayleighPlan plan_rayleigh(const CaseFile& c, const std::vector<PlanMode>& modes);

/// The output schedule: which steps write a frame, a history row, a checkpoint.
struct OutputSchedule {
  std::int64_t last_step = 0;
  double dt = 0;
  int frame_every = 0;        ///< output.every (steps), unless frame_interval > 0
  double frame_interval = 0;  ///< output.interval (s)
  int history_every = 1;      ///< output.history_every (steps), unless history_interval > 0
  /// A varying step (RunPlan::varying_dt): history rows at the first step at or after each
  /// multiple of output.history_every x the plan's dt (s), not every N steps.
  double history_interval = 0;
  int checkpoint_every = 0;  ///< output.checkpoint.every (0: none)

  bool frames() const { return frame_every > 0 || frame_interval > 0; }
  bool checkpoints() const { return checkpoint_every > 0; }
  /// A probe, reaction and energy row at step n: every history_every steps and the last.
  bool history_row(std::int64_t n) const { return n % history_every == 0 || n == last_step; }
  /// A checkpoint after step n: every checkpoint_every steps and the last.
  bool checkpoint_due(std::int64_t n) const {
    return checkpoint_every > 0 && (n % checkpoint_every == 0 || n == last_step);
  }
  /// output.interval: the first frame time after time t (the next multiple of the interval).
  double first_frame_time(double t) const;
  /// Whether step n writes a frame: with output.interval the first step at or after each
  /// multiple of the interval (moving `next_time` past the step's time when it does), with
  /// output.every every N steps; the last step always.
  bool frame_due(std::int64_t n, double& next_time) const;
  /// frame_due() at step n of time t (a varying step: the times are not n dt).
  bool frame_due(std::int64_t n, double t, double& next_time) const;
  /// A history row at step n of time t: history_row(n), or with history_interval the first
  /// step at or after each multiple of it (moving `next_time` as frame_due() does).
  bool history_due(std::int64_t n, double t, double& next_time) const;
  /// The frames of the steps after `step`, through frame_due() (on a copy of next_time).
  std::int64_t frames_after(std::int64_t step, double next_time) const;
};

/// The run plan (plan_run()).
struct RunPlan {
  double dt = 0;
  DtSource dt_source = DtSource::given;
  /// The dt of the case alone (without a checkpoint): dt unless dt_source is checkpoint.
  double case_dt = 0;
  std::int64_t steps = 0;  ///< the last step's number
  /// Where the run starts: 0, or the checkpoint's step and time.
  std::int64_t first_step = 0;
  double start_time = 0;
  /// The stable step of `stable_reference` (the scheme, or central difference for a scheme
  /// without one): stability_limit / highest_omega, infinite without an estimate.
  std::string stable_reference;
  double stability_limit = 0;
  double stable_dt = 0;
  /// dt: auto: the stable step rounded down to 3 digits, and 0.9 x it (before the fit to
  /// end_time), with end_time the steps that fit.
  double auto_rounded = 0, auto_unfitted = 0;
  std::int64_t auto_fit_steps = 0;
  /// A given dt above a conditionally stable scheme's stable step: what the error (or with
  /// time.allow_unstable the warning) says, else empty. refuse_unstable_dt() throws it.
  std::string exceeds_stable;
  RayleighPlan rayleigh;
  OutputSchedule schedule;
  bool ends_at_end_time = false;  ///< end_time given (not steps)
  /// dt: auto of an explicit scheme on a nonlinear model with end_time: the step is recomputed
  /// every step from the deforming cells (app/auto_step.hpp). dt is then the first step's
  /// estimate, the unit of the output clock (output.every and history_every count it), and
  /// steps the estimate of the last step's number, updated by the time loop as the step varies.
  bool varying_dt = false;
  double end_time = 0;  ///< the case's end_time (0 with steps)

  /// Where step 0 is on the run's time line: 0, or an analysis's start in a sequence.
  double origin = 0;

  /// The time of step n: origin + n dt (no drift), and origin + end_time at the last step of a
  /// run that ends there (n dt may miss it by an ulp).
  double time_of(std::int64_t n) const;
  /// dt x steps: the span of the run (a varying step: end_time).
  double duration() const { return varying_dt ? end_time : dt * static_cast<double>(steps); }
  /// origin + duration(): the end of the run as the log and the amplitudes' peaks count it.
  double end() const { return origin + duration(); }
};

/// The default dt: auto safety factor on the rounded stable step (time.safety_factor).
inline constexpr double auto_dt_safety = 0.9;

/// Serial, pure. The plan of a case with a time section. Throws plan_rayleigh()'s errors; a dt
/// above the stable step is only noted (RunPlan::exceeds_stable): the driver logs the stable
/// step first, then refuse_unstable_dt().
RunPlan plan_run(const CaseFile& c, const PlanInputs& in);

/// Throws InputError "<case>: time.dt: ... exceeds the stable step ..." where the plan's dt
/// exceeds the stable step and the case does not allow it (time.allow_unstable).
void refuse_unstable_dt(const CaseFile& c, const RunPlan& p);

}  // namespace inertia
