// Mass-spring systems and the implicit schemes: a mass hanging from a fixed node by a spring under
// gravity follows each scheme's scalar recurrence step by step; implicit Euler's energy decays by
// 1/(1 + (omega h)^2) per step; the implicit variational scheme keeps its Hamiltonian; a spring
// chain vibrates at its exact discrete frequencies; Rayleigh damping gives the modal damping ratio.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/euler_implicit.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/newmark.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;

namespace {

constexpr double k_spring = 100.0, mass = 2.0, gravity = 9.81;

struct Simulation {
  CaseFile c;
  Model model;
  State state;
  std::unique_ptr<Integrator> integrator;
  MechanicalSystem& system() { return *model.system; }
  void step() { integrator->step(*model.system, state, c.dt); }
};

std::unique_ptr<Simulation> start(const std::string& yaml, const std::string& file) {
  auto sim = std::make_unique<Simulation>();
  sim->c = parse_case(yaml, file);
  sim->model = build_model(MPI_COMM_WORLD, sim->c);
  MechanicalSystem& s = sim->system();
  sim->state.u = s.create_vector();
  sim->state.v = s.create_vector();
  for (const auto& iv : s.spec().initial_velocity) {
    petsc::Array v(sim->state.v);
    for (PetscInt i = 0; i < v.size(); ++i) v[i] = iv.value[i % 3];
  }
  s.apply_constraints(0.0, sim->state.u, sim->state.v, nullptr);
  sim->integrator = sim->c.scheme.create();
  sim->integrator->initialize(s, sim->state);
  return sim;
}

/// The hanging mass: spring from the fixed anchor (origin) to the bob at (0, -1, 0).
std::string hanging_case(const std::string& time, const std::string& extra = "") {
  return "mesh: {file: " INERTIA_SOURCE_DIR
         "/tests/data/springs/hanging.msh}\n"
         "springs: [{region: spring, stiffness: " +
         number(k_spring) +
         "}]\n"
         "point_masses: [{region: bob, mass: " +
         number(mass) +
         "}]\n"
         "boundary_conditions: [{region: anchor, type: fixed}" +
         extra +
         "]\n"
         "gravity: [0, " +
         number(-gravity) +
         ", 0]\n"
         "time: {" +
         time + "}\n";
}

/// One step of each implicit scheme for m a + c v + k u = f (scalar form of the spec).
struct Scalar {
  double u = 0, v = 0, a = 0, p = 0;
};

class ImplicitRecurrence
    : public testing::TestWithParam<std::tuple<std::string, std::string, double, double>> {};

}  // namespace

