// The alpha schemes (hht, generalized_alpha) against their scalar recurrence and Newmark, on any
// rank count: every step of a one-DOF oscillator under a time-varying load (linear solve and
// Newton), the spectral radius of the amplification matrix at omega h = 1e4 (from the recurrence,
// from single inertia steps and from the decay of a free vibration), second-order convergence,
// rho_infinity = 1 and alpha = 0 against newmark, and the high modes of a Neo-Hookean cantilever
// under a sudden load, which newmark keeps and the alpha schemes damp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
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

/// Collective. Sets global DOF `dof` of x to `value` (the other entries unchanged).
void set_value(Vec x, PetscInt dof, double value) {
  PetscInt lo, hi;
  VecGetOwnershipRange(x, &lo, &hi);
  if (dof >= lo && dof < hi) VecSetValue(x, dof, value, INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
}

/// The scheme's acceleration (its internal state, as a checkpoint sees it).
Vec acceleration_state(Integrator& integrator) {
  for (const auto& [name, x] : integrator.internal_state())
    if (name == "acceleration") return x;
  return nullptr;
}

// The scalar recurrence, written from the formulas of the papers (not from the implementation):
// Newmark's updates and the balance
//   m a_{n+1-am} + c v_{n+1-af} + k u_{n+1-af} = (1 - af) f(t_{n+1}) + af f(t_n),
//   x_{n+1-a} = (1 - a) x_{n+1} + a x_n.
struct Coefficients {
  double am, af, beta, gamma;
};

Coefficients hht(double alpha) {  // Hilber, Hughes & Taylor 1977
  return {0.0, -alpha, (1 - alpha) * (1 - alpha) / 4, 0.5 - alpha};
}

Coefficients generalized_alpha(double rho) {  // Chung & Hulbert 1993
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  return {am, af, (1 - am + af) * (1 - am + af) / 4, 0.5 - am + af};
}

struct Dof {
  double u = 0, v = 0, a = 0;
};

Dof alpha_step(const Coefficients& p, const Dof& x, double h, double m, double c, double k,
               double f0, double f1) {
  const double us = x.u + h * x.v + h * h * (0.5 - p.beta) * x.a;
  const double vs = x.v + h * (1 - p.gamma) * x.a;
  // (1 - af) (us + h^2 beta a) + af u, (1 - af) (vs + h gamma a) + af v: solve for a.
  const double rhs = (1 - p.af) * f1 + p.af * f0 - p.am * m * x.a -
                     c * ((1 - p.af) * vs + p.af * x.v) - k * ((1 - p.af) * us + p.af * x.u);
  const double a = rhs / ((1 - p.am) * m + (1 - p.af) * (h * p.gamma * c + h * h * p.beta * k));
  return {us + h * h * p.beta * a, vs + h * p.gamma * a, a};
}

using Matrix3 = std::array<std::array<double, 3>, 3>;

/// Spectral radius of a real 3x3 matrix: a real root of its characteristic polynomial by
/// bisection, the other two from the deflated quadratic. Near a triple root the roots are only
/// good to about (round-off)^(1/3), 1e-5 here: enough for the tolerances below.
double spectral_radius(const Matrix3& A) {
  const double c2 = -(A[0][0] + A[1][1] + A[2][2]);
  const double c1 = A[0][0] * A[1][1] - A[0][1] * A[1][0] + A[0][0] * A[2][2] - A[0][2] * A[2][0] +
                    A[1][1] * A[2][2] - A[1][2] * A[2][1];
  const double c0 = -(A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                      A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                      A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]));
  auto p = [&](double x) { return ((x + c2) * x + c1) * x + c0; };
  double lo = -(1 + std::max({std::abs(c0), std::abs(c1), std::abs(c2)})), hi = -lo;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (p(mid) < 0 ? lo : hi) = mid;
  }
  const double r = 0.5 * (lo + hi);
  const double b = c2 + r, q = c1 + r * b;  // x^2 + b x + q
  const double disc = b * b - 4 * q;
  const double other =
      disc < 0 ? std::sqrt(q)
               : std::max(std::abs(-b + std::sqrt(disc)) / 2, std::abs(-b - std::sqrt(disc)) / 2);
  return std::max(std::abs(r), other);
}

