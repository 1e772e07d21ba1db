#include "inertia/time/rk4.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class Rk4 final : public Integrator {
 public:
  std::string_view name() const override { return "rk4"; }

  StepStats initialize(MechanicalSystem& system, State& state) override {
    forces_.allocate(system);
    a_ = system.create_vector();
    x_stage_ = system.create_vector();
    v_stage_ = system.create_vector();
    v_sum_ = system.create_vector();
    a_sum_ = system.create_vector();
    return {forces_.acceleration(system, state.time, state.u, state.v, a_), 0};
  }

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    const double t = state.time;
    PetscInt iterations = forces_.acceleration(system, t, state.u, state.v, a_);
    INERTIA_PETSC(VecCopy(state.v, v_sum_));
    INERTIA_PETSC(VecCopy(a_, a_sum_));
    // Stages 2, 3, 4: offset c of the stage and weight w in the final sums.
    constexpr struct { double c, w; } stages[] = {{0.5, 2.0}, {0.5, 2.0}, {1.0, 1.0}};
    Vec v_previous = state.v;
    for (const auto& s : stages) {
      // x_s = x_n + c h v_{s-1};  v_s = v_n + c h a_{s-1}  (x_s first: it reads v_{s-1})
      INERTIA_PETSC(VecWAXPY(x_stage_, s.c * h, v_previous, state.u));
      INERTIA_PETSC(VecWAXPY(v_stage_, s.c * h, a_, state.v));
      v_previous = v_stage_;
      system.apply_constraints(t + s.c * h, x_stage_, v_stage_, nullptr);
      iterations += forces_.acceleration(system, t + s.c * h, x_stage_, v_stage_, a_);
      INERTIA_PETSC(VecAXPY(v_sum_, s.w, v_stage_));
      INERTIA_PETSC(VecAXPY(a_sum_, s.w, a_));
    }
    INERTIA_PETSC(VecAXPY(state.u, h / 6, v_sum_));
    INERTIA_PETSC(VecAXPY(state.v, h / 6, a_sum_));
    state.time = t + h;
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
  petsc::Vector a_, x_stage_, v_stage_, v_sum_, a_sum_;
};

}  // namespace

std::unique_ptr<Integrator> make_rk4(const IntegratorParams&) { return std::make_unique<Rk4>(); }

}  // namespace inertia
