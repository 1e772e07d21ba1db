#pragma once
/// \file directory_lock.hpp
/// One run per output directory: an advisory lock, flock(2) on `<directory>/.inertia.lock`,
/// whose content describes its holder (one line, e.g. "the run of case.yaml (pid 1234 on host
/// n01, started 2026-11-27 10:00:00)"), so that a second run can say whom it waits for.
///
/// The kernel releases the lock when its holder ends, however it ends (a crash, kill -9), so a
/// lock is never stale: the next run takes it. A holder that releases it removes the file
/// first; one that ended without releasing leaves it with its line, which the next holder
/// reports (previous_holder()). The file is removed while locked and re-checked after locking
/// (the locked file must still be the one at the path), so two runs never hold locks on two
/// different files of the same name. Some network file systems have no flock (Lustre mounted
/// without -o flock, some NFS set-ups: ENOLCK, ENOSYS, EOPNOTSUPP, EINVAL): the outcome is then
/// `unsupported` and the caller decides. No MPI.

#include <filesystem>
#include <string>

namespace inertia {

class DirectoryLock {
 public:
  enum class Outcome {
    none,         ///< not tried (a default-constructed or moved-from lock)
    taken,        ///< this process holds the lock
    held,         ///< another process holds it: holder() says which
    unsupported,  ///< the file system has no flock: error() says how it refused
  };
  /// The lock file's name in the directory.
  static constexpr const char* file_name = ".inertia.lock";

  DirectoryLock() = default;
  /// Tries to take the lock of `directory`, which must exist, for a holder described by
  /// `holder` (one line); never waits. Throws IoError if the lock file cannot be opened or
  /// written (a directory without write permission).
  DirectoryLock(const std::filesystem::path& directory, const std::string& holder);
  DirectoryLock(DirectoryLock&& o) noexcept;
  DirectoryLock& operator=(DirectoryLock&& o) noexcept;
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  /// Releases the lock (removes the file, then closes it), if taken.
  ~DirectoryLock() { release(); }

  Outcome outcome() const { return outcome_; }
  /// held: the holder's line ("" if it has not written it yet: it took the lock an instant ago).
  const std::string& holder() const { return holder_; }
  /// taken: the line a previous holder left, which ended without releasing the lock (killed,
  /// crashed); "" after a clean release or in a new directory.
  const std::string& previous_holder() const { return previous_holder_; }
  /// unsupported: the errno of flock.
  int error() const { return error_; }
  const std::filesystem::path& path() const { return path_; }
  void release() noexcept;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  Outcome outcome_ = Outcome::none;
  std::string holder_, previous_holder_;
  int error_ = 0;
};

}  // namespace inertia
