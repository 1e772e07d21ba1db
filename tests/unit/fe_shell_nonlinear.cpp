// The corotational MITC4 shell (fe/shell_nonlinear.hpp) with the elastic section: the linear
// element at d = 0 and for small d, its drilling penalty and a warped element's six rigid modes,
// rigid motions, the force and tangent against central differences of the energy and the force,
// resultants, strips rolled by an end moment by a Newton solve here (plane: into a full circle;
// all DOFs free: three quarters of a circle), a strip bent by an end force against the elastica
// (P L^2 / EI = 4), a free element spinning two turns under central differences (energy and
// angular momentum), the cost per element. With a plastic section (once
// shell_section.cpp has it; skipped before): the state per point under a rigid motion and the
// tangent from a plastic committed state.
//
// Tolerances: 1e-11 relative for the tangent at d = 0 (rounding of the 24 x 24 products); the
// linear limit for |d| = 1e-8 .. 1e-4: 3 |d| (the nonlinear terms' relative size; the central
// combination (f(d) - f(-d)) / 2 removes the second-order terms: 3 |d|^2), plus the rounding of
// the frame relative to the deformation, 1e-15 / |d|; 1e-10 for rigid motions (rounding of the
// frame); 2e-6 for the finite differences (central, h = 1e-6; measured ~3e-10); the rolled strips
// against the regular polygon of N chords that is this element's exact solution (1e-9 L, Newton
// converged to an energy norm of 1e-20); the elastica's tip within 5e-4 L at 16 elements
// (measured 3.5e-4), the error falling by more than 3.5 per halving (measured 4.2, 4.7).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <utility>
#include <vector>

#include "../support/fixtures.hpp"
#include "../support/symmetric_eigenvalues.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/fe/shell_nonlinear.hpp"

