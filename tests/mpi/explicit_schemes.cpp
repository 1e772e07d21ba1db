// The explicit schemes (examples/guide/time_integration.md; their recurrences in
// include/inertia/time/) on a one-DOF mass-spring system built from a single hexahedron (every DOF
// fixed but the x component of one corner), on any rank count: every step against the scheme's
// scalar recurrence written out below, observed orders of accuracy against the exact free
// vibration, stability limits in omega h, bounded energy of symplectic Euler, and the exact
// mass-proportional damping of central difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;

namespace {

/// Tight linear solves (consistent mass) so the comparisons measure the scheme.
class TightSolves : public testing::Test {
 protected:
  void SetUp() override { PetscOptionsSetValue(nullptr, "-mass_ksp_rtol", "1e-14"); }
  void TearDown() override { PetscOptionsClearValue(nullptr, "-mass_ksp_rtol"); }
};

/// Sets DOF `dof` (global) of x to `value`. Collective.
void set_value(Vec x, PetscInt dof, double value) {
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(x, &lo, &hi);
  if (dof >= lo && dof < hi) VecSetValue(x, dof, value, INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
}

/// A scheme as a case file selects it, with what the order test expects of it.
struct SchemeCase {
  const char* label;
  const char* integrator;
  const char* options;  ///< extra keys of `time:`
  int order;            ///< observed order of accuracy
  int coarse_steps;     ///< steps of the coarsest run of the order test
};

const SchemeCase scheme_cases[] = {
    {"euler_explicit", "euler_explicit", "", 1, 100},
    {"symplectic_euler", "symplectic_euler", "", 1, 100},
    {"central_difference", "central_difference", "", 2, 25},
    {"central_difference_sofa_start", "central_difference",
     ", central_difference: {half_step_start: false}", 1, 100},
    {"rk2", "rk2", "", 2, 25},
    {"heun", "heun", "", 2, 25},
    {"rk4", "rk4", "", 4, 20},
    // First order: with p = M v it is symplectic Euler in momentum form (see its header).
    {"variational_symplectic_explicit", "variational_symplectic",
     ", variational_symplectic: {explicit: true}", 1, 100},
};
constexpr int num_schemes = static_cast<int>(std::size(scheme_cases));

const SchemeCase& scheme_named(std::string_view label) {
  for (const auto& s : scheme_cases)
    if (s.label == label) return s;
  throw std::logic_error("no scheme " + std::string(label));
}

/// Options of the one-DOF system.
struct OneDofSetup {
  const char* mass = "lumped";
  double alpha_m = 0, alpha_k = 0;
  bool gravity = true;  ///< gravity along -x as the load
  bool shaken = false;  ///< gravity times pulse(t), and the xmin face moving along x as shake(t)
  double v0 = 0;        ///< initial velocity (through initial_conditions)
  double x0 = 0;        ///< initial displacement of the free DOF, as a multiple of v0 / omega
};

/// The time functions of a shaken one-DOF system, with the derivatives the constraints use.
constexpr double pulse_rate = 2 * 3.14159265358979323846 * 1.3, pulse_phase = 0.4;
constexpr double shake_rate = 2 * 3.14159265358979323846 * 0.9, shake_phase = 0.2;
const char* const shaken_amplitudes =
    "amplitudes: {pulse: {type: sine, frequency: 1.3, phase: 0.4},\n"
    "             shake: {type: sine, frequency: 0.9, phase: 0.2}}\n";
double pulse(double t) { return std::sin(pulse_rate * t + pulse_phase); }
double shake(double t) { return std::sin(shake_rate * t + shake_phase); }
double shake_rate_of_change(double t) {
  return shake_rate * std::cos(shake_rate * t + shake_phase);
}
double shake_acceleration(double t) { return -shake_rate * shake_rate * shake(t); }

/// One hexahedron with y and z fixed everywhere and x fixed (or, shaken, moved as
/// g(t) = G shake(t)) on the xmin face, x fixed on the ymin and zmin faces: only x of the node
/// (1, 1, 1) is free. m, k, f are that DOF's entries of the assembled M, K and load (f at unit
/// amplitude), kc and mc its coupling (K G)_free, (M G)_free to the prescribed motion, and
/// omega = sqrt(k / m).
struct OneDof {
  Model model;
  State state;
  std::unique_ptr<Integrator> integrator;
  PetscInt dof = -1;
  double m = 0, k = 0, f = 0, kc = 0, mc = 0, omega = 0;
  MechanicalSystem& system() { return *model.system; }
  double u() { return global_value(state.u, dof); }
  double v() { return global_value(state.v, dof); }
  double energy() { return 0.5 * m * v() * v() + 0.5 * k * u() * u(); }
  StepStats step(double h) { return integrator->step(system(), state, h); }
};

OneDof one_dof(const SchemeCase& scheme, const OneDofSetup& o) {
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [1, 1, 1], element: hex8}, "
      "partitioner: block}\n"
      "materials: [{region: all, density: 3.0, youngs_modulus: 50.0, poissons_ratio: 0.25}]\n"
      "boundary_conditions:\n"
      "  - {region: all, type: fixed, components: [y, z]}\n" +
      std::string(o.shaken ? "  - {region: xmin, type: displacement, components: [x], value: "
                             "[0.02], amplitude: shake}\n"
                           : "  - {region: xmin, type: fixed, components: [x]}\n") +
      "  - {region: ymin, type: fixed, components: [x]}\n"
      "  - {region: zmin, type: fixed, components: [x]}\n" +
      (o.shaken ? shaken_amplitudes : "") +
      (!o.gravity ? ""
       : o.shaken ? "gravity: {value: [-9.81, 0, 0], amplitude: pulse}\n"
                  : "gravity: [-9.81, 0, 0]\n") +
      (o.v0 != 0 ? "initial_conditions: {velocity: [" + number(o.v0) + ", 0, 0]}\n" : "") +
      "time: {integrator: " + scheme.integrator + scheme.options +
      ", dt: 0.05, steps: 60, mass: " + o.mass + ", rayleigh: {mass: " + number(o.alpha_m) +
      ", stiffness: " + number(o.alpha_k) + "}}\n";
  const CaseFile c = parse_case(yaml, "explicit_one_dof.yaml");
  OneDof r{build_model(MPI_COMM_WORLD, c), {}, nullptr};
  MechanicalSystem& s = r.system();
  r.dof = dof_near(s, {1, 1, 1}, 0);
  petsc::Vector e = s.create_vector(), y = s.create_vector();
  set_value(e, r.dof, 1.0);
  s.mult_mass(e, y);
  r.m = global_value(y, r.dof);
  s.mult_stiffness(e, y);
  r.k = global_value(y, r.dof);
  const double t_probe = 0.3;  // pulse and shake are far from 0 there
  s.external_force(t_probe, y);
  r.f = global_value(y, r.dof) / (o.shaken ? pulse(t_probe) : 1.0);
  if (o.shaken) {
    petsc::Vector g = s.create_vector();
    s.apply_constraints(t_probe, g, nullptr, nullptr);  // G shake(t_probe), zero elsewhere
    s.mult_stiffness(g, y);
    r.kc = global_value(y, r.dof) / shake(t_probe);
    s.mult_mass(g, y);
    r.mc = global_value(y, r.dof) / shake(t_probe);
  }
  r.omega = std::sqrt(r.k / r.m);

  r.state.u = s.create_vector();
  r.state.v = s.create_vector();
  for (const auto& iv : s.spec().initial_velocity) {
    petsc::Array v(r.state.v);
    for (PetscInt i = 0; i < v.size(); ++i) v[i] = iv.value[i % 3];
  }
  if (o.x0 != 0) set_value(r.state.u, r.dof, o.x0 * o.v0 / r.omega);
  s.apply_constraints(0.0, r.state.u, r.state.v, nullptr);
  r.integrator = c.scheme.create();
  r.integrator->initialize(s, r.state);
  return r;
}

// ---------------------------------------------------------------------------------------------
// The scalar recurrences, written from the headers under include/inertia/time/ for the free DOF:
//   m a + c v + k x = f p(t) - kc s(t) - (alpha_M mc + alpha_K kc) s'(t) - mc s''(t),
// c = alpha_M m + alpha_K k, where p is the load's amplitude and the constrained DOFs move as
// G s(t) (at each stage time: the terms in kc and mc are the free row of K g, C g', M g'').
// Returns (x_n, v_n) for n = 1..steps.

struct Scalars {
  double m, k, f, alpha_m, alpha_k, kc, mc;
  bool shaken;
};
using History = std::vector<std::pair<double, double>>;

History reference(std::string_view label, const Scalars& s, double h, double x, double v,
                  int steps) {
  const double m = s.m, k = s.k, f = s.f, am = s.alpha_m, ak = s.alpha_k, kc = s.kc, mc = s.mc;
  const double c = am * m + ak * k;
  auto p = [&](double t) { return s.shaken ? pulse(t) : 1.0; };
  auto g = [&](double t) { return s.shaken ? shake(t) : 0.0; };
  auto dg = [&](double t) { return s.shaken ? shake_rate_of_change(t) : 0.0; };
  auto ddg = [&](double t) { return s.shaken ? shake_acceleration(t) : 0.0; };
  // The free DOF's elastic and external force with the constrained DOFs at g(t).
  auto force = [&](double t, double x) { return f * p(t) - k * x - kc * g(t); };
  // a(t, x, v) = M^{-1} (f(t, x) - C v), constrained velocity g'(t), acceleration g''(t).
  auto a = [&](double t, double x, double v) {
    return (force(t, x) - c * v - (am * mc + ak * kc) * dg(t) - mc * ddg(t)) / m;
  };
  History out;
  double t = 0;
  if (label == "euler_explicit") {
    for (int n = 0; n < steps; ++n, t += h) {
      const double an = a(t, x, v);
      x = x + h * v;
      v = v + h * an;
      out.emplace_back(x, v);
    }
  } else if (label == "symplectic_euler") {
    for (int n = 0; n < steps; ++n, t += h) {
      v = v + h * a(t, x, v);
      x = x + h * v;
      out.emplace_back(x, v);
    }
  } else if (label == "central_difference" || label == "central_difference_sofa_start") {
    // half[n] = v_{n-1/2} (free DOF) and half_g[n] its constrained counterpart; xs[n] = x_n.
    // One step beyond `steps` gives the last whole-step velocity (v_{n-1/2} + v_{n+1/2}) / 2.
    const bool half_step_start = label == "central_difference";
    std::vector<double> half(steps + 2), half_g(steps + 2), xs(steps + 2);
    xs[0] = x;
    half[0] = half_step_start ? v - 0.5 * h * a(0, x, v) : v;
    half_g[0] = half_step_start ? dg(0) - 0.5 * h * ddg(0) : dg(0);
    for (int n = 0; n <= steps; ++n) {
      const double tn = n * h;
      // a_n = M^{-1} (f(x_n, v_{n-1/2}) - alpha_K K v_{n-1/2}), plus the coupling of the
      // prescribed half-step velocity through alpha_M M_fc and of g'' through M_fc.
      const double an = (force(tn, xs[n]) - ak * (k * half[n] + kc * half_g[n]) -
                         am * mc * half_g[n] - mc * ddg(tn)) /
                        m;
      if (am == 0) {
        half[n + 1] = half[n] + h * an;
      } else {
        const double cv = (1 / h - am / 2) / (1 / h + am / 2), ca = 1 / (1 / h + am / 2);
        half[n + 1] = cv * half[n] + ca * an;
      }
      half_g[n + 1] = dg(tn + h / 2);
      xs[n + 1] = xs[n] + h * half[n + 1];
    }
    for (int n = 1; n <= steps; ++n) out.emplace_back(xs[n], 0.5 * (half[n] + half[n + 1]));
  } else if (label == "rk2") {
    for (int n = 0; n < steps; ++n, t += h) {
      const double a1 = a(t, x, v);
      const double xm = x + h / 2 * v, vm = v + h / 2 * a1;
      const double a2 = a(t + h / 2, xm, vm);
      x = x + h * vm;
      v = v + h * a2;
      out.emplace_back(x, v);
    }
  } else if (label == "heun") {
    for (int n = 0; n < steps; ++n, t += h) {
      const double a1 = a(t, x, v);
      const double xp = x + h * v, vp = v + h * a1;
      const double a2 = a(t + h, xp, vp);
      x = x + h / 2 * (v + vp);
      v = v + h / 2 * (a1 + a2);
      out.emplace_back(x, v);
    }
  } else if (label == "rk4") {
    for (int n = 0; n < steps; ++n, t += h) {
      const double a1 = a(t, x, v);
      const double x2 = x + h / 2 * v, v2 = v + h / 2 * a1, a2 = a(t + h / 2, x2, v2);
      const double x3 = x + h / 2 * v2, v3 = v + h / 2 * a2, a3 = a(t + h / 2, x3, v3);
      const double x4 = x + h * v3, v4 = v + h * a3, a4 = a(t + h, x4, v4);
      x = x + h / 6 * (v + 2 * v2 + 2 * v3 + v4);
      v = v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
      out.emplace_back(x, v);
    }
  } else if (label == "variational_symplectic_explicit") {
    // p = M v (free row: m v + mc g'(t)); v+ = M^{-1} (p + h f - h alpha_K K v) - h alpha_M v,
    // with the free row of M^{-1} lifting the prescribed g'(t_{n+1}) and the coupling of the
    // prescribed velocity through alpha_M M_fc.
    double p_n = m * v + mc * dg(0);
    for (int n = 0; n < steps; ++n, t += h) {
      const double v1 = (p_n + h * force(t, x) - h * ak * (k * v + kc * dg(t)) -
                         h * am * mc * dg(t) - mc * dg(t + h)) /
                            m -
                        h * am * v;
      x = x + h * v1;
      v = v1;
      p_n = m * v + mc * dg(t + h);
      out.emplace_back(x, v);
    }
  } else {
    throw std::logic_error("no reference for " + std::string(label));
  }
  return out;
}

double recurrence_tolerance() { return size_of(MPI_COMM_WORLD) == 1 ? 1e-12 : 1e-10; }

using RecurrenceParam = std::tuple<int, const char*, std::pair<double, double>, bool>;
class ExplicitRecurrence : public TightSolves,
                           public testing::WithParamInterface<RecurrenceParam> {};

using OrderParam = std::tuple<int, const char*>;
class ExplicitOrder : public TightSolves, public testing::WithParamInterface<OrderParam> {};

class ExplicitStability : public TightSolves {};
class CentralDifferenceDamping : public TightSolves {};
class ExplicitEquivalence : public TightSolves {};

}  // namespace

