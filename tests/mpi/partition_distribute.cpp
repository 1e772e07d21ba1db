// distribute(): the LocalMesh of every rank against the serial mesh it came from, for Gmsh meshes
// and generated boxes, METIS and block partitions, with and without dropped cells. Every rank
// reads the (small) serial mesh to check against; only rank 0 passes it to distribute().
// Invariants only: node ranges, ghosts, ownership rule, natural ids, cells, region node sets,
// summary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "inertia/mesh/box.hpp"
#include "inertia/mesh/gmsh_reader.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"

using namespace inertia;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }

struct Case {
  std::string mesh;  ///< a path under the source tree, or "box_hex8" / "box_tet10"
  Partitioner method;
  bool drop_some;  ///< every third top-dimensional cell is not an element: some faces drop
};

std::string name_of(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.mesh.substr(info.param.mesh.find_last_of('/') + 1);
  std::replace(name.begin(), name.end(), '.', '_');
  return name + (info.param.method == Partitioner::metis ? "_metis" : "_block") +
         (info.param.drop_some ? "_drop" : "");
}

MeshData load(const std::string& mesh) {
  if (mesh.rfind("box_", 0) != 0) return read_gmsh(std::string(INERTIA_SOURCE_DIR) + "/" + mesh);
  BoxSpec spec;
  spec.cells = {3, 2, 4};
  spec.upper = {1.0, 0.5, 2.0};
  spec.element = mesh == "box_hex8" ? CellType::hex8 : CellType::tet10;
  return generate_box(spec);
}

/// The cells of the highest dimension are elements (with drop_some, two in three of them).
std::vector<char> mark_elements(const MeshData& mesh, bool drop_some) {
  int top = 0;
  for (auto t : mesh.cell_types) top = std::max(top, info(t).dim);
  std::vector<char> is_element(static_cast<std::size_t>(mesh.num_cells()), 0);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    is_element[c] = info(mesh.cell_types[c]).dim == top && !(drop_some && c % 3 == 1);
  return is_element;
}

template <typename T>
std::vector<T> allreduce(std::vector<T> v, MPI_Datatype type, MPI_Op op) {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), type, op, world());
  return v;
}

std::int64_t sum_over_ranks(std::int64_t v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT64_T, MPI_SUM, world());
  return v;
}

class Distribute : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    rank = rank_of(world());
    size = size_of(world());
    serial = load(GetParam().mesh);
    is_element = mark_elements(serial, GetParam().drop_some);
    // Every rank computes the same (deterministic) partition; rank 0's is the one used.
    partition = partition_elements(serial, is_element, size, GetParam().method);
    for (std::int64_t n = 0; n < serial.num_nodes(); ++n) index_of_tag[serial.node_tags[n]] = n;
    for (std::int64_t c = 0; c < serial.num_cells(); ++c)
      cell_of[{serial.cell_tags[c], serial.cell_regions[c]}] = c;
    // (tag, region) names a cell (the same on every rank: no collective needed to agree).
    EXPECT_EQ(static_cast<std::int64_t>(cell_of.size()), serial.num_cells());
    const bool root = rank == 0;
    local = distribute(world(), root ? serial : MeshData{}, root ? is_element : std::vector<char>{},
                       partition, &summary);
  }

  // Lookups that fail with -1 rather than throw: a rank that threw would leave the others
  // waiting in the next collective.
  /// Serial index of local node l (through its tag), or -1.
  std::int64_t serial_node(std::int32_t l) const {
    const auto it = index_of_tag.find(local.node_tags[l]);
    return it == index_of_tag.end() ? -1 : it->second;
  }
  /// Serial index of local cell c (through its tag and region), or -1.
  std::int64_t serial_cell(std::int64_t c) const {
    const auto it = cell_of.find({local.cell_tags[c], local.cell_regions[c]});
    return it == cell_of.end() ? -1 : it->second;
  }

  int rank = 0, size = 1;
  MeshData serial;
  std::vector<char> is_element;
  CellPartition partition;
  std::map<std::int64_t, std::int64_t> index_of_tag;
  std::map<std::pair<std::int64_t, std::int32_t>, std::int64_t> cell_of;  ///< (tag, region)
  LocalMesh local;
  PartitionSummary summary;
};

