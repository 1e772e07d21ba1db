#pragma once
/// \file gmsh_groups.hpp
/// The Gmsh reader's physical groups (internal: not part of include/): $PhysicalNames, the
/// physical tags of $Entities (MSH 4.1), the groups the elements use and the regions they become.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gmsh_cursor.hpp"
#include "inertia/mesh/mesh_data.hpp"

namespace inertia::gmsh {

using EntityKey = std::pair<int, int>;  // (dim, tag): physical groups and entities alike

class GmshGroups {
 public:
  /// $PhysicalNames (after its header line; ASCII in binary files too).
  void read_physical_names(GmshCursor& in);
  /// $Entities (after its header line): the physical tags of each entity.
  void read_entities(GmshCursor& in);

  /// The physical tags of entity (dim, tag) of $Entities, or null.
  const std::vector<int>* entity_physicals(int dim, int tag) const {
    const auto it = entity_physicals_.find({dim, tag});
    return it == entity_physicals_.end() ? nullptr : &it->second;
  }
  /// The id of physical group (dim, physical_tag), numbered in order of first use.
  int group_id(int dim, int physical_tag) {
    const auto [it, inserted] =
        group_ids_.emplace(EntityKey{dim, physical_tag}, static_cast<int>(groups_.size()));
    if (inserted) groups_.push_back({dim, physical_tag});
    return it->second;
  }
  /// "physical group \"name\"" or "physical group (dim d, tag t)", for messages.
  std::string description(int group) const;
  /// The regions (named groups in $PhysicalNames order, then unnamed used groups by (dim, tag))
  /// appended to mesh.regions; returns each group id's region.
  std::vector<int> add_regions(MeshData& mesh) const;

 private:
  std::vector<std::pair<EntityKey, std::string>> physical_names_;
  std::map<EntityKey, std::vector<int>> entity_physicals_;
  std::map<EntityKey, int> group_ids_;
  std::vector<EntityKey> groups_;  // group id -> (dim, physical tag)
};

}  // namespace inertia::gmsh
