// read_split() at np = 1, 2, 3: the LocalMesh every rank reads from a split equals the one
// distribute() scatters with the same partition, field by field; and a damaged split (one rank's
// share, the index) fails on every rank alike with the same one-line message, so that no rank is
// left waiting in a collective.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"
#include "inertia/partition/split_file.hpp"

using namespace inertia;

namespace {

MPI_Comm world() { return MPI_COMM_WORLD; }

/// A split of a 3 x 2 x 4 tet10 box for the world's ranks, written by rank 0 into a folder of
/// the build tree; the serial mesh and partition are the same on every rank.
class Split : public testing::Test {
 protected:
  void SetUp() override {
    BoxSpec spec;
    spec.cells = {3, 2, 4};
    spec.element = CellType::tet10;
    serial = generate_box(spec);
    is_element.resize(static_cast<std::size_t>(serial.num_cells()));
    for (std::int64_t c = 0; c < serial.num_cells(); ++c)
      is_element[c] = info(serial.cell_types[c]).dim == 3;
    partition = partition_elements(serial, is_element, size_of(world()), Partitioner::metis);
    folder = std::filesystem::path(INERTIA_BINARY_DIR) / "mpi_partition_split";
    file = folder / ("box.p" + std::to_string(size_of(world())) + ".split");
    run_on_root(world(), [&] {
      std::filesystem::create_directories(folder);
      write_split(file, serial, is_element, partition, size_of(world()), "stamp", nullptr);
    });
  }

  /// Rank 0 flips one bit of the file at `byte`; every rank waits for it.
  void flip(std::uint64_t byte) const {
    run_on_root(world(), [&] {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(byte));
      char c = 0;
      f.get(c);
      f.seekp(static_cast<std::streamoff>(byte));
      f.put(static_cast<char>(c ^ 0x04));
    });
  }

  /// read_split's message on this rank ("" if it read), and whether every rank has the same.
  std::string refusal(bool* same_everywhere) const {
    std::string message;
    try {
      read_split(world(), file, nullptr, nullptr);
    } catch (const InputError& e) {
      message = e.what();
    }
    std::string root = message;
    std::uint64_t n = root.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, world());
    root.resize(n);
    MPI_Bcast(root.data(), static_cast<int>(n), MPI_CHAR, 0, world());
    *same_everywhere = all_true(world(), root == message);
    return message;
  }

  MeshData serial;
  std::vector<char> is_element;
  CellPartition partition;
  std::filesystem::path folder, file;
};

TEST_F(Split, EveryRankReadsTheLocalMeshThatDistributeScatters) {
  const bool root = rank_of(world()) == 0;
  PartitionSummary scattered_summary, read_summary;
  const LocalMesh scattered =
      distribute(world(), root ? serial : MeshData{}, root ? is_element : std::vector<char>{},
                 partition, &scattered_summary);
  std::string stamp;
  const LocalMesh read = read_split(world(), file, &read_summary, &stamp);
  bool same =
      stamp == "stamp" && read.num_global_nodes == scattered.num_global_nodes &&
      read.node_begin == scattered.node_begin && read.num_owned == scattered.num_owned &&
      read.ghosts == scattered.ghosts && read.coords == scattered.coords &&
      read.node_tags == scattered.node_tags && read.natural_ids == scattered.natural_ids &&
      read.cell_types == scattered.cell_types && read.cell_offsets == scattered.cell_offsets &&
      read.cell_nodes == scattered.cell_nodes && read.cell_regions == scattered.cell_regions &&
      read.cell_tags == scattered.cell_tags && read.cell_is_element == scattered.cell_is_element &&
      read.region_owned_nodes == scattered.region_owned_nodes &&
      read.region_node_counts == scattered.region_node_counts &&
      read.regions.size() == scattered.regions.size() &&
      read_summary.elements_per_rank == scattered_summary.elements_per_rank &&
      read_summary.owned_nodes_per_rank == scattered_summary.owned_nodes_per_rank &&
      read_summary.ghost_nodes_per_rank == scattered_summary.ghost_nodes_per_rank;
  for (std::size_t r = 0; same && r < read.regions.size(); ++r)
    same = read.regions[r].name == scattered.regions[r].name &&
           read.regions[r].dim == scattered.regions[r].dim &&
           read.regions[r].tag == scattered.regions[r].tag;
  EXPECT_TRUE(all_true(world(), same));
}

TEST_F(Split, ADamagedShareFailsOnEveryRankWithTheSameLineNamingItsRank) {
  const int last = size_of(world()) - 1;
  SplitIndex index;
  run_on_root(world(), [&] { index = read_split_index(SplitFile(file), file.string()); });
  std::uint64_t byte = 0;
  if (rank_of(world()) == 0)
    byte =
        8 * (index.shares_begin + (index.share_offsets[last] + index.share_offsets[last + 1]) / 2);
  MPI_Bcast(&byte, 1, MPI_UINT64_T, 0, world());
  flip(byte);
  bool same = false;
  const std::string message = refusal(&same);
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find(file.string() + ": checksum of rank " + std::to_string(last) +
                         "'s share does not match"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_F(Split, ADamagedIndexFailsOnEveryRankWithTheSameLine) {
  flip(8 * 6 + 3);  // the first share offset
  bool same = false;
  const std::string message = refusal(&same);
  EXPECT_TRUE(same) << message;
  EXPECT_NE(message.find("the split's header is damaged (its checksum does not match)"),
            std::string::npos)
      << message;
}

}  // namespace
