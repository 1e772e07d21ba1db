// The 3D beam element (fe/beam.hpp): its frame, stiffness, masses and section forces against the
// closed-form answers of a one-element cantilever, the rigid-body modes and the shape functions
// integrated here independently; the standard shapes against hand values.
//
// Tolerances: 1e-12 relative for the one-element cantilever (exact answers, a 6 x 6 solve), 1e-13
// of the matrix's scale for symmetry and the rigid-body modes, 1e-12 for matrices compared entry by
// entry with an independent integration.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/beam.hpp"

namespace inertia::fe {
namespace {

using M12 = std::array<double, 144>;
using V12 = std::array<double, 12>;
constexpr double pi = std::numbers::pi;

// A skew beam in 3D with an arbitrary (not normal) orientation, and a stocky section so that
// shear deformation matters (phi_y = 0.25, phi_z = 0.39 at this length, L^2 = 6.02).
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

double length() { return beam_length(X0, X1); }

std::array<double, 9> frame() {
  std::array<double, 9> R{};
  EXPECT_TRUE(beam_frame(X0, X1, orientation, R.data()));
  return R;
}
const double* row(const std::array<double, 9>& R, int i) { return R.data() + 3 * i; }

double dot(const double* a, const double* b, int n = 3) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
V12 times(const M12& A, const V12& x) {
  V12 y{};
  for (int i = 0; i < 12; ++i) y[i] = dot(A.data() + 12 * i, x.data(), 12);
  return y;
}
double max_abs(const double* a, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::abs(a[i]));
  return m;
}

M12 stiffness(bool timoshenko) {
  M12 K;
  const auto R = frame();
  beam_stiffness(X0, X1, R.data(), section(), material(), timoshenko, K.data());
  return K;
}

/// Solves A x = b (n x n, row-major) by Gaussian elimination with partial pivoting.
std::vector<double> solve(std::vector<double> A, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(A[r * n + c]) > std::abs(A[p * n + c])) p = r;
    for (int k = 0; k < n; ++k) std::swap(A[c * n + k], A[p * n + k]);
    std::swap(b[c], b[p]);
    for (int r = c + 1; r < n; ++r) {
      const double f = A[r * n + c] / A[c * n + c];
      for (int k = c; k < n; ++k) A[r * n + k] -= f * A[c * n + k];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> x(n);
  for (int r = n - 1; r >= 0; --r) {
    double s = b[r];
    for (int k = r + 1; k < n; ++k) s -= A[r * n + k] * x[k];
    x[r] = s / A[r * n + r];
  }
  return x;
}

/// The cantilever clamped at node 0: the displacements (12, global) under a force F and a moment
/// C (global) at node 1.
V12 cantilever(bool timoshenko, const double F[3], const double C[3]) {
  const M12 K = stiffness(timoshenko);
  const int free[6] = {3, 4, 5, 9, 10, 11};
  std::vector<double> A(36), b(6);
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) A[6 * i + j] = K[12 * free[i] + free[j]];
    b[i] = i < 3 ? F[i] : C[i - 3];
  }
  const auto x = solve(A, b);
  V12 d{};
  for (int i = 0; i < 6; ++i) d[free[i]] = x[i];
  return d;
}

/// Local components (R a) of the 3-vector a.
std::array<double, 3> local(const double* a) {
  const auto R = frame();
  return {dot(row(R, 0), a), dot(row(R, 1), a), dot(row(R, 2), a)};
}

TEST(Beam, FrameHasOrthonormalRowsWithLocalYOnTheOrientationsSide) {
  const auto R = frame();
  const double L = length();
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(R[i], (X1[i] - X0[i]) / L, 1e-15);
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(dot(row(R, i), row(R, j)), i == j ? 1 : 0, 1e-15);
  }
  double ez[3];
  cross(row(R, 0), row(R, 1), ez);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ez[i], R[6 + i], 1e-15);  // right-handed
  EXPECT_NEAR(dot(row(R, 2), orientation), 0, 1e-15);               // e_z normal to the orientation
  EXPECT_GT(dot(row(R, 1), orientation), 0.5);                      // e_y on its side
}

TEST(Beam, FrameRefusesAZeroLengthOrAnOrientationAlongTheBeam) {
  double R[9] = {};
  const double along[3] = {2 * (X1[0] - X0[0]), 2 * (X1[1] - X0[1]), 2 * (X1[2] - X0[2])};
  const double zero[3] = {0, 0, 0};
  EXPECT_FALSE(beam_frame(X0, X1, along, R));
  EXPECT_FALSE(beam_frame(X0, X1, zero, R));
  EXPECT_FALSE(beam_frame(X0, X0, orientation, R));
  EXPECT_THROW(beam_stiffness(X0, X0, R, section(), material(), true, M12{}.data()), SolverError);
}

