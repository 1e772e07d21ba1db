#pragma once
/// \file checkpoint_format.hpp
/// What a checkpoint file is, apart from its data (internal: not part of include/): its name and
/// the directory's listing, the vectors' checksums, the completion attribute, the whole file's
/// hash in the HDF5 user block, and reading the root attributes back (checkpoint.hpp).

#include <hdf5.h>
#include <petscviewer.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "inertia/io/checkpoint.hpp"

namespace inertia::io::detail {

using Viewer = petsc::Handle<PetscViewer, PetscViewerDestroy>;

inline constexpr const char* complete_attribute = "checkpoint_complete";

// The whole file's hash, in the HDF5 user block (the first 512 bytes, which HDF5 leaves to us),
// is checked before HDF5 reads anything: a damaged file never reaches HDF5's parser, whose
// reaction to damaged metadata is not ours to promise, and a changed attribute (time, dt, the
// energy sums: no vector checksum covers them) is refused. A file without the header (written
// before it existed) is read as before.
inline constexpr hsize_t user_block = 512;

/// Step of a checkpoint file name, or -1.
std::int64_t step_of(const std::filesystem::path& p);

/// Complete checkpoints in a directory, oldest first.
std::vector<std::pair<std::int64_t, std::filesystem::path>> checkpoints_in(
    const std::filesystem::path& dir);

/// Collective. A checksum of a vector's values that does not depend on how it is distributed:
/// sum over entries (mod 2^64) of the value's bit pattern times (2 i + 1), i its global index.
std::int64_t checksum(MPI_Comm comm, Vec x);

/// Collective. XXH3-64 of the bytes of `file` from the user block's end to `size`, in chunks of
/// 64 MiB hashed by the ranks in turn (each reads its own from the file), the chunks' hashes then
/// hashed in order: the same on any rank count. IoError on every rank if a rank cannot read.
std::uint64_t content_hash(MPI_Comm comm, const std::filesystem::path& file, std::uint64_t size);

/// Collective. Writes the whole file's hash into its user block (rank 0 writes, every rank
/// hashes).
void write_header(MPI_Comm comm, const std::filesystem::path& file);

/// Collective. Error (the same on every rank) if the file's header is missing or its size or
/// hash do not match the file; a file written before the header existed passes.
void verify_header(MPI_Comm comm, const std::filesystem::path& file);

/// Collective. Runs f on every rank; an Error of f on any rank becomes DamagedCheckpoint
/// "<file>: cannot restart from this checkpoint: it is damaged (<why>)" on every rank.
void as_damage(MPI_Comm comm, const std::filesystem::path& file, const std::function<void()>& f);

/// Error "no attribute '<name>'" if the root group of the file open in `viewer` lacks it.
void require_attribute(PetscViewer viewer, const std::string& name);

/// The root attributes named by `attributes` read into it (Error for a missing one); returns the
/// num_global_nodes attribute. Every rank, alike.
long read_attributes(PetscViewer viewer, CheckpointAttributes& attributes);

/// The dimensions of dataset `name` of the file open in `viewer` (every rank, alike).
std::vector<hsize_t> dataset_dims(PetscViewer viewer, const std::string& name);

/// Rank 0: the checkpoints of `directory` beyond the newest `keep` removed, except the newest at
/// or before step keep_at_or_before.
void prune_checkpoints(const std::filesystem::path& directory, int keep,
                       std::int64_t keep_at_or_before);

}  // namespace inertia::io::detail
