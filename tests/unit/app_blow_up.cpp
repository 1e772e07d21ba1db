// BlowUpWatch (app/blow_up.hpp): when a run blows up, and since when its solution has grown.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "inertia/app/blow_up.hpp"

namespace inertia {
namespace {

/// A steady response: an oscillation of amplitude 1e-3 about a static deflection of 2e-3.
double steady(std::int64_t n) {
  return 2e-3 + 1e-3 * std::abs(std::sin(0.3 * static_cast<double>(n)));
}

/// An unstable mode growing by `rate` per step from round-off at step 0, alternating in sign
/// (the highest mode of an explicit scheme above its stable step), on top of the steady part.
double unstable(std::int64_t n, double rate) {
  return steady(n) + 1e-12 * std::pow(rate, static_cast<double>(n));
}

TEST(BlowUpWatch, ASteadyRunNeverBlowsUpAndItsStatesAreSteadyAfterAWindow) {
  BlowUpWatch watch(1.0, 0);
  for (std::int64_t n = 0; n <= 5000; ++n) {
    BlowUpWatch::Energy energy{1e-6, 1.0};  // a balance of 1e-6 of the energy in play
    ASSERT_FALSE(watch.after_step(n, n == 0 ? 0.0 : steady(n), energy)) << "step " << n;
  }
  EXPECT_EQ(watch.onset(), 5001);
  EXPECT_EQ(watch.last_steady_step(), 5000 - BlowUpWatch::window);
}

TEST(BlowUpWatch, ADisplacementBeyondAMillionTimesTheModelStopsTheRunAndNamesTheGrowthStart) {
  // 1.33 per step: from 1e-12 the mode passes the steady 3e-3 near step 69 and 1e6 m near 168.
  BlowUpWatch watch(1.0, 0);
  std::optional<std::string> verdict;
  std::int64_t n = 0;
  for (; n < 400 && !verdict; ++n) verdict = watch.after_step(n, unstable(n, 1.33));
  ASSERT_TRUE(verdict);
  const std::int64_t stopped = n - 1;
  EXPECT_GT(unstable(stopped, 1.33), 1e6);
  EXPECT_LE(unstable(stopped - 1, 1.33), 1e6);
  // The mode doubles every 2.4 steps once it dominates: visible in the window maxima from about
  // step 69 on; the growth start is the window before the first growing one.
  EXPECT_GE(watch.onset(), 69 - 2 * BlowUpWatch::window);
  EXPECT_LE(watch.onset(), 69);
  EXPECT_NE(verdict->find("the largest displacement is"), std::string::npos) << *verdict;
  EXPECT_NE(verdict->find(std::string("growing since step ") + std::to_string(watch.onset())),
            std::string::npos)
      << *verdict;
  EXPECT_EQ(verdict->find('\n'), std::string::npos);
  EXPECT_EQ(watch.last_steady_step(), watch.onset() - 1);
}

TEST(BlowUpWatch, AnEnergyBalanceOffByMoreThanHalfTheEnergyStopsItAfterThreeEvaluations) {
  BlowUpWatch watch(1.0, 0);
  watch.after_step(0, 1e-3);  // a steady displacement throughout: only the energy is off
  // A balance error of 60 % twice, then back: a transient, not a blow-up.
  EXPECT_FALSE(watch.after_step(1, 1e-3, BlowUpWatch::Energy{0.6, 1.0}));
  EXPECT_FALSE(watch.after_step(2, 1e-3, BlowUpWatch::Energy{0.6, 1.0}));
  EXPECT_FALSE(watch.after_step(3, 1e-3, BlowUpWatch::Energy{0.1, 1.0}));
  EXPECT_FALSE(watch.after_step(4, 1e-3, BlowUpWatch::Energy{-0.6, 1.0}));
  EXPECT_FALSE(watch.after_step(5, 1e-3, BlowUpWatch::Energy{-0.6, 1.0}));
  const auto verdict = watch.after_step(6, 1e-3, BlowUpWatch::Energy{-0.6, 1.0});
  ASSERT_TRUE(verdict);
  EXPECT_NE(verdict->find("the energy balance is -0.6 J at step 6"), std::string::npos) << *verdict;
  // Off since step 4: the states before it are the last steady ones.
  EXPECT_EQ(watch.onset(), 4);
  EXPECT_EQ(watch.last_steady_step(), 3);
  EXPECT_NE(verdict->find("growing since step 4"), std::string::npos) << *verdict;
  // A balance of exactly half is not off; nothing in play, nothing to say.
  BlowUpWatch other(1.0, 0);
  for (std::int64_t n = 1; n < 10; ++n)
    EXPECT_FALSE(
        other.after_step(n, 1e-3, BlowUpWatch::Energy{n % 2 ? 0.5 : 0.0, n % 2 ? 1.0 : 0.0}));
}

TEST(BlowUpWatch, ANonFiniteSolutionStopsItAtOnce) {
  BlowUpWatch watch(1.0, 0);
  for (std::int64_t n = 0; n < 50; ++n) ASSERT_FALSE(watch.after_step(n, steady(n)));
  const auto verdict = watch.after_step(50, std::numeric_limits<double>::quiet_NaN());
  ASSERT_TRUE(verdict);
  EXPECT_NE(verdict->find("not finite at step 50"), std::string::npos) << *verdict;
  const auto infinite = BlowUpWatch(1.0, 0).after_step(1, std::numeric_limits<double>::infinity());
  ASSERT_TRUE(infinite);
}

TEST(BlowUpWatch, ARestartComparesWithTheCheckpointsState) {
  // From step 1000 with the steady response: no growth, however large the state.
  BlowUpWatch watch(1.0, 1000);
  watch.after_step(1000, 5.0);
  for (std::int64_t n = 1001; n < 1100; ++n)
    ASSERT_FALSE(watch.after_step(n, 5.0 + 1e-3 * (n % 3)));
  EXPECT_EQ(watch.onset(), 1100);
  // Then a mode doubling every step from step 1100: growing since the window before.
  std::optional<std::string> verdict;
  std::int64_t n = 1100;
  for (double m = 5.0; !verdict; ++n, m *= 2) verdict = watch.after_step(n, m);
  EXPECT_GE(watch.onset(), 1100 - BlowUpWatch::window);
  EXPECT_LE(watch.onset(), 1101);
}

TEST(BlowUpWatch, EnergiesBelowTheFloorAreRoundOffAndNeverStopTheRun) {
  // A static run of rigid motion: every energy is round-off (1e-12 J) and the balance is all of
  // it. Under the model's floor nothing counts; the same numbers above it stop the run.
  const double floor = BlowUpWatch::energy_floor(27.0, 3e5, 1.0);
  EXPECT_NEAR(floor, 1e-18 * 27.0 * 9e10, 1e-30);
  EXPECT_EQ(BlowUpWatch::energy_floor(0.0, 3e5, 1.0), 0.0);  // no mass: no floor
  EXPECT_EQ(BlowUpWatch::energy_floor(27.0, 0.0, 1.0), 0.0);
  BlowUpWatch watch(1.0, 0, {.energy_floor = floor});
  BlowUpWatch unfloored(1.0, 0);
  watch.after_step(0, 1e-3);
  unfloored.after_step(0, 1e-3);
  std::optional<std::string> stopped;
  for (std::int64_t n = 1; n <= 40; ++n) {
    const BlowUpWatch::Energy roundoff{-7.6e-12 * static_cast<double>(n) / 40,
                                       7.6e-12 * static_cast<double>(n) / 40};
    ASSERT_FALSE(watch.after_step(n, 1e-3, roundoff)) << n;
    if (!stopped) stopped = unfloored.after_step(n, 1e-3, roundoff);
  }
  EXPECT_EQ(watch.last_steady_step(), 40 - BlowUpWatch::window);
  ASSERT_TRUE(stopped);
  EXPECT_NE(stopped->find("at step 3,"), std::string::npos) << *stopped;
}

TEST(BlowUpWatch, AllowingGrowthWarnsOnceAndStopsOnlyForANonFiniteSolution) {
  // time.allow_unstable: the energy strikes and the displacement test give one warning, at the
  // step that would have stopped the run; the run goes on until the numbers overflow.
  BlowUpWatch watch(1.0, 0, {.allow_growth = true});
  watch.after_step(0, 0.0);
  std::vector<std::string> warnings;
  std::int64_t n = 1;
  for (; n <= 400; ++n) {
    const double u = 1e-3 * std::pow(1.33, static_cast<double>(n));  // passes 1e6 m near step 96
    const BlowUpWatch::Energy energy{0.9 * u * u, u * u};
    ASSERT_FALSE(watch.after_step(n, u, energy)) << n;
    if (auto w = watch.take_warning()) warnings.push_back(*w);
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("the solution grows: the energy balance is"), std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("at step 3,"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("time.allow_unstable: true"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[0].find('\n'), std::string::npos);
  const auto verdict = watch.after_step(n, HUGE_VAL);
  ASSERT_TRUE(verdict);
  EXPECT_NE(verdict->find("the solution is not finite at step 401"), std::string::npos) << *verdict;
  EXPECT_FALSE(watch.take_warning());
  // The energies overflow first (u^2): that stops it too, before a row of infinities is written.
  BlowUpWatch other(1.0, 0, {.allow_growth = true});
  other.after_step(0, 0.0);
  const auto overflow = other.after_step(1, 1e200, BlowUpWatch::Energy{HUGE_VAL, HUGE_VAL});
  ASSERT_TRUE(overflow);
  EXPECT_NE(overflow->find("the energy is not finite at step 1"), std::string::npos) << *overflow;
}

}  // namespace
}  // namespace inertia
