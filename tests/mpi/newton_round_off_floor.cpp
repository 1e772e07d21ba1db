// Newton at the round-off floor of the residual: a tolerance tighter than floating point allows
// is met as well as it can be (the stalled steps are accepted, with one warning), while a
// Newton that stalls far above that floor is still a failure that halves the step.
#include <gtest/gtest.h>

#include <cmath>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/step_control.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;

namespace {

/// What a run through the step controller did.
struct StepRun {
  std::unique_ptr<Model> model;
  State state;
  int retries = 0;                    ///< halvings of the step controller
  int at_round_off = 0;               ///< steps accepted at the round-off floor
  std::string failure;                ///< the SolverError that stopped the run, if any
  std::vector<std::string> warnings;  ///< solver notes that are warnings
  std::vector<double> floor_step;     ///< the residual history of the first step at the floor
};

/// Runs `yaml` to its end (or its first failure) with up to `halvings` step halvings, the
/// PETSc options `options` (name, value) set while the integrator builds its Newton solver.
StepRun run_steps(const std::string& yaml,
                  const std::vector<std::pair<const char*, const char*>>& options, int halvings) {
  StepRun r;
  const CaseFile c = parse_case(yaml, "floor.yaml");
  r.model = std::make_unique<Model>(build_model(MPI_COMM_WORLD, c));
  MechanicalSystem& s = *r.model->system;
  r.state = State{0.0, 0, s.create_vector(), s.create_vector()};
  s.apply_constraints(0.0, r.state.u, r.state.v, nullptr);
  auto integrator = c.scheme.create();
  for (const auto& [name, value] : options) PetscOptionsSetValue(nullptr, name, value);
  integrator->initialize(s, r.state);
  for (const auto& [name, value] : options) PetscOptionsClearValue(nullptr, name);
  StepController steps(halvings, [&](const std::string&) { ++r.retries; });
  try {
    for (std::int64_t n = 0; n < c.num_steps(); ++n) {
      const StepStats stats = steps.advance(s, *integrator, r.state, c.dt);
      r.state.time = c.dt * static_cast<double>(r.state.step);
      if (stats.nonlinear_reason == "CONVERGED_AT_ROUND_OFF" && r.at_round_off++ == 0)
        r.floor_step = stats.residuals;
    }
  } catch (const SolverError& e) {
    r.failure = e.what();
  }
  for (auto& note : s.take_solver_notes())
    if (note.starts_with("warning")) r.warnings.push_back(note);
  return r;
}

double norm(Vec x) {
  PetscReal n = 0;
  VecNorm(x, NORM_2, &n);
  return n;
}

}  // namespace

TEST(NewtonFloor, AStVKCantileverAtATolerancePastTheRoundOffFloorRunsWithoutHalvings) {
  // examples/large_deflection/dynamic.yaml with a St. Venant-Kirchhoff beam, 0.25 s of it. With
  // -snes_rtol 1e-12 -snes_atol 1e-10 its residual stalls at 5e-10 to 1e-9 from t = 0.16 s on (the
  // round-off of its stresses), above the 5.6e-10 to 1e-9 asked for: before, those steps were
  // failures, halved three times, and the run died at t = 0.17 s.
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.1, 0.1], cells: [20, 2, 2], element: "
      "tet10}}\n"
      "materials: [{region: all, model: saint_venant_kirchhoff, density: 1000, youngs_modulus: "
      "1.0e7, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: xmin, type: fixed},\n"
      "  {region: xmax, type: traction, value: [0, 0, -1.25e4], amplitude: step}]\n"
      "amplitudes: {step: {type: table, points: [[0, 0], [0.02, 1], [100, 1]]}}\n"
      "time: {integrator: newmark, newmark: {beta: 0.25, gamma: 0.5}, mass: consistent, "
      "dt: 0.01, end_time: 0.25}\n";
  const StepRun tight = run_steps(yaml, {{"-snes_rtol", "1e-12"}, {"-snes_atol", "1e-10"}}, 3);
  const StepRun usual = run_steps(yaml, {}, 3);
  MechanicalSystem& s = *tight.model->system;
  petsc::Vector du = s.create_vector();
  VecWAXPY(du, -1.0, usual.state.u, tight.state.u);
  const double relative = norm(du) / norm(usual.state.u);
  const double tip = global_value(tight.state.u, dof_near(s, {1, 0.05, 0.05}, 2));
  if (rank_of(MPI_COMM_WORLD) == 0) {
    std::printf("  %d of 25 steps accepted at the round-off floor, %d halvings%s%s\n",
                tight.at_round_off, tight.retries,
                tight.failure.empty() ? "" : "; failure: ", tight.failure.c_str());
    std::printf("  first such step's residuals:");
    for (double x : tight.floor_step) std::printf(" %.3g", x);
    std::printf("\n  %s\n", tight.warnings.empty() ? "(no warning)" : tight.warnings[0].c_str());
    std::printf("  tip deflection %.9f m; |u - u(default tolerances)| / |u| = %.2e\n", tip,
                relative);
  }
  EXPECT_EQ(tight.failure, "");
  EXPECT_EQ(tight.retries, 0);
  EXPECT_EQ(tight.state.step, 25);
  EXPECT_GE(tight.at_round_off, 1);      // the floor was reached, and accepted
  EXPECT_EQ(tight.warnings.size(), 1u);  // once per run, however many steps stall
  EXPECT_EQ(usual.failure, "");
  EXPECT_EQ(usual.retries, 0);
  EXPECT_LT(tip, -0.1);       // the beam is well into its large deflection
  EXPECT_LT(relative, 1e-9);  // the accepted steps are the converged ones
}

TEST(NewtonFloor, AStVKBlockPastItsCompressiveLimitLoadStillFailsAndHalvesItsStep) {
  // St. Venant-Kirchhoff softens in compression: with nu = 0 its uniaxial nominal stress
  // E (l^3 - l) / 2 peaks at E / (3 sqrt 3) = 1.92 Pa for E = 10 Pa (stretch 1/sqrt 3). A dead
  // compressive traction ramped to 5 Pa passes that limit near t = 0.38: Newton then stalls with
  // ||G|| ~ 1 N, ten to fifteen orders above its round-off floor, and that step must still fail
  // (DIVERGED_MAX_IT, halved twice) rather than be accepted.
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: tet4}}\n"
      "materials: [{region: all, model: saint_venant_kirchhoff, density: 1, youngs_modulus: 10, "
      "poissons_ratio: 0.0}]\n"
      "boundary_conditions: [{region: zmin, type: fixed},\n"
      "  {region: zmax, type: traction, value: [0, 0, -5]}]\n"
      "time: {integrator: static, dt: 0.25, steps: 4}\n";
  const StepRun r = run_steps(yaml, {}, 2);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %d halvings; %s\n", r.retries, r.failure.c_str());
  EXPECT_NE(r.failure.find("DIVERGED_MAX_IT"), std::string::npos) << r.failure;
  EXPECT_NE(r.failure.find("after 2 halvings"), std::string::npos) << r.failure;
  EXPECT_GE(r.retries, 2);
  EXPECT_EQ(r.at_round_off, 0);
  EXPECT_TRUE(r.warnings.empty());
}
