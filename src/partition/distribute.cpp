/// \file distribute.cpp
/// distribute(): rank 0 places the cells and nodes of the partitioned serial mesh, numbers the
/// nodes so each rank owns a contiguous range and builds each rank's share (the LocalMesh that
/// rank will hold, less what every rank holds alike); one broadcast sends the common facts, one
/// scatter the shares, and every rank unpacks its own.
#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <span>
#include <tuple>

#include "inertia/core/error.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/mesh/rotation_nodes.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"
#include "inertia/partition/split_file.hpp"
#include "messages.hpp"

namespace inertia {

namespace {

using messages::CommonFacts;
using messages::fact_fields;
using messages::pack_into;
using messages::packed_words;
using messages::share_fields;
using messages::unpack;
using messages::Word;

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

/// Per region: the new ids of the nodes of its kept cells, with the rotation nodes of those
/// that have one (a condition on rotations finds them there), sorted and unique; and per region
/// its number of nodes with translations (the rotation nodes not counted).
struct RegionNodes {
  std::vector<std::vector<std::int64_t>> sets;
  std::vector<std::int64_t> counts;
};

RegionNodes region_node_sets(const MeshData& mesh, const Placement& pl, const Numbering& num) {
  const std::vector<std::int64_t> rotation = rotation_node_of(mesh);
  std::vector<char> is_rotation(rotation.size(), 0);
  for (const auto r : rotation)
    if (r >= 0) is_rotation[static_cast<std::size_t>(r)] = 1;
  RegionNodes out;
  out.sets.resize(mesh.regions.size());
  out.counts.assign(mesh.regions.size(), 0);
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (pl.cell_rank[c] < 0 || mesh.cell_regions[c] < 0) continue;
    auto& set = out.sets[mesh.cell_regions[c]];
    for (auto n : mesh.nodes_of(c)) {
      set.push_back(num.new_id[n]);
      if (rotation[static_cast<std::size_t>(n)] >= 0)
        set.push_back(num.new_id[rotation[static_cast<std::size_t>(n)]]);
    }
  }
  for (std::size_t r = 0; r < out.sets.size(); ++r) {
    auto& set = out.sets[r];
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    for (const auto g : set)
      out.counts[r] += is_rotation[static_cast<std::size_t>(num.old_of[g])] ? 0 : 1;
  }
  return out;
}

/// What rank 0 knows once cells and nodes are placed and numbered.
struct Layout {
  const MeshData& mesh;
  const std::vector<char>& is_element;
  Placement placement;
  Numbering numbering;
  RegionNodes region_nodes;  ///< region_node_sets()
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
  for (const auto& set : lay.region_nodes.sets) {
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
  facts.region_node_counts = lay.region_nodes.counts;
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

// ---- Splits: the scatter's messages in a file (split_file.hpp) ----------------------------------

std::uint64_t write_split(const std::filesystem::path& file, const MeshData& mesh,
                          const std::vector<char>& is_element, const CellPartition& partition,
                          int parts, const std::string& stamp, PartitionSummary* summary) {
  CommonFacts facts;
  const SendBuffer send = pack_on_root(mesh, is_element, partition, parts, facts);
  const std::uint64_t bytes =
      messages::write_split_file(file, facts, stamp, send.words.get(), send.counts, send.displs);
  if (summary) *summary = std::move(facts.summary);
  return bytes;
}

LocalMesh read_split(MPI_Comm comm, const std::filesystem::path& file, PartitionSummary* summary,
                     std::string* stamp) {
  LocalMesh local;
  SplitIndex index;
  const std::string name = file.string();
  run_collectively(comm, [&] {
    const SplitFile source(file);
    index = read_split_index(source, name);
    INERTIA_CHECK(index.parts == size_of(comm), InputError, name, " is split for ", index.parts,
                  " ranks, not ", size_of(comm));
    local = read_split_share(source, index, rank_of(comm), name);
  });
  // Each share's natural ids are checked to lie below the node count; together they must be
  // each node once (checkpoints are written in this order): compare an order-independent hash
  // of them with that of the owned ranges, which are each node once.
  std::uint64_t sums[2] = {0, 0};
  for (std::int32_t i = 0; i < local.num_owned; ++i) {
    sums[0] = combine_unordered(sums[0], static_cast<std::uint64_t>(local.natural_ids[i]));
    sums[1] = combine_unordered(sums[1], static_cast<std::uint64_t>(local.node_begin + i));
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT64_T, MPI_SUM, comm));
  INERTIA_CHECK(sums[0] == sums[1], InputError, name,
                ": the split is inconsistent: its shares' natural node ids are not each node "
                "once; make it again with inertia --split");
  if (summary) *summary = std::move(index.summary);
  if (stamp) *stamp = std::move(index.stamp);
  return local;
}

}  // namespace inertia
