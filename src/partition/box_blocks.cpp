#include <petscsys.h>

#include <algorithm>
#include <numeric>

#include "inertia/core/error.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

std::optional<std::array<int, 3>> box_process_grid(const std::array<std::int64_t, 3>& cells,
                                                   int ranks) {
  std::optional<std::array<int, 3>> best;
  double best_cut = 0;
  for (int a = 1; a <= ranks; ++a) {
    if (ranks % a) continue;
    for (int b = 1; b <= ranks / a; ++b) {
      if ((ranks / a) % b) continue;
      const int c = ranks / a / b;
      if (a > cells[0] || b > cells[1] || c > cells[2]) continue;
      // Faces between blocks: the partition's edge cut (in hex faces).
      const double cut = static_cast<double>(a - 1) * cells[1] * cells[2] +
                         static_cast<double>(b - 1) * cells[0] * cells[2] +
                         static_cast<double>(c - 1) * cells[0] * cells[1];
      if (!best || cut < best_cut) best = std::array<int, 3>{a, b, c}, best_cut = cut;
    }
  }
  return best;
}

namespace {

/// The box's split into one block per rank: per direction, the cell ranges and the fine-grid
/// points each block owns (the points of its cells "from below"; the last block also owns the
/// upper boundary), and the global node ids (block by block, natural order inside a block).
struct BoxBlocks {
  std::array<int, 3> grid{};
  std::int64_t r = 1;                    // fine-grid points per cell edge (2 for tet10)
  std::array<std::int64_t, 3> cells{};   // per direction
  std::array<std::int64_t, 3> points{};  // fine-grid points per direction
  std::array<std::vector<int>, 3> block_of_point;
  std::vector<std::int64_t> offset;  // the first global id of each rank's block, and the total

