#pragma once
// What the structural sections (`sections:` for beams, `shells:` for shells) share: the list of
// region entries read from the case file, and the regions their cells are made from.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "inertia/core/case_node.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/mesh/mesh_data.hpp"
#include "inertia/system/problem.hpp"

namespace inertia::structural {

/// The index of the region called `name` in `regions`, or -1.
inline int region_index(const std::vector<Region>& regions, const std::string& name) {
  for (std::size_t r = 0; r < regions.size(); ++r)
    if (regions[r].name == name) return static_cast<int>(r);
  return -1;
}

/// Reads a section's list: at least one entry (`empty`: the message without one), each parsed
/// by `parse` into `out`, one entry per region (`again`: "has a section already").
template <class Entry, class Parse>
void parse_entries(const case_yaml::Node& section, std::vector<Entry>& out, Parse parse,
                   const char* empty, const char* again) {
  section.expect_sequence();
  if (section.size() == 0) section.fail(empty);
  for (std::size_t i = 0; i < section.size(); ++i) {
    out.push_back(parse(section.at(i)));
    for (std::size_t j = 0; j < i; ++j)
      if (out[j].region == out[i].region)
        section.at(i).fail(cat("region '", out[i].region, "' ", again));
  }
}

/// The mesh regions of a section's entries, each of dimension `dim`: InputError "<where>.region:
/// '<name>' is a <d>D region; <what>" otherwise. A region the mesh lacks is skipped (the case's
/// region check names it).
template <class Entry>
std::vector<int> entry_regions(const std::vector<Entry>& entries, const MeshData& mesh, int dim,
                               const char* what) {
  std::vector<int> regions;
  for (const Entry& b : entries) {
    const int r = region_index(mesh.regions, b.region);
    if (r < 0) continue;
    const int d = mesh.regions[static_cast<std::size_t>(r)].dim;
    if (d != dim)
      throw InputError(
          cat(b.where, ".region: '", excerpt(b.region), "' is a ", d, "D region; ", what));
    regions.push_back(r);
  }
  return regions;
}

/// The `materials:` entry of a structural region (`kind`: "beams", "shells") and its J2 law (null:
/// elastic): InputError "<where>: region '<name>' has no entry in materials: ..." without one, and
/// unless it is linear elastic, with or without plasticity.
inline std::pair<const MaterialAssignment*, const fe::J2Parameters*> region_material(
    const ProblemSpec& spec, int region, const std::string& where, const std::string& name,
    const char* kind) {
  const MaterialAssignment* material = nullptr;
  for (const auto& m : spec.materials)
    if (m.region == region) material = &m;
  INERTIA_CHECK(material, InputError, where, ": region '", excerpt(name),
                "' has no entry in materials: (its density, youngs_modulus and "
                "poissons_ratio)");
  const fe::J2Parameters* law = material->material.model->j2();
  INERTIA_CHECK(material->material.model->linear() || law, InputError, where, ": the ", kind,
                " of region '", excerpt(name),
                "' take linear_elastic materials, with or without plasticity:");
  return {material, law};
}

}  // namespace inertia::structural
