#pragma once
/// \file box.hpp
/// The built-in structured box generator (case file `mesh.box`).

#include <array>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

struct BoxSpec {
  std::array<double, 3> lower{0, 0, 0};
  std::array<double, 3> upper{1, 1, 1};
  std::array<std::int64_t, 3> cells{1, 1, 1};  ///< hexahedral cells per direction
  CellType element = CellType::hex8;           ///< hex8, tet4 (6 per hex, Kuhn) or tet10
};

/// Generates the box: volume region "all" and boundary face regions "xmin", "xmax", "ymin",
/// "ymax", "zmin", "zmax" (quad4 for hex8, tri3 for tet4, tri6 for tet10), faces oriented with the
/// outward normal. The tetrahedral split is the Kuhn (Freudenthal) one, conforming everywhere.
/// Throws InputError for bad sizes (non-positive counts, upper <= lower).
MeshData generate_box(const BoxSpec& spec);

/// The cells of the box with hex indices first[d] <= i_d < last[d] (for a rank's block of a box
/// generated in parallel): their points (fine-grid points of the block, tags = lexicographic
/// index in the whole box + 1), volume cells (tags as in the whole box) and the faces on the
/// box's boundary planes. Throws like generate_box.
MeshData generate_box_block(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                            std::array<std::int64_t, 3> last);

}  // namespace inertia
