#include "inertia/partition/partition.hpp"

#include <metis.h>

#include <algorithm>
#include <limits>

#include "inertia/core/error.hpp"

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
  ~MetisArray() {
    if (data) METIS_Free(data);
  }
};

idx_t to_idx(std::int64_t v) {
  INERTIA_CHECK(v <= std::numeric_limits<idx_t>::max(), Error,
                "METIS: mesh too large for 32-bit METIS indices (", v, ")");
  return static_cast<idx_t>(v);
}

}  // namespace

std::vector<int> partition_cells(const MeshData& mesh, std::span<const std::int64_t> elements,
                                 int num_parts, Partitioner method, PartitionQuality* quality) {
  const auto ne = static_cast<std::int64_t>(elements.size());
  std::vector<int> part(elements.size(), 0);
  if (ne == 0) return part;
  if (num_parts > 1 && (method == Partitioner::block || ne < num_parts)) {
    for (std::int64_t e = 0; e < ne; ++e) part[e] = static_cast<int>(e * num_parts / ne);
  }

  // Dual graph of the elements over their corner nodes.
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
  idx_t ne_idx = to_idx(ne), nn = to_idx(mesh.num_nodes()), nc = ncommon, numbering = 0;
  MetisArray xadj, adjncy;
  check_metis(METIS_MeshToDual(&ne_idx, &nn, eptr.data(), eind.data(), &nc, &numbering,
                               &xadj.data, &adjncy.data),
              "METIS_MeshToDual");

  if (num_parts > 1 && method == Partitioner::metis && ne >= num_parts) {
    idx_t ncon = 1, nparts = num_parts, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 12345;
    options[METIS_OPTION_NUMBERING] = 0;
    std::vector<idx_t> metis_part(elements.size());
    check_metis(METIS_PartGraphKway(&ne_idx, &ncon, xadj.data, adjncy.data, nullptr, nullptr,
                                    nullptr, &nparts, nullptr, nullptr, options, &objval,
                                    metis_part.data()),
                "METIS_PartGraphKway");
    for (std::int64_t e = 0; e < ne; ++e) part[e] = static_cast<int>(metis_part[e]);
  }
  if (quality) {
    std::int64_t cut = 0;
    for (std::int64_t e = 0; e < ne; ++e)
      for (idx_t k = xadj.data[e]; k < xadj.data[e + 1]; ++k)
        if (part[adjncy.data[k]] != part[e]) ++cut;
    std::vector<std::int64_t> sizes(static_cast<std::size_t>(num_parts), 0);
    for (int p : part) ++sizes[p];
    quality->edge_cut = cut / 2;
    quality->imbalance = static_cast<double>(*std::max_element(sizes.begin(), sizes.end())) *
                         num_parts / static_cast<double>(ne);
  }
  return part;
}

}  // namespace inertia
