#pragma once
/// \file integrator.hpp
/// The integrator seam: a scheme sees only the MechanicalSystem's vocabulary and the State, so it
/// is tested on a one-DOF oscillator and runs unchanged on millions of DOFs. What a scheme is
/// before it runs (kind, stability limit, options) is its Scheme (scheme.hpp); schemes are
/// registered by name in registry.cpp, one line each.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

/// The state every scheme shares: time, step counter, displacement u and velocity v (both
/// ghosted vectors of the system's layout). Scheme-specific state (Newmark's acceleration, ...)
/// lives in the integrator and is exposed through Integrator::internal_state().
struct State {
  double time = 0;
  std::int64_t step = 0;
  petsc::Vector u;
  petsc::Vector v;
};

/// Work of one step, for the log.
struct StepStats {
  std::int64_t linear_iterations = 0;
  std::int64_t nonlinear_iterations = 0;
  std::string nonlinear_reason;   ///< SNES's converged reason of the step's last Newton solve
  std::vector<double> residuals;  ///< the last Newton solve's residual norms, per iteration
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual std::string_view name() const = 0;
  /// Collective. Completes the initial state (u, v at state.time are given, constraints applied)
  /// with whatever the scheme carries, e.g. a_0 for Newmark.
  virtual StepStats initialize(MechanicalSystem& system, State& state) = 0;
  /// Collective. Advances state by dt (time and step included).
  virtual StepStats step(MechanicalSystem& system, State& state, double dt) = 0;
  /// The scheme's acceleration at the current state, or null if it carries none.
  virtual Vec acceleration() const { return nullptr; }
  /// Scheme state beyond (u, v), by name, for checkpoints and step retries.
  virtual std::vector<std::pair<std::string, Vec>> internal_state() { return {}; }
  /// Vectors that only seed the next step's iterative solves (e.g. the last acceleration as the
  /// initial guess of a consistent-mass solve): checkpointed, so a restarted run repeats the
  /// uninterrupted run's iterations exactly, but not needed for a step retry.
  virtual std::vector<std::pair<std::string, Vec>> solver_guesses() { return {}; }
  /// Velocity damping (SOFA's vdamping) after a step: multiplies every velocity the scheme
  /// carries (State.v, and a half-step velocity or a momentum if it keeps one) by `factor`.
  virtual void scale_velocity(double factor, State& state) {
    INERTIA_PETSC(VecScale(state.v, factor));
  }
  /// True if the scheme has a discrete Hamiltonian to report (variational integrators).
  virtual bool has_hamiltonian() const { return false; }
  /// Collective. The scheme's Hamiltonian 1/2 p.M^{-1} p + potential at the current state.
  virtual double hamiltonian(MechanicalSystem& system, const State& state) {
    (void)system, (void)state;
    return 0;
  }

  /// The landing of a step on prescribed motion: a scheme advances every DOF by its own update,
  /// then puts the constrained ones back on their prescribed path (land()). The energy balance
  /// needs the state the scheme reached before that: with keep_landings(), each step keeps it.
  /// Collective.
  void keep_landings(MechanicalSystem& system) {
    if (landing_u_) return;
    landing_u_ = system.create_vector();
    landing_v_ = system.create_vector();
  }
  /// Forgets the last landing (call before a step).
  void clear_landing() { landed_u_ = landed_v_ = false; }
  /// The displacement and velocity the last step reached before land() replaced their constrained
  /// entries, or null for one that was not replaced (or without keep_landings()).
  Vec landed_from_u() const { return landed_u_ ? landing_u_.get() : nullptr; }
  Vec landed_from_v() const { return landed_v_ ? landing_v_.get() : nullptr; }

 protected:
  /// Collective. Puts the constrained entries of u and/or v (either may be null) on the prescribed
  /// path at time t: every scheme's last act on its end-of-step state.
  void land(MechanicalSystem& system, double t, Vec u, Vec v) {
    if (landing_u_ && system.has_prescribed_motion()) {
      if (u) {
        INERTIA_PETSC(VecCopy(u, landing_u_));
        landed_u_ = true;
      }
      if (v) {
        INERTIA_PETSC(VecCopy(v, landing_v_));
        landed_v_ = true;
      }
    }
    system.apply_constraints(t, u, v, nullptr);
  }

 private:
  petsc::Vector landing_u_, landing_v_;
  bool landed_u_ = false, landed_v_ = false;
};

}  // namespace inertia