// (a) Each step equals the scheme's scalar recurrence under gravity, with and without Rayleigh
// damping (alpha_M and alpha_K both non-zero), with m, k, f from the assembled operators; and
// "shaken": a time-dependent load and prescribed support motion, which sees the time at which
// each force is evaluated (it tells rk2 from heun, which are the same map for constant loads)
// and the prescribed motion of every stage state.
TEST_P(ExplicitRecurrence, EveryStepEqualsTheScalarRecurrence) {
  const auto& [index, mass, damping, shaken] = GetParam();
  const SchemeCase& scheme = scheme_cases[index];
  const auto [alpha_m, alpha_k] = damping;
  OneDof r =
      one_dof(scheme, {.mass = mass, .alpha_m = alpha_m, .alpha_k = alpha_k, .shaken = shaken});
  MechanicalSystem& s = r.system();
  ASSERT_EQ(s.num_global_dofs() - s.num_constrained_dofs(), 1);
  EXPECT_EQ(s.has_prescribed_motion(), shaken);
  if (shaken) {
    EXPECT_NE(r.kc, 0.0) << "the moving face must pull on the free DOF";
  }
  const double h = 0.05;
  const History ref = reference(scheme.label, {r.m, r.k, r.f, alpha_m, alpha_k, r.kc, r.mc, shaken},
                                h, 0.0, 0.0, 60);
  std::int64_t iterations = 0;
  double worst = 0, scale = 0;
  for (const auto& [x, v] : ref) {
    iterations += r.step(h).linear_iterations;
    scale = std::max({scale, std::abs(x), std::abs(v) * h});
    worst = std::max({worst, std::abs(r.u() - x), std::abs(r.v() - v) * h});
  }
  EXPECT_LT(worst / scale, recurrence_tolerance())
      << scheme.label << ": m " << r.m << " k " << r.k << " f " << r.f << " kc " << r.kc << " mc "
      << r.mc << " omega h " << r.omega * h;
  EXPECT_GT(scale, 0.0);
  EXPECT_EQ(r.state.step, 60);
  EXPECT_NEAR(r.state.time, 60 * h, 1e-12);
  if (std::string_view(mass) == "lumped")
    EXPECT_EQ(iterations, 0) << "a lumped mass is a pointwise division";
  else
    EXPECT_GT(iterations, 0) << "a consistent mass is a KSP solve";
}

