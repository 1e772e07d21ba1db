#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "inertia/core/error.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

namespace {

/// One rank's share as two flat buffers (integers and doubles); see pack() for the layout.
struct Message {
  std::vector<std::int64_t> ints;
  std::vector<double> reals;
};

int checked_count(std::size_t n) {
  INERTIA_CHECK(n <= static_cast<std::size_t>(std::numeric_limits<int>::max()), Error,
                "mesh too large to scatter from rank 0 in one message (", n, " values)");
  return static_cast<int>(n);
}

/// Scatters variable-length buffers from rank 0 (one per rank) and returns this rank's.
template <typename T>
std::vector<T> scatter(MPI_Comm comm, const std::vector<std::vector<T>>& parts, MPI_Datatype type) {
  const int size = size_of(comm), rank = rank_of(comm);
  std::vector<int> counts(size), displs(size);
  std::vector<T> flat;
  if (rank == 0) {
    std::size_t total = 0;
    for (int p = 0; p < size; ++p) {
      counts[p] = checked_count(parts[p].size());
      displs[p] = checked_count(total);
      total += parts[p].size();
    }
    flat.reserve(total);
    for (const auto& part : parts) flat.insert(flat.end(), part.begin(), part.end());
  }
  int mine = 0;
  INERTIA_MPI(MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, comm));
  std::vector<T> out(static_cast<std::size_t>(mine));
  INERTIA_MPI(MPI_Scatterv(flat.data(), counts.data(), displs.data(), type, out.data(), mine, type,
                           0, comm));
  return out;
}

void broadcast_regions(MPI_Comm comm, std::vector<Region>& regions) {
  std::string names;
  std::vector<std::int64_t> meta;
  for (const auto& r : regions) {
    names += r.name;
    names.push_back('\0');
    meta.insert(meta.end(), {r.dim, r.tag});
  }
  std::int64_t sizes[2] = {static_cast<std::int64_t>(names.size()),
                           static_cast<std::int64_t>(meta.size())};
  INERTIA_MPI(MPI_Bcast(sizes, 2, MPI_INT64_T, 0, comm));
  names.resize(sizes[0]);
  meta.resize(sizes[1]);
  INERTIA_MPI(MPI_Bcast(names.data(), static_cast<int>(sizes[0]), MPI_CHAR, 0, comm));
  INERTIA_MPI(MPI_Bcast(meta.data(), static_cast<int>(sizes[1]), MPI_INT64_T, 0, comm));
  regions.clear();
  std::size_t pos = 0;
  for (std::size_t r = 0; r < meta.size() / 2; ++r) {
    const std::size_t end = names.find('\0', pos);
    regions.push_back({names.substr(pos, end - pos), static_cast<int>(meta[2 * r]),
                       static_cast<int>(meta[2 * r + 1])});
    pos = end + 1;
  }
}

}  // namespace

CellPartition partition_elements(const MeshData& mesh, const std::vector<char>& is_element,
                                 int num_parts, Partitioner method) {
  INERTIA_CHECK(static_cast<std::int64_t>(is_element.size()) == mesh.num_cells(), InternalError,
                "partition_elements: is_element has the wrong size");
  CellPartition p;
  p.method = method;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    if (is_element[c]) p.elements.push_back(c);
  p.part = partition_cells(mesh, p.elements, num_parts, method, &p.quality);
  return p;
}

LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     Partitioner method, PartitionSummary* summary) {
  CellPartition p;
  run_on_root(comm, [&] { p = partition_elements(mesh, is_element, size_of(comm), method); });
  return distribute(comm, mesh, is_element, p, summary);
}