namespace inertia::fe {
namespace {

using V24 = std::array<double, 24>;
using M24 = std::array<double, 576>;
constexpr double pi = std::numbers::pi;

ShellLayers section(double t, double E, double nu) {
  ShellLayers s;
  s.elastic.thickness = t;
  s.elastic.youngs_modulus = E;
  s.elastic.poissons_ratio = nu;
  s.elastic.density = 1;
  return s;
}
const ShellLayers plate = section(0.1, 1e6, 0.3);

using inertia::testing::max_abs;
using inertia::testing::max_diff;
using inertia::testing::pattern;
using inertia::testing::rotation;

/// An irregular convex quad (size ~2) in the plane z = warp (+-), rotated by Q and moved.
std::array<double, 12> skew_quad(const std::array<double, 9>& Q, double warp = 0) {
  const double plane[4][3] = {
      {0.0, 0.0, warp}, {2.0, 0.3, -warp}, {1.7, 1.4, warp}, {0.2, 1.1, -warp}};
  std::array<double, 12> x{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] = Q[3 * i] * plane[a][0] + Q[3 * i + 1] * plane[a][1] +
                     Q[3 * i + 2] * plane[a][2] + 0.5 * (i + 1);
  return x;
}
const std::array<double, 12> X = skew_quad(rotation({0.3, -0.5, 0.8}, 0.7));

struct Response {
  V24 f{};
  M24 K{};
  double energy = 0;
};
Response response(const std::array<double, 12>& x, const ShellLayers& s, const V24& d,
                  bool tangent = true) {
  Response r;
  r.energy = shell4_nonlinear(x.data(), s, d.data(), {}, {}, r.f.data(),
                              tangent ? r.K.data() : nullptr, nullptr)
                 .stored;
  return r;
}

/// The rigid motion x -> Q (x - p) + p + t of the nodes x, with the rotation vector psi (exp(psi)
/// = Q) on every rotation DOF.
V24 rigid_motion(const std::array<double, 12>& x, const double psi[3], const double t[3]) {
  double Q[9];
  rotation_from_vector(psi, Q);
  const double* p = x.data();
  V24 d{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) {
      double v = p[i] + t[i] - x[3 * a + i];
      for (int k = 0; k < 3; ++k) v += Q[3 * i + k] * (x[3 * a + k] - p[k]);
      d[3 * a + i] = v;
      d[12 + 3 * a + i] = psi[i];
    }
  return d;
}

TEST(ShellNonlinear, TangentAtRestIsTheLinearStiffness) {
  // Also with the nodes off the mid-surface (an offset couples membrane and bending: the
  // section's B = -A o here, the membrane rows' B_m - o B_b in shell4_stiffness).
  for (const double offset : {0.0, 0.4 * plate.elastic.thickness, -0.5 * plate.elastic.thickness}) {
    ShellLayers s = plate;
    s.elastic.offset = offset;
    M24 Klin{};
    shell4_stiffness(X.data(), s.elastic, Klin.data());
    const Response r = response(X, s, V24{});
    const double rel = max_diff(r.K.data(), Klin.data(), 576) / max_abs(Klin.data(), 576);
    std::printf("K(0) against shell4_stiffness, offset %g: %.3e relative\n", offset, rel);
    EXPECT_LT(rel, 1e-11);
    EXPECT_LT(max_abs(r.f.data(), 24), 1e-12 * max_abs(Klin.data(), 576));
    EXPECT_LT(std::abs(r.energy), 1e-20);
  }
}

TEST(ShellNonlinear, DrillingPenaltyAtRest) {
  // Rotations about the normal only (p_a e3): the energy 1/2 d . K(0) d is the drilling
  // penalty's, 1/2 alpha (0.99 A th(0, 0)^2 + 0.01 sum_q det_q th(q)^2), th = sum N_a p_a,
  // alpha = drilling G t; the quad's plane coordinates are skew_quad's.
  const Response r = response(X, plate, V24{});
  const double plane[4][2] = {{0.0, 0.0}, {2.0, 0.3}, {1.7, 1.4}, {0.2, 1.1}};
  const double xn[4] = {-1, 1, 1, -1}, yn[4] = {-1, -1, 1, 1};
  const std::array<double, 9> Q = rotation({0.3, -0.5, 0.8}, 0.7);
  const double p[4] = {0.3, -1.1, 0.7, 0.4};
  V24 d{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) d[12 + 3 * a + i] = p[a] * Q[3 * i + 2];
  double Kd_d = 0;
  for (int i = 0; i < 24; ++i)
    for (int j = 0; j < 24; ++j) Kd_d += d[i] * r.K[24 * i + j] * d[j];
  auto point = [&](double xi, double eta, double& det) {
    double J[2][2] = {}, th = 0;
    for (int a = 0; a < 4; ++a) {
      const double dxi = 0.25 * xn[a] * (1 + eta * yn[a]), deta = 0.25 * yn[a] * (1 + xi * xn[a]);
      for (int c = 0; c < 2; ++c) {
        J[0][c] += dxi * plane[a][c];
        J[1][c] += deta * plane[a][c];
      }
      th += 0.25 * (1 + xi * xn[a]) * (1 + eta * yn[a]) * p[a];
    }
    det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    return th;
  };
  const double g = 1 / std::sqrt(3.0);
  double det0 = 0;
  const double th0 = point(0, 0, det0);
  double two_by_two = 0;
  for (const double xi : {-g, g})
    for (const double eta : {-g, g}) {
      double det = 0;
      const double th = point(xi, eta, det);
      two_by_two += det * th * th;
    }
  const ShellSection& e = plate.elastic;
  const double alpha = e.drilling * e.thickness * e.youngs_modulus / (2 * (1 + e.poissons_ratio));
  const double exact = 0.5 * alpha * (0.99 * 4 * det0 * th0 * th0 + 0.01 * two_by_two);
  std::printf("drilling energy %.10e, formula %.10e\n", 0.5 * Kd_d, exact);
  EXPECT_NEAR(0.5 * Kd_d, exact, 1e-12 * exact);
}

TEST(ShellNonlinear, WarpedElementAtRestHasSixRigidModes) {
  // The warping correction (rigid links to the projection): K(0) of a warped element has
  // exactly the six zero eigenvalues of the rigid motions.
  for (const double warp : {0.02, 0.1}) {
    const std::array<double, 12> x = skew_quad(rotation({0.3, -0.5, 0.8}, 0.7), warp);
    const Response r = response(x, plate, V24{});
    const std::vector<double> ev =
        testing::symmetric_eigenvalues(std::vector<double>(r.K.begin(), r.K.end()), 24);
    const double top = ev.back();
    std::printf("warp %.2f: |eigenvalues 1..6| <= %.2e, the seventh %.2e (of the largest)\n", warp,
                std::max(std::abs(ev[0]), std::abs(ev[5])) / top, ev[6] / top);
    EXPECT_LT(std::max(std::abs(ev[0]), std::abs(ev[5])), 1e-12 * top);
    EXPECT_GT(ev[6], 1e-8 * top);
  }
}

TEST(ShellNonlinear, SmallDisplacementsGiveTheLinearElement) {
  M24 Klin{};
  shell4_stiffness(X.data(), plate.elastic, Klin.data());
  for (const double scale : {1e-8, 1e-6, 1e-4}) {
    const V24 p = pattern(1);
    V24 d{}, m{};
    for (int k = 0; k < 24; ++k) {
      d[k] = scale * p[k];
      m[k] = -d[k];
    }
    V24 Kd{};
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) Kd[i] += Klin[24 * i + j] * d[j];
    const Response plus = response(X, plate, d, false), minus = response(X, plate, m, false);
    V24 central{};
    for (int k = 0; k < 24; ++k) central[k] = 0.5 * (plus.f[k] - minus.f[k]);
    const double ref = max_abs(Kd.data(), 24);
    const double one = max_diff(plus.f.data(), Kd.data(), 24) / ref;
    const double two = max_diff(central.data(), Kd.data(), 24) / ref;
    std::printf("d ~ %.0e: f against K d %.3e, (f(d) - f(-d)) / 2 against K d %.3e\n", scale, one,
                two);
    // Second-order terms of relative size ~ |d|, third-order ~ |d|^2, plus the rounding of the
    // frame relative to the deformation, ~1e-16 / |d|.
    EXPECT_LT(one, 3 * scale + 1e-15 / scale);
    EXPECT_LT(two, 3 * scale * scale + 1e-15 / scale);
  }
}

TEST(ShellNonlinear, RigidMotionsGiveNoForce) {
  const double t[3] = {0.7, -1.3, 2.2};
  for (const double warp : {0.0, 0.05}) {
    const std::array<double, 12> x = skew_quad(rotation({0.3, -0.5, 0.8}, 0.7), warp);
    M24 Klin{};
    shell4_stiffness(x.data(), plate.elastic, Klin.data());
    const double kscale = max_abs(Klin.data(), 576) * 2;  // |K| x element size
    for (const double angle : {0.3, 2.9, 5.5}) {          // the last beyond pi
      const double axis[3] = {0.9, -1.7, 2.1};
      const double n = std::hypot(axis[0], axis[1], axis[2]);
      const double psi[3] = {axis[0] / n * angle, axis[1] / n * angle, axis[2] / n * angle};
      const V24 d = rigid_motion(x, psi, t);
      const Response r = response(x, plate, d);
      double dl[24], Rr[9];
      shell4_corotated_state(x.data(), d.data(), dl, Rr);
      std::printf("warp %.2f, rigid rotation %.1f rad: |f| / (|K| L) %.2e, E %.2e, |dl| %.2e\n",
                  warp, angle, max_abs(r.f.data(), 24) / kscale, r.energy, max_abs(dl, 24));
      EXPECT_LT(max_abs(r.f.data(), 24), 1e-10 * kscale);
      EXPECT_LT(max_abs(dl, 24), 1e-12);
      EXPECT_LT(r.energy, 1e-20 * kscale);
    }
  }
}

TEST(ShellNonlinear, RigidMotionOfADeformedElementKeepsItsEnergyAndRotatesItsForces) {
  V24 d = pattern(2);
  for (int k = 0; k < 24; ++k) d[k] *= k < 12 ? 0.02 : 0.05;
  const Response a = response(X, plate, d, false);
  // Superpose Q: x -> Q x + t on the deformed element, psi -> log(Q exp(psi)).
  const double omega[3] = {1.1, -0.4, 0.8}, t[3] = {0.3, 0.2, -0.1};
  double Q[9];
  rotation_from_vector(omega, Q);
  V24 e{};
  for (int n = 0; n < 4; ++n) {
    for (int i = 0; i < 3; ++i) {
      double v = t[i] - X[3 * n + i];
      for (int k = 0; k < 3; ++k) v += Q[3 * i + k] * (X[3 * n + k] + d[3 * n + k]);
      e[3 * n + i] = v;
    }
    double R[9], QR[9] = {};
    rotation_from_vector(d.data() + 12 + 3 * n, R);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) QR[3 * i + j] += Q[3 * i + k] * R[3 * k + j];
    rotation_to_vector(QR, e.data() + 12 + 3 * n);
  }
  const Response b = response(X, plate, e, false);
  double worst = 0;
  for (int n = 0; n < 4; ++n)
    for (int i = 0; i < 3; ++i) {
      double v = 0;
      for (int k = 0; k < 3; ++k) v += Q[3 * i + k] * a.f[3 * n + k];
      worst = std::max(worst, std::abs(v - b.f[3 * n + i]));
    }
  const double erel = std::abs(a.energy - b.energy) / a.energy;
  const double frel = worst / max_abs(a.f.data(), 12);
  std::printf("energy %.6e, after a rigid motion %.3e relative; forces rotated %.3e\n", a.energy,
              erel, frel);
  EXPECT_GT(a.energy, 0);
  EXPECT_LT(erel, 1e-11);
  EXPECT_LT(frel, 1e-10);
}

