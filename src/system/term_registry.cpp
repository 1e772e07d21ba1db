// The kinds of force terms, one line each (force_term.hpp): a new kind is one file defining
// its term class and build function, plus one line here.
#include <array>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

namespace {

constexpr std::array entries{
    ForceTermEntry{"materials",
                   "solids: one term per material region, its kinematics x its constitutive "
                   "model (materials[].model and its keys: see the models below); hex8 "
                   "formulation: full | bbar | reduced (hourglass: 0.05) | fbar (hencky)",
                   build_solid_terms},
    ForceTermEntry{"springs", "springs along their current axis, with an optional dashpot",
                   build_spring_terms},
    ForceTermEntry{"point_masses", "a mass at every node of a region", build_point_mass_terms},
    ForceTermEntry{"boundary_conditions",
                   "loads: gravity, traction, pressure, force, each "
                   "scaled by its amplitude",
                   build_load_terms},
    ForceTermEntry{"contact",
                   "rigid walls (plane, sphere, cylinder) that the nodes of a region of "
                   "boundary faces (or of a volume: its skin) may not pass, and pairs of such "
                   "regions (or one) that may not pass each other (penalty, Coulomb friction; "
                   "initial_penetration: error | move | ignore; any scheme; augmented "
                   "Lagrangian iterations under implicit schemes and static: augmented: "
                   "{tolerance: m, iterations: 10})",
                   build_contact_terms, parse_contact_section,
                   "{walls: [{name: floor, region: zmin, plane: {point: [0, 0, 0], normal: "
                   "[0, 0, 1]}}]}",
                   prepare_contact_mesh},
};

std::vector<ForceTermEntry>& all_entries() {
  static std::vector<ForceTermEntry> all(entries.begin(), entries.end());
  return all;
}

}  // namespace

std::span<const ForceTermEntry> force_term_entries() { return all_entries(); }

void register_force_term(const ForceTermEntry& entry) {
  for (const auto& e : all_entries())
    INERTIA_CHECK(e.name != entry.name, Error, "force term kind '", entry.name,
                  "' is registered twice");
  INERTIA_CHECK(entry.build, Error, "force term kind '", entry.name, "' has no build function");
  all_entries().push_back(entry);
}

const ForceTermEntry* force_term_section(std::string_view name) {
  for (const auto& e : all_entries())
    if (e.parse && e.name == name) return &e;
  return nullptr;
}

void prepare_mesh(const TermInputs& in, LocalMesh& mesh) {
  for (const auto& e : all_entries())
    if (e.prepare) e.prepare(in, mesh);
}

std::vector<std::unique_ptr<ForceTerm>> build_force_terms(const TermInputs& in) {
  std::vector<std::unique_ptr<ForceTerm>> terms;
  for (const auto& e : all_entries()) e.build(in, terms);
  return terms;
}

}  // namespace inertia
