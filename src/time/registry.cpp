#include <algorithm>
#include <cmath>
#include <limits>

#include "inertia/core/text.hpp"
#include "inertia/time/central_difference.hpp"
#include "inertia/time/euler_explicit.hpp"
#include "inertia/time/heun.hpp"
#include "inertia/time/implicit_schemes.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/newmark.hpp"
#include "inertia/time/rk2.hpp"
#include "inertia/time/rk4.hpp"
#include "inertia/time/symplectic_euler.hpp"
#include "inertia/time/variational_symplectic_explicit.hpp"

namespace inertia {

namespace {

struct Entry {
  std::string_view name;
  IntegratorFactory make;
};

/// One line per scheme.
const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries{
      {"newmark", make_newmark},
      {"euler_explicit", make_euler_explicit},
      {"symplectic_euler", make_symplectic_euler},
      {"central_difference", make_central_difference},
      {"rk2", make_rk2},
      {"heun", make_heun},
      {"rk4", make_rk4},
      {"variational_symplectic",
       [](const IntegratorParams& p) -> std::unique_ptr<Integrator> {
         if (p.variational_symplectic.explicit_integration)
           return make_variational_symplectic_explicit(p);
         return make_variational_symplectic_implicit(p);
       }},
      {"euler_implicit", make_euler_implicit},
      {"static", make_static},
  };
  return entries;
}

}  // namespace

double stability_limit(std::string_view scheme, const IntegratorParams& params) {
  if (scheme == "symplectic_euler" || scheme == "central_difference") return 2.0;
  if (scheme == "variational_symplectic" && params.variational_symplectic.explicit_integration)
    return 2.0;
  if (scheme == "rk4") return 2.0 * std::sqrt(2.0);
  if (scheme == "euler_explicit" || scheme == "rk2" || scheme == "heun") return 0.0;
  return std::numeric_limits<double>::infinity();
}

std::vector<std::string_view> integrator_names() {
  std::vector<std::string_view> names;
  for (const auto& e : registry()) names.push_back(e.name);
  return names;
}

std::unique_ptr<Integrator> create_integrator(std::string_view name,
                                              const IntegratorParams& params) {
  for (const auto& e : registry())
    if (e.name == name) return e.make(params);
  const auto names = integrator_names();
  throw InputError(cat("time.integrator: unknown integrator '", name, "'", did_you_mean(name, names),
                       "; known: ", join(names)));
}

}  // namespace inertia