INSTANTIATE_TEST_SUITE_P(
    SchemesMassesDampingLoads, ExplicitRecurrence,
    testing::Combine(testing::Range(0, num_schemes), testing::Values("lumped", "consistent"),
                     testing::Values(std::pair{0.0, 0.0}, std::pair{0.7, 0.02}), testing::Bool()),
    [](const testing::TestParamInfo<RecurrenceParam>& info) {
      return std::string(scheme_cases[std::get<0>(info.param)].label) + "_" +
             std::get<1>(info.param) +
             (std::get<2>(info.param).first != 0 ? "_rayleigh" : "_undamped") +
             (std::get<3>(info.param) ? "_shaken" : "_steady");
    });

// (b) Observed order of accuracy on the undamped free vibration
// u = x_0 cos(omega t) + (v_0 / omega) sin(omega t), sampled at omega T = 2.3 (not a multiple of
// the period). The initial displacement x_0 = 0.6 v_0 / omega makes a_0 != 0: from x_0 = 0 the
// first-order start error of symplectic Euler (and of everything equal to it) vanishes and they
// look second order.
TEST_P(ExplicitOrder, ConvergesWithTheSchemesOrderAtATimeThatIsNotAPeriodMultiple) {
  const auto& [index, mass] = GetParam();
  const SchemeCase& scheme = scheme_cases[index];
  const double v0 = 0.8, phase = 2.3;
  std::vector<double> errors;
  for (int level = 0; level < 3; ++level) {
    OneDof r = one_dof(scheme, {.mass = mass, .gravity = false, .v0 = v0, .x0 = 0.6});
    const int steps = scheme.coarse_steps << level;
    const double T = phase / r.omega, h = T / steps;
    for (int n = 0; n < steps; ++n) r.step(h);
    const double exact = 0.6 * v0 / r.omega * std::cos(phase) + v0 / r.omega * std::sin(phase);
    errors.push_back(std::abs(r.u() - exact) / (v0 / r.omega));
  }
  const double order1 = std::log2(errors[0] / errors[1]), order2 = std::log2(errors[1] / errors[2]);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  %-32s %-10s errors %.3e %.3e %.3e, observed orders %.3f %.3f\n", scheme.label,
                mass, errors[0], errors[1], errors[2], order1, order2);
  EXPECT_NEAR(order1, scheme.order, 0.1);
  EXPECT_NEAR(order2, scheme.order, 0.1);
}