TEST_P(Distribute, ArraysAreConsistentAndGhostsAreTheOtherRanksNodesOfTheCells) {
  const LocalMesh& m = local;
  const auto num_local = static_cast<std::size_t>(m.num_owned) + m.ghosts.size();
  EXPECT_EQ(m.node_tags.size(), num_local);
  EXPECT_EQ(m.coords.size(), 3 * num_local);
  EXPECT_EQ(m.natural_ids.size(), static_cast<std::size_t>(m.num_owned));
  EXPECT_TRUE(std::adjacent_find(m.ghosts.begin(), m.ghosts.end(),
                                 [](auto a, auto b) { return a >= b; }) == m.ghosts.end());
  for (auto g : m.ghosts) {
    EXPECT_TRUE(g >= 0 && g < m.num_global_nodes) << g;
    EXPECT_FALSE(g >= m.node_begin && g < m.node_begin + m.num_owned) << g;
  }
  const auto ncells = static_cast<std::size_t>(m.num_cells());
  EXPECT_EQ(m.cell_offsets.size(), ncells + 1);
  EXPECT_EQ(m.cell_regions.size(), ncells);
  EXPECT_EQ(m.cell_tags.size(), ncells);
  EXPECT_EQ(m.cell_is_element.size(), ncells);
  EXPECT_EQ(m.cell_offsets.front(), 0);
  std::vector<char> used(num_local, 0);
  for (std::int64_t c = 0; c < m.num_cells(); ++c) {
    EXPECT_EQ(m.nodes_of(c).size(), static_cast<std::size_t>(info(m.cell_types[c]).num_nodes));
    for (auto n : m.nodes_of(c)) {
      EXPECT_TRUE(n >= 0 && n < static_cast<std::int64_t>(num_local)) << n;
      if (n >= 0 && n < static_cast<std::int64_t>(num_local)) used[n] = 1;
    }
  }
  // Every local node is used by a local cell (owned ones by an element of this rank).
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0);
}

TEST_P(Distribute, RanksOwnConsecutiveRangesByTheLowestRankOfTheirElements) {
  std::int64_t begin = 0, owned = local.num_owned;
  MPI_Exscan(&owned, &begin, 1, MPI_INT64_T, MPI_SUM, world());
  if (rank == 0) begin = 0;
  EXPECT_EQ(local.node_begin, begin);
  EXPECT_EQ(local.num_global_nodes, sum_over_ranks(owned));

  const auto N = static_cast<std::size_t>(local.num_global_nodes);
  std::vector<int> lowest(N, size);
  for (std::int64_t c = 0; c < local.num_cells(); ++c)
    if (local.cell_is_element[c])
      for (auto n : local.nodes_of(c))
        lowest[local.global_node(static_cast<std::int32_t>(n))] = rank;
  lowest = allreduce(std::move(lowest), MPI_INT, MPI_MIN);
  for (std::int32_t l = 0; l < local.num_owned; ++l)
    EXPECT_EQ(lowest[local.global_node(l)], rank) << "owned node " << l;
}

