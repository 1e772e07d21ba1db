#include "inertia/core/hash.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "inertia/core/files.hpp"

// The library's own implementation, inlined here (xxHash's documented header-only mode): no
// shared library to link, the same code as libxxhash.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace inertia {

std::uint64_t hash64(const void* data, std::size_t bytes, std::uint64_t seed) {
  return XXH3_64bits_withSeed(data, bytes, seed);
}

struct Hasher::State {
  XXH3_state_t xxh;
};

Hasher::Hasher() : state_(std::make_unique<State>()) { XXH3_64bits_reset(&state_->xxh); }
Hasher::~Hasher() = default;
Hasher::Hasher(Hasher&&) noexcept = default;
Hasher& Hasher::operator=(Hasher&&) noexcept = default;

Hasher& Hasher::add_bytes(const void* data, std::size_t bytes) {
  XXH3_64bits_update(&state_->xxh, data, bytes);
  return *this;
}

Hasher& Hasher::add(std::string_view text) {
  const std::uint64_t n = text.size();
  add_bytes(&n, sizeof n);
  return add_bytes(text.data(), text.size());
}

std::uint64_t Hasher::digest() const { return XXH3_64bits_digest(&state_->xxh); }

std::uint64_t hash_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io_error(path, errno);
  Hasher h;
  std::vector<char> block(1 << 20);
  for (;;) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw_io_error(path, e);
    }
    if (n == 0) break;
    h.add_bytes(block.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return h.digest();
}

std::uint64_t combine_unordered(std::uint64_t sum, std::uint64_t item_hash) {
  // splitmix64's finaliser: a bijection with full avalanche, so that sums of related item
  // hashes do not cancel.
  std::uint64_t z = item_hash + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return sum + (z ^ (z >> 31));
}

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

}  // namespace inertia