/// The amplification matrix of the recurrence for m a + k u = 0 in the scaled state
/// (omega u, v, a / omega), omega = sqrt(k / m): its entries depend on omega h only.
Matrix3 amplification(const Coefficients& p, double omega_h) {
  const double omega = 1.0, h = omega_h;  // m = k = 1
  Matrix3 A{};
  for (int j = 0; j < 3; ++j) {
    Dof x;
    x.u = (j == 0) / omega, x.v = (j == 1), x.a = (j == 2) * omega;
    const Dof y = alpha_step(p, x, h, 1.0, 0.0, omega * omega, 0.0, 0.0);
    A[0][j] = omega * y.u, A[1][j] = y.v, A[2][j] = y.a / omega;
  }
  return A;
}

/// The one-DOF oscillators: `hex` (a linear hexahedron with one free DOF, the x of its corner
/// (1, 1, 1): one linear solve per step) and `spring` (a point mass on a spring moving along the
/// spring's axis: linear in that DOF, but solved by Newton as every spring system is). Load:
/// gravity along the free DOF with a sine amplitude, so that f(t_n) and f(t_{n+1}) differ.
struct OneDofModel {
  std::string yaml;
  std::array<double, 3> node;
  int component;
};

OneDofModel one_dof(const std::string& model, const std::string& time, bool load = true) {
  const std::string wave =
      load ? "amplitudes: {wave: {type: sine, frequency: 0.7, phase: 0.4}}\n" : "";
  if (model == "hex")
    return {
        "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}, "
        "partitioner: block}\n"
        "materials: [{region: all, density: 3.0, youngs_modulus: 50.0, poissons_ratio: 0.25}]\n"
        "boundary_conditions:\n"
        "  - {region: all, type: fixed, components: [y, z]}\n"
        "  - {region: xmin, type: fixed, components: [x]}\n"
        "  - {region: ymin, type: fixed, components: [x]}\n"
        "  - {region: zmin, type: fixed, components: [x]}\n" +
            (load ? wave + "gravity: {value: [-9.81, 0, 0], amplitude: wave}\n" : "") + "time: {" +
            time + "}\n",
        {1, 1, 1},
        0};
  return {"mesh: {file: " INERTIA_SOURCE_DIR
          "/tests/data/springs/hanging.msh}\n"
          "springs: [{region: spring, stiffness: 100}]\n"
          "point_masses: [{region: bob, mass: 2}]\n"
          "boundary_conditions: [{region: anchor, type: fixed}, "
          "{region: bob, type: fixed, components: [x, z]}]\n" +
              (load ? wave + "gravity: {value: [0, -9.81, 0], amplitude: wave}\n" : "") +
              "time: {" + time + "}\n",
          {0, -1, 0},
          1};
}

/// Collective. The diagonal entries of M and K (tangent) and the load at t of one DOF.
struct Scalars {
  double m, k;
};

Scalars scalars(MechanicalSystem& s, PetscInt dof) {
  petsc::Vector e = s.create_vector(), y = s.create_vector();
  set_value(e, dof, 1.0);
  s.mult_mass(e, y);
  const double m = global_value(y, dof);
  s.mult_stiffness(e, y);
  return {m, global_value(y, dof)};
}

double load(MechanicalSystem& s, PetscInt dof, double t) {
  petsc::Vector f = s.create_vector();
  s.external_force(t, f);
  return global_value(f, dof);
}

/// (case-file options of the scheme, its coefficients)
struct SchemeCase {
  std::string name;
  std::string options;
  Coefficients coefficients;
};

std::vector<SchemeCase> recurrence_schemes() {
  return {{"hht", "hht: {alpha: -0.1}", hht(-0.1)},
          {"hht", "hht: {alpha: " + number(-1.0 / 3) + "}", hht(-1.0 / 3)},
          {"generalized_alpha", "generalized_alpha: {rho_infinity: 0.8}", generalized_alpha(0.8)},
          {"generalized_alpha", "generalized_alpha: {rho_infinity: 0}", generalized_alpha(0.0)}};
}

class AlphaOneDof : public TightSolves,
                    public testing::WithParamInterface<
                        std::tuple<const char*, int, const char*, double, double>> {};

}  // namespace

