// Every registered scheme (src/time/registry.cpp) on a one-DOF mass-spring-damper with no mesh and
// no case file (tests/support/one_dof_system.hpp, a DynamicSystem on serial PETSc vectors):
// - every step against the scheme's scalar recurrence written out below, to 1e-12 of the motion's
//   scale: linear and Newton paths, lumped and consistent mass, Rayleigh damping, a time-varying
//   load; the Newmark family also with its support driven by g(t), and with a nonlinear (cubic)
//   spring against its balance solved by scalar Newton;
// - the observed order over three halvings of the step against the exact solution, within 0.2 of
//   the nominal one (a free vibration), and with Rayleigh damping and a time-varying load, where
//   three schemes are first order;
// - the stability limit Scheme::Traits declare: an undamped oscillation bounded just below
//   omega h = limit and growing just above (growing at any step for a limit of 0, bounded at
//   omega h = 1 and 100 for an infinite one).
// unit.SchemeCases fails for a registered scheme that has no case here. The whole stack (YAML,
// meshes, ranks) is tested by tests/mpi/*_schemes.cpp, newmark.cpp, prescribed_motion.cpp, ...
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "../support/one_dof_system.hpp"
#include "inertia/core/options.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/scheme.hpp"
#include "inertia/time/step_control.hpp"

namespace {

using namespace inertia;
using inertia::test::entry;
using inertia::test::OneDofParams;
using inertia::test::OneDofSystem;
using inertia::test::set_entry;

/// MPI and PETSc for the whole executable.
class PetscEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    static int argc = 1;
    static char name[] = "unit_time_schemes";
    static char* args[] = {name, nullptr};
    static char** argv = args;
    session_ = std::make_unique<Session>(&argc, &argv, std::vector<std::string>{});
  }
  void TearDown() override { session_.reset(); }

 private:
  std::unique_ptr<Session> session_;
};
::testing::Environment* const petsc_environment =
    ::testing::AddGlobalTestEnvironment(new PetscEnvironment);

/// The free DOF's scalar problem m a + c v + k x = f(t), c = alpha_M m + alpha_K k, with the
/// support at g(t) (the Newmark-family recurrences take its motion; the others assume it fixed).
struct Scalar {
  double m, k, am, ak, c;
  std::function<double(double)> f, g, dg, ddg;
  explicit Scalar(const OneDofParams& p)
      : m(p.m),
        k(p.k),
        am(p.rayleigh.mass),
        ak(p.rayleigh.stiffness),
        c(p.rayleigh.mass * p.m + p.rayleigh.stiffness * p.k),
        f([p](double t) { return p.F * std::sin(p.Omega * t); }),
        g([p](double t) { return p.G * std::sin(p.Omega_g * t); }),
        dg([p](double t) { return p.G * p.Omega_g * std::cos(p.Omega_g * t); }),
        ddg([p](double t) { return -p.G * p.Omega_g * p.Omega_g * std::sin(p.Omega_g * t); }) {}
  double accel(double t, double x, double v) const { return (f(t) - k * x - c * v) / m; }
};

struct XV {
  double x, v;
};
using Trajectory = std::vector<XV>;  // after each step
using Reference = std::function<Trajectory(const Scalar&, double x, double v, double h, int n)>;

// ---- The schemes' scalar recurrences (the headers in include/inertia/time/ document them) ----

/// Newmark and the alpha schemes (alpha_schemes.hpp, Chung & Hulbert's convention), with the
/// support on its prescribed path (newmark_family.hpp: the predictors' constrained increments
/// put it at g, g', g'' at t_{n+1}; the balance sees the alpha-weighted support).
Reference newmark_family(double alpha_m, double alpha_f, double beta, double gamma) {
  return [=](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    const double wf = 1 - alpha_f;
    double a = (s.f(0) - s.k * (x - s.g(0)) - s.am * s.m * v - s.ak * s.k * (v - s.dg(0))) / s.m;
    double t = 0;
    for (int i = 0; i < n; ++i) {
      const double t1 = t + h;
      const double du = h * v + h * h * (0.5 - beta) * a, dv = h * (1 - gamma) * a;
      const double du_c = s.g(t1) - h * h * beta * s.ddg(t1) - s.g(t);
      const double dv_c = s.dg(t1) - h * gamma * s.ddg(t1) - s.dg(t);
      const double xu = x + wf * du, xv = v + wf * dv;
      const double xu_c = s.g(t) + wf * du_c, xv_c = s.dg(t) + wf * dv_c;
      const double rhs = wf * s.f(t1) + alpha_f * s.f(t) - s.m * (alpha_m * a + s.am * xv) -
                         s.k * ((xu - xu_c) + s.ak * (xv - xv_c));
      const double kc = wf * (h * h * beta + h * gamma * s.ak);
      const double A = (1 - alpha_m + wf * h * gamma * s.am) * s.m + kc * s.k;
      a = (rhs + kc * s.k * s.ddg(t1)) / A;  // the support's prescribed a_{n+1} lifted
      x += du + h * h * beta * a;
      v += dv + h * gamma * a;
      t = t1;
      out.push_back({x, v});
    }
    return out;
  };
}

