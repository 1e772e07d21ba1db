#include "inertia/mesh/box.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "inertia/core/error.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/mesh/topology.hpp"

namespace inertia {

namespace {

double orientation(const MeshData& m, const std::int64_t* n) {
  const double* x0 = &m.coords[3 * n[0]];
  double a[3][3];
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) a[r][k] = m.coords[3 * n[r + 1] + k] - x0[k];
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/// Grid points per cell edge (a fine grid for the midpoints of tet10).
std::int64_t points_per_edge(const BoxSpec& spec) {
  return spec.element == CellType::tet10 ? 2 : 1;
}

/// Volume cells per hex cell (6 tetrahedra in the Kuhn split).
std::int64_t cells_per_hex(const BoxSpec& spec) { return spec.element == CellType::hex8 ? 1 : 6; }

/// Bytes in GiB with one decimal, for messages.
std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return text;
}

}  // namespace

MeshData generate_box(const BoxSpec& spec) {
  MeshData m = generate_box_block(spec, {0, 0, 0}, spec.cells);
  drop_unused_nodes(m);  // (none: the Kuhn tet10 uses every point of the fine grid)
  return m;
}

void check_box_spec(const BoxSpec& spec) {
  for (int d = 0; d < 3; ++d) {
    INERTIA_CHECK(spec.cells[d] > 0, InputError, "mesh.box.cells: every count must be positive");
    INERTIA_CHECK(spec.upper[d] > spec.lower[d], InputError,
                  "mesh.box: upper must exceed lower in every direction");
    INERTIA_CHECK(std::isfinite(spec.upper[d] - spec.lower[d]), InputError,
                  "mesh.box: lower and upper must be finite, and so must upper - lower");
  }
  INERTIA_CHECK(spec.element == CellType::hex8 || spec.element == CellType::tet4 ||
                    spec.element == CellType::tet10,
                InputError, "mesh.box.element: must be hex8, tet4 or tet10");
  // The point count, without overflow. Everything else the generator computes is smaller once it
  // is bounded: hex cells < points, volume cells <= 6 hex cells, face tags < 7 volume cells.
  const std::int64_t r = points_per_edge(spec);
  std::optional<std::int64_t> points = 1;
  for (int d = 0; d < 3; ++d)
    points = checked_mul(points, checked_add(checked_mul(r, spec.cells[d]), 1));
  INERTIA_CHECK(points && *points <= max_box_points, InputError,
                "mesh.box.cells: too many cells: ", spec.cells[0], " x ", spec.cells[1], " x ",
                spec.cells[2], " ", info(spec.element).name, " cells make ",
                points ? cat(*points) : std::string("more than 2^63"),
                " points, more than the 2^40 = ", max_box_points, " a box may have");
}

BoxBlockSize box_block_size(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                            std::array<std::int64_t, 3> last) {
  const std::int64_t r = points_per_edge(spec);
  BoxBlockSize size{1, cells_per_hex(spec)};
  for (int d = 0; d < 3; ++d) {
    INERTIA_CHECK(0 <= first[d] && first[d] < last[d] && last[d] <= spec.cells[d], InternalError,
                  "box_block_size: bad cell range");
    size.points *= r * (last[d] - first[d]) + 1;  // no overflow: at most the box's points
    size.cells *= last[d] - first[d];
  }
  return size;
}

std::uint64_t box_block_bytes(const BoxSpec& spec, const BoxBlockSize& size) {
  // Per point: MeshData coordinates and tags (32 B); distribute_box's global ids and local
  // indices (16 B); LocalMesh coordinates, tags and natural ids (40 B).
  constexpr std::uint64_t per_point = 88;
  // Per cell, in MeshData and again in LocalMesh: type, offset, region, tag (21 B) and its nodes
  // (8 B each); and LocalMesh's element flag.
  const std::uint64_t per_cell =
      2 * (21 + 8 * static_cast<std::uint64_t>(info(spec.element).num_nodes)) + 1;
  return per_point * static_cast<std::uint64_t>(size.points) +
         per_cell * static_cast<std::uint64_t>(size.cells);
}