// Each step equals the scalar recurrence for m a + c v + k u = f(t), with m, k, f taken from the
// assembled M, K and load, c = alpha_M m + alpha_K k; the load is interpolated between t_n and
// t_{n+1} (not taken at t_{n+1-alpha_f}).
TEST_P(AlphaOneDof, EveryStepEqualsTheScalarRecurrence) {
  const auto& [model, scheme_index, mass, alpha_m, alpha_k] = GetParam();
  const SchemeCase scheme = recurrence_schemes()[scheme_index];
  const double h = 0.05;
  const OneDofModel one = one_dof(model, "integrator: " + scheme.name + ", " + scheme.options +
                                             ", dt: 0.05, steps: 60, mass: " + mass +
                                             ", rayleigh: {mass: " + number(alpha_m) +
                                             ", stiffness: " + number(alpha_k) + "}");
  Simulation r = start(one.yaml);
  MechanicalSystem& s = r.system();
  ASSERT_EQ(s.num_global_dofs() - s.num_constrained_dofs(), 1);
  const PetscInt dof = dof_near(s, one.node, one.component);
  const auto [m, k] = scalars(s, dof);
  const double c = alpha_m * m + alpha_k * k;
  Dof x;
  x.a = load(s, dof, 0.0) / m;
  double worst = 0, scale = 0;
  for (int n = 0; n < 60; ++n) {
    const double f0 = load(s, dof, n * h), f1 = load(s, dof, (n + 1) * h);
    r.integrator->step(s, r.state, h);
    x = alpha_step(scheme.coefficients, x, h, m, c, k, f0, f1);
    scale = std::max({scale, std::abs(x.u), std::abs(x.v) * h, std::abs(x.a) * h * h});
    const double du = std::abs(global_value(r.state.u, dof) - x.u);
    const double dv = std::abs(global_value(r.state.v, dof) - x.v) * h;
    const double da = std::abs(global_value(r.integrator->acceleration(), dof) - x.a) * h * h;
    worst = std::max({worst, du, dv, da});
  }
  const double tolerance = size_of(MPI_COMM_WORLD) == 1 ? 1e-12 : 1e-10;
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %s %s, %s mass: largest difference %.2e of the largest value\n", model,
                scheme.options.c_str(), mass, worst / scale);
  EXPECT_LT(worst / scale, tolerance) << "m " << m << " k " << k;
  EXPECT_GT(scale, 0.0);
}

INSTANTIATE_TEST_SUITE_P(LinearSolve, AlphaOneDof,
                         testing::Combine(testing::Values("hex"), testing::Values(0, 1, 2, 3),
                                          testing::Values("lumped", "consistent"),
                                          testing::Values(0.0, 0.7), testing::Values(0.0, 0.02)));
INSTANTIATE_TEST_SUITE_P(Newton, AlphaOneDof,
                         testing::Combine(testing::Values("spring"), testing::Values(0, 1, 2, 3),
                                          testing::Values("lumped"), testing::Values(0.0, 0.7),
                                          testing::Values(0.0, 0.02)));

namespace {

struct RadiusCase {
  std::string options;  ///< time.<scheme> section
  Coefficients coefficients;
  double rho_infinity;  ///< expected limit
  /// |rho(omega h = 1e4) - rho_infinity| allowed. Where the three eigenvalues meet at infinity
  /// (generalized_alpha, and hht at alpha = -1/3, which is generalized_alpha at 1/2) they
  /// separate as (omega h)^(-2/3): rho(1e4) - rho_infinity is 1.7e-3 to 2.2e-3 (computed to 50
  /// digits). hht with alpha > -1/3 keeps its spurious root apart and approaches as (omega h)^-2:
  /// 2e-8 at 1e4.
  double tolerance;
};

std::vector<RadiusCase> radius_cases() {
  const double third = -1.0 / 3;
  return {
      {"generalized_alpha: {rho_infinity: 0.8}", generalized_alpha(0.8), 0.8, 2.5e-3},
      {"generalized_alpha: {rho_infinity: 0.5}", generalized_alpha(0.5), 0.5, 2.5e-3},
      {"generalized_alpha: {rho_infinity: 0}", generalized_alpha(0.0), 0.0, 2.5e-3},
      {"generalized_alpha: {rho_infinity: 1}", generalized_alpha(1.0), 1.0, 1e-6},
      {"hht: {alpha: -0.05}", hht(-0.05), 0.95 / 1.05, 1e-6},
      {"hht: {alpha: -0.1}", hht(-0.1), 0.9 / 1.1, 1e-6},
      {"hht: {alpha: " + number(third) + "}", hht(third), (1 + third) / (1 - third), 2.5e-3},
      {"hht: {alpha: 0}", hht(0.0), 1.0, 1e-6},
  };
}

class AlphaSpectralRadius : public TightSolves, public testing::WithParamInterface<int> {};

}  // namespace