TEST_P(Distribute, NodesKeepTheirCoordinatesAndNaturalIdsFollowFileOrder) {
  const auto N = static_cast<std::size_t>(local.num_global_nodes);
  std::vector<std::int64_t> lo(N, std::numeric_limits<std::int64_t>::max()), hi(N, -1);
  std::vector<std::int64_t> natural(N, 0);
  for (std::int32_t l = 0; l < local.num_local_nodes(); ++l) {
    const std::int64_t s = serial_node(l), g = local.global_node(l);
    EXPECT_GE(s, 0) << "node tag " << local.node_tags[l];
    if (s < 0) continue;
    for (int d = 0; d < 3; ++d) EXPECT_EQ(local.coords[3 * l + d], serial.coords[3 * s + d]);
    lo[g] = std::min(lo[g], s);
    hi[g] = std::max(hi[g], s);
    if (l < local.num_owned) natural[g] = local.natural_ids[l];
  }
  lo = allreduce(std::move(lo), MPI_INT64_T, MPI_MIN);
  hi = allreduce(std::move(hi), MPI_INT64_T, MPI_MAX);
  natural = allreduce(std::move(natural), MPI_INT64_T, MPI_SUM);  // one owner per node
  EXPECT_EQ(lo, hi);  // a global node is the same serial node on every rank
  // Natural id = rank of the serial index among the kept nodes.
  std::vector<std::size_t> order(N);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return hi[a] < hi[b]; });
  for (std::size_t k = 0; k < N; ++k) EXPECT_EQ(natural[order[k]], static_cast<std::int64_t>(k));
  for (std::size_t k = 1; k < N; ++k) EXPECT_LT(hi[order[k - 1]], hi[order[k]]);
}

TEST_P(Distribute, CellsAreTheSerialCellsOnTheirRankInMeshOrder) {
  std::vector<int> count(static_cast<std::size_t>(serial.num_cells()), 0);
  std::int64_t previous = -1;
  for (std::int64_t c = 0; c < local.num_cells(); ++c) {
    const std::int64_t s = serial_cell(c);
    EXPECT_GE(s, 0) << "cell tag " << local.cell_tags[c];
    if (s < 0) continue;
    ++count[s];
    EXPECT_LT(previous, s);
    previous = s;
    EXPECT_EQ(local.cell_types[c], serial.cell_types[s]);
    EXPECT_EQ(local.cell_is_element[c], is_element[s]);
    const auto nodes = local.nodes_of(c), serial_nodes = serial.nodes_of(s);
    for (std::size_t i = 0; i < nodes.size() && i < serial_nodes.size(); ++i)
      EXPECT_EQ(serial_node(static_cast<std::int32_t>(nodes[i])), serial_nodes[i]);
    if (!is_element[s]) {
      EXPECT_LT(nodes[0], local.num_owned) << "goes with its first node";
    }
  }
  for (std::size_t e = 0; e < partition.elements.size(); ++e)
    if (partition.part[e] == rank) {
      EXPECT_EQ(count[partition.elements[e]], 1);
    }
  count = allreduce(std::move(count), MPI_INT, MPI_SUM);

  std::vector<char> element_node(static_cast<std::size_t>(serial.num_nodes()), 0);
  for (std::int64_t c = 0; c < serial.num_cells(); ++c)
    if (is_element[c])
      for (auto n : serial.nodes_of(c)) element_node[n] = 1;
  std::int64_t dropped = 0;
  for (std::int64_t c = 0; c < serial.num_cells(); ++c) {
    const auto nodes = serial.nodes_of(c);
    const bool kept = is_element[c] || std::all_of(nodes.begin(), nodes.end(),
                                                   [&](auto n) { return element_node[n] != 0; });
    EXPECT_EQ(count[c], kept ? 1 : 0) << "cell " << c;
    dropped += kept ? 0 : 1;
  }
  EXPECT_EQ(summary.dropped_cells, dropped);
}

