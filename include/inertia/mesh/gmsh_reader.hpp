#pragma once
/// \file gmsh_reader.hpp
/// Reader for Gmsh MSH files: format 4.1 and 2.2, ASCII and binary (either endianness marker
/// checked: files written on a machine of the other endianness are rejected with a clear message).
///
/// - Physical names ($PhysicalNames) become Region names; a physical group without a name becomes
///   "physical_<dim>_<tag>". A cell in several physical groups is stored once per group.
/// - When the file has no physical groups at all, every supported cell is kept and put in one
///   region per dimension named "all" (3D), "all_2d", "all_1d", "all_0d".
/// - Node tags need not be contiguous or sorted. Nodes not used by any kept cell are dropped.
/// - Supported element types: point (15), line2 (1), tri3 (2), tri6 (9, the faces of tet10
///   meshes), quad4 (3), tet4 (4), tet10 (11), hex8 (5). Second-order lines (line3) lower-
///   dimensional than the mesh are kept as line2 by their end nodes. Other types (prisms,
///   pyramids, ...) are rejected with their type number and the element tag.
/// - Every count, tag and index read from the file is checked: no declared size is trusted for an
///   allocation beyond what the file can hold, and a truncated or garbage file, a node tag that
///   does not exist, a negative count or a bad section end gives InputError "<file>: <what> (line
///   N)".
/// - Counts must agree with the data: ASCII lines hold exactly their fields (a line with one
///   number too many or too few is an error naming the line), sections end where their counts
///   say (binary data is followed directly by its line break and the section's end marker).
/// - Cell nodes are stored in VTK order (tet10 reordered, see cell_type.hpp).

#include <filesystem>
#include <string>
#include <string_view>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

/// Reads a Gmsh file. Throws InputError with one line naming the file and the problem.
MeshData read_gmsh(const std::filesystem::path& file);

/// Parses the bytes of a Gmsh file already in memory (`text` need not be null-terminated: nothing
/// past its end is read); `file_name` names it in messages. Throws like read_gmsh.
MeshData parse_gmsh(std::string_view text, const std::string& file_name);

}  // namespace inertia
