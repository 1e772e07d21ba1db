// euler_implicit: see euler_implicit.hpp for the recurrence.
#include "inertia/time/euler_implicit.hpp"

#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class EulerImplicit final : public Integrator {
 public:
  explicit EulerImplicit(const EulerImplicitParams& p) : p_(p) {}
  std::string_view name() const override { return "euler_implicit"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    f_ = system.create_vector();
    w_ = system.create_vector();
    mw_ = system.create_vector();
    dv_ = system.create_vector();
    x_ = system.create_vector();
    if (p_.newton) {
      newton_ = std::make_unique<NewtonSolver>(system);
    }
    (void)state;
    return {};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    if (p_.newton) return newton_step(system, state, h);
    const auto [alpha_m, alpha_k] = system.rayleigh();
    const double tau = p_.trapezoidal ? 0.5 : 1.0;
    const double t1 = state.after(h);
    system.update_tangent(state.u);  // K, B at x_n
    // A linear system folds K u_n, K v_n and the prescribed dv_c's coupling into one product with
    // K (and one with a consistent M, for alpha_M or a moving support): Coupling::in_rhs.
    const bool linear = system.is_linear();
    const bool mass_coupling = system.has_prescribed_motion() && !system.lumped_mass();
    SolveReport r;
    if (p_.first_order) {
      // (M + tau h K) v+ = f(x_n, v_n); the constrained entries of v+ put x+ on g(t_{n+1}).
      INERTIA_PETSC(VecCopy(state.v, dv_));
      system.zero_constrained(dv_);
      add_placing_velocity(system, state, t1, h, 1.0, dv_);
      if (linear) {
        // f_ext - K (x_n + tau h v+_c) - M v+_c
        system.external_force(state.time, f_);
        INERTIA_PETSC(VecCopy(state.u, x_));
        system.add_constrained(tau * h, dv_, x_);
        system.mult_stiffness(x_, mw_);
        INERTIA_PETSC(VecAXPY(f_, -1.0, mw_));
        if (mass_coupling) {
          INERTIA_PETSC(VecZeroEntries(x_));
          system.add_constrained(1.0, dv_, x_);
          system.mult_mass(x_, mw_);
          INERTIA_PETSC(VecAXPY(f_, -1.0, mw_));
        }
        r = system.solve(1.0, tau * h, f_, dv_, 0, DynamicSystem::Coupling::in_rhs);
      } else {
        system.force(state.time, state.u, state.v, f_);
        r = system.solve(1.0, tau * h, f_, dv_);
      }
      INERTIA_PETSC(VecCopy(dv_, state.v));
      INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    } else {
      // dv on constrained DOFs: what puts x+ on g(t_{n+1}), (g(t_{n+1}) - x_n) / (tau h) -
      // v_n / tau; 0 on the free ones (the initial guess).
      INERTIA_PETSC(VecCopy(state.v, w_));  // v_n
      INERTIA_PETSC(VecCopy(state.v, mw_));
      system.keep_constrained(mw_);  // v_n on the constrained DOFs, 0 elsewhere
      INERTIA_PETSC(VecAXPBY(dv_, -1.0 / tau, 0.0, mw_));
      add_placing_velocity(system, state, t1, h, 1.0 / tau, dv_);
      // b = h [f - alpha_M M v_n - (tau h + alpha_K) K v_n]
      const double m = 1 + tau * h * alpha_m, k = tau * h * (tau * h + alpha_k);
      if (linear) {
        // b = h f_ext - K (h x_n + h (tau h + alpha_K) v_n + k dv_c) - M (h alpha_M v_n + m dv_c)
        system.external_force(state.time, f_);
        INERTIA_PETSC(VecScale(f_, h));
        INERTIA_PETSC(VecAXPBYPCZ(x_, h, h * (tau * h + alpha_k), 0.0, state.u, state.v));
        if (system.has_prescribed_motion()) system.add_constrained(k, dv_, x_);
        system.mult_stiffness(x_, mw_);
        INERTIA_PETSC(VecAXPY(f_, -1.0, mw_));
        if (alpha_m != 0 || mass_coupling) {
          INERTIA_PETSC(VecAXPBY(x_, h * alpha_m, 0.0, state.v));
          if (mass_coupling) system.add_constrained(m, dv_, x_);
          system.mult_mass(x_, mw_);
          INERTIA_PETSC(VecAXPY(f_, -1.0, mw_));
        }
        r = system.solve(m, k, f_, dv_, tau * h, DynamicSystem::Coupling::in_rhs);
      } else {
        system.force(state.time, state.u, state.v, f_);
        if (alpha_m != 0) {
          system.mult_mass(state.v, mw_);
          INERTIA_PETSC(VecAXPY(f_, -alpha_m, mw_));
        }
        system.mult_stiffness(state.v, mw_);
        INERTIA_PETSC(VecAXPY(f_, -(tau * h + alpha_k), mw_));
        INERTIA_PETSC(VecScale(f_, h));
        r = system.solve(m, k, f_, dv_, tau * h);
      }
      INERTIA_PETSC(VecAXPY(state.v, 1.0, dv_));
      if (p_.trapezoidal)
        INERTIA_PETSC(VecAXPBYPCZ(state.u, 0.5 * h, 0.5 * h, 1.0, w_, state.v));
      else
        INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    }
    system.apply_constraints(t1, state.u, state.v, nullptr);  // u: round-off; v: g'(t_{n+1})
    state.time = t1;
    ++state.step;
    return {r.iterations, 0};
  }

  StepStats newton_step(DynamicSystem& system, State& state, double h) {
    const auto rayleigh = system.rayleigh();
    const double alpha_m = rayleigh.mass, alpha_k = rayleigh.stiffness;  // captured below
    const double t1 = state.after(h);
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
    // Guess v_n; the constrained entries put x_n + h v on g(t_{n+1}).
    system.zero_constrained(state.v);
    add_placing_velocity(system, state, t1, h, 1.0, state.v);
    const NewtonReport r = newton_->solve(problem, state.v);
    INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    system.apply_constraints(t1, state.u, state.v, nullptr);  // u: round-off; v: g'(t_{n+1})
    state.time = t1;
    ++state.step;
    return {r.linear_iterations, r.iterations, r.reason_name(), r.residuals};
  }

 private:
  /// y += scale (g(t1) - x_n) / h on the constrained DOFs (x_n = state.u): the velocity that
  /// carries a support from where it is to its prescribed place at t1 in one step. Uses x_.
  void add_placing_velocity(DynamicSystem& system, const State& state, double t1, double h,
                            double scale, Vec y) {
    INERTIA_PETSC(VecCopy(state.u, x_));
    system.apply_constraints(t1, x_, nullptr, nullptr);
    INERTIA_PETSC(VecAXPY(x_, -1.0, state.u));  // g(t1) - x_n on constrained DOFs, 0 elsewhere
    INERTIA_PETSC(VecAXPY(y, scale / h, x_));
  }

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
