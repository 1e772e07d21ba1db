#include "inertia/parallel/natural_order.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <numeric>

#include "inertia/core/error.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// MPI counts are ints (checked collectively beforehand: see natural_order).
int count_of(std::size_t n) { return static_cast<int>(n); }

/// Displacements of consecutive segments of `counts`.
std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  return displs;
}

/// Indices of `keys` in increasing order of key (ties in index order).
std::vector<std::size_t> sorting_permutation(std::span<const std::int64_t> keys) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

}  // namespace

std::vector<std::int64_t> natural_order(MPI_Comm comm, std::span<const std::int64_t> keys,
                                        std::int64_t& num_global, std::string_view what) {
  const int ranks = size_of(comm);
  const auto p = static_cast<std::size_t>(ranks);
  std::int64_t local = static_cast<std::int64_t>(keys.size()), total = 0, most = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &total, 1, MPI_INT64_T, MPI_SUM, comm));
  INERTIA_MPI(MPI_Allreduce(&local, &most, 1, MPI_INT64_T, MPI_MAX, comm));
  // MPI counts and displacements are ints: what a rank sends or receives stays below INT_MAX.
  INERTIA_CHECK(most <= INT_MAX / 2 && total / ranks <= INT_MAX / 4, InputError,
                "natural_order: ", most, " ", what, "s on one rank (", total,
                " in all) exceed what this numbering's MPI messages can carry");

  // This rank's keys, sorted.
  const std::vector<std::size_t> order = sorting_permutation(keys);
  std::vector<std::int64_t> sorted(keys.size());
  for (std::size_t j = 0; j < order.size(); ++j) sorted[j] = keys[order[j]];

  // Splitters from a regular sample of every rank's sorted keys, each rank sampling in proportion
  // to its share (about `per_rank` samples per destination rank in all): every rank then receives
  // about N / p keys, give or take N / per_rank.
  std::vector<std::int64_t> splitters;
  if (total > 0) {
    const std::size_t per_rank = std::min<std::size_t>(std::max<std::size_t>(p, 16), 256);
    const auto target = std::min<std::int64_t>(total, static_cast<std::int64_t>(p * per_rank));
    const auto n = static_cast<std::int64_t>(sorted.size());
    const std::int64_t s = std::min<std::int64_t>(n, (n * target + total - 1) / total);
    std::vector<std::int64_t> mine(static_cast<std::size_t>(s));
    for (std::int64_t i = 0; i < s; ++i)
      mine[static_cast<std::size_t>(i)] =
          sorted[static_cast<std::size_t>((2 * i + 1) * n / (2 * s))];
    std::vector<int> counts(p);
    const int count = count_of(mine.size());
    INERTIA_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm));
    const std::vector<int> displs = displacements(counts);
    std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
    INERTIA_MPI(MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(),
                               displs.data(), MPI_INT64_T, comm));
    std::sort(all.begin(), all.end());
    for (std::size_t k = 1; k < p; ++k) splitters.push_back(all[k * all.size() / p]);
  } else {
    splitters.assign(p - 1, 0);
  }

  // Each key to the rank of its range: rank r holds [splitters[r - 1], splitters[r]), so every
  // copy of a key meets the others on one rank.
  std::vector<int> send_counts(p, 0);
  {
    std::size_t begin = 0;
    for (std::size_t r = 0; r < p; ++r) {
      const std::size_t end =
          r + 1 < p
              ? static_cast<std::size_t>(
                    std::lower_bound(sorted.begin(), sorted.end(), splitters[r]) - sorted.begin())
              : sorted.size();
      send_counts[r] = count_of(end - begin);
      begin = end;
    }
  }
  std::vector<int> recv_counts(p, 0);
  INERTIA_MPI(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm));
  const std::int64_t incoming =
      std::accumulate(recv_counts.begin(), recv_counts.end(), std::int64_t{0});
  INERTIA_CHECK(all_true(comm, incoming <= INT_MAX), InputError,
                "natural_order: a rank's share of ", total, " ", what,
                "s exceeds what one MPI message can carry");
  const std::vector<int> send_displs = displacements(send_counts);
  const std::vector<int> recv_displs = displacements(recv_counts);
  std::vector<std::int64_t> received(
      static_cast<std::size_t>(recv_displs.back() + recv_counts.back()));
  INERTIA_MPI(MPI_Alltoallv(sorted.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            received.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T,
                            comm));

  // Their order here, a duplicate (if any) being adjacent.
  const std::vector<std::size_t> here = sorting_permutation(received);
  struct {
    std::int64_t found = 0, key = INT64_MAX;
  } duplicate;
  for (std::size_t j = 1; j < here.size(); ++j)
    if (received[here[j]] == received[here[j - 1]]) {
      duplicate.found = 1;
      duplicate.key = std::min(duplicate.key, received[here[j]]);
    }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &duplicate.found, 1, MPI_INT64_T, MPI_MAX, comm));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &duplicate.key, 1, MPI_INT64_T, MPI_MIN, comm));
  INERTIA_CHECK(!duplicate.found, InputError, what, " ", duplicate.key, " appears twice");

  // Positions: the ranks before this one hold the smaller keys.
  std::int64_t held = static_cast<std::int64_t>(received.size()), offset = 0;
  INERTIA_MPI(MPI_Exscan(&held, &offset, 1, MPI_INT64_T, MPI_SUM, comm));
  if (rank_of(comm) == 0) offset = 0;  // MPI_Exscan leaves rank 0's result undefined
  std::vector<std::int64_t> positions(received.size());
  for (std::size_t j = 0; j < here.size(); ++j)
    positions[here[j]] = offset + static_cast<std::int64_t>(j);

  // Back to the keys' ranks, in the order they were sent (sorted), then in the caller's order.
  std::vector<std::int64_t> back(sorted.size());
  INERTIA_MPI(MPI_Alltoallv(positions.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T,
                            back.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            comm));
  std::vector<std::int64_t> result(keys.size());
  for (std::size_t j = 0; j < order.size(); ++j) result[order[j]] = back[j];
  num_global = total;
  return result;
}

}  // namespace inertia
