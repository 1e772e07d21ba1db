// Prescribed motion enters every step at its exact value (examples/guide/time_integration.md,
// "Prescribed motion, base excitation and the energy balance"), on any rank count: a one-DOF system
// driven through its support, by a displacement table whose kinks fall inside the steps or by an
// acceleration record, follows each scheme's scalar recurrence with the support exactly where the
// amplitude puts it at the times the scheme evaluates its forces (t_{n+1} for Newmark and Newton's
// steps, the alpha-weighted pair for hht and generalized_alpha, t_n for the explicit schemes), with
// the prescribed velocity and acceleration in the damping and consistent-mass couplings; the
// continuous solution through kinks is approached at the schemes' order (2); and under a uniform
// base excitation Rayleigh's mass term damps the velocity relative to the ground only.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;
using test::Simulation;
using test::start;
using test::TightSolves;

namespace {

/// The support's motion: a displacement table with kinks at 0.05, 0.1, 0.15 and 0.2 s (with
/// dt = 0.004 the first and third fall inside steps), or an acceleration record (a table in
/// m/s^2, its velocity and displacement integrated from rest).
std::string support_motion(bool record) {
  return record ? "amplitudes: {motion: {type: table, points: [[0, 0], [0.03, 2.0], [0.07, -1.5], "
                  "[0.13, 0.8], [0.19, -0.4], [0.3, 0.3]]}, wave: {type: sine, frequency: 0.7, "
                  "phase: 0.4}}\n"
                : "amplitudes: {motion: {type: table, points: [[0, 0], [0.05, 0.01], [0.1, "
                  "-0.005], [0.15, 0.008], [0.2, 0], [1, 0]]}, wave: {type: sine, frequency: 0.7, "
                  "phase: 0.4}}\n";
}

/// A one-DOF system whose support moves.
///  - hex: a unit hex8 with one free DOF, the x of its corner (1, 1, 1) (one linear solve per
///    implicit step): every other x is driven (ground: all of them, a uniform base excitation)
///    or fixed but that of the corner (0, 1, 1), which is driven; y and z fixed.
///  - spring: a point mass of 2 hanging on a spring (k = 100) from an anchor driven along y
///    (solved by Newton as every spring system is; linear along the spring's axis).
/// A gravity load with a sine amplitude unless `ground` (then the only forcing is the base's).
struct DrivenModel {
  std::string yaml;
  std::array<double, 3> node;  ///< the free DOF's node
  int component;
  std::array<double, 3> support;  ///< a driven node
};

DrivenModel driven(const std::string& model, bool record, bool ground, const std::string& time) {
  const std::string type = record ? "acceleration" : "displacement";
  const std::string load = ground ? "" : "gravity: {value: [-9.81, 0, 0], amplitude: wave}\n";
  if (model == "hex") {
    const std::string other = ground
                                  ? "  - {region: ymin, type: " + type +
                                        ", components: [x], value: [1], amplitude: motion}\n"
                                        "  - {region: zmin, type: " +
                                        type + ", components: [x], value: [1], amplitude: motion}\n"
                                  : "  - {region: ymin, type: fixed, components: [x]}\n"
                                    "  - {region: zmin, type: fixed, components: [x]}\n";
    return {
        "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}, "
        "partitioner: block}\n"
        "materials: [{region: all, density: 3.0, youngs_modulus: 50.0, poissons_ratio: "
        "0.25}]\n"
        "boundary_conditions:\n"
        "  - {region: all, type: fixed, components: [y, z]}\n"
        "  - {region: xmin, type: " +
            type + ", components: [x], value: [1], amplitude: motion}\n" + other +
            support_motion(record) + load + "time: {" + time + "}\n",
        {1, 1, 1},
        0,
        {0, 1, 1}};
  }
  return {"mesh: {file: " INERTIA_SOURCE_DIR
          "/tests/data/springs/hanging.msh}\n"
          "springs: [{region: spring, stiffness: 100}]\n"
          "point_masses: [{region: bob, mass: 2}]\n"
          "boundary_conditions: [{region: anchor, type: fixed, components: [x, z]}, "
          "{region: anchor, type: " +
              type +
              ", components: [y], value: [1], amplitude: motion}, "
              "{region: bob, type: fixed, components: [x, z]}]\n" +
              support_motion(record) +
              (ground ? "" : "gravity: {value: [0, -9.81, 0], amplitude: wave}\n") + "time: {" +
              time + "}\n",
          {0, -1, 0},
          1,
          {0, 0, 0}};
}

/// What the free DOF's equation of motion is made of, read off the assembled operators:
///   m a + m_c g'' + alpha_M (m v + m_c g') + alpha_K (k v + k_c g') + k u + k_c g = f(t)
/// with a displacement support, and with a uniform base excitation (ground) the mass damping on
/// the velocity relative to the ground, alpha_M (m + m_c) (v - g') in place of alpha_M (m v +
/// m_c g') (m + m_c = the row of M r, r the rigid translation: the constrained DOFs of the row
/// all move by g).
struct Row {
  double m, k, m_c, k_c;
};

/// Collective. The free DOF's row of M and K, and its coupling to the driven DOFs P (the
/// constrained DOFs of the free one's component that move): (M P)_dof, (K P)_dof.
Row row_of(MechanicalSystem& s, PetscInt dof, int component) {
  petsc::Vector e = test::unit_vector(s, dof), p = s.create_vector(), y = s.create_vector();
  // P: 1 on the moving constrained DOFs of the component (their prescribed value is 1 x g).
  s.apply_constraints(0.123456, p, nullptr, nullptr);
  {
    petsc::Array x(p);
    for (PetscInt i = 0; i < x.size(); ++i) x[i] = x[i] != 0 ? 1.0 : 0.0;
  }
  Row r{};
  s.mult_mass(e, y);
  r.m = global_value(y, dof);
  s.mult_stiffness(e, y);
  r.k = global_value(y, dof);
  s.mult_mass(p, y);
  r.m_c = global_value(y, dof);
  s.mult_stiffness(p, y);
  r.k_c = global_value(y, dof);
  (void)component;
  return r;
}

/// The support's motion at t, from the system (g, g', g'' of a driven DOF).
struct Motion {
  double g, v, a;
};

struct Probe {
  MechanicalSystem& s;
  PetscInt driven_dof, free_dof;
  petsc::Vector u = s.create_vector(), v = s.create_vector(), a = s.create_vector(),
                f = s.create_vector();
  Motion motion(double t) {
    s.apply_constraints(t, u, v, a);
    return {global_value(u, driven_dof), global_value(v, driven_dof), global_value(a, driven_dof)};
  }
  double load(double t) {  // f_ext at the free DOF, without the ground's damping share
    s.external_force(t, f);
    petsc::Vector g = s.create_vector();
    s.ground_damping_force(t, g);
    return global_value(f, free_dof) - global_value(g, free_dof);
  }
};

struct Dof {
  double u = 0, v = 0, a = 0;
};

/// The forces of the support and the loads at t, on the free DOF's side of the balance (what
/// does not depend on the free DOF's state), without the support's inertia m_c g''.
double support_force(const Row& r, double alpha_m, double alpha_k, bool ground, const Motion& g,
                     double f) {
  const double mass_damping = ground ? -alpha_m * r.m * g.v : alpha_m * r.m_c * g.v;
  return f - mass_damping - alpha_k * r.k_c * g.v - r.k_c * g.g;
}

/// Newmark's updates with the balance m a_{n+1-am} + c v_{n+1-af} + k u_{n+1-af} = F_{n+1-af}
/// (F the support's forces and the loads, interpolated), the support's inertia weighted like
/// the free DOF's (Chung & Hulbert): written from the papers, not from the implementation.
struct Weights {
  double am, af, beta, gamma;
};

Dof newmark_step(const Weights& p, const Dof& x, double h, const Row& r, double c, double F0,
                 double F1, double g0a, double g1a) {
  const double us = x.u + h * x.v + h * h * (0.5 - p.beta) * x.a;
  const double vs = x.v + h * (1 - p.gamma) * x.a;
  const double rhs = (1 - p.af) * F1 + p.af * F0 - p.am * r.m * x.a -
                     r.m_c * ((1 - p.am) * g1a + p.am * g0a) - c * ((1 - p.af) * vs + p.af * x.v) -
                     r.k * ((1 - p.af) * us + p.af * x.u);
  const double a = rhs / ((1 - p.am) * r.m + (1 - p.af) * (h * p.gamma * c + h * h * p.beta * r.k));
  return {us + h * h * p.beta * a, vs + h * p.gamma * a, a};
}

struct SchemeCase {
  std::string integrator;  ///< time: keys
  Weights weights;         ///< Newmark family; explicit schemes: unused
  enum class Kind { newmark, central_difference, symplectic_euler } kind;
};

std::vector<SchemeCase> scheme_cases() {
  const double alpha = -0.1, rho = 0.8;
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  return {
      {"integrator: newmark", {0, 0, 0.25, 0.5}, SchemeCase::Kind::newmark},
      {"integrator: hht, hht: {alpha: -0.1}",
       {0, -alpha, (1 - alpha) * (1 - alpha) / 4, 0.5 - alpha},
       SchemeCase::Kind::newmark},
      {"integrator: generalized_alpha, generalized_alpha: {rho_infinity: 0.8}",
       {am, af, (1 - am + af) * (1 - am + af) / 4, 0.5 - am + af},
       SchemeCase::Kind::newmark},
      {"integrator: central_difference", {}, SchemeCase::Kind::central_difference},
      {"integrator: symplectic_euler", {}, SchemeCase::Kind::symplectic_euler},
  };
}

/// (model, scheme index, mass, acceleration record, ground, Rayleigh damping: alpha_M 0.7 and
/// alpha_K 0.02)
using RecurrenceParam = std::tuple<const char*, int, const char*, bool, bool, bool>;

class DrivenRecurrence : public TightSolves, public testing::WithParamInterface<RecurrenceParam> {
 protected:
  void SetUp() override {
    TightSolves::SetUp();
    PetscOptionsSetValue(nullptr, "-mass_ksp_rtol", "1e-14");
    PetscOptionsSetValue(nullptr, "-snes_rtol", "1e-14");
  }
  void TearDown() override {
    PetscOptionsClearValue(nullptr, "-mass_ksp_rtol");
    PetscOptionsClearValue(nullptr, "-snes_rtol");
    TightSolves::TearDown();
  }
};

}  // namespace

