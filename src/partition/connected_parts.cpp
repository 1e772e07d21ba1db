/// \file connected_parts.cpp
/// connected_parts(): a union-find per rank, then a reduced graph on rank 0 whose vertices are
/// the rank-local parts that touch a rank boundary and whose edges are the ghost copies of nodes.
#include "inertia/partition/connected_parts.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <numeric>
#include <utility>

#include "inertia/core/error.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// Union-find over 0..n-1 with path halving; a set's root is its smallest member.
class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), std::int64_t{0});
  }
  std::int64_t find(std::int64_t a) {
    while (parent_[a] != a) {
      parent_[a] = parent_[parent_[a]];
      a = parent_[a];
    }
    return a;
  }
  void join(std::int64_t a, std::int64_t b) {
    a = find(a);
    b = find(b);
    if (a < b) parent_[b] = a;
    if (b < a) parent_[a] = b;
  }

 private:
  std::vector<std::int64_t> parent_;
};

/// A rank-local part's id, unique over the ranks: (rank, index on the rank).
std::int64_t part_id(int rank, std::int64_t index) {
  return (static_cast<std::int64_t>(rank) << 32) | index;
}

/// A part as sent to rank 0: id, nodes, held, first node, region count, regions...
void put_part(std::vector<std::int64_t>& out, std::int64_t id, const MeshPart& p) {
  out.insert(out.end(), {id, p.nodes, p.held ? 1 : 0, p.first_node,
                         static_cast<std::int64_t>(p.regions.size())});
  out.insert(out.end(), p.regions.begin(), p.regions.end());
}

const std::int64_t* get_part(const std::int64_t* in, std::int64_t& id, MeshPart& p) {
  id = in[0];
  p.nodes = in[1];
  p.held = in[2] != 0;
  p.first_node = in[3];
  p.regions.assign(in + 5, in + 5 + in[4]);
  return in + 5 + in[4];
}

/// Merges part b into part a.
void absorb(MeshPart& a, const MeshPart& b) {
  a.nodes += b.nodes;
  a.held = a.held || b.held;
  a.first_node = std::min(a.first_node, b.first_node);
  std::vector<int> regions;
  std::set_union(a.regions.begin(), a.regions.end(), b.regions.begin(), b.regions.end(),
                 std::back_inserter(regions));
  a.regions = std::move(regions);
}

/// A rank's parts: nodes joined by its element cells, numbered in node order.
struct LocalParts {
  std::vector<std::int64_t> part_of;  // per local node
  std::vector<MeshPart> parts;        // owned node counts, first node, held, regions
  std::vector<char> shared;           // touches a rank boundary
};

LocalParts local_parts(const LocalMesh& mesh, std::span<const char> held) {
  const std::int32_t nl = mesh.num_local_nodes(), no = mesh.num_owned;
  DisjointSets sets(static_cast<std::size_t>(nl));
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c]) continue;
    const auto nodes = mesh.nodes_of(c);
    for (std::size_t k = 1; k < nodes.size(); ++k) sets.join(nodes[0], nodes[k]);
  }
  LocalParts L;
  L.part_of.resize(static_cast<std::size_t>(nl));
  std::int64_t nparts = 0;
  for (std::int32_t n = 0; n < nl; ++n) {
    const std::int64_t root = sets.find(n);  // <= n: numbered already
    L.part_of[n] = root == n ? nparts++ : L.part_of[root];
  }
  L.parts.resize(static_cast<std::size_t>(nparts));
  L.shared.assign(static_cast<std::size_t>(nparts), 0);
  for (auto& p : L.parts) p.first_node = std::numeric_limits<std::int64_t>::max();
  for (std::int32_t n = 0; n < no; ++n) {
    MeshPart& p = L.parts[L.part_of[n]];
    ++p.nodes;
    p.first_node = std::min(p.first_node, mesh.natural_ids[n]);
    p.held = p.held || held[n];
  }
  for (std::int32_t n = no; n < nl; ++n) L.shared[L.part_of[n]] = 1;
  // regions: (part, region) pairs, consecutive cells mostly alike
  std::vector<std::pair<std::int64_t, int>> pairs;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    if (!mesh.cell_is_element[c] || mesh.cell_regions[c] < 0) continue;
    const std::pair<std::int64_t, int> pr{L.part_of[mesh.nodes_of(c)[0]], mesh.cell_regions[c]};
    if (pairs.empty() || pairs.back() != pr) pairs.push_back(pr);
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const auto& [p, r] : pairs) L.parts[p].regions.push_back(r);
  return L;
}

