/// \file distribute.cpp
/// distribute(): rank 0 places the cells and nodes of the partitioned serial mesh, numbers the
/// nodes so each rank owns a contiguous range and builds each rank's share (the LocalMesh that
/// rank will hold, less what every rank holds alike); one broadcast sends the common facts, one
/// scatter the shares, and every rank unpacks its own.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <tuple>
#include <type_traits>

#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

namespace {

// ---- Serialisation ----------------------------------------------------------------------------
// Messages are lists of fields (std::tie of members) copied bytewise into buffers of 8-byte
// words, the unit of the scatter and the broadcast. Vectors and strings are preceded by their
// size; vectors of trivially copyable values are copied in one piece.

using Word = std::uint64_t;

template <typename T>
concept Bytewise = std::is_trivially_copyable_v<T>;

/// Counts the bytes that writing a message takes.
struct ByteCounter {
  std::size_t bytes = 0;
  void write(const void*, std::size_t n) { bytes += n; }
};

/// Writes a message into memory sized with a ByteCounter.
struct ByteWriter {
  std::byte* out;
  void write(const void* p, std::size_t n) {
    if (n) std::memcpy(out, p, n);
    out += n;
  }
};

/// Reads a message in the order it was written.
struct ByteReader {
  const std::byte* in;
  const std::byte* end;
  void read(void* p, std::size_t n) {
    INERTIA_ASSERT(n <= static_cast<std::size_t>(end - in));
    if (n) std::memcpy(p, in, n);
    in += n;
  }
};

template <typename Sink, Bytewise T>
void put(Sink& s, const T& value) {
  s.write(&value, sizeof(T));
}
template <typename Sink>
void put(Sink& s, const std::string& text) {
  put(s, text.size());
  s.write(text.data(), text.size());
}
template <typename Sink>
void put(Sink& s, const Region& r) {
  put(s, r.name);
  put(s, r.dim);
  put(s, r.tag);
}
template <typename Sink, typename T>
void put(Sink& s, const std::vector<T>& v) {
  put(s, v.size());
  if constexpr (Bytewise<T>)
    s.write(v.data(), v.size() * sizeof(T));
  else
    for (const auto& x : v) put(s, x);
}

template <Bytewise T>
void get(ByteReader& r, T& value) {
  r.read(&value, sizeof(T));
}
void get(ByteReader& r, std::string& text) {
  std::size_t n = 0;
  get(r, n);
  text.resize(n);
  r.read(text.data(), n);
}
void get(ByteReader& r, Region& region) {
  get(r, region.name);
  get(r, region.dim);
  get(r, region.tag);
}
template <typename T>
void get(ByteReader& r, std::vector<T>& v) {
  std::size_t n = 0;
  get(r, n);
  if constexpr (Bytewise<T>) {
    INERTIA_ASSERT(n <= static_cast<std::size_t>(r.end - r.in) / sizeof(T));
    v.resize(n);
    r.read(v.data(), n * sizeof(T));
  } else {
    v.resize(n);
    for (auto& x : v) get(r, x);
  }
}

/// Writes every field of a message (a tuple of references) to `s`.
template <typename Sink, typename Fields>
void pack(Sink& s, const Fields& fields) {
  std::apply([&](const auto&... f) { (put(s, f), ...); }, fields);
}

/// Reads every field of a message from words written by pack().
template <typename Fields>
void unpack(std::span<const Word> words, Fields fields) {
  const auto* begin = reinterpret_cast<const std::byte*>(words.data());
  ByteReader r{begin, begin + words.size_bytes()};
  std::apply([&](auto&... f) { (get(r, f), ...); }, fields);
  INERTIA_ASSERT(static_cast<std::size_t>(r.end - r.in) < sizeof(Word));  // only the padding
}

/// Number of words a message takes.
template <typename Fields>
std::size_t packed_words(const Fields& fields) {
  ByteCounter counter;
  pack(counter, fields);
  return (counter.bytes + sizeof(Word) - 1) / sizeof(Word);
}

/// Packs a message into `words` words at `out` (as counted by packed_words).
template <typename Fields>
void pack_into(Word* out, std::size_t words, const Fields& fields) {
  if (words > 0) out[words - 1] = 0;  // the padding
  ByteWriter writer{reinterpret_cast<std::byte*>(out)};
  pack(writer, fields);
}

// ---- The messages -----------------------------------------------------------------------------

/// A rank's share: the fields of its LocalMesh that differ between ranks (the scatter).
template <typename Mesh>
auto share_fields(Mesh& m) {
  return std::tie(m.node_begin, m.num_owned, m.ghosts, m.coords, m.node_tags, m.natural_ids,
                  m.cell_types, m.cell_offsets, m.cell_nodes, m.cell_regions, m.cell_tags,
                  m.cell_is_element, m.region_owned_nodes);
}

/// What every rank holds alike (the broadcast).
struct CommonFacts {
  std::int64_t num_global_nodes = 0;
  std::vector<Region> regions;
  std::vector<std::int64_t> region_node_counts;
  PartitionSummary summary;
};

template <typename Facts>
auto fact_fields(Facts& f) {
  auto& s = f.summary;
  return std::tie(f.num_global_nodes, f.regions, f.region_node_counts, s.method, s.quality,
                  s.elements_per_rank, s.owned_nodes_per_rank, s.ghost_nodes_per_rank,
                  s.dropped_cells);
}

// ---- Rank 0: placement, numbering, shares -----------------------------------------------------

/// Where the cells and nodes go.
struct Placement {
  std::vector<int> cell_rank;   ///< per mesh cell; -1 if dropped
  std::vector<int> node_owner;  ///< per mesh node; the number of ranks if in no element
  std::vector<std::vector<std::int64_t>> cells_of;  ///< per rank: its cells in mesh order
  std::int64_t dropped = 0;  ///< lower-dimensional cells with a node in no element
};

/// Element cells go to their part, and a node to the lowest rank among its element cells. Other
/// cells go with the owner of their first node if all their nodes are element nodes, else are
/// dropped.
Placement place_cells_and_nodes(const MeshData& mesh, const std::vector<char>& is_element,
                                const CellPartition& partition, int size) {
  Placement pl;
  pl.node_owner.assign(static_cast<std::size_t>(mesh.num_nodes()), size);
  pl.cell_rank.assign(static_cast<std::size_t>(mesh.num_cells()), -1);
  for (std::size_t e = 0; e < partition.elements.size(); ++e) {
    const std::int64_t c = partition.elements[e];
    pl.cell_rank[c] = partition.part[e];
    for (auto n : mesh.nodes_of(c))
      pl.node_owner[n] = std::min(pl.node_owner[n], partition.part[e]);
  }
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (is_element[c]) continue;
    const auto nodes = mesh.nodes_of(c);
    if (std::all_of(nodes.begin(), nodes.end(), [&](auto n) { return pl.node_owner[n] < size; }))
      pl.cell_rank[c] = pl.node_owner[nodes[0]];
    else
      ++pl.dropped;
  }
  pl.cells_of.resize(static_cast<std::size_t>(size));
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    if (pl.cell_rank[c] >= 0) pl.cells_of[pl.cell_rank[c]].push_back(c);
  return pl;
}

