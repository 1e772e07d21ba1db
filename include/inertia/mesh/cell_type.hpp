#pragma once
/// \file cell_type.hpp
/// The cell-type table: every per-type fact outside the shape functions (fe/element.cpp): the
/// reference shape, dimension, node counts, Gmsh, VTK and XDMF type ids, the node-order map, the
/// faces of volume types and their cell type, and the quadrature degrees of the element kernels.
/// A new cell type is one row here (its name, summary and example first) plus its shape functions
/// (and, for a new reference shape, its quadrature rules in fe/quadrature.cpp).
///
/// inertia stores every cell's nodes in **VTK order** (the order of the VTK file format
/// documentation). Gmsh's order equals VTK's for every type here except tet10, whose last two
/// edge nodes are swapped: Gmsh node 8 lies on edge (2,3) and node 9 on edge (1,3), VTK has
/// 8 on (1,3) and 9 on (2,3).

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "inertia/core/registry.hpp"

namespace inertia {

enum class CellType : std::uint8_t {
  point1,
  line2,
  tri3,
  quad4,
  tet4,
  tet10,
  hex8,
  tri6,
  beam2,
  shell4,
  shell3,
  quad8,
  shell8
};

inline constexpr int num_cell_types = 13;

/// The reference cell a type maps from (fe/element.hpp describes each).
enum class ReferenceShape : std::uint8_t {
  point,
  line,           ///< [-1, 1]
  triangle,       ///< the unit triangle
  quadrilateral,  ///< [-1, 1]^2
  tetrahedron,    ///< the unit tetrahedron
  hexahedron,     ///< [-1, 1]^3
};

/// The measure (length, area, volume) of a reference shape: |[-1,1]^d| or the unit simplex's 1/d!.
constexpr double reference_measure(ReferenceShape s) {
  switch (s) {
    case ReferenceShape::line:
      return 2.0;
    case ReferenceShape::triangle:
      return 0.5;
    case ReferenceShape::quadrilateral:
      return 4.0;
    case ReferenceShape::tetrahedron:
      return 1.0 / 6.0;
    case ReferenceShape::hexahedron:
      return 8.0;
    case ReferenceShape::point:
      break;
  }
  return 1.0;
}

/// Corner nodes of the local faces of a volume cell type: face f has corners[f] (3 or 4 local
/// indices, -1 padded), ordered so the right-hand-rule normal points outward for a positively
/// oriented cell. Other types have no faces.
struct FaceTable {
  int num_faces;
  int corners[6][4];
};

/// A cell type: its name as in the case file and messages ("tet10"), a summary for --help, and
/// for the types mesh.box generates a `mesh:` block of them.
struct CellTypeInfo : EntryInfo {
  CellType type;
  int dim;  ///< topological dimension
  int num_nodes;
  int num_corners;  ///< vertices (geometric order 1 nodes)
  int gmsh_id;      ///< Gmsh element type number
  int vtk_id;       ///< VTK cell type (VTK_TETRA = 10, ...)
  /// internal (VTK) node i is Gmsh node gmsh_node[i]
  std::array<std::uint8_t, 16> gmsh_node;
  ReferenceShape shape;
  /// XDMF's "Mixed" topology code, and whether a node count follows it in the topology array
  /// (the polyvertex and polyline codes).
  int xdmf_id;
  bool xdmf_node_count;
  /// Polynomial degree the element kernels' quadrature integrates exactly (fe::stiffness_rule,
  /// fe::mass_rule; tensor-product shapes: per direction).
  int stiffness_degree, mass_degree;
  /// Volume types: the faces, and the type of the face cells that carry loads on them.
  FaceTable faces;
  CellType face_type;
};

inline constexpr FaceTable no_faces{0, {}};
inline constexpr FaceTable tet_faces{4,
                                     {{0, 2, 1, -1}, {0, 1, 3, -1}, {1, 2, 3, -1}, {0, 3, 2, -1}}};
inline constexpr FaceTable hex_faces{
    6, {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 7, 6, 2}, {0, 4, 7, 3}, {1, 2, 6, 5}}};

