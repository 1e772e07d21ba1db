#pragma once
/// \file rotation_nodes.hpp
/// Nodes with rotations for beams and shells. A beam or shell node carries six DOFs: its three
/// translations, and three rotations rx, ry, rz (about the global axes) held by a companion
/// "rotation node" at the same place. The DOF map stays three per node (PETSc block size 3): a
/// model without beams or shells has no rotation node and pays nothing; a beam cell (beam2) has
/// its two nodes and their two rotation nodes, a shell cell (shell4) its four and their four, so
/// partitioning, ghosts, assembly and checkpoints treat rotations as DOFs of nodes like any
/// other.

#include <cstdint>
#include <vector>

#include "inertia/mesh/mesh_data.hpp"

namespace inertia {

/// Turns every line2 cell of the given regions into a beam2 cell: one rotation node is appended
/// per distinct node of those cells (file order of first use; tag -(the node's tag), so messages
/// can name "the rotations of node 12"), the cell keeps its tag and region. line3 cells in those
/// regions: InputError (beams are 2-node). Returns the number of rotation nodes added.
std::int64_t add_rotation_nodes(MeshData& mesh, const std::vector<int>& beam_regions);

/// Turns every quad4 cell of the given regions into a shell4 cell and every tri3 cell into a
/// shell3 cell the same way: its nodes, then their rotation nodes (shared with the beams' where a
/// beam meets the shell). Other 2D cells in those regions (tri6): InputError. Returns the number
/// of rotation nodes added.
std::int64_t add_shell_rotation_nodes(MeshData& mesh, const std::vector<int>& shell_regions);

/// Per node of the mesh: the index of its rotation node, or -1 (from the beam2 and shell4
/// cells).
std::vector<std::int64_t> rotation_node_of(const MeshData& mesh);

}  // namespace inertia
