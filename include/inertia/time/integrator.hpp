#pragma once
/// \file integrator.hpp
/// The integrator seam: a scheme sees only the DynamicSystem's vocabulary (dynamic_system.hpp:
/// the operations the schemes use, which MechanicalSystem implements) and the State, so it is
/// tested on a one-DOF oscillator (tests/unit/time_schemes.cpp) and runs unchanged on millions
/// of DOFs. What a scheme is before it runs (kind, stability limit, options) is its Scheme
/// (scheme.hpp); schemes are registered by name in registry.cpp, one line each.
///
/// Prescribed motion: every scheme evaluates its forces with the constrained DOFs at their
/// prescribed values at the times it evaluates them (and their prescribed velocity and
/// acceleration where its balance uses them), and ends each step with them on the prescribed
/// path; the implicit schemes whose unknown is a velocity (euler_implicit, variational_symplectic)
/// give the constrained DOFs the one that puts them at g(t_{n+1}).

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/system/dynamic_system.hpp"
// Not used here: src/app's headers (histories.hpp, output_series.hpp) get MechanicalSystem
// through this header; it goes when they include what they use.
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
  /// Where the step under way ends on the run's clock (RunPlan::time_of: n dt, not a sum of
  /// steps; set by the time loop before each step), NaN without a clock. A scheme's times come
  /// from after(), so that its forces, prescribed motion and records are read at n dt:
  /// 8.015 + 0.005 is 8.020000000000001, one ulp past 1604 x 0.005 = 8.02.
  double step_end = std::numeric_limits<double>::quiet_NaN();
  /// The size of the last step taken (0: none yet). Central difference updates the half-step
  /// velocity over (previous + this step) / 2, which is the step itself when the step is fixed.
  double previous_dt = 0;

  /// The time h after `time`: time + h, or step_end where that is within a millionth of h or
  /// a few ulps of it (the step's end reached in one step, in halved steps or at a stage).
  double after(double h) const {
    const double t = time + h;
    const double tolerance =
        1e-6 * std::abs(h) + 64 * std::numeric_limits<double>::epsilon() * std::abs(step_end);
    return std::abs(t - step_end) <= tolerance ? step_end : t;
  }
};

/// The balance of a Newmark-family scheme (Chung & Hulbert's convention, alpha weights the old
/// value): Newmark's updates of u and v from a_n and a_{n+1} with beta and gamma, and the equation
/// of motion balanced at M a_{n+1-alpha_m} + C v_{n+1-alpha_f} + f_int(u_{n+1-alpha_f}) =
/// f_ext,n+1-alpha_f. Newmark: alpha_m = alpha_f = 0.
struct NewmarkWeights {
  double alpha_m = 0, alpha_f = 0, beta = 0.25, gamma = 0.5;
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
  virtual StepStats initialize(DynamicSystem& system, State& state) = 0;
  /// Collective. Advances state by dt (time and step included).
  virtual StepStats step(DynamicSystem& system, State& state, double dt) = 0;
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
  virtual double hamiltonian(DynamicSystem& system, const State& state) {
    (void)system, (void)state;
    return 0;
  }

  /// The Newmark-family schemes (newmark, hht, generalized_alpha): the weights of their balance,
  /// for the energy balance's algorithmic dissipation (EnergyHistory); nothing for the others.
  virtual std::optional<NewmarkWeights> newmark_weights() const { return std::nullopt; }
  /// Collective. After an accepted step of dt, the model changed (cells eroded: masses and
  /// forces): the scheme continues from the state's (u, v) with the new model. The schemes that
  /// support erosion override it.
  virtual void model_changed(DynamicSystem& system, State& state, double dt) {
    (void)system, (void)state, (void)dt;
    throw InternalError(cat("the ", name(), " scheme does not support element erosion"));
  }
};

}  // namespace inertia