TEST(Beam, DefaultOrientationPutsLocalZUpOnAHorizontalBeamAndUsesYOnAVerticalOne) {
  const double a[3] = {0, 0, 0}, b[3] = {1, 1, 0}, up[3] = {0, 0, 3};
  double o[3], R[9];
  default_beam_orientation(a, b, o);
  ASSERT_TRUE(beam_frame(a, b, o, R));
  EXPECT_NEAR(R[6 + 2], 1, 1e-15);  // local z = global Z
  EXPECT_NEAR(R[3 + 2], 0, 1e-15);  // local y horizontal
  default_beam_orientation(a, up, o);
  EXPECT_EQ(o[0], 0);
  EXPECT_EQ(o[1], 1);
  EXPECT_EQ(o[2], 0);
  ASSERT_TRUE(beam_frame(a, up, o, R));
  EXPECT_NEAR(R[3 + 1], 1, 1e-15);  // local y = global Y
  // A skew beam's default is horizontal and normal to it.
  default_beam_orientation(X0, X1, o);
  EXPECT_EQ(o[2], 0);
  EXPECT_NEAR(o[0] * (X1[0] - X0[0]) + o[1] * (X1[1] - X0[1]), 0, 1e-15);
}

TEST(Beam, StiffnessIsSymmetricWithTheSixRigidBodyModesInItsNullSpace) {
  for (bool timoshenko : {false, true}) {
    const M12 K = stiffness(timoshenko);
    const double scale = max_abs(K.data(), 144);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) EXPECT_NEAR(K[12 * i + j], K[12 * j + i], 1e-15 * scale);
    for (int mode = 0; mode < 6; ++mode) {
      V12 d{};
      double w[3] = {0, 0, 0};
      if (mode < 3) {
        d[mode] = d[3 + mode] = 1;  // translation
      } else {
        w[mode - 3] = 1;  // rotation about the origin: u_i = w x x_i, th_i = w
        cross(w, X0, d.data());
        cross(w, X1, d.data() + 3);
        for (int i = 0; i < 3; ++i) d[6 + i] = d[9 + i] = w[i];
      }
      const V12 f = times(K, d);
      EXPECT_LT(max_abs(f.data(), 12), 1e-13 * scale * max_abs(d.data(), 12))
          << "mode " << mode << " timoshenko " << timoshenko;
    }
  }
}

TEST(Beam, EulerBernoulliTipLoadDeflectionIsExactWithOneElement) {
  const auto R = frame();
  const double L = length(), P = 1.5e4, zero[3] = {0, 0, 0};
  const auto s = section();
  for (int axis : {1, 2}) {  // P along local y (bends with Iz), along local z (with Iy)
    const double I = axis == 1 ? s.iz : s.iy,
                 F[3] = {P * R[3 * axis], P * R[3 * axis + 1], P * R[3 * axis + 2]};
    const V12 d = cantilever(false, F, zero);
    const auto u = local(d.data() + 3), th = local(d.data() + 9);
    const double w = P * L * L * L / (3 * E * I), slope = P * L * L / (2 * E * I);
    EXPECT_NEAR(u[axis], w, 1e-12 * w);
    EXPECT_NEAR(u[0], 0, 1e-12 * w);
    EXPECT_NEAR(u[3 - axis], 0, 1e-12 * w);
    // th_z = dv/dx, th_y = -dw/dx
    EXPECT_NEAR(th[axis == 1 ? 2 : 1], axis == 1 ? slope : -slope, 1e-12 * slope);
    EXPECT_NEAR(th[0], 0, 1e-12 * slope);
    EXPECT_NEAR(th[axis == 1 ? 1 : 2], 0, 1e-12 * slope);
  }
}

TEST(Beam, TimoshenkoTipDeflectionIsExactWithOneElement) {
  const auto R = frame();
  const double L = length(), P = 1.5e4, zero[3] = {0, 0, 0};
  const auto s = section();
  for (int axis : {1, 2}) {
    const double I = axis == 1 ? s.iz : s.iy, As = axis == 1 ? s.shear_area_y : s.shear_area_z;
    const double F[3] = {P * R[3 * axis], P * R[3 * axis + 1], P * R[3 * axis + 2]};
    const V12 d = cantilever(true, F, zero);
    const auto u = local(d.data() + 3), th = local(d.data() + 9);
    const double bending = P * L * L * L / (3 * E * I), shear = P * L / (G * As);
    EXPECT_GT(shear, 0.05 * bending);  // the shear part matters
    EXPECT_NEAR(u[axis], bending + shear, 1e-12 * (bending + shear));
    EXPECT_NEAR(u[0], 0, 1e-12 * bending);
    EXPECT_NEAR(u[3 - axis], 0, 1e-12 * bending);
    // The end rotation is the bending slope alone (the section's rotation, not dw/dx).
    const double slope = P * L * L / (2 * E * I);
    EXPECT_NEAR(th[axis == 1 ? 2 : 1], axis == 1 ? slope : -slope, 1e-12 * slope);
  }
}

