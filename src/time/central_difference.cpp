#include "inertia/time/central_difference.hpp"

#include "explicit_forces.hpp"

namespace inertia {

namespace {

class CentralDifference final : public Integrator {
 public:
  explicit CentralDifference(const CentralDifferenceParams& p) : p_(p) {}
  std::string_view name() const override { return "central_difference"; }

  StepStats initialize(DynamicSystem& system, State& state) override {
    forces_.allocate(system);
    a_ = system.create_vector();
    acceleration_ = system.create_vector();
    v_half_ = system.create_vector();
    // a_0 with the full Rayleigh force: the physical initial acceleration, for output and for
    // the half-step start. SOFA's start (v_{-1/2} = v_0) is also the fallback if a restart
    // does not restore the half-step velocity.
    INERTIA_PETSC(VecCopy(state.v, v_half_));
    started_ = false;
    // Rigid bodies: their mass properties, and on a fresh start their nodes' initial velocity.
    if (system.has_rigid_bodies()) system.start_rigid_bodies(state.v, state.step == 0);
    const PetscInt iterations =
        forces_.acceleration(system, state.time, state.u, state.v, acceleration_);
    if (system.has_rigid_bodies()) system.load_rigid_bodies(acceleration_);  // the first row's
    return {iterations, 0};
  }

  StepStats step(DynamicSystem& system, State& state, double h) override {
    const double alpha_m = system.rayleigh().mass;
    const double t = state.time, t1 = state.after(h);
    PetscInt iterations = 0;
    if (!started_) {
      if (state.step == 0) {
        INERTIA_PETSC(VecCopy(state.v, v_half_));
        if (p_.half_step_start) INERTIA_PETSC(VecAXPY(v_half_, -0.5 * h, acceleration_));
      }
      iterations += evaluate_a(system, t, state.u);
      if (system.has_rigid_bodies()) system.load_rigid_bodies(a_);
      started_ = true;
    }
    // A varying step (dt: auto following the mesh): v_{n+1/2} - v_{n-1/2} spans the mean of the
    // two steps around t_n; a fixed step gives h itself.
    const double hv = state.previous_dt > 0 ? 0.5 * (state.previous_dt + h) : h;
    const double c_v = alpha_m == 0 ? 1.0 : (1 / hv - alpha_m / 2) / (1 / hv + alpha_m / 2);
    const double c_a = alpha_m == 0 ? hv : 1 / (1 / hv + alpha_m / 2);
    // v_{n+1/2} = c_v v_{n-1/2} + c_a a_n;  x_{n+1} = x_n + h v_{n+1/2}, in one pass (the
    // constrained DOFs of x are overwritten below, so v's constraints may come after).
    {
      petsc::Array vh(v_half_), x(state.u);
      petsc::ConstArray a(a_);
      double* __restrict vp = vh.span().data();
      double* __restrict xp = x.span().data();
      const double* __restrict ap = a.span().data();
      for (PetscInt i = 0; i < vh.size(); ++i) {
        vp[i] = c_v * vp[i] + c_a * ap[i];
        xp[i] += h * vp[i];
      }
    }
    // Rigid bodies (rigid_bodies.hpp): velocity Verlet, the same recurrence: a kick of h/2
    // from the whole step (h/2 + h/2 = hv), h once for SOFA's start.
    if (system.has_rigid_bodies())
      system.advance_rigid_bodies(t, h, started_step0(state) ? h : 0.5 * h, state.u, v_half_);
    system.apply_constraints(t + 0.5 * h, nullptr, v_half_, nullptr);
    state.time = t1;
    state.previous_dt = h;
    ++state.step;
    system.apply_constraints(t1, state.u, nullptr, nullptr);
    // a_{n+1} (the next step's), then the whole-step velocity and acceleration at t_{n+1}:
    // v_{n+1} = (v_{n+1/2} + c_v v_{n+1/2} + c_a a_{n+1}) / 2.
    iterations += evaluate_a(system, t1, state.u);
    const double h_v = alpha_m == 0 ? 1.0 : (1 / h - alpha_m / 2) / (1 / h + alpha_m / 2);
    const double h_a = alpha_m == 0 ? h : 1 / (1 / h + alpha_m / 2);  // c_v, c_a of a step h
    INERTIA_PETSC(VecAXPBYPCZ(state.v, 0.5 * (1 + h_v), 0.5 * h_a, 0.0, v_half_, a_));
    system.apply_constraints(t1, nullptr, state.v, nullptr);
    if (system.has_rigid_bodies()) system.finish_rigid_bodies(t1, h, a_, state.v);
    // Without mass damping the whole-step acceleration is a_ itself: no copy.
    acceleration_is_a_ = alpha_m == 0;
    if (!acceleration_is_a_) {
      INERTIA_PETSC(VecWAXPY(acceleration_, -alpha_m, state.v, a_));
      system.apply_constraints(t1, nullptr, nullptr, acceleration_);
    }
    return {iterations, 0};
  }

