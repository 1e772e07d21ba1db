#pragma once
/// \file files.hpp
/// Checked file output. Every write goes through write(2) so that a failure (a full disk, a
/// vanished directory) is seen where it happens, with its errno, and becomes an IoError whose
/// message is one line, "<file>: <strerror>" (e.g. "out/probes.csv: No space left on device").
/// No MPI: the callers decide which rank writes and fail collectively.

#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "inertia/core/error.hpp"

namespace inertia {

/// A failed read or write of a file: one line naming the file and the system's reason.
class IoError : public Error {
 public:
  using Error::Error;
};

/// IoError "<path>: <strerror(error_number)>".
[[noreturn]] void throw_io_error(const std::filesystem::path& path, int error_number);

/// A file written sequentially with checked writes. Move-only; the destructor closes without
/// checking (call close() to see a failure).
class OutputFile {
 public:
  enum class Mode { truncate, append };
  OutputFile() = default;
  /// Opens (creating it if needed); throws IoError.
  OutputFile(const std::filesystem::path& path, Mode mode);
  OutputFile(OutputFile&& o) noexcept;
  OutputFile& operator=(OutputFile&& o) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// Writes all of `data` (retrying short writes); throws IoError.
  void write(std::string_view data);
  /// Writes all of `data` or nothing: after a failure (a full disk) the file is cut back to its
  /// size before the call, so it never ends with a part of `data`. Throws IoError.
  void write_whole(std::string_view data);
  /// Flushes the data to the device (fsync); throws IoError.
  void sync();
  /// Closes; throws IoError if the close reports a failure. Idempotent.
  void close();
  explicit operator bool() const { return fd_ >= 0; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

/// Writes `content` to `path` atomically: to "<path>.tmp" (written, synced, closed, all checked),
/// then renamed over `path`, so a reader (or a kill) sees the old file or the new one, never a
/// part. Throws IoError naming the file.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);
/// The same with the content given in pieces, written one after another.
void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::string_view> pieces);

/// The whole content of a file; throws IoError.
std::string read_file(const std::filesystem::path& path);

/// Whether `directory` could be created (or written in, if it exists), found without creating
/// anything: "" if it could, else the message "<directory>: cannot create the <what> (<reason>)"
/// (or "cannot write in the <what>"), the reason naming the path at fault ("/data/blocker is
/// not a directory", "/data: Permission denied", "/ro: Read-only file system"). Walks up to the
/// nearest existing ancestor and asks access(2) there for write and search permission (with the
/// real user id, as the run will create it; root passes except on read-only file systems).
/// For `--check`, which leaves no trace.
std::string directory_creation_problem(const std::filesystem::path& directory,
                                       std::string_view what);

/// A few KiB of disk kept aside in a hidden file for the last words of a failing run: when the
/// disk fills, release() frees them so that the INCOMPLETE marks of the histories and the
/// series still fit. Best effort: creating the reserve where it cannot be made is not an error.
/// The destructor removes the file.
class SpaceReserve {
 public:
  SpaceReserve() = default;
  SpaceReserve(std::filesystem::path path, std::size_t bytes);
  SpaceReserve(const SpaceReserve&) = delete;
  SpaceReserve& operator=(const SpaceReserve&) = delete;
  ~SpaceReserve() { release(); }
  void release() noexcept;

 private:
  std::filesystem::path path_;
};

}  // namespace inertia