TEST(Beam, TipMomentGivesTheExactRotationAndDeflection) {
  const auto R = frame();
  const double L = length(), Mo = 2.0e4, zero[3] = {0, 0, 0};
  const auto s = section();
  for (bool timoshenko : {false, true})
    for (int axis : {1, 2}) {  // a moment about local y (bends with Iy), about local z (Iz)
      const double I = axis == 1 ? s.iy : s.iz;
      const double C[3] = {Mo * R[3 * axis], Mo * R[3 * axis + 1], Mo * R[3 * axis + 2]};
      const V12 d = cantilever(timoshenko, zero, C);
      const auto u = local(d.data() + 3), th = local(d.data() + 9);
      const double rotation = Mo * L / (E * I), w = Mo * L * L / (2 * E * I);
      EXPECT_NEAR(th[axis], rotation, 1e-12 * rotation);
      EXPECT_NEAR(th[3 - axis], 0, 1e-12 * rotation);
      // About +y: w = -M L^2 / (2 E Iy) (th_y = -dw/dx); about +z: v = +M L^2 / (2 E Iz).
      EXPECT_NEAR(u[3 - axis], axis == 1 ? -w : w, 1e-12 * w);
      EXPECT_NEAR(u[axis], 0, 1e-12 * w);
    }
}

TEST(Beam, TorsionAndAxialEndLoadsAreExact) {
  const auto R = frame();
  const double L = length(), T = 3e3, N = 4e5, zero[3] = {0, 0, 0};
  const auto s = section();
  const double F[3] = {N * R[0], N * R[1], N * R[2]}, C[3] = {T * R[0], T * R[1], T * R[2]};
  for (bool timoshenko : {false, true}) {
    const V12 a = cantilever(timoshenko, F, zero), t = cantilever(timoshenko, zero, C);
    const double stretch = N * L / (E * s.area), twist = T * L / (G * s.torsion);
    EXPECT_NEAR(local(a.data() + 3)[0], stretch, 1e-12 * stretch);
    EXPECT_NEAR(local(t.data() + 9)[0], twist, 1e-12 * twist);
    EXPECT_LT(max_abs(a.data() + 6, 6), 1e-12 * stretch / L);
    EXPECT_LT(max_abs(t.data(), 6), 1e-12 * twist * L);
  }
}

// Friedman and Kosmatka's interdependent interpolation of a Timoshenko beam (th = dv/dx - gamma),
// xi = x / L: the exact homogeneous solutions, written out here independently of the element.
void shapes(double xi, double L, double phi, double Nv[4], double Nt[4], double dNv[4],
            double dNt[4]) {
  const double d = 1 + phi, x2 = xi * xi, x3 = x2 * xi;
  Nv[0] = (2 * x3 - 3 * x2 - phi * xi + 1 + phi) / d;
  Nv[1] = L * (x3 - (2 + phi / 2) * x2 + (1 + phi / 2) * xi) / d;
  Nv[2] = -(2 * x3 - 3 * x2 - phi * xi) / d;
  Nv[3] = L * (x3 - (1 - phi / 2) * x2 - phi / 2 * xi) / d;
  Nt[0] = 6 * (x2 - xi) / (d * L);
  Nt[1] = (3 * x2 - (4 + phi) * xi + 1 + phi) / d;
  Nt[2] = -Nt[0];
  Nt[3] = (3 * x2 - (2 - phi) * xi) / d;
  // d/dx
  dNv[0] = (6 * x2 - 6 * xi - phi) / (d * L);
  dNv[1] = (3 * x2 - (4 + phi) * xi + 1 + phi / 2) / d;
  dNv[2] = -dNv[0];
  dNv[3] = (3 * x2 - (2 - phi) * xi - phi / 2) / d;
  dNt[0] = 6 * (2 * xi - 1) / (d * L * L);
  dNt[1] = (6 * xi - 4 - phi) / (d * L);
  dNt[2] = -dNt[0];
  dNt[3] = (6 * xi - 2 + phi) / (d * L);
}

/// The bending blocks integrated with 5-point Gauss (exact for these degree-6 products):
/// K = int E I th'^2 + G As (v' - th)^2, M = int rho A v^2 + rho I th^2.
void integrated_bending(double L, double EI, double GAs, double rhoA, double rhoI, double K[4][4],
                        double M[4][4]) {
  const double g[5] = {-0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831,
                       0.9061798459386640};
  const double w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                       0.4786286704993665, 0.2369268850561891};
  const double phi = GAs > 0 ? 12 * EI / (GAs * L * L) : 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) K[i][j] = M[i][j] = 0;
  for (int q = 0; q < 5; ++q) {
    double Nv[4], Nt[4], dNv[4], dNt[4];
    shapes((g[q] + 1) / 2, L, phi, Nv, Nt, dNv, dNt);
    const double dx = w[q] * L / 2;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        K[i][j] += dx * EI * dNt[i] * dNt[j];
        if (GAs > 0) K[i][j] += dx * GAs * (dNv[i] - Nt[i]) * (dNv[j] - Nt[j]);
        M[i][j] += dx * (rhoA * Nv[i] * Nv[j] + rhoI * Nt[i] * Nt[j]);
      }
  }
}

/// Compares the element's local 12 x 12 matrix on the bending DOFs with the 4 x 4 block b (with th
/// = dv/dx; sign -1 for the x-z plane, whose th_y = -dw/dx).
void expect_block(const M12& A, const int dofs[4], double sign, const double b[4][4]) {
  const double s[4] = {1, sign, 1, sign};
  double scale = 0;
  for (int i = 0; i < 4; ++i) scale = std::max(scale, std::abs(b[i][i]));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(A[12 * dofs[i] + dofs[j]], s[i] * s[j] * b[i][j], 1e-12 * scale) << i << " " << j;
}

