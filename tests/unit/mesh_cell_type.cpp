// The cell-type table (mesh/cell_type.hpp) is consistent: ids unique and round-tripping, node
// orders permutations, faces closed, outward and of their face type's corner count.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "inertia/mesh/cell_type.hpp"

namespace inertia {
namespace {

TEST(CellTypeTable, RowsAreInEnumOrderWithUniqueNamesAndIds) {
  std::set<std::string_view> names;
  std::set<int> gmsh, vtk, xdmf;
  for (int i = 0; i < num_cell_types; ++i) {
    const CellTypeInfo& t = cell_type_table[i];
    SCOPED_TRACE(std::string(t.name));
    EXPECT_EQ(static_cast<int>(t.type), i);
    EXPECT_EQ(&info(t.type), &t);
    EXPECT_TRUE(names.insert(t.name).second);
    // A type made inside inertia (beam2: Gmsh type -1) is written as another (shown_type).
    if (t.gmsh_id < 0) {
      EXPECT_NE(shown_type(t.type), t.type);
      EXPECT_EQ(cell_type_from_gmsh(t.gmsh_id), std::nullopt);
      continue;
    }
    EXPECT_EQ(shown_type(t.type), t.type);
    EXPECT_TRUE(gmsh.insert(t.gmsh_id).second);
    EXPECT_TRUE(vtk.insert(t.vtk_id).second);
    EXPECT_TRUE(xdmf.insert(t.xdmf_id).second);
    EXPECT_EQ(cell_type_from_gmsh(t.gmsh_id), t.type);
    // Only the polyvertex and polyline codes carry a node count.
    EXPECT_EQ(t.xdmf_node_count, t.dim <= 1);
    EXPECT_GE(t.stiffness_degree, 1);
    EXPECT_GE(t.mass_degree, 1);
  }
}

TEST(CellTypeTable, NodeOrdersArePermutationsAndShapesMatchTheDimension) {
  for (const CellTypeInfo& t : cell_type_table) {
    SCOPED_TRACE(std::string(t.name));
    ASSERT_LE(t.num_nodes, static_cast<int>(t.gmsh_node.size()));
    EXPECT_LE(t.num_corners, t.num_nodes);
    std::array<int, std::tuple_size_v<decltype(t.gmsh_node)>> seen{};
    for (int i = 0; i < t.num_nodes; ++i) {
      ASSERT_LT(t.gmsh_node[i], t.num_nodes);
      ++seen[t.gmsh_node[i]];
    }
    for (int i = 0; i < t.num_nodes; ++i) EXPECT_EQ(seen[i], 1) << "node " << i;
    const int shape_dim =
        t.shape == ReferenceShape::point                                                  ? 0
        : t.shape == ReferenceShape::line                                                 ? 1
        : t.shape == ReferenceShape::triangle || t.shape == ReferenceShape::quadrilateral ? 2
                                                                                          : 3;
    EXPECT_EQ(shape_dim, t.dim);
    EXPECT_GT(reference_measure(t.shape), 0.0);
  }
  EXPECT_DOUBLE_EQ(reference_measure(ReferenceShape::tetrahedron), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(reference_measure(ReferenceShape::hexahedron), 8.0);
}

/// Reference coordinates of a volume type's corners (VTK order).
std::array<std::array<double, 3>, 8> corners_of(ReferenceShape s) {
  if (s == ReferenceShape::tetrahedron) return {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  return {{{-1, -1, -1},
           {1, -1, -1},
           {1, 1, -1},
           {-1, 1, -1},
           {-1, -1, 1},
           {1, -1, 1},
           {1, 1, 1},
           {-1, 1, 1}}};
}

TEST(CellTypeTable, FacesCloseTheVolumeTypesPointOutwardAndMatchTheirFaceType) {
  for (const CellTypeInfo& t : cell_type_table) {
    SCOPED_TRACE(std::string(t.name));
    const FaceTable& faces = face_table(t.type);
    if (t.dim != 3) {
      EXPECT_EQ(faces.num_faces, 0);
      EXPECT_EQ(t.face_type, t.type);
      continue;
    }
    const CellTypeInfo& face = info(t.face_type);
    EXPECT_EQ(face.dim, 2);
    EXPECT_EQ(faces.num_faces, t.shape == ReferenceShape::tetrahedron ? 4 : 6);
    const auto x = corners_of(t.shape);
    std::array<double, 3> centre{};
    for (int a = 0; a < t.num_corners; ++a)
      for (int k = 0; k < 3; ++k) centre[k] += x[a][k] / t.num_corners;
    std::map<std::pair<int, int>, int> edges;  // directed edge -> count
    for (int f = 0; f < faces.num_faces; ++f) {
      const int* c = faces.corners[f];
      const int n = c[3] < 0 ? 3 : 4;
      EXPECT_EQ(n, face.num_corners) << "face " << f;
      std::set<int> distinct(c, c + n);
      EXPECT_EQ(static_cast<int>(distinct.size()), n);
      for (int i = 0; i < n; ++i) {
        ASSERT_GE(c[i], 0);
        ASSERT_LT(c[i], t.num_corners);
        ++edges[{c[i], c[(i + 1) % n]}];
      }
      // Right-hand-rule normal of the first three corners against the face centre's offset.
      std::array<double, 3> u{}, v{}, mid{};
      for (int k = 0; k < 3; ++k) {
        u[k] = x[c[1]][k] - x[c[0]][k];
        v[k] = x[c[2]][k] - x[c[0]][k];
        for (int i = 0; i < n; ++i) mid[k] += x[c[i]][k] / n;
      }
      const std::array<double, 3> normal{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                                         u[0] * v[1] - u[1] * v[0]};
      double outward = 0;
      for (int k = 0; k < 3; ++k) outward += normal[k] * (mid[k] - centre[k]);
      EXPECT_GT(outward, 0) << "face " << f << " points inward";
    }
    // Closed and consistently oriented: every edge once in each direction.
    for (const auto& [edge, count] : edges) {
      EXPECT_EQ(count, 1) << edge.first << "-" << edge.second;
      EXPECT_EQ(edges.count({edge.second, edge.first}), 1u) << edge.first << "-" << edge.second;
    }
  }
}

}  // namespace
}  // namespace inertia