TEST_P(ImplicitRecurrence, EveryStepEqualsTheSchemesScalarRecurrence) {
  const auto& [scheme, options, alpha_m, alpha_k] = GetParam();
  const double h = 0.02;
  const int steps = 60;
  auto sim = start(hanging_case("integrator: " + scheme + ", dt: " + number(h) +
                                ", steps: " + std::to_string(steps) +
                                ", mass: lumped, rayleigh: {mass: " + number(alpha_m) +
                                ", stiffness: " + number(alpha_k) + "}" + options),
                   "hanging.yaml");
  MechanicalSystem& s = sim->system();
  const PetscInt dof = dof_near(s, {0, -1, 0}, 1);
  const double m = mass, k = k_spring, f = -mass * gravity, c = alpha_m * m + alpha_k * k;
  const Scheme& p = sim->c.scheme;
  Scalar x;
  x.a = (f - c * x.v - k * x.u) / m;
  x.p = m * x.v;
  double worst = 0, scale = 0;
  for (int n = 0; n < steps; ++n) {
    sim->step();
    if (scheme == "newmark") {
      const double beta = p.params<NewmarkParams>().beta, gamma = p.params<NewmarkParams>().gamma;
      const double us = x.u + h * x.v + h * h * (0.5 - beta) * x.a;
      const double vs = x.v + h * (1 - gamma) * x.a;
      x.a = (f - c * vs - k * us) / (m + h * gamma * c + h * h * beta * k);
      x.u = us + h * h * beta * x.a;
      x.v = vs + h * gamma * x.a;
    } else if (scheme == "euler_implicit" && p.params<EulerImplicitParams>().newton) {
      // fully implicit: m (v+ - v) = h (f - k (u + h v+) - c v+)
      const double v1 = (m * x.v + h * (f - k * x.u)) / (m + h * c + h * h * k);
      x.u += h * v1;
      x.v = v1;
    } else if (scheme == "euler_implicit" && p.params<EulerImplicitParams>().first_order) {
      const double v1 = (f - k * x.u) / (m + h * k);
      x.u += h * v1;
      x.v = v1;
    } else if (scheme == "euler_implicit") {
      const double tau = p.params<EulerImplicitParams>().trapezoidal ? 0.5 : 1.0;
      const double A = (1 + tau * h * alpha_m) * m + tau * h * (tau * h + alpha_k) * k;
      const double b = h * (f - k * x.u - alpha_m * m * x.v - (tau * h + alpha_k) * k * x.v);
      const double v1 = x.v + b / A;
      x.u += p.params<EulerImplicitParams>().trapezoidal ? 0.5 * h * (x.v + v1) : h * v1;
      x.v = v1;
    } else if (scheme == "variational_symplectic") {
      const double r = (f - k * x.u + 2 * x.p / h) /
                       ((4 / (h * h) + 4 * alpha_m / h) * m + (1 + 4 * alpha_k / h) * k);
      x.v = 2 * r / h;
      x.p = m * x.v + 0.5 * h * (f - k * (x.u + r));
      x.u += h * x.v;
    } else if (scheme == "static") {
      x.u = f * (n + 1) / steps / k;  // the load ramps to full at the end
      x.v = 0;
    }
    scale = std::max({scale, std::abs(x.u), std::abs(x.v) * h});
    const double du = std::abs(global_value(sim->state.u, dof) - x.u);
    const double dv = std::abs(global_value(sim->state.v, dof) - x.v) * h;
    worst = std::max({worst, du, dv});
  }
  const double tolerance = size_of(MPI_COMM_WORLD) == 1 ? 1e-12 : 1e-10;
  EXPECT_LT(worst / scale, tolerance) << scheme << options;
  EXPECT_GT(scale, 1e-3);
}

INSTANTIATE_TEST_SUITE_P(SchemesAndDamping, ImplicitRecurrence,
                         testing::Combine(testing::Values("newmark"),
                                          testing::Values("", ", newmark: {beta: 0.3, gamma: 0.6}"),
                                          testing::Values(0.0, 0.4), testing::Values(0.0, 0.003)));
INSTANTIATE_TEST_SUITE_P(EulerImplicit, ImplicitRecurrence,
                         testing::Combine(testing::Values("euler_implicit"),
                                          testing::Values("",
                                                          ", euler_implicit: {trapezoidal: true}",
                                                          ", euler_implicit: {newton: true}"),
                                          testing::Values(0.0, 0.4), testing::Values(0.0, 0.003)));
INSTANTIATE_TEST_SUITE_P(EulerImplicitFirstOrder, ImplicitRecurrence,
                         testing::Combine(testing::Values("euler_implicit"),
                                          testing::Values(", euler_implicit: {first_order: true}"),
                                          testing::Values(0.0), testing::Values(0.0)));
INSTANTIATE_TEST_SUITE_P(VariationalImplicit, ImplicitRecurrence,
                         testing::Combine(testing::Values("variational_symplectic"),
                                          testing::Values(""), testing::Values(0.0, 0.4),
                                          testing::Values(0.0, 0.003)));