TEST_P(DrivenRecurrence, EveryStepEqualsTheScalarRecurrenceWithTheExactSupportPosition) {
  const auto [model, index, mass, record, ground, damped] = GetParam();
  const double alpha_m = damped ? 0.7 : 0.0, alpha_k = damped ? 0.02 : 0.0;
  const SchemeCase scheme = scheme_cases()[static_cast<std::size_t>(index)];
  const double h = 0.004;
  const int steps = 60;
  const DrivenModel d =
      driven(model, record, ground,
             scheme.integrator + ", dt: 0.004, steps: 60, mass: " + mass +
                 ", rayleigh: {mass: " + number(alpha_m) + ", stiffness: " + number(alpha_k) + "}");
  Simulation r = start(d.yaml);
  MechanicalSystem& s = r.system();
  ASSERT_EQ(s.num_global_dofs() - s.num_constrained_dofs(), 1);
  const PetscInt dof = dof_near(s, d.node, d.component);
  Probe probe{s, dof_near(s, d.support, d.component), dof};
  const Row row = row_of(s, dof, d.component);
  ASSERT_NE(row.k_c, 0.0);
  // A record makes a uniform base excitation where every support of the component follows it
  // (the spring's anchor; the hex with `ground`), a multi-support one where fixed supports stay.
  using G = MechanicalSystem::GroundMotion;
  const bool hex = std::string(model) == "hex";
  const G expected = !record ? G::displaced : (ground || !hex) ? G::uniform : G::multi_support;
  ASSERT_EQ(s.ground_motion()[d.component], expected);
  const bool uniform = expected == G::uniform;
  const double c = alpha_m * row.m + alpha_k * row.k;
  auto F = [&](double t) {
    const Motion g = probe.motion(t);
    return support_force(row, alpha_m, alpha_k, uniform, g, probe.load(t));
  };
  Dof x;  // from rest, u = 0
  const Motion g0 = probe.motion(0.0);
  x.a = (F(0.0) - row.m_c * g0.a) / row.m;
  double v_half = x.v - 0.5 * h * x.a;  // central difference: the half-step start
  double worst = 0, scale = 0;
  for (int n = 0; n < steps; ++n) {
    const double t0 = n * h, t1 = (n + 1) * h;
    r.integrator->step(s, r.state, h);
    switch (scheme.kind) {
      case SchemeCase::Kind::newmark:
        x = newmark_step(scheme.weights, x, h, row, c, F(t0), F(t1), probe.motion(t0).a,
                         probe.motion(t1).a);
        break;
      case SchemeCase::Kind::central_difference: {
        // a_n = (F(t_n) - k u_n) / m (lumped, undamped); v_{n+1/2} = v_{n-1/2} + h a_n
        v_half += h * x.a;
        x.u += h * v_half;
        const double a1 = (F(t1) - row.k * x.u) / row.m;
        x.v = v_half + 0.5 * h * a1;
        x.a = a1;
        break;
      }
      case SchemeCase::Kind::symplectic_euler: {
        const double a0 = (F(t0) - c * x.v - row.k * x.u) / row.m;
        x.v += h * a0;
        x.u += h * x.v;
        x.a = a0;
        break;
      }
    }
    scale = std::max({scale, std::abs(x.u), std::abs(x.v) * h});
    worst = std::max({worst, std::abs(global_value(r.state.u, dof) - x.u),
                      std::abs(global_value(r.state.v, dof) - x.v) * h});
    if (scheme.kind == SchemeCase::Kind::newmark) {
      scale = std::max(scale, std::abs(x.a) * h * h);
      worst =
          std::max(worst, std::abs(global_value(r.integrator->acceleration(), dof) - x.a) * h * h);
    }
  }
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %s, %s, %s mass, %s%s: largest difference %.2e of the largest value\n", model,
                scheme.integrator.c_str(), mass, record ? "acceleration record" : "kinked table",
                uniform ? " (uniform base excitation)" : "", worst / scale);
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(worst / scale, 1e-12);
}