  Vec acceleration() const override { return acceleration_is_a_ ? a_.get() : acceleration_.get(); }
  void scale_velocity(double factor, State& state) override {
    INERTIA_PETSC(VecScale(state.v, factor));
    INERTIA_PETSC(VecScale(v_half_, factor));
  }
  std::vector<std::pair<std::string, Vec>> internal_state() override {
    return {{"half_step_velocity", v_half_}};
  }

  /// Erosion: a_{n+1} again with the new masses and forces, and the half-step velocity that
  /// gives v_{n+1} with it (v_{n+1/2} = v_{n+1} - h/2 a_{n+1}): the next steps keep the model's
  /// momentum (v_{n+1}'s, less what the eroded cells carried) exactly.
  void model_changed(DynamicSystem& system, State& state, double h) override {
    evaluate_a(system, state.time, state.u);
    if (system.has_rigid_bodies()) system.load_rigid_bodies(a_);
    const double alpha_m = system.rayleigh().mass;
    const double c_a = alpha_m == 0 ? h : 1 / (1 / h + alpha_m / 2);
    const double c_v = alpha_m == 0 ? 1.0 : (1 / h - alpha_m / 2) / (1 / h + alpha_m / 2);
    // v_{n+1} = (v_half (1 + c_v) + c_a a) / 2 solved for v_half.
    INERTIA_PETSC(VecAXPBYPCZ(v_half_, 2 / (1 + c_v), -c_a / (1 + c_v), 0.0, state.v, a_));
    system.apply_constraints(state.time, nullptr, v_half_, nullptr);
    acceleration_is_a_ = alpha_m == 0;
    if (!acceleration_is_a_) {
      INERTIA_PETSC(VecWAXPY(acceleration_, -alpha_m, state.v, a_));
      system.apply_constraints(state.time, nullptr, nullptr, acceleration_);
    }
  }

  std::vector<std::pair<std::string, Vec>> solver_guesses() override {
    return {{"acceleration_guess", a_}};
  }

 private:
  /// a_ = M^{-1} (f(t, x, v_half) - alpha_K K(x) v_half): alpha_M is in c_v, c_a. Computed as
  /// M^{-1} (f - C v_half) + alpha_M v_half, which is the same on the free DOFs except that a
  /// consistent mass also keeps the alpha_M M_fc coupling to prescribed velocities.
  PetscInt evaluate_a(DynamicSystem& system, double t, Vec x) {
    const PetscInt iterations = forces_.acceleration(system, t, x, v_half_, a_);
    const double alpha_m = system.rayleigh().mass;
    if (alpha_m != 0) INERTIA_PETSC(VecAXPY(a_, alpha_m, v_half_));
    return iterations;
  }

  /// The first step of a fresh run with SOFA's start (v_{1/2} = v_0 + h a_0).
  bool started_step0(const State& state) const { return state.step == 0 && !p_.half_step_start; }

  CentralDifferenceParams p_;
  explicit_detail::ExplicitForces forces_;
  petsc::Vector a_;             ///< a_n of the recurrence (without the alpha_M term)
  petsc::Vector acceleration_;  ///< whole-step acceleration, for output
  petsc::Vector v_half_;        ///< v_{n+1/2} after a step
  bool started_ = false;
  bool acceleration_is_a_ = false;  ///< acceleration() is a_ (no mass damping, after a step)
};

}  // namespace

Scheme configure_central_difference(const OptionMap& options) {
  options.expect_keys({"half_step_start"});
  CentralDifferenceParams p;
  p.half_step_start = options.boolean_or("half_step_start", p.half_step_start);
  return Scheme("central_difference", {.kind = SchemeKind::explicit_scheme, .stability_limit = 2.0},
                p.half_step_start ? "" : "SOFA start", p,
                [p] { return std::make_unique<CentralDifference>(p); });
}

}  // namespace inertia
