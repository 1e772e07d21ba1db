#pragma once
/// \file integrator.hpp
/// The integrator seam: a scheme sees only the MechanicalSystem's vocabulary and the State, so it
/// is tested on a one-DOF oscillator and runs unchanged on millions of DOFs. Schemes are
/// registered by name (registry.cpp: one line per scheme).

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
  std::string nonlinear_reason;  ///< SNES's converged reason of the step's last Newton solve
  std::vector<double> residuals;  ///< the last Newton solve's residual norms, per iteration
};

/// Newmark's parameters (SOFA NewmarkImplicitSolver; average acceleration by default).
struct NewmarkParams {
  double beta = 0.25;
  double gamma = 0.5;
};

/// central_difference: start with v_{-1/2} = v_0 - (h/2) a_0 (second order; default) or with
/// v_{-1/2} = v_0 as SOFA does (first order in positions).
struct CentralDifferenceParams {
  bool half_step_start = true;
};

/// euler_implicit (Baraff-Witkin): tau = 1/2 with trapezoidal, SOFA's firstOrder, and Newton
/// iterations to the fully implicit solution.
struct EulerImplicitParams {
  bool trapezoidal = false;
  bool first_order = false;
  bool newton = false;
};

/// variational_symplectic (Kharevych et al. 2006): explicit or implicit (Newton).
struct VariationalSymplecticParams {
  bool explicit_integration = false;
  double newton_tolerance = 1e-10;
  int max_newton_steps = 5;
};

/// Every option of every scheme, validated by the case-file parser.
struct IntegratorParams {
  NewmarkParams newmark;
  CentralDifferenceParams central_difference;
  EulerImplicitParams euler_implicit;
  VariationalSymplecticParams variational_symplectic;
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
};

using IntegratorFactory = std::function<std::unique_ptr<Integrator>(const IntegratorParams&)>;

/// The scheme's stability limit on omega h for an undamped oscillation: 2 for symplectic Euler,
/// central difference and explicit variational; 2 sqrt 2 for RK4; 0 for schemes that grow at any
/// step (explicit Euler, RK2, Heun); infinity for the unconditionally stable implicit schemes.
double stability_limit(std::string_view scheme, const IntegratorParams& params);

/// Names of the registered schemes, in registration order.
std::vector<std::string_view> integrator_names();
/// A new integrator of a registered scheme; throws InputError for an unknown name.
std::unique_ptr<Integrator> create_integrator(std::string_view name, const IntegratorParams& params);

}  // namespace inertia
