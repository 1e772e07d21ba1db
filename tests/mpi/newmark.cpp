// Newmark and the assembled model against analytic and discrete references, on any rank count:
// the one-DOF recurrence, energy conservation, second-order convergence in dt, the first bending
// frequency of a cantilever (Euler-Bernoulli) and the static deflection reached by a damped run.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;
using test::Simulation;
using test::start;
using test::TightSolves;

namespace {

/// One free DOF: y and z fixed everywhere, x fixed on the xmin, ymin and zmin faces; only x of
/// the node (1, 1, 1) is free.
const std::string one_dof_model =
    "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}, "
    "partitioner: block}\n"
    "materials: [{region: all, density: 3.0, youngs_modulus: 50.0, poissons_ratio: 0.25}]\n"
    "boundary_conditions:\n"
    "  - {region: all, type: fixed, components: [y, z]}\n"
    "  - {region: xmin, type: fixed, components: [x]}\n"
    "  - {region: ymin, type: fixed, components: [x]}\n"
    "  - {region: zmin, type: fixed, components: [x]}\n";

std::string beam_case(const std::string& extra, const std::string& time) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.05, 0.05], cells: [16, 2, 2], "
         "element: tet10}}\n"
         "materials: [{region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.0}]\n"
         "boundary_conditions: [{region: xmin, type: fixed}" +
         extra + "]\ntime: {integrator: newmark, " + time + "}\n";
}

/// First bending angular frequency of a clamped-free Euler-Bernoulli beam, square section h.
double euler_bernoulli_omega1(double E, double rho, double h, double L) {
  const double beta1 = 1.8751040687119611;
  return beta1 * beta1 / (L * L) * std::sqrt(E * h * h / (12 * rho));
}

class NewmarkOneDof : public TightSolves,
                      public testing::WithParamInterface<std::tuple<const char*, double, double>> {
};

}  // namespace

// One hexahedron with every DOF fixed but the x component of one corner: a mass on a spring under
// gravity. Each step must equal Newmark's recurrence for m a + c v + k u = f with the scalars m, k,
// f taken from the assembled M, K and load (c = alpha_M m + alpha_K k).
TEST_P(NewmarkOneDof, EveryStepEqualsTheScalarRecurrence) {
  const auto& [mass, alpha_m, alpha_k] = GetParam();
  // Constraints leave exactly one free DOF: y and z fixed everywhere, x fixed on the xmin, ymin
  // and zmin faces; only x of the node (1, 1, 1) is free.
  const std::string yaml = one_dof_model +
                           "gravity: [-9.81, 0, 0]\n"
                           "time: {integrator: newmark, dt: 0.05, steps: 60, mass: " +
                           std::string(mass) + ", rayleigh: {mass: " + std::to_string(alpha_m) +
                           ", stiffness: " + std::to_string(alpha_k) + "}}\n";
  Simulation r = start(yaml);
  MechanicalSystem& s = *r.model.system;
  ASSERT_EQ(s.num_global_dofs() - s.num_constrained_dofs(), 1);
  const PetscInt dof = dof_near(s, {1, 1, 1}, 0);
  // Scalars m, k, f of the free DOF.
  petsc::Vector e = test::unit_vector(s, dof), y = s.create_vector();
  s.mult_mass(e, y);
  const double m = global_value(y, dof);
  s.mult_stiffness(e, y);
  const double k = global_value(y, dof);
  s.external_force(0.0, y);
  const double f = global_value(y, dof);
  const double c = alpha_m * m + alpha_k * k;
  const double h = 0.05, beta = 0.25, gamma = 0.5;
  double u = 0, v = 0, a = (f - c * v - k * u) / m;
  double worst = 0, scale = 0;
  for (int n = 0; n < 60; ++n) {
    r.integrator->step(s, r.state, h);
    const double us = u + h * v + h * h * (0.5 - beta) * a, vs = v + h * (1 - gamma) * a;
    a = (f - c * vs - k * us) / (m + h * gamma * c + h * h * beta * k);
    u = us + h * h * beta * a;
    v = vs + h * gamma * a;
    scale = std::max({scale, std::abs(u), std::abs(v) * h});
    const double du = std::abs(global_value(r.state.u, dof) - u);
    const double dv = std::abs(global_value(r.state.v, dof) - v) * h;
    worst = std::max({worst, du, dv});
  }
  const double tolerance = size_of(MPI_COMM_WORLD) == 1 ? 1e-12 : 1e-10;
  EXPECT_LT(worst / scale, tolerance) << "m " << m << " k " << k << " f " << f;
  EXPECT_GT(scale, 0.0);
}