constexpr int xy_dofs[4] = {1, 8, 4, 11}, xz_dofs[4] = {2, 7, 5, 10};

TEST(Beam, TimoshenkoMatricesAreTheEnergiesOfTheInterdependentShapeFunctions) {
  const auto s = section();
  const double L = length();
  M12 K, M;
  beam_local_stiffness(L, s, material(), true, K.data());
  beam_local_consistent_mass(L, s, material(), true, M.data());
  double Kb[4][4], Mb[4][4];
  integrated_bending(L, E * s.iz, G * s.shear_area_y, rho * s.area, rho * s.iz, Kb, Mb);
  expect_block(K, xy_dofs, 1, Kb);
  expect_block(M, xy_dofs, 1, Mb);
  integrated_bending(L, E * s.iy, G * s.shear_area_z, rho * s.area, rho * s.iy, Kb, Mb);
  expect_block(K, xz_dofs, -1, Kb);
  expect_block(M, xz_dofs, -1, Mb);
  // and the Euler-Bernoulli element is the phi = 0 case
  beam_local_stiffness(L, s, material(), false, K.data());
  beam_local_consistent_mass(L, s, material(), false, M.data());
  integrated_bending(L, E * s.iy, 0, rho * s.area, rho * s.iy, Kb, Mb);
  expect_block(K, xz_dofs, -1, Kb);
  expect_block(M, xz_dofs, -1, Mb);
}

TEST(Beam, EulerBernoulliConsistentMassIsTheClassic420MatrixWithoutRotaryInertia) {
  BeamSectionProperties s = section();
  s.iy = s.iz = 0;  // no rotary inertia
  const double L = 1.7, c = rho * s.area * L / 420;
  M12 M;
  beam_local_consistent_mass(L, s, material(), false, M.data());
  const double classic[4][4] = {{156 * c, 22 * L * c, 54 * c, -13 * L * c},
                                {22 * L * c, 4 * L * L * c, 13 * L * c, -3 * L * L * c},
                                {54 * c, 13 * L * c, 156 * c, -22 * L * c},
                                {-13 * L * c, -3 * L * L * c, -22 * L * c, 4 * L * L * c}};
  expect_block(M, xy_dofs, 1, classic);
  expect_block(M, xz_dofs, -1, classic);
  const double a = rho * s.area * L / 6;
  EXPECT_NEAR(M[0], 2 * a, 1e-15 * a);
  EXPECT_NEAR(M[3], a, 1e-15 * a);
  EXPECT_EQ(M[12 * 6 + 6], 0);  // no torsional inertia without Iy + Iz
  // The rotary inertia alone: rho I / (30 L) [36, 3L, -36, 3L; 3L, 4L^2, -3L, -L^2; ...].
  s = section();
  s.area = 0;
  beam_local_consistent_mass(L, s, material(), false, M.data());
  const double r = rho * s.iz / (30 * L);
  const double rotary[4][4] = {{36 * r, 3 * L * r, -36 * r, 3 * L * r},
                               {3 * L * r, 4 * L * L * r, -3 * L * r, -L * L * r},
                               {-36 * r, -3 * L * r, 36 * r, -3 * L * r},
                               {3 * L * r, -L * L * r, -3 * L * r, 4 * L * L * r}};
  expect_block(M, xy_dofs, 1, rotary);
}

M12 consistent_mass(bool timoshenko) {
  M12 M;
  const auto R = frame();
  beam_consistent_mass(X0, X1, R.data(), section(), material(), timoshenko, M.data());
  return M;
}

TEST(Beam, RigidTranslationCarriesTheWholeMassConsistentAndLumped) {
  const double t[3] = {0.3, -1.2, 0.7}, m = rho * section().area * length();
  const V12 d = {t[0], t[1], t[2], t[0], t[1], t[2], 0, 0, 0, 0, 0, 0};
  for (bool timoshenko : {false, true}) {
    const V12 f = times(consistent_mass(timoshenko), d);
    EXPECT_NEAR(dot(d.data(), f.data(), 12), m * dot(t, t), 1e-13 * m * dot(t, t));
  }
  double lumped[12];
  beam_lumped_mass(X0, X1, section(), material(), lumped);
  double e = 0;
  for (int i = 0; i < 12; ++i) e += lumped[i] * d[i] * d[i];
  EXPECT_NEAR(e, m * dot(t, t), 1e-13 * m * dot(t, t));
}