/// A state with large rotations and translations and small strains: a rigid motion of 1.2 rad
/// plus a deformation.
V24 large_rotation_state() {
  const double psi[3] = {0.5, -0.8, 0.7}, t[3] = {0.4, -0.2, 0.9};
  V24 d = rigid_motion(X, psi, t);
  const V24 p = pattern(3);
  for (int k = 0; k < 24; ++k) d[k] += (k < 12 ? 0.01 : 0.05) * p[k];
  return d;
}

TEST(ShellNonlinear, ForceAndTangentAreTheDerivativesOfTheEnergy) {
  // Large rotations (1.2 rad) with strains ~1e-2 (flat, and warped by 0.05), and a small state
  // (psi and theta ~1e-3: the series of exp and log).
  V24 small = pattern(4);
  for (double& v : small) v *= 1e-3;
  const std::array<double, 12> warped = skew_quad(rotation({0.3, -0.5, 0.8}, 0.7), 0.05);
  const std::pair<std::array<double, 12>, V24> cases[] = {
      {X, large_rotation_state()}, {warped, large_rotation_state()}, {X, small}};
  for (const auto& [x, d] : cases) {
    const Response r = response(x, plate, d);
    V24 fd{};
    M24 Kfd{};
    const double h = 1e-6;
    for (int j = 0; j < 24; ++j) {
      V24 p = d, m = d;
      p[j] += h;
      m[j] -= h;
      const Response rp = response(x, plate, p, false), rm = response(x, plate, m, false);
      fd[j] = (rp.energy - rm.energy) / (2 * h);
      for (int i = 0; i < 24; ++i) Kfd[24 * i + j] = (rp.f[i] - rm.f[i]) / (2 * h);
    }
    double asym = 0;
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j)
        asym = std::max(asym, std::abs(r.K[24 * i + j] - r.K[24 * j + i]));
    const double kscale = max_abs(r.K.data(), 576);
    const double frel = max_diff(fd.data(), r.f.data(), 24) / max_abs(r.f.data(), 24);
    const double krel = max_diff(Kfd.data(), r.K.data(), 576) / kscale;
    std::printf("|d| %.1e: f against dE/dd %.3e, K against df/dd %.3e, K - K^T %.3e (relative)\n",
                max_abs(d.data(), 24), frel, krel, asym / kscale);
    EXPECT_LT(frel, 2e-6);
    EXPECT_LT(krel, 2e-6);
    EXPECT_LT(asym, 1e-11 * kscale);
  }
}