/// The global node numbering of the kept nodes (those in an element).
struct Numbering {
  std::vector<std::int64_t> begin;    ///< rank p owns the new ids [begin[p], begin[p + 1])
  std::vector<std::int64_t> new_id;   ///< per mesh node; -1 if not kept
  std::vector<std::int64_t> natural;  ///< per mesh node: its index among the kept nodes
  std::vector<std::int64_t> old_of;   ///< per new id: the mesh node
};

/// New ids: contiguous per owner, file order within an owner. Natural ids: file order of the
/// kept nodes (independent of the number of ranks; checkpoints are written in this order).
Numbering number_nodes(const std::vector<int>& owner, int size) {
  const auto nn = static_cast<std::int64_t>(owner.size());
  Numbering num;
  num.begin.assign(static_cast<std::size_t>(size) + 1, 0);
  for (std::int64_t n = 0; n < nn; ++n)
    if (owner[n] < size) ++num.begin[owner[n] + 1];
  std::partial_sum(num.begin.begin(), num.begin.end(), num.begin.begin());
  num.new_id.assign(static_cast<std::size_t>(nn), -1);
  num.natural.assign(static_cast<std::size_t>(nn), -1);
  num.old_of.resize(static_cast<std::size_t>(num.begin[size]));
  std::vector<std::int64_t> next(num.begin.begin(), num.begin.end() - 1);
  std::int64_t next_natural = 0;
  for (std::int64_t n = 0; n < nn; ++n) {
    if (owner[n] == size) continue;
    num.new_id[n] = next[owner[n]]++;
    num.natural[n] = next_natural++;
    num.old_of[num.new_id[n]] = n;
  }
  return num;
}