LocalMesh distribute(MPI_Comm comm, const MeshData& mesh, const std::vector<char>& is_element,
                     const CellPartition& partition, PartitionSummary* summary) {
  const int size = size_of(comm), rank = rank_of(comm);
  std::vector<Message> messages;
  std::vector<std::int64_t> header;  // rank-0 summary, broadcast below
  std::vector<Region> regions;
  std::vector<std::int64_t> region_counts;

  run_on_root(comm, [&] {
    INERTIA_CHECK(static_cast<std::int64_t>(is_element.size()) == mesh.num_cells() &&
                      partition.part.size() == partition.elements.size(),
                  InternalError, "distribute: is_element or the partition has the wrong size");
    const std::vector<std::int64_t>& elements = partition.elements;
    const std::vector<int>& part = partition.part;
    const PartitionQuality& quality = partition.quality;
    const Partitioner method = partition.method;

    // Owner of a node: the lowest rank among the element cells that contain it.
    const std::int64_t nn = mesh.num_nodes();
    std::vector<int> owner(static_cast<std::size_t>(nn), size);
    std::vector<int> cell_rank(static_cast<std::size_t>(mesh.num_cells()), -1);
    for (std::size_t e = 0; e < elements.size(); ++e) {
      cell_rank[elements[e]] = part[e];
      for (auto n : mesh.nodes_of(elements[e])) owner[n] = std::min(owner[n], part[e]);
    }
    // Other cells go with the owner of their first node, if all their nodes are element nodes.
    std::int64_t dropped = 0;
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
      if (is_element[c]) continue;
      const auto nodes = mesh.nodes_of(c);
      const bool attached =
          std::all_of(nodes.begin(), nodes.end(), [&](auto n) { return owner[n] < size; });
      if (attached)
        cell_rank[c] = owner[nodes[0]];
      else
        ++dropped;
    }
    // New global numbering: contiguous per owner, file order within an owner.
    std::vector<std::int64_t> begin(static_cast<std::size_t>(size) + 1, 0);
    for (std::int64_t n = 0; n < nn; ++n)
      if (owner[n] < size) ++begin[owner[n] + 1];
    std::partial_sum(begin.begin(), begin.end(), begin.begin());
    std::vector<std::int64_t> new_id(static_cast<std::size_t>(nn), -1);
    {
      std::vector<std::int64_t> next(begin.begin(), begin.end() - 1);
      for (std::int64_t n = 0; n < nn; ++n)
        if (owner[n] < size) new_id[n] = next[owner[n]]++;
    }
    // Region node sets (new global ids, sorted, unique).
    const auto nregions = mesh.regions.size();
    std::vector<std::vector<std::int64_t>> region_nodes(nregions);
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
      if (cell_rank[c] < 0 || mesh.cell_regions[c] < 0) continue;
      auto& list = region_nodes[mesh.cell_regions[c]];
      for (auto n : mesh.nodes_of(c)) list.push_back(new_id[n]);
    }
    for (auto& list : region_nodes) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      region_counts.push_back(static_cast<std::int64_t>(list.size()));
    }
    // Natural id: the node's index among the kept nodes in file order (independent of the
    // number of ranks; checkpoints are written in this order).
    std::vector<std::int64_t> natural(static_cast<std::size_t>(nn), -1);
    {
      std::int64_t next = 0;
      for (std::int64_t n = 0; n < nn; ++n)
        if (owner[n] < size) natural[n] = next++;
    }
    // The old index of each new global node, to look up coordinates and tags.
    std::vector<std::int64_t> old_of(static_cast<std::size_t>(begin[size]));
    for (std::int64_t n = 0; n < nn; ++n)
      if (new_id[n] >= 0) old_of[new_id[n]] = n;

    // Cells per rank.
    std::vector<std::vector<std::int64_t>> cells_of(size);
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
      if (cell_rank[c] >= 0) cells_of[cell_rank[c]].push_back(c);

    messages.resize(size);
    header = {begin[size], static_cast<std::int64_t>(method == Partitioner::metis), quality.edge_cut,
              dropped};
    std::int64_t imbalance_bits;
    static_assert(sizeof(double) == sizeof(std::int64_t));
    std::memcpy(&imbalance_bits, &quality.imbalance, sizeof(double));
    header.push_back(imbalance_bits);
    for (int p = 0; p < size; ++p) {
      // Ghosts: referenced nodes owned by another rank.
      std::vector<std::int64_t> ghosts;
      std::int64_t num_elements = 0;
      for (auto c : cells_of[p]) {
        num_elements += is_element[c] ? 1 : 0;
        for (auto n : mesh.nodes_of(c))
          if (owner[n] != p) ghosts.push_back(new_id[n]);
      }
      std::sort(ghosts.begin(), ghosts.end());
      ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
      const std::int64_t num_owned = begin[p + 1] - begin[p];
      auto local_of = [&](std::int64_t old) {
        const std::int64_t g = new_id[old];
        if (g >= begin[p] && g < begin[p + 1]) return g - begin[p];
        return num_owned + (std::lower_bound(ghosts.begin(), ghosts.end(), g) - ghosts.begin());
      };
      auto& ints = messages[p].ints;
      auto& reals = messages[p].reals;
      ints = {num_owned, begin[p], static_cast<std::int64_t>(ghosts.size())};
      ints.insert(ints.end(), ghosts.begin(), ghosts.end());
      auto add_node = [&](std::int64_t g) {
        const std::int64_t old = old_of[g];
        ints.push_back(mesh.node_tags[old]);
        reals.insert(reals.end(), &mesh.coords[3 * old], &mesh.coords[3 * old] + 3);
      };
      for (std::int64_t g = begin[p]; g < begin[p + 1]; ++g) add_node(g);
      for (auto g : ghosts) add_node(g);
      for (std::int64_t g = begin[p]; g < begin[p + 1]; ++g) ints.push_back(natural[old_of[g]]);
      ints.push_back(static_cast<std::int64_t>(cells_of[p].size()));
      for (auto c : cells_of[p]) {
        const auto nodes = mesh.nodes_of(c);
        ints.insert(ints.end(), {static_cast<std::int64_t>(mesh.cell_types[c]),
                                 mesh.cell_regions[c], mesh.cell_tags[c],
                                 static_cast<std::int64_t>(is_element[c])});
        for (auto n : nodes) ints.push_back(local_of(n));
      }
      for (const auto& list : region_nodes) {
        auto lo = std::lower_bound(list.begin(), list.end(), begin[p]);
        auto hi = std::lower_bound(list.begin(), list.end(), begin[p + 1]);
        ints.push_back(hi - lo);
        for (auto it = lo; it != hi; ++it) ints.push_back(*it - begin[p]);
      }
      header.insert(header.end(), {num_elements, num_owned, static_cast<std::int64_t>(ghosts.size())});
    }
    regions = mesh.regions;
  });

  // Global facts, then each rank's share.
  std::int64_t header_size = static_cast<std::int64_t>(header.size());
  INERTIA_MPI(MPI_Bcast(&header_size, 1, MPI_INT64_T, 0, comm));
  header.resize(header_size);
  INERTIA_MPI(MPI_Bcast(header.data(), static_cast<int>(header_size), MPI_INT64_T, 0, comm));
  broadcast_regions(comm, regions);
  region_counts.resize(regions.size());
  INERTIA_MPI(MPI_Bcast(region_counts.data(), static_cast<int>(region_counts.size()), MPI_INT64_T,
                        0, comm));

  std::vector<std::vector<std::int64_t>> int_parts;
  std::vector<std::vector<double>> real_parts;
  if (rank == 0)
    for (auto& m : messages) {
      int_parts.push_back(std::move(m.ints));
      real_parts.push_back(std::move(m.reals));
    }
  const std::vector<std::int64_t> ints = scatter(comm, int_parts, MPI_INT64_T);
  std::vector<double> reals = scatter(comm, real_parts, MPI_DOUBLE);
  int_parts.clear();
  real_parts.clear();

  LocalMesh local;
  local.num_global_nodes = header[0];
  std::size_t pos = 0;
  auto next = [&] { return ints.at(pos++); };
  local.num_owned = static_cast<std::int32_t>(next());
  local.node_begin = next();
  local.ghosts.resize(static_cast<std::size_t>(next()));
  for (auto& g : local.ghosts) g = next();
  const std::int64_t num_local = local.num_owned + static_cast<std::int64_t>(local.ghosts.size());
  local.node_tags.resize(static_cast<std::size_t>(num_local));
  for (auto& t : local.node_tags) t = next();
  local.natural_ids.resize(static_cast<std::size_t>(local.num_owned));
  for (auto& t : local.natural_ids) t = next();
  local.coords = std::move(reals);
  const std::int64_t ncells = next();
  local.cell_types.reserve(ncells);
  for (std::int64_t c = 0; c < ncells; ++c) {
    const auto type = static_cast<CellType>(next());
    local.cell_types.push_back(type);
    local.cell_regions.push_back(static_cast<std::int32_t>(next()));
    local.cell_tags.push_back(next());
    local.cell_is_element.push_back(static_cast<char>(next()));
    for (int i = 0; i < info(type).num_nodes; ++i) local.cell_nodes.push_back(next());
    local.cell_offsets.push_back(static_cast<std::int64_t>(local.cell_nodes.size()));
  }
  local.regions = regions;
  local.region_node_counts = region_counts;
  local.region_owned_nodes.resize(regions.size());
  for (auto& list : local.region_owned_nodes) {
    list.resize(static_cast<std::size_t>(next()));
    for (auto& n : list) n = static_cast<std::int32_t>(next());
  }
  INERTIA_ASSERT(pos == ints.size());

  if (summary) {
    summary->method = header[1] ? "metis" : "block";
    summary->quality.edge_cut = header[2];
    summary->dropped_cells = header[3];
    std::memcpy(&summary->quality.imbalance, &header[4], sizeof(double));
    summary->elements_per_rank.clear();
    summary->owned_nodes_per_rank.clear();
    summary->ghost_nodes_per_rank.clear();
    for (int p = 0; p < size; ++p) {
      summary->elements_per_rank.push_back(header[5 + 3 * p]);
      summary->owned_nodes_per_rank.push_back(header[6 + 3 * p]);
      summary->ghost_nodes_per_rank.push_back(header[7 + 3 * p]);
    }
  }
  return local;
}

}  // namespace inertia