TEST(ShellNonlinear, ResultantsOfAStretchedElement) {
  // A unit square in the x-y plane stretched along x by e, then turned rigidly about z by 90
  // degrees: the stretch is along global Y, N22 in the output axes (a1 = X), E t e exactly.
  const std::array<double, 12> sq = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  const ShellLayers s = section(0.1, 1e6, 0.0);
  const double e = 1e-3, angle = pi / 2;
  const double psi[3] = {0, 0, angle}, t[3] = {0, 0, 0};
  std::array<double, 12> stretched = sq;
  for (int a = 0; a < 4; ++a) stretched[3 * a] *= 1 + e;
  V24 d = rigid_motion(stretched, psi, t);
  for (int k = 0; k < 12; ++k) d[k] += stretched[k] - sq[k];
  V24 f{};
  double res[32];
  shell4_nonlinear(sq.data(), s, d.data(), {}, {}, f.data(), nullptr, res);
  const double N = s.elastic.youngs_modulus * s.elastic.thickness * e;
  for (int q = 0; q < 4; ++q) {
    EXPECT_NEAR(res[8 * q + 1], N, 1e-9 * N) << q;
    EXPECT_NEAR(res[8 * q], 0, 1e-9 * N) << q;
    EXPECT_NEAR(res[8 * q + 2], 0, 1e-9 * N) << q;
    for (int k = 3; k < 8; ++k) EXPECT_NEAR(res[8 * q + k], 0, 1e-9 * N) << q << " " << k;
  }
}

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

