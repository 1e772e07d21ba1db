#include "inertia/time/rk2.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class Rk2 final : public Integrator {
 public:
  std::string_view name() const override { return "rk2"; }

  StepStats initialize(MechanicalSystem& system, State& state) override {
    forces_.allocate(system);
    a_ = system.create_vector();
    x_mid_ = system.create_vector();
    v_mid_ = system.create_vector();
    return {forces_.acceleration(system, state.time, state.u, state.v, a_), 0};
  }

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    const double t_mid = state.time + 0.5 * h;
    PetscInt iterations = forces_.acceleration(system, state.time, state.u, state.v, a_);
    INERTIA_PETSC(VecWAXPY(x_mid_, 0.5 * h, state.v, state.u));  // x_n + h/2 v_n
    INERTIA_PETSC(VecWAXPY(v_mid_, 0.5 * h, a_, state.v));       // v_n + h/2 a_1
    system.apply_constraints(t_mid, x_mid_, v_mid_, nullptr);
    iterations += forces_.acceleration(system, t_mid, x_mid_, v_mid_, a_);
    INERTIA_PETSC(VecAXPY(state.u, h, v_mid_));  // x_n + h v_m
    INERTIA_PETSC(VecAXPY(state.v, h, a_));      // v_n + h a_2
    state.time += h;
    ++state.step;
    system.apply_constraints(state.time, state.u, state.v, nullptr);
    return {iterations, 0};
  }

  Vec acceleration() const override { return a_.get(); }

  std::vector<std::pair<std::string, Vec>> solver_guesses() override {
    return {{"acceleration_guess", a_}};
  }

 private:
  explicit_detail::ExplicitForces forces_;
  petsc::Vector a_, x_mid_, v_mid_;
};

}  // namespace

std::unique_ptr<Integrator> make_rk2(const IntegratorParams&) { return std::make_unique<Rk2>(); }

}  // namespace inertia
