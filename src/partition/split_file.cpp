/// \file split_file.cpp
/// The split file's layout, writing and verified reading (split_file.hpp). No MPI: read_split
/// (distribute.cpp) calls this on every rank, and tests/fuzz/fuzz_split.cpp on memory.
#include "inertia/partition/split_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
#include <optional>

#include "inertia/core/files.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/limits.hpp"
#include "messages.hpp"

namespace inertia {

using messages::Word;

namespace {

constexpr Word split_magic = 0x54494c5053544e49;  // "INTSPLIT", little-endian
// The header: magic, version, parts, facts words, stamp words, the index's checksum.
constexpr std::size_t header_words = 6;
constexpr std::size_t checksum_word = 5;

const char* const make_it_again = "; make it again with inertia --split";

/// The checksum of an index (its words but the checksum's own).
std::uint64_t index_checksum(std::span<const Word> index) {
  Hasher h;
  h.add_bytes(index.data(), checksum_word * sizeof(Word));
  h.add_bytes(index.data() + checksum_word + 1, (index.size() - checksum_word - 1) * sizeof(Word));
  return h.digest();
}

std::uint64_t share_checksum(std::span<const Word> share) {
  return hash64(share.data(), share.size_bytes());
}

/// The sizes a header gives, all in words.
struct IndexSizes {
  std::uint64_t parts, facts, stamp;
  std::uint64_t offsets_begin() const { return header_words; }
  std::uint64_t checksums_begin() const { return header_words + parts + 1; }
  std::uint64_t facts_begin() const { return checksums_begin() + parts; }
  std::uint64_t stamp_begin() const { return facts_begin() + facts; }
  std::uint64_t words() const { return stamp_begin() + stamp; }
};

/// The sizes of a header, or nothing if they do not fit in `file_words` words (then they are
/// never used: no allocation beyond the file's length).
std::optional<IndexSizes> index_sizes(const Word* head, std::uint64_t file_words) {
  const IndexSizes sizes{head[2], head[3], head[4]};
  // Each at most file_words < 2^61 first, so that the sum cannot overflow.
  if (sizes.parts == 0 || sizes.parts > file_words || sizes.facts > file_words ||
      sizes.stamp > file_words || sizes.words() > file_words)
    return std::nullopt;
  return sizes;
}

std::vector<Word> read_words(const SplitSource& source, std::uint64_t first, std::size_t count) {
  std::vector<Word> words(count);
  source.read(first * sizeof(Word), std::as_writable_bytes(std::span(words)));
  return words;
}

bool is_one_line(const std::string& text) {
  return std::none_of(text.begin(), text.end(),
                      [](char ch) { return static_cast<unsigned char>(ch) < 0x20; });
}

// ---- Content checks: every count and index of the facts and of a share ------------------------
// What the LocalMesh's consumers assume (the assembler's pattern, the DOF map, the writers): they
// are checked here once, so that a file with valid checksums but inconsistent content (a bug, a
// hand-made file) is refused in one line instead of reading out of bounds later.

/// The facts against themselves and the number of parts.
void check_facts(const SplitIndex& index) {
  const std::int64_t n = index.num_global_nodes;
  const auto parts = static_cast<std::size_t>(index.parts);
  const PartitionSummary& s = index.summary;
  INERTIA_CHECK(n >= 0, InputError, "a node count of ", n);
  INERTIA_CHECK(s.elements_per_rank.size() == parts && s.owned_nodes_per_rank.size() == parts &&
                    s.ghost_nodes_per_rank.size() == parts,
                InputError, "its partition summary is not one of ", parts, " ranks");
  std::optional<std::int64_t> owned = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::int64_t own = s.owned_nodes_per_rank[p], ghosts = s.ghost_nodes_per_rank[p];
    INERTIA_CHECK(own >= 0 && own <= std::numeric_limits<std::int32_t>::max() && ghosts >= 0 &&
                      ghosts <= n && s.elements_per_rank[p] >= 0,
                  InputError, "rank ", p, "'s counts in the partition summary are out of range");
    owned = checked_add(owned, own);
  }
  INERTIA_CHECK(owned == n, InputError, "the ranks' owned nodes do not add up to its ", n,
                " nodes");
  INERTIA_CHECK(s.dropped_cells >= 0 && is_one_line(s.method), InputError,
                "its partition summary is damaged");
  INERTIA_CHECK(index.region_node_counts.size() == index.regions.size(), InputError,
                index.region_node_counts.size(), " node counts for ", index.regions.size(),
                " regions");
  for (std::size_t r = 0; r < index.regions.size(); ++r) {
    const Region& region = index.regions[r];
    INERTIA_CHECK(region.dim >= 0 && region.dim <= 3 && is_one_line(region.name) &&
                      index.region_node_counts[r] >= 0 && index.region_node_counts[r] <= n,
                  InputError, "region ", r, " is damaged");
  }
}

/// Strictly increasing values in [lo, hi).
template <typename T>
bool increasing_within(const std::vector<T>& v, std::int64_t lo, std::int64_t hi) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < lo || v[i] >= hi || (i > 0 && v[i] <= v[i - 1])) return false;
  return true;
}

