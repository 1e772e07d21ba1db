// A split file read back without MPI (split_file.hpp): every single flipped bit is refused by a
// checksum, and a file whose checksums are valid but whose content is not (resealed after an
// edit: a bug's or a hand-made file) is refused by the content checks, each in one line naming
// the file, before anything is allocated beyond the file's length.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "inertia/core/files.hpp"
#include "inertia/mesh/box.hpp"
#include "inertia/partition/partition.hpp"
#include "inertia/partition/split_file.hpp"

namespace inertia {
namespace {

constexpr int parts = 3;
const std::string name = "box.p3.split";

/// A 3-rank split of a 3 x 2 x 2 hex8 box (and its boundary faces), in memory.
std::vector<std::byte> make_split() {
  BoxSpec spec;
  spec.cells = {3, 2, 2};
  const MeshData mesh = generate_box(spec);
  std::vector<char> is_element(static_cast<std::size_t>(mesh.num_cells()));
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    is_element[c] = info(mesh.cell_types[c]).dim == 3;
  const CellPartition partition = partition_elements(mesh, is_element, parts, Partitioner::block);
  const auto file = std::filesystem::temp_directory_path() /
                    ("inertia_unit_split_" + std::to_string(::getpid()) + ".split");
  write_split(file, mesh, is_element, partition, parts, "the stamp", nullptr);
  const std::string text = read_file(file);
  std::filesystem::remove(file);
  std::vector<std::byte> bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

const std::vector<std::byte>& intact() {
  static const std::vector<std::byte> bytes = make_split();
  return bytes;
}

/// Reads the index and every rank's share; the first refusal's message, or "" if all is read.
std::string refusal(const std::vector<std::byte>& bytes) {
  const SplitBytes source(bytes);
  try {
    const SplitIndex index = read_split_index(source, name);
    for (int r = 0; r < index.parts; ++r) read_split_share(source, index, r, name);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// Expects one refusal of one line naming the file and containing `what`.
void expect_refused(const std::vector<std::byte>& bytes, const std::string& what) {
  const std::string message = refusal(bytes);
  EXPECT_EQ(message.rfind(name + ": ", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(what), std::string::npos) << "expected '" << what << "' in: " << message;
}

template <typename T>
T load(const std::vector<std::byte>& bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}
template <typename T>
void store(std::vector<std::byte>& bytes, std::size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

/// Where the fields of rank r's share start (bytes from the file's start), as the share's
/// fields are packed: node_begin, num_owned, then each vector as its size and its values.
struct ShareLayout {
  std::size_t node_begin, num_owned, ghosts, coords, node_tags, natural_ids, cell_types,
      cell_offsets, cell_nodes;
  std::size_t num_ghosts;
};
ShareLayout layout_of(int r) {
  const SplitBytes source(intact());
  const SplitIndex index = read_split_index(source, name);
  const LocalMesh m = read_split_share(source, index, r, name);
  ShareLayout l{};
  l.node_begin = 8 * (index.shares_begin + index.share_offsets[r]);
  l.num_owned = l.node_begin + 8;
  l.ghosts = l.num_owned + 4;
  l.coords = l.ghosts + 8 + 8 * m.ghosts.size();
  l.node_tags = l.coords + 8 + 8 * m.coords.size();
  l.natural_ids = l.node_tags + 8 + 8 * m.node_tags.size();
  l.cell_types = l.natural_ids + 8 + 8 * m.natural_ids.size();
  l.cell_offsets = l.cell_types + 8 + m.cell_types.size();
  l.cell_nodes = l.cell_offsets + 8 + 8 * m.cell_offsets.size();
  l.num_ghosts = m.ghosts.size();
  return l;
}

/// A copy of the intact split with `edit` applied to it, then resealed (valid checksums).
std::vector<std::byte> resealed(const std::function<void(std::vector<std::byte>&)>& edit) {
  std::vector<std::byte> bytes = intact();
  edit(bytes);
  reseal_split(bytes);
  return bytes;
}

TEST(SplitFile, ReadsBackEveryRanksShareWithTheStampAndTheSummary) {
  ASSERT_EQ(refusal(intact()), "");
  const SplitBytes source(intact());
  const SplitIndex index = read_split_index(source, name);
  EXPECT_EQ(index.parts, parts);
  EXPECT_EQ(index.stamp, "the stamp");
  EXPECT_EQ(index.num_global_nodes, 4 * 3 * 3);
  std::int64_t owned = 0, elements = 0;
  for (int r = 0; r < parts; ++r) {
    const LocalMesh m = read_split_share(source, index, r, name);
    EXPECT_EQ(m.node_begin, owned);
    owned += m.num_owned;
    for (char e : m.cell_is_element) elements += e;
  }
  EXPECT_EQ(owned, index.num_global_nodes);
  EXPECT_EQ(elements, 12);
}

TEST(SplitFile, EveryFlippedBitIsRefusedByAChecksumOrTheHeadersChecks) {
  const std::vector<std::byte>& good = intact();
  std::size_t refused = 0;
  for (std::size_t bit = 0; bit < 8 * good.size(); ++bit) {
    std::vector<std::byte> bytes = good;
    bytes[bit / 8] ^= std::byte(1u << (bit % 8));
    const std::string message = refusal(bytes);
    ASSERT_FALSE(message.empty()) << "bit " << bit << " of " << 8 * good.size() << " not noticed";
    ASSERT_EQ(message.find('\n'), std::string::npos) << message;
    ++refused;
  }
  EXPECT_EQ(refused, 8 * good.size());
}

TEST(SplitFile, ADamagedShareIsNamedByItsRank) {
  for (int r = 0; r < parts; ++r) {
    std::vector<std::byte> bytes = intact();
    bytes[layout_of(r).coords + 8 + 3] ^= std::byte{0x10};
    expect_refused(bytes, "checksum of rank " + std::to_string(r) + "'s share does not match");
  }
  std::vector<std::byte> bytes = intact();
  bytes[8 * 7] ^= std::byte{1};  // the first share offset after rank 0's
  expect_refused(bytes, "header is damaged (its checksum does not match)");
}

TEST(SplitFile, TruncatedOldOrForeignFilesAreRefused) {
  for (const std::size_t keep : {std::size_t{0}, std::size_t{20}, std::size_t{100},
                                 intact().size() / 2, intact().size() - 8, intact().size() - 1}) {
    std::vector<std::byte> bytes(intact().begin(), intact().begin() + keep);
    expect_refused(bytes, "truncated");
  }
  std::vector<std::byte> longer = intact();
  longer.resize(longer.size() + 8);
  expect_refused(longer, "8 bytes more than its header says");
  std::vector<std::byte> old = intact();
  store<std::uint64_t>(old, 8, 1);
  expect_refused(old, "not a split of this version of inertia");
  std::vector<std::byte> foreign = intact();
  foreign[0] = std::byte{'X'};
  expect_refused(foreign, "not a split made by inertia --split");
}

TEST(SplitFile, SizesBeyondTheFileAreRefusedBeforeAnythingIsAllocated) {
  // A rank count, a facts size and a vector's size of 2^60 (resealed: the checksums match).
  for (const std::size_t word : {2, 3, 4}) {
    std::vector<std::byte> bytes = intact();
    store<std::uint64_t>(bytes, 8 * word, std::uint64_t{1} << 60);
    expect_refused(bytes, "its sizes do not fit in the file's");
  }
  const auto l = layout_of(1);
  expect_refused(resealed([&](auto& b) { store<std::uint64_t>(b, l.ghosts, 1ull << 60); }),
                 "rank 1's share is inconsistent: a size of 1152921504606846976 does not fit");
  expect_refused(resealed([&](auto& b) { store<std::uint64_t>(b, l.cell_nodes, 1ull << 60); }),
                 "rank 1's share is inconsistent: a size of");
}

TEST(SplitFile, ValidChecksumsWithInconsistentContentAreRefusedInOneLine) {
  const auto l = layout_of(2);
  const auto edit = [&](std::size_t at, auto value) {
    return resealed([&](auto& b) { store(b, at, value); });
  };
  expect_refused(edit(l.cell_nodes + 8, std::int64_t{1000}), "is not one of its");
  expect_refused(edit(l.cell_nodes + 8, std::int64_t{-1}), "is not one of its");
  expect_refused(edit(l.cell_types + 8, std::uint8_t{200}), "has an unknown type (200)");
  expect_refused(edit(l.cell_types + 8, static_cast<std::uint8_t>(CellType::tet4)),
                 "does not have 4 nodes");
  expect_refused(edit(l.cell_offsets + 16, std::int64_t{-5}), "does not have 8 nodes");
  expect_refused(edit(l.cell_offsets + 16, std::numeric_limits<std::int64_t>::min()),
                 "does not have 8 nodes");
  expect_refused(edit(l.cell_offsets + 24, std::numeric_limits<std::int64_t>::min()),
                 "does not have 8 nodes");  // after a positive offset (no overflow)
  expect_refused(edit(l.coords + 8, std::nan("")), "not a finite number");
  expect_refused(edit(l.coords + 8, HUGE_VAL), "not a finite number");
  expect_refused(edit(l.node_begin, std::int64_t{3}), "the summary says");
  expect_refused(edit(l.num_owned, std::int32_t{-1}), "the summary says");
  expect_refused(edit(l.natural_ids + 8, std::int64_t{36}), "natural node id of 36");
  // Rank 2's ghosts are all below its owned range: its last made its first owned node.
  ASSERT_GT(l.num_ghosts, 1u);
  expect_refused(edit(l.ghosts + 8 * l.num_ghosts, load<std::int64_t>(intact(), l.node_begin)),
                 "is one of its owned nodes");
  expect_refused(edit(l.ghosts + 8, std::int64_t{-2}), "ghost nodes are not increasing");
  // The first index past its nodes.
  const SplitBytes source(intact());
  const SplitIndex index = read_split_index(source, name);
  const LocalMesh m = read_split_share(source, index, 2, name);
  expect_refused(edit(l.cell_nodes + 8, static_cast<std::int64_t>(m.num_local_nodes())),
                 "is not one of its " + std::to_string(m.num_local_nodes()) + " nodes");
}

TEST(SplitFile, AnIndexWithValidChecksumButInconsistentFactsIsRefused) {
  // The first share offset made non-zero, the last beyond the file's end.
  expect_refused(resealed([](auto& b) { store<std::uint64_t>(b, 8 * 6, 1); }),
                 "share offsets are not increasing from 0");
  expect_refused(resealed([](auto& b) {
                   store<std::uint64_t>(b, 8 * (6 + parts),
                                        load<std::uint64_t>(b, 8 * (6 + parts)) + 1);
                 }),
                 "truncated");
  // The node count (the facts' first word).
  const std::size_t facts = 8 * (6 + 2 * parts + 1);
  expect_refused(resealed([&](auto& b) { store<std::int64_t>(b, facts, 35); }),
                 "header is inconsistent: the ranks' owned nodes do not add up");
  expect_refused(resealed([&](auto& b) { store<std::int64_t>(b, facts, -1); }),
                 "header is inconsistent: a node count of -1");
}

}  // namespace
}  // namespace inertia
