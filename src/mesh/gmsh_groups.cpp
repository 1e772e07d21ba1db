/// \file gmsh_groups.cpp
/// The Gmsh reader's physical groups: $PhysicalNames, $Entities, regions (gmsh_groups.hpp).
#include "gmsh_groups.hpp"

#include <array>
#include <set>

namespace inertia::gmsh {

void GmshGroups::read_physical_names(GmshCursor& in) {
  in.open_line("physical name count", 1);
  const std::uint64_t n = in.count("number of physical names");
  in.close_line();
  in.check_fits(n, 6, "physical name");
  std::set<EntityKey> named;
  for (std::uint64_t i = 0; i < n; ++i) {
    in.open_line("physical name", 3);  // dim tag "name"
    const int dim = static_cast<int>(in.integer_in("physical group dimension", 0, 3));
    const int tag = in.int32("physical tag");
    std::string name = in.quoted("name", "physical name");
    const EntityKey key{dim, tag};
    if (!named.insert(key).second)
      in.fail(cat("second name for physical group (dim ", dim, ", tag ", tag, ")"));
    physical_names_.emplace_back(key, std::move(name));
    in.skip(1);  // the closing quote
    in.close_line();
  }
  in.expect_end("PhysicalNames", false);
}

void GmshGroups::read_entities(GmshCursor& in) {
  const bool binary = in.binary();
  if (binary)
    in.begin_binary();
  else
    in.open_line("entity count", 4);
  std::array<std::uint64_t, 4> n{};
  for (int d = 0; d < 4; ++d) n[d] = in.size_field("number of entities");
  if (!binary) in.close_line();
  const std::uint64_t min_point = binary ? 4 + 24 + in.size_bytes() : 10;
  const std::uint64_t min_other = binary ? 4 + 48 + 2 * in.size_bytes() : 18;
  in.check_fits(n[0], min_point, "point entity");
  in.check_fits(n[1], min_other, "curve entity");
  in.check_fits(n[2], min_other, "surface entity");
  in.check_fits(n[3], min_other, "volume entity");
  for (int d = 0; d < 4; ++d) {
    // ASCII: tag x y z num-physicals physicals... (points), or tag min-x min-y min-z max-x max-y
    // max-z num-physicals physicals... num-bounding bounding-tags...
    const std::uint64_t fixed_fields = d == 0 ? 5 : 9;
    for (std::uint64_t i = 0; i < n[d]; ++i) {
      if (!binary) in.open_line("entity", fixed_fields);
      const int tag = in.int_field("entity tag");
      const int num_coords = d == 0 ? 3 : 6;
      if (binary) {
        in.need(8 * num_coords, "an entity");
        in.skip(8 * num_coords);
      } else {
        for (int k = 0; k < num_coords; ++k) in.real("entity coordinate");
      }
      const std::uint64_t num_physicals = in.size_field("number of physical tags");
      in.check_fits(num_physicals, binary ? 4 : 2, "physical tag");
      if (!binary) in.expect_fields(fixed_fields + num_physicals);
      std::vector<int> physicals(num_physicals);
      for (auto& ph : physicals) ph = in.int_field("physical tag");
      if (d > 0) {
        const std::uint64_t num_bounding = in.size_field("number of bounding entities");
        in.check_fits(num_bounding, binary ? 4 : 2, "bounding entity");
        if (binary) {
          in.skip(4 * num_bounding);
        } else {
          in.expect_fields(fixed_fields + num_physicals + num_bounding);
          for (std::uint64_t k = 0; k < num_bounding; ++k) in.int32("bounding entity tag");
        }
      }
      if (!binary) in.close_line();
      if (!entity_physicals_.emplace(EntityKey{d, tag}, std::move(physicals)).second)
        in.fail(cat("duplicate entity (dim ", d, ", tag ", tag, ") in $Entities"));
    }
  }
  in.expect_end("Entities", binary);
}

std::string GmshGroups::description(int group) const {
  const EntityKey key = groups_[group];
  for (const auto& [k, name] : physical_names_)
    if (k == key && !name.empty()) return cat("physical group \"", name, "\"");
  return cat("physical group (dim ", key.first, ", tag ", key.second, ")");
}

std::vector<int> GmshGroups::add_regions(MeshData& mesh) const {
  std::vector<int> final_region(groups_.size(), -1);
  for (const auto& [key, name] : physical_names_) {
    const auto it = group_ids_.find(key);
    const int r = static_cast<int>(mesh.regions.size());
    mesh.regions.push_back({name.empty() ? cat("physical_", key.first, "_", key.second) : name,
                            key.first, key.second});
    if (it != group_ids_.end()) final_region[it->second] = r;
  }
  for (const auto& [key, g] : group_ids_) {  // std::map: sorted by (dim, tag)
    if (final_region[g] >= 0) continue;
    final_region[g] = static_cast<int>(mesh.regions.size());
    mesh.regions.push_back({cat("physical_", key.first, "_", key.second), key.first, key.second});
  }
  return final_region;
}

}  // namespace inertia::gmsh
