// The MITC4 flat shell (fe/shell.hpp): rigid-body modes and rank (flat and warped elements, the
// warping correction), invariance under rotation,
// MacNeal and Harder's membrane and bending patch tests on their distorted five-element patch,
// a cantilever strip converging to Timoshenko's tip deflection, the lumped mass.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../support/fixtures.hpp"
#include "../support/symmetric_eigenvalues.hpp"
#include "inertia/fe/shell.hpp"

namespace {

using inertia::fe::Shell4Frame;
using inertia::fe::ShellSection;

/// Solves A x = b (n x n, dense, partial pivoting); b becomes x.
void solve(std::vector<double> A, std::vector<double>& b, int n) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(A[i * n + k]) > std::abs(A[p * n + k])) p = i;
    for (int j = 0; j < n; ++j) std::swap(A[k * n + j], A[p * n + j]);
    std::swap(b[k], b[p]);
    for (int i = k + 1; i < n; ++i) {
      const double f = A[i * n + k] / A[k * n + k];
      for (int j = k; j < n; ++j) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) b[k] -= A[k * n + j] * b[j];
    b[k] /= A[k * n + k];
  }
}

using inertia::testing::max_abs;
using inertia::testing::rotation;

/// An irregular convex quad in the x-y plane, rotated by Q and moved.
std::array<double, 12> skew_quad(const std::array<double, 9>& Q) {
  const double plane[4][2] = {{0.0, 0.0}, {2.0, 0.3}, {1.7, 1.4}, {0.2, 1.1}};
  std::array<double, 12> x{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] = Q[3 * i] * plane[a][0] + Q[3 * i + 1] * plane[a][1] + 0.5 * (i + 1);
  return x;
}

ShellSection steel(double t) {
  ShellSection s;
  s.thickness = t;
  s.youngs_modulus = 2.0e11;
  s.poissons_ratio = 0.3;
  s.density = 7850;
  return s;
}

TEST(Shell4, RigidBodyModesGiveNoForceAndTheRankIsEighteen) {
  const auto x = skew_quad(rotation({1, 2, 3}, 0.7));
  double K[576];
  inertia::fe::shell4_stiffness(x.data(), steel(0.01), K);
  const double kmax = max_abs(K, 576);
  for (int mode = 0; mode < 6; ++mode) {
    double d[24] = {};
    for (int a = 0; a < 4; ++a) {
      if (mode < 3) {
        d[3 * a + mode] = 1;
      } else {  // rotation about axis mode - 3 through the origin: u = e x x, theta = e
        const int e = mode - 3;
        const double* p = &x[3 * a];
        double w[3] = {0, 0, 0};
        w[e] = 1;
        d[3 * a + 0] = w[1] * p[2] - w[2] * p[1];
        d[3 * a + 1] = w[2] * p[0] - w[0] * p[2];
        d[3 * a + 2] = w[0] * p[1] - w[1] * p[0];
        d[12 + 3 * a + e] = 1;
      }
    }
    double f[24] = {};
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) f[i] += K[24 * i + j] * d[j];
    EXPECT_LT(max_abs(f, 24), 1e-12 * kmax * max_abs(d, 24)) << "rigid mode " << mode;
  }
  // Exactly six zero eigenvalues: no spurious zero-energy mode (the drilling rotations are tied).
  const auto ev = inertia::testing::symmetric_eigenvalues(std::vector<double>(K, K + 576), 24);
  for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(ev[i]), 1e-10 * ev[23]) << i;
  EXPECT_GT(ev[6], 1e-8 * ev[23]);
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < i; ++j) EXPECT_NEAR(K[24 * i + j], K[24 * j + i], 1e-12 * kmax);
}

/// A twisted (warped) quad: skew_quad's corners lifted alternately by +-h along the plane's
/// normal before Q turns it.
std::array<double, 12> warped_quad(const std::array<double, 9>& Q, double h) {
  const double plane[4][3] = {{0.0, 0.0, h}, {2.0, 0.3, -h}, {1.7, 1.4, h}, {0.2, 1.1, -h}};
  std::array<double, 12> x{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] = Q[3 * i] * plane[a][0] + Q[3 * i + 1] * plane[a][1] +
                     Q[3 * i + 2] * plane[a][2] + 0.5 * (i + 1);
  return x;
}

