// The energy balance (energy.csv, EnergyHistory) of the Newmark-family schemes, on any rank
// count: with an algorithmic_dissipation column from the scheme's discrete energy identity, the
// total of hht, generalized_alpha and a damped Newmark closes to the solver's tolerance on a
// linear model with fixed supports (consistent or lumped mass, Rayleigh damping or not), the
// dissipation is positive where a sudden load excites modes the step does not resolve, and a
// balance told the wrong scheme drifts (the column is not the residual).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;
using test::number;
using test::Simulation;
using test::start;
using test::TightSolves;

namespace {

/// A hex8 cantilever (clamped at xmin) under a sudden tip traction, 80 steps of 2 ms: its
/// highest modes have omega h of order 10^2, which the alpha schemes damp.
std::string cantilever(const std::string& time) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [8, 2, 2], element: "
         "hex8}}\n"
         "materials: [{region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}]\n"
         "boundary_conditions: [{region: xmin, type: fixed},\n"
         "  {region: xmax, type: traction, value: [0, 0, -2.0e4]}]\n"
         "time: {" +
         time + "}\n";
}

/// An integrator that steps as `real` but tells the energy balance other weights.
class Misreported final : public Integrator {
 public:
  Misreported(std::unique_ptr<Integrator> real, NewmarkWeights told)
      : real_(std::move(real)), told_(told) {}
  std::string_view name() const override { return real_->name(); }
  StepStats initialize(DynamicSystem& s, State& state) override {
    return real_->initialize(s, state);
  }
  StepStats step(DynamicSystem& s, State& state, double dt) override {
    return real_->step(s, state, dt);
  }
  Vec acceleration() const override { return real_->acceleration(); }
  std::optional<NewmarkWeights> newmark_weights() const override { return told_; }

 private:
  std::unique_ptr<Integrator> real_;
  NewmarkWeights told_;
};

struct Balance {
  double worst = 0;        ///< largest |total - its start| over the run
  double scale = 0;        ///< largest energy term over the run
  double algorithmic = 0;  ///< the algorithmic dissipation at the end
  double work = 0;
};

Balance run_balance(Simulation& r, Integrator& integrator, double dt, int steps) {
  MechanicalSystem& s = r.system();
  const auto dir = test::fresh_output_dir("energy_balance");
  Balance b;
  EnergyHistory energy(s, r.state, integrator, dir / "energy.csv");
  for (int n = 0; n < steps; ++n) {
    energy.before_step(s, r.state);
    integrator.step(s, r.state, dt);
    energy.after_step(s, r.state, dt, 0.0);
    b.worst = std::max(b.worst, std::abs(energy.balance()));
    b.scale = std::max(b.scale, energy.largest_term());
  }
  b.algorithmic = energy.algorithmic_dissipation();
  b.work = energy.external_work();
  return b;
}

/// (time: keys of the scheme, mass, Rayleigh damping)
class AlgorithmicDissipation
    : public TightSolves,
      public testing::WithParamInterface<std::tuple<const char*, const char*, bool>> {};

}  // namespace

TEST_P(AlgorithmicDissipation, TotalClosesToTheSolverTolerance) {
  const auto [scheme, mass, damped] = GetParam();
  Simulation r = start(cantilever(std::string(scheme) + ", dt: 0.002, steps: 80, mass: " + mass +
                                  (damped ? ", rayleigh: {mass: 2.0, stiffness: 2.0e-5}" : "")));
  const Balance b = run_balance(r, *r.integrator, 0.002, 80);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  %s, %s mass%s: balance %.2e of %.3g J; algorithmic dissipation %.4g J (%.3g "
        "of the work)\n",
        scheme, mass, damped ? ", Rayleigh" : "", b.worst / b.scale, b.scale, b.algorithmic,
        b.algorithmic / b.work);
  EXPECT_LT(b.worst, 1e-10 * b.scale);
  EXPECT_GT(b.algorithmic, 1e-5 * b.work);  // the sudden load's unresolved modes are damped
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, AlgorithmicDissipation,
    testing::Combine(testing::Values("integrator: hht", "integrator: hht, hht: {alpha: -0.3}",
                                     "integrator: generalized_alpha",
                                     "integrator: generalized_alpha, generalized_alpha: "
                                     "{rho_infinity: 0}",
                                     "integrator: newmark, newmark: {beta: 0.3025, gamma: 0.6}"),
                     testing::Values("consistent", "lumped"), testing::Bool()));

TEST_F(TightSolves, TheTrapezoidalRuleHasNoAlgorithmicDissipationColumn) {
  // Newmark's trapezoidal rule conserves energy: its balance closes with no such column, and
  // the alpha schemes at their Newmark settings have one that stays at round-off.
  Simulation newmark = start(cantilever("integrator: newmark, dt: 0.002, steps: 80"));
  const Balance b = run_balance(newmark, *newmark.integrator, 0.002, 80);
  EXPECT_FALSE(EnergyHistory::has_carried(*newmark.integrator));
  EXPECT_LT(b.worst, 1e-10 * b.scale);
  EXPECT_EQ(b.algorithmic, 0.0);
  Simulation alpha = start(cantilever(
      "integrator: generalized_alpha, generalized_alpha: {rho_infinity: 1}, dt: 0.002, steps: 80"));
  const Balance a = run_balance(alpha, *alpha.integrator, 0.002, 80);
  EXPECT_TRUE(EnergyHistory::has_carried(*alpha.integrator));
  EXPECT_LT(std::abs(a.algorithmic), 1e-10 * a.scale);
  EXPECT_LT(a.worst, 1e-10 * a.scale);
}

TEST_F(TightSolves, ABalanceToldTheWrongSchemeDoesNotClose) {
  // The identity uses the weights of the balance the scheme solves: steps of hht at -0.05 booked
  // as hht at -0.1, or generalized_alpha at 0.8 as at 0.6, leave total drifting.
  struct Case {
    const char* scheme;
    NewmarkWeights told;
  };
  const double alpha = -0.1, rho = 0.6;
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  for (const Case& c :
       {Case{"integrator: hht", {0, -alpha, (1 - alpha) * (1 - alpha) / 4, 0.5 - alpha}},
        Case{"integrator: generalized_alpha",
             {am, af, (1 - am + af) * (1 - am + af) / 4, 0.5 - am + af}}}) {
    Simulation r = start(cantilever(std::string(c.scheme) + ", dt: 0.002, steps: 80"));
    Misreported wrong(std::move(r.integrator), c.told);
    const Balance b = run_balance(r, wrong, 0.002, 80);
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("  %s booked with other weights: balance %.3g of %.3g J\n", c.scheme, b.worst,
                  b.scale);
    EXPECT_GT(b.worst, 1e-4 * b.scale) << c.scheme;
  }
}