// From the recurrence, and from inertia: three single steps of a stiff one-DOF oscillator
// (omega h = 1e4) from the unit states give the amplification matrix column by column.
TEST_P(AlphaSpectralRadius, AtOmegaH1e4IsRhoInfinityInTheRecurrenceAndInInertiasSteps) {
  const RadiusCase rc = radius_cases()[GetParam()];
  const double omega_h = 1e4;
  const Matrix3 A = amplification(rc.coefficients, omega_h);
  const double rho = spectral_radius(A);

  const std::string scheme = rc.options.substr(0, rc.options.find(':'));
  const OneDofModel one = one_dof(
      "hex", "integrator: " + scheme + ", " + rc.options + ", dt: 1, steps: 1, mass: lumped",
      false);
  Simulation r = start(one.yaml);
  MechanicalSystem& s = r.system();
  const PetscInt dof = dof_near(s, one.node, one.component);
  const auto [m, k] = scalars(s, dof);
  const double omega = std::sqrt(k / m), h = omega_h / omega;
  Vec a = acceleration_state(*r.integrator);
  ASSERT_NE(a, nullptr);
  Matrix3 observed{};
  for (int j = 0; j < 3; ++j) {
    VecZeroEntries(r.state.u);
    VecZeroEntries(r.state.v);
    VecZeroEntries(a);
    set_value(r.state.u, dof, (j == 0) / omega);
    set_value(r.state.v, dof, (j == 1) * 1.0);
    set_value(a, dof, (j == 2) * omega);
    r.state.time = 0;
    r.integrator->step(s, r.state, h);
    observed[0][j] = omega * global_value(r.state.u, dof);
    observed[1][j] = global_value(r.state.v, dof);
    observed[2][j] = global_value(a, dof) / omega;
  }
  double worst = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::max(worst, std::abs(observed[i][j] - A[i][j]));
  const double rho_observed = spectral_radius(observed);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  %s: spectral radius at omega h = 1e4: recurrence %.9f, inertia %.9f, "
        "limit %.9f; amplification matrices differ by %.1e\n",
        rc.options.c_str(), rho, rho_observed, rc.rho_infinity, worst);
  // A step at omega h = 1e4 subtracts terms (omega h)^2 larger than its result: both the
  // recurrence and inertia carry 1e-16 x 1e8 of round-off.
  EXPECT_LT(worst, 1e-7);
  EXPECT_NEAR(rho_observed, rho, 1e-7);
  EXPECT_NEAR(rho, rc.rho_infinity, rc.tolerance);
  EXPECT_GT(rho, rc.rho_infinity - 1e-5);  // approached from above
}

INSTANTIATE_TEST_SUITE_P(Schemes, AlphaSpectralRadius, testing::Range(0, 8));

namespace {

class AlphaFreeDecay : public TightSolves, public testing::WithParamInterface<int> {};

}  // namespace