/// The six rigid-body motions of the nodes x (translations, rotations about the axes through
/// the origin), 24 DOFs each.
std::array<std::array<double, 24>, 6> rigid_modes(const std::array<double, 12>& x) {
  std::array<std::array<double, 24>, 6> modes{};
  for (int mode = 0; mode < 6; ++mode) {
    auto& d = modes[mode];
    for (int a = 0; a < 4; ++a) {
      if (mode < 3) {
        d[3 * a + mode] = 1;
      } else {  // u = w x x, theta = w
        double w[3] = {0, 0, 0};
        w[mode - 3] = 1;
        const double* p = &x[3 * a];
        d[3 * a + 0] = w[1] * p[2] - w[2] * p[1];
        d[3 * a + 1] = w[2] * p[0] - w[0] * p[2];
        d[3 * a + 2] = w[0] * p[1] - w[1] * p[0];
        d[12 + 3 * a + mode - 3] = 1;
      }
    }
  }
  return modes;
}

/// The largest |K d| over the rigid modes, relative to max|K| max|d|.
double rigid_mode_force(const double K[576], const std::array<double, 12>& x) {
  double worst = 0;
  const double kmax = max_abs(K, 576);
  for (const auto& d : rigid_modes(x)) {
    double f[24] = {};
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) f[i] += K[24 * i + j] * d[j];
    worst = std::max(worst, max_abs(f, 24) / (kmax * max_abs(d.data(), 24)));
  }
  return worst;
}

TEST(Shell4, AWarpedElementKeepsExactlySixRigidBodyModes) {
  const auto Q = rotation({1, 2, 3}, 0.7);
  for (const double h : {0.02, 0.1, 0.3}) {  // warp 0.014, 0.07, 0.2 of the element's size
    const auto x = warped_quad(Q, h);
    const Shell4Frame f = inertia::fe::shell4_frame(x.data());
    EXPECT_NEAR(f.warp, h / std::sqrt(f.area), 1e-12) << h;
    double K[576];
    inertia::fe::shell4_stiffness(x.data(), steel(0.01), K);
    EXPECT_LT(rigid_mode_force(K, x), 1e-12) << h;
    const auto ev = inertia::testing::symmetric_eigenvalues(std::vector<double>(K, K + 576), 24);
    for (int i = 0; i < 6; ++i) EXPECT_LT(std::abs(ev[i]), 1e-10 * ev[23]) << h << " " << i;
    EXPECT_GT(ev[6], 1e-8 * ev[23]) << h;
    const double kmax = max_abs(K, 576);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < i; ++j) EXPECT_NEAR(K[24 * i + j], K[24 * j + i], 1e-12 * kmax);
    // Without the rigid links (the plain flat projection) the rigid rotations strain the
    // element: the check above can fail.
    Shell4Frame flat = f;
    std::fill(flat.z, flat.z + 4, 0.0);
    double Kl[576];
    inertia::fe::shell4_local_stiffness(flat, steel(0.01), Kl);
    std::array<double, 12> local{};  // the nodes in local axes, offsets included
    for (int a = 0; a < 4; ++a) {
      local[3 * a] = f.x[a];
      local[3 * a + 1] = f.y[a];
      local[3 * a + 2] = f.z[a];
    }
    EXPECT_GT(rigid_mode_force(Kl, local), 1e-4) << h;
    inertia::fe::shell4_local_stiffness(f, steel(0.01), Kl);
    EXPECT_LT(rigid_mode_force(Kl, local), 1e-12) << h;
  }
}

TEST(Shell4, AWarpedElementsRigidMotionGivesNoResultants) {
  const auto x = warped_quad(rotation({-2, 1, 0.5}, 0.9), 0.2);
  const ShellSection s = steel(0.02);
  for (const auto& d : rigid_modes(x)) {
    double out[8];
    inertia::fe::shell4_resultants(x.data(), s, d.data(), out);
    // Against the resultants of a unit membrane strain (E t) and curvature (E t^3 / 12).
    const double E = s.youngs_modulus, t = s.thickness;
    for (int k = 0; k < 3; ++k) EXPECT_LT(std::abs(out[k]), 1e-12 * E * t) << k;
    for (int k = 3; k < 6; ++k) EXPECT_LT(std::abs(out[k]), 1e-12 * E * t * t * t) << k;
    for (int k = 6; k < 8; ++k) EXPECT_LT(std::abs(out[k]), 1e-12 * E * t) << k;
  }
}

