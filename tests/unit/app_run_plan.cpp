// The run plan (app/run_plan.hpp): dt and where it came from, the step count, the Rayleigh
// coefficients and the output schedule as a pure function of the parsed case and the numbers the
// driver measures, without MPI or PETSc.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "inertia/app/run_plan.hpp"
#include "inertia/core/error.hpp"

namespace inertia {
namespace {

/// A case with the given `time:` body and `output:` body.
CaseFile parse(const std::string& time, const std::string& output = "",
               const std::string& extra = "") {
  const std::string text =
      "mesh:\n"
      "  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}\n"
      "materials:\n"
      "  - {region: all, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.3}\n" +
      extra + "time:\n" + time + (output.empty() ? std::string() : "output:\n" + output);
  return parse_case(text, "plan.yaml");
}

TEST(RunPlan, GivenDtAndSteps) {
  const CaseFile c = parse("  {integrator: newmark, dt: 0.01, steps: 50}\n");
  const RunPlan p = plan_run(c, {});
  EXPECT_EQ(p.dt, 0.01);
  EXPECT_EQ(p.dt_source, DtSource::given);
  EXPECT_EQ(p.steps, 50);
  EXPECT_EQ(p.first_step, 0);
  EXPECT_EQ(p.start_time, 0.0);
  EXPECT_FALSE(p.ends_at_end_time);
  EXPECT_DOUBLE_EQ(p.duration(), 0.5);
  EXPECT_EQ(p.time_of(7), 0.01 * 7);
  // Newmark has no stable step: central difference's is the reference.
  EXPECT_EQ(p.stable_reference, "central_difference");
  EXPECT_EQ(p.stability_limit, 2.0);
  EXPECT_TRUE(std::isinf(p.stable_dt));  // no estimate given
  EXPECT_TRUE(p.exceeds_stable.empty());
}

TEST(RunPlan, EndTimeDividedByDt) {
  const CaseFile c = parse("  {integrator: newmark, dt: 0.1, end_time: 0.3}\n");
  const RunPlan p = plan_run(c, {});
  EXPECT_EQ(p.dt_source, DtSource::given);
  EXPECT_EQ(p.steps, 3);
  EXPECT_EQ(p.dt, 0.1);
  EXPECT_TRUE(p.ends_at_end_time);
  EXPECT_EQ(p.time_of(3), 0.3);  // end_time itself, not 3 x 0.1
}

TEST(RunPlan, ShortenedDtEndsExactlyAtEndTime) {
  const CaseFile c = parse("  {integrator: newmark, dt: 0.3, end_time: 1.0}\n");
  const RunPlan p = plan_run(c, {});
  EXPECT_EQ(p.dt_source, DtSource::given_shortened);
  EXPECT_EQ(p.steps, 4);
  EXPECT_DOUBLE_EQ(p.dt, 0.25);
  EXPECT_EQ(p.time_of(4), 1.0);
  EXPECT_EQ(p.case_dt, p.dt);
}

TEST(RunPlan, DtAutoFromTheStableStep) {
  const CaseFile c = parse("  {integrator: central_difference, dt: auto, steps: 20}\n");
  const double omega = 1234.5;
  const RunPlan p = plan_run(c, {omega, {}, {}});
  EXPECT_EQ(p.stable_reference, "central_difference");
  EXPECT_DOUBLE_EQ(p.stable_dt, 2.0 / omega);
  // 2 / 1234.5 = 0.0016201...: rounded down to 3 digits 0.00162, times 0.9.
  EXPECT_DOUBLE_EQ(p.auto_rounded, 0.00162);
  EXPECT_DOUBLE_EQ(p.dt, 0.9 * 0.00162);
  EXPECT_EQ(p.dt_source, DtSource::automatic);
  EXPECT_EQ(p.steps, 20);
}

TEST(RunPlan, DtAutoFittedToEndTime) {
  const CaseFile c = parse("  {integrator: central_difference, dt: auto, end_time: 0.01}\n");
  const RunPlan p = plan_run(c, {1234.5, {}, {}});
  // 0.01 / 0.001458 = 6.86: 7 steps of end_time / 7.
  EXPECT_EQ(p.dt_source, DtSource::automatic_fitted);
  EXPECT_DOUBLE_EQ(p.auto_unfitted, 0.9 * 0.00162);
  EXPECT_EQ(p.auto_fit_steps, 7);
  EXPECT_EQ(p.steps, 7);
  EXPECT_DOUBLE_EQ(p.dt, 0.01 / 7);
  EXPECT_EQ(p.time_of(7), 0.01);
}

TEST(RunPlan, DtAutoThatDividesEndTime) {
  // 2 / 1000 = 0.002, x 0.9 = 0.0018; end_time 0.018 is 10 steps of it.
  const CaseFile c = parse("  {integrator: central_difference, dt: auto, end_time: 0.018}\n");
  const RunPlan p = plan_run(c, {1000, {}, {}});
  EXPECT_EQ(p.dt_source, DtSource::automatic);
  EXPECT_EQ(p.auto_fit_steps, 10);
  EXPECT_EQ(p.steps, 10);
}

TEST(RunPlan, GivenDtAboveTheStableStep) {
  const CaseFile c = parse("  {integrator: central_difference, dt: 0.01, steps: 10}\n");
  const RunPlan p = plan_run(c, {1000, {}, {}});
  EXPECT_EQ(p.exceeds_stable,
            "time.dt: 0.01 s exceeds the stable step of central_difference, 0.002 s (omega_max ~ "
            "1000 rad/s, omega h = 10 > 2)");
  try {
    refuse_unstable_dt(c, p);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("plan.yaml: time.dt: 0.01 s exceeds"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("time.allow_unstable: true"), std::string::npos);
  }
  const CaseFile allowed =
      parse("  {integrator: central_difference, dt: 0.01, steps: 10, allow_unstable: true}\n");
  EXPECT_NO_THROW(refuse_unstable_dt(allowed, plan_run(allowed, {1000, {}, {}})));
  // Below the stable step: nothing to say.
  EXPECT_TRUE(plan_run(c, {100, {}, {}}).exceeds_stable.empty());
}

TEST(RunPlan, RayleighGivenOrFromFrequencies) {
  const CaseFile given = parse(
      "  {integrator: newmark, dt: 0.01, steps: 5, rayleigh: {mass: 0.5, stiffness: 1e-4}}\n");
  const RunPlan g = plan_run(given, {});
  EXPECT_EQ(g.rayleigh.coefficients.mass, 0.5);
  EXPECT_EQ(g.rayleigh.coefficients.stiffness, 1e-4);
  EXPECT_TRUE(g.rayleigh.targets.empty());
  EXPECT_FALSE(g.rayleigh.pending);

  const CaseFile ratios = parse(
      "  {integrator: newmark, dt: 0.01, steps: 5,\n"
      "   rayleigh: {damping_ratios: [0.02, 0.05], frequencies: [5, 50]}}\n");
  const RunPlan r = plan_run(ratios, {});
  const auto& k = r.rayleigh.coefficients;
  EXPECT_NEAR(k.ratio(2 * std::numbers::pi * 5), 0.02, 1e-12);
  EXPECT_NEAR(k.ratio(2 * std::numbers::pi * 50), 0.05, 1e-12);
  ASSERT_EQ(r.rayleigh.targets.size(), 2u);
  EXPECT_EQ(r.rayleigh.targets[1].second, 50);
}

TEST(RunPlan, RayleighThroughTwoModes) {
  const std::string time =
      "  {integrator: newmark, dt: 0.01, steps: 5,\n"
      "   rayleigh: {damping_ratios: [0.02, 0.05], modes: [1, 3]}}\n";
  const CaseFile c = parse(time, "", "modal: {modes: 4}\n");
  // Before the modal analysis (--check): pending, no coefficients.
  const RunPlan before = plan_run(c, {});
  EXPECT_TRUE(before.rayleigh.pending);
  EXPECT_EQ(before.rayleigh.coefficients.mass, 0.0);
  EXPECT_EQ(before.rayleigh.targets[0].second, 0.0);
  // With the modes: the targets at modes 1 and 3.
  PlanInputs in;
  in.modes = {{2.0, false}, {7.0, false}, {20.0, false}, {31.0, false}};
  const RunPlan after = plan_run(c, in);
  EXPECT_FALSE(after.rayleigh.pending);
  EXPECT_EQ(after.rayleigh.targets[0].second, 2.0);
  EXPECT_EQ(after.rayleigh.targets[1].second, 20.0);
  const auto& k = after.rayleigh.coefficients;
  EXPECT_NEAR(k.ratio(2 * std::numbers::pi * 2), 0.02, 1e-12);
  EXPECT_NEAR(k.ratio(2 * std::numbers::pi * 20), 0.05, 1e-12);
  // The case itself is unchanged.
  EXPECT_EQ(c.rayleigh.mass, 0.0);
  EXPECT_EQ(c.rayleigh_targets[0].second, 0.0);

  // A rigid-body mode, or two modes of one frequency: one-line errors.
  in.modes[0].rigid = true;
  EXPECT_THROW(plan_rayleigh(c, in.modes), InputError);
  try {
    plan_rayleigh(c, in.modes);
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "plan.yaml: time.rayleigh.modes: mode 1 is a rigid-body mode (0 Hz); pick elastic "
              "modes");
  }
  in.modes = {{5.0, false}, {7.0, false}, {5.0, false}, {31.0, false}};
  EXPECT_THROW(plan_rayleigh(c, in.modes), InputError);
}

TEST(RunPlan, OutputScheduleEverySteps) {
  const CaseFile c = parse("  {integrator: newmark, dt: 0.01, steps: 23}\n",
                           "  every: 5\n  history_every: 4\n  checkpoint: {every: 10}\n");
  const OutputSchedule& s = plan_run(c, {}).schedule;
  EXPECT_TRUE(s.frames());
  EXPECT_TRUE(s.checkpoints());
  double next = 0;
  std::vector<std::int64_t> frames, rows, checkpoints;
  for (std::int64_t n = 1; n <= 23; ++n) {
    if (s.frame_due(n, next)) frames.push_back(n);
    if (s.history_row(n)) rows.push_back(n);
    if (s.checkpoint_due(n)) checkpoints.push_back(n);
  }
  EXPECT_EQ(frames, (std::vector<std::int64_t>{5, 10, 15, 20, 23}));
  EXPECT_EQ(rows, (std::vector<std::int64_t>{4, 8, 12, 16, 20, 23}));
  EXPECT_EQ(checkpoints, (std::vector<std::int64_t>{10, 20, 23}));
  EXPECT_EQ(s.frames_after(0, 0), 5);
  EXPECT_EQ(s.frames_after(12, 0), 3);
}

TEST(RunPlan, OutputScheduleByInterval) {
  // dt 0.003, frames every 0.01 s: the first step at or after each multiple, and the last.
  const CaseFile c = parse("  {integrator: newmark, dt: 0.003, steps: 12}\n", "  interval: 0.01\n");
  const RunPlan p = plan_run(c, {});
  const OutputSchedule& s = p.schedule;
  double next = s.first_frame_time(0);
  EXPECT_DOUBLE_EQ(next, 0.01);
  std::vector<std::int64_t> frames;
  for (std::int64_t n = 1; n <= 12; ++n)
    if (s.frame_due(n, next)) frames.push_back(n);
  EXPECT_EQ(frames, (std::vector<std::int64_t>{4, 7, 10, 12}));
  EXPECT_EQ(s.frames_after(0, s.first_frame_time(0)), 4);
  // No frames at all.
  const CaseFile none = parse("  {integrator: newmark, dt: 0.01, steps: 3}\n", "  every: 0\n");
  EXPECT_FALSE(plan_run(none, {}).schedule.frames());
  EXPECT_FALSE(plan_run(none, {}).schedule.checkpoints());
}

TEST(RunPlan, RestartMidRun) {
  const CaseFile c = parse("  {integrator: central_difference, dt: auto, end_time: 0.01}\n",
                           "  interval: 0.002\n");
  // The checkpoint's dt (another rank count's estimate) wins over this run's estimate.
  PlanInputs in{1234.5, {}, PlanRestart{4, 4 * 0.001, 0.001, std::nullopt}};
  const RunPlan p = plan_run(c, in);
  EXPECT_EQ(p.dt_source, DtSource::checkpoint);
  EXPECT_EQ(p.dt, 0.001);
  EXPECT_DOUBLE_EQ(p.case_dt, 0.01 / 7);  // what this case alone would step
  EXPECT_EQ(p.first_step, 4);
  EXPECT_EQ(p.start_time, 0.004);
  EXPECT_EQ(p.steps, 10);
  EXPECT_EQ(p.time_of(10), 0.01);
  // The frames after the restart: from the next multiple of the interval after its time.
  const OutputSchedule& s = p.schedule;
  EXPECT_DOUBLE_EQ(s.first_frame_time(p.start_time), 0.006);
  EXPECT_EQ(s.frames_after(p.first_step, s.first_frame_time(p.start_time)), 3);  // 6, 8, 10

  // Damping from modes continues with the checkpoint's coefficients.
  const CaseFile m = parse(
      "  {integrator: newmark, dt: 0.01, steps: 8,\n"
      "   rayleigh: {damping_ratios: [0.02, 0.05], modes: [1, 2]}}\n",
      "", "modal: {modes: 2}\n");
  PlanInputs modal{
      0, {{2.0, false}, {7.0, false}}, PlanRestart{3, 0.03, 0.01, RayleighDamping{0.25, 1e-3}}};
  const RunPlan q = plan_run(m, modal);
  EXPECT_EQ(q.rayleigh.coefficients.mass, 0.25);
  EXPECT_EQ(q.rayleigh.coefficients.stiffness, 1e-3);
  EXPECT_EQ(q.rayleigh.targets[1].second, 7.0);
  EXPECT_EQ(q.steps, 8);
  EXPECT_EQ(q.first_step, 3);
}

}  // namespace
}  // namespace inertia

