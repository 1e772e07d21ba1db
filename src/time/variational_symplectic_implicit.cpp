// variational_symplectic (implicit): see implicit_schemes.hpp for the recurrence.
#include "inertia/time/implicit_schemes.hpp"
#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class VariationalSymplecticImplicit final : public Integrator {
 public:
  explicit VariationalSymplecticImplicit(const VariationalSymplecticParams& p) : p_(p) {}
  std::string_view name() const override { return "variational_symplectic"; }

  StepStats initialize(MechanicalSystem& system, State& state) override {
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

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    const auto [alpha_m, alpha_k] = system.rayleigh();
    const double t_mid = state.time + 0.5 * h, t1 = state.time + h;
    const double m = 4 / (h * h) + 4 * alpha_m / h, k = 1 + 4 * alpha_k / h, b = 2 / h;
    // r on constrained DOFs: (g(t_{n+1}) - q_n) / 2, so that x+ = q_n + 2 r = g(t_{n+1}).
    INERTIA_PETSC(VecCopy(state.u, w_));
    system.apply_constraints(t1, w_, nullptr, nullptr);
    INERTIA_PETSC(VecAXPY(w_, -1.0, state.u));
    INERTIA_PETSC(VecScale(w_, 0.5));  // (g - q_n)/2 on constrained DOFs, 0 elsewhere
    StepStats stats;
    if (system.is_linear()) {
      // G is affine in r: A r = f(t_mid, q_n, 0) + (2/h) p_n (the dashpot-free linear case).
      system.force(t_mid, state.u, w_, f_);
      INERTIA_PETSC(VecAXPY(f_, 2 / h, p_n_));
      copy_constrained(system, w_, r_);
      const SolveReport rep = system.solve(m, k, f_, r_);
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
  double hamiltonian(MechanicalSystem& system, const State& state) override {
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
  static void copy_constrained(MechanicalSystem& system, Vec values, Vec y) {
    system.zero_constrained(y);
    // values is zero on the free DOFs, so adding it sets exactly the constrained entries.
    INERTIA_PETSC(VecAXPY(y, 1.0, values));
  }

  VariationalSymplecticParams p_;
  petsc::Vector p_n_, r_, f_, w_, x_, v_;
  std::unique_ptr<NewtonSolver> newton_;
};

}  // namespace

std::unique_ptr<Integrator> make_variational_symplectic_implicit(const IntegratorParams& params) {
  return std::make_unique<VariationalSymplecticImplicit>(params.variational_symplectic);
}

}  // namespace inertia