Reference newmark(double beta, double gamma) { return newmark_family(0, 0, beta, gamma); }
Reference hht(double alpha) {
  return newmark_family(0, -alpha, (1 - alpha) * (1 - alpha) / 4, 0.5 - alpha);
}
Reference generalized_alpha(double rho) {
  const double am = (2 * rho - 1) / (rho + 1), af = rho / (rho + 1);
  return newmark_family(am, af, (1 - am + af) * (1 - am + af) / 4, 0.5 - am + af);
}

/// An explicit Runge-Kutta tableau (runge_kutta.hpp): x' = v, v' = a(t, x, v).
struct Tableau {
  int s;
  std::array<std::array<double, 4>, 4> a;
  std::array<double, 4> b, c;
};
Reference runge_kutta(const Tableau& T) {
  return [=](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    double t = 0;
    for (int i = 0; i < n; ++i) {
      std::array<double, 4> X{}, V{}, A{};
      for (int j = 0; j < T.s; ++j) {
        X[j] = x, V[j] = v;
        for (int l = 0; l < j; ++l) X[j] += h * T.a[j][l] * V[l], V[j] += h * T.a[j][l] * A[l];
        A[j] = s.accel(t + T.c[j] * h, X[j], V[j]);
      }
      for (int j = 0; j < T.s; ++j) x += h * T.b[j] * V[j];
      for (int j = 0; j < T.s; ++j) v += h * T.b[j] * A[j];
      t += h;
      out.push_back({x, v});
    }
    return out;
  };
}

/// symplectic_euler, and explicit variational_symplectic (the same on one DOF): v += h a(t, x, v),
/// x += h v.
Reference symplectic_euler() {
  return [](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    for (int i = 0; i < n; ++i) {
      v += h * s.accel(i * h, x, v);
      x += h * v;
      out.push_back({x, v});
    }
    return out;
  };
}

/// central_difference.hpp: the half-step velocity, exact central mass damping, explicit alpha_K.
Reference central_difference(bool half_step_start) {
  return [=](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    const double cv = (1 / h - s.am / 2) / (1 / h + s.am / 2), ca = 1 / (1 / h + s.am / 2);
    auto a_of = [&](double t, double x, double vh) {
      return (s.f(t) - s.k * x - s.ak * s.k * vh) / s.m;
    };
    double vh = half_step_start ? v - 0.5 * h * s.accel(0, x, v) : v;
    double a = a_of(0, x, vh), t = 0;
    for (int i = 0; i < n; ++i) {
      vh = cv * vh + ca * a;
      x += h * vh;
      t += h;
      a = a_of(t, x, vh);
      v = 0.5 * (1 + cv) * vh + 0.5 * ca * a;
      out.push_back({x, v});
    }
    return out;
  };
}

/// variational_symplectic.hpp, implicit: unknown r = q_{n+1/2} - q_n, momentum p.
Reference variational_implicit() {
  return [](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    double p = s.m * v;
    const double mc = 4 / (h * h) + 4 * s.am / h, kc = 1 + 4 * s.ak / h;
    for (int i = 0; i < n; ++i) {
      const double tm = (i + 0.5) * h;
      const double r = (s.f(tm) - s.k * x + 2 / h * p) / (mc * s.m + kc * s.k);
      v = 2 * r / h;
      p = s.m * v + 0.5 * h * (s.f(tm) - s.k * (x + r));
      x += h * v;
      out.push_back({x, v});
    }
    return out;
  };
}

/// euler_implicit.hpp: Baraff-Witkin (tau 1 or 1/2), first_order, or backward Euler (newton).
Reference euler_implicit(bool trapezoidal, bool first_order, bool newton) {
  return [=](const Scalar& s, double x, double v, double h, int n) {
    Trajectory out;
    const double tau = trapezoidal ? 0.5 : 1.0;
    for (int i = 0; i < n; ++i) {
      const double t = i * h, t1 = t + h;
      double v1;
      if (newton) {
        v1 = (s.m * v + h * (s.f(t1) - s.k * x)) / (s.m + h * s.c + h * h * s.k);
      } else if (first_order) {
        v1 = (s.f(t) - s.k * x) / (s.m + tau * h * s.k);
      } else {
        const double b = h * (s.f(t) - s.k * x - s.c * v - tau * h * s.k * v);
        const double A = s.m + tau * h * s.c + tau * tau * h * h * s.k;
        v1 = v + b / A;
      }
      x += trapezoidal ? 0.5 * h * (v + v1) : h * v1;
      v = v1;
      out.push_back({x, v});
    }
    return out;
  };
}

