// natural_order: distributed keys numbered by their rank in the sorted order of all keys, checked
// against a serial sort of the same keys (every rank draws them from one seed) for several ways of
// splitting them over the ranks (uneven, all on one rank, empty ranks, fewer keys than ranks, none
// at all), and the duplicate error, which every rank must throw with the same message.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/parallel/natural_order.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

/// `n` distinct keys over the whole int64 range (extremes included), in random order; the same on
/// every rank.
std::vector<std::int64_t> distinct_keys(std::size_t n, unsigned seed) {
  std::mt19937_64 random(seed);
  std::vector<std::int64_t> keys;
  if (n > 0) keys.push_back(std::numeric_limits<std::int64_t>::min());
  if (n > 1) keys.push_back(std::numeric_limits<std::int64_t>::max());
  while (keys.size() < n) {
    // Mostly clustered keys (like a mesh's tags), some spread over the whole range.
    const std::int64_t k = keys.size() % 4 == 0 ? static_cast<std::int64_t>(random())
                                                : static_cast<std::int64_t>(random() % (4 * n));
    keys.push_back(k);
    if (keys.size() == n) {
      std::sort(keys.begin(), keys.end());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    }
  }
  std::shuffle(keys.begin(), keys.end(), random);
  return keys;
}

/// Rank r's share of `n` things split by `weights` (consecutive ranges).
std::pair<std::size_t, std::size_t> share(std::size_t n, const std::vector<double>& weights) {
  const int rank = rank_of(MPI_COMM_WORLD);
  double total = 0, before = 0;
  for (std::size_t r = 0; r < weights.size(); ++r) {
    total += weights[r];
    if (static_cast<int>(r) < rank) before += weights[r];
  }
  const auto at = [&](double w) { return static_cast<std::size_t>(n * (w / total) + 0.5); };
  return {at(before), at(before + weights[static_cast<std::size_t>(rank)])};
}

/// Checks natural_order on `all` split by `weights` against a serial sort; true on every rank iff
/// right on every rank.
bool matches_serial_sort(const std::vector<std::int64_t>& all, const std::vector<double>& weights) {
  const auto [begin, end] = share(all.size(), weights);
  const std::vector<std::int64_t> mine(all.begin() + static_cast<std::ptrdiff_t>(begin),
                                       all.begin() + static_cast<std::ptrdiff_t>(end));
  std::int64_t num_global = -1;
  const std::vector<std::int64_t> order = natural_order(MPI_COMM_WORLD, mine, num_global, "tag");
  std::vector<std::int64_t> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  bool ok = num_global == static_cast<std::int64_t>(all.size()) && order.size() == mine.size();
  EXPECT_EQ(num_global, static_cast<std::int64_t>(all.size()));
  for (std::size_t i = 0; ok && i < mine.size(); ++i) {
    const auto expected = std::lower_bound(sorted.begin(), sorted.end(), mine[i]) - sorted.begin();
    EXPECT_EQ(order[i], expected) << "key " << mine[i];
    ok = order[i] == expected;
  }
  return all_true(MPI_COMM_WORLD, ok);
}

std::vector<double> weights_where(auto f) {
  std::vector<double> w(static_cast<std::size_t>(size_of(MPI_COMM_WORLD)));
  for (std::size_t r = 0; r < w.size(); ++r) w[r] = f(static_cast<int>(r));
  return w;
}

}  // namespace

TEST(NaturalOrder, MatchesSerialSortSplitUnevenly) {
  const auto keys = distinct_keys(5000, 1);
  EXPECT_TRUE(
      matches_serial_sort(keys, weights_where([](int r) { return (r + 1.0) * (r + 1.0); })));
  EXPECT_TRUE(matches_serial_sort(keys, weights_where([](int r) { return r == 0 ? 10.0 : 1.0; })));
}

TEST(NaturalOrder, EmptyRanks) {
  const int last = size_of(MPI_COMM_WORLD) - 1;
  const auto keys = distinct_keys(777, 2);
  // Everything on the last rank; on every rank but the middle one (np 3).
  EXPECT_TRUE(
      matches_serial_sort(keys, weights_where([&](int r) { return r == last ? 1.0 : 0.0; })));
  EXPECT_TRUE(matches_serial_sort(keys, weights_where([](int r) { return r == 1 ? 0.0 : 1.0; })));
  // Fewer keys than ranks, and none at all.
  EXPECT_TRUE(matches_serial_sort(distinct_keys(1, 3), weights_where([](int) { return 1.0; })));
  EXPECT_TRUE(matches_serial_sort(distinct_keys(2, 4), weights_where([](int) { return 1.0; })));
  EXPECT_TRUE(matches_serial_sort({}, weights_where([](int) { return 1.0; })));
}

TEST(NaturalOrder, InterleavedKeysNumberThemselves) {
  // Keys 0 .. N-1 interleaved over the ranks (rank r: r, r + P, ...): the numbering is the key.
  const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
  std::vector<std::int64_t> mine;
  for (std::int64_t k = rank; k < 10007; k += size) mine.push_back(k);
  std::reverse(mine.begin(), mine.end());
  std::int64_t num_global = 0;
  const auto order = natural_order(MPI_COMM_WORLD, mine, num_global);
  EXPECT_EQ(num_global, 10007);
  EXPECT_TRUE(all_true(MPI_COMM_WORLD, order == mine));
}

/// The message natural_order throws on this rank ("" if none).
std::string error_of(std::vector<std::int64_t> keys) {
  std::int64_t num_global = 0;
  try {
    natural_order(MPI_COMM_WORLD, keys, num_global, "cell");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NaturalOrder, DuplicateThrowsOnEveryRankWithOneMessage) {
  const int rank = rank_of(MPI_COMM_WORLD), last = size_of(MPI_COMM_WORLD) - 1;
  // Across ranks (the same rank at np 1): 42 on the first and the last rank; 7 twice on rank 0.
  std::vector<std::int64_t> keys{100 + rank};
  if (rank == 0) keys.push_back(42);
  if (rank == last) keys.push_back(42);
  std::string message = error_of(keys);
  EXPECT_EQ(message, "cell 42 appears twice");
  EXPECT_EQ(broadcast_string(MPI_COMM_WORLD, message), message);
  keys = rank == 0 ? std::vector<std::int64_t>{1000, 7, -3, 7, -3}
                   : std::vector<std::int64_t>{1000 + rank};
  message = error_of(keys);
  EXPECT_EQ(message, "cell -3 appears twice");
  EXPECT_EQ(broadcast_string(MPI_COMM_WORLD, message), message);
  // The default name of a key.
  std::int64_t num_global = 0;
  const std::vector<std::int64_t> twice{5, 5};
  const std::vector<std::int64_t> none;
  try {
    natural_order(MPI_COMM_WORLD, rank == last ? twice : none, num_global);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "key 5 appears twice");
  }
}