INSTANTIATE_TEST_SUITE_P(MassAndDamping, NewmarkOneDof,
                         testing::Values(std::tuple{"lumped", 0.0, 0.0},
                                         std::tuple{"consistent", 0.0, 0.0},
                                         std::tuple{"lumped", 0.7, 0.02},
                                         std::tuple{"consistent", 0.7, 0.02}));

class NewmarkBeam : public TightSolves {};

TEST_F(NewmarkBeam, ConservesTheEnergyOfAnUndampedFreeVibration) {
  Simulation r = start(beam_case("", "dt: 2.0e-4, steps: 300") +
                       "initial_conditions: {velocity: [0, 0.3, -1.0]}\n");
  MechanicalSystem& s = *r.model.system;
  const double e0 = s.kinetic_energy(r.state.v) + s.strain_energy(r.state.u);
  double worst = 0, max_strain = 0;
  for (int n = 0; n < 300; ++n) {
    r.integrator->step(s, r.state, 2.0e-4);
    const double strain = s.strain_energy(r.state.u);
    max_strain = std::max(max_strain, strain);
    worst = std::max(worst, std::abs(s.kinetic_energy(r.state.v) + strain - e0) / e0);
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(max_strain, 0.5 * e0);  // the energy really moves between kinetic and strain
}

TEST_F(NewmarkBeam, ConvergesWithSecondOrderInTheTimeStep) {
  // A stocky block (every mode resolved by the steps below, so the error is in the asymptotic
  // regime) clamped at its base under a sudden lateral traction on top; the top corner's
  // deflection at t = 3.7 (not a multiple of any period), against a run with 32 times smaller
  // steps.
  const double T = 3.7;
  auto corner = [&](int steps) {
    const double dt = T / steps;
    Simulation r = start(
        "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: hex8}}\n"
        "materials: [{region: all, density: 1.0, youngs_modulus: 1.0, poissons_ratio: 0.3}]\n"
        "boundary_conditions: [{region: zmin, type: fixed},\n"
        "  {region: zmax, type: traction, value: [0.01, 0.002, 0]}]\n"
        "time: {integrator: newmark, dt: " +
        number(dt) + ", steps: " + std::to_string(steps) + "}\n");
    MechanicalSystem& s = *r.model.system;
    for (int n = 0; n < steps; ++n) r.integrator->step(s, r.state, dt);
    return global_value(r.state.u, dof_near(s, {1.0, 1.0, 1.0}, 0));
  };
  const double reference = corner(2560);
  const double e1 = std::abs(corner(80) - reference), e2 = std::abs(corner(160) - reference),
               e3 = std::abs(corner(320) - reference);
  const double order1 = std::log2(e1 / e2), order2 = std::log2(e2 / e3);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  errors %.3e %.3e %.3e, observed orders %.3f %.3f\n", e1, e2, e3, order1, order2);
  EXPECT_NEAR(order1, 2.0, 0.1);
  EXPECT_NEAR(order2, 2.0, 0.1);
}

TEST_F(NewmarkBeam, FirstBendingFrequencyMatchesEulerBernoulliWithinTwoPercent) {
  const double omega_eb = euler_bernoulli_omega1(2.1e11, 7800, 0.05, 1.0);
  const double period = 2 * std::numbers::pi / omega_eb;
  const double dt = period / 100;
  const int steps = 520;
  Simulation r = start(beam_case(", {region: xmax, type: traction, value: [0, 0, -1.0e6]}",
                                 "dt: " + number(dt) + ", steps: " + std::to_string(steps)));
  MechanicalSystem& s = *r.model.system;
  const PetscInt dof = dof_near(s, {1.0, 0.025, 0.025}, 2);
  // Static deflection from a direct solve: the response oscillates about it.
  petsc::Vector f = s.create_vector(), u_static = s.create_vector();
  s.external_force(0.0, f);
  s.solve(0.0, 1.0, f, u_static);
  const double centre = global_value(u_static, dof);
  std::vector<double> crossings;
  double previous = global_value(r.state.u, dof) - centre, t = 0;
  for (int n = 0; n < steps; ++n) {
    r.integrator->step(s, r.state, dt);
    t += dt;
    const double now = global_value(r.state.u, dof) - centre;
    if (previous < 0 && now >= 0) crossings.push_back(t - dt * now / (now - previous));
    previous = now;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double measured =
      (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  const double omega = 2 * std::numbers::pi / measured;
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  omega1: Newmark %.6g rad/s, Euler-Bernoulli %.6g rad/s, ratio %.5f\n", omega,
                omega_eb, omega / omega_eb);
  EXPECT_NEAR(omega / omega_eb, 1.0, 0.02);
}

TEST_F(NewmarkBeam, DampedRunUnderGravitySettlesOnTheStaticSolution) {
  const double omega1 = euler_bernoulli_omega1(2.1e11, 7800, 0.05, 1.0);
  const double period = 2 * std::numbers::pi / omega1;
  const double dt = period / 40;
  const int steps = 240;  // six periods at critical damping of the first mode
  Simulation r = start(beam_case("", "dt: " + number(dt) + ", steps: " + std::to_string(steps) +
                                         ", rayleigh: {mass: " + std::to_string(2 * omega1) +
                                         ", stiffness: " + std::to_string(0.1 / omega1) + "}") +
                       "gravity: [0, 0, -9.81]\n");
  MechanicalSystem& s = *r.model.system;
  for (int n = 0; n < steps; ++n) r.integrator->step(s, r.state, dt);
  petsc::Vector f = s.create_vector(), u_static = s.create_vector();
  s.external_force(0.0, f);
  s.solve(0.0, 1.0, f, u_static);
  const PetscInt dof = dof_near(s, {1.0, 0.025, 0.025}, 2);
  const double dynamic = global_value(r.state.u, dof), direct = global_value(u_static, dof);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  tip under gravity: damped run %.9g, direct K u = f %.9g\n", dynamic, direct);
  EXPECT_LT(direct, 0.0);
  EXPECT_NEAR(dynamic / direct, 1.0, 0.01);
}

namespace {

/// The energy balance of a run whose supports move: the largest |total - its start| over the run
/// (energy.csv's total: kinetic + strain - work + dissipation), relative to the largest energy
/// term of the run.
double worst_balance_error(const std::string& yaml, double dt, int steps) {
  Simulation r = start(yaml);
  MechanicalSystem& s = *r.model.system;
  const auto dir = test::fresh_output_dir("newmark");
  double worst = 0, scale = 0;
  {
    EnergyHistory energy(s, r.state, *r.integrator, dir / "energy.csv");
    for (int n = 0; n < steps; ++n) {
      energy.before_step(s, r.state);
      r.integrator->step(s, r.state, dt);
      energy.after_step(s, r.state, dt, 0.0);
      worst = std::max(worst, std::abs(energy.balance()));
      scale = std::max(scale, energy.largest_term());
    }
    EXPECT_GT(energy.external_work(), 0.1 * energy.largest_term());  // the support works
  }
  return worst / scale;
}

/// A block shaken through its base by a displacement (a C2 smooth step up and back: not a
/// harmonic motion, whose lumped-mass balance happens to close exactly).
std::string shaken_block(const std::string& mass, const std::string& rayleigh, double dt,
                         int steps) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 1.0], cells: [2, 2, 8], "
         "element: hex8}}\n"
         "materials: [{region: all, density: 1000, youngs_modulus: 5.0e6, poissons_ratio: 0.3}]\n"
         "boundary_conditions: [{region: zmin, type: displacement, components: [x, y, z], "
         "value: [0.01, 0, 0.002], amplitude: shake}]\n"
         "amplitudes: {shake: {type: smooth_step, points: [[0, 0], [0.15, 1], [0.3, -0.5]]}}\n"
         "gravity: [0, 0, -9.81]\n"
         "time: {integrator: newmark, dt: " +
         number(dt) + ", steps: " + std::to_string(steps) + ", mass: " + mass + rayleigh + "}\n";
}

class NewmarkMovingSupport : public TightSolves,
                             public testing::WithParamInterface<std::tuple<const char*, bool>> {};

}  // namespace