/// A cantilever strip along x (length L, width b, n elements along, one across) in the x-y
/// plane, clamped at x = 0, an end moment M about +y shared by the tip's two nodes. Node (k, j)
/// = 2 k + j at (k L / n, j b, 0); 6 DOFs per node (u, psi).
struct Strip {
  int n = 16;
  double L = 10, b = 1, t = 0.1, E = 1.2e6;
  ShellLayers s = section(t, E, 0.0);
  int load_dof = 4;  ///< the tip's load: 4 a moment about y, 2 a force along z
  double EI() const { return E * b * t * t * t / 12; }
  std::array<double, 12> element(int k) const {
    const double x0 = k * L / n, x1 = (k + 1) * L / n;
    return {x0, 0, 0, x1, 0, 0, x1, b, 0, x0, b, 0};
  }
  int node(int k, int corner) const {  // corners 0..3: (k, 0), (k + 1, 0), (k + 1, 1), (k, 1)
    constexpr int dk[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
    return 2 * (k + dk[corner]) + dj[corner];
  }
};

/// The largest distance of the strip's nodes from the polygon of N chords (element length le)
/// turned by alpha = M le / EI each: node (k, j) at (rho sin(k alpha), j b, -rho (1 - cos(k
/// alpha))), rho = le / (2 sin(alpha / 2)), its rotation k alpha about y; the worst position
/// (over L) and rotation errors.
std::array<double, 2> polygon_error(const Strip& st, double M, const std::vector<double>& D) {
  const double le = st.L / st.n, alpha = M * le / st.EI();
  const double rho = le / (2 * std::sin(alpha / 2));
  double pos = 0, rot = 0;
  for (int k = 0; k <= st.n; ++k)
    for (int j = 0; j < 2; ++j) {
      const int a = 2 * k + j;
      const double exact[3] = {rho * std::sin(k * alpha), j * st.b,
                               -rho * (1 - std::cos(k * alpha))};
      const double X0[3] = {k * le, j * st.b, 0};
      for (int i = 0; i < 3; ++i) pos = std::max(pos, std::abs(X0[i] + D[6 * a + i] - exact[i]));
      const double psi[3] = {0, k * alpha, 0};
      for (int i = 0; i < 3; ++i) rot = std::max(rot, std::abs(D[6 * a + 3 + i] - psi[i]));
    }
  return {pos / st.L, rot};
}

/// Newton's iterations per increment: the residual's norm over the load's, and the energy norm
/// of the correction |du . r| over M^2 L / EI (a moment M) or P^2 L^3 / EI (a force P).
struct NewtonLog {
  std::vector<std::vector<double>> residual, energy;
};

/// The strip's DOFs under M in `steps` equal increments; `plane` holds u_y, psi_x and psi_z.
/// energy: the stored energy at the end.
std::vector<double> roll(const Strip& st, double M, int steps, bool plane, NewtonLog& log,
                         double& energy) {
  const int nodes = 2 * (st.n + 1), ndof = 6 * nodes;
  std::vector<int> free;
  for (int a = 2; a < nodes; ++a)
    for (int i = 0; i < 6; ++i)
      if (!plane || i == 0 || i == 2 || i == 4) free.push_back(6 * a + i);
  const int nf = static_cast<int>(free.size());
  std::vector<double> D(ndof, 0.0);
  for (int step = 1; step <= steps; ++step) {
    std::vector<double> F(ndof, 0.0);
    const int tip0 = 6 * (2 * st.n) + st.load_dof, tip1 = 6 * (2 * st.n + 1) + st.load_dof;
    F[tip0] = F[tip1] = 0.5 * M * step / steps;
    const double load = std::hypot(F[tip0], F[tip1]);
    log.residual.emplace_back();
    log.energy.emplace_back();
    bool done = false;
    for (int iter = 0;; ++iter) {
      std::vector<double> f(ndof, 0.0), K(static_cast<size_t>(ndof) * ndof, 0.0);
      energy = 0;
      for (int k = 0; k < st.n; ++k) {
        const std::array<double, 12> x = st.element(k);
        int map[24];
        for (int a = 0; a < 4; ++a)
          for (int i = 0; i < 3; ++i) {
            map[3 * a + i] = 6 * st.node(k, a) + i;
            map[12 + 3 * a + i] = 6 * st.node(k, a) + 3 + i;
          }
        V24 d{}, fe{};
        M24 Ke{};
        for (int p = 0; p < 24; ++p) d[p] = D[map[p]];
        energy += shell4_nonlinear(x.data(), st.s, d.data(), {}, {}, fe.data(), Ke.data(), nullptr)
                      .stored;
        for (int p = 0; p < 24; ++p) {
          f[map[p]] += fe[p];
          for (int q = 0; q < 24; ++q)
            K[static_cast<size_t>(map[p]) * ndof + map[q]] += Ke[24 * p + q];
        }
      }
      std::vector<double> r(nf), A(static_cast<size_t>(nf) * nf);
      double norm = 0;
      for (int p = 0; p < nf; ++p) {
        r[p] = F[free[p]] - f[free[p]];
        norm += r[p] * r[p];
        for (int q = 0; q < nf; ++q)
          A[static_cast<size_t>(p) * nf + q] = K[static_cast<size_t>(free[p]) * ndof + free[q]];
      }
      log.residual.back().push_back(std::sqrt(norm) / load);
      if (done || iter == 20) break;
      const std::vector<double> r0 = r;
      solve(A, r, nf);
      double work = 0;
      for (int p = 0; p < nf; ++p) {
        work += r0[p] * r[p];
        D[free[p]] += r[p];
      }
      const double work_scale = M * M * st.L / st.EI() * (st.load_dof == 4 ? 1 : st.L * st.L);
      log.energy.back().push_back(std::abs(work) / work_scale);
      // Converged: the energy norm at 1e-20 (its rounding floor is ~1e-28); the residual at the
      // state so found is the last one recorded.
      done = log.energy.back().back() < 1e-20;
    }
  }
  return D;
}

void print_newton(const NewtonLog& log) {
  for (const size_t s : {size_t{0}, log.residual.size() - 1}) {
    std::printf("  increment %zu: residual", s + 1);
    for (const double r : log.residual[s]) std::printf(" %.1e", r);
    std::printf("; energy norm");
    for (const double r : log.energy[s]) std::printf(" %.1e", r);
    std::printf("\n");
  }
}

/// Newton converged in every increment within `most` iterations (energy norm below 1e-20,
/// residual below 1e-9 of the load: its rounding floor is ~1e-10, the membrane forces at single
/// nodes being ~1e3 times the load), quadratically at the end: the last two energy norms w1 < 1e-6,
/// w2 above the rounding floor (1e-26) have w2 = C w1^2 with C <= 1e6 (measured <= 1e5; a linear
/// rate r would need C = r / w1, i.e. r <= 1e-7 at the typical w1 ~ 1e-13).
void expect_quadratic(const NewtonLog& log, size_t most) {
  double worst = 0;
  for (size_t s = 0; s < log.residual.size(); ++s) {
    const std::vector<double>& r = log.residual[s];
    const std::vector<double>& w = log.energy[s];
    ASSERT_LT(r.back(), 1e-9) << "increment " << s + 1;
    ASSERT_LT(w.back(), 1e-20) << "increment " << s + 1;
    EXPECT_LE(w.size(), most) << "increment " << s + 1;
    size_t k = w.size() - 1;
    while (k > 0 && w[k] < 1e-26) --k;
    ASSERT_GT(k, 0u) << "increment " << s + 1;
    EXPECT_LT(w[k - 1], 1e-6) << "increment " << s + 1;
    worst = std::max(worst, w[k] / (w[k - 1] * w[k - 1]));
  }
  std::printf("  the last w_k+1 / w_k^2 of the increments: <= %.1e\n", worst);
  EXPECT_LE(worst, 1e6);
}

TEST(ShellNonlinear, EndMomentRollsAPlaneStripIntoACircle) {
  const Strip st;
  const double M = 2 * pi * st.EI() / st.L;
  NewtonLog log;
  double energy = 0;
  const std::vector<double> D = roll(st, M, 20, true, log, energy);
  print_newton(log);
  const int tip = 2 * st.n;
  const double tip_to_root = std::hypot(st.L + D[6 * tip], D[6 * tip + 1], D[6 * tip + 2]) / st.L;
  const auto err = polygon_error(st, M, D);
  const double exact_energy = 0.5 * M * M * st.L / st.EI();
  // The nodes lie on a circle of radius le / (2 sin(pi / N)), not L / (2 pi): relative difference
  // (pi / N)^2 / 6 at the nodes.
  const double le = st.L / st.n;
  const double rho_n = le / (2 * std::sin(pi / st.n)), rho = st.L / (2 * pi);
  std::printf(
      "full circle, %d elements: tip to root %.2e L, tip rotation %.12f (2 pi %.12f), nodes "
      "against the polygon %.2e L, rotations %.2e, energy %.3e relative; polygon radius / L / (2 "
      "pi) - 1 = %.2e\n",
      st.n, tip_to_root, D[6 * tip + 4], 2 * pi, err[0], err[1],
      std::abs(energy - exact_energy) / exact_energy, rho_n / rho - 1);
  EXPECT_LT(tip_to_root, 1e-9);
  EXPECT_NEAR(D[6 * tip + 4], 2 * pi, 1e-9);
  EXPECT_LT(err[0], 1e-9);
  EXPECT_LT(err[1], 1e-9);
  EXPECT_NEAR(energy, exact_energy, 1e-9 * exact_energy);
  expect_quadratic(log, 8);
  // The resultants at every point of every element: M11 = M / b (the output axis a1 lies along
  // the strip in its current plane), the rest zero.
  double worst_m = 0, worst_rest = 0;
  for (int k = 0; k < st.n; ++k) {
    const std::array<double, 12> x = st.element(k);
    V24 d{}, f{};
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) {
        d[3 * a + i] = D[6 * st.node(k, a) + i];
        d[12 + 3 * a + i] = D[6 * st.node(k, a) + 3 + i];
      }
    double res[32];
    shell4_nonlinear(x.data(), st.s, d.data(), {}, {}, f.data(), nullptr, res);
    for (int q = 0; q < 4; ++q) {
      worst_m = std::max(worst_m, std::abs(std::abs(res[8 * q + 3]) - M / st.b));
      worst_rest = std::max(worst_rest, std::abs(res[8 * q + 3] - res[3]));
      for (const int c : {0, 1, 2, 4, 5, 6, 7})
        worst_rest = std::max(worst_rest, std::abs(res[8 * q + c]) * (c < 3 ? st.L : 1));
    }
  }
  std::printf("resultants: |M11| - M / b %.2e, others (N times L) %.2e, of M / b %.3e\n", worst_m,
              worst_rest, M / st.b);
  EXPECT_LT(worst_m, 1e-9 * M / st.b);
  EXPECT_LT(worst_rest, 1e-9 * M / st.b);
}