INSTANTIATE_TEST_SUITE_P(SchemesMasses, ExplicitOrder,
                         testing::Combine(testing::Range(0, num_schemes),
                                          testing::Values("lumped", "consistent")),
                         [](const testing::TestParamInfo<OrderParam>& info) {
                           return std::string(scheme_cases[std::get<0>(info.param)].label) + "_" +
                                  std::get<1>(info.param);
                         });

// (c) Stability limits in omega h, with omega = sqrt(k / m) exact for the one-DOF system.
// Energies relative to the initial one of a free vibration started with velocity v_0.
namespace {

/// E_n / E_0 for n = 1..steps at the given omega h.
std::vector<double> energy_ratios(const SchemeCase& scheme, double omega_h, int steps) {
  OneDof r = one_dof(scheme, {.gravity = false, .v0 = 1.0});
  const double h = omega_h / r.omega, e0 = r.energy();
  std::vector<double> ratios;
  for (int n = 0; n < steps; ++n) {
    r.step(h);
    ratios.push_back(r.energy() / e0);
  }
  return ratios;
}

double max_of(const std::vector<double>& x) { return *std::max_element(x.begin(), x.end()); }

}  // namespace

TEST_F(ExplicitStability, LeapFrogFamilyIsBoundedBelowOmegaHTwoAndGrowsAbove) {
  // At omega h = 1.99 the energy oscillates by up to 1 / (1 - omega h / 2) = 200 (the discrete
  // invariant is a very elongated ellipse) but never grows; at 2.01 the amplification factor is
  // 1.22 per step, 10^69 in energy over 400 steps.
  for (const char* label :
       {"symplectic_euler", "central_difference", "variational_symplectic_explicit"}) {
    const auto below = energy_ratios(scheme_named(label), 1.99, 400);
    const auto above = energy_ratios(scheme_named(label), 2.01, 400);
    EXPECT_LT(max_of(below), 300.0) << label;
    EXPECT_LT(below.back(), 300.0) << label;
    EXPECT_GT(above.back(), 1e30) << label;
  }
}

