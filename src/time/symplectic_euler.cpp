#include "inertia/time/symplectic_euler.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class SymplecticEuler final : public Integrator {
 public:
  std::string_view name() const override { return "symplectic_euler"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    forces_.allocate(system);
    a_ = system.create_vector();
    return {forces_.acceleration(system, state.time, state.u, state.v, a_), 0};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const PetscInt iterations = forces_.acceleration(system, state.time, state.u, state.v, a_);
    INERTIA_PETSC(VecAXPY(state.v, h, a_));       // v_n + h a_n
    INERTIA_PETSC(VecAXPY(state.u, h, state.v));  // x_n + h v_{n+1}
    state.time = state.after(h);
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
  petsc::Vector a_;
};

}  // namespace

Scheme configure_symplectic_euler(const OptionMap& options) {
  options.expect_keys({});
  return Scheme("symplectic_euler", {.kind = SchemeKind::explicit_scheme, .stability_limit = 2.0},
                "", {}, [] { return std::make_unique<SymplecticEuler>(); });
}

}  // namespace inertia