/// The edges (this rank's part id, the owner's part id) of the ghost copies (sorted, unique):
/// each ghost asks its owner for the owner's part of that node (ghosts are sorted, so grouped by
/// owner); a part asked about touches a rank boundary too (L.shared). Collective.
std::vector<std::pair<std::int64_t, std::int64_t>> ghost_edges(MPI_Comm comm, const LocalMesh& mesh,
                                                               LocalParts& L) {
  const int rank = rank_of(comm), size = size_of(comm);
  std::vector<std::int64_t> begins(static_cast<std::size_t>(size) + 1);
  INERTIA_MPI(MPI_Allgather(&mesh.node_begin, 1, MPI_INT64_T, begins.data(), 1, MPI_INT64_T, comm));
  begins[size] = mesh.num_global_nodes;
  std::vector<int> send_counts(size, 0), recv_counts(size), send_displs(size + 1, 0),
      recv_displs(size + 1, 0);
  for (const std::int64_t g : mesh.ghosts)
    ++send_counts[std::upper_bound(begins.begin(), begins.end(), g) - begins.begin() - 1];
  INERTIA_MPI(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm));
  for (int r = 0; r < size; ++r) {
    send_displs[r + 1] = send_displs[r] + send_counts[r];
    recv_displs[r + 1] = recv_displs[r] + recv_counts[r];
  }
  std::vector<std::int64_t> asked(static_cast<std::size_t>(recv_displs[size]));
  INERTIA_MPI(MPI_Alltoallv(mesh.ghosts.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            asked.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T,
                            comm));
  for (auto& g : asked) {
    const std::int64_t p = L.part_of[g - mesh.node_begin];
    L.shared[p] = 1;
    g = part_id(rank, p);
  }
  std::vector<std::int64_t> owner_part(mesh.ghosts.size());
  INERTIA_MPI(MPI_Alltoallv(asked.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T,
                            owner_part.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            comm));
  std::vector<std::pair<std::int64_t, std::int64_t>> edges;
  for (std::size_t i = 0; i < owner_part.size(); ++i)
    edges.emplace_back(part_id(rank, L.part_of[mesh.num_owned + i]), owner_part[i]);
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

/// What a rank sends rank 0: [parts inside the rank, free ones among them, boundary parts and
/// listed free parts (count, then each), edges (count, then pairs)].
std::vector<std::int64_t> pack_parts(
    int rank, const LocalParts& L, const std::vector<std::pair<std::int64_t, std::int64_t>>& edges,
    std::size_t max_listed) {
  const auto& parts = L.parts;
  std::int64_t inside = 0;
  std::vector<std::int64_t> free_inside, boundary;
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(parts.size()); ++p) {
    if (L.shared[p]) {
      boundary.push_back(p);
    } else {
      ++inside;
      if (!parts[p].held) free_inside.push_back(p);
    }
  }
  const auto listed = std::min(max_listed, free_inside.size());
  std::partial_sort(free_inside.begin(), free_inside.begin() + static_cast<std::ptrdiff_t>(listed),
                    free_inside.end(), [&](std::int64_t a, std::int64_t b) {
                      return parts[a].first_node < parts[b].first_node;
                    });
  std::vector<std::int64_t> out{inside, static_cast<std::int64_t>(free_inside.size()),
                                static_cast<std::int64_t>(boundary.size() + listed)};
  for (auto p : boundary) put_part(out, part_id(rank, p), parts[p]);
  for (std::size_t k = 0; k < listed; ++k)
    put_part(out, -1, parts[free_inside[k]]);  // -1: inside the rank, no edges
  out.push_back(static_cast<std::int64_t>(edges.size()));
  for (const auto& [a, b] : edges) out.insert(out.end(), {a, b});
  return out;
}