TEST(ShellNonlinear, EndMomentRollsAFreeStripAboutOneAxis) {
  // Every DOF free but the root's: three quarters of a circle (the tip's psi = 1.5 pi, below the
  // 2 pi where the additive rotations lose their perpendicular stiffness). The rotations stay
  // along y (psi_x = psi_z = 0), u_y = 0 (nu = 0).
  const Strip st;
  const double M = 1.5 * pi * st.EI() / st.L;
  NewtonLog log;
  double energy = 0;
  const std::vector<double> D = roll(st, M, 15, false, log, energy);
  print_newton(log);
  double off = 0;
  for (int a = 0; a < 2 * (st.n + 1); ++a)
    for (const int i : {1, 3, 5}) off = std::max(off, std::abs(D[6 * a + i]));
  const auto err = polygon_error(st, M, D);
  std::printf(
      "three quarters, all DOFs free: nodes against the polygon %.2e L, rotations %.2e, largest "
      "u_y / psi_x / psi_z %.2e\n",
      err[0], err[1], off);
  EXPECT_LT(err[0], 1e-9);
  EXPECT_LT(err[1], 1e-9);
  EXPECT_LT(off, 1e-10);
  expect_quadratic(log, 8);
}

/// The elastica of a cantilever (length L, EI) under a tip force P normal to it, of fixed
/// direction: EI theta'' = -P cos theta, theta(0) = 0, theta'(L) = 0, by shooting on theta'(0)
/// (bisection, RK4 with 20000 steps); the tip's displacements (along the beam, across it).
std::array<double, 2> elastica_tip(double L, double EI, double P) {
  const int steps = 20000;
  const double h = L / steps, c = P / EI;
  auto shoot = [&](double k0, double& u, double& w) {
    double th = 0, k = k0, x = 0, z = 0;
    auto rhs = [c](double t, double kk, double out[4]) {
      out[0] = kk;
      out[1] = -c * std::cos(t);
      out[2] = std::cos(t);
      out[3] = std::sin(t);
    };
    for (int i = 0; i < steps; ++i) {
      double k1[4], k2[4], k3[4], k4[4];
      rhs(th, k, k1);
      rhs(th + 0.5 * h * k1[0], k + 0.5 * h * k1[1], k2);
      rhs(th + 0.5 * h * k2[0], k + 0.5 * h * k2[1], k3);
      rhs(th + h * k3[0], k + h * k3[1], k4);
      th += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
      k += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
      x += h / 6 * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2]);
      z += h / 6 * (k1[3] + 2 * k2[3] + 2 * k3[3] + k4[3]);
    }
    u = x - L;
    w = z;
    return k;  // theta'(L)
  };
  double lo = 0, hi = 2 * c * L, u = 0, w = 0;  // theta'(L) < 0 at lo, > 0 at hi
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (shoot(mid, u, w) < 0 ? lo : hi) = mid;
  }
  shoot(0.5 * (lo + hi), u, w);
  return {u, w};
}

TEST(ShellNonlinear, EndForceBendsAStripAsTheElastica) {
  // The cantilever strip (L 10, b 1, t 0.1, E 1.2e6, nu 0) under a tip force P = 4 along z of
  // fixed direction (P L^2 / EI = 4): the tip against the elastica, converging at second order.
  double previous = 0;
  for (const int n : {8, 16, 32}) {
    Strip st;
    st.n = n;
    st.load_dof = 2;
    const double P = 4;
    NewtonLog log;
    double energy = 0;
    const std::vector<double> D = roll(st, P, 8, true, log, energy);
    const std::array<double, 2> exact = elastica_tip(st.L, st.EI(), P);
    const int tip = 2 * st.n;
    const double error = std::hypot(D[6 * tip] - exact[0], D[6 * tip + 2] - exact[1]) / st.L;
    std::printf(
        "%2d elements: tip u %.5f w %.5f, elastica %.5f %.5f: %.2e L (ratio %.2f), Newton %zu "
        "iterations in the last increment\n",
        n, D[6 * tip], D[6 * tip + 2], exact[0], exact[1], error,
        previous > 0 ? previous / error : 0.0, log.energy.back().size());
    print_newton(log);
    expect_quadratic(log, 10);
    if (n == 16) {
      EXPECT_LT(error, 5e-4);
    }
    if (previous > 0) {
      EXPECT_GT(previous / error, 3.5);
    }
    previous = error;
  }
}

