#pragma once
/// \file local_mesh.hpp
/// One rank's part of the mesh (LocalMesh) and the summary of a partition: what distribute(),
/// distribute_box() and a split give every rank. No MPI.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

/// Quality of a partition of the element cells.
struct PartitionQuality {
  std::int64_t edge_cut = 0;  ///< dual-graph edges (shared faces) between parts
  double imbalance = 1.0;     ///< largest part / mean part (element cells)
};

/// One rank's part of the mesh after distribution.
///
/// Nodes: the rank owns the contiguous global node range [node_begin, node_begin + num_owned);
/// local node i < num_owned is global node node_begin + i; local node num_owned + g is the ghost
/// global node ghosts[g] (sorted). DOF 3*n + c of node n, component c: PETSc's ownership ranges
/// with block size 3 are exactly the node ranges times 3. A beam node's rotations are the three
/// DOFs of its rotation node (node_is_rotation), so the block size stays 3.
/// Cells: the rank's element cells (those with a material, spring or mass) and the lower-
/// dimensional cells (boundary faces, points) whose first node it owns; nodes are local indices.
struct LocalMesh {
  std::int64_t num_global_nodes = 0;
  std::int64_t node_begin = 0;
  std::int32_t num_owned = 0;
  std::vector<std::int64_t> ghosts;
  std::vector<double> coords;           ///< 3 per local node
  std::vector<std::int64_t> node_tags;  ///< file tag of each local node (for messages)
  /// Per owned node: its index in an ordering independent of the number of ranks (file order of
  /// the kept nodes; lexicographic for the box generator). Checkpoints use it.
  std::vector<std::int64_t> natural_ids;

  std::vector<CellType> cell_types;
  std::vector<std::int64_t> cell_offsets{0};
  std::vector<std::int64_t> cell_nodes;
  std::vector<std::int32_t> cell_regions;
  std::vector<std::int64_t> cell_tags;
  std::vector<char> cell_is_element;

  std::vector<Region> regions;  ///< the same on every rank
  /// Per region: the owned local nodes that belong to a cell of the region (sorted).
  std::vector<std::vector<std::int32_t>> region_owned_nodes;
  /// Per region: its number of distinct nodes over all ranks.
  std::vector<std::int64_t> region_node_counts;

  /// Per local node: 1 for a rotation node, the companion of a beam node that carries its
  /// rotations rx, ry, rz as DOFs 3 r + 0, 1, 2 (the beam2 cells' nodes 2 and 3); 0 for a node
  /// with translations. A model without beams has none: every node is a translation node and
  /// the DOF map is the plain 3 per node. Rotation nodes are in the regions their translation
  /// nodes are in (conditions on rotations find them there) but not in region_node_counts.
  std::vector<char> node_is_rotation;
  /// Per local node: the local index of its rotation node where a local beam cell joins them,
  /// else -1.
  std::vector<std::int32_t> rotation_of;
  bool has_rotations = false;  ///< the same on every rank (set by mark_rotation_nodes)

  /// Derives node_is_rotation and rotation_of from the local beam2 and shell4 cells. Every rotation
  /// node is in a beam cell of each rank that holds it (as owner or ghost), so the marks need no
  /// communication; has_rotations is this rank's view until the caller reduces it.
  void mark_rotation_nodes() {
    node_is_rotation.assign(static_cast<std::size_t>(num_local_nodes()), 0);
    rotation_of.assign(static_cast<std::size_t>(num_local_nodes()), -1);
    has_rotations = false;
    for (std::int64_t c = 0; c < num_cells(); ++c) {
      const int k = rotation_nodes_from(cell_types[c]);
      if (k == 0) continue;
      const auto n = nodes_of(c);
      for (int a = 0; a < k; ++a) {
        node_is_rotation[static_cast<std::size_t>(n[k + a])] = 1;
        rotation_of[static_cast<std::size_t>(n[a])] = static_cast<std::int32_t>(n[k + a]);
      }
      has_rotations = true;
    }
  }
  bool is_rotation(std::int32_t local) const {
    return !node_is_rotation.empty() && node_is_rotation[static_cast<std::size_t>(local)] != 0;
  }

  std::int32_t num_local_nodes() const { return static_cast<std::int32_t>(node_tags.size()); }
  std::int64_t num_cells() const { return static_cast<std::int64_t>(cell_types.size()); }
  std::span<const std::int64_t> nodes_of(std::int64_t c) const {
    return {cell_nodes.data() + cell_offsets[c],
            static_cast<std::size_t>(cell_offsets[c + 1] - cell_offsets[c])};
  }
  std::int64_t global_node(std::int32_t local) const {
    return local < num_owned ? node_begin + local : ghosts[local - num_owned];
  }
};

/// What the log prints about the distribution; the same on every rank.
struct PartitionSummary {
  std::string method;
  PartitionQuality quality;
  std::vector<std::int64_t> elements_per_rank;
  std::vector<std::int64_t> owned_nodes_per_rank;
  std::vector<std::int64_t> ghost_nodes_per_rank;
  std::int64_t dropped_cells = 0;  ///< lower-dimensional cells touching no element node
};

}  // namespace inertia
