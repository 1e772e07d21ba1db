#pragma once
/// \file partition.hpp
/// Cell partitioners (`cells -> ranks`) and the one-shot distribution of the serial mesh.

#include <mpi.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "inertia/mesh/box.hpp"
#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

enum class Partitioner { metis, block };

/// Quality of a partition of the element cells.
struct PartitionQuality {
  std::int64_t edge_cut = 0;  ///< dual-graph edges (shared faces) between parts
  double imbalance = 1.0;     ///< largest part / mean part (element cells)
};

/// Assigns each of the `elements` (indices of cells of `mesh`) to one of `num_parts` parts.
/// metis: METIS k-way on the dual graph (cells adjacent when they share a face; for 1D/0D
/// elements, a node), fixed seed, so the result is deterministic. block: contiguous chunks of
/// equal size in cell order (for tests). Falls back to block when there are fewer elements than
/// parts. Serial; throws Error if METIS fails.
std::vector<int> partition_cells(const MeshData& mesh, std::span<const std::int64_t> elements,
                                 int num_parts, Partitioner method, PartitionQuality* quality);

/// One rank's part of the mesh after distribution.
///
/// Nodes: the rank owns the contiguous global node range [node_begin, node_begin + num_owned);
/// local node i < num_owned is global node node_begin + i; local node num_owned + g is the ghost
/// global node ghosts[g] (sorted). DOF 3*n + c of node n, component c: PETSc's ownership ranges
/// with block size 3 are exactly the node ranges times 3.
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

/// A partition of the element cells of a serial mesh.
struct CellPartition {
  Partitioner method = Partitioner::metis;
  std::vector<std::int64_t> elements;  ///< the element cells
  std::vector<int> part;               ///< rank of each of `elements`
  PartitionQuality quality;
};

/// Serial. Partitions the cells marked in is_element (partition_cells).
CellPartition partition_elements(const MeshData& mesh, const std::vector<char>& is_element,
                                 int num_parts, Partitioner method);

/// Collective. Distributes with a partition computed on rank 0 (see below).
LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     const CellPartition& partition, PartitionSummary* summary);

/// Collective. Partitions the element cells of `mesh` (read on rank 0 only; the other ranks may
/// pass an empty mesh), numbers nodes so each rank owns a contiguous range, and scatters cells,
/// coordinates and region node sets from rank 0 in one pass. `is_element[c]` (rank 0) marks the
/// cells that carry mass or stiffness; other cells are kept if all their nodes belong to elements.
LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     Partitioner method, PartitionSummary* summary);

/// Serial. Writes what distribute() would scatter to `parts` ranks into one file (a split, made
/// once by `inertia --split`), with `stamp` (what the split was made from). Returns its bytes.
std::uint64_t write_split(const std::filesystem::path& file, const MeshData& mesh,
                          const std::vector<char>& is_element, const CellPartition& partition,
                          int parts, const std::string& stamp, PartitionSummary* summary);

/// Collective. This rank's LocalMesh from a split for exactly size_of(comm) ranks: each rank
/// reads the header, a few words per rank and its own share, never the whole mesh. The same
/// LocalMesh as distribute() with the same partition. Throws InputError on every rank if any
/// rank cannot read its share.
LocalMesh read_split(MPI_Comm comm, const std::filesystem::path& file, PartitionSummary* summary,
                     std::string* stamp);

/// The process grid (blocks per direction, product = ranks, none larger than the cell count in
/// its direction) with the fewest faces between blocks, or nothing if none fits.
std::optional<std::array<int, 3>> box_process_grid(const std::array<std::int64_t, 3>& cells,
                                                   int ranks);

/// Collective. The box generator run in parallel: each rank generates the cells of its block of
/// the process grid (box_process_grid must have one) and numbers its owned points contiguously,
/// with no rank-0 bottleneck, so meshes larger than one node's memory can be made. Same
/// LocalMesh contract as distribute(); natural ids = lexicographic point index of the box.
/// `elements_of` marks the cells of a block that are elements (may throw InputError: it is
/// raised on every rank).
LocalMesh distribute_box(MPI_Comm comm, const BoxSpec& spec,
                         const std::function<std::vector<char>(const MeshData&)>& elements_of,
                         PartitionSummary* summary);

}  // namespace inertia