TEST(Shell4, AWarpedElementsStiffnessRotatesWithIt) {
  const auto Q = rotation({0.3, -1, 2}, 2.1);
  const auto base = warped_quad(rotation({0, 0, 1}, 0), 0.15);
  const auto turned = warped_quad(Q, 0.15);
  double K0[576], K1[576];
  inertia::fe::shell4_stiffness(base.data(), steel(0.02), K0);
  inertia::fe::shell4_stiffness(turned.data(), steel(0.02), K1);
  const double kmax = max_abs(K0, 576);
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) {
      double v = 0;
      const int bi = i / 3, ri = i % 3, bj = j / 3, rj = j % 3;
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l)
          v += Q[3 * ri + k] * K0[24 * (3 * bi + k) + 3 * bj + l] * Q[3 * rj + l];
      EXPECT_NEAR(K1[24 * i + j], v, 1e-11 * kmax) << i << " " << j;
    }
}

TEST(Shell4, GaussWeightsSumToTheAreaAndFollowTheJacobian) {
  // A trapezoid: det J = (x_xi y_eta - ...) varies along eta only; exact area 0.5 (1 + 2) * 1.
  const double x[12] = {0, 0, 0, 2, 0, 0, 1.5, 1, 0, 0.5, 1, 0};
  double w[4];
  inertia::fe::shell4_gauss_weights(x, w);
  EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.5, 1e-14);
  EXPECT_NEAR(w[0], w[2], 1e-15);  // q = 2 i + j: j is eta
  EXPECT_NEAR(w[1], w[3], 1e-15);
  EXPECT_GT(w[0], w[1]);                // the wide bottom (eta = -1/sqrt 3) weighs more
  const double g = 1 / std::sqrt(3.0);  // det J = x_xi y_eta = (3 - eta) / 4 * 1 / 2
  EXPECT_NEAR(w[0], (0.75 + 0.25 * g) / 2, 1e-14);
}

TEST(Shell4, StiffnessRotatesWithTheElement) {
  const auto Q = rotation({-1, 0.5, 2}, 1.1);
  const auto flat = skew_quad(rotation({0, 0, 1}, 0));
  const auto turned = skew_quad(Q);
  double K0[576], K1[576];
  inertia::fe::shell4_stiffness(flat.data(), steel(0.02), K0);
  inertia::fe::shell4_stiffness(turned.data(), steel(0.02), K1);
  // K1 = P K0 P^T with P = diag(Q, ..., Q).
  const double kmax = max_abs(K0, 576);
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) {
      double v = 0;
      const int bi = i / 3, ri = i % 3, bj = j / 3, rj = j % 3;
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l)
          v += Q[3 * ri + k] * K0[24 * (3 * bi + k) + 3 * bj + l] * Q[3 * rj + l];
      EXPECT_NEAR(K1[24 * i + j], v, 1e-11 * kmax) << i << " " << j;
    }
}

/// MacNeal and Harder's patch (Finite Elements in Analysis and Design 1, 1985, fig. 2): a
/// 0.24 x 0.12 rectangle in five distorted quads, E 1e6, nu 0.25, t 0.001.
struct Patch {
  std::vector<std::array<double, 2>> nodes{{0, 0},       {0.24, 0},    {0.24, 0.12}, {0, 0.12},
                                           {0.04, 0.02}, {0.18, 0.03}, {0.16, 0.08}, {0.08, 0.08}};
  std::vector<std::array<int, 4>> quads{
      {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};
  ShellSection section() const {
    ShellSection s;
    s.thickness = 0.001;
    s.youngs_modulus = 1.0e6;
    s.poissons_ratio = 0.25;
    s.density = 1;
    return s;
  }
  std::array<double, 12> coords(int e) const {
    std::array<double, 12> x{};
    for (int a = 0; a < 4; ++a) {
      x[3 * a] = nodes[quads[e][a]][0];
      x[3 * a + 1] = nodes[quads[e][a]][1];
    }
    return x;
  }
  /// The global DOF of an element DOF (6 per node: u v w, th x y z).
  static int dof(const std::array<int, 4>& q, int k) {
    return k < 12 ? 6 * q[k / 3] + k % 3 : 6 * q[(k - 12) / 3] + 3 + k % 3;
  }
  /// Prescribes the exact field on the boundary nodes 0..3, solves for the interior nodes 4..7,
  /// returns all 48 DOFs.
  std::vector<double> solve_interior(const std::vector<double>& exact) const {
    const int n = 48;
    std::vector<double> K(n * n, 0.0);
    for (int e = 0; e < 5; ++e) {
      double Ke[576];
      const auto x = coords(e);
      inertia::fe::shell4_stiffness(x.data(), section(), Ke);
      for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j) K[dof(quads[e], i) * n + dof(quads[e], j)] += Ke[24 * i + j];
    }
    const int m = 24;  // interior DOFs: 24..47
    std::vector<double> A(m * m), b(m);
    for (int i = 0; i < m; ++i) {
      b[i] = 0;
      for (int j = 0; j < 24; ++j) b[i] -= K[(24 + i) * n + j] * exact[j];
      for (int j = 0; j < m; ++j) A[i * m + j] = K[(24 + i) * n + 24 + j];
    }
    solve(A, b, m);
    std::vector<double> d(exact.begin(), exact.begin() + 24);
    d.insert(d.end(), b.begin(), b.end());
    return d;
  }
};

