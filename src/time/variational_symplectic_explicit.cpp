#include "inertia/time/variational_symplectic_explicit.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class VariationalSymplecticExplicit final : public Integrator {
 public:
  std::string_view name() const override { return "variational_symplectic"; }

  StepStats initialize(MechanicalSystem& system, State&) override {
    forces_.allocate(system);
    p_ = system.create_vector();
    return {};
  }

  StepStats step(MechanicalSystem& system, State& state, double h) override {
    const double t1 = state.time + h;
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

std::unique_ptr<Integrator> make_variational_symplectic_explicit(const IntegratorParams&) {
  return std::make_unique<VariationalSymplecticExplicit>();
}

}  // namespace inertia
