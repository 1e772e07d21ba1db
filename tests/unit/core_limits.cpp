// Overflow-checked size arithmetic and the process's memory limit.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "inertia/core/limits.hpp"

namespace inertia {
namespace {

constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();

TEST(Limits, CheckedMultiplicationSaysWhenTheProductOverflows) {
  EXPECT_EQ(checked_mul(3037000499, 3037000499), 9223372030926249001);
  EXPECT_FALSE(checked_mul(3037000500, 3037000500));
  EXPECT_EQ(checked_mul(max, 1), max);
  EXPECT_FALSE(checked_mul(max, 2));
  EXPECT_FALSE(checked_mul(min, -1));
  EXPECT_EQ(checked_mul(-4, 5), -20);
  // 4194304^3 = 2^66 wraps to 0 in plain int64 arithmetic
  EXPECT_FALSE(checked_mul(checked_mul(4194304, 4194304), 4194304));
  EXPECT_FALSE(checked_mul(std::nullopt, 1));
}

TEST(Limits, CheckedAdditionSaysWhenTheSumOverflows) {
  EXPECT_EQ(checked_add(max - 1, 1), max);
  EXPECT_FALSE(checked_add(max, 1));
  EXPECT_FALSE(checked_add(min, -1));
  EXPECT_FALSE(checked_add(1, std::nullopt));
}

TEST(Limits, KnowsTheMemoryOfThisMachine) {
  const std::uint64_t bytes = memory_limit_bytes();
  EXPECT_GT(bytes, std::uint64_t{64} << 20);  // more than 64 MiB
}

}  // namespace
}  // namespace inertia