namespace inertia {
namespace {

TEST(RunPlan, VaryingStepOnTheClock) {
  // dt: auto of an explicit scheme on a nonlinear model: the step varies; dt is the first step's
  // estimate (time.safety_factor x the stable step, 3 digits), the unit of the output clock.
  const CaseFile c = parse(
      "  {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.01,\n"
      "   safety_factor: 0.5}\n",
      "  every: 3\n  history_every: 2\n");
  PlanInputs in;
  in.highest_omega = 2 / 0.0012345;  // stable step 0.0012345 s -> 0.00123
  in.nonlinear = true;
  const RunPlan p = plan_run(c, in);
  EXPECT_TRUE(p.varying_dt);
  EXPECT_EQ(p.dt_source, DtSource::automatic_varying);
  EXPECT_EQ(p.dt, 0.5 * 0.00123);
  EXPECT_EQ(p.duration(), 0.01);  // end_time, whatever the steps
  OutputSchedule s = p.schedule;
  s.last_step = 1000;  // the loop's estimate of the last step, updated as the step varies
  EXPECT_EQ(s.frame_every, 0);
  EXPECT_DOUBLE_EQ(s.frame_interval, 3 * p.dt);
  EXPECT_DOUBLE_EQ(s.history_interval, 2 * p.dt);
  // Steps of 0.0004 s, then 0.0002 s: rows at the first step at or after each 0.00123 s, not
  // every second step; the last step always.
  double t = 0, next = s.history_interval;
  std::vector<std::int64_t> rows;
  for (std::int64_t n = 1; n <= 20; ++n) {
    t += n <= 5 ? 0.0004 : 0.0002;
    if (s.history_due(n, t, next)) rows.push_back(n);
  }
  EXPECT_EQ(rows, (std::vector<std::int64_t>{4, 8, 14, 20}));  // 1.6, 2.6, 3.8, 5.0 ms
  // A linear model, or steps given: one step as before.
  in.nonlinear = false;
  EXPECT_FALSE(plan_run(c, in).varying_dt);
  in.nonlinear = true;
  const CaseFile steps =
      parse("  {integrator: central_difference, mass: lumped, dt: auto, steps: 10}\n");
  EXPECT_FALSE(plan_run(steps, in).varying_dt);
}

}  // namespace
}  // namespace inertia