/// Rank `rank`'s LocalMesh against the facts (already in it) and the index's summary.
void check_share(const LocalMesh& m, const SplitIndex& index, int rank) {
  const PartitionSummary& s = index.summary;
  const std::int64_t n = m.num_global_nodes;
  std::int64_t begin = 0;
  for (int p = 0; p < rank; ++p) begin += s.owned_nodes_per_rank[p];
  INERTIA_CHECK(m.node_begin == begin && m.num_owned == s.owned_nodes_per_rank[rank], InputError,
                "it owns ", m.num_owned, " nodes from ", m.node_begin, ", the summary says ",
                s.owned_nodes_per_rank[rank], " from ", begin);
  const std::int64_t end = begin + m.num_owned;
  INERTIA_CHECK(static_cast<std::int64_t>(m.ghosts.size()) == s.ghost_nodes_per_rank[rank],
                InputError, "it has ", m.ghosts.size(), " ghost nodes, the summary says ",
                s.ghost_nodes_per_rank[rank]);
  const std::int64_t local = m.num_owned + static_cast<std::int64_t>(m.ghosts.size());
  INERTIA_CHECK(local <= std::numeric_limits<std::int32_t>::max(), InputError, "its ", local,
                " nodes are more than 32-bit local indices allow");
  INERTIA_CHECK(increasing_within(m.ghosts, 0, n), InputError,
                "its ghost nodes are not increasing global nodes below ", n);
  const auto in_owned = std::lower_bound(m.ghosts.begin(), m.ghosts.end(), begin);
  INERTIA_CHECK(in_owned == m.ghosts.end() || *in_owned >= end, InputError, "ghost node ",
                *in_owned, " is one of its owned nodes");

  // Nodes.
  const auto num_local = static_cast<std::size_t>(local);
  INERTIA_CHECK(m.coords.size() == 3 * num_local && m.node_tags.size() == num_local &&
                    m.natural_ids.size() == static_cast<std::size_t>(m.num_owned),
                InputError, "its node arrays are not of its ", local, " nodes");
  for (std::size_t i = 0; i < m.coords.size(); ++i)
    INERTIA_CHECK(std::isfinite(m.coords[i]), InputError, "node ", m.node_tags[i / 3],
                  " has a coordinate that is not a finite number");
  for (const std::int64_t natural : m.natural_ids)
    INERTIA_CHECK(natural >= 0 && natural < n, InputError, "a natural node id of ", natural,
                  " is not below its ", n, " nodes");

  // Cells.
  const auto cells = static_cast<std::size_t>(m.num_cells());
  INERTIA_CHECK(m.cell_offsets.size() == cells + 1 && m.cell_regions.size() == cells &&
                    m.cell_tags.size() == cells && m.cell_is_element.size() == cells &&
                    m.cell_offsets[0] == 0,
                InputError, "its cell arrays are not of its ", cells, " cells");
  const auto regions = static_cast<std::int32_t>(index.regions.size());
  std::int64_t elements = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    const auto type = static_cast<int>(m.cell_types[c]);
    INERTIA_CHECK(type >= 0 && type < num_cell_types, InputError, "cell ", m.cell_tags[c],
                  " has an unknown type (", type, ")");
    const CellTypeInfo& cell = info(m.cell_types[c]);
    // offsets[c] is in [0, cell_nodes.size()] (from offsets[0] = 0, step by step): no overflow.
    INERTIA_CHECK(m.cell_offsets[c] <= static_cast<std::int64_t>(m.cell_nodes.size()) &&
                      m.cell_offsets[c + 1] == m.cell_offsets[c] + cell.num_nodes,
                  InputError, "cell ", m.cell_tags[c], " (", cell.name, ") does not have ",
                  cell.num_nodes, " nodes");
    const std::int32_t region = m.cell_regions[c];
    INERTIA_CHECK(
        region >= -1 && region < regions && (region < 0 || index.regions[region].dim == cell.dim),
        InputError, "cell ", m.cell_tags[c], " has no region ", region, " of dimension ", cell.dim);
    INERTIA_CHECK(m.cell_is_element[c] == 0 || m.cell_is_element[c] == 1, InputError, "cell ",
                  m.cell_tags[c], " is damaged");
    elements += m.cell_is_element[c];
  }
  INERTIA_CHECK(m.cell_offsets[cells] == static_cast<std::int64_t>(m.cell_nodes.size()), InputError,
                "its cells have ", m.cell_offsets[cells], " nodes, its node list ",
                m.cell_nodes.size());
  for (std::size_t c = 0; c < cells; ++c)
    for (const std::int64_t node : m.nodes_of(static_cast<std::int64_t>(c)))
      INERTIA_CHECK(node >= 0 && node < local, InputError, "cell ", m.cell_tags[c], "'s node ",
                    node, " is not one of its ", local, " nodes");
  INERTIA_CHECK(elements == s.elements_per_rank[rank], InputError, "it has ", elements,
                " elements, the summary says ", s.elements_per_rank[rank]);

  // Region node sets.
  INERTIA_CHECK(m.region_owned_nodes.size() == index.regions.size(), InputError, "it has ",
                m.region_owned_nodes.size(), " region node sets for ", index.regions.size(),
                " regions");
  for (std::size_t r = 0; r < m.region_owned_nodes.size(); ++r)
    INERTIA_CHECK(increasing_within(m.region_owned_nodes[r], 0, m.num_owned), InputError,
                  "the node set of region ", m.regions[r].name, " is not increasing owned nodes");
}

}  // namespace

