// Explicit schemes on systems whose answers are known exactly: central difference at Courant
// number 1 reproduces d'Alembert's solution for a bar; each conditionally stable scheme is stable
// just below its omega h limit and grows just above it on a spring chain; the stable-step estimate
// against the exact highest frequency of two meshes.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/spectrum.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;

namespace {

struct Simulation {
  CaseFile c;
  Model model;
  State state;
  std::unique_ptr<Integrator> integrator;
  MechanicalSystem& system() { return *model.system; }
};

std::unique_ptr<Simulation> start(const std::string& yaml) {
  auto sim = std::make_unique<Simulation>();
  sim->c = parse_case(yaml, "explicit.yaml");
  sim->model = build_model(MPI_COMM_WORLD, sim->c);
  MechanicalSystem& s = sim->system();
  sim->state.u = s.create_vector();
  sim->state.v = s.create_vector();
  s.apply_constraints(0.0, sim->state.u, sim->state.v, nullptr);
  sim->integrator = sim->c.scheme.create();
  sim->integrator->initialize(s, sim->state);
  return sim;
}

/// A fixed-free bar along x (L = 1, E = rho = 1, nu = 0, 10 hex8 cells), lateral motion fixed:
/// a 1D chain with lumped masses, c = 1, dx = 0.1. Sudden traction sigma on the free end.
std::string bar_case(const std::string& time) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 1, 1], "
         "element: hex8}}\n"
         "materials: [{region: all, density: 1.0, youngs_modulus: 1.0, poissons_ratio: 0.0}]\n"
         "boundary_conditions:\n"
         "  - {region: all, type: fixed, components: [y, z]}\n"
         "  - {region: xmin, type: fixed, components: [x]}\n"
         "  - {region: xmax, type: traction, value: [0.001, 0, 0]}\n"
         "time: {" +
         time + "}\n";
}

/// d'Alembert: tip displacement of the fixed-free bar (c = E = 1, L = 1) under a sudden end
/// stress sigma: rises as sigma t to 2 sigma at t = 2, returns to 0 at t = 4, periodically.
double dalembert_tip(double sigma, double t) {
  const double tau = std::fmod(t, 4.0);
  return sigma * (tau <= 2 ? tau : 4 - tau);
}

double chain_omega_max(int n) {
  return 2 * std::sqrt(400 / 0.25) * std::sin(n * std::numbers::pi / (2 * (n + 1)));
}

}  // namespace

TEST(CentralDifference, ReproducesDAlembertAtCourantNumberOne) {
  auto sim = start(bar_case("integrator: central_difference, mass: lumped, dt: 0.1, steps: 80"));
  MechanicalSystem& s = sim->system();
  const PetscInt tip = dof_near(s, {1, 0, 0}, 0);
  double worst = 0;
  for (int n = 1; n <= 80; ++n) {
    sim->integrator->step(s, sim->state, 0.1);
    worst =
        std::max(worst, std::abs(global_value(sim->state.u, tip) - dalembert_tip(0.001, 0.1 * n)));
  }
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  tip vs d'Alembert over two periods: max difference %.3e (peak 2e-3)\n", worst);
  EXPECT_LT(worst, 1e-15);
}

namespace {

class ChainStability : public testing::TestWithParam<std::pair<const char*, double>> {};

double energy_growth(const char* scheme, double omega_h) {
  const int n = 9;
  const double h = omega_h / chain_omega_max(n);
  auto sim = start(test::chain_case(
      n, "xchain",
      std::string("integrator: ") + scheme + ", mass: lumped, dt: " + number(h) + ", steps: 3000"));
  MechanicalSystem& s = sim->system();
  // Every mode: a velocity alternating in sign along the chain excites the highest one most;
  // small, so that even the large transient amplitudes near the limit keep the springs far from
  // collapse (this is a linear stability test).
  {
    const LocalMesh& m = s.mesh();
    petsc::Array v(sim->state.v);
    for (std::int32_t node = 0; node < m.num_owned; ++node) {
      const double i = std::round(m.coords[3 * node] / 0.1);
      v[3 * node] = 1e-4 * ((static_cast<int>(i) % 2 ? 1.0 : -1.0) + 0.3 * std::sin(i));
    }
  }
  s.apply_constraints(0.0, sim->state.u, sim->state.v, nullptr);
  sim->integrator->initialize(s, sim->state);
  const double e0 = s.kinetic_energy(sim->state.v);
  double e = e0;
  for (int k = 0; k < 3000 && e < 1e12 * e0; ++k) {
    sim->integrator->step(s, sim->state, h);
    e = s.kinetic_energy(sim->state.v) + s.strain_energy(sim->state.u);
  }
  return e / e0;
}

}  // namespace

TEST_P(ChainStability, IsStableJustBelowItsLimitAndGrowsJustAbove) {
  const auto& [scheme, limit] = GetParam();
  const double below = energy_growth(scheme, 0.99 * limit);
  const double above = energy_growth(scheme, 1.01 * limit);
  // Stable at 0.99 of the limit: symplectic Euler and leapfrog keep the quadratic form
  // v^2 + (omega u)^2 - omega h (omega u) v, so the energy stays within a factor
  // (1 + omega h/2)/(1 - omega h/2) = 199 of its start; RK4 is dissipative there. Above the limit
  // the highest mode grows geometrically over the 3000 steps.
  EXPECT_LT(below, 199.0) << scheme;
  EXPECT_GT(above, 1e6) << scheme;
}

INSTANTIATE_TEST_SUITE_P(ConditionallyStable, ChainStability,
                         testing::Values(std::pair{"symplectic_euler", 2.0},
                                         std::pair{"central_difference", 2.0},
                                         std::pair{"rk4", 2.0 * std::numbers::sqrt2}));

TEST(StableStep, EstimateApproachesTheExactHighestFrequencyOfTwoMeshes) {
  // Spring chain: omega_max = 2 sqrt(k/m) sin(n pi / (2 (n + 1))).
  const int n = 9;
  auto chain = start(test::chain_case(
      n, "xchain", "integrator: symplectic_euler, mass: lumped, dt: 0.001, steps: 1"));
  const FrequencyEstimate e1 = estimate_highest_frequency(chain->system(), 50);
  // Lateral-fixed fixed-free bar of N = 10 lumped hex8 cells (c = 1, dx = 0.1): the chain with
  // a half mass at the free end, omega_j = (2 c/dx) sin((2j - 1) pi / (4 N)).
  auto bar = start(bar_case("integrator: central_difference, mass: lumped, dt: 0.1, steps: 1"));
  const FrequencyEstimate e2 = estimate_highest_frequency(bar->system(), 50);
  const double exact1 = chain_omega_max(n), exact2 = 20 * std::sin(19 * std::numbers::pi / 40);
  if (rank_of(MPI_COMM_WORLD) == 0) {
    std::printf("  spring chain: exact %.6f, power %.6f, bound %.6f rad/s\n", exact1, e1.power,
                e1.bound);
    std::printf("  hex8 bar:     exact %.6f, power %.6f, bound %.6f rad/s\n", exact2, e2.power,
                e2.bound);
  }
  EXPECT_LE(e1.power, exact1 * (1 + 1e-12));
  EXPECT_GT(e1.power, 0.99 * exact1);
  EXPECT_GE(e1.bound, exact1 * (1 - 1e-12));
  EXPECT_LE(e2.power, exact2 * (1 + 1e-12));
  EXPECT_GT(e2.power, 0.99 * exact2);
  EXPECT_GE(e2.bound, exact2 * (1 - 1e-12));
}
