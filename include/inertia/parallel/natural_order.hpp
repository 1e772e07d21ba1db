#pragma once
/// \file natural_order.hpp
/// A numbering of distributed keys that does not depend on the number of ranks or on the
/// partition: what keys data (a force term's state at the quadrature points of its cells) by
/// global entity in checkpoints, so that a run checkpointed on 2 ranks restarts on 3.

#include <mpi.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace inertia {

/// Collective. For each of this rank's keys (unique over all ranks), its index in the increasing
/// order of all ranks' keys: a numbering of [0, N) independent of the number of ranks and of the
/// partition. Sets *num_global = N. Throws InputError on every rank (same message) if a key
/// appears more than once over all ranks ("<what> <key> appears twice", the smallest such key).
///
/// A sample sort: each key travels to the rank that holds its range of the sorted order and its
/// index comes back, so memory is O(local keys + keys received + ranks^2) per rank, not O(N).
/// Any rank may have no keys; any int64 value is a valid key.
std::vector<std::int64_t> natural_order(MPI_Comm comm, std::span<const std::int64_t> keys,
                                        std::int64_t& num_global, std::string_view what = "key");

}  // namespace inertia