// The implicit Newmark family: linear steps (hex, lumped and consistent mass, with Rayleigh
// damping) and Newton's (spring).
INSTANTIATE_TEST_SUITE_P(Implicit, DrivenRecurrence,
                         testing::Combine(testing::Values("hex"), testing::Values(0, 1, 2),
                                          testing::Values("lumped", "consistent"), testing::Bool(),
                                          testing::Values(false), testing::Bool()));
INSTANTIATE_TEST_SUITE_P(ImplicitNewton, DrivenRecurrence,
                         testing::Combine(testing::Values("spring"), testing::Values(0, 1, 2),
                                          testing::Values("lumped"), testing::Bool(),
                                          testing::Values(false), testing::Bool()));
// Uniform base excitation (the hex driven on every support; the spring's anchor always is): mass
// damping on the velocity relative to the ground.
INSTANTIATE_TEST_SUITE_P(Ground, DrivenRecurrence,
                         testing::Combine(testing::Values("hex"), testing::Values(0, 1, 2),
                                          testing::Values("lumped"), testing::Values(true),
                                          testing::Values(true), testing::Values(true)));
INSTANTIATE_TEST_SUITE_P(GroundConsistentMass, DrivenRecurrence,
                         testing::Combine(testing::Values("hex"), testing::Values(0, 1, 2),
                                          testing::Values("consistent"), testing::Values(true),
                                          testing::Values(true), testing::Values(true)));
