#include "inertia/mesh/rotation_nodes.hpp"

#include <algorithm>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

/// What a cell of a structural region becomes, or nullopt when it stays as it is.
struct Conversion {
  CellType from, to;
};

std::int64_t convert_cells(MeshData& mesh, const std::vector<int>& regions,
                           std::initializer_list<Conversion> conversions, const char* section,
                           int dim, const char* refusal) {
  const auto in_regions = [&](int r) {
    return std::find(regions.begin(), regions.end(), r) != regions.end();
  };
  // The rotation nodes the structural cells already have (beams before shells): shared.
  std::vector<std::int64_t> rotation = rotation_node_of(mesh);
  const std::int64_t first = mesh.num_nodes();
  const std::int64_t cells = mesh.num_cells();
  std::int64_t added = 0;
  // Rebuild the cell arrays: structural cells get their rotation nodes after their nodes.
  std::vector<std::int64_t> offsets{0}, nodes;
  nodes.reserve(mesh.cell_nodes.size());
  std::vector<std::int64_t> parent;  // per added rotation node: its node
  for (std::int64_t c = 0; c < cells; ++c) {
    const auto cell = mesh.nodes_of(c);
    const int r = mesh.cell_regions[c];
    const CellType t = mesh.cell_types[c];
    nodes.insert(nodes.end(), cell.begin(), cell.end());
    const bool structural = r >= 0 && in_regions(r) && info(t).dim == dim;
    const Conversion* conversion = nullptr;
    for (const Conversion& k : conversions)
      if (k.from == t) conversion = &k;
    if (structural && !conversion)
      throw InputError(cat(section, ": region '", excerpt(mesh.regions[r].name), "' has ",
                           info(t).name, " cell ", mesh.cell_tags[c], refusal));
    if (structural) {
      mesh.cell_types[c] = conversion->to;
      const int n = info(conversion->from).num_nodes;
      for (int a = 0; a < n; ++a) {
        const std::int64_t node = nodes[nodes.size() - static_cast<std::size_t>(n - a)];
        if (rotation[static_cast<std::size_t>(node)] < 0) {
          rotation[static_cast<std::size_t>(node)] = first + added;
          parent.push_back(node);
          ++added;
        }
      }
      const std::size_t base = nodes.size() - static_cast<std::size_t>(n);
      for (int a = 0; a < n; ++a)
        nodes.push_back(
            rotation[static_cast<std::size_t>(nodes[base + static_cast<std::size_t>(a)])]);
    }
    offsets.push_back(static_cast<std::int64_t>(nodes.size()));
  }
  mesh.cell_nodes = std::move(nodes);
  mesh.cell_offsets = std::move(offsets);
  // The rotation nodes, in the order they were numbered: at their node's place.
  for (const std::int64_t n : parent)
    mesh.add_node(mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2],
                  -mesh.node_tags[static_cast<std::size_t>(n)]);
  return added;
}

}  // namespace

std::int64_t add_rotation_nodes(MeshData& mesh, const std::vector<int>& beam_regions) {
  return convert_cells(mesh, beam_regions, {{CellType::line2, CellType::beam2}}, "sections", 1,
                       "; beams are 2-node lines (mesh them with gmsh -order 1)");
}

std::int64_t add_shell_rotation_nodes(MeshData& mesh, const std::vector<int>& shell_regions) {
  return convert_cells(mesh, shell_regions,
                       {{CellType::quad4, CellType::shell4},
                        {CellType::tri3, CellType::shell3},
                        {CellType::quad8, CellType::shell8}},
                       "shells", 2,
                       "; shells are 4-node quadrilaterals, 3-node triangles (gmsh -order 1) and "
                       "8-node quadrilaterals (gmsh -order 2 with Mesh.SecondOrderIncomplete = 1)");
}

std::vector<std::int64_t> rotation_node_of(const MeshData& mesh) {
  std::vector<std::int64_t> rotation(static_cast<std::size_t>(mesh.num_nodes()), -1);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    if (const int k = rotation_nodes_from(mesh.cell_types[c]); k > 0) {
      const auto n = mesh.nodes_of(c);
      for (int a = 0; a < k; ++a) rotation[static_cast<std::size_t>(n[a])] = n[k + a];
    }
  return rotation;
}

}  // namespace inertia