// A free vibration of the stiff oscillator (omega h = 1e4, v_0 = 1): the amplitude of the state
// (omega u, v, a / omega) decays per step, over steps 100 to 200, by the spectral radius. At
// omega h -> infinity the amplification matrix is a Jordan block (d = 3 equal eigenvalues for
// generalized_alpha, 2 for hht), so the amplitude goes as n^(d-1) rho^n and the ratio over
// [n, 2n] lies between rho_infinity and rho_infinity 2^((d-1)/n), 1.4 % above it at n = 100.
// The run equals the recurrence's decay to 1e-8.
TEST_P(AlphaFreeDecay, AmplitudeRatioPerStepIsTheSpectralRadius) {
  const RadiusCase rc = radius_cases()[GetParam()];
  const std::string scheme = rc.options.substr(0, rc.options.find(':'));
  const OneDofModel one = one_dof(
      "hex", "integrator: " + scheme + ", " + rc.options + ", dt: 1, steps: 200, mass: consistent",
      false);
  Simulation r = start(one.yaml);
  MechanicalSystem& s = r.system();
  const PetscInt dof = dof_near(s, one.node, one.component);
  const auto [m, k] = scalars(s, dof);
  const double omega = std::sqrt(k / m), h = 1e4 / omega;
  set_value(r.state.v, dof, 1.0);  // a_0 = 0 (no load, u_0 = 0, no damping)
  Dof x;
  x.v = 1.0;
  auto amplitude = [&](double u, double v, double a) {
    return std::sqrt(omega * u * omega * u + v * v + a / omega * a / omega);
  };
  double inertia[2] = {0, 0}, recurrence[2] = {0, 0};
  for (int n = 1; n <= 200; ++n) {
    r.integrator->step(s, r.state, h);
    x = alpha_step(rc.coefficients, x, h, m, 0.0, k, 0.0, 0.0);
    if (n == 100 || n == 200) {
      inertia[n / 200] = amplitude(global_value(r.state.u, dof), global_value(r.state.v, dof),
                                   global_value(r.integrator->acceleration(), dof));
      recurrence[n / 200] = amplitude(x.u, x.v, x.a);
    }
  }
  const double ratio = std::pow(inertia[1] / inertia[0], 1.0 / 100);
  const double expected = std::pow(recurrence[1] / recurrence[0], 1.0 / 100);
  const int d = scheme == "hht" ? 2 : 3;
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  %s: amplitude ratio per step over steps 100-200: %.6f (recurrence %.6f, "
        "rho_infinity %.6f, bound %.6f)\n",
        rc.options.c_str(), ratio, expected, rc.rho_infinity,
        rc.rho_infinity * std::pow(2.0, (d - 1) / 100.0));
  EXPECT_NEAR(ratio / expected, 1.0, 1e-8);
  EXPECT_GE(ratio, rc.rho_infinity);
  EXPECT_LE(ratio, rc.rho_infinity * std::pow(2.0, (d - 1) / 100.0));
}

// generalized_alpha 0.8, hht -0.05 and -0.1. (Faster decays fall below the linear solver's
// absolute tolerance, 1e-50, within the 200 steps: 0.5^200 = 6e-61.)
INSTANTIATE_TEST_SUITE_P(Schemes, AlphaFreeDecay, testing::Values(0, 4, 5));

namespace {

class AlphaConvergence : public TightSolves, public testing::WithParamInterface<const char*> {};

}  // namespace

TEST_P(AlphaConvergence, SecondOrderInTheTimeStep) {
  // As NewmarkBeam.ConvergesWithSecondOrderInTheTimeStep: a stocky block (every mode resolved by
  // the steps below) clamped at its base under a sudden lateral traction on top; the top corner's
  // deflection at t = 3.7 against a run with 32 times smaller steps.
  const std::string options = GetParam();
  const std::string scheme = options.substr(0, options.find(':'));
  const double T = 3.7;
  auto corner = [&](int steps) {
    const double dt = T / steps;
    Simulation r = start(
        "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: hex8}}\n"
        "materials: [{region: all, density: 1.0, youngs_modulus: 1.0, poissons_ratio: 0.3}]\n"
        "boundary_conditions: [{region: zmin, type: fixed},\n"
        "  {region: zmax, type: traction, value: [0.01, 0.002, 0]}]\n"
        "time: {integrator: " +
        scheme + ", " + options + ", dt: " + number(dt) + ", steps: " + std::to_string(steps) +
        "}\n");
    MechanicalSystem& s = r.system();
    for (int n = 0; n < steps; ++n) r.integrator->step(s, r.state, dt);
    return global_value(r.state.u, dof_near(s, {1.0, 1.0, 1.0}, 0));
  };
  const double reference = corner(2560);
  const double e1 = std::abs(corner(80) - reference), e2 = std::abs(corner(160) - reference),
               e3 = std::abs(corner(320) - reference);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %s: errors %.3e %.3e %.3e, ratios %.3f %.3f\n", options.c_str(), e1, e2, e3,
                e1 / e2, e2 / e3);
  EXPECT_NEAR(std::log2(e1 / e2), 2.0, 0.1);
  EXPECT_NEAR(std::log2(e2 / e3), 2.0, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Schemes, AlphaConvergence,
                         testing::Values("generalized_alpha: {rho_infinity: 0.8}",
                                         "hht: {alpha: -0.1}"));

