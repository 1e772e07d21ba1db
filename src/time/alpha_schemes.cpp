#include "inertia/time/alpha_schemes.hpp"

#include <sstream>

#include "inertia/core/text.hpp"
#include "inertia/time/newton.hpp"
#include "newmark_family.hpp"

namespace inertia {

AlphaCoefficients HhtParams::coefficients() const {
  AlphaCoefficients c;
  c.alpha_m = 0;
  c.alpha_f = 0.0 - alpha;  // +0 for alpha = 0
  c.beta = (1 - alpha) * (1 - alpha) / 4;
  c.gamma = 0.5 - alpha;
  c.interpolate_forces = true;
  return c;
}

AlphaCoefficients GeneralizedAlphaParams::coefficients() const {
  const double rho = rho_infinity;
  AlphaCoefficients c;
  c.alpha_m = (2 * rho - 1) / (rho + 1);
  c.alpha_f = rho / (rho + 1);
  c.beta = (1 - c.alpha_m + c.alpha_f) * (1 - c.alpha_m + c.alpha_f) / 4;
  c.gamma = 0.5 - c.alpha_m + c.alpha_f;
  c.interpolate_forces = false;
  return c;
}

namespace {

/// The alpha schemes: Newmark's updates, the balance between t_n and t_{n+1} (alpha_schemes.hpp);
/// at alpha_m = alpha_f = 0 (forces interpolated) Newmark itself (src/time/newmark.cpp).
class AlphaScheme final : public Integrator {
 public:
  AlphaScheme(std::string_view name, const AlphaCoefficients& c) : name_(name), c_(c) {}
  std::string_view name() const override { return name_; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    a_ = system.create_vector();
    rhs_ = system.create_vector();
    w_ = system.create_vector();
    mw_ = system.create_vector();
    du_ = system.create_vector();
    dv_ = system.create_vector();
    x_ = system.create_vector();
    if (!system.is_linear()) {
      v_ = system.create_vector();
      g0_ = system.create_vector();
      if (!c_.interpolate_forces) {
        xs_ = system.create_vector();
        vs_ = system.create_vector();
      }
      newton_ = std::make_unique<NewtonSolver>(system);
    }
    const SolveReport r = newmark_detail::initial_acceleration(system, state, a_, rhs_, w_);
    return {r.iterations, 0};
  }

  /// Linear systems: newmark_detail::linear_step with this scheme's weights.
  StepStats step(DynamicSystem& system, State& state, double h) override {
    if (!system.is_linear()) return newton_step(system, state, h);
    const SolveReport r = newmark_detail::linear_step(system, state, h, *newmark_weights(), a_, du_,
                                                      dv_, x_, rhs_, w_, mw_);
    state.time = state.after(h);
    ++state.step;
    return {r.iterations, 0};
  }

  /// Nonlinear systems: Newton on G(a) = 0 with x*, v* Newmark's predictors and f as in force():
  ///   hht:   G(a) = M a + (1 - alpha_f) (C(x) v - f(t_{n+1}, x, v)) + g0,
  ///          x = x* + h^2 beta a, v = v* + h gamma a,
  ///          g0 = alpha_f (C(u_n) v_n - f(t_n, u_n, v_n));
  ///   generalized_alpha:
  ///          G(a) = (1 - alpha_m) M a + C(x) v - f(t_{n+1}, x, v) + g0,
  ///          x = (1 - alpha_f) (x* + h^2 beta a) + alpha_f u_n, v likewise,
  ///          g0 = alpha_m M a_n + alpha_f (f_ext(t_{n+1}) - f_ext(t_n)).
  /// Jacobian (1 - alpha_m + (1 - alpha_f) h gamma alpha_M) M
  ///   + (1 - alpha_f) ((h^2 beta + h gamma alpha_K) K + h gamma B), K and B at x.
  StepStats newton_step(DynamicSystem& system, State& state, double h) {
    const auto rayleigh = system.rayleigh();
    const double alpha_M = rayleigh.mass, alpha_K = rayleigh.stiffness;  // captured below
    const double am = c_.alpha_m, af = c_.alpha_f, beta = c_.beta, gamma = c_.gamma;
    const double wm = 1 - am, wf = 1 - af;
    const double t0 = state.time, t1 = state.after(h);
    const bool damped = alpha_M != 0 || alpha_K != 0;
    const bool forces = c_.interpolate_forces;
    // The part of G that does not depend on a (at t_n; before the predictors overwrite u_n, v_n).
    const bool constant = forces ? af != 0 : am != 0 || af != 0;
    if (forces && af != 0) {
      system.force(t0, state.u, state.v, g0_);
      INERTIA_PETSC(VecScale(g0_, -af));
      if (damped) {
        if (alpha_K != 0) system.update_tangent(state.u);
        system.mult_damping(state.v, mw_);
        INERTIA_PETSC(VecAXPY(g0_, af, mw_));
      }
    } else if (!forces) {
      INERTIA_PETSC(VecZeroEntries(g0_));
      if (am != 0) {
        system.mult_mass(a_, g0_);
        INERTIA_PETSC(VecScale(g0_, am));
      }
      if (af != 0) {
        system.external_force(t1, mw_);
        INERTIA_PETSC(VecAXPY(g0_, af, mw_));
        system.external_force(t0, mw_);
        INERTIA_PETSC(VecAXPY(g0_, -af, mw_));
      }
      INERTIA_PETSC(VecCopy(state.u, xs_));  // u_n, v_n
      INERTIA_PETSC(VecCopy(state.v, vs_));
    }
    // Newmark's predictors into state.u / state.v (the corrections are added after the solve),
    // their constrained entries leading to the prescribed motion at t_{n+1}.
    newmark_detail::predictor_increments(system, state, h, *newmark_weights(), a_, du_, dv_);
    INERTIA_PETSC(VecAXPY(state.u, 1.0, du_));
    INERTIA_PETSC(VecAXPY(state.v, 1.0, dv_));
    // The state where the forces are evaluated: x = xs + cx a, v = vs + cv a.
    Vec xs = state.u, vs = state.v;
    double cx = h * h * beta, cv = h * gamma, scale = 1;
    if (forces) {
      scale = wf;
    } else {
      INERTIA_PETSC(VecAXPBY(xs_, wf, af, state.u));  // (1 - alpha_f) x* + alpha_f u_n
      INERTIA_PETSC(VecAXPBY(vs_, wf, af, state.v));
      xs = xs_, vs = vs_;
      cx = wf * h * h * beta, cv = wf * h * gamma;
    }
    auto configuration = [&](Vec a, Vec x) { INERTIA_PETSC(VecWAXPY(x, cx, a, xs)); };
    NewtonSolver::Problem problem;
    problem.configuration = configuration;
    problem.residual = [&](Vec a, Vec g) {
      configuration(a, x_);
      INERTIA_PETSC(VecWAXPY(v_, cv, a, vs));
      system.force(t1, x_, v_, g);  // f_ext - f_int - f_dashpot
      INERTIA_PETSC(VecScale(g, -scale));
      system.mult_mass(a, mw_);
      INERTIA_PETSC(VecAXPY(g, wm, mw_));
      if (damped) {
        if (alpha_K != 0) system.update_tangent(x_);
        system.mult_damping(v_, mw_);
        INERTIA_PETSC(VecAXPY(g, scale, mw_));
      }
      if (constant) INERTIA_PETSC(VecAXPY(g, 1.0, g0_));
    };
    problem.m = wm + wf * h * gamma * alpha_M;
    problem.k = wf * h * h * beta + wf * h * gamma * alpha_K;
    problem.b = wf * h * gamma;
    problem.cx = cx;
    problem.t = t1;
    system.apply_constraints(t1, nullptr, nullptr, a_);  // initial guess a_n, prescribed a
    const NewtonReport r = newton_->solve(problem, a_);
    INERTIA_PETSC(VecAXPY(state.u, h * h * beta, a_));
    INERTIA_PETSC(VecAXPY(state.v, h * gamma, a_));
    system.apply_constraints(t1, state.u, state.v, nullptr);  // round-off
    state.time = t1;
    ++state.step;
    return {r.linear_iterations, r.iterations, r.reason_name(), r.residuals};
  }

