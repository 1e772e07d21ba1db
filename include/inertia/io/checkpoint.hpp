#pragma once
/// \file checkpoint.hpp
/// Checkpoints in HDF5 (written as src/io/hdf5_file.hpp says, read with PETSc's HDF5 viewer):
/// named vectors of the DOF layout, written in the natural node order (independent of the number of
/// ranks and of the partition, so a run checkpointed on 2 ranks restarts on 3), plus scalar
/// attributes (time, step, dt, ...), and cell arrays: rows of values per element cell (a force
/// term's state at its quadrature points), keyed by natural row (natural_order of the cells' tags,
/// parallel/natural_order.hpp) and so, like the vectors, independent of the rank count.
///
/// Files: <directory>/checkpoint_NNNNNNNNN.h5 (NNN = the step). Each is written under a temporary
/// name and renamed once every rank has closed it, so a run killed at any moment (even SIGKILL
/// mid-write) leaves the previous checkpoints complete; the oldest beyond `keep` are removed only
/// after the new one is in place. Each vector is stored with a checksum of its values (an
/// order-independent sum of their bit patterns weighted by position, so the same on any rank
/// count) and the file ends with a completion attribute, so a file damaged on disk later is
/// recognised before its data are used. Cell arrays have the same guarantees (checksum, whole-file
/// hash, room estimate, damage detection).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "inertia/io/cell_layouts.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia::io {

/// Scalars and strings stored with a checkpoint (HDF5 attributes of the root group).
struct CheckpointAttributes {
  std::map<std::string, double> reals;
  std::map<std::string, std::int64_t> integers;
  std::map<std::string, std::string> strings;
  /// Read when present, left empty when absent (attributes older checkpoints lack).
  std::map<std::string, std::string> optional_strings;
};

using NamedVectors = std::vector<std::pair<std::string, Vec>>;

/// A checkpoint that cannot be used as it is on disk (truncated, overwritten, an attribute or a
/// dataset missing, a checksum that does not match): a restart from a directory skips it.
class DamagedCheckpoint : public InputError {
 public:
  using InputError::InputError;
};

/// What restore() used.
struct Restored {
  std::filesystem::path file;
  std::vector<std::string> skipped;  ///< "<file>: <why>" for each newer damaged checkpoint
};

class Checkpointer {
 public:
  /// Collective. `natural_ids[i]` is the natural index of owned node i (owned DOFs 3 i .. 3 i + 2
  /// of every vector); `layout` is a vector of the DOF layout (block size 3).
  Checkpointer(MPI_Comm comm, std::span<const std::int64_t> natural_ids,
               std::int64_t num_global_nodes, Vec layout);

  /// Collective. Writes `vectors`, `cells` and `attributes` to directory/checkpoint_<step>.h5
  /// (atomically,
  /// see above) and removes all but the newest `keep` checkpoints, and the newest one at or
  /// before step `keep_at_or_before` (a state the run still trusts while it watches the later
  /// ones for a blow-up; -1: none). Returns the file and its size.
  /// A checkpoint that would not fit in the free space (the size of the previous checkpoint, or
  /// an estimate for the first one) is refused before it starts; a write that fails anyway (a
  /// quota, another writer, EIO) on any rank throws IoError "<file>: <strerror>" on every rank.
  /// The data are made durable (fdatasync) before the rename. Cell arrays that break the
  /// contract of CellArray (values not rows x stride, a natural row out of range or twice, the
  /// ranks disagreeing on an array) throw InternalError on every rank before anything is written.
  std::pair<std::filesystem::path, std::int64_t> write(const std::filesystem::path& directory,
                                                       std::int64_t step,
                                                       const CheckpointAttributes& attributes,
                                                       const NamedVectors& vectors, int keep,
                                                       std::int64_t keep_at_or_before = -1,
                                                       const CellArrays& cells = {});

  /// Collective. Renames the checkpoints of `directory` at or after `step` to
  /// "<name>.unstable", where --restart does not look (states a blow-up had already reached).
  /// Returns how many.
  int set_aside_from(const std::filesystem::path& directory, std::int64_t step);

  /// Collective. Reads the attributes named by the keys of `attributes` (into their values),
  /// calls `check(attributes)`, then reads the vectors named in `vectors` (into those Vecs, in
  /// this run's layout) and the cell arrays named in `cells` (into their values, in this run's
  /// row order) and verifies their checksums. Throws DamagedCheckpoint naming the file for a file
  /// that cannot be opened or lacks an attribute or dataset or whose data do not match their
  /// checksums, or a cell array's dataset of another shape than num_global_rows x stride (naming
  /// the array), InputError for a checkpoint of another mesh (another node count), and whatever
  /// `check` throws (a checkpoint of another case). HDF5 prints nothing meanwhile.
  void read(const std::filesystem::path& file, const NamedVectors& vectors,
            CheckpointAttributes& attributes,
            const std::function<void(const CheckpointAttributes&)>& check = {},
            const CellArrays& cells = {});

  /// Collective. Restores from `path`: a checkpoint file, or a directory (or an output directory
  /// holding checkpoints/) whose checkpoints are tried newest first, a damaged one being skipped
  /// for the next older (see read()). Throws InputError if there is none, if an explicit file or
  /// every checkpoint of the directory is damaged, or if `check` refuses one.
  Restored restore(const std::filesystem::path& path, const NamedVectors& vectors,
                   CheckpointAttributes& attributes,
                   const std::function<void(const CheckpointAttributes&)>& check,
                   const CellArrays& cells = {});

 private:
  MPI_Comm comm_;
  std::int64_t num_global_nodes_;
  std::int64_t last_bytes_ = 0;  ///< size of the last checkpoint written
  CellLayouts cell_layouts_;     ///< the cell arrays' natural order

  /// Collective: throws IoError "<file>: No space left on device (...)" on every rank if some
  /// rank's file system lacks room for the checkpoint (`cell_bytes`: the cell arrays' values).
  void ensure_room(const std::filesystem::path& directory, const std::filesystem::path& file,
                   std::size_t num_vectors, std::uint64_t cell_bytes) const;
  petsc::Vector natural_;            ///< natural-order vector, block size 3
  petsc::VecScatterHandle scatter_;  ///< layout -> natural
};

/// The name of the checkpoint of a step: checkpoint_NNNNNNNNN.h5.
std::string checkpoint_name(std::int64_t step);

}  // namespace inertia::io