TEST(Beam, ConsistentMassGivesTheExactKineticEnergyOfARigidSpin) {
  // About the beam's own axis: rho (Iy + Iz) L w^2.
  const auto R = frame();
  const auto s = section();
  const double L = length(), w = 2.5;
  V12 d{};
  for (int i = 0; i < 3; ++i) d[6 + i] = d[9 + i] = w * R[i];
  for (bool timoshenko : {false, true}) {
    const double e = dot(d.data(), times(consistent_mass(timoshenko), d).data(), 12);
    const double exact = rho * (s.iy + s.iz) * L * w * w;
    EXPECT_NEAR(e, exact, 1e-13 * exact);
  }
  // About an arbitrary axis through the origin: the shape functions hold rigid motions, so
  // d.M.d = int rho A |w x x(s)|^2 ds + rho L (Iy + Iz, Iy, Iz) . (w_local^2) exactly.
  const double spin[3] = {0.4, -1.1, 0.8};
  cross(spin, X0, d.data());
  cross(spin, X1, d.data() + 3);
  for (int i = 0; i < 3; ++i) d[6 + i] = d[9 + i] = spin[i];
  double translational = 0;  // Simpson's rule, exact for the quadratic |w x x(s)|^2
  for (auto [t, weight] : {std::pair{0.0, 1.0}, {0.5, 4.0}, {1.0, 1.0}}) {
    double x[3], v[3];
    for (int i = 0; i < 3; ++i) x[i] = X0[i] + t * (X1[i] - X0[i]);
    cross(spin, x, v);
    translational += weight / 6 * L * rho * s.area * dot(v, v);
  }
  const auto wl = local(spin);
  const double rotary =
      rho * L * ((s.iy + s.iz) * wl[0] * wl[0] + s.iy * wl[1] * wl[1] + s.iz * wl[2] * wl[2]);
  for (bool timoshenko : {false, true}) {
    const double e = dot(d.data(), times(consistent_mass(timoshenko), d).data(), 12);
    EXPECT_NEAR(e, translational + rotary, 1e-13 * (translational + rotary));
  }
}

TEST(Beam, ConsistentMassIsSymmetric) {
  for (bool timoshenko : {false, true}) {
    const M12 M = consistent_mass(timoshenko);
    const double scale = max_abs(M.data(), 144);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) EXPECT_NEAR(M[12 * i + j], M[12 * j + i], 1e-15 * scale);
  }
}

TEST(Beam, LumpedMassGivesEveryRotationTheLargestLocalRotaryInertia) {
  const double a[3] = {0, 0, 0}, b[3] = {2, 0, 0};  // L = 2
  BeamSectionProperties s = section();
  double m[12];
  beam_lumped_mass(a, b, s, material(), m);
  const double hrz = rho * s.area * 8 / 78;
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(m[i], rho * s.area);
  // rho (Iy + Iz) = 0.33 kg m vs rho Iy + hrz: the bending one (Iy the larger) wins.
  for (int i = 6; i < 12; ++i) EXPECT_DOUBLE_EQ(m[i], rho * s.iy + hrz);
  s.area = 1e-9;  // a section all rotary inertia: the torsional value rho (Iy + Iz) L / 2
  beam_lumped_mass(a, b, s, material(), m);
  for (int i = 6; i < 12; ++i) EXPECT_DOUBLE_EQ(m[i], rho * (s.iy + s.iz));
}

V12 section_forces(const V12& d, bool timoshenko) {
  V12 s;
  const auto R = frame();
  beam_section_forces(X0, X1, R.data(), section(), material(), timoshenko, d.data(), s.data());
  return s;
}

