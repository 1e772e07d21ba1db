#include "inertia/time/alpha_schemes.hpp"
#include "inertia/time/central_difference.hpp"
#include "inertia/time/euler_implicit.hpp"
#include "inertia/time/newmark.hpp"
#include "inertia/time/runge_kutta.hpp"
#include "inertia/time/scheme.hpp"
#include "inertia/time/static.hpp"
#include "inertia/time/symplectic_euler.hpp"
#include "inertia/time/variational_symplectic.hpp"

namespace inertia {

namespace {

/// One row per scheme: name, summary for --help, a `time:` block that uses it, the function that
/// reads its options.
constexpr SchemeEntry rows[] = {
    {{"newmark", "implicit, 2nd order, unconditionally stable (beta 1/4, gamma 1/2)",
      "time: {integrator: newmark, dt: 1.0e-5, steps: 5, newmark: {beta: 0.3025, gamma: 0.6}}"},
     configure_newmark},
    {{"hht", "Hilber-Hughes-Taylor, 2nd order, stable, damping alpha in [-1/3, 0] (-0.05)",
      "time: {integrator: hht, dt: 1.0e-5, steps: 5, hht: {alpha: -0.1}}"},
     configure_hht},
    {{"generalized_alpha",
      "Chung-Hulbert, 2nd order, stable, spectral radius rho_infinity in [0, 1] (0.8)",
      "time: {integrator: generalized_alpha, dt: 1.0e-5, steps: 5, generalized_alpha: "
      "{rho_infinity: 0.5}}"},
     configure_generalized_alpha},
    {{"euler_explicit", "explicit Euler, 1st order, unstable for undamped oscillations (teaching)",
      "time: {integrator: euler_explicit, dt: 1.0e-7, steps: 5}"},
     configure_euler_explicit},
    {{"symplectic_euler", "explicit, 1st order, stable for omega h <= 2",
      "time: {integrator: symplectic_euler, dt: 1.0e-6, steps: 5}"},
     configure_symplectic_euler},
    {{"central_difference", "explicit leap-frog, 2nd order, stable for omega h <= 2",
      "time: {integrator: central_difference, dt: auto, end_time: 1.0e-5, central_difference: "
      "{half_step_start: false}}"},
     configure_central_difference},
    {{"rk2", "explicit midpoint Runge-Kutta, 2nd order, grows slowly when undamped",
      "time: {integrator: rk2, dt: 1.0e-7, steps: 5}"},
     configure_rk2},
    {{"heun", "explicit Heun (trapezoidal RK2), 2nd order, grows slowly when undamped",
      "time: {integrator: heun, dt: 1.0e-7, steps: 5}"},
     configure_heun},
    {{"rk4", "explicit classical Runge-Kutta, 4th order, stable for omega h <= 2.83",
      "time: {integrator: rk4, dt: 1.0e-6, steps: 5}"},
     configure_rk4},
    {{"variational_symplectic",
      "Kharevych et al. 2006: implicit midpoint (2nd order), or explicit: true",
      "time: {integrator: variational_symplectic, dt: 1.0e-6, steps: 5, variational_symplectic: "
      "{explicit: true}}"},
     configure_variational_symplectic},
    {{"euler_implicit", "Baraff-Witkin implicit Euler, 1st order (trapezoidal: 2nd), stable",
      "time: {integrator: euler_implicit, dt: 1.0e-5, steps: 5, euler_implicit: {trapezoidal: "
      "true}}"},
     configure_euler_implicit},
    {{"static", "Newton per load step; loads without an amplitude ramp over the run",
      "time: {integrator: static, dt: 0.25, end_time: 1}"},
     configure_static},
};

}  // namespace

Registry<SchemeEntry> schemes() { return {"integrator", rows}; }

Scheme configure_scheme(std::string_view name, const OptionMap& options) {
  const SchemeEntry* e = schemes().find(name);
  if (!e) throw InputError(cat("time.integrator: ", schemes().unknown(name)));
  return e->configure(options);
}

}  // namespace inertia