TEST_P(NewmarkMovingSupport, EnergyBalanceClosesAtSecondOrderInDt) {
  // The support is exactly on its path at every step and the reactions' work between the steps
  // is the trapezoidal rule's: the balance closes to O(dt^2) (with fixed supports, to the
  // solver's tolerance: e2e.ranks_agree). Halving dt divides the error by about 4.
  const auto [mass, damped] = GetParam();
  const std::string rayleigh = damped ? ", rayleigh: {mass: 0.5, stiffness: 1.0e-3}" : "";
  const double coarse = worst_balance_error(shaken_block(mass, rayleigh, 0.005, 60), 0.005, 60);
  const double fine = worst_balance_error(shaken_block(mass, rayleigh, 0.0025, 120), 0.0025, 120);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  worst balance / largest term: %.3g at dt 0.005, %.3g at 0.0025 (ratio %.2f)\n",
                coarse, fine, coarse / fine);
  EXPECT_LT(coarse, 2e-3);
  EXPECT_GT(coarse / fine, 3.4);
}

INSTANTIATE_TEST_SUITE_P(MassAndDamping, NewmarkMovingSupport,
                         testing::Values(std::tuple{"lumped", false},
                                         std::tuple{"consistent", false},
                                         std::tuple{"consistent", true}));

