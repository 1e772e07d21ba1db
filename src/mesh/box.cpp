#include "inertia/mesh/box.hpp"

#include <algorithm>
#include <array>

#include "inertia/core/error.hpp"
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

}  // namespace

MeshData generate_box(const BoxSpec& spec) {
  for (int d = 0; d < 3; ++d) {
    INERTIA_CHECK(spec.cells[d] > 0, InputError, "mesh.box.cells: every count must be positive");
    INERTIA_CHECK(spec.upper[d] > spec.lower[d], InputError,
                  "mesh.box: upper must exceed lower in every direction");
  }
  INERTIA_CHECK(spec.element == CellType::hex8 || spec.element == CellType::tet4 ||
                    spec.element == CellType::tet10,
                InputError, "mesh.box.element: must be hex8, tet4 or tet10");
  const bool quadratic = spec.element == CellType::tet10;
  const int r = quadratic ? 2 : 1;  // grid points per cell edge (fine grid for midpoints)
  const std::array<std::int64_t, 3> np{r * spec.cells[0] + 1, r * spec.cells[1] + 1,
                                       r * spec.cells[2] + 1};
  INERTIA_CHECK(np[0] * np[1] * np[2] < (std::int64_t{1} << 40), InputError,
                "mesh.box.cells: too many cells");
  MeshData m;
  m.coords.reserve(static_cast<std::size_t>(3 * np[0] * np[1] * np[2]));
  for (std::int64_t k = 0; k < np[2]; ++k)
    for (std::int64_t j = 0; j < np[1]; ++j)
      for (std::int64_t i = 0; i < np[0]; ++i) {
        const std::array<std::int64_t, 3> ijk{i, j, k};
        double x[3];
        for (int d = 0; d < 3; ++d) {
          // Exact end points: bounds are reproduced bit for bit.
          const std::int64_t n = np[d] - 1;
          x[d] = ijk[d] == n ? spec.upper[d]
                             : spec.lower[d] + (spec.upper[d] - spec.lower[d]) *
                                                   static_cast<double>(ijk[d]) /
                                                   static_cast<double>(n);
        }
        m.add_node(x[0], x[1], x[2], m.num_nodes() + 1);
      }
  auto id = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return i + np[0] * (j + np[1] * k);
  };
  m.regions.push_back({"all", 3, 1});
  const char* face_names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  for (int f = 0; f < 6; ++f) m.regions.push_back({face_names[f], 2, 2 + f});

  std::int64_t tag = 0;
  for (std::int64_t k = 0; k < spec.cells[2]; ++k)
    for (std::int64_t j = 0; j < spec.cells[1]; ++j)
      for (std::int64_t i = 0; i < spec.cells[0]; ++i) {
        const std::int64_t I = r * i, J = r * j, K = r * k;
        // corner c of the hex in VTK order
        auto corner = [&](int c, int s = 1) {
          constexpr int dx[8] = {0, 1, 1, 0, 0, 1, 1, 0}, dy[8] = {0, 0, 1, 1, 0, 0, 1, 1},
                        dz[8] = {0, 0, 0, 0, 1, 1, 1, 1};
          return std::array<std::int64_t, 3>{I + s * r * dx[c], J + s * r * dy[c],
                                             K + s * r * dz[c]};
        };
        if (spec.element == CellType::hex8) {
          std::int64_t n[8];
          for (int c = 0; c < 8; ++c) {
            auto p = corner(c);
            n[c] = id(p[0], p[1], p[2]);
          }
          m.add_cell(CellType::hex8, n, 0, ++tag);
          continue;
        }
        // Kuhn split: one tet per permutation of the axes, along the main diagonal.
        constexpr int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (const auto& p : perms) {
          std::array<std::array<std::int64_t, 3>, 4> v;
          v[0] = {I, J, K};
          for (int s = 0; s < 3; ++s) {
            v[s + 1] = v[s];
            v[s + 1][p[s]] += r;
          }
          std::int64_t n[10];
          for (int c = 0; c < 4; ++c) n[c] = id(v[c][0], v[c][1], v[c][2]);
          if (orientation(m, n) < 0) {
            std::swap(n[1], n[2]);
            std::swap(v[1], v[2]);
          }
          if (quadratic) {
            constexpr int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
            for (int e = 0; e < 6; ++e) {
              const auto& a = v[edges[e][0]];
              const auto& b = v[edges[e][1]];
              n[4 + e] = id((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
            }
          }
          m.add_cell(spec.element, std::span<const std::int64_t>(n, info(spec.element).num_nodes),
                     0, ++tag);
        }
      }
  // Boundary faces: faces of volume cells whose corners all lie on one of the six planes.
  const std::int64_t num_volume = m.num_cells();
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
            const std::int64_t g = face[i];
            const std::int64_t coord[3] = {g % np[0], (g / np[0]) % np[1], g / (np[0] * np[1])};
            on = coord[d] == plane;
          }
          if (on)
            m.add_cell(n == 4 ? CellType::quad4 : CellType::tri3,
                       std::span<const std::int64_t>(face, n), 1 + 2 * d + side, ++tag);
        }
    }
  }
  orient_faces(m);  // outward normals; tri3 faces of tet10 become tri6
  drop_unused_nodes(m);
  return m;
}

}  // namespace inertia