/// Per region: the new ids of the nodes of its kept cells, sorted and unique.
std::vector<std::vector<std::int64_t>> region_node_sets(const MeshData& mesh, const Placement& pl,
                                                        const Numbering& num) {
  std::vector<std::vector<std::int64_t>> sets(mesh.regions.size());
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (pl.cell_rank[c] < 0 || mesh.cell_regions[c] < 0) continue;
    auto& set = sets[mesh.cell_regions[c]];
    for (auto n : mesh.nodes_of(c)) set.push_back(num.new_id[n]);
  }
  for (auto& set : sets) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  return sets;
}

/// What rank 0 knows once cells and nodes are placed and numbered.
struct Layout {
  const MeshData& mesh;
  const std::vector<char>& is_element;
  Placement placement;
  Numbering numbering;
  std::vector<std::vector<std::int64_t>> region_nodes;  ///< region_node_sets()
};

/// Rank p's nodes: the owned range, then the ghosts (nodes of its cells owned elsewhere, sorted),
/// with their coordinates and tags, and the natural ids of the owned ones.
void add_nodes(const Layout& lay, int p, LocalMesh& share) {
  const MeshData& mesh = lay.mesh;
  const Numbering& num = lay.numbering;
  share.node_begin = num.begin[p];
  share.num_owned = static_cast<std::int32_t>(num.begin[p + 1] - num.begin[p]);
  for (auto c : lay.placement.cells_of[p])
    for (auto n : mesh.nodes_of(c))
      if (lay.placement.node_owner[n] != p) share.ghosts.push_back(num.new_id[n]);
  std::sort(share.ghosts.begin(), share.ghosts.end());
  share.ghosts.erase(std::unique(share.ghosts.begin(), share.ghosts.end()), share.ghosts.end());
  share.ghosts.shrink_to_fit();

  const std::size_t num_local = share.num_owned + share.ghosts.size();
  share.node_tags.reserve(num_local);
  share.coords.reserve(3 * num_local);
  share.natural_ids.reserve(share.num_owned);
  auto add_node = [&](std::int64_t g) {
    const std::int64_t old = num.old_of[g];
    share.node_tags.push_back(mesh.node_tags[old]);
    share.coords.insert(share.coords.end(), &mesh.coords[3 * old], &mesh.coords[3 * old] + 3);
  };
  for (std::int64_t g = num.begin[p]; g < num.begin[p + 1]; ++g) {
    add_node(g);
    share.natural_ids.push_back(num.natural[num.old_of[g]]);
  }
  for (auto g : share.ghosts) add_node(g);
}

/// The local index of global node g in a share whose nodes are set (add_nodes).
std::int64_t local_index(const LocalMesh& share, std::int64_t g) {
  if (g >= share.node_begin && g < share.node_begin + share.num_owned) return g - share.node_begin;
  const auto it = std::lower_bound(share.ghosts.begin(), share.ghosts.end(), g);
  return share.num_owned + (it - share.ghosts.begin());
}

