// variational_symplectic, implicit and explicit: see variational_symplectic.hpp.
#include "inertia/time/variational_symplectic.hpp"

#include "explicit_forces.hpp"
#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class VariationalSymplecticImplicit final : public Integrator {
 public:
  explicit VariationalSymplecticImplicit(const VariationalSymplecticParams& p) : p_(p) {}
  std::string_view name() const override { return "variational_symplectic"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    p_n_ = system.create_vector();
    r_ = system.create_vector();
    f_ = system.create_vector();
    w_ = system.create_vector();
    x_ = system.create_vector();
    v_ = system.create_vector();
    system.mult_mass(state.v, p_n_);  // p_0 = M v_0
    if (!system.is_linear()) {
      newton_ = std::make_unique<NewtonSolver>(system);
      newton_->set_tolerances(p_.newton_tolerance, p_.max_newton_steps);
    }
    return {};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const auto rayleigh = system.rayleigh();
    const double alpha_m = rayleigh.mass, alpha_k = rayleigh.stiffness;  // captured below
    const double t_mid = state.time + 0.5 * h, t1 = state.after(h);
    const double m = 4 / (h * h) + 4 * alpha_m / h, k = 1 + 4 * alpha_k / h, b = 2 / h;
    // r on constrained DOFs: (g(t_{n+1}) - q_n) / 2, so that x+ = q_n + 2 r = g(t_{n+1}).
    INERTIA_PETSC(VecCopy(state.u, w_));
    system.apply_constraints(t1, w_, nullptr, nullptr);
    INERTIA_PETSC(VecAXPY(w_, -1.0, state.u));
    INERTIA_PETSC(VecScale(w_, 0.5));  // (g - q_n)/2 on constrained DOFs, 0 elsewhere
    StepStats stats;
    if (system.is_linear()) {
      // G is affine in r: A r = f(t_mid, q_n, 0) + (2/h) p_n (the dashpot-free linear case),
      // with the prescribed r_c's coupling in the same products (Coupling::in_rhs):
      //   f_ext(t_mid) + (2/h) p_n - K (q_n + k r_c) - M (m r_c).
      // w_ is r_c on the constrained DOFs and 0 elsewhere. One product with K, and one with a
      // consistent M when a support moves.
      system.external_force(t_mid, f_);
      INERTIA_PETSC(VecAXPY(f_, 2 / h, p_n_));
      INERTIA_PETSC(VecWAXPY(x_, k, w_, state.u));
      system.mult_stiffness(x_, v_);
      INERTIA_PETSC(VecAXPY(f_, -1.0, v_));
      if (system.has_prescribed_motion() && !system.lumped_mass()) {
        system.mult_mass(w_, v_);
        INERTIA_PETSC(VecAXPY(f_, -m, v_));
      }
      copy_constrained(system, w_, r_);
      const SolveReport rep = system.solve(m, k, f_, r_, 0, DynamicSystem::Coupling::in_rhs);
      stats.linear_iterations = rep.iterations;
    } else {
      Vec qn = state.u;
      auto configuration = [&](Vec r, Vec x) { INERTIA_PETSC(VecWAXPY(x, 1.0, r, qn)); };
      NewtonSolver::Problem problem;
      problem.configuration = configuration;
      problem.residual = [&](Vec r, Vec g) {
        // G(r) = (4/h^2 + 4 aM/h) M r + (4 aK/h) K r - f(t_mid, q_n + r, 2r/h) - (2/h) p_n
        configuration(r, x_);
        INERTIA_PETSC(VecAXPBY(v_, 2 / h, 0.0, r));
        system.force(t_mid, x_, v_, g);
        INERTIA_PETSC(VecAXPY(g, 2 / h, p_n_));
        INERTIA_PETSC(VecScale(g, -1.0));
        system.mult_mass(r, f_);
        INERTIA_PETSC(VecAXPY(g, 4 / (h * h) + 4 * alpha_m / h, f_));
        if (alpha_k != 0) {
          system.update_tangent(x_);
          system.mult_stiffness(r, f_);
          INERTIA_PETSC(VecAXPY(g, 4 * alpha_k / h, f_));
        }
      };
      problem.m = m;
      problem.k = k;
      problem.b = b;
      problem.cx = 1.0;
      problem.t = t_mid;
      copy_constrained(system, w_, r_);
      const NewtonReport rep = newton_->solve(problem, r_);
      stats = {rep.linear_iterations, rep.iterations, rep.reason_name(), rep.residuals};
    }
    // v+ = 2 r / h; x+ = q_n + h v+; p+ = M v+ + (h/2) f(t_mid, q_n + r, v+)
    INERTIA_PETSC(VecAXPBY(state.v, 2 / h, 0.0, r_));
    INERTIA_PETSC(VecWAXPY(x_, 1.0, r_, state.u));
    system.force(t_mid, x_, state.v, f_);
    system.mult_mass(state.v, p_n_);
    INERTIA_PETSC(VecAXPY(p_n_, 0.5 * h, f_));
    INERTIA_PETSC(VecAXPY(state.u, h, state.v));
    state.time = t1;
    ++state.step;
    system.apply_constraints(t1, state.u, state.v, nullptr);
    return stats;
  }

  std::vector<std::pair<std::string, Vec>> internal_state() override {
    return {{"momentum", p_n_}};
  }
  void scale_velocity(double factor, State& state) override {
    INERTIA_PETSC(VecScale(state.v, factor));
    INERTIA_PETSC(VecScale(p_n_, factor));
  }
  bool has_hamiltonian() const override { return true; }
  double hamiltonian(DynamicSystem& system, const State& state) override {
    // 1/2 p.M^{-1} p + stored energy - f_ext . u (the potential of the loads, taken as constant)
    INERTIA_PETSC(VecZeroEntries(w_));
    system.solve(1.0, 0.0, p_n_, w_);
    system.zero_constrained(w_);
    PetscScalar kinetic = 0, work = 0;
    INERTIA_PETSC(VecDot(p_n_, w_, &kinetic));
    system.external_force(state.time, f_);
    INERTIA_PETSC(VecDot(f_, state.u, &work));
    return 0.5 * kinetic + system.strain_energy(state.u) - work;
  }

  std::vector<std::pair<std::string, Vec>> solver_guesses() override {
    return {{"increment_guess", r_}};
  }

 private:
  /// y's constrained entries := those of values (others unchanged).
  static void copy_constrained(DynamicSystem& system, Vec values, Vec y) {
    system.zero_constrained(y);
    // values is zero on the free DOFs, so adding it sets exactly the constrained entries.
    INERTIA_PETSC(VecAXPY(y, 1.0, values));
  }

  VariationalSymplecticParams p_;
  petsc::Vector p_n_, r_, f_, w_, x_, v_;
  std::unique_ptr<NewtonSolver> newton_;
};