TEST(Shell4, MembranePatchTestOnTheDistortedPatch) {
  const Patch p;
  std::vector<double> exact(48, 0.0);
  for (int a = 0; a < 8; ++a) {
    const double x = p.nodes[a][0], y = p.nodes[a][1];
    exact[6 * a] = 1e-3 * (x + y / 2);
    exact[6 * a + 1] = 1e-3 * (y + x / 2);
  }
  const auto d = p.solve_interior(exact);
  for (int k = 24; k < 48; ++k) EXPECT_NEAR(d[k], exact[k], 1e-15) << k;
  // Stresses sigma_x = sigma_y = 1333.3, tau_xy = 400 (N / t) in every element.
  for (int e = 0; e < 5; ++e) {
    double de[24], out[8];
    for (int k = 0; k < 24; ++k) de[k] = d[Patch::dof(p.quads[e], k)];
    const auto x = p.coords(e);
    inertia::fe::shell4_resultants(x.data(), p.section(), de, out);
    const double t = p.section().thickness;
    EXPECT_NEAR(out[0] / t, 4000.0 / 3, 1e-9);
    EXPECT_NEAR(out[1] / t, 4000.0 / 3, 1e-9);
    EXPECT_NEAR(out[2] / t, 400.0, 1e-9);
    for (int k = 3; k < 8; ++k) EXPECT_NEAR(out[k], 0.0, 1e-15) << e << " " << k;
  }
}

TEST(Shell4, BendingPatchTestOnTheDistortedPatch) {
  // w = 1e-3 (1 + x + 2y + x^2 + xy + y^2) / 2, th_x = w,y, th_y = -w,x (Kirchhoff: no shear).
  const Patch p;
  std::vector<double> exact(48, 0.0);
  for (int a = 0; a < 8; ++a) {
    const double x = p.nodes[a][0], y = p.nodes[a][1];
    exact[6 * a + 2] = 1e-3 * (1 + x + 2 * y + x * x + x * y + y * y) / 2;
    exact[6 * a + 3] = 1e-3 * (2 + x + 2 * y) / 2;
    exact[6 * a + 4] = -1e-3 * (1 + 2 * x + y) / 2;
  }
  const auto d = p.solve_interior(exact);
  for (int k = 24; k < 48; ++k)
    EXPECT_NEAR(d[k], exact[k], 1e-9 * std::abs(exact[k]))
        << k;  // round-off: bending is 1e-7 of the membrane stiffness here
  // Moments: Mxx = Myy = -1.1111e-7, Mxy = -3.3333e-8 per length; no shear, no membrane force.
  const ShellSection s = p.section();
  const double D = s.youngs_modulus * std::pow(s.thickness, 3) / (12 * (1 - 0.25 * 0.25));
  for (int e = 0; e < 5; ++e) {
    double de[24], out[8];
    for (int k = 0; k < 24; ++k) de[k] = d[Patch::dof(p.quads[e], k)];
    const auto x = p.coords(e);
    inertia::fe::shell4_resultants(x.data(), s, de, out);
    // To round-off (the bending stiffness is 1e-7 of the membrane's: relative 1e-9 here).
    const double M = D * 1.25e-3, size = 0.01;
    EXPECT_NEAR(out[3], -M, 1e-8 * M);
    EXPECT_NEAR(out[4], -M, 1e-8 * M);
    EXPECT_NEAR(out[5], -D * 0.375e-3, 1e-8 * M);
    EXPECT_NEAR(out[6], 0.0, 1e-8 * M / size);  // Q ~ M / size: zero to round-off
    EXPECT_NEAR(out[7], 0.0, 1e-8 * M / size);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(out[k], 0.0, 1e-8 * M / size);
  }
}