/// Rank p's cells in mesh order, their nodes as local indices.
void add_cells(const Layout& lay, int p, LocalMesh& share) {
  const MeshData& mesh = lay.mesh;
  const auto& cells = lay.placement.cells_of[p];
  std::size_t num_nodes = 0;
  for (auto c : cells) num_nodes += mesh.nodes_of(c).size();
  share.cell_types.reserve(cells.size());
  share.cell_offsets.reserve(cells.size() + 1);
  share.cell_nodes.reserve(num_nodes);
  share.cell_regions.reserve(cells.size());
  share.cell_tags.reserve(cells.size());
  share.cell_is_element.reserve(cells.size());
  for (auto c : cells) {
    share.cell_types.push_back(mesh.cell_types[c]);
    for (auto n : mesh.nodes_of(c))
      share.cell_nodes.push_back(local_index(share, lay.numbering.new_id[n]));
    share.cell_offsets.push_back(static_cast<std::int64_t>(share.cell_nodes.size()));
    share.cell_regions.push_back(mesh.cell_regions[c]);
    share.cell_tags.push_back(mesh.cell_tags[c]);
    share.cell_is_element.push_back(lay.is_element[c]);
  }
}

/// Per region: rank p's owned nodes in it (local indices, sorted).
void add_region_nodes(const Layout& lay, int p, LocalMesh& share) {
  const std::int64_t begin = lay.numbering.begin[p], end = lay.numbering.begin[p + 1];
  for (const auto& set : lay.region_nodes) {
    const auto lo = std::lower_bound(set.begin(), set.end(), begin);
    const auto hi = std::lower_bound(set.begin(), set.end(), end);
    auto& owned = share.region_owned_nodes.emplace_back();
    owned.reserve(static_cast<std::size_t>(hi - lo));
    for (auto it = lo; it != hi; ++it) owned.push_back(static_cast<std::int32_t>(*it - begin));
  }
}

/// Every rank's share: nodes, cells, region node sets.
std::vector<LocalMesh> build_shares(const Layout& lay, int size) {
  std::vector<LocalMesh> shares(static_cast<std::size_t>(size));
  for (int p = 0; p < size; ++p) {
    add_nodes(lay, p, shares[p]);
    add_cells(lay, p, shares[p]);
    add_region_nodes(lay, p, shares[p]);
  }
  return shares;
}

/// The facts every rank gets: node count, regions and their node counts, the summary.
CommonFacts common_facts(const Layout& lay, const CellPartition& partition,
                         const std::vector<LocalMesh>& shares) {
  CommonFacts facts;
  facts.num_global_nodes = lay.numbering.begin.back();
  facts.regions = lay.mesh.regions;
  for (const auto& set : lay.region_nodes)
    facts.region_node_counts.push_back(static_cast<std::int64_t>(set.size()));
  PartitionSummary& s = facts.summary;
  s.method = partition.method == Partitioner::metis ? "metis" : "block";
  s.quality = partition.quality;
  s.dropped_cells = lay.placement.dropped;
  for (const auto& share : shares) {
    const auto& element = share.cell_is_element;
    s.elements_per_rank.push_back(
        std::count_if(element.begin(), element.end(), [](char e) { return e != 0; }));
    s.owned_nodes_per_rank.push_back(share.num_owned);
    s.ghost_nodes_per_rank.push_back(static_cast<std::int64_t>(share.ghosts.size()));
  }
  return facts;
}

// ---- Moving the data --------------------------------------------------------------------------

int checked_count(std::size_t n) {
  INERTIA_CHECK(n <= static_cast<std::size_t>(std::numeric_limits<int>::max()), Error,
                "mesh too large to scatter from rank 0 in one message (", n, " words)");
  return static_cast<int>(n);
}

/// Rank 0's send buffer: every rank's packed share, rank after rank.
struct SendBuffer {
  std::unique_ptr<Word[]> words;
  std::vector<int> counts, displs;  ///< per rank, in words
};

/// Packs the shares into one buffer, releasing each share once it is packed.
SendBuffer pack_shares(std::vector<LocalMesh>& shares) {
  SendBuffer send;
  std::size_t total = 0;
  for (const auto& share : shares) {
    const std::size_t words = packed_words(share_fields(share));
    send.counts.push_back(checked_count(words));
    send.displs.push_back(checked_count(total));
    total += words;
  }
  send.words = std::make_unique_for_overwrite<Word[]>(total);
  for (std::size_t p = 0; p < shares.size(); ++p) {
    pack_into(send.words.get() + send.displs[p], send.counts[p], share_fields(shares[p]));
    shares[p] = LocalMesh{};
  }
  return send;
}