void check_box_block(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                     std::array<std::int64_t, 3> last, std::uint64_t memory_bytes,
                     std::uint64_t extra_bytes) {
  const BoxBlockSize size = box_block_size(spec, first, last);
  constexpr std::int64_t max_index = std::numeric_limits<std::int32_t>::max();
  constexpr std::int64_t max_points = max_index / 3;  // 3 degrees of freedom per point
  INERTIA_CHECK(size.points <= max_points && size.cells <= max_index, InputError,
                "mesh.box.cells: too many cells for one rank: its block of ", size.points,
                " points (", 3 * size.points, " degrees of freedom) and ", size.cells,
                " cells is more than 32-bit local indices allow (", max_points, " points, ",
                max_index, " cells); use more ranks or fewer cells");
  if (memory_bytes == 0) return;
  const std::uint64_t bytes = box_block_bytes(spec, size) + extra_bytes;
  INERTIA_CHECK(bytes <= memory_bytes, InputError,
                "mesh.box.cells: too many cells for one rank: its block of ", size.points,
                " points and ", size.cells, " cells needs at least ", gib(bytes),
                " GiB for the mesh alone, more than the ", gib(memory_bytes),
                " GiB this process may use; use more ranks or fewer cells");
}

namespace {

/// A block's points on the box's fine grid (r points per cell edge, midpoints for tet10): np
/// points per direction in the whole box, the block's fine-grid indices lo .. lo + bn - 1.
struct BlockGrid {
  int r = 1;
  std::array<std::int64_t, 3> np{}, lo{}, bn{};