/// A free square element (side 1, t 0.1, E 1e6, nu 0.3, rho 1) spinning about its normal at
/// omega = 10 rad/s, stretched 1e-3 at the start, by central differences with the lumped mass of
/// shell.hpp for `turns` turns: the largest energy error (relative) and the largest change of
/// the angular momentum about the normal (relative).
std::array<double, 2> spin(double dt, double turns) {
  const std::array<double, 12> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  ShellLayers s = section(0.1, 1e6, 0.3);
  V24 m{};
  shell4_lumped_mass(x.data(), s.elastic, m.data());
  const double omega = 10;
  V24 d{}, v{}, f{};
  for (int a = 0; a < 4; ++a) {
    const double rx = x[3 * a] - 0.5, ry = x[3 * a + 1] - 0.5;
    d[3 * a] = 1e-3 * rx;
    d[3 * a + 1] = 1e-3 * ry;
    v[3 * a] = -omega * ry;  // at the half step before: a rigid spin, close enough
    v[3 * a + 1] = omega * rx;
    v[12 + 3 * a + 2] = omega;
  }
  auto momentum = [&](const V24& dd, const V24& vv) {
    double J = 0;
    for (int a = 0; a < 4; ++a) {
      const double px = x[3 * a] + dd[3 * a], py = x[3 * a + 1] + dd[3 * a + 1];
      J += m[3 * a] * (px * vv[3 * a + 1] - py * vv[3 * a]) + m[12 + 3 * a + 2] * vv[14 + 3 * a];
    }
    return J;
  };
  const int steps = static_cast<int>(turns * 2 * pi / omega / dt);
  double E0 = 0, J0 = 0, worst_e = 0, worst_j = 0;
  V24 v_old = v;
  for (int n = 0; n <= steps; ++n) {
    const double U =
        shell4_nonlinear(x.data(), s, d.data(), {}, {}, f.data(), nullptr, nullptr).stored;
    for (int k = 0; k < 24; ++k) v[k] = v_old[k] - dt * f[k] / m[k];
    double T = 0;  // at step n from the mean of the half-step velocities
    for (int k = 0; k < 24; ++k) T += 0.25 * m[k] * (v[k] + v_old[k]) * (v[k] + v_old[k]) / 2;
    const double J = momentum(d, v);
    if (n == 0) {
      E0 = T + U;
      J0 = J;
    }
    worst_e = std::max(worst_e, std::abs(T + U - E0) / E0);
    worst_j = std::max(worst_j, std::abs(J - J0) / std::abs(J0));
    for (int k = 0; k < 24; ++k) d[k] += dt * v[k];
    v_old = v;
  }
  return {worst_e, worst_j};
}

TEST(ShellNonlinear, SpinningElementKeepsEnergyAndAngularMomentumInAnExplicitRun) {
  // The force path as explicit runs use it: two turns (psi_z grows to 4 pi about the fixed
  // normal, where the additive rotations are exact). Angular momentum is conserved by central
  // differences for an objective force (to rounding); the energy error is of second order in dt.
  const double dt = 2e-5;
  const std::array<double, 2> coarse = spin(dt, 2), fine = spin(dt / 2, 2);
  std::printf(
      "spinning element, dt %.0e: energy error %.2e, angular momentum %.2e; dt / 2: %.2e, %.2e "
      "(ratio %.2f)\n",
      dt, coarse[0], coarse[1], fine[0], fine[1], coarse[0] / fine[0]);
  EXPECT_LT(coarse[1], 1e-11);
  EXPECT_LT(fine[1], 1e-11);
  EXPECT_LT(coarse[0], 1e-3);
  EXPECT_GT(coarse[0] / fine[0], 3.5);
  EXPECT_LT(coarse[0] / fine[0], 4.5);
}

TEST(ShellNonlinear, CostPerElement) {
  // Figures for the header (no assertion on time): the force alone is the explicit hot path.
  const V24 d = large_rotation_state();
  V24 f{};
  M24 K{}, Klin{};
  shell4_stiffness(X.data(), plate.elastic, Klin.data());
  using clock = std::chrono::steady_clock;
  auto per_call = [](auto&& call, int n) {  // the best of 5 batches (the machine is shared)
    double best = 1e300;
    for (int batch = 0; batch < 5; ++batch) {
      const auto t0 = clock::now();
      for (int i = 0; i < n; ++i) call();
      best =
          std::min(best, std::chrono::duration<double, std::micro>(clock::now() - t0).count() / n);
    }
    return best;
  };
  double sink = 0;
  const double force = per_call(
      [&] {
        shell4_nonlinear(X.data(), plate, d.data(), {}, {}, f.data(), nullptr, nullptr);
        sink += f[0];
      },
      400);
  const double tangent = per_call(
      [&] {
        shell4_nonlinear(X.data(), plate, d.data(), {}, {}, f.data(), K.data(), nullptr);
        sink += K[0];
      },
      40);
  const double linear = per_call(
      [&] {
        for (int i = 0; i < 24; ++i) {
          double v = 0;
          for (int j = 0; j < 24; ++j) v += Klin[24 * i + j] * d[j];
          f[i] = v;
        }
        sink += f[0];
      },
      4000);
  std::printf("us per element: force %.2f, force and tangent %.2f, linear K d %.3f (%g)\n", force,
              tangent, linear, sink > 0 ? 1.0 : 0.0);
  EXPECT_TRUE(std::isfinite(sink));
}

/// A plastic section (J2, linear isotropic hardening, 5 Lobatto points; sigma_y / E = 1e-3).
ShellLayers plastic_plate() {
  ShellLayers s = plate;
  s.plastic = true;
  s.j2.yield_stress = 1e3;
  s.j2.isotropic_modulus = 2e4;
  return s;
}

/// Whether fe/shell_section.hpp has its plastic path (it is written separately; until it is on
/// this branch the plastic test skips, saying so).
bool plastic_sections_available() {
  const ShellLayers s = plastic_plate();
  std::vector<double> state(static_cast<size_t>(shell_layers_state_size(s)));
  const double ek[6] = {};
  double nm[6];
  try {
    shell_layers_update(s, ek, state, state, nm, nullptr);
    return true;
  } catch (const InternalError&) {
    return false;
  }
}

