// End releases of the beam element (fe/beam_release.hpp): the condensed stiffness, mass and
// loads of the linear element and the corotational element with releases.
//
// Figures: a released end's row and column of K_c and M_c are exactly zero; rigid motions stay
// in K_c's null space and keep M_c's mass (1e-12 relative); the element clamped at one end and
// pinned at the other has the tip stiffness 3 E I / (L^3 (1 + phi / 4)) (1e-12); a span load's
// condensed end loads are the propped span's 5 q L / 8, 3 q L / 8 and q L^2 / 8 (1e-12); the
// corotational element with a release equals the linear condensed one for small d (1e-6) and a
// plane state keeps the released moment zero (1e-12 of the largest force).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/fe/beam_release.hpp"

namespace inertia::fe {
namespace {

using M12 = std::array<double, 144>;
using V12 = std::array<double, 12>;

constexpr double X0[3] = {0.3, -0.2, 0.5};
constexpr double X1[3] = {1.8, 0.9, 2.1};
constexpr double orientation[3] = {0.3, 1.0, -0.4};
constexpr double E = 210e9, G = 80e9, rho = 7850;

BeamSectionProperties section() {
  BeamSectionProperties s;
  s.area = 0.01;
  s.iy = 3e-5;
  s.iz = 1.2e-5;
  s.torsion = 2e-5;
  s.shear_area_y = 2.5e-4;
  s.shear_area_z = 4e-4;
  return s;
}
BeamMaterial material() { return {E, G, rho}; }

double max_abs(const double* a, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::abs(a[i]));
  return m;
}

/// The condensed global K and M of the skew element, its T (global) and R.
struct Condensed {
  M12 K, M, T, R9;
};
Condensed condensed(unsigned released, bool timoshenko) {
  Condensed c{};
  double R[9];
  EXPECT_TRUE(beam_frame(X0, X1, orientation, R));
  const double L = beam_length(X0, X1);
  M12 Kl, Tl, K, M;
  beam_local_stiffness(L, section(), material(), timoshenko, Kl.data());
  beam_release_transform(Kl.data(), released, Tl.data());
  beam_to_global(R, Tl.data(), c.T.data());
  beam_stiffness(X0, X1, R, section(), material(), timoshenko, K.data());
  beam_consistent_mass(X0, X1, R, section(), material(), timoshenko, M.data());
  beam_condense(c.T.data(), K.data(), c.K.data());
  beam_condense(c.T.data(), M.data(), c.M.data());
  std::copy(R, R + 9, c.R9.begin());
  return c;
}

TEST(BeamRelease, NoReleaseIsTheIdentity) {
  M12 Kl, T;
  beam_local_stiffness(2.0, section(), material(), true, Kl.data());
  beam_release_transform(Kl.data(), 0, T.data());
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) EXPECT_EQ(T[12 * i + j], i == j ? 1.0 : 0.0);
}