  /// Block-local node index of global fine-grid point (i, j, k).
  std::int64_t id(std::int64_t i, std::int64_t j, std::int64_t k) const {
    return (i - lo[0]) + bn[0] * ((j - lo[1]) + bn[1] * (k - lo[2]));
  }
};

/// The block's points, tagged with their global index + 1 (exact end points: the bounds are
/// reproduced bit for bit).
void add_block_points(const BoxSpec& spec, const BlockGrid& G, MeshData& m) {
  const auto &np = G.np, &lo = G.lo, &bn = G.bn;
  m.coords.reserve(static_cast<std::size_t>(3 * bn[0] * bn[1] * bn[2]));
  for (std::int64_t k = lo[2]; k < lo[2] + bn[2]; ++k)
    for (std::int64_t j = lo[1]; j < lo[1] + bn[1]; ++j)
      for (std::int64_t i = lo[0]; i < lo[0] + bn[0]; ++i) {
        const std::array<std::int64_t, 3> ijk{i, j, k};
        double x[3];
        for (int d = 0; d < 3; ++d) {
          const std::int64_t n = np[d] - 1;
          x[d] = ijk[d] == n
                     ? spec.upper[d]
                     : spec.lower[d] + (spec.upper[d] - spec.lower[d]) *
                                           static_cast<double>(ijk[d]) / static_cast<double>(n);
        }
        m.add_node(x[0], x[1], x[2], i + np[0] * (j + np[1] * k) + 1);  // tag: global index + 1
      }
}

/// The volume cells of hex (i, j, k) (region 0): one hex8, or six tets of the Kuhn split (one per
/// permutation of the axes, along the main diagonal), tagged as in the whole box (the hex's
/// lexicographic index, 6 tets per hex).
void add_hex_cells(const BoxSpec& spec, const BlockGrid& G, std::int64_t i, std::int64_t j,
                   std::int64_t k, MeshData& m) {
  const int r = G.r;
  const std::int64_t per_hex = spec.element == CellType::hex8 ? 1 : 6;
  std::int64_t tag = per_hex * (i + spec.cells[0] * (j + spec.cells[1] * k));
  const std::int64_t I = r * i, J = r * j, K = r * k;
  if (spec.element == CellType::hex8) {
    // corner c of the hex in VTK order
    constexpr int dx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, dy[8] = {0, 0, 1, 1, 0, 0, 1, 1},
                  dz[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    std::int64_t n[8];
    for (int c = 0; c < 8; ++c) n[c] = G.id(I + r * dx[c], J + r * dy[c], K + r * dz[c]);
    m.add_cell(CellType::hex8, n, 0, ++tag);
    return;
  }
  constexpr int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& p : perms) {
    std::array<std::array<std::int64_t, 3>, 4> v;
    v[0] = {I, J, K};
    for (int s = 0; s < 3; ++s) {
      v[s + 1] = v[s];
      v[s + 1][p[s]] += r;
    }
    std::int64_t n[10];
    for (int c = 0; c < 4; ++c) n[c] = G.id(v[c][0], v[c][1], v[c][2]);
    if (orientation(m, n) < 0) {
      std::swap(n[1], n[2]);
      std::swap(v[1], v[2]);
    }
    if (spec.element == CellType::tet10) {
      constexpr int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
      for (int e = 0; e < 6; ++e) {
        const auto& a = v[edges[e][0]];
        const auto& b = v[edges[e][1]];
        n[4 + e] = G.id((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
      }
    }
    m.add_cell(spec.element, std::span<const std::int64_t>(n, info(spec.element).num_nodes), 0,
               ++tag);
  }
}

/// Boundary faces: faces of volume cells whose corners all lie on one of the six planes of the
/// whole box (regions 1..6). Tag: after every volume cell of the box, from the cell's tag and face
/// index (unique over the whole box, whichever block generates the face).
void add_boundary_faces(const BoxSpec& spec, const BlockGrid& G, MeshData& m) {
  const auto &np = G.np, &lo = G.lo, &bn = G.bn;
  const std::int64_t per_hex = spec.element == CellType::hex8 ? 1 : 6;
  const std::int64_t num_volume = m.num_cells();
  const std::int64_t face_base = per_hex * spec.cells[0] * spec.cells[1] * spec.cells[2];
  for (std::int64_t c = 0; c < num_volume; ++c) {
    const auto& ft = face_table(m.cell_types[c]);
    std::int64_t nodes[10];
    std::copy(m.nodes_of(c).begin(), m.nodes_of(c).end(), nodes);
    for (int f = 0; f < ft.num_faces; ++f) {
      const int n = ft.corners[f][3] < 0 ? 3 : 4;
      std::int64_t face[4];
      for (int i = 0; i < n; ++i) face[i] = nodes[ft.corners[f][i]];
      for (int d = 0; d < 3; ++d)
        for (int side = 0; side < 2; ++side) {
          const std::int64_t plane = side ? np[d] - 1 : 0;
          bool on = true;
          for (int i = 0; i < n && on; ++i) {
            const std::int64_t g = face[i];  // block-local point index
            const std::int64_t coord[3] = {lo[0] + g % bn[0], lo[1] + (g / bn[0]) % bn[1],
                                           lo[2] + g / (bn[0] * bn[1])};
            on = coord[d] == plane;
          }
          if (on)
            m.add_cell(n == 4 ? CellType::quad4 : CellType::tri3,
                       std::span<const std::int64_t>(face, n), 1 + 2 * d + side,
                       face_base + 6 * (m.cell_tags[c] - 1) + f + 1);
        }
    }
  }
}

}  // namespace

MeshData generate_box_block(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                            std::array<std::int64_t, 3> last) {
  check_box_spec(spec);
  check_box_block(spec, first, last, memory_limit_bytes());
  BlockGrid G;
  G.r = spec.element == CellType::tet10 ? 2 : 1;  // fine grid for midpoints
  for (int d = 0; d < 3; ++d) {
    G.np[d] = G.r * spec.cells[d] + 1;
    G.lo[d] = G.r * first[d];
    G.bn[d] = G.r * (last[d] - first[d]) + 1;
  }
  MeshData m;
  add_block_points(spec, G, m);
  m.regions.push_back({"all", 3, 1});
  const char* face_names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  for (int f = 0; f < 6; ++f) m.regions.push_back({face_names[f], 2, 2 + f});
  for (std::int64_t k = first[2]; k < last[2]; ++k)
    for (std::int64_t j = first[1]; j < last[1]; ++j)
      for (std::int64_t i = first[0]; i < last[0]; ++i) add_hex_cells(spec, G, i, j, k, m);
  add_boundary_faces(spec, G, m);
  orient_faces(m);  // outward normals; tri3 faces of tet10 become tri6
  return m;
}

}  // namespace inertia
