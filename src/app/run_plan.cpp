#include "inertia/app/run_plan.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/text.hpp"
#include "inertia/system/spectrum.hpp"

namespace inertia {

RayleighPlan plan_rayleigh(const CaseFile& c, const std::vector<PlanMode>& modes) {
  RayleighPlan r{c.rayleigh, c.rayleigh_targets, false};
  const auto& m = c.rayleigh_modes;
  if (m.empty()) return r;  // given, or solved from frequencies when the case was read
  if (static_cast<std::size_t>(std::max(m[0], m[1])) > modes.size()) {
    r.pending = true;  // the modal analysis has not run (--check) or found too few modes
    return r;
  }
  // time.rayleigh: {damping_ratios, modes}: the targets at those modes' frequencies.
  for (int i = 0; i < 2; ++i) {
    const PlanMode& mode = modes.at(static_cast<std::size_t>(m[i] - 1));
    INERTIA_CHECK(!mode.rigid, InputError, c.path.string(), ": time.rayleigh.modes: mode ", m[i],
                  " is a rigid-body mode (0 Hz); pick elastic modes");
    r.targets[i].second = mode.frequency;
  }
  const auto& t = r.targets;
  INERTIA_CHECK(std::abs(t[0].second - t[1].second) > 1e-9 * t[1].second, InputError,
                c.path.string(), ": time.rayleigh.modes: modes ", m[0], " and ", m[1],
                " have the same frequency (", t[0].second, " Hz); pick two distinct frequencies");
  const auto solved = rayleigh_from_ratios(t[0].first, t[0].second, t[1].first, t[1].second);
  INERTIA_CHECK(solved, InputError, c.path.string(), ": time.rayleigh: ",
                rayleigh_ratio_problem(t[0].first, t[0].second, t[1].first, t[1].second));
  r.coefficients = *solved;
  return r;
}

double OutputSchedule::first_frame_time(double t) const {
  return (std::floor((t + 1e-9 * dt) / frame_interval) + 1) * frame_interval;
}

namespace {

/// The first step at or after each multiple of `interval`, moving next_time past t.
bool passed(double t, double interval, double& next_time) {
  if (t < next_time) return false;
  while (next_time <= t) next_time += interval;
  return true;
}

}  // namespace

bool OutputSchedule::frame_due(std::int64_t n, double& next_time) const {
  return frame_due(n, dt * static_cast<double>(n), next_time);
}

bool OutputSchedule::frame_due(std::int64_t n, double t, double& next_time) const {
  if (n == last_step) return true;
  if (frame_interval <= 0) return n % frame_every == 0;
  return passed(t + 1e-9 * dt, frame_interval, next_time);
}

bool OutputSchedule::history_due(std::int64_t n, double t, double& next_time) const {
  if (history_interval <= 0 || n == last_step) return history_row(n);
  return passed(t + 1e-9 * dt, history_interval, next_time);
}

std::int64_t OutputSchedule::frames_after(std::int64_t step, double next_time) const {
  std::int64_t frames = 0;
  for (std::int64_t n = step + 1; n <= last_step; ++n) frames += frame_due(n, next_time);
  return frames;
}

double RunPlan::time_of(std::int64_t n) const {
  const double t = dt * static_cast<double>(n);
  const bool at_end = n == steps && ends_at_end_time && std::abs(t - end_time) <= 1e-9 * t;
  return origin + (at_end ? end_time : t);
}

namespace {

/// The case's steps with step dt: `steps`, or those of dt up to end_time.
std::int64_t steps_of(const CaseFile& c, double dt) {
  if (c.steps > 0) return c.steps;
  if (!(dt > 0)) return 0;
  return steps_to_end_time(c.end_time, dt).steps;
}

}  // namespace

RunPlan plan_run(const CaseFile& c, const PlanInputs& in) {
  RunPlan p;
  const Scheme& scheme = c.scheme;
  p.ends_at_end_time = c.steps == 0;
  p.end_time = c.end_time;
  p.origin = p.start_time = c.start_time;
  // The stable step of the chosen scheme, or of central difference for the others.
  const Scheme reference =
      scheme.conditionally_stable() ? scheme : configure_scheme("central_difference");
  p.stable_reference = reference.name();
  p.stability_limit = reference.stability_limit();
  const double omega = in.highest_omega;
  p.stable_dt = omega > 0 ? p.stability_limit / omega : INFINITY;
  p.varying_dt = c.dt_auto && scheme.is_explicit() && in.nonlinear && c.steps == 0;
  if (p.varying_dt) {
    // The first step's estimate: the output clock's unit; the loop recomputes every step.
    p.auto_rounded = round_down_to_digits(p.stable_dt, 3);
    p.dt = p.auto_unfitted = c.safety_factor * p.auto_rounded;
    p.dt_source = DtSource::automatic_varying;
    p.auto_fit_steps = steps_to_end_time(c.end_time, p.dt).steps;
  } else if (c.dt_auto) {
    // 3 digits of the stable step: the same bits on every rank count (spectrum.hpp); then, with
    // end_time, equal steps that end exactly there.
    p.auto_rounded = round_down_to_digits(p.stable_dt, 3);
    p.dt = p.auto_unfitted = c.safety_factor * p.auto_rounded;
    p.dt_source = DtSource::automatic;
    if (c.steps == 0) {
      const StepsToEndTime fit = steps_to_end_time(c.end_time, p.dt);
      p.auto_fit_steps = fit.steps;
      if (fit.dt != p.dt) p.dt_source = DtSource::automatic_fitted;
      p.dt = fit.dt;
    }
  } else {
    p.dt = c.dt;  // time.dt, shortened to end at end_time when the case was read
    p.dt_source = c.dt != c.dt_requested ? DtSource::given_shortened : DtSource::given;
    if (scheme.conditionally_stable() && c.dt > p.stable_dt) {
      const std::string what =
          cat("time.dt: ", c.dt, " s exceeds the stable step of ", scheme.name(), ", ", p.stable_dt,
              " s (omega_max ~ ", omega, " rad/s, omega h = ", c.dt * omega, " > ",
              p.stability_limit, ")");
      p.exceeds_stable = what;
    }
  }
  p.case_dt = p.dt;
  p.rayleigh = plan_rayleigh(c, in.modes);
  if (in.restart) {
    // The checkpoint's dt, whatever this rank count's estimate (dt: auto) or a changed end_time
    // would give: the steps repeat exactly, and the step count comes from end_time and that dt.
    p.dt = in.restart->dt;
    if (!p.varying_dt) p.dt_source = DtSource::checkpoint;
    p.first_step = in.restart->step;
    p.start_time = in.restart->time;
    // Damping solved from modes continues with the coefficients the run started with.
    if (!c.rayleigh_modes.empty() && in.restart->rayleigh)
      p.rayleigh.coefficients = *in.restart->rayleigh;
  }
  p.steps = steps_of(c, p.dt);
  if (p.varying_dt && in.restart) {
    // An estimate the loop corrects: the checkpoint's step and the steps of dt to end_time.
    const double left = p.origin + c.end_time - p.start_time;
    p.steps = p.first_step + (left > 1e-9 * p.dt ? steps_to_end_time(left, p.dt).steps : 0);
  }
  p.schedule = {p.steps,         p.dt, c.output_every,    c.output_interval,
                c.history_every, 0,    c.checkpoint_every};
  if (p.varying_dt) {
    // The step varies: frames and rows on the clock, output.every and history_every in units of
    // the first step's estimate (the spacing they have at the start), not counts of steps.
    if (c.output_every > 0 && !(c.output_interval > 0)) {
      p.schedule.frame_interval = p.dt * c.output_every;
      p.schedule.frame_every = 0;
    }
    if (c.history_every > 1) p.schedule.history_interval = p.dt * c.history_every;
  }
  return p;
}

void refuse_unstable_dt(const CaseFile& c, const RunPlan& p) {
  if (!p.exceeds_stable.empty() && !c.allow_unstable)
    throw InputError(cat(c.path.string(), ": ", p.exceeds_stable,
                         "; use a smaller dt, dt: auto, or time.allow_unstable: true"));
}

}  // namespace inertia