TEST(BeamRelease, ReleasedRowsVanishAndRigidMotionsStayFree) {
  // Released at end 1: my, mz (a pin about both bending axes); at end 0: mz and t.
  const unsigned released = beam_release_bit(1, 1) | beam_release_bit(1, 2) |
                            beam_release_bit(0, 2) | beam_release_bit(0, 0);
  for (const bool timoshenko : {false, true}) {
    const Condensed c = condensed(released, timoshenko);
    const double scale = max_abs(c.K.data(), 144);
    // The released local rotations (global axis R row k at end e) meet no stiffness or mass:
    // K_c (R^T e_k at that node) = 0.
    for (int e = 0; e < 2; ++e)
      for (int k = 0; k < 3; ++k) {
        if (!(released & beam_release_bit(e, k))) continue;
        V12 d{};
        for (int i = 0; i < 3; ++i) d[6 + 3 * e + i] = c.R9[3 * k + i];
        for (int i = 0; i < 12; ++i) {
          double kd = 0, md = 0;
          for (int j = 0; j < 12; ++j) {
            kd += c.K[12 * i + j] * d[j];
            md += c.M[12 * i + j] * d[j];
          }
          EXPECT_LE(std::abs(kd), 1e-12 * scale);
          EXPECT_LE(std::abs(md), 1e-12 * max_abs(c.M.data(), 144));
        }
      }
    // Rigid motions: translations and rotations about the origin.
    for (int r = 0; r < 6; ++r) {
      V12 d{};
      for (int a = 0; a < 2; ++a) {
        const double* x = a == 0 ? X0 : X1;
        if (r < 3) {
          d[3 * a + r] = 1;
        } else {
          const double w[3] = {r == 3 ? 1.0 : 0.0, r == 4 ? 1.0 : 0.0, r == 5 ? 1.0 : 0.0};
          d[3 * a] = w[1] * x[2] - w[2] * x[1];
          d[3 * a + 1] = w[2] * x[0] - w[0] * x[2];
          d[3 * a + 2] = w[0] * x[1] - w[1] * x[0];
          for (int i = 0; i < 3; ++i) d[6 + 3 * a + i] = w[i];
        }
      }
      for (int i = 0; i < 12; ++i) {
        double kd = 0;
        for (int j = 0; j < 12; ++j) kd += c.K[12 * i + j] * d[j];
        EXPECT_LE(std::abs(kd), 1e-12 * scale * 3) << "rigid motion " << r << ", row " << i;
      }
      if (r < 3) {  // the element's whole mass moves with a translation
        double m = 0;
        for (int i = 0; i < 12; ++i)
          for (int j = 0; j < 12; ++j) m += d[i] * c.M[12 * i + j] * d[j];
        const double mass = rho * section().area * beam_length(X0, X1);
        EXPECT_NEAR(m, mass, 1e-12 * mass);
      }
    }
  }
}

TEST(BeamRelease, PinnedEndTipStiffnessIsThePropedCantilevers) {
  const double L = 1.7;
  for (const bool timoshenko : {false, true}) {
    M12 Kl, T, Kc;
    beam_local_stiffness(L, section(), material(), timoshenko, Kl.data());
    beam_release_transform(Kl.data(), beam_release_bit(1, 2) | beam_release_bit(1, 1), T.data());
    beam_condense(T.data(), Kl.data(), Kc.data());
    double phi_y, phi_z;
    beam_shear_parameters(L, section(), material(), timoshenko, phi_y, phi_z);
    const double ky = 3 * E * section().iz / (L * L * L * (1 + phi_y / 4));
    const double kz = 3 * E * section().iy / (L * L * L * (1 + phi_z / 4));
    // Local DOFs: v1 = 4, w1 = 5 with u0 = v0 = w0 = 0 and theta0 = 0 held: the (v1, v1) entry.
    EXPECT_NEAR(Kc[12 * 4 + 4], ky, 1e-12 * ky);
    EXPECT_NEAR(Kc[12 * 5 + 5], kz, 1e-12 * kz);
    EXPECT_EQ(Kc[12 * 11 + 11], 0.0);
    EXPECT_EQ(Kc[12 * 10 + 4], 0.0);
  }
}

TEST(BeamRelease, SpanLoadGoesToTheHeldEnd) {
  // A horizontal element along x, load q along -z, released about y at end 1: the propped span's
  // reactions 5 q L / 8 (held end) and 3 q L / 8, the held end's moment q L^2 / 8.
  const double x0[3] = {0, 0, 0}, x1[3] = {2.5, 0, 0}, q[3] = {0, 0, -3000};
  double R[9];
  const double v[3] = {0, 1, 0};
  ASSERT_TRUE(beam_frame(x0, x1, v, R));
  M12 Kl, Tl, Tg;
  const double L = 2.5;
  beam_local_stiffness(L, section(), material(), false, Kl.data());
  beam_release_transform(Kl.data(), beam_release_bit(1, 1), Tl.data());
  beam_to_global(R, Tl.data(), Tg.data());
  V12 f;
  beam_uniform_load(x0, x1, q, f.data());
  beam_condense_vector(Tg.data(), f.data());
  const double w = 3000;
  EXPECT_NEAR(f[2], -5 * w * L / 8, 1e-12 * w * L);
  EXPECT_NEAR(f[5], -3 * w * L / 8, 1e-12 * w * L);
  EXPECT_NEAR(std::abs(f[7]), w * L * L / 8, 1e-12 * w * L * L);
  EXPECT_EQ(f[10], 0.0);
}

