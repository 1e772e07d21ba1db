// Amplitudes: tables hold their end values, smooth steps pass through their points with zero rate
// (and, for continuity 2, zero acceleration) there, and every derivative matches a finite
// difference of the value; integrated as an acceleration, a table or smooth step is a record that
// ends at its last point; peaks are found exactly.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

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

TEST(IntegratedAmplitude, ATableGivesPiecewiseQuadraticVelocityAndCubicDisplacement) {
  // A(t): 0 -> 2 over [0, 0.1], 2 -> -1 over [0.1, 0.3], zero after its last point (a record
  // that ends). Closed forms per segment (A linear: v quadratic, u cubic), and the values carried
  // over the breaks.
  const Amplitude a = Amplitude::integrated(Amplitude::table({{0, 0}, {0.1, 2}, {0.3, -1}}));
  auto exact = [](double t, double& v, double& u) {
    if (t <= 0.1) {  // A = 20 t
      v = 10 * t * t;
      u = 10 * t * t * t / 3;
      return;
    }
    const double v1 = 0.1, u1 = 10 * 0.001 / 3;
    if (t <= 0.3) {  // A = 2 - 15 (t - 0.1)
      const double s = t - 0.1;
      v = v1 + 2 * s - 7.5 * s * s;
      u = u1 + v1 * s + s * s - 2.5 * s * s * s;
      return;
    }
    const double s2 = 0.2, v2 = v1 + 2 * s2 - 7.5 * s2 * s2,
                 u2 = u1 + v1 * s2 + s2 * s2 - 2.5 * s2 * s2 * s2, s = t - 0.3;
    v = v2;  // A = 0: the base moves on at its final velocity
    u = u2 + v2 * s;
  };
  EXPECT_EQ(a.value(0), 0.0);
  EXPECT_EQ(a.rate(0), 0.0);
  for (double t : {0.03, 0.1, 0.1000001, 0.17, 0.3, 0.31, 0.9, 7.0}) {
    double v = 0, u = 0;
    exact(t, v, u);
    EXPECT_NEAR(a.rate(t), v, 1e-14 * (1 + std::abs(v))) << t;
    EXPECT_NEAR(a.value(t), u, 1e-14 * (1 + std::abs(u))) << t;
  }
  EXPECT_NEAR(a.acceleration(0.2), 0.5, 1e-15);
}

TEST(IntegratedAmplitude, ARecordShorterThanTheRunStopsAcceleratingAtItsLastPoint) {
  // A(t) = t on [0, 1], cut off at 1 (its last sample is not zero): after it the ground does not
  // accelerate; it moves on at v(1) = 1/2 from u(1) = 1/6. Holding A = 1 would give v(2) = 3/2.
  std::vector<std::pair<double, double>> record;
  for (int i = 0; i <= 100; ++i) record.emplace_back(0.01 * i, 0.01 * i);
  for (const Amplitude& a : {Amplitude::integrated(Amplitude::table(record)),
                             Amplitude::integrated(Amplitude::smooth_step({{0, 0}, {1, 1}}, 2))}) {
    const double v1 = a.rate(1.0), u1 = a.value(1.0);
    for (double t : {1.0000001, 1.3, 2.0, 20.0}) {
      EXPECT_EQ(a.acceleration(t), 0.0) << t;
      EXPECT_NEAR(a.rate(t), v1, 1e-15) << t;                            // velocity constant
      EXPECT_NEAR(a.value(t), u1 + v1 * (t - 1), 1e-14 * (1 + t)) << t;  // displacement linear
    }
    EXPECT_EQ(a.acceleration(1.0), 1.0);  // the last sample itself still counts
  }
  // The table's values by hand: A = t integrates to t^2 / 2 and t^3 / 6.
  const Amplitude table = Amplitude::integrated(Amplitude::table(record));
  EXPECT_NEAR(table.rate(2.0), 0.5, 1e-14);
  EXPECT_NEAR(table.value(2.0), 1.0 / 6 + 0.5, 1e-14);
  // Loads and prescribed displacements keep holding the last value of the same table.
  EXPECT_EQ(Amplitude::table(record).value(2.0), 1.0);
}