/// A cantilever strip L x b x t (nu = 0) clamped at x = 0, n elements along it, a tip force P
/// across the thickness: the tip deflection.
double strip_tip(int n, double L, double b, double t, double P) {
  ShellSection s;
  s.thickness = t;
  s.youngs_modulus = 1.0e7;
  s.poissons_ratio = 0;
  s.density = 1;
  const int nodes = 2 * (n + 1), N = 6 * nodes;
  std::vector<double> K(static_cast<std::size_t>(N) * N, 0.0);
  const auto id = [](int i, int j) { return 2 * i + j; };  // station i, side j
  for (int e = 0; e < n; ++e) {
    const std::array<int, 4> q{id(e, 0), id(e + 1, 0), id(e + 1, 1), id(e, 1)};
    std::array<double, 12> x{};
    for (int a = 0; a < 4; ++a) {
      x[3 * a] = L * (q[a] / 2) / n;
      x[3 * a + 1] = b * (q[a] % 2);
    }
    double Ke[576];
    inertia::fe::shell4_stiffness(x.data(), s, Ke);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j)
        K[static_cast<std::size_t>(Patch::dof(q, i)) * N + Patch::dof(q, j)] += Ke[24 * i + j];
  }
  const int m = N - 12;  // the root's two nodes clamped
  std::vector<double> A(static_cast<std::size_t>(m) * m), f(m, 0.0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) A[static_cast<std::size_t>(i) * m + j] = K[(12 + i) * N + 12 + j];
  f[6 * id(n, 0) + 2 - 12] = P / 2;
  f[6 * id(n, 1) + 2 - 12] = P / 2;
  solve(A, f, m);
  return 0.5 * (f[6 * id(n, 0) + 2 - 12] + f[6 * id(n, 1) + 2 - 12]);
}

class CantileverStrip : public ::testing::TestWithParam<double> {};

// Thin (L / t = 100) and very thin (L / t = 10000): no shear locking, the same convergence.
TEST_P(CantileverStrip, ConvergesToTimoshenkoAtSecondOrder) {
  const double L = 1, b = 0.1, t = GetParam(), P = 1e-3 * t * t * t / 1e-6, E = 1.0e7, G = E / 2;
  const double I = b * t * t * t / 12;
  const double exact = P * L * L * L / (3 * E * I) + P * L / (5.0 / 6 * G * b * t);
  double previous = 0;
  for (const int n : {4, 8, 16, 32}) {
    const double err = std::abs(strip_tip(n, L, b, t, P) - exact) / exact;
    if (previous > 0) {
      EXPECT_GT(previous / err, 3.8) << n;  // second order: 4
      EXPECT_LT(previous / err, 4.2) << n;
    }
    previous = err;
    RecordProperty("error_n" + std::to_string(n), std::to_string(err));
    if (n == 32) {
      EXPECT_LT(err, 1e-3);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shell4, CantileverStrip, ::testing::Values(0.01, 1e-4));

TEST(Shell4, LumpedMassKeepsTheMassAndTheRotaryInertia) {
  const auto x = skew_quad(rotation({1, 1, 0}, 0.4));
  const ShellSection s = steel(0.01);
  double m[24];
  inertia::fe::shell4_lumped_mass(x.data(), s, m);
  const double area = 0.5 * std::abs(2.0 * 1.4 - 0.3 * 1.7 + 1.7 * 1.1 - 1.4 * 0.2);  // shoelace
  double sum = 0;
  for (int a = 0; a < 4; ++a) sum += m[3 * a];
  EXPECT_NEAR(sum, s.density * s.thickness * area, 1e-12 * sum);
  for (int k = 12; k < 24; ++k)
    EXPECT_NEAR(m[k], s.density * std::pow(s.thickness, 3) / 12 * area / 4, 1e-12 * m[12]);
  // Nodes on the top surface (offset t / 2): the rotary inertia about them, rho (t^3 / 12 + t
  // o^2) = rho t^3 / 3 per area; the translations' mass unchanged.
  ShellSection top = s;
  top.offset = 0.5 * s.thickness;
  double mo[24];
  inertia::fe::shell4_lumped_mass(x.data(), top, mo);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(mo[k], m[k]);
  for (int k = 12; k < 24; ++k)
    EXPECT_NEAR(mo[k], s.density * std::pow(s.thickness, 3) / 3 * area / 4, 1e-12 * mo[12]);
  const Shell4Frame f = inertia::fe::shell4_frame(x.data());
  EXPECT_NEAR(f.area, area, 1e-12);
  EXPECT_LT(f.warp, 1e-14);
}

TEST(Shell4, DegenerateQuadsAreRefused) {
  const double line[12] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
  EXPECT_THROW(inertia::fe::shell4_frame(line), std::invalid_argument);
  const double bowtie[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  EXPECT_THROW(inertia::fe::shell4_frame(bowtie), std::invalid_argument);
}

}  // namespace