  /// The first cell of block q in direction d. Blocks of nearly equal point counts (the last
  /// block also owns the upper boundary plane, so it gets fewer cells when the split is uneven).
  std::int64_t first_cell(int d, std::int64_t q) const {
    if (q >= grid[d]) return cells[d];
    // q * points can exceed int64 (2^31 ranks times 2^40 points); the quotient cannot
    return static_cast<std::int64_t>(static_cast<__int128>(q) * points[d] / (r * grid[d]));
  }
  std::int64_t owned_begin(int d, std::int64_t q) const { return r * first_cell(d, q); }
  std::int64_t owned_end(int d, std::int64_t q) const {
    return q == grid[d] - 1 ? points[d] : r * first_cell(d, q + 1);
  }
  std::array<int, 3> block_coords(int p) const {
    return std::array<int, 3>{p % grid[0], (p / grid[0]) % grid[1], p / (grid[0] * grid[1])};
  }
  /// Rank p's cells [first, last) per direction.
  void cell_range(int p, std::array<std::int64_t, 3>& first,
                  std::array<std::int64_t, 3>& last) const {
    const auto q = block_coords(p);
    for (int d = 0; d < 3; ++d) first[d] = first_cell(d, q[d]), last[d] = first_cell(d, q[d] + 1);
  }
  std::int64_t global_id(std::int64_t I, std::int64_t J, std::int64_t K) const {
    const std::array<int, 3> q{block_of_point[0][I], block_of_point[1][J], block_of_point[2][K]};
    const int p = q[0] + grid[0] * (q[1] + grid[1] * q[2]);
    const std::int64_t e0 = owned_end(0, q[0]) - owned_begin(0, q[0]);
    const std::int64_t e1 = owned_end(1, q[1]) - owned_begin(1, q[1]);
    return offset[p] + (I - owned_begin(0, q[0])) +
           e0 * ((J - owned_begin(1, q[1])) + e1 * (K - owned_begin(2, q[2])));
  }
};

/// The blocks of spec over size ranks, after the checks (the box's points fit PETSc's indices,
/// every rank's block fits one rank's memory: the same answer on every rank, no communication).
BoxBlocks box_blocks(const BoxSpec& spec, int size) {
  // Before anything is computed from the counts: the box's points fit (checked without
  // overflow); every product below is bounded by them.
  check_box_spec(spec);
  const auto grid_opt = box_process_grid(spec.cells, size);
  INERTIA_CHECK(grid_opt.has_value(), InternalError, "distribute_box: no process grid fits");
  BoxBlocks B;
  B.grid = *grid_opt;
  B.r = spec.element == CellType::tet10 ? 2 : 1;
  B.cells = spec.cells;
  for (int d = 0; d < 3; ++d) B.points[d] = B.r * spec.cells[d] + 1;
  const std::int64_t total_points = B.points[0] * B.points[1] * B.points[2];
  INERTIA_CHECK(total_points <= PETSC_MAX_INT / 3, InputError,
                "mesh.box.cells: too many cells: ", total_points, " points make ", 3 * total_points,
                " degrees of freedom, more than ", 8 * sizeof(PetscInt),
                "-bit PETSc indices allow (", PETSC_MAX_INT, ")");
  // Every rank's block must fit one rank: checked here for all of them, before anything is
  // allocated.
  const std::uint64_t memory = memory_limit_bytes();
  const std::uint64_t tables =
      4 * static_cast<std::uint64_t>(B.points[0] + B.points[1] + B.points[2]) +
      8 * static_cast<std::uint64_t>(size + 1);  // block_of_point, offset
  for (int p = 0; p < size; ++p) {
    std::array<std::int64_t, 3> first{}, last{};
    B.cell_range(p, first, last);
    check_box_block(spec, first, last, memory, tables);
  }
  for (int d = 0; d < 3; ++d) {
    B.block_of_point[d].resize(static_cast<std::size_t>(B.points[d]));
    for (int q = 0; q < B.grid[d]; ++q)
      for (std::int64_t I = B.owned_begin(d, q); I < B.owned_end(d, q); ++I)
        B.block_of_point[d][I] = q;
  }
  B.offset.assign(static_cast<std::size_t>(size) + 1, 0);
  for (int p = 0; p < size; ++p) {
    const auto q = B.block_coords(p);
    std::int64_t n = 1;  // at most the box's points (checked)
    for (int d = 0; d < 3; ++d) n *= B.owned_end(d, q[d]) - B.owned_begin(d, q[d]);
    B.offset[p + 1] = B.offset[p] + n;
  }
  return B;
}

/// The local mesh of a rank's generated block: its points -> global ids -> local indices (owned
/// first, then sorted ghosts), the coordinates and every cell of the block (its faces all lie on
/// element nodes). Returns the number of elements.
std::int64_t fill_local_mesh(const BoxBlocks& B, int rank, const MeshData& block,
                             const std::vector<char>& is_element, LocalMesh& local) {
  local.num_global_nodes = B.offset.back();
  local.node_begin = B.offset[rank];
  local.num_owned = static_cast<std::int32_t>(B.offset[rank + 1] - B.offset[rank]);
  const auto& points = B.points;
  const std::int64_t nb = block.num_nodes();
  std::vector<std::int64_t> gid(static_cast<std::size_t>(nb));
  for (std::int64_t i = 0; i < nb; ++i) {
    const std::int64_t natural = block.node_tags[i] - 1;
    const std::int64_t I = natural % points[0], J = (natural / points[0]) % points[1],
                       K = natural / (points[0] * points[1]);
    gid[i] = B.global_id(I, J, K);
    if (gid[i] < local.node_begin || gid[i] >= local.node_begin + local.num_owned)
      local.ghosts.push_back(gid[i]);
  }
  std::sort(local.ghosts.begin(), local.ghosts.end());
  local.ghosts.erase(std::unique(local.ghosts.begin(), local.ghosts.end()), local.ghosts.end());
  auto local_of = [&](std::int64_t g) -> std::int64_t {
    if (g >= local.node_begin && g < local.node_begin + local.num_owned)
      return g - local.node_begin;
    return local.num_owned +
           (std::lower_bound(local.ghosts.begin(), local.ghosts.end(), g) - local.ghosts.begin());
  };
  const std::int64_t num_local = local.num_owned + static_cast<std::int64_t>(local.ghosts.size());
  local.coords.resize(static_cast<std::size_t>(3 * num_local));
  local.node_tags.resize(static_cast<std::size_t>(num_local));
  local.natural_ids.resize(static_cast<std::size_t>(local.num_owned));
  std::vector<std::int64_t> block_to_local(static_cast<std::size_t>(nb));
  for (std::int64_t i = 0; i < nb; ++i) {
    const std::int64_t l = local_of(gid[i]);
    block_to_local[i] = l;
    for (int k = 0; k < 3; ++k) local.coords[3 * l + k] = block.coords[3 * i + k];
    local.node_tags[l] = block.node_tags[i];
    if (l < local.num_owned) local.natural_ids[l] = block.node_tags[i] - 1;
  }
  std::int64_t num_elements = 0;
  for (std::int64_t c = 0; c < block.num_cells(); ++c) {
    local.cell_types.push_back(block.cell_types[c]);
    local.cell_regions.push_back(block.cell_regions[c]);
    local.cell_tags.push_back(block.cell_tags[c]);
    local.cell_is_element.push_back(is_element[c]);
    num_elements += is_element[c] ? 1 : 0;
    for (auto n : block.nodes_of(c)) local.cell_nodes.push_back(block_to_local[n]);
    local.cell_offsets.push_back(static_cast<std::int64_t>(local.cell_nodes.size()));
  }
  local.regions = block.regions;
  return num_elements;
}

/// Each region's owned nodes (sorted, unique) and its global node count (collective).
void count_region_nodes(MPI_Comm comm, LocalMesh& local) {
  local.region_owned_nodes.assign(local.regions.size(), {});
  for (std::int64_t c = 0; c < local.num_cells(); ++c) {
    if (local.cell_regions[c] < 0) continue;
    auto& list = local.region_owned_nodes[local.cell_regions[c]];
    for (auto n : local.nodes_of(c))
      if (n < local.num_owned) list.push_back(static_cast<std::int32_t>(n));
  }
  local.region_node_counts.resize(local.regions.size());
  for (std::size_t g = 0; g < local.regions.size(); ++g) {
    auto& list = local.region_owned_nodes[g];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    std::int64_t n = static_cast<std::int64_t>(list.size());
    INERTIA_MPI(MPI_Allreduce(&n, &local.region_node_counts[g], 1, MPI_INT64_T, MPI_SUM, comm));
  }
}

/// The partition's summary: the grid, the edge cut and the per-rank counts (collective).
void summarize_box(MPI_Comm comm, const BoxSpec& spec, const std::array<int, 3>& grid,
                   std::int64_t num_elements, const LocalMesh& local, PartitionSummary& summary) {
  const int size = size_of(comm);
  summary.method = cat("box blocks ", grid[0], "x", grid[1], "x", grid[2],
                       " (each rank generates its own cells)");
  const std::int64_t per_face = spec.element == CellType::hex8 ? 1 : 2;
  summary.quality.edge_cut = per_face * ((grid[0] - 1) * spec.cells[1] * spec.cells[2] +
                                         (grid[1] - 1) * spec.cells[0] * spec.cells[2] +
                                         (grid[2] - 1) * spec.cells[0] * spec.cells[1]);
  std::int64_t mine[3] = {num_elements, local.num_owned,
                          static_cast<std::int64_t>(local.ghosts.size())};
  std::vector<std::int64_t> all(3 * static_cast<std::size_t>(size));
  INERTIA_MPI(MPI_Allgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, comm));
  summary.elements_per_rank.clear();
  summary.owned_nodes_per_rank.clear();
  summary.ghost_nodes_per_rank.clear();
  std::int64_t total = 0, largest = 0;
  for (int p = 0; p < size; ++p) {
    summary.elements_per_rank.push_back(all[3 * p]);
    summary.owned_nodes_per_rank.push_back(all[3 * p + 1]);
    summary.ghost_nodes_per_rank.push_back(all[3 * p + 2]);
    total += all[3 * p];
    largest = std::max(largest, all[3 * p]);
  }
  summary.quality.imbalance =
      total > 0 ? static_cast<double>(largest) * size / static_cast<double>(total) : 1.0;
  summary.dropped_cells = 0;
}

}  // namespace

LocalMesh distribute_box(MPI_Comm comm, const BoxSpec& spec,
                         const std::function<std::vector<char>(const MeshData&)>& elements_of,
                         PartitionSummary* summary) {
  const int rank = rank_of(comm);
  const BoxBlocks blocks = box_blocks(spec, size_of(comm));
  // This rank's block of cells.
  std::array<std::int64_t, 3> first{}, last{};
  blocks.cell_range(rank, first, last);
  MeshData block;
  std::vector<char> is_element;
  run_collectively(comm, [&] {
    block = generate_box_block(spec, first, last);
    is_element = elements_of(block);
  });
  LocalMesh local;
  const std::int64_t num_elements = fill_local_mesh(blocks, rank, block, is_element, local);
  count_region_nodes(comm, local);
  if (summary) summarize_box(comm, spec, blocks.grid, num_elements, local, *summary);
  return local;
}

}  // namespace inertia
