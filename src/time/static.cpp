// static: see static.hpp. Each "time step" is a load step; time is a load factor.
#include "inertia/time/static.hpp"

#include "inertia/time/newton.hpp"

namespace inertia {

namespace {

class Static final : public Integrator {
 public:
  std::string_view name() const override { return "static"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    f_ = system.create_vector();
    a_ = system.create_vector();  // stays zero: each load step is an equilibrium
    INERTIA_PETSC(VecZeroEntries(state.v));
    if (!system.is_linear()) newton_ = std::make_unique<NewtonSolver>(system);
    return {};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const double t1 = state.time + h;
    system.apply_constraints(t1, state.u, nullptr, nullptr);  // prescribed u at this load step
    StepStats stats;
    if (system.is_linear()) {
      system.external_force(t1, f_);
      stats.linear_iterations = system.solve(0.0, 1.0, f_, state.u).iterations;
    } else {
      NewtonSolver::Problem problem;
      problem.configuration = [](Vec u, Vec x) { INERTIA_PETSC(VecCopy(u, x)); };
      problem.residual = [&](Vec u, Vec g) {
        system.force(t1, u, zero_velocity(system), g);  // f_ext - f_int
        INERTIA_PETSC(VecScale(g, -1.0));
      };
      problem.k = 1.0;
      problem.cx = 1.0;
      problem.t = t1;
      const NewtonReport r = newton_->solve(problem, state.u);
      stats = {r.linear_iterations, r.iterations, r.reason_name(), r.residuals};
    }
    INERTIA_PETSC(VecZeroEntries(state.v));
    state.time = t1;
    ++state.step;
    return stats;
  }

  /// Zero (equilibrium): the energy balance's support reactions are f_int(u) - f_ext there.
  Vec acceleration() const override { return a_.get(); }

 private:
  Vec zero_velocity(DynamicSystem& system) {
    if (!zero_) zero_ = system.create_vector();
    return zero_;
  }
  petsc::Vector f_, a_, zero_;
  std::unique_ptr<NewtonSolver> newton_;
};

}  // namespace

Scheme configure_static(const OptionMap& options) {
  options.expect_keys({});
  return Scheme("static",
                {.kind = SchemeKind::static_solve,
                 .newton = true,
                 .refuses_damping = "the static integrator"},
                "", {}, [] { return std::make_unique<Static>(); });
}

}  // namespace inertia
