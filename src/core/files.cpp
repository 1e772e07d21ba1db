#include "inertia/core/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "inertia/core/text.hpp"

namespace inertia {

void throw_io_error(const std::filesystem::path& path, int error_number) {
  throw IoError(cat(printable(path.string()), ": ", std::strerror(error_number)));
}

OutputFile::OutputFile(const std::filesystem::path& path, Mode mode) : path_(path) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == Mode::append ? O_APPEND : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) throw_io_error(path, errno);
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)) {}

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void OutputFile::write(std::string_view data) {
  INERTIA_ASSERT(fd_ >= 0);
  while (!data.empty()) {
    const ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io_error(path_, errno);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

void OutputFile::write_whole(std::string_view data) {
  INERTIA_ASSERT(fd_ >= 0);
  struct stat before {};
  const bool known = ::fstat(fd_, &before) == 0;
  try {
    write(data);
  } catch (const IoError&) {
    // Best effort (the error is what matters): the file ends where it ended, and so does the
    // position of the next write (else it would leave a hole of zeros).
    if (known && ::ftruncate(fd_, before.st_size) == 0)
      (void)::lseek(fd_, before.st_size, SEEK_SET);
    throw;
  }
}

void OutputFile::sync() {
  INERTIA_ASSERT(fd_ >= 0);
  if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) throw_io_error(path_, errno);
}

void OutputFile::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0 && errno != EINTR) throw_io_error(path_, errno);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  write_file_atomically(path, {content});
}

void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::string_view> pieces) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    OutputFile out(tmp, OutputFile::Mode::truncate);
    for (const auto piece : pieces) out.write(piece);
    out.sync();
    out.close();
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw_io_error(path, ec.value());
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_io_error(path, errno ? errno : ENOENT);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw_io_error(path, errno ? errno : EIO);
  return content.str();
}

std::string directory_creation_problem(const std::filesystem::path& directory,
                                       std::string_view what) {
  namespace fs = std::filesystem;
  const std::string name = printable(directory.string());
  const auto cannot_create = [&](const std::string& why) {
    return cat(name, ": cannot create the ", what, " (", why, ")");
  };
  std::error_code ec;
  const fs::path absolute = fs::absolute(directory, ec).lexically_normal();
  if (ec) return cannot_create(ec.message());
  // The nearest existing ancestor (or the directory itself), as a creation would reach it.
  fs::path existing = absolute;
  for (;;) {
    const fs::file_status st = fs::status(existing, ec);
    if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
      return cannot_create(cat(printable(existing.string()), ": ", ec.message()));
    if (fs::exists(st)) {
      if (!fs::is_directory(st))
        return cannot_create(cat(printable(existing.string()), " is not a directory"));
      break;
    }
    if (fs::is_symlink(fs::symlink_status(existing, ec)))
      return cannot_create(cat(printable(existing.string()), " is a symbolic link to nothing"));
    if (!existing.has_relative_path()) return cannot_create("no such file system root");
    existing = existing.parent_path();
  }
  if (::access(existing.c_str(), W_OK | X_OK) == 0) return {};
  if (existing == absolute)
    return cat(name, ": cannot write in the ", what, " (", std::strerror(errno), ")");
  return cannot_create(cat(printable(existing.string()), ": ", std::strerror(errno)));
}

SpaceReserve::SpaceReserve(std::filesystem::path path, std::size_t bytes) : path_(std::move(path)) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    path_.clear();
    return;
  }
  // Blocks really allocated (a file of zeros written, where fallocate is not supported).
  if (::posix_fallocate(fd, 0, static_cast<off_t>(bytes)) != 0) {
    const std::string zeros(bytes, '\0');
    if (::write(fd, zeros.data(), zeros.size()) != static_cast<ssize_t>(zeros.size())) {
      ::close(fd);
      release();
      return;
    }
  }
  ::close(fd);
}

void SpaceReserve::release() noexcept {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
  path_.clear();
}

}  // namespace inertia
