#pragma once
/// \file topology.hpp
/// Mesh topology helpers used on the serial mesh before distribution.

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

/// For every face cell (tri3, tri6, quad4) that is a face of a volume cell: reorders its nodes so
/// that the right-hand-rule normal points out of that volume cell, and turns a tri3 face of a tet10
/// into a tri6 (adding the tet's edge midpoints) so loads on it are consistent with the quadratic
/// element. Returns the number of faces that lie on no volume cell (left as they are).
std::int64_t orient_faces(MeshData& mesh);

// face_table(CellType): the faces of a volume cell type, in the cell-type table (cell_type.hpp).

/// Keeps only the nodes used by some cell, renumbering cell nodes; preserves relative node order.
void drop_unused_nodes(MeshData& mesh);

}  // namespace inertia