TEST(Beam, SectionForcesOfACantileverTipLoadAreTheStaticsAtBothEnds) {
  const auto R = frame();
  const double L = length(), P = 1.5e4, zero[3] = {0, 0, 0};
  for (bool timoshenko : {false, true}) {
    // P along +z: Vz = P at both ends, My = -P L at the root (the +z side in compression), 0 at
    // the tip.
    const double Fz[3] = {P * R[6], P * R[7], P * R[8]};
    V12 s = section_forces(cantilever(timoshenko, Fz, zero), timoshenko);
    const double tol = 1e-11 * P * L;
    const V12 z_expected = {0, 0, P, 0, -P * L, 0, 0, 0, P, 0, 0, 0};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(s[i], z_expected[i], tol) << i;
    // P along +y: Vy = P, Mz = +P L at the root.
    const double Fy[3] = {P * R[3], P * R[4], P * R[5]};
    s = section_forces(cantilever(timoshenko, Fy, zero), timoshenko);
    const V12 y_expected = {0, P, 0, 0, 0, P * L, 0, P, 0, 0, 0, 0};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(s[i], y_expected[i], tol) << i;
    // A pull N along +x: N = +P at both ends, nothing else; a twist T: T at both ends.
    const double Fx[3] = {P * R[0], P * R[1], P * R[2]};
    s = section_forces(cantilever(timoshenko, Fx, zero), timoshenko);
    const V12 x_expected = {P, 0, 0, 0, 0, 0, P, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(s[i], x_expected[i], tol) << i;
    s = section_forces(cantilever(timoshenko, zero, Fx), timoshenko);
    const V12 t_expected = {0, 0, 0, P, 0, 0, 0, 0, 0, P, 0, 0};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(s[i], t_expected[i], tol) << i;
  }
}

TEST(Beam, SectionForcesOfARigidMotionAreZero) {
  V12 d{};
  const double w[3] = {0.01, -0.02, 0.015};
  cross(w, X0, d.data());
  cross(w, X1, d.data() + 3);
  for (int i = 0; i < 3; ++i) {
    d[6 + i] = d[9 + i] = w[i];
    d[i] += 0.1;  // and a translation
    d[3 + i] += 0.1;
  }
  const V12 s = section_forces(d, true);
  const double scale = E * section().area * 0.01;  // the forces of a 1% strain
  EXPECT_LT(max_abs(s.data(), 12), 1e-12 * scale);
}

TEST(Beam, ShearDeformableElementWithoutShearModulusIsRefused) {
  const auto R = frame();
  M12 K;
  BeamMaterial m = material();
  m.shear_modulus = 0;
  EXPECT_THROW(beam_stiffness(X0, X1, R.data(), section(), m, true, K.data()), InputError);
  // Euler-Bernoulli, or no shear area: phi = 0
  EXPECT_NO_THROW(beam_stiffness(X0, X1, R.data(), section(), m, false, K.data()));
  double py = 1, pz = 1;
  BeamSectionProperties s = section();
  s.shear_area_y = 0;
  s.shear_area_z = -1;
  beam_shear_parameters(length(), s, material(), true, py, pz);
  EXPECT_EQ(py, 0);
  EXPECT_EQ(pz, 0);
  beam_shear_parameters(2.0, section(), material(), true, py, pz);
  EXPECT_DOUBLE_EQ(py, 12 * E * 1.2e-5 / (G * 2.5e-4 * 4));
  EXPECT_DOUBLE_EQ(pz, 12 * E * 3e-5 / (G * 4e-4 * 4));
}

/// The first frequency (rad/s) of a simply supported beam of `elements` equal elements along x,
/// bending in x-z (DOFs w, th_y per node; w = 0 at both ends): inverse iteration on K x = w^2 M x
/// with the consistent mass, started from the first mode's shape.
double simply_supported_frequency(int elements, double L, const BeamSectionProperties& s,
                                  bool timoshenko) {
  const int nodes = elements + 1, n = 2 * nodes;
  std::vector<double> K(n * n), M(n * n);
  M12 k, m;
  beam_local_stiffness(L / elements, s, material(), timoshenko, k.data());
  beam_local_consistent_mass(L / elements, s, material(), timoshenko, m.data());
  for (int e = 0; e < elements; ++e)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        K[(2 * e + i) * n + 2 * e + j] += k[12 * xz_dofs[i] + xz_dofs[j]];
        M[(2 * e + i) * n + 2 * e + j] += m[12 * xz_dofs[i] + xz_dofs[j]];
      }
  std::vector<int> kept;  // all but w at the two ends
  for (int i = 0; i < n; ++i)
    if (i != 0 && i != n - 2) kept.push_back(i);
  const int r = static_cast<int>(kept.size());
  std::vector<double> Kr(r * r), Mr(r * r), x(r);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < r; ++j) {
      Kr[i * r + j] = K[kept[i] * n + kept[j]];
      Mr[i * r + j] = M[kept[i] * n + kept[j]];
    }
  for (int i = 0; i < r; ++i) {  // w = sin(pi x / L), th_y = -dw/dx
    const int dof = kept[i];
    const double xi = (dof / 2) * L / elements;
    x[i] = dof % 2 == 0 ? std::sin(pi * xi / L) : -pi / L * std::cos(pi * xi / L);
  }
  double lambda = 0;
  for (int it = 0; it < 60; ++it) {
    std::vector<double> Mx(r, 0.0);
    for (int i = 0; i < r; ++i) Mx[i] = dot(Mr.data() + i * r, x.data(), r);
    x = solve(Kr, Mx);
    std::vector<double> Kx(r), Mx2(r);
    for (int i = 0; i < r; ++i) {
      Kx[i] = dot(Kr.data() + i * r, x.data(), r);
      Mx2[i] = dot(Mr.data() + i * r, x.data(), r);
    }
    lambda = dot(x.data(), Kx.data(), r) / dot(x.data(), Mx2.data(), r);
    const double norm = std::sqrt(dot(x.data(), x.data(), r));
    for (double& v : x) v /= norm;
  }
  return std::sqrt(lambda);
}