TEST(StaticScheme, FollowsTheRampedLoadExactly) {
  // Laterally the spring has no stiffness at its rest length: fix x and z of the bob.
  const int steps = 5;
  auto sim = start(hanging_case("integrator: static, dt: 0.2, steps: 5",
                                ", {region: bob, type: fixed, components: [x, z]}"),
                   "hanging.yaml");
  const PetscInt dof = dof_near(sim->system(), {0, -1, 0}, 1);
  double worst = 0;
  for (int n = 1; n <= steps; ++n) {
    sim->step();
    const double expected = -mass * gravity * n / steps / k_spring;
    worst = std::max(worst, std::abs(global_value(sim->state.u, dof) - expected));
  }
  EXPECT_LT(worst, 1e-12);
}

TEST(ImplicitEuler, EnergyDecaysBy1Over1PlusOmegaHSquaredPerStep) {
  const double h = 0.05, omega = std::sqrt(k_spring / mass);
  auto sim = start("mesh: {file: " INERTIA_SOURCE_DIR
                   "/tests/data/springs/hanging.msh}\n"
                   "springs: [{region: spring, stiffness: 100}]\n"
                   "point_masses: [{region: bob, mass: 2}]\n"
                   "boundary_conditions: [{region: anchor, type: fixed}, "
                   "{region: bob, type: fixed, components: [x, z]}]\n"
                   "initial_conditions: {velocity: [0, 0.5, 0]}\n"
                   "time: {integrator: euler_implicit, dt: 0.05, steps: 40, mass: lumped}\n",
                   "decay.yaml");
  MechanicalSystem& s = sim->system();
  double energy = s.kinetic_energy(sim->state.v) + s.strain_energy(sim->state.u);
  double worst = 0;
  for (int n = 0; n < 40; ++n) {
    sim->step();
    const double next = s.kinetic_energy(sim->state.v) + s.strain_energy(sim->state.u);
    worst = std::max(worst, std::abs(next / energy * (1 + omega * omega * h * h) - 1));
    energy = next;
  }
  EXPECT_LT(worst, 1e-10);
}

