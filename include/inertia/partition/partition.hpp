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
#include "inertia/partition/local_mesh.hpp"

namespace inertia {

enum class Partitioner { metis, block };

/// Assigns each of the `elements` (indices of cells of `mesh`) to one of `num_parts` parts.
/// metis: METIS k-way on the dual graph (cells adjacent when they share a face; for 1D/0D
/// elements, a node), fixed seed, so the result is deterministic. block: contiguous chunks of
/// equal size in cell order (for tests). Falls back to block when there are fewer elements than
/// parts. Serial; throws Error if METIS fails.
std::vector<int> partition_cells(const MeshData& mesh, std::span<const std::int64_t> elements,
                                 int num_parts, Partitioner method, PartitionQuality* quality);

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
