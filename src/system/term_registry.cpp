// The kinds of force terms, one line each (force_term.hpp): a new kind is one file defining
// its term class and build function, plus one line here.
#include <array>

#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

constexpr std::array entries{
    ForceTermEntry{"materials",
                   "solids: one term per material region (linear or a large-"
                   "deformation law)",
                   build_solid_terms},
    ForceTermEntry{"springs", "springs along their current axis, with an optional dashpot",
                   build_spring_terms},
    ForceTermEntry{"point_masses", "a mass at every node of a region", build_point_mass_terms},
    ForceTermEntry{"boundary_conditions",
                   "loads: gravity, traction, pressure, force, each "
                   "scaled by its amplitude",
                   build_load_terms},
};

}  // namespace

std::span<const ForceTermEntry> force_term_entries() { return entries; }

std::vector<std::unique_ptr<ForceTerm>> build_force_terms(const TermInputs& in) {
  std::vector<std::unique_ptr<ForceTerm>> terms;
  for (const auto& e : entries) e.build(in, terms);
  return terms;
}

}  // namespace inertia