/// On rank 0: the ranks' records (all, rank r's from displs[r]) joined along the edges into the
/// count, the free count and the first max_listed free parts (in first-node order).
void join_on_root(const std::vector<std::int64_t>& all, const std::vector<int>& displs,
                  std::size_t max_listed, std::int64_t* counts_out, ConnectedParts& result) {
  std::vector<MeshPart> boundary, candidates;              // candidates: free parts to list
  std::vector<std::pair<std::int64_t, std::int64_t>> ids;  // (part id, index in boundary)
  std::vector<std::pair<std::int64_t, std::int64_t>> links;
  for (std::size_t r = 0; r + 1 < displs.size(); ++r) {
    const std::int64_t* in = all.data() + displs[r];
    counts_out[0] += in[0];
    counts_out[1] += in[1];
    const std::int64_t records = in[2];
    in += 3;
    for (std::int64_t k = 0; k < records; ++k) {
      std::int64_t id = 0;
      MeshPart p;
      in = get_part(in, id, p);
      if (id < 0) {
        candidates.push_back(std::move(p));
      } else {
        ids.emplace_back(id, static_cast<std::int64_t>(boundary.size()));
        boundary.push_back(std::move(p));
      }
    }
    const std::int64_t nedges = *in++;
    for (std::int64_t e = 0; e < nedges; ++e, in += 2) links.emplace_back(in[0], in[1]);
  }
  std::sort(ids.begin(), ids.end());
  const auto index = [&](std::int64_t id) {
    const auto it = std::lower_bound(ids.begin(), ids.end(), std::pair{id, std::int64_t{-1}});
    INERTIA_ASSERT(it != ids.end() && it->first == id);
    return it->second;
  };
  DisjointSets joined(boundary.size());
  for (const auto& [a, b] : links) joined.join(index(a), index(b));
  for (std::size_t i = 0; i < boundary.size(); ++i) {
    const auto root = static_cast<std::size_t>(joined.find(static_cast<std::int64_t>(i)));
    if (root != i) absorb(boundary[root], boundary[i]);
  }
  for (std::size_t i = 0; i < boundary.size(); ++i) {
    if (joined.find(static_cast<std::int64_t>(i)) != static_cast<std::int64_t>(i)) continue;
    ++counts_out[0];
    if (!boundary[i].held) {
      ++counts_out[1];
      candidates.push_back(std::move(boundary[i]));
    }
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const MeshPart& a, const MeshPart& b) { return a.first_node < b.first_node; });
  if (candidates.size() > max_listed) candidates.resize(max_listed);
  result.free_parts = std::move(candidates);
}

}  // namespace

ConnectedParts connected_parts(MPI_Comm comm, const LocalMesh& mesh, std::span<const char> held,
                               std::size_t max_listed) {
  const int rank = rank_of(comm), size = size_of(comm);
  INERTIA_ASSERT(held.size() == static_cast<std::size_t>(mesh.num_owned));
  LocalParts L = local_parts(mesh, held);
  const auto edges = ghost_edges(comm, mesh, L);
  const std::vector<std::int64_t> out = pack_parts(rank, L, edges, max_listed);

  std::int64_t words = static_cast<std::int64_t>(out.size()), total = 0;
  INERTIA_MPI(MPI_Allreduce(&words, &total, 1, MPI_INT64_T, MPI_SUM, comm));
  INERTIA_CHECK(total < INT_MAX, Error, "connected parts of the mesh: ", total,
                " words of parts crossing rank boundaries, more than one gather holds");
  const int mine = static_cast<int>(words);
  std::vector<int> counts(rank == 0 ? size : 0), displs(rank == 0 ? size + 1 : 0, 0);
  INERTIA_MPI(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm));
  for (std::size_t r = 0; r < counts.size(); ++r) displs[r + 1] = displs[r] + counts[r];
  std::vector<std::int64_t> all(rank == 0 ? static_cast<std::size_t>(total) : 0);
  INERTIA_MPI(MPI_Gatherv(out.data(), mine, MPI_INT64_T, all.data(), counts.data(), displs.data(),
                          MPI_INT64_T, 0, comm));

  ConnectedParts result;
  std::int64_t counts_out[2] = {0, 0};
  if (rank == 0) join_on_root(all, displs, max_listed, counts_out, result);
  INERTIA_MPI(MPI_Bcast(counts_out, 2, MPI_INT64_T, 0, comm));
  result.count = counts_out[0];
  result.free_count = counts_out[1];
  return result;
}

}  // namespace inertia
