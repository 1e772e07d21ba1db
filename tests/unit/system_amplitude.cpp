// Amplitudes: tables hold their end values, smooth steps pass through their points with zero rate
// (and, for continuity 2, zero acceleration) there, and every derivative matches a finite
// difference of the value.

#include <gtest/gtest.h>

#include <cmath>

#include "inertia/system/amplitude.hpp"

namespace inertia {
namespace {

const std::vector<std::pair<double, double>> points = {{0.1, 0.0}, {0.3, 2.0}, {0.4, -1.0}};

TEST(Amplitude, TableHoldsItsEndValues) {
  const Amplitude a = Amplitude::table(points);
  EXPECT_EQ(a.value(0.0), 0.0);
  EXPECT_NEAR(a.value(0.2), 1.0, 1e-14);
  EXPECT_EQ(a.value(0.4), -1.0);
  EXPECT_EQ(a.value(10.0), -1.0);  // after the last point: the last value
  EXPECT_EQ(a.rate(10.0), 0.0);
}

TEST(Amplitude, SmoothStepPassesThroughItsPointsAndHoldsItsEnds) {
  for (int continuity : {1, 2}) {
    const Amplitude a = Amplitude::smooth_step(points, continuity);
    for (const auto& [t, v] : points) EXPECT_NEAR(a.value(t), v, 1e-15) << t;
    EXPECT_EQ(a.value(0.0), 0.0);
    EXPECT_EQ(a.value(1.0), -1.0);
    EXPECT_EQ(a.rate(1.0), 0.0);
    EXPECT_EQ(a.acceleration(1.0), 0.0);
    // Symmetric shapes: half way up at the middle of a segment.
    EXPECT_NEAR(a.value(0.2), 1.0, 1e-14);  // (0.2 and 0.35 are not exact in binary)
    EXPECT_NEAR(a.value(0.35), 0.5, 1e-14);
  }
}

TEST(Amplitude, SmoothStepIsFlatAtItsPoints) {
  const Amplitude c1 = Amplitude::smooth_step(points, 1);
  const Amplitude c2 = Amplitude::smooth_step(points, 2);
  for (const auto& [t, v] : points) {
    // The rate tends to 0 from both sides of each point.
    for (double e : {-1e-10, 1e-10}) {
      EXPECT_NEAR(c1.rate(t + e), 0.0, 1e-6) << t << " " << e;
      EXPECT_NEAR(c2.rate(t + e), 0.0, 1e-6) << t << " " << e;
      EXPECT_NEAR(c2.acceleration(t + e), 0.0, 1e-4) << t << " " << e;
    }
  }
  // Continuity 1 has a jump in acceleration at the points, continuity 2 none.
  EXPECT_GT(std::abs(c1.acceleration(0.3 - 1e-9) - c1.acceleration(0.3 + 1e-9)), 100.0);
}

TEST(Amplitude, DerivativesMatchFiniteDifferences) {
  const double h = 1e-6;
  for (const Amplitude& a : {Amplitude::smooth_step(points, 1), Amplitude::smooth_step(points, 2),
                             Amplitude::sine(3.0, 0.2)}) {
    for (double t : {0.13, 0.2, 0.27, 0.33, 0.38}) {
      const double rate = (a.value(t + h) - a.value(t - h)) / (2 * h);
      const double acc = (a.rate(t + h) - a.rate(t - h)) / (2 * h);
      EXPECT_NEAR(a.rate(t), rate, 1e-6 * (1 + std::abs(rate))) << t;
      EXPECT_NEAR(a.acceleration(t), acc, 1e-5 * (1 + std::abs(acc))) << t;
    }
  }
}

}  // namespace
}  // namespace inertia