// Quadrature degrees: tet10 and tri6 stiffness 2 (4 and 3 points), hex8 and quad4 3 per
// direction (2 x 2 x 2 Gauss points); mass: N_a N_b detJ exactly (tet4 2, tet10 4, hex8 3).
// XDMF codes: Polyvertex 1 and Polyline 2 (a node count follows), Triangle 4, Quadrilateral 5,
// Tetrahedron 6, Hexahedron 9, Triangle_6 36 and Tetrahedron_10 38 (corners, then the edges
// (0,1), (1,2), (2,0), (0,3), (1,3), (2,3): VTK's order, inertia's internal order, checked with
// ParaView: tests/scripts/xdmf.sh).
using RS = ReferenceShape;
inline constexpr std::array<CellTypeInfo, num_cell_types> cell_type_table{{
    // {name, summary, example}, type, dim, nodes, corners, gmsh, vtk, gmsh node order, shape,
    // xdmf, xdmf count, stiffness and mass degrees, faces, face type
    {{"point", "a point (Gmsh files): point masses at its node", ""},
     CellType::point1,
     0,
     1,
     1,
     15,
     1,
     {0},
     RS::point,
     1,
     true,
     1,
     1,
     no_faces,
     CellType::point1},
    {{"line2", "a 2-node line (Gmsh files): springs along it", ""},
     CellType::line2,
     1,
     2,
     2,
     1,
     3,
     {0, 1},
     RS::line,
     2,
     true,
     1,
     3,
     no_faces,
     CellType::line2},
    {{"tri3", "a 3-node triangle: the faces of tet4 cells, loads on surfaces", ""},
     CellType::tri3,
     2,
     3,
     3,
     2,
     5,
     {0, 1, 2},
     RS::triangle,
     4,
     false,
     1,
     2,
     no_faces,
     CellType::tri3},
    {{"quad4", "a 4-node quadrilateral: the faces of hex8 cells, loads on surfaces", ""},
     CellType::quad4,
     2,
     4,
     4,
     3,
     9,
     {0, 1, 2, 3},
     RS::quadrilateral,
     5,
     false,
     3,
     3,
     no_faces,
     CellType::quad4},
    {{"tet4", "a 4-node linear tetrahedron (mesh.box: 6 per box cell)",
      "mesh:\n  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: tet4}"},
     CellType::tet4,
     3,
     4,
     4,
     4,
     10,
     {0, 1, 2, 3},
     RS::tetrahedron,
     6,
     false,
     1,
     2,
     tet_faces,
     CellType::tri3},
    {{"tet10", "a 10-node quadratic tetrahedron (mesh.box: 6 per box cell)",
      "mesh:\n  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: tet10}"},
     CellType::tet10,
     3,
     10,
     4,
     11,
     24,
     {0, 1, 2, 3, 4, 5, 6, 7, 9, 8},
     RS::tetrahedron,
     38,
     false,
     2,
     4,
     tet_faces,
     CellType::tri6},
    {{"hex8",
      "an 8-node trilinear hexahedron (mesh.box's default); formulations full, bbar, reduced, fbar",
      "mesh:\n  box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [4, 1, 1], element: hex8}"},
     CellType::hex8,
     3,
     8,
     8,
     5,
     12,
     {0, 1, 2, 3, 4, 5, 6, 7},
     RS::hexahedron,
     9,
     false,
     3,
     3,
     hex_faces,
     CellType::quad4},
    // tri6: corners, then midpoints of edges (0,1), (1,2), (2,0) in both Gmsh and VTK. Faces of
    // tet10 meshes; boundary loads on them are integrated with quadratic shape functions.
    {{"tri6", "a 6-node quadratic triangle: the faces of tet10 cells, loads on surfaces", ""},
     CellType::tri6,
     2,
     6,
     3,
     9,
     22,
     {0, 1, 2, 3, 4, 5},
     RS::triangle,
     36,
     false,
     2,
     4,
     no_faces,
     CellType::tri6},
    // beam2: a beam made from a Gmsh line2 cell of a `sections:` region (never read from a file:
    // Gmsh type -1): its two nodes, then their rotation nodes (the companion nodes that carry
    // rx, ry, rz; see partition/local_mesh.hpp). Written to VTK and XDMF as the line2 of its
    // first two nodes (shown_type).
    {{"beam2", "a 2-node beam (made from the line2 cells of a sections: region)", ""},
     CellType::beam2,
     1,
     4,
     2,
     -1,
     3,
     {0, 1, 2, 3},
     RS::line,
     2,
     true,
     1,
     3,
     no_faces,
     CellType::beam2},
    // shell4: a shell made from a Gmsh quad4 cell of a `shells:` region (never read from a file):
    // its four nodes, then their rotation nodes. Written as the quad4 of its first four nodes.
    {{"shell4", "a 4-node shell (made from the quad4 cells of a shells: region)", ""},
     CellType::shell4,
     2,
     8,
     4,
     -1,
     9,
     {0, 1, 2, 3, 4, 5, 6, 7},
     RS::quadrilateral,
     5,
     false,
     3,
     3,
     no_faces,
     CellType::shell4},
    // shell3: a shell made from a Gmsh tri3 cell of a `shells:` region: its three nodes, then
    // their rotation nodes. Written as the tri3 of its first three nodes.
    {{"shell3", "a 3-node shell (made from the tri3 cells of a shells: region)", ""},
     CellType::shell3,
     2,
     6,
     3,
     -1,
     5,
     {0, 1, 2, 3, 4, 5},
     RS::triangle,
     4,
     false,
     1,
     2,
     no_faces,
     CellType::shell3},
    // quad8: the serendipity quadrilateral, corners then the midpoints of edges (0,1), (1,2),
    // (2,3), (3,0) in both Gmsh and VTK (VTK_QUADRATIC_QUAD, XDMF Quadrilateral_8 = 37). The
    // cells of a shells: region become shell8; elsewhere loads on surfaces.
    {{"quad8", "an 8-node quadratic quadrilateral: curved shells (shells:), loads on surfaces", ""},
     CellType::quad8,
     2,
     8,
     4,
     16,
     23,
     {0, 1, 2, 3, 4, 5, 6, 7},
     RS::quadrilateral,
     37,
     false,
     5,
     5,
     no_faces,
     CellType::quad8},
    // shell8: a shell made from a Gmsh quad8 cell of a `shells:` region: its eight nodes, then
    // their rotation nodes. Written as the quad8 of its first eight nodes.
    {{"shell8", "an 8-node curved shell (made from the quad8 cells of a shells: region)", ""},
     CellType::shell8,
     2,
     16,
     4,
     -1,
     23,
     {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
     RS::quadrilateral,
     37,
     false,
     5,
     5,
     no_faces,
     CellType::shell8},
}};

constexpr const CellTypeInfo& info(CellType t) { return cell_type_table[static_cast<int>(t)]; }

/// The type a cell is written as in VTK and XDMF frames, and how many of its nodes are written
/// (a beam2 is the line2 of its two nodes, a shell4 the quad4 of its four; their rotation nodes
/// are not drawn).
constexpr CellType shown_type(CellType t) {
  return t == CellType::beam2    ? CellType::line2
         : t == CellType::shell4 ? CellType::quad4
         : t == CellType::shell3 ? CellType::tri3
         : t == CellType::shell8 ? CellType::quad8
                                 : t;
}

/// Structural cells (beams, shells) list their nodes, then those nodes' rotation nodes
/// (mesh/rotation_nodes.hpp): the number of nodes with translations of such a cell, 0 for the
/// other types (no rotation nodes).
constexpr int rotation_nodes_from(CellType t) {
  return t == CellType::beam2    ? 2
         : t == CellType::shell4 ? 4
         : t == CellType::shell3 ? 3
         : t == CellType::shell8 ? 8
                                 : 0;
}
constexpr int shown_nodes(CellType t) { return info(shown_type(t)).num_nodes; }

/// The cell types as a registry (--help mesh, the reference).
inline constexpr Registry<CellTypeInfo> cell_types{"cell type", cell_type_table};

/// The faces of a volume cell type (none for the others).
constexpr const FaceTable& face_table(CellType t) { return info(t).faces; }

/// The cell type of a Gmsh element type number, or nullopt if inertia does not support it.
constexpr std::optional<CellType> cell_type_from_gmsh(int gmsh_id) {
  for (const auto& i : cell_type_table)
    if (i.gmsh_id >= 0 && i.gmsh_id == gmsh_id) return i.type;
  return std::nullopt;
}

}  // namespace inertia