/// static.hpp: k x = f(t_{n+1}), v = 0.
Reference static_steps() {
  return [](const Scalar& s, double, double, double h, int n) {
    Trajectory out;
    for (int i = 0; i < n; ++i) out.push_back({s.f((i + 1) * h) / s.k, 0});
    return out;
  };
}

// ---- Every registered scheme, with the options whose recurrences differ ----

struct Case {
  std::string label;
  std::string scheme;
  OptionList options;
  Reference reference;
  int order;  ///< nominal order of accuracy (0: none, a static solve)
  /// The order with Rayleigh damping (alpha_M and alpha_K) and a time-varying load, where it is
  /// below the nominal one (0: the nominal one). See OrderWithRayleighDampingAndATimeVaryingLoad.
  int damped_forced_order = 0;
};

const Tableau euler_tableau{1, {}, {1}, {0}};
const Tableau rk2_tableau{2, {{{}, {0.5}}}, {0, 1}, {0, 0.5}};
const Tableau heun_tableau{2, {{{}, {1}}}, {0.5, 0.5}, {0, 1}};
const Tableau rk4_tableau{
    4, {{{}, {0.5}, {0, 0.5}, {0, 0, 1}}}, {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}, {0, 0.5, 0.5, 1}};

std::vector<Case> cases() {
  return {
      {"newmark", "newmark", {}, newmark(0.25, 0.5), 2},
      {"newmark_beta0.3_gamma0.6",
       "newmark",
       {{"beta", "0.3"}, {"gamma", "0.6"}},
       newmark(0.3, 0.6),
       1},
      {"hht", "hht", {}, hht(-0.05), 2},
      {"hht_alpha-0.3", "hht", {{"alpha", "-0.3"}}, hht(-0.3), 2},
      {"generalized_alpha", "generalized_alpha", {}, generalized_alpha(0.8), 2},
      {"generalized_alpha_rho0.3",
       "generalized_alpha",
       {{"rho_infinity", "0.3"}},
       generalized_alpha(0.3),
       2},
      {"euler_explicit", "euler_explicit", {}, runge_kutta(euler_tableau), 1},
      {"symplectic_euler", "symplectic_euler", {}, symplectic_euler(), 1},
      {"central_difference", "central_difference", {}, central_difference(true), 2, 1},
      {"central_difference_sofa_start",
       "central_difference",
       {{"half_step_start", "false"}},
       central_difference(false),
       1},
      {"rk2", "rk2", {}, runge_kutta(rk2_tableau), 2},
      {"heun", "heun", {}, runge_kutta(heun_tableau), 2},
      {"rk4", "rk4", {}, runge_kutta(rk4_tableau), 4},
      {"variational_symplectic", "variational_symplectic", {}, variational_implicit(), 2, 1},
      {"variational_symplectic_explicit",
       "variational_symplectic",
       {{"explicit", "true"}},
       symplectic_euler(),
       1},
      {"euler_implicit", "euler_implicit", {}, euler_implicit(false, false, false), 1},
      {"euler_implicit_trapezoidal",
       "euler_implicit",
       {{"trapezoidal", "true"}},
       euler_implicit(true, false, false),
       2,
       1},
      {"euler_implicit_first_order",
       "euler_implicit",
       {{"first_order", "true"}},
       euler_implicit(false, true, false),
       1},
      {"euler_implicit_newton",
       "euler_implicit",
       {{"newton", "true"}},
       euler_implicit(false, false, true),
       1},
      {"static", "static", {}, static_steps(), 0},
  };
}

/// The schemes with a time discretisation error and dynamics (not static).
std::vector<Case> dynamic_cases() {
  std::vector<Case> out;
  for (const Case& c : cases())
    if (c.order > 0) out.push_back(c);
  return out;
}

void PrintTo(const Case& c, std::ostream* out) { *out << c.label; }

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = info.param.label;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

/// The schemes' trajectory on the system from (x0, v0) at t = 0, after each of n steps of h.
Trajectory run(const Scheme& scheme, OneDofSystem& system, double x0, double v0, double h, int n) {
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  set_entry(state.u, 0, x0);
  set_entry(state.v, 0, v0);
  system.apply_constraints(0, state.u, state.v, nullptr);
  auto integrator = scheme.create();
  integrator->initialize(system, state);
  Trajectory out;
  for (int i = 0; i < n; ++i) {
    integrator->step(system, state, h);
    out.push_back({entry(state.u, 0), entry(state.v, 0)});
  }
  EXPECT_EQ(state.step, n);
  EXPECT_NEAR(state.time, n * h, 1e-12 * n * h);
  return out;
}

