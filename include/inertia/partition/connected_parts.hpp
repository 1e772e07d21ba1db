#pragma once
/// \file connected_parts.hpp
/// The connected parts of a distributed mesh's element graph: two nodes are connected when an
/// element cell (a solid, a spring, a point mass) holds both. Parts that share no node are
/// separate bodies: boxes that were not fused in the geometry, or a projectile meant to fly.
///
/// Parallel union-find: each rank joins its nodes (owned and ghost) through its element cells,
/// then each ghost copy of a node links its local part to the part of the node's owner. Only
/// the parts that cross a rank boundary (and the first few free parts of each rank) go to rank 0
/// as a reduced graph, never the mesh: a few collective calls whose size grows with the rank
/// boundaries, not with the cells.

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "inertia/partition/partition.hpp"

namespace inertia {

/// One connected part of the mesh.
struct MeshPart {
  std::int64_t nodes = 0;       ///< its nodes over all ranks
  std::int64_t first_node = 0;  ///< its lowest natural node id (LocalMesh::natural_ids)
  std::vector<int> regions;     ///< the regions of its element cells (indices, ascending)
  bool held = false;            ///< some node of it is flagged in `held`
};

struct ConnectedParts {
  std::int64_t count = 0;       ///< parts of the element graph (every rank)
  std::int64_t free_count = 0;  ///< parts without a held node (every rank)
  /// Rank 0: the free parts with the lowest first_node, at most `max_listed`, in that order (the
  /// same on any rank count); empty on the other ranks.
  std::vector<MeshPart> free_parts;
};

/// Collective. The connected parts of the element cells of `mesh`. `held` has one flag per owned
/// node (a node with a constrained DOF, say). Cost: a union-find over the local cells, an
/// exchange of one word per ghost node with its owner, and a gather to rank 0 of the parts that
/// cross rank boundaries and of up to `max_listed` free parts per rank.
ConnectedParts connected_parts(MPI_Comm comm, const LocalMesh& mesh, std::span<const char> held,
                               std::size_t max_listed = 10);

}  // namespace inertia