TEST_F(ExplicitStability, Rk4IsBoundedBelowTwoRootTwoAndGrowsAbove) {
  // |R(i z)|^2 = 1 - z^6/72 + z^8/576 crosses 1 at z = 2 sqrt(2) with slope 5: at +-0.01 the
  // energy changes by about (1 +- 0.05) per step (10^{+-8.7} over 400 steps).
  const double limit = 2 * std::sqrt(2.0);
  const auto below = energy_ratios(scheme_named("rk4"), limit - 0.01, 400);
  const auto above = energy_ratios(scheme_named("rk4"), limit + 0.01, 400);
  EXPECT_LE(max_of(below), 1.0);
  EXPECT_LT(below.back(), 1e-6);
  EXPECT_GT(above.back(), 1e6);
}

TEST_F(ExplicitStability, EulerExplicitAndTwoStageSchemesGrowEvenAtASmallStep) {
  // On an undamped mode each step multiplies the energy by |R(i omega h)|^2 exactly:
  // 1 + (omega h)^2 for forward Euler, 1 + (omega h)^4 / 4 for the two-stage second-order schemes.
  const double z = 0.1;
  const std::pair<const char*, double> growth[] = {{"euler_explicit", 1 + z * z},
                                                   {"rk2", 1 + std::pow(z, 4) / 4},
                                                   {"heun", 1 + std::pow(z, 4) / 4}};
  for (const auto& [label, factor] : growth) {
    const auto ratios = energy_ratios(scheme_named(label), z, 400);
    double previous = 1, worst = 0;
    bool increasing = true;
    for (std::size_t n = 0; n < ratios.size(); ++n) {
      increasing = increasing && ratios[n] > previous;
      previous = ratios[n];
      worst = std::max(worst, std::abs(ratios[n] / std::pow(factor, n + 1) - 1));
    }
    EXPECT_TRUE(increasing) << label;
    EXPECT_GT(ratios.back(), 1.005) << label;
    EXPECT_LT(worst, 1e-9) << label << ": growth is not |R|^2 per step";
  }
}