/// Rank 0's whole part: checks, places and numbers the nodes, builds and packs the shares.
SendBuffer pack_on_root(const MeshData& mesh, const std::vector<char>& is_element,
                        const CellPartition& partition, int size, CommonFacts& facts) {
  INERTIA_CHECK(static_cast<std::int64_t>(is_element.size()) == mesh.num_cells() &&
                    partition.part.size() == partition.elements.size(),
                InternalError, "distribute: is_element or the partition has the wrong size");
  std::vector<LocalMesh> shares;
  {
    Layout lay{mesh, is_element, place_cells_and_nodes(mesh, is_element, partition, size)};
    lay.numbering = number_nodes(lay.placement.node_owner, size);
    lay.region_nodes = region_node_sets(mesh, lay.placement, lay.numbering);
    shares = build_shares(lay, size);
    facts = common_facts(lay, partition, shares);
  }
  return pack_shares(shares);
}

/// Collective. Rank 0's facts, on every rank.
void broadcast(MPI_Comm comm, CommonFacts& facts) {
  const bool root = rank_of(comm) == 0;
  std::uint64_t num_words = root ? packed_words(fact_fields(facts)) : 0;
  INERTIA_MPI(MPI_Bcast(&num_words, 1, MPI_UINT64_T, 0, comm));
  std::vector<Word> words(num_words);
  if (root) pack_into(words.data(), words.size(), fact_fields(facts));
  INERTIA_MPI(MPI_Bcast(words.data(), checked_count(words.size()), MPI_UINT64_T, 0, comm));
  if (!root) unpack(words, fact_fields(facts));
}

/// Collective. Each rank's words of rank 0's buffer (freed on return).
std::vector<Word> scatter(MPI_Comm comm, SendBuffer send) {
  int mine = 0;
  INERTIA_MPI(MPI_Scatter(send.counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, comm));
  std::vector<Word> words(static_cast<std::size_t>(mine));
  INERTIA_MPI(MPI_Scatterv(send.words.get(), send.counts.data(), send.displs.data(), MPI_UINT64_T,
                           words.data(), mine, MPI_UINT64_T, 0, comm));
  return words;
}

/// This rank's LocalMesh: its unpacked share and the common facts.
LocalMesh unpack_local_mesh(const std::vector<Word>& words, const CommonFacts& facts) {
  LocalMesh local;
  unpack(words, share_fields(local));
  local.num_global_nodes = facts.num_global_nodes;
  local.regions = facts.regions;
  local.region_node_counts = facts.region_node_counts;
  return local;
}

}  // namespace

LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     Partitioner method, PartitionSummary* summary) {
  CellPartition p;
  run_on_root(comm, [&] { p = partition_elements(mesh, is_element, size_of(comm), method); });
  return distribute(comm, mesh, is_element, p, summary);
}

LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     const CellPartition& partition, PartitionSummary* summary) {
  CommonFacts facts;
  SendBuffer send;
  run_on_root(comm,
              [&] { send = pack_on_root(mesh, is_element, partition, size_of(comm), facts); });
  broadcast(comm, facts);
  LocalMesh local = unpack_local_mesh(scatter(comm, std::move(send)), facts);
  if (summary) *summary = std::move(facts.summary);
  return local;
}

// ---- Splits: the scatter's messages in a file
// ---------------------------------------------------- Layout, all in 8-byte words: magic, version,
// parts, facts words F, stamp words S; parts + 1 offsets (in words, from the start of the shares);
// the facts (F words); the stamp (S words); then each part's share. A rank reads the header, the
// offsets, the facts and the stamp (a few words per rank in all) and its own share: never the whole
// mesh.

namespace {

constexpr Word split_magic = 0x54494c5053544e49;  // "INTSPLIT", little-endian
constexpr Word split_version = 1;
constexpr std::size_t split_header_words = 5;

}  // namespace

