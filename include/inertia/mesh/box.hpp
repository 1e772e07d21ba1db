#pragma once
/// \file box.hpp
/// The built-in structured box generator (case file `mesh.box`).

#include <array>
#include <cstdint>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

struct BoxSpec {
  std::array<double, 3> lower{0, 0, 0};
  std::array<double, 3> upper{1, 1, 1};
  std::array<std::int64_t, 3> cells{1, 1, 1};  ///< hexahedral cells per direction
  CellType element = CellType::hex8;           ///< hex8, tet4 (6 per hex, Kuhn) or tet10
};

/// Most points a box may have (all its counts and tags then fit in int64 with room to spare).
inline constexpr std::int64_t max_box_points = std::int64_t{1} << 40;

/// Checks a box before anything is computed from it: positive cell counts, finite bounds with
/// upper > lower, a supported element, and at most max_box_points points, computed without
/// overflow. Throws InputError naming the key ("mesh.box.cells: too many cells: ...").
void check_box_spec(const BoxSpec& spec);

/// Points and volume cells of the block of hex cells first[d] <= i_d < last[d] of a checked box
/// (its points include those it shares with neighbouring blocks).
struct BoxBlockSize {
  std::int64_t points = 0;
  std::int64_t cells = 0;
};
BoxBlockSize box_block_size(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                            std::array<std::int64_t, 3> last);

/// A lower bound of the bytes one rank allocates for a block: the generated MeshData and the
/// distributed LocalMesh made from it (boundary faces and later phases, such as matrices, not
/// counted).
std::uint64_t box_block_bytes(const BoxSpec& spec, const BoxBlockSize& size);

/// Checks that one rank can hold a block of a checked box, before it is generated: its degrees of
/// freedom (3 per point) and cells within 32-bit local indices, and box_block_bytes + extra_bytes
/// within `memory_bytes` (0: not checked). Throws InputError "mesh.box.cells: too many cells for
/// one rank: ...".
void check_box_block(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                     std::array<std::int64_t, 3> last, std::uint64_t memory_bytes,
                     std::uint64_t extra_bytes = 0);

/// Generates the box: volume region "all" and boundary face regions "xmin", "xmax", "ymin",
/// "ymax", "zmin", "zmax" (quad4 for hex8, tri3 for tet4, tri6 for tet10), faces oriented with the
/// outward normal. The tetrahedral split is the Kuhn (Freudenthal) one, conforming everywhere.
/// Throws InputError for bad sizes (check_box_spec; the whole box is one block for
/// check_box_block, against memory_limit_bytes()).
MeshData generate_box(const BoxSpec& spec);

/// The cells of the box with hex indices first[d] <= i_d < last[d] (for a rank's block of a box
/// generated in parallel): their points (fine-grid points of the block, tags = lexicographic
/// index in the whole box + 1), volume cells (tags as in the whole box) and the faces on the
/// box's boundary planes. Throws like generate_box (the block checked by check_box_block).
MeshData generate_box_block(const BoxSpec& spec, std::array<std::int64_t, 3> first,
                            std::array<std::int64_t, 3> last);

}  // namespace inertia
