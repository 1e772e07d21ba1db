#include "inertia/time/newmark.hpp"

#include "inertia/time/newton.hpp"
#include "newmark_family.hpp"

namespace inertia {

namespace {

class Newmark final : public Integrator {
 public:
  explicit Newmark(const NewmarkParams& p) : p_(p) {}
  std::string_view name() const override { return "newmark"; }

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
      newton_ = std::make_unique<NewtonSolver>(system);
    }
    const SolveReport r = newmark_detail::initial_acceleration(system, state, a_, rhs_, w_);
    return {r.iterations, 0};
  }

  /// Linear systems: the alpha schemes' step at alpha_m = alpha_f = 0 (newmark_family.hpp).
  StepStats step(DynamicSystem& system, State& state, double h) override {
    if (!system.is_linear()) return newton_step(system, state, h);
    const SolveReport r =
        newmark_detail::linear_step(system, state, h, weights(), a_, du_, dv_, x_, rhs_, w_, mw_);
    state.time = state.after(h);
    ++state.step;
    return {r.iterations, 0};
  }

  /// Nonlinear systems: Newton on the residual
  ///   G(a) = M a + C v(a) + f_int(x(a)) + f_dashpot(x(a), v(a)) - f_ext(t_{n+1}),
  ///   x(a) = x* + h^2 beta a, v(a) = v* + h gamma a (x*, v* the predictors, whose constrained
  /// entries put x and v on the prescribed motion at t_{n+1}: newmark_family.hpp),
  /// with Jacobian (1 + h gamma alpha_M) M + (h^2 beta + h gamma alpha_K) K + h gamma B.
  StepStats newton_step(DynamicSystem& system, State& state, double h) {
    const auto rayleigh = system.rayleigh();
    const double alpha_m = rayleigh.mass, alpha_k = rayleigh.stiffness;  // captured below
    const double beta = p_.beta, gamma = p_.gamma, t1 = state.after(h);
    // Predictors into state.u / state.v (the corrections are added after the solve).
    newmark_detail::predictor_increments(system, state, h, weights(), a_, du_, dv_);
    INERTIA_PETSC(VecAXPY(state.u, 1.0, du_));
    INERTIA_PETSC(VecAXPY(state.v, 1.0, dv_));
    Vec xs = state.u, vs = state.v;
    auto configuration = [&](Vec a, Vec x) { INERTIA_PETSC(VecWAXPY(x, h * h * beta, a, xs)); };
    NewtonSolver::Problem problem;
    problem.configuration = configuration;
    problem.residual = [&](Vec a, Vec g) {
      configuration(a, x_);
      INERTIA_PETSC(VecWAXPY(v_, h * gamma, a, vs));
      system.force(t1, x_, v_, g);  // f_ext - f_int - f_dashpot
      INERTIA_PETSC(VecScale(g, -1.0));
      system.mult_mass(a, mw_);
      INERTIA_PETSC(VecAXPY(g, 1.0, mw_));
      if (alpha_m != 0 || alpha_k != 0) {
        if (alpha_k != 0) system.update_tangent(x_);
        system.mult_damping(v_, mw_);
        INERTIA_PETSC(VecAXPY(g, 1.0, mw_));
      }
    };
    problem.m = 1 + h * gamma * alpha_m;
    problem.k = h * h * beta + h * gamma * alpha_k;
    problem.b = h * gamma;
    problem.cx = h * h * beta;
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
  std::optional<NewmarkWeights> newmark_weights() const override { return weights(); }
  std::vector<std::pair<std::string, Vec>> internal_state() override {
    return {{"acceleration", a_}};
  }

 private:
  NewmarkWeights weights() const { return {0, 0, p_.beta, p_.gamma}; }

  NewmarkParams p_;
  petsc::Vector a_, rhs_, w_, mw_, du_, dv_;
  petsc::Vector x_;  // work vector; nonlinear: the Newton iterate's configuration
  petsc::Vector v_;  // nonlinear: the Newton iterate's velocity
  std::unique_ptr<NewtonSolver> newton_;
};

}  // namespace

Scheme configure_newmark(const OptionMap& options) {
  options.expect_keys({"beta", "gamma"});
  NewmarkParams p;
  p.beta = options.number_in("beta", p.beta, 0.0, 0.5, true);
  p.gamma = options.number_in("gamma", p.gamma, 0.0, 1.0, true);
  return Scheme("newmark", {.kind = SchemeKind::implicit_scheme, .newton = true},
                cat("beta ", p.beta, ", gamma ", p.gamma), p,
                [p] { return std::make_unique<Newmark>(p); });
}

}  // namespace inertia
