#pragma once
/// \file checkpoint.hpp
/// Checkpoints with PETSc's HDF5 viewer: named vectors of the DOF layout, written in the
/// natural node order (independent of the number of ranks and of the partition, so a run
/// checkpointed on 2 ranks restarts on 3), plus scalar attributes (time, step, dt, ...).
///
/// Files: <directory>/checkpoint_NNNNNNNNN.h5 (NNN = the step). Each is written under a temporary
/// name and renamed once every rank has closed it, so a run killed at any moment (even SIGKILL
/// mid-write) leaves the previous checkpoints complete; the oldest beyond `keep` are removed only
/// after the new one is in place.

#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "inertia/parallel/petsc.hpp"

namespace inertia::io {

/// Scalars and strings stored with a checkpoint (HDF5 attributes of the root group).
struct CheckpointAttributes {
  std::map<std::string, double> reals;
  std::map<std::string, std::int64_t> integers;
  std::map<std::string, std::string> strings;
};

using NamedVectors = std::vector<std::pair<std::string, Vec>>;

class Checkpointer {
 public:
  /// Collective. `natural_ids[i]` is the natural index of owned node i (owned DOFs 3 i .. 3 i + 2
  /// of every vector); `layout` is a vector of the DOF layout (block size 3).
  Checkpointer(MPI_Comm comm, std::span<const std::int64_t> natural_ids,
               std::int64_t num_global_nodes, Vec layout);

  /// Collective. Writes `vectors` and `attributes` to directory/checkpoint_<step>.h5 (atomically,
  /// see above) and removes all but the newest `keep` checkpoints. Returns the file and its size.
  std::pair<std::filesystem::path, std::int64_t> write(const std::filesystem::path& directory,
                                                       std::int64_t step,
                                                       const CheckpointAttributes& attributes,
                                                       const NamedVectors& vectors, int keep);

  /// Collective. Reads the vectors named in `vectors` (into those Vecs, in this run's layout)
  /// and the attributes named by the keys of `attributes` (into their values). Throws
  /// InputError naming the file for a missing or unreadable dataset or attribute, or a
  /// checkpoint of another mesh (different node count).
  void read(const std::filesystem::path& file, const NamedVectors& vectors,
            CheckpointAttributes& attributes);

 private:
  MPI_Comm comm_;
  std::int64_t num_global_nodes_;
  petsc::Vector natural_;   ///< natural-order vector, block size 3
  petsc::VecScatterHandle scatter_;  ///< layout -> natural
};

/// Collective. The newest complete checkpoint in `path` (a checkpoint directory, an output
/// directory holding checkpoints/, or a checkpoint file itself). Throws InputError if none.
std::filesystem::path find_checkpoint(MPI_Comm comm, const std::filesystem::path& path);

/// The name of the checkpoint of a step: checkpoint_NNNNNNNNN.h5.
std::string checkpoint_name(std::int64_t step);

}  // namespace inertia::io