// ---- Sources ----------------------------------------------------------------------------------

SplitFile::SplitFile(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw_io_error(path, errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int e = errno;
    ::close(fd_);
    throw_io_error(path, e);
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

SplitFile::~SplitFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SplitFile::read(std::uint64_t offset, std::span<std::byte> out) const {
  INERTIA_ASSERT(offset <= size_ && out.size() <= size_ - offset);
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_io_error(path_, errno);
    INERTIA_CHECK(n > 0, InputError, path_.string(), ": the split was cut short while it was read",
                  make_it_again);
    done += static_cast<std::size_t>(n);
  }
}

void SplitBytes::read(std::uint64_t offset, std::span<std::byte> out) const {
  INERTIA_ASSERT(offset <= bytes_.size() && out.size() <= bytes_.size() - offset);
  std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(offset), out.size(), out.begin());
}

// ---- Reading ----------------------------------------------------------------------------------

SplitIndex read_split_index(const SplitSource& source, const std::string& name) {
  const std::uint64_t bytes = source.size();
  INERTIA_CHECK(bytes >= header_words * sizeof(Word), InputError, name,
                ": the split is truncated (", bytes, " bytes: not even its header)", make_it_again);
  const std::uint64_t file_words = bytes / sizeof(Word);
  Word head[header_words];
  source.read(0, std::as_writable_bytes(std::span(head)));
  INERTIA_CHECK(head[0] == split_magic, InputError, name,
                ": not a split made by inertia --split, or its header is damaged", make_it_again);
  INERTIA_CHECK(head[1] == split_format_version, InputError, name,
                ": not a split of this version of inertia (make it again with inertia --split)");
  const std::optional<IndexSizes> sizes = index_sizes(head, file_words);
  INERTIA_CHECK(sizes, InputError, name,
                ": the split's header is damaged, or the split truncated (its sizes do not fit in "
                "the file's ",
                bytes, " bytes)", make_it_again);
  const std::vector<Word> words = read_words(source, 0, sizes->words());
  INERTIA_CHECK(index_checksum(words) == words[checksum_word], InputError, name,
                ": the split's header is damaged (its checksum does not match)", make_it_again);

  // From here on the index is what was written: what is wrong is a bug or a hand-made file.
  const auto inconsistent = [&](const std::string& what) {
    return InputError(cat(name, ": the split's header is inconsistent: ", what, make_it_again));
  };
  if (sizes->parts > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw inconsistent(cat("a split for ", sizes->parts, " ranks"));
  SplitIndex index;
  index.parts = static_cast<int>(sizes->parts);
  const auto at = [&](std::uint64_t first, std::uint64_t count) {
    return std::span<const Word>(words.data() + first, count);
  };
  const auto offsets = at(sizes->offsets_begin(), sizes->parts + 1);
  const auto checksums = at(sizes->checksums_begin(), sizes->parts);
  index.share_offsets.assign(offsets.begin(), offsets.end());
  index.share_checksums.assign(checksums.begin(), checksums.end());
  index.shares_begin = sizes->words();
  for (std::size_t p = 0; p < index.share_offsets.size(); ++p)
    if (index.share_offsets[p] < (p == 0 ? 0 : index.share_offsets[p - 1]) ||
        (p == 0 && index.share_offsets[p] != 0))
      throw inconsistent("its share offsets are not increasing from 0");
  const std::uint64_t last = index.share_offsets.back();  // bounded below: no overflow
  const std::uint64_t expected = last <= file_words ? (index.shares_begin + last) * sizeof(Word)
                                                    : std::numeric_limits<std::uint64_t>::max();
  INERTIA_CHECK(bytes >= expected, InputError, name, ": the split is truncated (", bytes, " of ",
                expected, " bytes)", make_it_again);
  INERTIA_CHECK(bytes == expected, InputError, name, ": the split is damaged (", bytes - expected,
                " bytes more than its header says)", make_it_again);
  try {
    messages::unpack(at(sizes->facts_begin(), sizes->facts), messages::fact_fields(index));
    messages::unpack(at(sizes->stamp_begin(), sizes->stamp), std::tie(index.stamp));
    check_facts(index);
  } catch (const InputError& e) {
    throw inconsistent(e.what());
  }
  return index;
}

LocalMesh read_split_share(const SplitSource& source, const SplitIndex& index, int rank,
                           const std::string& name) {
  INERTIA_ASSERT(rank >= 0 && rank < index.parts);
  const std::uint64_t first = index.share_offsets[rank];
  const std::vector<Word> share =
      read_words(source, index.shares_begin + first, index.share_offsets[rank + 1] - first);
  INERTIA_CHECK(share_checksum(share) == index.share_checksums[rank], InputError, name,
                ": checksum of rank ", rank, "'s share does not match (the file is damaged)",
                make_it_again);
  LocalMesh local;
  try {
    messages::unpack(share, messages::share_fields(local));
    local.num_global_nodes = index.num_global_nodes;
    local.regions = index.regions;
    local.region_node_counts = index.region_node_counts;
    check_share(local, index, rank);
  } catch (const InputError& e) {
    throw InputError(
        cat(name, ": rank ", rank, "'s share is inconsistent: ", e.what(), make_it_again));
  }
  return local;
}

// ---- Writing ----------------------------------------------------------------------------------

std::uint64_t messages::write_split_file(const std::filesystem::path& file,
                                         const CommonFacts& facts, const std::string& stamp,
                                         const Word* shares, const std::vector<int>& counts,
                                         const std::vector<int>& displs) {
  const std::size_t parts = counts.size();
  const auto stamp_fields = std::tie(stamp);
  const IndexSizes sizes{parts, packed_words(fact_fields(facts)), packed_words(stamp_fields)};
  std::vector<Word> index(sizes.words());
  index[0] = split_magic;
  index[1] = split_format_version;
  index[2] = sizes.parts;
  index[3] = sizes.facts;
  index[4] = sizes.stamp;
  Word* offsets = index.data() + sizes.offsets_begin();
  Word* checksums = index.data() + sizes.checksums_begin();
  for (std::size_t p = 0; p < parts; ++p) {
    offsets[p] = static_cast<Word>(displs[p]);
    checksums[p] = share_checksum({shares + displs[p], static_cast<std::size_t>(counts[p])});
  }
  offsets[parts] = static_cast<Word>(displs.back()) + static_cast<Word>(counts.back());
  pack_into(index.data() + sizes.facts_begin(), sizes.facts, fact_fields(facts));
  pack_into(index.data() + sizes.stamp_begin(), sizes.stamp, stamp_fields);
  index[checksum_word] = index_checksum(index);
  const std::string_view index_bytes(reinterpret_cast<const char*>(index.data()),
                                     index.size() * sizeof(Word));
  const std::string_view share_bytes(reinterpret_cast<const char*>(shares),
                                     offsets[parts] * sizeof(Word));
  write_file_atomically(file, {index_bytes, share_bytes});
  return (index.size() + offsets[parts]) * sizeof(Word);
}

void reseal_split(std::span<std::byte> split) {
  const std::size_t file_words = split.size() / sizeof(Word);
  if (file_words < header_words) return;
  // The bytes may not be aligned for words: copy in and out.
  std::vector<Word> words(file_words);
  std::memcpy(words.data(), split.data(), file_words * sizeof(Word));
  const std::optional<IndexSizes> sizes = index_sizes(words.data(), file_words);
  if (!sizes) return;
  const std::uint64_t shares_begin = sizes->words();
  const Word* offsets = words.data() + sizes->offsets_begin();
  Word* checksums = words.data() + sizes->checksums_begin();
  for (std::uint64_t p = 0; p < sizes->parts; ++p) {
    const Word first = offsets[p], last = offsets[p + 1];
    if (first <= last && last <= file_words - shares_begin)
      checksums[p] = share_checksum({words.data() + shares_begin + first, last - first});
  }
  words[checksum_word] = index_checksum({words.data(), shares_begin});
  std::memcpy(split.data(), words.data(), file_words * sizeof(Word));
}

}  // namespace inertia