/// The forced, damped oscillator's parameters for the recurrence and order tests (damping only
/// where the scheme accepts it).
OneDofParams damped_forced(const Scheme& scheme) {
  OneDofParams p;
  p.F = 1.5;
  p.Omega = 1.3;
  if (scheme.refuses_damping().empty()) p.rayleigh = {0.1, 0.01};
  return p;
}

// ---- Recurrence ----

struct Path {
  bool newton;  ///< the Newton path (a linear spring marked nonlinear)
  bool lumped;
  bool moving_support = false;  ///< the support driven by g(t) (Newmark family)
};

void PrintTo(const Path& p, std::ostream* out) {
  *out << (p.newton ? "Newton path, " : "") << (p.lumped ? "lumped" : "consistent")
       << (p.moving_support ? ", moving support" : "");
}

class Recurrence : public ::testing::TestWithParam<std::tuple<Case, Path>> {};

TEST_P(Recurrence, EveryStepEqualsTheSchemesScalarRecurrence) {
  const auto& [c, path] = GetParam();
  const Scheme scheme = configure_scheme(c.scheme, c.options);
  OneDofParams p = damped_forced(scheme);
  p.newton = path.newton;
  p.lumped = path.lumped;
  if (path.moving_support) {
    ASSERT_TRUE(scheme.create()->newmark_weights()) << "the recurrence is the Newmark family's";
    p.G = 0.2;
  }
  OneDofSystem system(p);
  const double x0 = 0.5, v0 = 0.3, h = 0.05;
  const int n = 60;
  const Trajectory got = run(scheme, system, x0, v0, h, n);
  const Trajectory want = c.reference(Scalar(p), x0, v0, h, n);
  double scale = 0;
  for (const XV& s : want) scale = std::max({scale, std::abs(s.x), std::abs(s.v)});
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i].x, want[i].x, 1e-12 * scale) << "step " << i + 1;
    ASSERT_NEAR(got[i].v, want[i].v, 1e-12 * scale) << "step " << i + 1;
  }
  EXPECT_EQ(system.is_linear(), !path.newton);
}

std::string recurrence_name(const ::testing::TestParamInfo<std::tuple<Case, Path>>& info) {
  const Case& c = std::get<0>(info.param);
  const Path& path = std::get<1>(info.param);
  return case_name({c, info.index}) + (path.newton ? "_newton_path" : "") +
         (path.lumped ? "_lumped" : "_consistent") + (path.moving_support ? "_moving_support" : "");
}

INSTANTIATE_TEST_SUITE_P(EveryScheme, Recurrence,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::Values(Path{false, true}, Path{false, false},
                                                              Path{true, true})),
                         recurrence_name);