class VariationalSymplecticExplicit final : public Integrator {
 public:
  std::string_view name() const override { return "variational_symplectic"; }

  StepStats initialize(DynamicSystem& system, State&) override {
    forces_.allocate(system);
    p_ = system.create_vector();
    return {};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const double t1 = state.after(h);
    system.mult_mass(state.v, p_);  // p_n = M v_n
    // v_{n+1} = M^{-1} (p_n + h (f(t_n, x_n, v_n) - C v_n)): on the free DOFs the spec's
    // M^{-1} (p_n + h f - h alpha_K K v_n) - h alpha_M v_n (see explicit_forces.hpp). Solved in
    // place: v_n is the initial guess; the constrained DOFs hold g'(t_{n+1}).
    Vec r = forces_.net_force(system, state.time, state.u, state.v);
    INERTIA_PETSC(VecAYPX(r, h, p_));
    system.apply_constraints(t1, nullptr, state.v, nullptr);
    const SolveReport report = system.solve(1.0, 0.0, r, state.v);
    INERTIA_PETSC(VecAXPY(state.u, h, state.v));  // x_n + h v_{n+1}
    state.time = t1;
    ++state.step;
    system.apply_constraints(t1, state.u, state.v, nullptr);
    return {report.iterations, 0};
  }

 private:
  explicit_detail::ExplicitForces forces_;
  petsc::Vector p_;  ///< M v_n
};

}  // namespace

Scheme configure_variational_symplectic(const OptionMap& options) {
  options.expect_keys({"explicit", "newton_tolerance", "max_newton_steps"});
  VariationalSymplecticParams p;
  p.explicit_integration = options.boolean_or("explicit", p.explicit_integration);
  p.newton_tolerance =
      options.number_in("newton_tolerance", p.newton_tolerance, 0.0, 1.0, true, true);
  p.max_newton_steps =
      static_cast<int>(options.integer_in("max_newton_steps", p.max_newton_steps, 1, 1000));
  if (p.explicit_integration)
    return Scheme("variational_symplectic",
                  {.kind = SchemeKind::explicit_scheme, .stability_limit = 2.0}, "explicit", p,
                  [] { return std::make_unique<VariationalSymplecticExplicit>(); });
  return Scheme("variational_symplectic", {.kind = SchemeKind::implicit_scheme, .newton = true},
                "implicit", p, [p] { return std::make_unique<VariationalSymplecticImplicit>(p); });
}

}  // namespace inertia
