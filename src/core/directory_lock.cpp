#include "inertia/core/directory_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <utility>

#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

/// The first line of the lock file, fit for a message ("" if it is empty).
std::string holder_line(int fd) {
  char buffer[1024];
  const ssize_t n = ::pread(fd, buffer, sizeof buffer, 0);
  if (n <= 0) return {};
  std::string_view text(buffer, static_cast<std::size_t>(n));
  text = text.substr(0, text.find('\n'));
  return printable(text);
}

/// The errors of flock(2) that mean "no locks on this file system" rather than "held".
bool unsupported(int error) {
  return error == ENOLCK || error == ENOSYS || error == EOPNOTSUPP || error == EINVAL;
}

}  // namespace

DirectoryLock::DirectoryLock(const std::filesystem::path& directory, const std::string& holder)
    : path_(directory / file_name) {
  // A holder that releases removes the file while it still holds the lock: a process that
  // opened that file just before and locks it just after holds a lock on a removed file. It
  // sees so (the path names another file, or none) and tries again.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw_io_error(path_, errno);
    int status = 0;
    do status = ::flock(fd, LOCK_EX | LOCK_NB);
    while (status != 0 && errno == EINTR);
    if (status != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        // The holder writes its line right after taking the lock: give it a moment.
        for (int i = 0; i < 50 && holder_.empty(); ++i) {
          holder_ = holder_line(fd);
          if (holder_.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        ::close(fd);
        outcome_ = Outcome::held;
        return;
      }
      struct stat st {};
      if (::fstat(fd, &st) == 0 && st.st_size == 0) ::unlink(path_.c_str());  // leave nothing
      ::close(fd);
      if (!unsupported(error)) throw_io_error(path_, error);
      outcome_ = Outcome::unsupported;
      error_ = error;
      return;
    }
    struct stat locked {
    }, named{};
    if (::fstat(fd, &locked) != 0 || ::stat(path_.c_str(), &named) != 0 ||
        locked.st_ino != named.st_ino || locked.st_dev != named.st_dev) {
      ::close(fd);
      if (attempt < 100) continue;
      throw IoError(cat(printable(path_.string()), ": the lock file keeps being replaced"));
    }
    previous_holder_ = holder_line(fd);
    const std::string line = holder + "\n";
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, line.data(), line.size(), 0) != static_cast<ssize_t>(line.size())) {
      const int error = errno;
      ::unlink(path_.c_str());
      ::close(fd);
      throw_io_error(path_, error);
    }
    fd_ = fd;
    outcome_ = Outcome::taken;
    return;
  }
}

DirectoryLock::DirectoryLock(DirectoryLock&& o) noexcept
    : path_(std::move(o.path_)),
      fd_(std::exchange(o.fd_, -1)),
      outcome_(std::exchange(o.outcome_, Outcome::none)),
      holder_(std::move(o.holder_)),
      previous_holder_(std::move(o.previous_holder_)),
      error_(o.error_) {}

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& o) noexcept {
  if (this != &o) {
    release();
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    outcome_ = std::exchange(o.outcome_, Outcome::none);
    holder_ = std::move(o.holder_);
    previous_holder_ = std::move(o.previous_holder_);
    error_ = o.error_;
  }
  return *this;
}

void DirectoryLock::release() noexcept {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // before the lock goes (see the constructor)
  ::close(fd_);
  fd_ = -1;
}

}  // namespace inertia