TEST_P(Distribute, RegionNodeSetsAreTheOwnedNodesOfTheRegionsCells) {
  const std::size_t nr = serial.regions.size();
  ASSERT_TRUE(all_true(world(), local.regions.size() == nr &&
                                    local.region_owned_nodes.size() == nr &&
                                    local.region_node_counts.size() == nr));
  for (std::size_t r = 0; r < nr; ++r) {
    EXPECT_EQ(local.regions[r].name, serial.regions[r].name);
    EXPECT_EQ(local.regions[r].dim, serial.regions[r].dim);
    EXPECT_EQ(local.regions[r].tag, serial.regions[r].tag);
  }
  const auto N = static_cast<std::size_t>(local.num_global_nodes);
  for (std::size_t r = 0; r < nr; ++r) {
    const auto& owned = local.region_owned_nodes[r];
    EXPECT_TRUE(std::is_sorted(owned.begin(), owned.end()));
    std::vector<int> in_cells(N, 0), listed(N, 0);
    for (std::int64_t c = 0; c < local.num_cells(); ++c)
      if (local.cell_regions[c] == static_cast<std::int32_t>(r))
        for (auto n : local.nodes_of(c))
          in_cells[local.global_node(static_cast<std::int32_t>(n))] = 1;
    for (auto l : owned) {
      EXPECT_TRUE(l >= 0 && l < local.num_owned) << l;
      if (l >= 0 && l < local.num_owned) listed[local.global_node(l)] += 1;
    }
    in_cells = allreduce(std::move(in_cells), MPI_INT, MPI_MAX);
    listed = allreduce(std::move(listed), MPI_INT, MPI_SUM);
    EXPECT_EQ(listed, in_cells) << serial.regions[r].name;
    EXPECT_EQ(local.region_node_counts[r], std::count(in_cells.begin(), in_cells.end(), 1));
  }
}

TEST_P(Distribute, SummaryIsTheSameOnEveryRankAndMatchesTheLocalMeshes) {
  const auto n = static_cast<std::size_t>(size);
  ASSERT_TRUE(all_true(world(), summary.elements_per_rank.size() == n &&
                                    summary.owned_nodes_per_rank.size() == n &&
                                    summary.ghost_nodes_per_rank.size() == n));
  EXPECT_EQ(summary.method, GetParam().method == Partitioner::metis ? "metis" : "block");
  EXPECT_EQ(summary.quality.edge_cut, partition.quality.edge_cut);
  EXPECT_EQ(summary.quality.imbalance, partition.quality.imbalance);
  EXPECT_EQ(summary.elements_per_rank[rank],
            std::count(local.cell_is_element.begin(), local.cell_is_element.end(), 1));
  EXPECT_EQ(summary.owned_nodes_per_rank[rank], local.num_owned);
  EXPECT_EQ(summary.ghost_nodes_per_rank[rank], static_cast<std::int64_t>(local.ghosts.size()));
  std::vector<std::int64_t> facts = summary.elements_per_rank;
  facts.insert(facts.end(), summary.owned_nodes_per_rank.begin(),
               summary.owned_nodes_per_rank.end());
  facts.insert(facts.end(), summary.ghost_nodes_per_rank.begin(),
               summary.ghost_nodes_per_rank.end());
  facts.insert(facts.end(), {summary.dropped_cells, local.num_global_nodes});
  EXPECT_EQ(allreduce(facts, MPI_INT64_T, MPI_MIN), allreduce(facts, MPI_INT64_T, MPI_MAX));
}

std::vector<Case> cases() {
  const char* meshes[] = {"tests/data/gmsh/box_41.msh",
                          "tests/data/gmsh/box_22_bin.msh",
                          "tests/data/gmsh/box_tet10_41.msh",
                          "tests/data/gmsh/two_boxes_41.msh",
                          "tests/data/gmsh/plain_22.msh",
                          "tests/data/springs/vee.msh",
                          "meshes/two_particles.msh",
                          "meshes/hanging_mass.msh",
                          "meshes/cloth.msh",
                          "meshes/skewed_block.msh",
                          "box_hex8",
                          "box_tet10"};
  std::vector<Case> all;
  for (const char* mesh : meshes)
    for (auto method : {Partitioner::metis, Partitioner::block})
      for (bool drop : {false, true}) all.push_back({mesh, method, drop});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Meshes, Distribute, testing::ValuesIn(cases()), name_of);

}  // namespace
