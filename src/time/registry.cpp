#include <algorithm>

#include "inertia/core/text.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/newmark.hpp"

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
  };
  return entries;
}

}  // namespace

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
