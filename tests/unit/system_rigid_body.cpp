// A rigid body's six degrees of freedom (include/inertia/system/rigid_body.hpp): velocity Verlet
// in translation (exact under a constant force), the implicit midpoint rotation update (a free
// asymmetric body keeps its angular momentum to round-off and its energy to O(h^2) without
// drift; second order against a fine Runge-Kutta solution of Euler's equations), held and
// driven rotations with the reaction in the held components, and the state's round trip.

#include <gtest/gtest.h>

#include <cmath>

#include "inertia/system/rigid_body.hpp"

namespace inertia {
namespace {

RigidMassProperties box(double m, double a, double b, double c) {
  RigidMassProperties p;
  p.mass = m;
  p.center = {0.5, -1.0, 2.0};
  p.inertia = {m * (b * b + c * c) / 12, 0, 0, 0, m * (a * a + c * c) / 12, 0, 0, 0,
               m * (a * a + b * b) / 12};
  return p;
}

double norm(const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

TEST(RigidBody, ConstantForceIsExact) {
  const RigidMassProperties p = box(3.0, 1, 2, 3);
  RigidBody b(p, {1.0, -2.0, 0.5}, {0, 0, 0}, {});
  const Vec3 F{6.0, 0, -3.0};
  const double h = 1e-2;
  double t = 0;
  b.set_load(F, {0, 0, 0});
  for (int n = 0; n < 100; ++n) {
    b.advance(t, h, 0.5 * h, b.force(), b.moment());
    t += h;
    b.finish(t, h, F, {0, 0, 0});
  }
  const Vec3 v0{1.0, -2.0, 0.5};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(b.center()[i] - p.center[i], v0[i] * t + 0.5 * F[i] / p.mass * t * t, 1e-13);
    EXPECT_NEAR(b.velocity()[i], v0[i] + F[i] / p.mass * t, 1e-13);
  }
}

/// Euler's equations in the body frame, RK4 (the reference at a step 100 times smaller).
Vec3 euler_rk4(const Vec3& I, Vec3 w, double T, int n) {
  const double h = T / n;
  const auto f = [&](const Vec3& x) {
    return Vec3{(I[1] - I[2]) / I[0] * x[1] * x[2], (I[2] - I[0]) / I[1] * x[2] * x[0],
                (I[0] - I[1]) / I[2] * x[0] * x[1]};
  };
  for (int k = 0; k < n; ++k) {
    const Vec3 k1 = f(w);
    Vec3 y;
    for (int i = 0; i < 3; ++i) y[i] = w[i] + 0.5 * h * k1[i];
    const Vec3 k2 = f(y);
    for (int i = 0; i < 3; ++i) y[i] = w[i] + 0.5 * h * k2[i];
    const Vec3 k3 = f(y);
    for (int i = 0; i < 3; ++i) y[i] = w[i] + h * k3[i];
    const Vec3 k4 = f(y);
    for (int i = 0; i < 3; ++i) w[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return w;
}

/// The free body after time T in steps h: its angular velocity in the body frame, and the
/// largest relative changes of |L| (spatial, exact) and of the energy on the way.
struct FreeSpin {
  Vec3 body_w;
  double momentum_change = 0, energy_change = 0;
};

FreeSpin spin(double h, double T) {
  const RigidMassProperties p = box(2.0, 1.0, 2.0, 3.0);
  const Vec3 w0{1.0, 3.0, 0.5};  // near the unstable middle axis: a tumbling body
  RigidBody b(p, {0, 0, 0}, w0, {});
  const Vec3 L0 = b.angular_momentum();
  const double E0 = b.kinetic_energy();
  FreeSpin out;
  const int n = static_cast<int>(std::lround(T / h));
  double t = 0;
  for (int k = 0; k < n; ++k) {
    b.advance(t, h, 0.5 * h, {0, 0, 0}, {0, 0, 0});
    t += h;
    b.finish(t, h, {0, 0, 0}, {0, 0, 0});
    const Vec3& L = b.angular_momentum();
    out.momentum_change =
        std::max(out.momentum_change, norm({L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]}) / norm(L0));
    out.energy_change = std::max(out.energy_change, std::abs(b.kinetic_energy() - E0) / E0);
  }
  const Mat3& R = b.rotation();
  const Vec3 w = b.angular_velocity();
  for (int i = 0; i < 3; ++i) out.body_w[i] = R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2];
  return out;
}

TEST(RigidBody, FreeTumblingKeepsMomentumAndEnergyAtSecondOrder) {
  const double T = 4.0;
  const RigidMassProperties p = box(2.0, 1.0, 2.0, 3.0);
  const Vec3 I{p.inertia[0], p.inertia[4], p.inertia[8]};
  const Vec3 exact = euler_rk4(I, {1.0, 3.0, 0.5}, T, 400000);
  const FreeSpin coarse = spin(2e-3, T), fine = spin(1e-3, T);
  const auto error = [&](const FreeSpin& s) {
    return norm({s.body_w[0] - exact[0], s.body_w[1] - exact[1], s.body_w[2] - exact[2]}) /
           norm(exact);
  };
  std::printf(
      "free tumbling to t = %g: |w - w_exact| / |w| %.3e (h 2e-3), %.3e (h 1e-3); "
      "|L| change %.2e; energy change %.2e (h 2e-3), %.2e (h 1e-3)\n",
      T, error(coarse), error(fine), fine.momentum_change, coarse.energy_change,
      fine.energy_change);
  EXPECT_LT(fine.momentum_change, 1e-13);
  EXPECT_LT(coarse.momentum_change, 1e-13);
  const double order = std::log2(error(coarse) / error(fine));
  EXPECT_NEAR(order, 2.0, 0.15);
  EXPECT_LT(error(fine), 1e-4);
  // The energy's error is O(h^2) and bounded (no drift): a quarter at half the step.
  EXPECT_LT(fine.energy_change, 0.3 * coarse.energy_change);
  EXPECT_LT(coarse.energy_change, 1e-4);
}

TEST(RigidBody, HeldRotationsTakeTheReaction) {
  RigidMassProperties p = box(1.0, 1.0, 2.0, 3.0);
  p.inertia[2] = p.inertia[6] = 0.1;  // a product of inertia xz: spinning about z pulls on x
  RigidDrive d;
  d.driven = {false, false, false, true, true, false};  // rx, ry held
  RigidBody b(p, {0, 0, 0}, {0, 0, 0}, d);
  const Vec3 M{0, 0, 2.0};
  const double h = 1e-3;
  double t = 0;
  b.set_load({0, 0, 0}, M);
  for (int n = 0; n < 500; ++n) {
    b.advance(t, h, 0.5 * h, b.force(), b.moment());
    t += h;
    b.finish(t, h, {0, 0, 0}, M);
  }
  const Vec3 w = b.angular_velocity();
  EXPECT_EQ(w[0], 0.0);
  EXPECT_EQ(w[1], 0.0);
  // About a fixed axis z: J_zz w' = M_z.
  EXPECT_NEAR(w[2], M[2] / p.inertia[8] * t, 1e-12 * w[2]);
  // The rotation stays about z.
  const Vec3 r = b.rotation_vector();
  EXPECT_NEAR(r[0], 0, 1e-15);
  EXPECT_NEAR(r[1], 0, 1e-15);
  EXPECT_NEAR(r[2], 0.5 * M[2] / p.inertia[8] * t * t, 1e-12);
}

TEST(RigidBody, DrivenVelocityIsTheDrive) {
  RigidDrive d;
  d.driven = {true, false, false, false, false, true};
  d.value = {2.0, 0, 0, 0, 0, 5.0};
  RigidBody b(box(1.0, 1, 1, 1), {7, 0, 0}, {0, 0, 0}, d);
  EXPECT_EQ(b.velocity()[0], 2.0);
  const double h = 1e-3;
  double t = 0;
  for (int n = 0; n < 100; ++n) {
    b.advance(t, h, 0.5 * h, {10, 0, 0}, {0, 0, 0});
    t += h;
    b.finish(t, h, {10, 0, 0}, {0, 0, 0});
  }
  EXPECT_NEAR(b.center()[0] - 0.5, 2.0 * t, 1e-14);
  EXPECT_NEAR(b.angular_velocity()[2], 5.0, 1e-14);
  EXPECT_NEAR(b.rotation_vector()[2], 5.0 * t, 1e-12);
}

TEST(RigidBody, RotationVectorAndStateRoundTrip) {
  for (const Vec3 w : {Vec3{0.3, -0.2, 0.1}, Vec3{1e-9, 2e-9, 0}, Vec3{0, 0, 3.0}}) {
    const Mat3 R = rotation_exp(w);
    RigidBody b(box(1, 1, 2, 3), {0, 0, 0}, {0, 0, 0}, {});
    b.advance(0, 1.0, 0.5, {0, 0, 0}, {0, 0, 0});  // at rest: stays at identity
    std::vector<double> s = b.save();
    for (int i = 0; i < 9; ++i) s[18 + i] = R[i];
    b.load(s);
    const Vec3 back = b.rotation_vector();
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], w[i], 1e-12 * (1 + std::abs(w[i])));
    EXPECT_EQ(b.save(), s);
  }
}

}  // namespace
}  // namespace inertia
