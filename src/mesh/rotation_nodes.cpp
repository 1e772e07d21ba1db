#include "inertia/mesh/rotation_nodes.hpp"

#include <algorithm>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

std::int64_t add_rotation_nodes(MeshData& mesh, const std::vector<int>& beam_regions) {
  const auto is_beam_region = [&](int r) {
    return std::find(beam_regions.begin(), beam_regions.end(), r) != beam_regions.end();
  };
  std::vector<std::int64_t> rotation(static_cast<std::size_t>(mesh.num_nodes()), -1);
  const std::int64_t cells = mesh.num_cells();
  std::int64_t added = 0;
  // Rebuild the cell arrays: beam cells get 4 nodes in place of 2 (the CSR grows).
  std::vector<std::int64_t> offsets{0}, nodes;
  nodes.reserve(mesh.cell_nodes.size());
  for (std::int64_t c = 0; c < cells; ++c) {
    const auto cell = mesh.nodes_of(c);
    const int r = mesh.cell_regions[c];
    const bool beam = r >= 0 && is_beam_region(r) && info(mesh.cell_types[c]).dim == 1;
    if (beam && mesh.cell_types[c] != CellType::line2)
      throw InputError(cat("sections: region '", excerpt(mesh.regions[r].name), "' has ",
                           info(mesh.cell_types[c]).name, " cell ", mesh.cell_tags[c],
                           "; beams are 2-node lines (mesh them with gmsh -order 1)"));
    nodes.insert(nodes.end(), cell.begin(), cell.end());
    if (beam) {
      mesh.cell_types[c] = CellType::beam2;
      const std::int64_t n0 = cell[0], n1 = cell[1];
      for (const std::int64_t n : {n0, n1})
        if (rotation[static_cast<std::size_t>(n)] < 0) {
          rotation[static_cast<std::size_t>(n)] = static_cast<std::int64_t>(rotation.size());
          rotation.push_back(-1);
          ++added;
        }
      nodes.push_back(rotation[static_cast<std::size_t>(n0)]);
      nodes.push_back(rotation[static_cast<std::size_t>(n1)]);
    }
    offsets.push_back(static_cast<std::int64_t>(nodes.size()));
  }
  if (added == 0) return 0;
  mesh.cell_nodes = std::move(nodes);
  mesh.cell_offsets = std::move(offsets);
  // The rotation nodes, in the order they were numbered: at their node's place.
  const std::int64_t first = mesh.num_nodes();
  std::vector<std::int64_t> parent(static_cast<std::size_t>(added), -1);
  for (std::int64_t n = 0; n < first; ++n)
    if (rotation[static_cast<std::size_t>(n)] >= 0)
      parent[static_cast<std::size_t>(rotation[static_cast<std::size_t>(n)] - first)] = n;
  for (const std::int64_t n : parent)
    mesh.add_node(mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2],
                  -mesh.node_tags[static_cast<std::size_t>(n)]);
  return added;
}

std::vector<std::int64_t> rotation_node_of(const MeshData& mesh) {
  std::vector<std::int64_t> rotation(static_cast<std::size_t>(mesh.num_nodes()), -1);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    if (mesh.cell_types[c] == CellType::beam2) {
      const auto n = mesh.nodes_of(c);
      rotation[static_cast<std::size_t>(n[0])] = n[2];
      rotation[static_cast<std::size_t>(n[1])] = n[3];
    }
  return rotation;
}

}  // namespace inertia