TEST(ShellNonlinear, PlasticSectionStateAtEachPoint) {
  if (!plastic_sections_available())
    GTEST_SKIP() << "plastic shell sections are not implemented in shell_section.cpp yet";
  const ShellLayers s = plastic_plate();
  const size_t n = static_cast<size_t>(shell4_nonlinear_state_size(s));
  // Step 1: a rigid motion of 1.2 rad with bending past the yield curvature (2 sigma_y / (E t) =
  // 0.02; the rotations differ by ~0.1 over the element's size 2).
  const double psi[3] = {0.5, -0.8, 0.7}, t[3] = {0.4, -0.2, 0.9};
  const V24 rigid = rigid_motion(X, psi, t), p = pattern(6);
  V24 d1 = rigid, d2 = rigid;
  for (int k = 0; k < 24; ++k) {
    d1[k] += (k < 12 ? 1e-3 : 0.1) * p[k];
    d2[k] += 1.2 * (k < 12 ? 1e-3 : 0.1) * p[k];
  }
  const std::vector<double> virgin(n, 0.0);
  std::vector<double> state1(n), scratch(n);
  V24 f{};
  const FiberEnergy e1 =
      shell4_nonlinear(X.data(), s, d1.data(), virgin, state1, f.data(), nullptr, nullptr);
  // The same deformation without the rigid motion: the same state and energies (objectivity).
  V24 d1_local = d1;
  {
    double Q[9];
    rotation_from_vector(psi, Q);
    // x = Q (X + u) + ... : undo the rigid motion of the nodes and the rotations.
    for (int a = 0; a < 4; ++a) {
      double x[3];
      for (int i = 0; i < 3; ++i) x[i] = X[3 * a + i] + d1[3 * a + i] - X[i] - t[i];
      for (int i = 0; i < 3; ++i) {
        double v = X[i] - X[3 * a + i];
        for (int k = 0; k < 3; ++k) v += Q[3 * k + i] * x[k];
        d1_local[3 * a + i] = v;
      }
      double R[9], QtR[9] = {};
      rotation_from_vector(d1.data() + 12 + 3 * a, R);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k) QtR[3 * i + j] += Q[3 * k + i] * R[3 * k + j];
      rotation_to_vector(QtR, d1_local.data() + 12 + 3 * a);
    }
  }
  const FiberEnergy e1_local =
      shell4_nonlinear(X.data(), s, d1_local.data(), virgin, scratch, f.data(), nullptr, nullptr);
  const double state_diff = max_diff(state1.data(), scratch.data(), static_cast<int>(n)) /
                            max_abs(state1.data(), static_cast<int>(n));
  std::printf(
      "plastic step: stored %.6e, dissipated %.6e; without the rigid motion: %.2e, %.2e "
      "relative, state %.2e\n",
      e1.stored, e1.dissipated, std::abs(e1_local.stored - e1.stored) / e1.stored,
      std::abs(e1_local.dissipated - e1.dissipated) / e1.dissipated, state_diff);
  EXPECT_GT(e1.dissipated, 0);
  EXPECT_LT(std::abs(e1_local.stored - e1.stored), 1e-10 * e1.stored);
  EXPECT_LT(std::abs(e1_local.dissipated - e1.dissipated), 1e-10 * e1.dissipated);
  EXPECT_LT(state_diff, 1e-10);
  // Step 2 from the committed state1: K against central differences of f.
  M24 K{}, Kfd{};
  shell4_nonlinear(X.data(), s, d2.data(), state1, scratch, f.data(), K.data(), nullptr);
  const double h = 1e-7;
  for (int j = 0; j < 24; ++j) {
    V24 a = d2, b = d2, fa{}, fb{};
    a[j] += h;
    b[j] -= h;
    shell4_nonlinear(X.data(), s, a.data(), state1, scratch, fa.data(), nullptr, nullptr);
    shell4_nonlinear(X.data(), s, b.data(), state1, scratch, fb.data(), nullptr, nullptr);
    for (int i = 0; i < 24; ++i) Kfd[24 * i + j] = (fa[i] - fb[i]) / (2 * h);
  }
  const double krel = max_diff(K.data(), Kfd.data(), 576) / max_abs(K.data(), 576);
  std::printf("plastic step 2: K against df/dd %.3e relative\n", krel);
  EXPECT_LT(krel, 1e-5);
}

TEST(ShellNonlinear, BadStatesAreRefused) {
  V24 f{};
  V24 d{};
  for (int k = 0; k < 12; ++k) d[k] = -X[k];  // every node at the origin
  EXPECT_THROW(shell4_nonlinear(X.data(), plate, d.data(), {}, {}, f.data(), nullptr, nullptr),
               SolverError);
  d = V24{};
  d[0] = std::nan("");
  EXPECT_THROW(shell4_nonlinear(X.data(), plate, d.data(), {}, {}, f.data(), nullptr, nullptr),
               SolverError);
  ShellLayers plastic = plate;
  plastic.plastic = true;
  std::vector<double> state(static_cast<size_t>(shell4_nonlinear_state_size(plastic)) - 1);
  EXPECT_EQ(shell4_nonlinear_state_size(plastic), 4 * shell_layers_state_size(plastic));
  d = V24{};
  EXPECT_THROW(
      shell4_nonlinear(X.data(), plastic, d.data(), state, state, f.data(), nullptr, nullptr),
      InternalError);
}

}  // namespace
}  // namespace inertia::fe