std::uint64_t write_split(const std::filesystem::path& file, const MeshData& mesh,
                          const std::vector<char>& is_element, const CellPartition& partition,
                          int parts, const std::string& stamp, PartitionSummary* summary) {
  CommonFacts facts;
  SendBuffer send = pack_on_root(mesh, is_element, partition, parts, facts);
  std::vector<Word> head(split_header_words + static_cast<std::size_t>(parts) + 1);
  const std::size_t facts_words = packed_words(fact_fields(facts));
  const auto stamp_fields = std::tie(stamp);
  const std::size_t stamp_words = packed_words(stamp_fields);
  head[0] = split_magic;
  head[1] = split_version;
  head[2] = static_cast<Word>(parts);
  head[3] = facts_words;
  head[4] = stamp_words;
  for (int p = 0; p < parts; ++p) head[split_header_words + p] = static_cast<Word>(send.displs[p]);
  head.back() = static_cast<Word>(send.displs.back()) + static_cast<Word>(send.counts.back());
  std::vector<Word> middle(facts_words + stamp_words);
  pack_into(middle.data(), facts_words, fact_fields(facts));
  pack_into(middle.data() + facts_words, stamp_words, stamp_fields);
  const auto as_bytes = [](const std::vector<Word>& w) {
    return std::string_view(reinterpret_cast<const char*>(w.data()), w.size() * sizeof(Word));
  };
  const std::string_view shares(reinterpret_cast<const char*>(send.words.get()),
                                head.back() * sizeof(Word));
  write_file_atomically(file, {as_bytes(head), as_bytes(middle), shares});
  if (summary) *summary = std::move(facts.summary);
  return (head.size() + middle.size() + head.back()) * sizeof(Word);
}

LocalMesh read_split(MPI_Comm comm, const std::filesystem::path& file, PartitionSummary* summary,
                     std::string* stamp) {
  LocalMesh local;
  CommonFacts facts;
  std::string read_stamp;
  std::exception_ptr error;
  try {
    std::ifstream in(file, std::ios::binary);
    INERTIA_CHECK(in, InputError, file.string(), ": cannot open the split");
    const auto read = [&](std::uint64_t word, std::size_t count, Word* out) {
      in.seekg(static_cast<std::streamoff>(word * sizeof(Word)));
      in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(count * sizeof(Word)));
      INERTIA_CHECK(in && static_cast<std::size_t>(in.gcount()) == count * sizeof(Word), InputError,
                    file.string(),
                    ": the split is truncated or damaged (make it again with inertia --split)");
    };
    Word head[split_header_words];
    read(0, split_header_words, head);
    INERTIA_CHECK(head[0] == split_magic && head[1] == split_version, InputError, file.string(),
                  ": not a split of this version of inertia (make it again with inertia --split)");
    const auto parts = static_cast<std::size_t>(head[2]);
    INERTIA_CHECK(parts == static_cast<std::size_t>(size_of(comm)), InputError, file.string(),
                  " is split for ", parts, " ranks, not ", size_of(comm));
    std::vector<Word> offsets(parts + 1);
    read(split_header_words, parts + 1, offsets.data());
    const std::uint64_t middle_begin = split_header_words + parts + 1;
    std::vector<Word> middle(head[3] + head[4]);
    read(middle_begin, middle.size(), middle.data());
    unpack(std::span<const Word>(middle.data(), head[3]), fact_fields(facts));
    unpack(std::span<const Word>(middle.data() + head[3], head[4]), std::tie(read_stamp));
    const auto r = static_cast<std::size_t>(rank_of(comm));
    INERTIA_CHECK(offsets[r] <= offsets[r + 1] && offsets[r + 1] <= offsets[parts], InputError,
                  file.string(), ": the split is damaged (make it again with inertia --split)");
    std::vector<Word> share(offsets[r + 1] - offsets[r]);
    read(middle_begin + middle.size() + offsets[r], share.size(), share.data());
    local = unpack_local_mesh(share, facts);
  } catch (...) {
    error = std::current_exception();
  }
  rethrow_collectively(comm, error);
  if (summary) *summary = std::move(facts.summary);
  if (stamp) *stamp = std::move(read_stamp);
  return local;
}

}  // namespace inertia
