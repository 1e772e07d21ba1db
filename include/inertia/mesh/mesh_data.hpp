#pragma once
/// \file mesh_data.hpp
/// A whole (serial) mesh as read from a file or generated: what rank 0 holds before distribution.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "inertia/mesh/cell_type.hpp"

namespace inertia {

/// A named group of cells (a Gmsh physical group, or a generator region such as "xmin").
struct Region {
  std::string name;
  int dim = 3;  ///< dimension of the cells in the region
  int tag = 0;  ///< Gmsh physical tag (generator: running number)
};

/// Nodes, cells (CSR), and regions. Cell nodes are 0-based indices into the node arrays, in VTK
/// node order (see cell_type.hpp). A cell that belongs to several physical groups appears once
/// per group, as Gmsh's MSH 2.2 writer does.
struct MeshData {
  std::vector<double> coords;           ///< 3 per node: x, y, z
  std::vector<std::int64_t> node_tags;  ///< the file's tag of each node (for messages)
  std::vector<CellType> cell_types;
  std::vector<std::int64_t> cell_offsets{
      0};  ///< cell c's nodes: cell_nodes[offsets[c]..offsets[c+1])
  std::vector<std::int64_t> cell_nodes;
  std::vector<std::int32_t> cell_regions;  ///< index into regions
  std::vector<std::int64_t> cell_tags;     ///< the file's element tag (for messages)
  std::vector<Region> regions;

  std::int64_t num_nodes() const { return static_cast<std::int64_t>(node_tags.size()); }
  std::int64_t num_cells() const { return static_cast<std::int64_t>(cell_types.size()); }
  std::span<const std::int64_t> nodes_of(std::int64_t c) const {
    return {cell_nodes.data() + cell_offsets[c],
            static_cast<std::size_t>(cell_offsets[c + 1] - cell_offsets[c])};
  }
  /// Appends a node and returns its index.
  std::int64_t add_node(double x, double y, double z, std::int64_t tag) {
    coords.insert(coords.end(), {x, y, z});
    node_tags.push_back(tag);
    return num_nodes() - 1;
  }
  /// Appends a cell (nodes in VTK order) and returns its index.
  std::int64_t add_cell(CellType t, std::span<const std::int64_t> nodes, std::int32_t region,
                        std::int64_t tag) {
    cell_types.push_back(t);
    cell_nodes.insert(cell_nodes.end(), nodes.begin(), nodes.end());
    cell_offsets.push_back(static_cast<std::int64_t>(cell_nodes.size()));
    cell_regions.push_back(region);
    cell_tags.push_back(tag);
    return num_cells() - 1;
  }
  /// Index of the region with this name, or -1.
  int find_region(const std::string& name) const {
    for (std::size_t r = 0; r < regions.size(); ++r)
      if (regions[r].name == name) return static_cast<int>(r);
    return -1;
  }
};

}  // namespace inertia
