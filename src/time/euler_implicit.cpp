// euler_implicit: see euler_implicit.hpp for the recurrence.
#include "inertia/time/euler_implicit.hpp"

#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class EulerImplicit final : public Integrator {
 public:
  explicit EulerImplicit(const EulerImplicitParams& p) : p_(p) {}
  std::string_view name() const override { return "euler_implicit"; }

  StepStats initialize(MechanicalSystem& system, State& state) override {
    f_ = system.create_vector();
    w_ = system.create_vector();
    mw_ = system.create_vector();
    dv_ = system.create_vector();
    if (p_.newton) {
      x_ = system.create_vector();
      newton_ = std::make_unique<NewtonSolver>(system);
    }
    (void)state;
    return {};
  }

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    if (p_.newton) return newton_step(system, state, h);
    const auto [alpha_m, alpha_k] = system.rayleigh();
    const double tau = p_.trapezoidal ? 0.5 : 1.0;
    const double t1 = state.time + h;
    system.update_tangent(state.u);  // K, B at x_n
    system.force(state.time, state.u, state.v, f_);
    SolveReport r;
    if (p_.first_order) {
      // (M + tau h K) v+ = f(x_n, v_n); the constrained entries of v+ are prescribed.
      INERTIA_PETSC(VecCopy(state.v, dv_));
      system.apply_constraints(t1, nullptr, dv_, nullptr);
      r = system.solve(1.0, tau * h, f_, dv_);
      INERTIA_PETSC(VecCopy(dv_, state.v));
      INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    } else {
      // b = h [f - alpha_M M v_n - (tau h + alpha_K) K v_n]
      if (alpha_m != 0) {
        system.mult_mass(state.v, mw_);
        INERTIA_PETSC(VecAXPY(f_, -alpha_m, mw_));
      }
      system.mult_stiffness(state.v, mw_);
      INERTIA_PETSC(VecAXPY(f_, -(tau * h + alpha_k), mw_));
      INERTIA_PETSC(VecScale(f_, h));
      // dv on constrained DOFs: g'(t_{n+1}) - v_n.
      INERTIA_PETSC(VecCopy(state.v, w_));  // v_n
      INERTIA_PETSC(VecZeroEntries(dv_));
      system.apply_constraints(t1, nullptr, dv_, nullptr);
      {
        // dv_c = g' - v_n,c, leaving the free entries at 0 (the initial guess).
        INERTIA_PETSC(VecCopy(state.v, mw_));
        system.zero_constrained(mw_);
        INERTIA_PETSC(VecAXPY(mw_, -1.0, state.v));  // -v_n on constrained DOFs, 0 elsewhere
        INERTIA_PETSC(VecAXPY(dv_, 1.0, mw_));
      }
      r = system.solve(1 + tau * h * alpha_m, tau * h * (tau * h + alpha_k), f_, dv_, tau * h);
      INERTIA_PETSC(VecAXPY(state.v, 1.0, dv_));
      if (p_.trapezoidal)
        INERTIA_PETSC(VecAXPBYPCZ(state.u, 0.5 * h, 0.5 * h, 1.0, w_, state.v));
      else
        INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    }
    state.time = t1;
    ++state.step;
    land(system, t1, state.u, state.v);
    return {r.iterations, 0};
  }

  StepStats newton_step(MechanicalSystem& system, State& state, double h) {
    const auto rayleigh = system.rayleigh();
    const double alpha_m = rayleigh.mass, alpha_k = rayleigh.stiffness;  // captured below
    const double t1 = state.time + h;
    Vec xn = state.u, vn = w_;
    INERTIA_PETSC(VecCopy(state.v, w_));  // v_n
    auto configuration = [&](Vec v, Vec x) { INERTIA_PETSC(VecWAXPY(x, h, v, xn)); };
    NewtonSolver::Problem problem;
    problem.configuration = configuration;
    problem.residual = [&](Vec v, Vec g) {
      // G(v) = M (v - v_n) - h [f(t1, x_n + h v, v) - C v]
      configuration(v, x_);
      system.force(t1, x_, v, f_);
      if (alpha_m != 0 || alpha_k != 0) {
        if (alpha_k != 0) system.update_tangent(x_);
        system.mult_damping(v, mw_);
        INERTIA_PETSC(VecAXPY(f_, -1.0, mw_));
      }
      INERTIA_PETSC(VecWAXPY(dv_, -1.0, vn, v));
      system.mult_mass(dv_, g);
      INERTIA_PETSC(VecAXPY(g, -h, f_));
    };
    problem.m = 1 + h * alpha_m;
    problem.k = h * (h + alpha_k);
    problem.b = h;
    problem.cx = h;
    problem.t = t1;
    system.apply_constraints(t1, nullptr, state.v, nullptr);  // guess v_n, prescribed entries
    const NewtonReport r = newton_->solve(problem, state.v);
    INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    state.time = t1;
    ++state.step;
    land(system, t1, state.u, state.v);
    return {r.linear_iterations, r.iterations, r.reason_name(), r.residuals};
  }

 private:
  EulerImplicitParams p_;
  petsc::Vector f_, w_, mw_, dv_, x_;
  std::unique_ptr<NewtonSolver> newton_;
};

}  // namespace

Scheme configure_euler_implicit(const OptionMap& options) {
  options.expect_keys({"trapezoidal", "first_order", "newton"});
  EulerImplicitParams p;
  p.trapezoidal = options.boolean_or("trapezoidal", p.trapezoidal);
  p.first_order = options.boolean_or("first_order", p.first_order);
  p.newton = options.boolean_or("newton", p.newton);
  if (p.newton && (p.trapezoidal || p.first_order))
    options.fail("newton",
                 "newton: true solves plain backward Euler; it cannot be combined with "
                 "trapezoidal or first_order");
  if (p.trapezoidal && p.first_order)
    options.fail("first_order", "trapezoidal and first_order cannot be combined");
  Scheme::Traits traits{.kind = SchemeKind::implicit_scheme, .newton = p.newton};
  if (p.first_order)
    traits.refuses_damping =
        "euler_implicit with first_order: true (a first-order system has no inertia to damp)";
  std::string text = p.trapezoidal ? "trapezoidal" : p.first_order ? "first order" : "";
  if (p.newton) text = "Newton";
  return Scheme("euler_implicit", traits, text, p,
                [p] { return std::make_unique<EulerImplicit>(p); });
}

}  // namespace inertia
