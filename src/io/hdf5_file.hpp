#pragma once
/// \file hdf5_file.hpp
/// The HDF5 files of this module (checkpoints, the XDMF series' data) are written in two kinds
/// of step, neither of which can leave a rank waiting (internal: not part of include/):
///   - rank 0 alone writes the file's structure with serial HDF5 (its default POSIX driver):
///     groups, attributes, and datasets whose space is allocated at creation (contiguous, never
///     filled), of which it learns the byte offsets; then it closes the file;
///   - every rank writes its own contiguous share of each dataset's values at those offsets with
///     pwrite(2), and closes its descriptor, checking each call.
/// Each step fails, if it fails, on its own rank with the system's errno (ENOSPC, EDQUOT, EIO),
/// and the ranks agree on the outcome with one reduction of our own before anything else happens.
///
/// Why not parallel HDF5 (what PETSc's HDF5 viewer does, MPI-IO underneath): its writes are
/// collective operations inside which HDF5 has no collective error handling. When a write fails
/// on one rank (a quota, a disk filled by another program: statvfs had reported room), the ranks
/// part ways inside one HDF5 call and wait for ever: with Debian's HDF5 1.10.8 and Open MPI 4.1,
/// VecView's H5Fflush left one rank in H5AC__run_sync_point -> MPI_Barrier (the metadata cache's
/// sync point) and the other in H5FD_truncate -> MPI_Bcast (the MPI-IO driver's truncate), and
/// the file's collective close hangs the same way. Reducing an error flag between HDF5 calls does
/// not help (the ranks diverge within one call), nor do independent transfers (the metadata
/// flush at close stays collective), nor reserving the space first (fallocate does not cover
/// EIO, and HDF5 truncates the file to its own end of allocation at every flush).
///
/// What the files are: ordinary HDF5 files; the datasets are contiguous instead of PETSc's one
/// chunk per dataset, which PETSc's VecLoad (checkpoints) and ParaView's XDMF readers read alike.
///
/// Speed, measured (2026-11, the 40 x 40 x 40 hex8 box of examples/guide/outputs.md, at np 2, 6
/// XDMF frames and 5 checkpoints, three pairs of runs alternating the binaries on a shared, loaded
/// 2-core machine; timings.csv): output 4.86, 6.83, 3.16 s with PETSc's viewer, 2.61, 1.77, 2.46 s
/// now; checkpoint 1.99, 3.31, 1.29 s then, 1.32, 0.77, 0.75 s now (with an fdatasync per rank, and
/// the read-back for the whole-file hash). PETSc's VecView flushed the file collectively after
/// every vector (H5Fflush in VecView_MPI_HDF5); here rank 0 closes it once per frame.

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace inertia::io::detail {

/// What HDF5's error stack says about the last failure: the system's errno where a driver
/// recorded one (the POSIX driver does), else the innermost failed call.
struct Hdf5Failure {
  int error_number = 0;
  std::string innermost;
};
Hdf5Failure hdf5_failure();

/// A serial HDF5 file, for one rank (rank 0 in this module) and one at a time: POSIX I/O through
/// a driver of our own that records the first failed write instead of failing inside HDF5 (see
/// hdf5_file.cpp), no file locking (ParaView may hold the file open while the run appends to it).
/// Every failure throws IoError "<file>: <strerror>" (or what HDF5 said when it kept no errno);
/// the caller makes it collective. Nothing here is collective.
class Hdf5File {
 public:
  enum class Mode { create, append };  ///< create: truncate or make; append: open read-write
  /// `user_block`: bytes at the start of a created file that HDF5 leaves to us (0, or a power
  /// of 2 from 512).
  Hdf5File(std::filesystem::path path, Mode mode, hsize_t user_block = 0);
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  /// Closes the file if close() was not called (or failed), without checking.
  ~Hdf5File();

  void create_group(const std::string& path);
  /// A dataset `path` of `dims` elements of `type` (H5T_NATIVE_DOUBLE, H5T_NATIVE_INT, ...),
  /// contiguous and allocated now, never filled; returns the byte offset of its first element
  /// in the file (0 for an empty dataset), where the ranks write its values (row-major).
  std::uint64_t create_dataset(const std::string& path, const std::vector<hsize_t>& dims,
                               hid_t type);
  /// Scalar attributes of the root group, as PETSc's PetscViewerHDF5WriteAttribute writes them
  /// (PETSC_LONG, PETSC_DOUBLE, PETSC_STRING: a null-terminated C string), so that
  /// PetscViewerHDF5ReadAttribute reads them.
  void write_attribute(const std::string& name, long value);
  void write_attribute(const std::string& name, double value);
  void write_attribute(const std::string& name, const std::string& value);
  /// Writes what HDF5 still holds (the metadata) and closes the file; a failure shows here.
  void close();

 private:
  /// Closes the file and throws IoError: the system's reason for the first failure if there is
  /// one, else `what` and what HDF5 said.
  [[noreturn]] void fail(const std::string& what);
  void write_attribute(const std::string& name, hid_t type, const void* value);

  std::filesystem::path path_;
  hid_t file_ = H5I_INVALID_HID;
};

/// Bytes to write at a byte offset of a file.
struct Slice {
  std::uint64_t offset = 0;
  std::span<const std::byte> bytes;
};

/// One rank's writes into an existing file (created by an Hdf5File): opened for writing on
/// construction, pwrite(2) for each slice, and close(2), each call checked; IoError
/// "<file>: <strerror>" on the first failure. Not collective. `durable`: fdatasync(2) before
/// closing (for a checkpoint, which is renamed into place next).
class SliceWriter {
 public:
  explicit SliceWriter(std::filesystem::path path);
  SliceWriter(const SliceWriter&) = delete;
  SliceWriter& operator=(const SliceWriter&) = delete;
  ~SliceWriter();  ///< closes without checking if close() was not called

  void write(const Slice& slice);
  void close(bool durable);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

/// Runs `write` (this rank's writes) unless an earlier one failed, and keeps its exception in
/// `failure`: the ranks go on with the collective work between writes (the scatters) and agree
/// on `failure` (rethrow_collectively) once it is done.
template <typename F>
void unless_failed(std::exception_ptr& failure, F&& write) {
  if (failure) return;
  try {
    write();
  } catch (...) {
    failure = std::current_exception();
  }
}

/// The bytes of a contiguous array, for a Slice.
template <typename T>
std::span<const std::byte> bytes_of(std::span<const T> values) {
  return std::as_bytes(values);
}

}  // namespace inertia::io::detail
