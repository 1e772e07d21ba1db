#include "inertia/time/heun.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class Heun final : public Integrator {
 public:
  std::string_view name() const override { return "heun"; }

  StepStats initialize(MechanicalSystem& system, State& state) override {
    forces_.allocate(system);
    a_ = system.create_vector();
    a_first_ = system.create_vector();
    x_pred_ = system.create_vector();
    v_pred_ = system.create_vector();
    return {forces_.acceleration(system, state.time, state.u, state.v, a_), 0};
  }

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    const double t1 = state.time + h;
    PetscInt iterations = forces_.acceleration(system, state.time, state.u, state.v, a_first_);
    INERTIA_PETSC(VecWAXPY(x_pred_, h, state.v, state.u));   // x_n + h v_n
    INERTIA_PETSC(VecWAXPY(v_pred_, h, a_first_, state.v));  // v_n + h a_1
    system.apply_constraints(t1, x_pred_, v_pred_, nullptr);
    iterations += forces_.acceleration(system, t1, x_pred_, v_pred_, a_);
    // x_n + h/2 (v_n + v_p);  v_n + h/2 (a_1 + a_2)
    INERTIA_PETSC(VecAXPBYPCZ(state.u, 0.5 * h, 0.5 * h, 1.0, state.v, v_pred_));
    INERTIA_PETSC(VecAXPBYPCZ(state.v, 0.5 * h, 0.5 * h, 1.0, a_first_, a_));
    state.time = t1;
    ++state.step;
    system.apply_constraints(t1, state.u, state.v, nullptr);
    return {iterations, 0};
  }

  Vec acceleration() const override { return a_.get(); }

  std::vector<std::pair<std::string, Vec>> solver_guesses() override {
    return {{"acceleration_guess", a_}};
  }

 private:
  explicit_detail::ExplicitForces forces_;
  petsc::Vector a_, a_first_, x_pred_, v_pred_;
};

}  // namespace

std::unique_ptr<Integrator> make_heun(const IntegratorParams&) { return std::make_unique<Heun>(); }

}  // namespace inertia
