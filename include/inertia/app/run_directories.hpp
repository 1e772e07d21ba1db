#pragma once
/// \file run_directories.hpp
/// The directories a run writes to (its output directory, and its checkpoint directory when it
/// writes checkpoints): checked by --check, created and locked by a run.

#include <mpi.h>

#include <ostream>
#include <vector>

#include "inertia/core/directory_lock.hpp"

namespace inertia {

struct CaseFile;

/// Collective. --check: the run's directories could be created and written in; nothing is
/// created. Throws InputError naming the first that could not.
void check_directories(MPI_Comm comm, const CaseFile& c);

/// Collective. Creates the run's directories (found writable before any work is done, not at the
/// first checkpoint, hours in) and takes their locks (core/directory_lock.hpp) on rank 0, for the
/// run's life: a second run into the same directory is refused in one line naming the
/// holder. The checkpoint directory is locked too unless it is the output directory. On a file
/// system without flock, a warning and no lock.
/// Returns rank 0's locks (none elsewhere), held for as long as they live; the log's notes
/// (a stale lock taken over, a file system without flock) go to `log`.
std::vector<DirectoryLock> lock_directories(MPI_Comm comm, const CaseFile& c, std::ostream& log);

}  // namespace inertia