TEST_F(ExplicitStability, SymplecticEulerKeepsItsEnergyBoundedOverTenThousandSteps) {
  // Symplectic Euler conserves Q = v^2 + omega^2 x^2 - h omega^2 x v exactly on a linear
  // undamped system, so E = (m/2)(v^2 + omega^2 x^2) stays within [Q/(1 + omega h/2),
  // Q/(1 - omega h/2)] (from 0.8 to 1.33 E_0 at omega h = 0.5, started at x = 0): it oscillates
  // but does not drift. Q itself stays at its initial value.
  const double omega_h = 0.5;
  OneDof r = one_dof(scheme_named("symplectic_euler"), {.gravity = false, .v0 = 1.0});
  const double h = omega_h / r.omega, w = r.omega, e0 = r.energy();
  auto modified = [&] {
    const double x = r.u(), v = r.v();
    return v * v + w * w * x * x - h * w * w * x * v;
  };
  const double q0 = modified();
  const int steps = 10000, window = 200;
  double worst_q = 0, low = 1e300, high = 0, first_peak = 0, last_peak = 0;
  for (int n = 1; n <= steps; ++n) {
    r.step(h);
    const double e = r.energy() / e0;
    worst_q = std::max(worst_q, std::abs(modified() / q0 - 1));
    low = std::min(low, e), high = std::max(high, e);
    if (n <= window) first_peak = std::max(first_peak, e);
    if (n > steps - window) last_peak = std::max(last_peak, e);
  }
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  E/E0 in [%.4f, %.4f]; peak over the first and last %d steps %.5f %.5f; "
        "modified energy drift %.2e\n",
        low, high, window, first_peak, last_peak, worst_q);
  EXPECT_LT(worst_q, 1e-9);
  EXPECT_GT(low, 1 / (1 + omega_h / 2) - 1e-9);
  EXPECT_LT(high, 1 / (1 - omega_h / 2) + 1e-9);
  EXPECT_NEAR(last_peak / first_peak, 1.0, 0.02);
}

