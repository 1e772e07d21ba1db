#include "inertia/partition/partition.hpp"

#include <metis.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "inertia/core/error.hpp"
#include "inertia/core/interrupt.hpp"

namespace inertia {

namespace {

void check_metis(int status, const char* call) {
  if (status == METIS_OK) return;
  const char* what = status == METIS_ERROR_MEMORY  ? "out of memory"
                     : status == METIS_ERROR_INPUT ? "invalid input"
                                                   : "error";
  throw Error(cat("METIS: ", call, " failed: ", what));
}

/// RAII for arrays METIS allocates.
struct MetisArray {
  idx_t* data = nullptr;
  MetisArray() = default;
  MetisArray(MetisArray&& other) noexcept : data(std::exchange(other.data, nullptr)) {}
  MetisArray& operator=(MetisArray&&) = delete;
  ~MetisArray() {
    if (data) METIS_Free(data);
  }
};

idx_t to_idx(std::int64_t v) {
  INERTIA_CHECK(v <= std::numeric_limits<idx_t>::max(), Error,
                "METIS: mesh too large for 32-bit METIS indices (", v, ")");
  return static_cast<idx_t>(v);
}

/// The dual graph of the elements (CSR, METIS-allocated): elements are adjacent when they share
/// a face (over their corner nodes; for 1D/0D elements, a node).
struct DualGraph {
  idx_t num_vertices = 0;
  MetisArray xadj, adjncy;
};

DualGraph dual_graph(const MeshData& mesh, std::span<const std::int64_t> elements) {
  std::vector<idx_t> eptr{0}, eind;
  int ncommon = 4;
  for (auto c : elements) {
    const auto& ti = info(mesh.cell_types[c]);
    const auto nodes = mesh.nodes_of(c);
    for (int i = 0; i < ti.num_corners; ++i) eind.push_back(to_idx(nodes[i]));
    eptr.push_back(to_idx(static_cast<std::int64_t>(eind.size())));
    const int shared = ti.dim == 3 ? (ti.num_corners == 4 ? 3 : 4) : ti.dim == 2 ? 2 : 1;
    ncommon = std::min(ncommon, shared);
  }
  DualGraph g;
  g.num_vertices = to_idx(static_cast<std::int64_t>(elements.size()));
  idx_t nn = to_idx(mesh.num_nodes()), nc = ncommon, numbering = 0;
  const SignalsHeld held;  // GKlib would turn a SIGTERM into METIS_ERROR
  check_metis(METIS_MeshToDual(&g.num_vertices, &nn, eptr.data(), eind.data(), &nc, &numbering,
                               &g.xadj.data, &g.adjncy.data),
              "METIS_MeshToDual");
  return g;
}

/// METIS k-way parts of the dual graph's vertices (fixed seed: deterministic).
std::vector<int> metis_parts(DualGraph& g, int num_parts) {
  idx_t ncon = 1, nparts = num_parts, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 12345;
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> metis_part(static_cast<std::size_t>(g.num_vertices));
  const SignalsHeld held;  // GKlib would turn a SIGTERM into METIS_ERROR
  check_metis(
      METIS_PartGraphKway(&g.num_vertices, &ncon, g.xadj.data, g.adjncy.data, nullptr, nullptr,
                          nullptr, &nparts, nullptr, nullptr, options, &objval, metis_part.data()),
      "METIS_PartGraphKway");
  return {metis_part.begin(), metis_part.end()};
}

/// Contiguous chunks of equal size in element order.
std::vector<int> block_parts(std::int64_t ne, int num_parts) {
  std::vector<int> part(static_cast<std::size_t>(ne));
  for (std::int64_t e = 0; e < ne; ++e) part[e] = static_cast<int>(e * num_parts / ne);
  return part;
}

/// Edge cut (shared faces between parts) and imbalance (largest part / mean part).
PartitionQuality measure(const DualGraph& g, const std::vector<int>& part, int num_parts) {
  const std::int64_t ne = g.num_vertices;
  std::int64_t cut = 0;
  for (std::int64_t e = 0; e < ne; ++e)
    for (idx_t k = g.xadj.data[e]; k < g.xadj.data[e + 1]; ++k)
      if (part[g.adjncy.data[k]] != part[e]) ++cut;
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(num_parts), 0);
  for (int p : part) ++sizes[p];
  PartitionQuality q;
  q.edge_cut = cut / 2;
  q.imbalance = static_cast<double>(*std::max_element(sizes.begin(), sizes.end())) * num_parts /
                static_cast<double>(ne);
  return q;
}

}  // namespace

std::vector<int> partition_cells(const MeshData& mesh, std::span<const std::int64_t> elements,
                                 int num_parts, Partitioner method, PartitionQuality* quality) {
  const auto ne = static_cast<std::int64_t>(elements.size());
  if (ne == 0) return {};
  DualGraph graph = dual_graph(mesh, elements);
  std::vector<int> part(elements.size(), 0);
  if (num_parts > 1)
    part = method == Partitioner::metis && ne >= num_parts ? metis_parts(graph, num_parts)
                                                           : block_parts(ne, num_parts);
  if (quality) *quality = measure(graph, part, num_parts);
  return part;
}

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

}  // namespace inertia
