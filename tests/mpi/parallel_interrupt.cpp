// SIGTERM on one rank stops every rank (parallel/session.hpp): stop_if_interrupted() combines the
// ranks' flags, and an Interrupted thrown by rank 0 working alone (run_on_root) reaches every rank
// with its signal. Outcomes are combined across ranks before any assertion.

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "inertia/core/interrupt.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

/// The signal every rank caught as Interrupted (with the expected message), or -1 if the ranks
/// disagree or one caught nothing.
template <typename F>
int signal_on_every_rank(F&& f, const std::string& message) {
  int caught = 0;
  try {
    f();
  } catch (const Interrupted& e) {
    caught = e.what() == message ? e.signal() : -2;
  }
  int low = caught, high = caught;
  MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return low == high ? low : -1;
}

TEST(StopIfInterrupted, ASignalOnTheLastRankStopsEveryRank) {
  const InterruptGuard guard;
  EXPECT_EQ(signal_on_every_rank([] { stop_if_interrupted(MPI_COMM_WORLD, "while testing"); },
                                 "interrupted by SIGTERM while testing"),
            0);
  if (rank_of(MPI_COMM_WORLD) == size_of(MPI_COMM_WORLD) - 1) std::raise(SIGTERM);
  EXPECT_EQ(signal_on_every_rank([] { stop_if_interrupted(MPI_COMM_WORLD, "while testing"); },
                                 "interrupted by SIGTERM while testing"),
            SIGTERM);
}

TEST(RunOnRoot, AnInterruptionOfRankZeroWorkingAloneReachesEveryRankWithItsSignal) {
  const InterruptGuard guard;
  if (rank_of(MPI_COMM_WORLD) == 0) std::raise(SIGINT);
  EXPECT_EQ(signal_on_every_rank(
                [] { run_on_root(MPI_COMM_WORLD, [] { throw_if_interrupted("while reading"); }); },
                "interrupted by SIGINT while reading"),
            SIGINT);
}

}  // namespace
