#include <algorithm>

#include "inertia/core/text.hpp"
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

/// One line per scheme: name, summary for --help, the function that reads its options.
constexpr SchemeEntry registry[] = {
    {"newmark", "implicit, 2nd order, unconditionally stable (beta 1/4, gamma 1/2)",
     configure_newmark},
    {"hht", "Hilber-Hughes-Taylor, 2nd order, stable, damping alpha in [-1/3, 0] (-0.05)",
     configure_hht},
    {"generalized_alpha",
     "Chung-Hulbert, 2nd order, stable, spectral radius rho_infinity in [0, 1] (0.8)",
     configure_generalized_alpha},
    {"euler_explicit", "explicit Euler, 1st order, unstable for undamped oscillations (teaching)",
     configure_euler_explicit},
    {"symplectic_euler", "explicit, 1st order, stable for omega h <= 2",
     configure_symplectic_euler},
    {"central_difference", "explicit leap-frog, 2nd order, stable for omega h <= 2",
     configure_central_difference},
    {"rk2", "explicit midpoint Runge-Kutta, 2nd order, grows slowly when undamped", configure_rk2},
    {"heun", "explicit Heun (trapezoidal RK2), 2nd order, grows slowly when undamped",
     configure_heun},
    {"rk4", "explicit classical Runge-Kutta, 4th order, stable for omega h <= 2.83", configure_rk4},
    {"variational_symplectic",
     "Kharevych et al. 2006: implicit midpoint (2nd order), or explicit: true",
     configure_variational_symplectic},
    {"euler_implicit", "Baraff-Witkin implicit Euler, 1st order (trapezoidal: 2nd), stable",
     configure_euler_implicit},
    {"static", "Newton per load step; loads without an amplitude ramp over the run",
     configure_static},
};

}  // namespace

std::span<const SchemeEntry> scheme_entries() { return registry; }

const SchemeEntry* find_scheme(std::string_view name) {
  for (const auto& e : registry)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string_view> integrator_names() {
  std::vector<std::string_view> names;
  for (const auto& e : registry) names.push_back(e.name);
  return names;
}

Scheme configure_scheme(std::string_view name, const OptionMap& options) {
  if (const SchemeEntry* e = find_scheme(name)) return e->configure(options);
  const auto names = integrator_names();
  throw InputError(cat("time.integrator: unknown integrator '", name, "'",
                       did_you_mean(name, names), "; known: ", join(names)));
}

}  // namespace inertia