TEST(BeamRelease, SectionForcesVanishAtTheRelease) {
  const unsigned released = beam_release_bit(0, 1) | beam_release_bit(1, 2);
  double R[9];
  ASSERT_TRUE(beam_frame(X0, X1, orientation, R));
  V12 d;
  for (int i = 0; i < 12; ++i) d[i] = 1e-3 * std::sin(1.3 * i + 0.4);
  V12 s;
  beam_section_forces(X0, X1, R, section(), material(), true, d.data(), s.data(), released);
  EXPECT_EQ(s[4], 0.0);            // My at end 0
  EXPECT_EQ(s[6 + 5], 0.0);        // Mz at end 1
  EXPECT_GT(std::abs(s[5]), 1.0);  // Mz at end 0 is not released
}

TEST(BeamRelease, TorsionAtBothEndsIsAMechanism) {
  M12 Kl, T;
  beam_local_stiffness(2.0, section(), material(), true, Kl.data());
  EXPECT_TRUE(beam_releases_twist(beam_release_bit(0, 0) | beam_release_bit(1, 0)));
  EXPECT_THROW(
      beam_release_transform(Kl.data(), beam_release_bit(0, 0) | beam_release_bit(1, 0), T.data()),
      SolverError);
}

TEST(BeamRelease, CorotationalMatchesTheLinearElementForSmallMotions) {
  const unsigned released =
      beam_release_bit(1, 1) | beam_release_bit(1, 2) | beam_release_bit(0, 0);
  const Condensed c = condensed(released, true);
  V12 d, f, lin{};
  for (int i = 0; i < 12; ++i) d[i] = 1e-7 * std::cos(0.7 * i + 0.2) * (i < 6 ? 1.0 : 0.5);
  corotational_beam_force(X0, X1, orientation, section(), material(), true, d.data(), f.data(),
                          nullptr, nullptr, released);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) lin[i] += c.K[12 * i + j] * d[j];
  const double scale = max_abs(lin.data(), 12);
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(f[i], lin[i], 1e-6 * scale) << i;
}

TEST(BeamRelease, CorotationalPlaneStateKeepsTheReleasedMomentZero) {
  // A beam along x in the x-y plane, mz released at end 1, both ends turned about z by large
  // rotations and moved in the plane: the end-1 moment about z is zero, the end-0 one is not.
  const double x0[3] = {0, 0, 0}, x1[3] = {2, 0, 0}, v[3] = {0, 1, 0};
  V12 d{};
  d[3] = -0.4;
  d[4] = 1.1;    // end 1 moved up and in: the chord turns by ~35 degrees
  d[8] = 0.9;    // end 0 turned about z
  d[11] = -0.7;  // end 1 turned about z (released)
  V12 f;
  M12 K;
  double e = 0;
  const unsigned released = beam_release_bit(1, 2);
  corotational_beam_force(x0, x1, v, section(), material(), true, d.data(), f.data(), K.data(), &e,
                          released);
  const double scale = max_abs(f.data(), 12);
  EXPECT_LE(std::abs(f[11]), 1e-12 * scale);
  EXPECT_GT(std::abs(f[8]), 1e-3 * scale);
  // The released rotation changes nothing: the same force with another end-1 rotation.
  V12 d2 = d, f2;
  d2[11] = 0.3;
  corotational_beam_force(x0, x1, v, section(), material(), true, d2.data(), f2.data(), nullptr,
                          nullptr, released);
  for (int i = 0; i < 12; ++i) EXPECT_NEAR(f2[i], f[i], 1e-12 * scale) << i;
  // A pinned-pinned bar (my, mz at both ends, t at one) turned rigidly by 60 degrees in the
  // plane keeps zero force at any end rotations.
  const unsigned pinned = beam_release_bit(0, 1) | beam_release_bit(0, 2) | beam_release_bit(1, 0) |
                          beam_release_bit(1, 1) | beam_release_bit(1, 2);
  V12 r{};
  const double a = std::numbers::pi / 3;
  r[3] = 2 * std::cos(a) - 2;
  r[4] = 2 * std::sin(a);
  r[8] = 0.9;
  r[11] = 0.2;
  corotational_beam_force(x0, x1, v, section(), material(), true, r.data(), f.data(), nullptr, &e,
                          pinned);
  EXPECT_LE(max_abs(f.data(), 12), 1e-6);  // N: E A / L times a rounding of the length
  EXPECT_LE(e, 1e-12);
}

}  // namespace
}  // namespace inertia::fe
