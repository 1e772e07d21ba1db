// A drop weight's motion (src/system/wall_body.hpp): central difference's leap-frog, started as
// that scheme starts. Under a constant force it is exact (x = v0 t + F t^2 / (2 M)); on a linear
// spring its steps are the leap-frog's exact discrete solution cos(theta n), cos theta =
// 1 - (omega h)^2 / 2; its momentum changes by the force's impulse, step for step, whatever the
// steps; a saved state continues as the original; a commit at the same time replaces the force.

#include <gtest/gtest.h>

#include <cmath>

#include "../../src/system/wall_body.hpp"

namespace inertia::contact_input {
namespace {

TEST(WallBody, ConstantForceIsExact) {
  const double M = 2.0, h = 1e-3, F = 3.0, v0 = -1.5;
  WallBody b(M, {v0, 0, 0});
  b.commit(0, {F, 0, 0});  // the force at the start
  for (int n = 1; n <= 1000; ++n) {
    const double t = n * h;
    const double x = v0 * t + 0.5 * F / M * t * t;
    EXPECT_NEAR(b.offset(t)[0], x, 1e-12) << n;  // where the step to t puts it
    b.commit(t, {F, 0, 0});
    EXPECT_NEAR(b.offset(t)[0], x, 1e-12) << n;
    EXPECT_NEAR(b.velocity()[0], v0 + F / M * t, 1e-12) << n;
  }
  EXPECT_DOUBLE_EQ(b.kinetic_energy(), 0.5 * M * b.velocity()[0] * b.velocity()[0]);
  EXPECT_EQ(b.offset(1.0)[1], 0.0);
}

TEST(WallBody, SpringStepsAreTheLeapFrogs) {
  // M x'' = -k x, x(0) = 1, v(0) = 0: central difference gives x_n = cos(theta n).
  const double M = 1.0, k = 400.0, h = 0.01;  // omega h = 0.2
  const double theta = std::acos(1 - 0.5 * k / M * h * h);
  WallBody b(M, {0, 0, 0});
  b.load(std::vector<double>{0, 0, 0, 1, 0, 0, -k, 0, 0, 0, 0, 0, M});  // at x = 1, not started
  for (int n = 1; n <= 2000; ++n) {
    const double x = b.offset(n * h)[0];
    ASSERT_NEAR(x, std::cos(theta * n), 1e-11) << n;
    b.commit(n * h, {-k * x, 0, 0});
  }
}

TEST(WallBody, MomentumChangesByTheImpulseWithVaryingSteps) {
  const double M = 5.0;
  WallBody b(M, {1, 2, 3});
  double t = 0, impulse[3] = {0, 0, 0}, last = 0;
  std::array<double, 3> force{0, 0, 0};
  for (int n = 1; n <= 50; ++n) {
    const double h = 1e-3 * (1 + 0.5 * std::sin(n));
    // The step from t: half the force at t for the first step (the scheme's start), all of it
    // after, and half of the new force for the whole-step velocity.
    for (int i = 0; i < 3; ++i) impulse[i] += (n == 1 ? 0.5 : 1.0) * h * force[i];
    t += h;
    force = {std::sin(3.0 * n), std::cos(n), -1.0 * n};
    b.commit(t, force);
    last = h;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(b.momentum()[i], M * (1 + i) + impulse[i] + 0.5 * last * force[i], 1e-13)
          << n << " " << i;
  }
}

TEST(WallBody, SavedStateContinuesAsTheOriginal) {
  WallBody a(3.0, {0.5, 0, -1}), b(3.0, {0, 0, 0});
  double t = 0;
  for (int n = 1; n <= 10; ++n) a.commit(t += 1e-3, {-2.0 * n, 1, 0});
  b.load(a.save());
  for (int n = 11; n <= 20; ++n) {
    t += 1e-3;
    EXPECT_EQ(a.offset(t), b.offset(t));
    a.commit(t, {-2.0 * n, 1, 0});
    b.commit(t, {-2.0 * n, 1, 0});
    EXPECT_EQ(a.velocity(), b.velocity());
  }
  // A commit at the last accepted time replaces the force and moves nothing.
  const auto o = a.offset(t);
  a.commit(t, {7, 7, 7});
  EXPECT_EQ(a.offset(t), o);
  EXPECT_EQ(a.force(), (std::array<double, 3>{7, 7, 7}));
  EXPECT_THROW(a.load(std::vector<double>(3, 0.0)), std::logic_error);
}

}  // namespace
}  // namespace inertia::contact_input