// Explicit schemes (lumped mass): central difference undamped, symplectic Euler with damping.
INSTANTIATE_TEST_SUITE_P(CentralDifference, DrivenRecurrence,
                         testing::Combine(testing::Values("hex", "spring"), testing::Values(3),
                                          testing::Values("lumped"), testing::Bool(),
                                          testing::Values(false), testing::Values(false)));
INSTANTIATE_TEST_SUITE_P(SymplecticEuler, DrivenRecurrence,
                         testing::Combine(testing::Values("hex", "spring"), testing::Values(4),
                                          testing::Values("lumped"), testing::Bool(),
                                          testing::Values(false), testing::Bool()));
INSTANTIATE_TEST_SUITE_P(SymplecticEulerGround, DrivenRecurrence,
                         testing::Combine(testing::Values("hex"), testing::Values(4),
                                          testing::Values("lumped"), testing::Values(true),
                                          testing::Values(true), testing::Values(true)));

namespace {

/// The continuous solution of m u'' + k u + k_c g(t) = f0 for a support g piecewise linear
/// through `kinks` (the model's table), from rest: on each segment g = g_i + s_i (t - t_i), the
/// particular solution (f0 - k_c g(t)) / k plus a free vibration matching u and u' at t_i.
double exact_through_kinks(double m, double k, double k_c, double f0,
                           const std::vector<std::pair<double, double>>& kinks, double t_end) {
  const double w = std::sqrt(k / m);
  double u = 0, v = 0;
  for (std::size_t i = 0; i + 1 < kinks.size() && kinks[i].first < t_end; ++i) {
    const auto [ta, ga] = kinks[i];
    const auto [tb, gb] = kinks[i + 1];
    const double slope = (gb - ga) / (tb - ta);
    const double up = (f0 - k_c * ga) / k, vp = -k_c * slope / k;  // particular solution at ta
    const double A = u - up, B = (v - vp) / w;
    const double tau = std::min(tb, t_end) - ta;
    const double g = ga + slope * tau;
    u = (f0 - k_c * g) / k + A * std::cos(w * tau) + B * std::sin(w * tau);
    v = vp - A * w * std::sin(w * tau) + B * w * std::cos(w * tau);
  }
  return u;
}

}  // namespace

