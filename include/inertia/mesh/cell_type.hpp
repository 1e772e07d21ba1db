#pragma once
/// \file cell_type.hpp
/// The cell-type table: dimension, node count, Gmsh and VTK type ids and the node-order map.
///
/// inertia stores every cell's nodes in **VTK order** (the order of the VTK file format
/// documentation). Gmsh's order equals VTK's for every type here except tet10, whose last two
/// edge nodes are swapped: Gmsh node 8 lies on edge (2,3) and node 9 on edge (1,3), VTK has
/// 8 on (1,3) and 9 on (2,3).

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace inertia {

enum class CellType : std::uint8_t { point1, line2, tri3, quad4, tet4, tet10, hex8, tri6 };

inline constexpr int num_cell_types = 8;

struct CellTypeInfo {
  CellType type;
  std::string_view name;  ///< as in the case file and messages: "tet10"
  int dim;                ///< topological dimension
  int num_nodes;
  int num_corners;  ///< vertices (geometric order 1 nodes)
  int gmsh_id;      ///< Gmsh element type number
  int vtk_id;       ///< VTK cell type (VTK_TETRA = 10, ...)
  /// internal (VTK) node i is Gmsh node gmsh_node[i]
  std::array<std::uint8_t, 10> gmsh_node;
};

inline constexpr std::array<CellTypeInfo, num_cell_types> cell_type_table{{
    {CellType::point1, "point", 0, 1, 1, 15, 1, {0}},
    {CellType::line2, "line2", 1, 2, 2, 1, 3, {0, 1}},
    {CellType::tri3, "tri3", 2, 3, 3, 2, 5, {0, 1, 2}},
    {CellType::quad4, "quad4", 2, 4, 4, 3, 9, {0, 1, 2, 3}},
    {CellType::tet4, "tet4", 3, 4, 4, 4, 10, {0, 1, 2, 3}},
    {CellType::tet10, "tet10", 3, 10, 4, 11, 24, {0, 1, 2, 3, 4, 5, 6, 7, 9, 8}},
    {CellType::hex8, "hex8", 3, 8, 8, 5, 12, {0, 1, 2, 3, 4, 5, 6, 7}},
    // tri6: corners, then midpoints of edges (0,1), (1,2), (2,0) in both Gmsh and VTK. Faces of
    // tet10 meshes; boundary loads on them are integrated with quadratic shape functions.
    {CellType::tri6, "tri6", 2, 6, 3, 9, 22, {0, 1, 2, 3, 4, 5}},
}};

constexpr const CellTypeInfo& info(CellType t) { return cell_type_table[static_cast<int>(t)]; }

/// The cell type of a Gmsh element type number, or nullopt if inertia does not support it.
constexpr std::optional<CellType> cell_type_from_gmsh(int gmsh_id) {
  for (const auto& i : cell_type_table)
    if (i.gmsh_id == gmsh_id) return i.type;
  return std::nullopt;
}

}  // namespace inertia
