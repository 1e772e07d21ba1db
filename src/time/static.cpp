// static: see static.hpp. Each "time step" is a load step; time is a load factor.
#include "inertia/time/static.hpp"

#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class Static final : public Integrator {
 public:
  std::string_view name() const override { return "static"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    a_ = system.create_vector();  // stays zero: each load step is an equilibrium
    INERTIA_PETSC(VecZeroEntries(state.v));
    return {};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const double t1 = state.after(h);
    StepStats stats;
    if (system.has_plasticity() && system.has_prescribed_motion()) {
      // Predictor: one Newton step from the last state with its tangent, the prescribed
      // increment and the load's spread through the body (K_t du = f_ext(t1) - f_int(u_n), du
      // prescribed on the constrained DOFs). Newton starting from the prescribed values alone
      // would strain the cells next to a moving support by the whole increment, far into the
      // plastic range, and crawl back from there.
      if (!du_) du_ = system.create_vector(), r_ = system.create_vector();
      system.update_tangent(state.u);
      system.force(t1, state.u, zero_velocity(system), r_);
      INERTIA_PETSC(VecCopy(state.u, du_));
      system.apply_constraints(t1, du_, nullptr, nullptr);
      INERTIA_PETSC(VecAXPY(du_, -1.0, state.u));
      stats.linear_iterations = system.solve(0.0, 1.0, r_, du_).iterations;
      INERTIA_PETSC(VecAXPY(state.u, 1.0, du_));
    }
    const StepStats equilibrium = solve_equilibrium(system, t1, state.u, equilibrium_);
    stats = {stats.linear_iterations + equilibrium.linear_iterations,
             equilibrium.nonlinear_iterations, equilibrium.nonlinear_reason, equilibrium.residuals};
    INERTIA_PETSC(VecZeroEntries(state.v));
    state.time = t1;
    ++state.step;
    return stats;
  }

  /// Zero (equilibrium): the energy balance's support reactions are f_int(u) - f_ext there.
  Vec acceleration() const override { return a_.get(); }

 private:
  Vec zero_velocity(DynamicSystem& system) {
    if (!equilibrium_.zero) equilibrium_.zero = system.create_vector();
    return equilibrium_.zero;
  }
  petsc::Vector a_, du_, r_;
  EquilibriumWork equilibrium_;
};

}  // namespace

EquilibriumWork::~EquilibriumWork() = default;

StepStats solve_equilibrium(DynamicSystem& system, double t, Vec u, EquilibriumWork& work) {
  system.apply_constraints(t, u, nullptr, nullptr);  // the prescribed u at t
  if (system.is_linear()) {
    if (!work.load) work.load = system.create_vector();
    system.external_force(t, work.load);
    return {system.solve(0.0, 1.0, work.load, u).iterations, 0};
  }
  if (!work.newton) work.newton = std::make_unique<NewtonSolver>(system);
  if (!work.zero) work.zero = system.create_vector();
  NewtonSolver::Problem problem;
  problem.configuration = [](Vec x, Vec y) { INERTIA_PETSC(VecCopy(x, y)); };
  problem.residual = [&](Vec x, Vec g) {
    system.force(t, x, work.zero, g);  // f_ext - f_int
    INERTIA_PETSC(VecScale(g, -1.0));
  };
  problem.k = 1.0;
  problem.cx = 1.0;
  problem.t = t;
  const NewtonReport r = work.newton->solve(problem, u);
  return {r.linear_iterations, r.iterations, r.reason_name(), r.residuals};
}

Scheme configure_static(const OptionMap& options) {
  options.expect_keys({});
  return Scheme("static",
                {.kind = SchemeKind::static_solve,
                 .newton = true,
                 .refuses_damping = "the static integrator"},
                "", {}, [] { return std::make_unique<Static>(); });
}

}  // namespace inertia