// (d) Central difference with mass-proportional damping follows the exact c_v, c_a recurrence
// (and not a forward-differenced damping term), including its half-step velocity state.
TEST_F(CentralDifferenceDamping, WithMassDampingUsesTheExactCentralCoefficients) {
  const double alpha_m = 4.0, h = 0.05;
  const int steps = 60;
  OneDof r = one_dof(scheme_named("central_difference"), {.alpha_m = alpha_m, .v0 = 0.5});
  const double m = r.m, k = r.k, f = r.f;
  const double cv = (1 / h - alpha_m / 2) / (1 / h + alpha_m / 2), ca = 1 / (1 / h + alpha_m / 2);
  // Scalar recurrence, including the half-step start from a_0 = (f - alpha_M m v_0) / m.
  double x = 0, half = 0.5 - h / 2 * (f - alpha_m * m * 0.5) / m;
  double naive_x = x, naive_half = half;
  Vec v_half = nullptr;
  for (auto& [name, vec] : r.integrator->internal_state())
    if (name == "half_step_velocity") v_half = vec;
  ASSERT_NE(v_half, nullptr);
  double worst = 0, scale = 0, naive_difference = 0;
  for (int n = 0; n < steps; ++n) {
    r.step(h);
    half = cv * half + ca * (f - k * x) / m;
    x += h * half;
    naive_half += h * ((f - k * naive_x) / m - alpha_m * naive_half);
    naive_x += h * naive_half;
    scale = std::max({scale, std::abs(x), h * std::abs(half)});
    worst =
        std::max({worst, std::abs(r.u() - x), h * std::abs(global_value(v_half, r.dof) - half)});
    naive_difference = std::max(naive_difference, std::abs(naive_x - x));
  }
  EXPECT_LT(worst / scale, recurrence_tolerance());
  EXPECT_GT(naive_difference / scale, 1e-3) << "the test would not see a forward damping term";
}

// Why the explicit variational scheme is first order (the schemes' table lists
// variational_symplectic as second order, which holds for the implicit variant only): with
// p = M v its step is v_{n+1} = v_n + h M^{-1} (f - C v_n), x_{n+1} = x_n + h v_{n+1}, i.e.
// symplectic Euler, damping included.
TEST_F(ExplicitEquivalence, VariationalExplicitStepsAreSymplecticEulerSteps) {
  const OneDofSetup setup{.alpha_m = 0.7, .alpha_k = 0.02, .v0 = 0.3};
  OneDof variational = one_dof(scheme_named("variational_symplectic_explicit"), setup);
  OneDof euler = one_dof(scheme_named("symplectic_euler"), setup);
  double worst = 0, scale = 0;
  for (int n = 0; n < 60; ++n) {
    variational.step(0.05);
    euler.step(0.05);
    scale = std::max({scale, std::abs(euler.u()), 0.05 * std::abs(euler.v())});
    worst = std::max({worst, std::abs(variational.u() - euler.u()),
                      0.05 * std::abs(variational.v() - euler.v())});
  }
  EXPECT_LT(worst / scale, recurrence_tolerance());
}

TEST(ExplicitRegistry, CreatesEveryExplicitSchemeByName) {
  const OptionList options{{"explicit", "true"}};
  EXPECT_EQ(configure_scheme("variational_symplectic", options).create()->name(),
            "variational_symplectic");
  for (const char* name :
       {"euler_explicit", "symplectic_euler", "central_difference", "rk2", "heun", "rk4"})
    EXPECT_EQ(configure_scheme(name).create()->name(), name);
}
