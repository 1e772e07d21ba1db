#include "inertia/core/limits.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace inertia {

std::uint64_t memory_limit_bytes() {
  std::uint64_t limit = 0;
  auto lower = [&limit](std::uint64_t bytes) {
    if (bytes > 0) limit = limit == 0 ? bytes : std::min(limit, bytes);
  };
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0)
    lower(static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size));
  rlimit address_space{};
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY)
    lower(address_space.rlim_cur);
  // cgroup v2 (the process's cgroup is the root of its namespace in a container); "max" or a
  // missing file leave the limit as it is.
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  std::string value;
  if (cgroup >> value && !value.empty() &&
      value.find_first_not_of("0123456789") == std::string::npos && value.size() < 20)
    lower(std::stoull(value));
  return limit;
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return 1024 * static_cast<std::uint64_t>(usage.ru_maxrss);  // kilobytes on Linux
}

}  // namespace inertia