class DrivenConvergence : public TightSolves,
                          public testing::WithParamInterface<std::tuple<const char*, int>> {
 protected:
  void SetUp() override {
    TightSolves::SetUp();
    PetscOptionsSetValue(nullptr, "-snes_rtol", "1e-14");
  }
  void TearDown() override {
    PetscOptionsClearValue(nullptr, "-snes_rtol");
    TightSolves::TearDown();
  }
};

TEST_P(DrivenConvergence, ApproachesTheContinuousSolutionThroughKinksAtSecondOrder) {
  // Kinks at times that fall inside the steps of every dt below; a constant load f0 (gravity).
  const auto [model, index] = GetParam();
  const SchemeCase scheme = scheme_cases()[static_cast<std::size_t>(index)];
  const std::vector<std::pair<double, double>> kinks{
      {0, 0}, {0.0513, 0.01}, {0.1029, -0.005}, {0.1547, 0.008}, {0.2061, 0}, {1, 0}};
  std::string table = "[";
  for (const auto& [t, g] : kinks) table += "[" + number(t) + ", " + number(g) + "], ";
  table.replace(table.size() - 2, 2, "]");
  const double t_end = 0.32;
  std::vector<double> errors;
  const std::vector<double> steps_h{0.008, 0.004, 0.002, 0.001};
  for (double h : steps_h) {
    const int steps = static_cast<int>(std::lround(t_end / h));
    DrivenModel d = driven(model, false, false,
                           scheme.integrator + ", dt: " + number(h) +
                               ", steps: " + std::to_string(steps) + ", mass: lumped");
    // The kinks of this test, a constant gravity.
    const auto at = d.yaml.find("amplitudes:");
    const auto end = d.yaml.find("time:");
    const std::string axis = std::string(model) == "hex" ? "[-9.81, 0, 0]" : "[0, -9.81, 0]";
    d.yaml = d.yaml.substr(0, at) + "amplitudes: {motion: {type: table, points: " + table +
             "}}\ngravity: " + axis + "\n" + d.yaml.substr(end);
    Simulation r = start(d.yaml);
    MechanicalSystem& s = r.system();
    const PetscInt dof = dof_near(s, d.node, d.component);
    const Row row = row_of(s, dof, d.component);
    petsc::Vector f = s.create_vector();
    s.external_force(0.0, f);
    const double f0 = global_value(f, dof);
    for (int n = 0; n < steps; ++n) r.integrator->step(s, r.state, h);
    const double exact = exact_through_kinks(row.m, row.k, row.k_c, f0, kinks, t_end);
    errors.push_back(std::abs(global_value(r.state.u, dof) - exact));
  }
  // Second order: error / h^2 stays within a narrow band (its constant depends on where in its
  // step each kink falls, which changes with h, so successive ratios are not exactly 4); a
  // first-order error would double error / h^2 at each halving (8x over the four).
  double lo = INFINITY, hi = 0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const double c = errors[i] / (steps_h[i] * steps_h[i]);
    lo = std::min(lo, c), hi = std::max(hi, c);
  }
  const double order = std::log2(errors.front() / errors.back()) / 3;
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  %s, %s: errors %.3e %.3e %.3e %.3e, mean order %.3f, error/h^2 in [%.4g, %.4g]\n", model,
        scheme.integrator.c_str(), errors[0], errors[1], errors[2], errors[3], order, lo, hi);
  EXPECT_GT(order, 1.8);
  EXPECT_LT(hi / lo, 1.6);
}

INSTANTIATE_TEST_SUITE_P(Schemes, DrivenConvergence,
                         testing::Combine(testing::Values("hex", "spring"),
                                          testing::Values(0, 1, 2, 3)));