TEST(IntegratedAmplitude, ARecordsLastSampleCountsAtAnEndReachedByRoundOff) {
  // Issue 42: a record of dt 0.005 to 8.02 (as a single-column file is read, t_i = i dt); the
  // run's last step from 8.015 reaches 8.015 + 0.005 = 8.020000000000001, one ulp past the last
  // point, and took the acceleration after the record (0) instead of its last sample.
  std::vector<std::pair<double, double>> record;
  for (int i = 0; i <= 1604; ++i) record.emplace_back(i * 0.005, 1.0 + 0.001 * i);
  const double end = record.back().first, last = record.back().second;
  ASSERT_EQ(end, 8.02);
  const double reached = 8.015 + 0.005;
  ASSERT_EQ(reached, std::nextafter(end, 9.0));  // the premise: one ulp past the end
  const Amplitude a = Amplitude::integrated(Amplitude::table(record));
  EXPECT_EQ(a.acceleration(reached), last);
  EXPECT_EQ(a.acceleration(std::nextafter(end, 0.0)), a.acceleration(end));
  EXPECT_NEAR(a.rate(reached), a.rate(end), 1e-15 * a.rate(end));
  EXPECT_NEAR(a.value(reached), a.value(end), 1e-15 * a.value(end));
  EXPECT_EQ(a.acceleration(end + 1e-9), 0.0);  // after the record, truly: zero
  // The table itself: an ulp either side of a point is the point (its value, the rate of the
  // segment to its right, as on it).
  const Amplitude table = Amplitude::table({{0, 0}, {8.02, 1}, {9, 1}});
  EXPECT_EQ(table.rate(std::nextafter(8.02, 0.0)), table.rate(8.02));
  EXPECT_EQ(table.rate(8.02), 0.0);
  EXPECT_EQ(table.value(std::nextafter(8.02, 0.0)), 1.0);
  EXPECT_EQ(table.rate(std::nextafter(9.0, 0.0)), 0.0);   // the last point's
  EXPECT_NEAR(table.rate(8.02 - 1e-9), 1 / 8.02, 1e-15);  // further away: the left segment
}

TEST(Amplitude, PeaksAreTheLargestMagnitudeAndTheirFirstTime) {
  const Amplitude table = Amplitude::table(points);  // 0 at 0.1, 2 at 0.3, -1 at 0.4
  EXPECT_EQ(table.peak(0, 1).value, 2.0);
  EXPECT_EQ(table.peak(0, 1).time, 0.3);
  EXPECT_NEAR(table.peak(0, 0.2).value, 1.0, 1e-14);  // cut by the interval: its end
  EXPECT_EQ(table.peak(0, 0.2).time, 0.2);
  EXPECT_EQ(Amplitude::table({{0, -3}, {1, 3}}).peak(0, 2).time, 0.0);  // the first of two
  const Amplitude smooth = Amplitude::smooth_step(points, 2);
  EXPECT_EQ(smooth.peak(0.35, 5).value, 1.0);  // -1 after 0.4 (a tie: the first time)
  EXPECT_EQ(smooth.peak(0.35, 5).time, 0.4);
  // sin(2 pi 2 t + 0.3): crests at (pi/2 + k pi - 0.3) / (4 pi).
  const Amplitude sine = Amplitude::sine(2.0, 0.3);
  const double w = 4 * std::numbers::pi;
  EXPECT_NEAR(sine.peak(0, 1).value, 1.0, 1e-15);
  EXPECT_NEAR(sine.peak(0, 1).time, (std::numbers::pi / 2 - 0.3) / w, 1e-15);
  EXPECT_NEAR(sine.peak(0.2, 1).time, (1.5 * std::numbers::pi - 0.3) / w, 1e-15);
  EXPECT_NEAR(sine.peak(0, 0.05).value, std::sin(w * 0.05 + 0.3), 1e-15);  // before the crest
  EXPECT_EQ(Amplitude::ramp(4.0).peak(0, 2).value, 0.5);
  EXPECT_EQ(Amplitude::constant().peak(0, 2).time, 0.0);
  // An integrated constant: u = t^2 / 2, peak at the end.
  EXPECT_NEAR(Amplitude::integrated(Amplitude::constant()).peak(0, 2).value, 2.0, 1e-14);
}

TEST(IntegratedAmplitude, ASineAndASmoothStepIntegrateExactly) {
  // Sine from rest of the base: u = t cos(p)/w - (sin(w t + p) - sin p)/w^2; derivatives of the
  // integrated smooth step and sine give back the velocity and the acceleration.
  const double w = 2 * 3.141592653589793 * 3.0, p = 0.2;
  const Amplitude s = Amplitude::integrated(Amplitude::sine(3.0, p));
  for (double t : {0.01, 0.2, 1.3}) {
    EXPECT_NEAR(s.value(t), t * std::cos(p) / w - (std::sin(w * t + p) - std::sin(p)) / (w * w),
                1e-15);
    EXPECT_NEAR(s.acceleration(t), std::sin(w * t + p), 1e-15);
  }
  const double h = 1e-6;
  for (const Amplitude& a : {s, Amplitude::integrated(Amplitude::smooth_step(points, 2)),
                             Amplitude::integrated(Amplitude::constant())}) {
    for (double t : {0.13, 0.2, 0.27, 0.33, 0.38, 0.5}) {
      const double rate = (a.value(t + h) - a.value(t - h)) / (2 * h);
      const double acc = (a.rate(t + h) - a.rate(t - h)) / (2 * h);
      EXPECT_NEAR(a.rate(t), rate, 1e-8 * (1 + std::abs(rate))) << t;
      EXPECT_NEAR(a.acceleration(t), acc, 1e-6 * (1 + std::abs(acc))) << t;
    }
  }
  // A constant acceleration: u = t^2 / 2.
  EXPECT_NEAR(Amplitude::integrated(Amplitude::constant()).value(0.7), 0.245, 1e-15);
}

}  // namespace
}  // namespace inertia
