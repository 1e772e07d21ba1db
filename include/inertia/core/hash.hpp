#pragma once
/// \file hash.hpp
/// Content hashes for integrity checks: XXH3 (64 bits) from the xxHash library, streaming or in
/// one call. Not cryptographic: it tells a damaged or changed file from the one that was written
/// (a single flipped bit changes the hash), not a forgery. No MPI: combining the hashes of a
/// distributed object so that the result does not depend on the rank count is the caller's job
/// (see combine_unordered).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace inertia {

/// XXH3-64 of `bytes` bytes at `data`, with a seed.
std::uint64_t hash64(const void* data, std::size_t bytes, std::uint64_t seed = 0);

/// A streaming XXH3-64 hash: add() pieces, digest() at any time. add(value) hashes the bytes of a
/// trivially copyable value, add(text) the text and its length (so "ab","c" and "a","bc" differ).
class Hasher {
 public:
  Hasher();
  ~Hasher();
  Hasher(Hasher&&) noexcept;
  Hasher& operator=(Hasher&&) noexcept;
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;

  Hasher& add_bytes(const void* data, std::size_t bytes);
  Hasher& add(std::string_view text);
  Hasher& add(const char* text) { return add(std::string_view(text)); }
  Hasher& add(const std::string& text) { return add(std::string_view(text)); }
  template <class T>
  requires std::is_trivially_copyable_v<T> Hasher& add(const T& value) {
    return add_bytes(&value, sizeof value);
  }
  template <class T>
  requires std::is_trivially_copyable_v<T> Hasher& add(std::span<const T> values) {
    const std::uint64_t n = values.size();
    add_bytes(&n, sizeof n);
    return add_bytes(values.data(), values.size_bytes());
  }
  std::uint64_t digest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The hash of a file's whole content, read in blocks (a few GB/s); throws IoError naming the
/// file with the system's reason.
std::uint64_t hash_file(const std::filesystem::path& path);

/// An order-independent combination of item hashes: sum of mix(h) modulo 2^64, mix a bijective
/// avalanche of h. Combine each item's hash, itself including the item's global index, so
/// that the result is the same however the items are distributed over ranks (reduce the partial
/// sums with MPI_SUM on MPI_UINT64_T).
std::uint64_t combine_unordered(std::uint64_t sum, std::uint64_t item_hash);

/// 16 lower-case hexadecimal digits.
std::string hex64(std::uint64_t value);

}  // namespace inertia