namespace {

/// Sets the velocity of bead i (x = 0.1 i) to sin(j pi i / (n + 1)): mode j of the chain.
void set_mode(Simulation& sim, int n, int j) {
  MechanicalSystem& s = sim.system();
  const LocalMesh& m = s.mesh();
  {
    petsc::Array v(sim.state.v);
    for (std::int32_t node = 0; node < m.num_owned; ++node) {
      const double i = std::round(m.coords[3 * node] / 0.1);
      v[3 * node] = std::sin(j * std::numbers::pi * i / (n + 1));
    }
  }
  s.apply_constraints(0.0, sim.state.u, sim.state.v, nullptr);
  sim.integrator->initialize(s, sim.state);
}

/// Mean period of the upward zero crossings of DOF `dof` over `steps` steps.
double measured_period(Simulation& sim, PetscInt dof, int steps) {
  std::vector<double> crossings;
  double previous = global_value(sim.state.u, dof), t = 0;
  for (int k = 0; k < steps; ++k) {
    sim.step();
    t += sim.c.dt;
    const double now = global_value(sim.state.u, dof);
    if (previous < 0 && now >= 0) crossings.push_back(t - sim.c.dt * now / (now - previous));
    previous = now;
  }
  if (crossings.size() < 2) return 0;
  return (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

}  // namespace

TEST(SpringChain, ModesVibrateAtTheExactFrequenciesWithNewmarksPeriodError) {
  const int n = 9;
  const double k = 400, m = 0.25;
  for (int j : {1, 2, 3}) {
    const double omega = 2 * std::sqrt(k / m) * std::sin(j * std::numbers::pi / (2 * (n + 1)));
    // 200 steps per period: the zero-crossing interpolation is then far more accurate (~1e-8)
    // than Newmark's period error (omega h)^2 / 12 = 8.2e-5 that the test resolves. A little over
    // five periods (1010 steps): five upward zero crossings, the mean of four periods.
    const double period = 2 * std::numbers::pi / omega, h = period / 200;
    auto sim = start(
        test::chain_case(n, "chain", "integrator: newmark, dt: " + number(h) + ", steps: 1010"),
        "chain.yaml");
    set_mode(*sim, n, j);
    // Starting from the rest position with a modal velocity, a node moves as sin(omega t); the
    // first bead is not at a node of any mode here.
    const double measured = measured_period(*sim, dof_near(sim->system(), {0.1, 0, 0}, 0), 1010);
    // Newmark (average acceleration) is exact in amplitude and its discrete frequency is
    // omega_h = (2/h) atan(omega h / 2): the period error is (omega h)^2 / 12 to leading order.
    const double expected = 2 * std::numbers::pi / (2 / h * std::atan(omega * h / 2));
    EXPECT_NEAR(measured / expected, 1.0, 1e-7) << "mode " << j;
    const double elongation = std::pow(omega * h, 2) / 12;
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("  mode %d: period / Newmark's %.3e off 1, elongation %.3e off (omega h)^2/12\n",
                  j, measured / expected - 1, (measured / period - 1) / elongation - 1);
    EXPECT_NEAR(measured / period - 1, elongation, 0.01 * elongation) << "mode " << j;
  }
}

TEST(SpringChain, RayleighDampingGivesTheModalDampingRatio) {
  const int n = 9, j = 2;
  const double k = 400, m = 0.25;
  const double omega = 2 * std::sqrt(k / m) * std::sin(j * std::numbers::pi / (2 * (n + 1)));
  const double alpha_m = 0.3, alpha_k = 0.002;
  const double zeta = alpha_m / (2 * omega) + alpha_k * omega / 2;
  const double period = 2 * std::numbers::pi / omega, h = period / 200;
  auto sim = start(test::chain_case(n, "chain",
                                    "integrator: newmark, dt: " + number(h) +
                                        ", steps: 2000, rayleigh: {mass: " + number(alpha_m) +
                                        ", stiffness: " + number(alpha_k) + "}"),
                   "chain.yaml");
  set_mode(*sim, n, j);
  const PetscInt dof = dof_near(sim->system(), {0.1, 0, 0}, 0);
  // Successive positive peaks: logarithmic decrement delta = ln(x_i / x_{i+1}).
  std::vector<double> peaks;
  double a = global_value(sim->state.u, dof), b = a;
  for (int s = 0; s < 1000; ++s) {
    sim->step();
    const double c = global_value(sim->state.u, dof);
    if (b > a && b > c && b > 0) peaks.push_back(b);
    a = b;
    b = c;
  }
  ASSERT_GE(peaks.size(), 3u);
  const double delta =
      std::log(peaks.front() / peaks.back()) / static_cast<double>(peaks.size() - 1);
  const double measured =
      delta / std::sqrt(4 * std::numbers::pi * std::numbers::pi + delta * delta);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  damping ratio: measured %.6f, alpha_M/(2 omega) + alpha_K omega/2 = %.6f\n",
                measured, zeta);
  EXPECT_NEAR(measured / zeta, 1.0, 0.01);
}

TEST(VariationalImplicit, KeepsItsHamiltonianOnASpringChain) {
  const int n = 9;
  auto sim = start(
      test::chain_case(n, "chain", "integrator: variational_symplectic, dt: 0.004, steps: 1000"),
      "chain.yaml");
  set_mode(*sim, n, 1);
  MechanicalSystem& s = sim->system();
  const double h0 = sim->integrator->hamiltonian(s, sim->state);
  double worst = 0;
  for (int k = 0; k < 1000; ++k) {
    sim->step();
    worst = std::max(worst, std::abs(sim->integrator->hamiltonian(s, sim->state) - h0));
  }
  EXPECT_GT(h0, 0.0);
  EXPECT_LT(worst / h0, 1e-10);
}

namespace {

class ImplicitOrder
    : public testing::TestWithParam<std::tuple<std::string, std::string, double, std::string>> {};

}  // namespace

// The hanging mass released from rest under gravity: u(t) = (m g / k)(cos(omega t) - 1) along y,
// sampled at omega t = 2.3 (not a multiple of the period); observed order from three step sizes.
TEST_P(ImplicitOrder, ConvergesWithTheSchemesOrder) {
  const auto& [scheme, options, expected, mass_treatment] = GetParam();
  const double omega = std::sqrt(k_spring / mass), T = 2.3 / omega;
  const double exact = mass * gravity / k_spring * (std::cos(omega * T) - 1);
  auto error = [&](int steps) {
    auto sim = start(
        hanging_case("integrator: " + scheme + ", dt: " + number(T / steps) +
                     ", steps: " + std::to_string(steps) + ", mass: " + mass_treatment + options),
        "order.yaml");
    for (int n = 0; n < steps; ++n) sim->step();
    return std::abs(global_value(sim->state.u, dof_near(sim->system(), {0, -1, 0}, 1)) - exact);
  };
  const double e1 = error(40), e2 = error(80), e3 = error(160);
  const double order1 = std::log2(e1 / e2), order2 = std::log2(e2 / e3);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %s%s (%s): errors %.3e %.3e %.3e, orders %.3f %.3f\n", scheme.c_str(),
                options.c_str(), mass_treatment.c_str(), e1, e2, e3, order1, order2);
  EXPECT_NEAR(order1, expected, 0.1);
  EXPECT_NEAR(order2, expected, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Schemes, ImplicitOrder,
                         testing::Combine(testing::Values(std::string("newmark")),
                                          testing::Values(std::string("")), testing::Values(2.0),
                                          testing::Values("lumped", "consistent")));
INSTANTIATE_TEST_SUITE_P(
    EulerImplicit, ImplicitOrder,
    testing::Combine(testing::Values(std::string("euler_implicit")),
                     testing::Values(std::string(""),
                                     std::string(", euler_implicit: {newton: true}")),
                     testing::Values(1.0), testing::Values("lumped", "consistent")));
INSTANTIATE_TEST_SUITE_P(
    Trapezoidal, ImplicitOrder,
    testing::Combine(testing::Values(std::string("euler_implicit")),
                     testing::Values(std::string(", euler_implicit: {trapezoidal: true}")),
                     testing::Values(2.0), testing::Values("lumped", "consistent")));
INSTANTIATE_TEST_SUITE_P(Variational, ImplicitOrder,
                         testing::Combine(testing::Values(std::string("variational_symplectic")),
                                          testing::Values(std::string("")), testing::Values(2.0),
                                          testing::Values("lumped", "consistent")));

// Newmark and the implicit variational scheme on an undamped linear FE model over 10^4 steps:
// Newmark keeps kinetic + strain energy, the variational scheme keeps its Hamiltonian, both to
// solver tolerance.
TEST(LongRuns, NewmarkEnergyAndVariationalHamiltonianStayConstantOver10000Steps) {
  PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-13");
  const std::string model =
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.3, 0.3], cells: [3, 1, 1], element: hex8}}\n"
      "materials: [{region: all, density: 1.0, youngs_modulus: 100.0, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: xmin, type: fixed}]\n"
      "initial_conditions: {velocity: [0.1, 0.5, -0.3]}\n";
  for (const char* scheme : {"newmark", "variational_symplectic"}) {
    auto sim =
        start(model + "time: {integrator: " + scheme + ", dt: 0.01, steps: 10000}\n", "long.yaml");
    MechanicalSystem& s = sim->system();
    const bool variational = std::string(scheme) == "variational_symplectic";
    auto invariant = [&] {
      return variational ? sim->integrator->hamiltonian(s, sim->state)
                         : s.kinetic_energy(sim->state.v) + s.strain_energy(sim->state.u);
    };
    const double e0 = invariant();
    double worst = 0, strain = 0;
    for (int n = 0; n < 10000; ++n) {
      sim->step();
      worst = std::max(worst, std::abs(invariant() - e0));
      if (n % 100 == 0) strain = std::max(strain, s.strain_energy(sim->state.u));
    }
    EXPECT_LT(worst / e0, 1e-9) << scheme;
    EXPECT_GT(strain, 0.1 * e0) << scheme;  // energy really exchanged
  }
  PetscOptionsClearValue(nullptr, "-ksp_rtol");
}