TEST(Beam, SimplySupportedFrequenciesConvergeToTheRayleighAndTimoshenkoBeams) {
  // A deep beam (L / h = 5, rectangle 0.2 x 0.4, Cowper's k at nu = 0.3) where rotary inertia
  // and shear matter. With k = pi / L, r2 = I / A, the exact first frequencies are
  //   Rayleigh (Euler-Bernoulli + rotary inertia): w^2 = E I k^4 / (rho A (1 + r2 k^2)),
  //   Timoshenko: (rho^2 I / (G k_s)) w^4 - (rho A + rho I k^2 (1 + E / (G k_s))) w^2
  //               + E I k^4 = 0 (the smaller root), k_s A the shear area.
  const double L = 2.0;
  BeamSectionProperties s = rectangle_section(0.2, 0.4, 0.3);
  const double k = pi / L, A = s.area, I = s.iy, ks = s.shear_area_z / A;
  const double rayleigh = std::sqrt(E * I * k * k * k * k / (rho * A * (1 + I / A * k * k)));
  const double a = rho * rho * I / (G * ks), b = rho * A + rho * I * k * k * (1 + E / (G * ks)),
               c = E * I * k * k * k * k;
  const double timoshenko = std::sqrt((b - std::sqrt(b * b - 4 * a * c)) / (2 * a));
  EXPECT_LT(timoshenko, 0.97 * rayleigh);  // shear lowers it by 4.5%
  // The Euler-Bernoulli element converges at the fourth order (2.6e-4, 1.6e-5, 1.0e-6, 6.4e-8
  // at 4 to 32 elements, x 15.2 to 16.0 per halving); the Timoshenko element at the second
  // (2.5e-3, 5.8e-4, 1.4e-4, 3.5e-5, x 4.3 to 4.0): its stiffness is exact, but as the elements
  // get short against the depth (phi = 32 at 16 elements) its shape functions tend to linear ones
  // and so does its mass.
  double previous_eb = 1, previous_t = 1;
  for (int elements : {2, 4, 8, 16, 32}) {
    const double eb = simply_supported_frequency(elements, L, s, false) / rayleigh - 1;
    const double t = simply_supported_frequency(elements, L, s, true) / timoshenko - 1;
    EXPECT_GT(eb, 0);  // the consistent mass bounds the frequency from above
    EXPECT_GT(t, 0);
    if (elements > 2) {
      EXPECT_LT(eb, previous_eb / 12) << elements;
      EXPECT_LT(t, previous_t / 3.8) << elements;
      if (elements > 4) {
        EXPECT_GT(t, previous_t / 4.5) << elements;
      }
    }
    previous_eb = eb;
    previous_t = t;
  }
  EXPECT_LT(previous_eb, 1e-7);
  EXPECT_LT(previous_t, 4e-5);
}

void expect_relative(double value, double exact, double tol) {
  EXPECT_NEAR(value, exact, tol * std::abs(exact));
}

TEST(Beam, ShapePropertiesMatchHandValues) {
  const double nu = 0.3;
  // Rectangle 0.2 (y) x 0.4 (z).
  auto p = rectangle_section(0.2, 0.4, nu);
  expect_relative(p.area, 0.08, 1e-15);
  expect_relative(p.iy, 0.2 * 0.064 / 12, 1e-15);                        // 1.0667e-3
  expect_relative(p.iz, 0.4 * 0.008 / 12, 1e-15);                        // 2.6667e-4
  expect_relative(p.shear_area_z, 13.0 / 15.3 * 0.08, 1e-15);            // Cowper 0.84967
  expect_relative(p.torsion, 0.22868167712773946 * 0.4 * 0.008, 1e-12);  // a / b = 2
  expect_relative(p.plastic_modulus_y, 0.2 * 0.16 / 4, 1e-15);
  expect_relative(p.plastic_modulus_z, 0.4 * 0.04 / 4, 1e-15);
  // Circle d = 0.1: Cowper 7.8 / 8.8 = 0.88636.
  p = circle_section(0.1, nu);
  expect_relative(p.area, 7.853981633974483e-3, 1e-15);
  expect_relative(p.iy, 4.908738521234052e-6, 1e-15);
  expect_relative(p.iz, 4.908738521234052e-6, 1e-15);
  expect_relative(p.torsion, 9.817477042468103e-6, 1e-15);
  expect_relative(p.shear_area_y, 7.8 / 8.8 * 7.853981633974483e-3, 1e-15);
  expect_relative(p.plastic_modulus_y, 1e-3 / 6, 1e-15);
  // Tube 0.2 x 0.01 (inner 0.18): A = pi (0.04 - 0.0324) / 4, I = pi (0.0016 - 0.00104976) / 64.
  p = tube_section(0.2, 0.01, nu);
  expect_relative(p.area, 5.969026041820607e-3, 1e-14);
  expect_relative(p.iy, 2.7009842839238267e-5, 1e-14);
  expect_relative(p.torsion, 5.4019685678476534e-5, 1e-14);
  expect_relative(p.plastic_modulus_y, (0.008 - 0.005832) / 6, 1e-14);
  // Cowper's hollow circle at m = 0.9: between the thin tube's 2.6 / 4.9 = 0.5306 and the circle.
  const double q = (1 + 0.81) * (1 + 0.81);
  expect_relative(p.shear_area_y / p.area, 7.8 * q / (8.8 * q + 23.6 * 0.81), 1e-14);
  EXPECT_NEAR(p.shear_area_y / p.area, 2.6 / 4.9, 0.01);
  // IPE 300 without its root fillets: h 300, b 150, t_f 10.7, t_w 7.1 mm (the table's 53.81 cm^2
  // is these 51.88 plus the four 15 mm fillets' 1.93 cm^2).
  p = i_section(0.3, 0.15, 0.0107, 0.0071, nu);
  expect_relative(p.area, 5.18806e-3, 1e-12);
  expect_relative(p.iy, 7.998986946313319e-05, 1e-12);
  expect_relative(p.iz, 6.027059500383331e-06, 1e-12);
  expect_relative(p.torsion, 1.5574230153333332e-07, 1e-12);
  expect_relative(p.plastic_modulus_y, 6.020983789999999e-4, 1e-12);
  expect_relative(p.plastic_modulus_z, 1.238860565e-4, 1e-12);
  // Shear along the web: about the web's clear area (Cowper's k = 0.381, h_w t_w / A = 0.381).
  EXPECT_NEAR(p.shear_area_z / (0.2786 * 0.0071), 1, 0.02);
  expect_relative(p.shear_area_y, 13.0 / 15.3 * 2 * 0.15 * 0.0107, 1e-15);
}

