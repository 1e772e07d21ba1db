// connected_parts(): the parts of the element graph of a distributed mesh are the same on 1, 2
// and 3 ranks, with METIS and block partitions: unfused boxes, a box split over every rank, a
// ring of springs closing across ranks, a chain whose cells come in an order that leaves each
// rank several pieces joined only through the others, and lone point masses. Free parts (no held
// node) are listed by their lowest natural node, up to the cap, with their regions and nodes.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "inertia/mesh/box.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/connected_parts.hpp"

using namespace inertia;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }

/// An n x n x n hex8 box of unit cells at x0 along x, with its own nodes, in region `region`.
void add_box(MeshData& m, double x0, int n, int region) {
  const std::int64_t first = m.num_nodes();
  auto at = [&](int i, int j, int k) { return first + i + (n + 1) * (j + (n + 1) * k); };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) m.add_node(x0 + i, j, k, m.num_nodes() + 1);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const std::array<std::int64_t, 8> c{
            at(i, j, k),     at(i + 1, j, k),     at(i + 1, j + 1, k),     at(i, j + 1, k),
            at(i, j, k + 1), at(i + 1, j, k + 1), at(i + 1, j + 1, k + 1), at(i, j + 1, k + 1)};
        m.add_cell(CellType::hex8, c, region, m.num_cells() + 1);
      }
}

/// Line2 springs between `nodes` new nodes at height z, in region `region`: segment s joins
/// nodes s and s + 1 (the last segment of a ring, nodes - 1, joins the last node to the first),
/// in the order of `segments`.
void add_chain(MeshData& m, int nodes, double z, const std::vector<int>& segments, int region) {
  const std::int64_t first = m.num_nodes();
  for (int i = 0; i < nodes; ++i) m.add_node(i, -5, z, m.num_nodes() + 1);
  for (int s : segments) {
    const std::array<std::int64_t, 2> c{first + s, first + (s + 1) % nodes};
    m.add_cell(CellType::line2, c, region, m.num_cells() + 1);
  }
}

/// Every cell is an element; distributed from rank 0 with `method`.
LocalMesh spread(const MeshData& serial, Partitioner method) {
  const std::vector<char> is_element(static_cast<std::size_t>(serial.num_cells()), 1);
  const bool root = rank_of(world()) == 0;
  PartitionSummary summary;
  return distribute(world(), root ? serial : MeshData{}, root ? is_element : std::vector<char>{},
                    method, &summary);
}

/// Owned nodes with x == 0 held (the "support"), unless `none`.
std::vector<char> held_at_x0(const LocalMesh& m, bool none = false) {
  std::vector<char> held(static_cast<std::size_t>(m.num_owned), 0);
  for (std::int32_t n = 0; n < m.num_owned; ++n) held[n] = !none && m.coords[3 * n] == 0.0;
  return held;
}

class ConnectedPartsTest : public testing::TestWithParam<Partitioner> {};

TEST_P(ConnectedPartsTest, TwoUnfusedBoxesAreTwoPartsAndTheUnheldOneIsListed) {
  MeshData m;
  m.regions = {{"left", 3, 1}, {"right", 3, 2}};
  add_box(m, 0.0, 3, 0);
  add_box(m, 3.0, 3, 1);  // touching at x = 3, with nodes of its own
  const LocalMesh local = spread(m, GetParam());
  const ConnectedParts parts = connected_parts(world(), local, held_at_x0(local));
  EXPECT_EQ(parts.count, 2);
  EXPECT_EQ(parts.free_count, 1);
  if (rank_of(world()) == 0) {
    ASSERT_EQ(parts.free_parts.size(), 1u);
    EXPECT_EQ(parts.free_parts[0].nodes, 64);
    EXPECT_EQ(parts.free_parts[0].regions, std::vector<int>{1});
    EXPECT_EQ(parts.free_parts[0].first_node, 64);  // the right box's first node
    EXPECT_FALSE(parts.free_parts[0].held);
  } else {
    EXPECT_TRUE(parts.free_parts.empty());
  }
}

TEST_P(ConnectedPartsTest, OneBoxOverEveryRankIsOnePart) {
  BoxSpec spec;
  spec.cells = {6, 3, 3};
  spec.upper = {2.0, 1.0, 1.0};
  const LocalMesh local = spread(generate_box(spec), GetParam());
  const ConnectedParts held = connected_parts(world(), local, held_at_x0(local));
  EXPECT_EQ(held.count, 1);
  EXPECT_EQ(held.free_count, 0);
  const ConnectedParts free = connected_parts(world(), local, held_at_x0(local, true));
  EXPECT_EQ(free.count, 1);
  EXPECT_EQ(free.free_count, 1);
  if (rank_of(world()) == 0) {
    ASSERT_EQ(free.free_parts.size(), 1u);
    EXPECT_EQ(free.free_parts[0].nodes, 7 * 4 * 4);
    EXPECT_EQ(free.free_parts[0].first_node, 0);
  }
}

TEST_P(ConnectedPartsTest, RingsChainsAndLonePointsCountOnceAtAnyRankCount) {
  MeshData m;
  m.regions = {{"ring", 1, 1}, {"chain", 1, 2}, {"points", 0, 3}, {"block", 3, 4}};
  // A ring of 12 springs in order: it closes between the first and the last cell.
  std::vector<int> ring(12);
  for (int s = 0; s < 12; ++s) ring[s] = s;
  add_chain(m, 12, 1.0, ring, 0);
  // An open chain of 15 springs, every fifth one first: each rank holds separate pieces of it.
  std::vector<int> chain;
  for (int r = 0; r < 5; ++r)
    for (int s = r; s < 15; s += 5) chain.push_back(s);
  add_chain(m, 16, 2.0, chain, 1);
  // Three lone point masses.
  for (int p = 0; p < 3; ++p) {
    const std::array<std::int64_t, 1> c{m.add_node(10 + p, 10, 10, m.num_nodes() + 1)};
    m.add_cell(CellType::point1, c, 2, m.num_cells() + 1);
  }
  add_box(m, 20.0, 2, 3);
  const LocalMesh local = spread(m, GetParam());
  const ConnectedParts parts = connected_parts(world(), local, held_at_x0(local, true), 4);
  EXPECT_EQ(parts.count, 6);  // ring, chain, three points, block
  EXPECT_EQ(parts.free_count, 6);
  if (rank_of(world()) == 0) {
    ASSERT_EQ(parts.free_parts.size(), 4u);  // the cap
    const std::array<std::int64_t, 4> nodes{12, 16, 1, 1}, first{0, 12, 28, 29};
    const std::array<int, 4> region{0, 1, 2, 2};
    for (std::size_t p = 0; p < 4; ++p) {
      EXPECT_EQ(parts.free_parts[p].nodes, nodes[p]) << p;
      EXPECT_EQ(parts.free_parts[p].first_node, first[p]) << p;
      EXPECT_EQ(parts.free_parts[p].regions, std::vector<int>{region[p]}) << p;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Partitioners, ConnectedPartsTest,
                         testing::Values(Partitioner::metis, Partitioner::block),
                         [](const auto& info) {
                           return std::string(info.param == Partitioner::metis ? "metis" : "block");
                         });

}  // namespace