namespace {

/// The block of AlphaConvergence under a traction that varies in time, consistent mass and
/// Rayleigh damping, shaken at its base by a prescribed sine displacement if `shaken`; `model`
/// its material law.
std::string block(const std::string& model, bool shaken, double h, const std::string& time) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: hex8}}\n"
         "materials: [{region: all, model: " +
         model +
         ", density: 1.0, youngs_modulus: 1.0, poissons_ratio: 0.3}]\n"
         "boundary_conditions: [{region: zmin, type: fixed, components: [y, z]},\n" +
         (shaken ? "  {region: zmin, type: displacement, components: [x], value: [0.05], "
                   "amplitude: shake},\n"
                 : "  {region: zmin, type: fixed, components: [x]},\n") +
         "  {region: zmax, type: traction, value: [0.02, 0.01, -0.03], amplitude: push}]\n"
         "amplitudes: {shake: {type: sine, frequency: 0.3}, "
         "push: {type: sine, frequency: 0.2, phase: 0.5}}\n"
         "time: {" +
         time + ", dt: " + number(h) +
         ", end_time: 6, mass: consistent, rayleigh: {mass: 0.05, stiffness: 0.02}}\n";
}

/// Collective. max |x - y| / max |y| over every DOF.
double relative_difference(Vec x, Vec y) {
  petsc::Vector d = petsc::duplicate(y);
  VecWAXPY(d, -1.0, x, y);
  double diff = 0, scale = 0;
  VecNorm(d, NORM_INFINITY, &diff);
  VecNorm(y, NORM_INFINITY, &scale);
  return diff / scale;
}

/// The relative differences of u and v from newmark's at t = 6.
std::array<double, 2> against_newmark(const std::string& model, bool shaken, double h,
                                      const std::string& time) {
  Simulation a = start(block(model, shaken, h, time)),
             b = start(block(model, shaken, h, "integrator: newmark"));
  for (long n = 0; n < std::lround(6 / h); ++n) {
    a.integrator->step(a.system(), a.state, h);
    b.integrator->step(b.system(), b.state, h);
  }
  return {relative_difference(a.state.u, b.state.u), relative_difference(a.state.v, b.state.v)};
}

class AlphaAsNewmark : public TightSolves {};

}  // namespace

// alpha = 0 performs Newmark's operations: the same bits, linear or not, with consistent mass,
// Rayleigh damping and prescribed motion. On one rank; on several, two newmark runs of this case
// already differ by up to 5e-15 (the parallel sums are not reproducible bit for bit).
TEST_F(AlphaAsNewmark, HhtAtAlphaZeroIsNewmarkBitForBit) {
  const double tolerance = size_of(MPI_COMM_WORLD) == 1 ? 0.0 : 1e-13;
  for (const char* model : {"linear_elastic", "neo_hookean"}) {
    const auto [du, dv] = against_newmark(model, true, 0.1, "integrator: hht, hht: {alpha: 0}");
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("  hht alpha 0, %s: u and v differ from newmark by %.1e, %.1e\n", model, du, dv);
    EXPECT_LE(du, tolerance) << model;
    EXPECT_LE(dv, tolerance) << model;
  }
}

// rho_infinity = 1: the balance at the mid-step is the mean of Newmark's at t_n and t_{n+1}, so
// for a linear system the steps are Newmark's up to the round-off of a differently scaled
// operator; with prescribed motion too, since both balances see the supports exactly on their
// path at t_n and t_{n+1}. (Before the prescribed motion entered the steps exactly, the shaken
// case differed by O(h^3): 1.5e-4 at h = 0.1, 1.7e-5 at h = 0.05.)
TEST_F(AlphaAsNewmark, GeneralizedAlphaAtRhoInfinityOneIsNewmarkToRoundOff) {
  const std::string scheme = "integrator: generalized_alpha, generalized_alpha: {rho_infinity: 1}";
  const auto [du, dv] = against_newmark("linear_elastic", false, 0.1, scheme);
  const auto [shaken_du, shaken_dv] = against_newmark("linear_elastic", true, 0.1, scheme);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  generalized_alpha 1: u and v differ from newmark by %.1e, %.1e; shaken: by %.1e, "
        "%.1e\n",
        du, dv, shaken_du, shaken_dv);
  EXPECT_LT(du, 1e-11);
  EXPECT_LT(dv, 1e-11);
  EXPECT_LT(shaken_du, 1e-11);
  EXPECT_LT(shaken_dv, 1e-11);
}

