#pragma once
/// \file limits.hpp
/// Overflow-checked integer arithmetic for sizes computed from input, and the memory one process
/// may use. No MPI, no PETSc.

#include <cstdint>
#include <optional>

namespace inertia {

/// a * b, or nothing if the product does not fit in int64.
inline std::optional<std::int64_t> checked_mul(std::optional<std::int64_t> a,
                                               std::optional<std::int64_t> b) {
  std::int64_t r = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

/// a + b, or nothing if the sum does not fit in int64.
inline std::optional<std::int64_t> checked_add(std::optional<std::int64_t> a,
                                               std::optional<std::int64_t> b) {
  std::int64_t r = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

/// The memory this process can have, in bytes: the machine's physical memory, or less if an
/// address-space limit (ulimit -v) or a cgroup memory limit (containers) says so. 0 if unknown.
std::uint64_t memory_limit_bytes();

/// The peak resident set of this process so far (getrusage's ru_maxrss), in bytes.
std::uint64_t peak_resident_bytes();

}  // namespace inertia
