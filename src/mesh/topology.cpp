#include "inertia/mesh/topology.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "inertia/core/error.hpp"

namespace inertia {

namespace {

/// VTK tet10 node on the edge between corners a and b.
int tet10_edge_node(int a, int b) {
  if (a > b) std::swap(a, b);
  constexpr int table[4][4] = {{-1, 4, 6, 7}, {4, -1, 5, 8}, {6, 5, -1, 9}, {7, 8, 9, -1}};
  return table[a][b];
}

using Key = std::array<std::int64_t, 4>;  // sorted corner nodes, -1 padded

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::size_t h = 0;
    for (auto v : k) h = h * 1000003u ^ std::hash<std::int64_t>{}(v);
    return h;
  }
};

Key make_key(const std::int64_t* nodes, int n) {
  Key k{-1, -1, -1, -1};
  for (int i = 0; i < n; ++i) {  // insertion sort of at most 4 values
    std::int64_t v = nodes[i];
    int j = i;
    for (; j > 0 && k[j - 1] > v; --j) k[j] = k[j - 1];
    k[j] = v;
  }
  return k;
}

}  // namespace

std::int64_t orient_faces(MeshData& mesh) {
  // Map of (sorted face corners) -> (volume cell, local face), over the faces of volume cells,
  // restricted to the corner sets that some face cell actually has (keeps the map small).
  std::unordered_map<Key, std::pair<std::int64_t, int>, KeyHash> wanted;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const auto& ti = info(mesh.cell_types[c]);
    if (ti.dim != 2) continue;
    wanted.emplace(make_key(mesh.nodes_of(c).data(), ti.num_corners), std::pair{-1, -1});
  }
  if (wanted.empty()) return 0;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const auto& ft = face_table(mesh.cell_types[c]);
    const auto nodes = mesh.nodes_of(c);
    for (int f = 0; f < ft.num_faces; ++f) {
      const int n = ft.corners[f][3] < 0 ? 3 : 4;
      std::int64_t corners[4];
      for (int i = 0; i < n; ++i) corners[i] = nodes[ft.corners[f][i]];
      auto it = wanted.find(make_key(corners, n));
      if (it != wanted.end() && it->second.first < 0) it->second = {c, f};
    }
  }
  // Rebuild the CSR arrays with oriented (and possibly upgraded) faces.
  std::vector<std::int64_t> offsets{0}, cell_nodes;
  cell_nodes.reserve(mesh.cell_nodes.size());
  std::int64_t orphans = 0;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const auto nodes = mesh.nodes_of(c);
    const auto& ti = info(mesh.cell_types[c]);
    if (ti.dim == 2) {
      const auto [parent, f] = wanted.at(make_key(nodes.data(), ti.num_corners));
      if (parent >= 0) {
        const auto pnodes = mesh.nodes_of(parent);
        const auto& ft = face_table(mesh.cell_types[parent]);
        const int n = ti.num_corners;
        for (int i = 0; i < n; ++i) cell_nodes.push_back(pnodes[ft.corners[f][i]]);
        if (mesh.cell_types[parent] == CellType::tet10) {
          for (int i = 0; i < 3; ++i)
            cell_nodes.push_back(
                pnodes[tet10_edge_node(ft.corners[f][i], ft.corners[f][(i + 1) % 3])]);
          mesh.cell_types[c] = CellType::tri6;
        } else if (mesh.cell_types[c] == CellType::tri6) {
          mesh.cell_types[c] = CellType::tri3;  // a quadratic face on a linear tet: corners only
        }
        offsets.push_back(static_cast<std::int64_t>(cell_nodes.size()));
        continue;
      }
      ++orphans;
    }
    cell_nodes.insert(cell_nodes.end(), nodes.begin(), nodes.end());
    offsets.push_back(static_cast<std::int64_t>(cell_nodes.size()));
  }
  mesh.cell_offsets = std::move(offsets);
  mesh.cell_nodes = std::move(cell_nodes);
  return orphans;
}

void drop_unused_nodes(MeshData& mesh) {
  std::vector<std::int64_t> new_index(static_cast<std::size_t>(mesh.num_nodes()), -1);
  for (auto n : mesh.cell_nodes) new_index[n] = 0;
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < mesh.num_nodes(); ++i)
    if (new_index[i] == 0) {
      new_index[i] = count;
      for (int k = 0; k < 3; ++k) mesh.coords[3 * count + k] = mesh.coords[3 * i + k];
      mesh.node_tags[count] = mesh.node_tags[i];
      ++count;
    }
  mesh.coords.resize(static_cast<std::size_t>(3 * count));
  mesh.node_tags.resize(static_cast<std::size_t>(count));
  for (auto& n : mesh.cell_nodes) n = new_index[n];
}

}  // namespace inertia