  Vec acceleration() const override { return a_.get(); }
  std::optional<NewmarkWeights> newmark_weights() const override {
    return NewmarkWeights{c_.alpha_m, c_.alpha_f, c_.beta, c_.gamma};
  }
  std::vector<std::pair<std::string, Vec>> internal_state() override {
    return {{"acceleration", a_}};
  }

 private:
  std::string_view name_;
  AlphaCoefficients c_;
  petsc::Vector a_, rhs_, w_, mw_, du_, dv_;
  petsc::Vector x_;        // work vector; nonlinear: where the forces are evaluated
  petsc::Vector v_;        // nonlinear: the velocity where the forces are evaluated
  petsc::Vector g0_;       // nonlinear: the constant part of the residual
  petsc::Vector xs_, vs_;  // nonlinear generalized_alpha: the interpolated predictors
  std::unique_ptr<NewtonSolver> newton_;
};

/// x with 6 significant digits, for the log line.
std::string digits6(double x) {
  std::ostringstream out;
  out.precision(6);
  out << x;
  return out.str();
}

}  // namespace

std::unique_ptr<Integrator> newmark_detail::make_alpha_scheme(std::string_view name,
                                                              const AlphaCoefficients& c) {
  return std::make_unique<AlphaScheme>(name, c);
}

Scheme configure_hht(const OptionMap& options) {
  options.expect_keys({"alpha"});
  HhtParams p;
  p.alpha = options.number_or("alpha", p.alpha);
  if (!(p.alpha >= -1.0 / 3.0 && p.alpha <= 0))
    options.fail("alpha", cat("must be in [-1/3, 0] (got ", p.alpha,
                              "): 0 is newmark, -1/3 damps the high modes most"));
  const AlphaCoefficients c = p.coefficients();
  return Scheme(
      "hht", {.kind = SchemeKind::implicit_scheme, .newton = true},
      cat("alpha ", p.alpha, ": beta ", digits6(c.beta), ", gamma ", digits6(c.gamma),
          ", spectral radius at omega h -> infinity ", digits6((1 + p.alpha) / (1 - p.alpha))),
      p, [c] { return newmark_detail::make_alpha_scheme("hht", c); });
}

Scheme configure_generalized_alpha(const OptionMap& options) {
  options.expect_keys({"rho_infinity"});
  GeneralizedAlphaParams p;
  p.rho_infinity = options.number_in("rho_infinity", p.rho_infinity, 0.0, 1.0);
  const AlphaCoefficients c = p.coefficients();
  return Scheme("generalized_alpha", {.kind = SchemeKind::implicit_scheme, .newton = true},
                cat("rho_infinity ", p.rho_infinity, ": alpha_m ", digits6(c.alpha_m), ", alpha_f ",
                    digits6(c.alpha_f), ", beta ", digits6(c.beta), ", gamma ", digits6(c.gamma)),
                p, [c] { return newmark_detail::make_alpha_scheme("generalized_alpha", c); });
}

}  // namespace inertia