TEST(Beam, RectangleTorsionMatchesTimoshenkoAndGoodiersTable) {
  // k1 = J / (a b^3), a the long side (Theory of Elasticity, sec. 109, 3 digits).
  const std::pair<double, double> table[] = {{1.0, 0.141}, {1.5, 0.196}, {2.0, 0.229},
                                             {3.0, 0.263}, {5.0, 0.291}, {10.0, 0.312}};
  for (auto [ratio, k1] : table) {
    const double b = 0.05, a = ratio * b;
    EXPECT_NEAR(rectangle_section(a, b, 0.3).torsion / (a * b * b * b), k1, 5e-4) << ratio;
    EXPECT_NEAR(rectangle_section(b, a, 0.3).torsion / (a * b * b * b), k1, 5e-4) << ratio;
  }
  // The square's exact value 0.1406 (2.25 (a / 2)^4 to 0.1%).
  EXPECT_NEAR(rectangle_section(1, 1, 0.3).torsion, 0.140577, 1e-6);
}

double fiber_sum(const std::vector<BeamFiber>& f, int power_y, int power_z, bool absolute = false) {
  double s = 0;
  for (const auto& x : f) {
    const double v = std::pow(x.y, power_y) * std::pow(x.z, power_z);
    s += x.area * (absolute ? std::abs(v) : v);
  }
  return s;
}

TEST(Beam, FibersReproduceTheAreaAndSecondMomentsOfEveryShape) {
  using K = BeamShape::Kind;
  const BeamShape shapes[] = {{K::rectangle, 0.2, 0.4}, {K::rectangle, 0.3, 0.05},
                              {K::circle, 0.1},         {K::tube, 0.2, 0.01},
                              {K::tube, 0.2, 0.1},      {K::i_section, 0.3, 0.15, 0.0107, 0.0071}};
  for (const auto& shape : shapes)
    for (int divisions : {1, 2, 5, 16}) {
      const auto f = section_fibers(shape, divisions);
      const auto p = section_properties(shape, 0.3);
      expect_relative(fiber_sum(f, 0, 0), p.area, 1e-13);
      expect_relative(fiber_sum(f, 0, 2), p.iy, 1e-13);
      expect_relative(fiber_sum(f, 2, 0), p.iz, 1e-13);
      EXPECT_NEAR(fiber_sum(f, 1, 0), 0, 1e-13 * p.area * std::sqrt(p.area));
      EXPECT_NEAR(fiber_sum(f, 0, 1), 0, 1e-13 * p.area * std::sqrt(p.area));
      EXPECT_NEAR(fiber_sum(f, 1, 1), 0, 1e-13 * p.iy);
    }
}

TEST(Beam, FibersPlasticModulusConvergesWithTheDivisions) {
  using K = BeamShape::Kind;
  // sum a |z| -> Zy: exact for the rectangle and the I section (even cells across the height),
  // the circle's +1.31e-2 at 4 divisions, +8.7e-4 at 16 (16 rings of 64 sectors), second order;
  // the 0.2 x 0.01 tube's +4.3e-4 at 16 (4 rings of 64 sectors).
  const BeamShape rect{K::rectangle, 0.2, 0.4}, ipe{K::i_section, 0.3, 0.15, 0.0107, 0.0071};
  expect_relative(fiber_sum(section_fibers(rect, 8), 0, 1, true), 0.2 * 0.16 / 4, 1e-13);
  expect_relative(fiber_sum(section_fibers(ipe, 8), 0, 1, true), 6.020983789999999e-4, 1e-13);
  const BeamShape circle{K::circle, 0.1}, tube{K::tube, 0.2, 0.01};
  const double z_circle = 1e-3 / 6, z_tube = (0.008 - 0.005832) / 6;
  const double e4 = fiber_sum(section_fibers(circle, 4), 0, 1, true) / z_circle - 1;
  const double e16 = fiber_sum(section_fibers(circle, 16), 0, 1, true) / z_circle - 1;
  EXPECT_LT(std::abs(e16), 1e-3);
  EXPECT_LT(std::abs(e16), std::abs(e4) / 4);
  EXPECT_NEAR(fiber_sum(section_fibers(tube, 16), 0, 1, true) / z_tube, 1, 5e-4);
}

TEST(Beam, BadShapeDimensionsAreRefused) {
  EXPECT_THROW(rectangle_section(0, 1, 0.3), InputError);
  EXPECT_THROW(circle_section(-1, 0.3), InputError);
  EXPECT_THROW(tube_section(0.1, 0.06, 0.3), InputError);
  EXPECT_THROW(i_section(0.3, 0.15, 0.16, 0.01, 0.3), InputError);
  EXPECT_THROW(i_section(0.3, 0.15, 0.01, 0.2, 0.3), InputError);
  EXPECT_THROW(section_fibers({BeamShape::Kind::circle, 0.1}, 0), InputError);
  EXPECT_THROW(rectangle_section(std::nan(""), 1, 0.3), InputError);
}

}  // namespace
}  // namespace inertia::fe