/// The Newmark family (newmark, hht, generalized_alpha) with the support driven by g(t) (the
/// scalar recurrence above takes it; tests/mpi/prescribed_motion.cpp drives every scheme through
/// its support on a mesh).
std::vector<Case> newmark_family_cases() {
  std::vector<Case> out;
  for (const Case& c : cases())
    if (c.scheme == "newmark" || c.scheme == "hht" || c.scheme == "generalized_alpha")
      out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(NewmarkFamily, Recurrence,
                         ::testing::Combine(::testing::ValuesIn(newmark_family_cases()),
                                            ::testing::Values(Path{false, true, true},
                                                              Path{true, false, true})),
                         recurrence_name);

// ---- A nonlinear spring: Newton ----

/// The Newmark family's balance with the spring force k e + k3 e^3 (no damping), its a_{n+1}
/// solved by scalar Newton to round-off: hht interpolates the forces, generalized_alpha the state
/// (alpha_schemes.hpp), newmark is either at alpha_m = alpha_f = 0.
Trajectory nonlinear_newmark_family(const OneDofParams& p, double alpha_m, double alpha_f,
                                    double beta, double gamma, bool interpolate_forces, double x,
                                    double v, double h, int n) {
  const OneDofSystem s(p);  // spring() and spring_tangent()
  Trajectory out;
  double a = (s.load(0) - s.spring(x)) / p.m;
  for (int i = 0; i < n; ++i) {
    const double t = i * h, t1 = t + h, wf = 1 - alpha_f;
    const double xs = x + h * v + h * h * (0.5 - beta) * a, vs = v + h * (1 - gamma) * a;
    const double rhs = wf * s.load(t1) + alpha_f * s.load(t) - alpha_m * p.m * a;
    double a1 = a;
    for (int it = 0; it < 50; ++it) {
      const double x1 = xs + h * h * beta * a1;
      const double xa = interpolate_forces ? x1 : wf * x1 + alpha_f * x;
      const double spring =
          interpolate_forces ? wf * s.spring(x1) + alpha_f * s.spring(x) : s.spring(xa);
      const double r = (1 - alpha_m) * p.m * a1 + spring - rhs;
      const double dr = (1 - alpha_m) * p.m + wf * h * h * beta * s.spring_tangent(xa);
      const double da = r / dr;
      a1 -= da;
      if (std::abs(da) <= 1e-16 * std::abs(a1)) break;
    }
    a = a1;
    x = xs + h * h * beta * a;
    v = vs + h * gamma * a;
    out.push_back({x, v});
  }
  return out;
}

struct NonlinearCase {
  std::string scheme;
  OptionList options;
  double alpha_m, alpha_f, beta, gamma;
  bool interpolate_forces;
};

void PrintTo(const NonlinearCase& c, std::ostream* out) { *out << c.scheme; }

class NonlinearSpring : public ::testing::TestWithParam<NonlinearCase> {};

TEST_P(NonlinearSpring, NewtonStepsEqualTheScalarBalanceSolvedToRoundOff) {
  const NonlinearCase& c = GetParam();
  const Scheme scheme = configure_scheme(c.scheme, c.options);
  OneDofParams p;
  p.k3 = 50;  // at x = 0.5 the cubic term is 1.6 times the linear one
  p.F = 1.5;
  OneDofSystem system(p);
  ASSERT_FALSE(system.is_linear());
  const double x0 = 0.5, v0 = 0.3, h = 0.05;
  const int n = 60;
  State state;
  state.u = system.create_vector();
  state.v = system.create_vector();
  set_entry(state.u, 0, x0);
  set_entry(state.v, 0, v0);
  auto integrator = scheme.create();
  integrator->initialize(system, state);
  const Trajectory want = nonlinear_newmark_family(p, c.alpha_m, c.alpha_f, c.beta, c.gamma,
                                                   c.interpolate_forces, x0, v0, h, n);
  double scale = 0;
  for (const XV& s : want) scale = std::max({scale, std::abs(s.x), std::abs(s.v)});
  std::int64_t iterations = 0;
  for (int i = 0; i < n; ++i) {
    const StepStats stats = integrator->step(system, state, h);
    iterations += stats.nonlinear_iterations;
    ASSERT_NEAR(entry(state.u, 0), want[i].x, 1e-12 * scale) << "step " << i + 1;
    ASSERT_NEAR(entry(state.v, 0), want[i].v, 1e-12 * scale) << "step " << i + 1;
  }
  EXPECT_GE(iterations, 2 * n) << "a nonlinear spring takes more than one Newton iteration";
}

INSTANTIATE_TEST_SUITE_P(
    NewmarkFamily, NonlinearSpring,
    ::testing::Values(NonlinearCase{"newmark", {}, 0, 0, 0.25, 0.5, true},
                      // alpha = -0.05
                      NonlinearCase{"hht", {}, 0, 0.05, 1.05 * 1.05 / 4, 0.55, true},
                      // rho_infinity = 0.8: alpha_m = 0.6 / 1.8, alpha_f = 0.8 / 1.8
                      NonlinearCase{
                          "generalized_alpha", {}, 1.0 / 3, 4.0 / 9, 25.0 / 81, 11.0 / 18, false}),
    [](const ::testing::TestParamInfo<NonlinearCase>& info) { return info.param.scheme; });

// ---- Order of accuracy ----

/// The exact solution of m x'' + c x' + k x = F sin(Omega t) (underdamped), or of the first-order
/// system m x' + k x = F sin(Omega t) (euler_implicit first_order), from x0, v0.
struct Exact {
  double x, v;
};
Exact exact_second_order(const Scalar& s, double F, double W, double x0, double v0, double t) {
  const double d = (s.k - s.m * W * W) * (s.k - s.m * W * W) + s.c * W * s.c * W;
  const double P = F * (s.k - s.m * W * W) / d, Q = -F * s.c * W / d;
  const double w = std::sqrt(s.k / s.m), zeta = s.c / (2 * s.m * w);
  const double wd = w * std::sqrt(1 - zeta * zeta);
  const double A = x0 - Q, B = (v0 - P * W + zeta * w * A) / wd;
  const double e = std::exp(-zeta * w * t), cs = std::cos(wd * t), sn = std::sin(wd * t);
  const double x = e * (A * cs + B * sn) + P * std::sin(W * t) + Q * std::cos(W * t);
  const double v = e * (-zeta * w * (A * cs + B * sn) + wd * (-A * sn + B * cs)) +
                   P * W * std::cos(W * t) - Q * W * std::sin(W * t);
  return {x, v};
}
Exact exact_first_order(const Scalar& s, double F, double W, double x0, double t) {
  const double d = s.k * s.k + s.m * s.m * W * W;
  const double P = F * s.k / d, Q = -F * s.m * W / d;
  const double x = P * std::sin(W * t) + Q * std::cos(W * t) + (x0 - Q) * std::exp(-s.k / s.m * t);
  return {x, (F * std::sin(W * t) - s.k * x) / s.m};
}

/// The errors at T = 2 (omega T = 4: not a multiple of a half period) after 40, 80, 160 and 320
/// steps from x0 = 0.5, v0 = 0.3: |x - x(T)| + |v - v(T)| / omega, or |x - x(T)| alone for the
/// first-order system and for the implicit variational scheme, whose State.v is the step's mean
/// velocity (q_{n+1} - q_n) / h, a first-order estimate of v(t_{n+1}).
std::vector<double> errors(const Case& c, const OneDofParams& p) {
  const Scheme scheme = configure_scheme(c.scheme, c.options);
  const Scalar s(p);
  const bool first_order = c.label == "euler_implicit_first_order";
  const bool position_only = first_order || c.label == "variational_symplectic";
  const double x0 = 0.5, v0 = 0.3, T = 2.0;
  const Exact want = first_order ? exact_first_order(s, p.F, p.Omega, x0, T)
                                 : exact_second_order(s, p.F, p.Omega, x0, v0, T);
  std::vector<double> out;
  for (int n : {40, 80, 160, 320}) {
    OneDofSystem system(p);
    const XV got = run(scheme, system, x0, first_order ? 0.0 : v0, T / n, n).back();
    const double w = std::sqrt(p.k / p.m);
    out.push_back(std::abs(got.x - want.x) + (position_only ? 0.0 : std::abs(got.v - want.v) / w));
  }
  return out;
}

std::string listed(const std::vector<double>& e) {
  return cat("errors at n = 40, 80, 160, 320: ", e[0], " ", e[1], " ", e[2], " ", e[3]);
}

class Order : public ::testing::TestWithParam<Case> {};

TEST_P(Order, ObservedOrderOverThreeHalvingsIsTheNominalOneWithin0_2) {
  const Case& c = GetParam();
  OneDofParams p;  // a free undamped vibration
  const auto e = errors(c, p);
  for (std::size_t i = 0; i + 1 < e.size(); ++i)
    EXPECT_NEAR(std::log2(e[i] / e[i + 1]), c.order, 0.2) << listed(e);
}

// With Rayleigh damping (alpha_M 0.1, alpha_K 0.01) and a load F sin(Omega t), three schemes are
// first order, not as their headers' nominal order suggests: central_difference (its alpha_K
// term takes the lagging half-step velocity v_{n-1/2}: second order with alpha_M alone),
// variational_symplectic (implicit; its position is second order undamped, first order with
// either Rayleigh term) and euler_implicit with trapezoidal (SOFA's load at t_n: second order
// under a constant load). The finest halving is measured.
TEST_P(Order, WithRayleighDampingAndATimeVaryingLoad) {
  const Case& c = GetParam();
  const OneDofParams p = damped_forced(configure_scheme(c.scheme, c.options));
  const auto e = errors(c, p);
  const int expected = c.damped_forced_order ? c.damped_forced_order : c.order;
  EXPECT_NEAR(std::log2(e[2] / e[3]), expected, 0.2) << listed(e);
}

INSTANTIATE_TEST_SUITE_P(EveryScheme, Order, ::testing::ValuesIn(dynamic_cases()), case_name);

// ---- Stability limit (Scheme::Traits) ----

/// max sqrt(m v^2 + k x^2) over the last quarter of an undamped free vibration at omega h,
/// divided by that over its first quarter.
double growth(const Scheme& scheme, double omega_h, int n) {
  OneDofParams p;  // undamped, unloaded
  OneDofSystem system(p);
  const double omega = std::sqrt(p.k / p.m);
  const Trajectory t = run(scheme, system, 1.0, 0.0, omega_h / omega, n);
  double first = 0, last = 0;
  for (int i = 0; i < n; ++i) {
    const double a = std::sqrt(p.m * t[i].v * t[i].v + p.k * t[i].x * t[i].x);
    if (i < n / 4) first = std::max(first, a);
    if (i >= n - n / 4) last = std::max(last, a);
  }
  return last / first;
}

class Stability : public ::testing::TestWithParam<Case> {};

TEST_P(Stability, BoundedJustBelowTheDeclaredLimitAndGrowingJustAbove) {
  const Case& c = GetParam();
  const Scheme scheme = configure_scheme(c.scheme, c.options);
  const double limit = scheme.stability_limit();
  const int n = 2000;
  if (scheme.conditionally_stable()) {
    EXPECT_LE(growth(scheme, 0.99 * limit, n), 1.05) << "omega h = " << 0.99 * limit;
    EXPECT_GE(growth(scheme, 1.01 * limit, n), 2.0) << "omega h = " << 1.01 * limit;
  } else if (limit == 0) {
    // Grows at any step: even at omega h = 0.3.
    EXPECT_GE(growth(scheme, 0.3, n), 2.0);
  } else {
    ASSERT_EQ(limit, std::numeric_limits<double>::infinity());
    // 20 steps: implicit Euler's energy falls by 1 / (1 + (omega h)^2) per step, and a state
    // decayed to ~1e-50 is where Newton stops working (KSP's atol, 1e-50, returns a zero step
    // for a residual above SNES's atol: DIVERGED_LINE_SEARCH).
    EXPECT_LE(growth(scheme, 100.0, 20), 1.05);
    EXPECT_LE(growth(scheme, 1.0, 20), 1.05);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryScheme, Stability, ::testing::ValuesIn(dynamic_cases()), case_name);

// The step controller's life cycle of history variables (DynamicSystem::commit_step,
// reject_step): every accepted step commits its end state once, a failed step is rejected and
// commits nothing, and its two halves commit exactly the states of a run that took those halves
// in the first place.
TEST(StepControl, CommitsEachAcceptedStepOnceAndNothingOfAFailedOne) {
  for (const char* name : {"newmark", "euler_implicit"}) {
    SCOPED_TRACE(name);
    const Scheme scheme = configure_scheme(name);
    OneDofParams p;
    p.F = 1.5;
    auto start = [&](OneDofSystem& system, State& state) {
      state.u = system.create_vector();
      state.v = system.create_vector();
      set_entry(state.u, 0, 0.5);
      system.apply_constraints(0, state.u, state.v, nullptr);
      auto integrator = scheme.create();
      integrator->initialize(system, state);
      return integrator;
    };
    const double h = 0.05;
    // Reference: steps of h, h, h/2, h/2, h, ..., each end state recorded.
    OneDofSystem reference(p);
    State ref_state;
    auto ref = start(reference, ref_state);
    std::vector<double> want;
    for (const double dt : {h, h, h / 2, h / 2, h, h, h}) {
      ref->step(reference, ref_state, dt);
      want.push_back(entry(ref_state.u, 0));
    }
    // Through the controller, the third step's solve failing once.
    OneDofSystem system(p);
    State state;
    auto integrator = start(system, state);
    const int per_step = [&] {
      OneDofSystem probe(p);
      State s;
      auto i = start(probe, s);
      const int before = probe.solves;
      i->step(probe, s, h);
      return probe.solves - before;
    }();
    ASSERT_GT(per_step, 0);
    system.fail_solve = system.solves + 2 * per_step + 1;
    std::vector<std::string> retries;
    StepController steps(1, [&](const std::string& what) { retries.push_back(what); });
    for (int n = 0; n < 6; ++n) steps.advance(system, *integrator, state, h);
    EXPECT_EQ(retries.size(), 1u);
    EXPECT_EQ(system.rejects, 1);
    EXPECT_EQ(state.step, 6);
    ASSERT_EQ(system.commits.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(system.commits[i], want[i]) << "commit " << i;
  }
}

// The run's clock (issue 42): a step from t_n = n dt that the loop says ends at (n + 1) dt
// (State::step_end, RunPlan::time_of) ends there, and the scheme evaluates its loads and
// prescribed motion there, not at t_n + dt: 8.015 + 0.005 is 8.020000000000001, one ulp past
// 1604 x 0.005 = 8.02, where a record ending at 8.02 has no acceleration left. Halved steps too.
TEST(RunClock, EverySchemesStepEndsOnTheClocksTimeNotTheSumsRoundOff) {
  const double t0 = 8.015, h = 0.005, t1 = 8.02;
  ASSERT_NE(t0 + h, t1);  // the premise: the sum is an ulp off
  for (const Case& c : cases())
    for (const bool halved : {false, true}) {
      SCOPED_TRACE(c.label + (halved ? " (halved)" : ""));
      const Scheme scheme = configure_scheme(c.scheme, c.options);
      OneDofParams p = damped_forced(scheme);
      p.G = 0.2;                    // a moving support: the prescribed motion at the step's times
      if (halved) p.newton = true;  // solves that can fail (explicit schemes have none)
      OneDofSystem system(p);
      State state;
      state.u = system.create_vector();
      state.v = system.create_vector();
      state.time = t0;
      system.apply_constraints(t0, state.u, state.v, nullptr);
      auto integrator = scheme.create();
      integrator->initialize(system, state);
      state.step_end = t1;
      system.times.clear();
      StepController steps(1, [](const std::string&) {});
      if (halved) system.fail_solve = system.solves + 1;
      steps.advance(system, *integrator, state, h);
      if (halved && system.rejects == 0) continue;  // no solve: nothing to halve
      EXPECT_EQ(state.time, t1) << std::setprecision(17) << state.time;
      ASSERT_FALSE(system.times.empty());
      const double latest = *std::max_element(system.times.begin(), system.times.end());
      EXPECT_EQ(latest, t1) << std::setprecision(17) << latest;
    }
}

// ---- Products per step ----

// The products with M and K each implicit step of a linear system makes (OneDofSystem counts them
// as MechanicalSystem makes them: a consistent M's product is a MatMult, a lumped one pointwise),
// exactly, for every implicit scheme, with and without Rayleigh damping, with a consistent or
// lumped M, with a fixed or a moving support. The right-hand side of a step is one product with
// K and at most one with M: the Newmark family's M (alpha_m a_n + alpha_M x_v + m a_c) and
// K (x_u + alpha_K x_v + k a_c) carry everything, a moving support's coupling included (no lift
// inside the solve); euler_implicit's likewise; variational_symplectic's momentum takes one more
// of each (p_{n+1} = M v_{n+1} + h/2 f(t_mid, q_n + r)). A product added back fails here.
struct ExpectedProducts {
  const char* label;
  const char* scheme;
  OptionList options;
  /// Products with K per step, and with a consistent M: without damping and with a fixed
  /// support, and the extra one that alpha_M or a moving support needs (one for both at once).
  int stiffness, mass, mass_if_damped, mass_if_moving;
};

TEST(ProductsPerStep, ImplicitSchemesMakeOneProductWithKAndAtMostOneWithM) {
  const std::vector<ExpectedProducts> expected{
      {"newmark", "newmark", {}, 1, 0, 1, 1},
      {"hht", "hht", {}, 1, 0, 1, 1},
      {"hht alpha 0", "hht", {{"alpha", "0"}}, 1, 0, 1, 1},
      {"generalized_alpha", "generalized_alpha", {}, 1, 1, 0, 0},  // alpha_m != 0: M a_n each step
      {"euler_implicit", "euler_implicit", {}, 1, 0, 1, 1},
      {"euler_implicit trapezoidal", "euler_implicit", {{"trapezoidal", "true"}}, 1, 0, 1, 1},
      {"euler_implicit first_order", "euler_implicit", {{"first_order", "true"}}, 1, 0, 0, 1},
      {"variational_symplectic", "variational_symplectic", {}, 2, 1, 0, 1},
  };
  for (const auto& e : expected) {
    const Scheme scheme = configure_scheme(e.scheme, e.options);
    for (const bool lumped : {false, true})
      for (const bool damped : {false, true})
        for (const bool moving : {false, true}) {
          if (damped && !scheme.refuses_damping().empty()) continue;
          SCOPED_TRACE(cat(e.label, lumped ? ", lumped" : ", consistent",
                           damped ? ", Rayleigh" : "", moving ? ", moving support" : ""));
          OneDofParams p;
          p.F = 1.5;
          p.lumped = lumped;
          if (damped) p.rayleigh = {0.1, 0.01};
          if (moving) p.G = 0.2;
          OneDofSystem system(p);
          State state;
          state.u = system.create_vector();
          state.v = system.create_vector();
          set_entry(state.u, 0, 0.5);
          system.apply_constraints(0, state.u, state.v, nullptr);
          auto integrator = scheme.create();
          integrator->initialize(system, state);
          integrator->step(system, state, 0.05);
          const int want_mass = lumped ? 0
                                       : e.mass + std::max(damped ? e.mass_if_damped : 0,
                                                           moving ? e.mass_if_moving : 0);
          for (int n = 0; n < 4; ++n) {
            const int k0 = system.stiffness_products, m0 = system.mass_products;
            const int s0 = system.solves;
            integrator->step(system, state, 0.05);
            EXPECT_EQ(system.stiffness_products - k0, e.stiffness) << "step " << n + 2;
            EXPECT_EQ(system.mass_products - m0, want_mass) << "step " << n + 2;
            EXPECT_EQ(system.solves - s0, 1) << "step " << n + 2;
          }
        }
  }
}

TEST(SchemeCases, CoverEveryRegisteredScheme) {
  const auto all = cases();
  for (const SchemeEntry& e : scheme_entries())
    EXPECT_TRUE(
        std::any_of(all.begin(), all.end(), [&](const Case& c) { return c.scheme == e.name; }))
        << e.name << " is registered but not tested here";
}

}  // namespace