TEST_F(NewmarkBeam, StaticRunCountsTheWorkOfAPrescribedDisplacement) {
  // A bar stretched by its prescribed end: the reaction's work equals the strain energy.
  const double worst = worst_balance_error(
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}\n"
      "materials: [{region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: xmin, type: fixed},\n"
      "  {region: xmax, type: displacement, components: [x], value: [0.01]}]\n"
      "time: {integrator: static, dt: 0.25, end_time: 1}\n",
      0.25, 4);
  EXPECT_LT(worst, 1e-10);
}

TEST_F(NewmarkBeam, RayleighFromDampingRatiosGivesTheTargetRatio) {
  // The one-DOF oscillator above, released with a velocity; time.rayleigh asks for damping ratio
  // 0.02 at its own frequency and 0.05 at four times it. The measured logarithmic decrement of
  // successive peaks gives the ratio at the oscillator's frequency: 0.02.
  auto one_dof = [](const std::string& rayleigh) {
    return one_dof_model +
           "initial_conditions: {velocity: [1, 0, 0]}\n"
           "time: {integrator: newmark, dt: 0.001, steps: 1, mass: lumped" +
           rayleigh + "}\n";
  };
  double f0 = 0;
  {
    Simulation r = start(one_dof(""));
    MechanicalSystem& s = *r.model.system;
    const PetscInt dof = dof_near(s, {1, 1, 1}, 0);
    petsc::Vector e = test::unit_vector(s, dof), y = s.create_vector();
    s.lumped_masses(y);
    const double m = global_value(y, dof);
    s.mult_stiffness(e, y);
    f0 = std::sqrt(global_value(y, dof) / m) / (2 * std::numbers::pi);
  }
  Simulation r = start(one_dof(", rayleigh: {damping_ratios: [0.02, 0.05], frequencies: [" +
                               number(f0) + ", " + number(4 * f0) + "]}"));
  MechanicalSystem& s = *r.model.system;
  const PetscInt dof = dof_near(s, {1, 1, 1}, 0);
  const double h = 1 / (400 * f0);  // 400 steps per period: Newmark's period error ~2e-5
  std::vector<double> peaks;
  double previous = 0, current = global_value(r.state.u, dof);
  for (int n = 0; n < 400 * 6; ++n) {
    r.integrator->step(s, r.state, h);
    const double next = global_value(r.state.u, dof);
    if (current > previous && current >= next && current > 0) peaks.push_back(current);
    previous = current;
    current = next;
  }
  ASSERT_GE(peaks.size(), 5u);
  const double delta = std::log(peaks.front() / peaks.back()) / double(peaks.size() - 1);
  const double zeta = delta / std::sqrt(4 * std::numbers::pi * std::numbers::pi + delta * delta);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  damping ratio at %.4g Hz: measured %.6f, asked 0.02\n", f0, zeta);
  EXPECT_NEAR(zeta, 0.02, 0.0002);
}

TEST_F(NewmarkBeam, BaseAccelerationMovesTheBaseByItsDoubleIntegralAndBalancesEnergy) {
  // The base's acceleration is 2 sin(2 pi 4 t) m/s^2 in x: its displacement is the double
  // integral from rest, 2 (t / w - sin(w t) / w^2).
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 1.0], cells: [2, 2, 8], "
      "element: hex8}}\n"
      "materials: [{region: all, density: 1000, youngs_modulus: 5.0e6, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: zmin, type: acceleration, components: [x, y, z], "
      "value: [2.0, 0, 0], amplitude: shake}]\n"
      "amplitudes: {shake: {type: sine, frequency: 4.0}}\n"
      "time: {integrator: newmark, dt: 0.005, steps: 60, mass: consistent}\n";
  Simulation r = start(yaml);
  MechanicalSystem& s = *r.model.system;
  const PetscInt base = dof_near(s, {0.1, 0.1, 0.0}, 0);
  const double w = 2 * std::numbers::pi * 4.0;
  for (int n = 0; n < 60; ++n) {
    r.integrator->step(s, r.state, 0.005);
    const double t = r.state.time;
    EXPECT_NEAR(global_value(r.state.u, base), 2 * (t / w - std::sin(w * t) / (w * w)), 1e-15);
    EXPECT_NEAR(global_value(r.state.v, base), 2 * (1 - std::cos(w * t)) / w, 1e-14);
  }
  // The balance closes at second order in dt, as for a prescribed displacement.
  std::string fine = yaml;
  fine.replace(fine.find("dt: 0.005, steps: 60"), 20, "dt: 0.0025, steps: 120");
  const double coarse_error = worst_balance_error(yaml, 0.005, 60);
  const double fine_error = worst_balance_error(fine, 0.0025, 120);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  worst balance / largest term: %.3g at dt 0.005, %.3g at 0.0025\n", coarse_error,
                fine_error);
  EXPECT_LT(coarse_error, 1e-3);
  EXPECT_GT(coarse_error / fine_error, 3.4);
}