namespace {

/// A Neo-Hookean cantilever under a sudden tip load, 60 steps of 0.01 s: the first bending
/// period is 0.6 s, the highest modes have omega h of order 100. Its high-frequency content: the
/// rms over the last 30 steps of |a_{n+1} - a_n| (every DOF), which is 2 |a| for a mode that
/// alternates from step to step (Newmark's trapezoidal rule maps the high modes near -1 and keeps
/// them) and omega h |a| for a resolved one.
struct CantileverRun {
  double high_frequency = 0;
  double peak = 0;  ///< largest tip deflection
  std::int64_t newton_iterations = 0;
  bool converged = true;
};

CantileverRun cantilever(const std::string& time) {
  Simulation r = start(
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [6, 1, 1], element: tet10}}\n"
      "materials: [{region: all, model: neo_hookean, density: 1000, youngs_modulus: 1.0e7, "
      "poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: xmin, type: fixed},\n"
      "  {region: xmax, type: traction, value: [0, 0, -2.0e3]}]\n"
      "time: {" +
      time + ", dt: 0.01, steps: 60}\n");
  MechanicalSystem& s = r.system();
  CantileverRun run;
  petsc::Vector previous = petsc::duplicate(r.state.v), change = petsc::duplicate(r.state.v);
  const PetscInt tip = dof_near(s, {1, 0.05, 0.05}, 2);
  double sum = 0;
  for (int n = 1; n <= 60; ++n) {
    VecCopy(r.integrator->acceleration(), previous);
    const StepStats stats = r.integrator->step(s, r.state, 0.01);
    run.newton_iterations += stats.nonlinear_iterations;
    run.converged = run.converged && stats.nonlinear_reason.find("CONVERGED") == 0;
    run.peak = std::min(run.peak, global_value(r.state.u, tip));
    if (n > 30) {
      VecWAXPY(change, -1.0, previous, r.integrator->acceleration());
      double norm = 0;
      VecNorm(change, NORM_2, &norm);
      sum += norm * norm;
    }
  }
  run.high_frequency = std::sqrt(sum / 30);
  return run;
}

}  // namespace

// Newton converges at every step (in about two thirds of newmark's iterations: the undamped high
// modes are what Newton has to chase), the high-frequency content falls by more than 5, and the
// peak deflection (the resolved modes) stays within 0.5 % of newmark's.
TEST(AlphaNonlinear, NewtonConvergesAndTheHighModesNewmarkKeepsAreDamped) {
  const CantileverRun newmark = cantilever("integrator: newmark");
  for (const char* scheme :
       {"integrator: generalized_alpha, generalized_alpha: {rho_infinity: 0.8}",
        "integrator: hht, hht: {alpha: -0.05}"}) {
    const CantileverRun alpha = cantilever(scheme);
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf(
          "  %s: high-frequency content %.3e (newmark %.3e, ratio %.3f), peak tip deflection "
          "%.6f (newmark %.6f), Newton iterations %lld (newmark %lld)\n",
          scheme, alpha.high_frequency, newmark.high_frequency,
          alpha.high_frequency / newmark.high_frequency, alpha.peak, newmark.peak,
          static_cast<long long>(alpha.newton_iterations),
          static_cast<long long>(newmark.newton_iterations));
    EXPECT_TRUE(alpha.converged) << scheme;
    EXPECT_LT(alpha.high_frequency, 0.2 * newmark.high_frequency) << scheme;
    EXPECT_NEAR(alpha.peak / newmark.peak, 1.0, 0.005) << scheme;
    EXPECT_LT(alpha.newton_iterations, newmark.newton_iterations) << scheme;
  }
  EXPECT_TRUE(newmark.converged);
  EXPECT_LT(newmark.peak, -0.1);  // 15 % of the length: the Neo-Hookean law is not linear there
}
