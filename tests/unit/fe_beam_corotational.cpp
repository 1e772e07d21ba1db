// The corotational beam (fe/beam_corotational.hpp): the linear element for small displacements,
// its force and tangent against finite differences of its energy and force, rigid motions, and
// cantilevers rolled by an end moment into a quarter and a full circle by a Newton solve here.
//
// Tolerances: 1e-6 relative for the linear limit (d ~ 1e-7 L: the nonlinear terms are of that
// relative size) and for the finite differences (central, h = 1e-6 of the DOF's scale: truncation
// ~1e-12, rounding ~1e-10); 1e-10 for rigid motions (rounding of the frame); the circles' tips
// against the polygon of N chords that the exact solution is (1e-9 L, Newton converged to 1e-12
// of the moment) and the full circle's tip at the root to 1e-6 L as the issue asks.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <utility>
#include <vector>

#include "../support/fixtures.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/beam_corotational.hpp"

namespace inertia::fe {
namespace {

using M12 = std::array<double, 144>;
using V12 = std::array<double, 12>;
constexpr double pi = std::numbers::pi;

// The skew beam of fe_beam.cpp: an arbitrary (not normal) orientation and a stocky section
// (phi_y = 0.25, phi_z = 0.39).
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

using inertia::testing::max_abs;
using inertia::testing::max_diff;

struct Response {
  V12 f{};
  M12 K{};
  double energy = 0;
};
Response response(const V12& d, bool timoshenko) {
  Response r;
  corotational_beam_force(X0, X1, orientation, section(), material(), timoshenko, d.data(),
                          r.f.data(), r.K.data(), &r.energy);
  return r;
}

/// 3 x 3 row-major product.
std::array<double, 9> mul(const double* A, const double* B) {
  std::array<double, 9> C{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) C[3 * i + j] += A[3 * i + k] * B[3 * k + j];
  return C;
}

TEST(BeamCorotational, ExponentialAndLogarithmAreInverseAndOrthogonal) {
  const double cases[4][3] = {{0, 0, 0}, {1e-4, -2e-3, 5e-3}, {0.9, -1.7, 1.1}, {0, 0, 3.1}};
  for (const auto& psi : cases) {
    double R[9], back[3];
    rotation_from_vector(psi, R);
    double RtR[9] = {};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) RtR[3 * i + j] += R[3 * k + i] * R[3 * k + j];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(RtR[3 * i + j], i == j ? 1 : 0, 1e-15);
    // R psi = psi (the axis is fixed) and log(exp(psi)) = psi.
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(R[3 * i] * psi[0] + R[3 * i + 1] * psi[1] + R[3 * i + 2] * psi[2], psi[i], 1e-15);
    rotation_to_vector(R, back);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], psi[i], 1e-13);
  }
  // Near and at the half turn (the axial vector vanishes): the axis from the symmetric part.
  const double n[3] = {2.0 / 7, -3.0 / 7, 6.0 / 7};
  for (double t : {pi - 1e-9, pi}) {
    const double psi[3] = {t * n[0], t * n[1], t * n[2]};
    double R[9], back[3];
    rotation_from_vector(psi, R);
    rotation_to_vector(R, back);
    const double sign = t < pi ? 1 : (back[2] > 0 ? 1 : -1);  // a half turn's axis: either sign
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(back[i], sign * psi[i], 1e-14);
  }
  // A quarter turn about z takes x to y.
  const double quarter[3] = {0, 0, pi / 2};
  double R[9];
  rotation_from_vector(quarter, R);
  EXPECT_NEAR(R[3], 1, 1e-15);  // (R e_x)_y
  EXPECT_NEAR(R[1], -1, 1e-15);
}

/// The linear element's global stiffness.
M12 linear_stiffness(bool timoshenko) {
  double R[9];
  EXPECT_TRUE(beam_frame(X0, X1, orientation, R));
  M12 K;
  beam_stiffness(X0, X1, R, section(), material(), timoshenko, K.data());
  return K;
}

TEST(BeamCorotational, SmallDisplacementsGiveTheLinearElement) {
  const double L = beam_length(X0, X1);
  const V12 shape = {0.3, -0.7, 0.5, -0.2, 0.9, 0.4, 0.8, -0.3, 0.6, -0.5, 0.2, 0.7};
  for (bool timoshenko : {false, true}) {
    const M12 Kl = linear_stiffness(timoshenko);
    // At d = 0 the tangent is the linear stiffness (to rounding) and the force zero.
    const Response r0 = response(V12{}, timoshenko);
    EXPECT_LT(max_diff(r0.K.data(), Kl.data(), 144), 1e-12 * max_abs(Kl.data(), 144));
    EXPECT_LT(max_abs(r0.f.data(), 12), 1e-15 * E * section().area);
    V12 d;
    for (int i = 0; i < 12; ++i) d[i] = 1e-8 * shape[i] * (i < 6 ? L : 1.0);
    const Response r = response(d, timoshenko);
    V12 Kd{};
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) Kd[i] += Kl[12 * i + j] * d[j];
    const double ef = max_diff(r.f.data(), Kd.data(), 12) / max_abs(Kd.data(), 12);
    const double eK = max_diff(r.K.data(), Kl.data(), 144) / max_abs(Kl.data(), 144);
    double dKd = 0;
    for (int i = 0; i < 12; ++i) dKd += d[i] * Kd[i];
    const double eE = std::abs(r.energy - dKd / 2) / (dKd / 2);
    std::printf("small d (%s): |f - K d| %.2e, |K - K_lin| %.2e, energy %.2e (relative)\n",
                timoshenko ? "Timoshenko" : "Euler-Bernoulli", ef, eK, eE);
    EXPECT_LT(ef, 1e-6);
    EXPECT_LT(eK, 1e-6);
    EXPECT_LT(eE, 1e-6);
  }
}

/// A state with moderate rotations (0.3 .. 1.5 rad) and displacements of 0.1 L.
V12 moderate_state() { return {0.1, -0.2, 0.05, -0.3, 0.25, 0.4, 0.3, 0.6, -0.9, 0.7, 0.4, -1.5}; }

/// Central differences: f against the energy, K against f. Returns the largest errors relative
/// to max |f| and max |K|.
void finite_differences(const V12& d, bool timoshenko, double& ef, double& eK) {
  const double L = beam_length(X0, X1);
  const Response r = response(d, timoshenko);
  V12 fd_f{};
  M12 fd_K{};
  for (int j = 0; j < 12; ++j) {
    const double h = 1e-6 * (j < 6 ? L : 1.0);
    V12 p = d, m = d;
    p[j] += h;
    m[j] -= h;
    const Response rp = response(p, timoshenko), rm = response(m, timoshenko);
    fd_f[j] = (rp.energy - rm.energy) / (2 * h);
    for (int i = 0; i < 12; ++i) fd_K[12 * i + j] = (rp.f[i] - rm.f[i]) / (2 * h);
  }
  ef = max_diff(r.f.data(), fd_f.data(), 12) / max_abs(r.f.data(), 12);
  eK = max_diff(r.K.data(), fd_K.data(), 144) / max_abs(r.K.data(), 144);
  // The tangent is the energy's Hessian: symmetric.
  double asym = 0;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) asym = std::max(asym, std::abs(r.K[12 * i + j] - r.K[12 * j + i]));
  EXPECT_EQ(asym, 0.0);
}

TEST(BeamCorotational, ForceAndTangentAreTheDerivativesOfTheEnergy) {
  // The moderate state, and one near psi = 0 (the exponential's series at both ends).
  V12 near_zero{};
  for (int i = 0; i < 6; ++i) near_zero[i] = 1e-3 * (i % 2 ? 1 : -1) * (i + 1);
  near_zero[9] = 2e-3;
  near_zero[11] = -1e-3;
  for (const V12& d : {moderate_state(), near_zero})
    for (bool timoshenko : {false, true}) {
      double ef, eK;
      finite_differences(d, timoshenko, ef, eK);
      std::printf("finite differences (%s, |psi1| %.1e): f %.2e, K %.2e (relative)\n",
                  timoshenko ? "Timoshenko" : "Euler-Bernoulli", std::hypot(d[9], d[10], d[11]), ef,
                  eK);
      EXPECT_LT(ef, 1e-6);
      EXPECT_LT(eK, 1e-6);
    }
}

/// d of the rigid motion x -> Rg (X + u) + t applied to the state d (psi_i -> log(Rg exp psi_i)).
V12 moved(const V12& d, const double phi[3], const double t[3]) {
  double Rg[9];
  rotation_from_vector(phi, Rg);
  V12 out{};
  const double* X[2] = {X0, X1};
  for (int n = 0; n < 2; ++n) {
    for (int i = 0; i < 3; ++i) {
      double x = 0;
      for (int k = 0; k < 3; ++k) x += Rg[3 * i + k] * (X[n][k] + d[3 * n + k]);
      out[3 * n + i] = x + t[i] - X[n][i];
    }
    double Q[9];
    rotation_from_vector(d.data() + 6 + 3 * n, Q);
    rotation_to_vector(mul(Rg, Q).data(), out.data() + 6 + 3 * n);
  }
  return out;
}

TEST(BeamCorotational, RigidMotionsStoreNoEnergy) {
  const double L = beam_length(X0, X1);
  const double EA = E * section().area;
  const double phi[3] = {0.9, -1.7, 1.1}, t[3] = {3, -1, 2};  // |phi| = 2.2 rad
  const double phi_small[3] = {0.2, 0.1, -0.3};
  for (bool timoshenko : {false, true}) {
    // The undeformed element moved rigidly: no force, no energy.
    const Response r = response(moved(V12{}, phi, t), timoshenko);
    std::printf("rigid motion (%s): max |f| %.2e EA, energy %.2e EA L\n",
                timoshenko ? "Timoshenko" : "Euler-Bernoulli", max_abs(r.f.data(), 12) / EA,
                r.energy / (EA * L));
    for (int i = 0; i < 12; ++i) EXPECT_LT(std::abs(r.f[i]), 1e-10 * EA * (i < 6 ? 1 : L));
    EXPECT_LT(std::abs(r.energy), 1e-10 * EA * L);
    // A deformed state moved rigidly: the same energy, the translational forces rotated.
    const V12 d = moderate_state();
    const Response a = response(d, timoshenko), b = response(moved(d, phi_small, t), timoshenko);
    EXPECT_NEAR(b.energy, a.energy, 1e-10 * a.energy);
    double Rg[9];
    rotation_from_vector(phi_small, Rg);
    const double fscale = max_abs(a.f.data(), 6);
    for (int n = 0; n < 2; ++n)
      for (int i = 0; i < 3; ++i) {
        double rotated = 0;
        for (int k = 0; k < 3; ++k) rotated += Rg[3 * i + k] * a.f[3 * n + k];
        EXPECT_NEAR(b.f[3 * n + i], rotated, 1e-10 * fscale);
      }
  }
}

TEST(BeamCorotational, LocalStateOfAStretchedAndBentElement) {
  // A stretch e along the beam and equal and opposite end rotations a about local z (pure
  // bending): dl = (e L, 0, 0, -a, 0, 0, a) and the section forces N = EA e, Mz = EIz 2a / L
  // (uniform, Vy = 0) in the frame that stays the reference one.
  const double L = beam_length(X0, X1), e = 1e-3, a = 0.05;
  double R[9];
  ASSERT_TRUE(beam_frame(X0, X1, orientation, R));
  V12 d{};
  for (int i = 0; i < 3; ++i) {
    d[i] = -0.5 * e * L * R[i];
    d[3 + i] = 0.5 * e * L * R[i];
    d[6 + i] = -a * R[6 + i];
    d[9 + i] = a * R[6 + i];
  }
  double dl[7], Rr[9], forces[12];
  corotational_beam_local_state(X0, X1, orientation, section(), material(), false, d.data(), dl, Rr,
                                forces);
  const double expected[7] = {e * L, 0, 0, -a, 0, 0, a};
  for (int k = 0; k < 7; ++k) EXPECT_NEAR(dl[k], expected[k], 1e-14);
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(Rr[k], R[k], 1e-14);
  const double N = E * section().area * e, Mz = E * section().iz * 2 * a / L;
  EXPECT_NEAR(forces[0], N, 1e-12 * N);
  EXPECT_NEAR(forces[6], N, 1e-12 * N);
  EXPECT_NEAR(forces[5], Mz, 1e-12 * Mz);
  EXPECT_NEAR(forces[11], Mz, 1e-12 * Mz);
  EXPECT_NEAR(forces[1], 0, 1e-12 * Mz / L);
}

TEST(BeamCorotational, BadGeometryIsRefused) {
  const double parallel[3] = {1.5, 1.1, 1.6};
  double f[12];
  const double d[12] = {};
  EXPECT_THROW(corotational_beam_force(X0, X0, orientation, section(), material(), false, d, f,
                                       nullptr, nullptr),
               SolverError);
  EXPECT_THROW(corotational_beam_force(X0, X1, parallel, section(), material(), false, d, f,
                                       nullptr, nullptr),
               SolverError);
  // The current chord collapsed.
  double collapsed[12] = {};
  for (int i = 0; i < 3; ++i) collapsed[3 + i] = X0[i] - X1[i];
  EXPECT_THROW(corotational_beam_force(X0, X1, orientation, section(), material(), false, collapsed,
                                       f, nullptr, nullptr),
               SolverError);
}

// ---------------------------------------------------------------------------------------------
// Cantilevers rolled up by an end moment: N elements along x, clamped at x = 0, the out-of-plane
// DOFs (z, rx, ry) held at every node, a moment M about z at the tip, applied in load steps and
// solved by Newton with the elements' tangent (dense Gaussian elimination).

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

struct Rolled {
  double tip[3];        // the tip's current position, in the axes of the plane (Q^T x)
  double tip_rotation;  // its rotation about the plane's normal
  double off_plane;     // max |psi| about the plane's axes at the tip (Q^T psi)_x, _y
  int iterations;       // Newton iterations over all load steps
};

/// Q's columns applied to (a, b, c): Q (a, b, c).
void apply(const double* Q, double a, double b, double c, double out[3]) {
  for (int i = 0; i < 3; ++i) out[i] = Q[3 * i] * a + Q[3 * i + 1] * b + Q[3 * i + 2] * c;
}

/// The cantilever of length L (E, the section) under the end moment M. Q (3 x 3 row-major,
/// orthogonal) places it: the beam along Q e_x, its local y along Q e_y, the moment about Q e_z.
/// With Q = nullptr (the identity) only the in-plane DOFs ux, uy, rz are free; else all six.
Rolled roll_up(int n_elements, double M, bool timoshenko, const double* Q = nullptr) {
  const double L = 1.0;
  const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const bool planar = Q == nullptr;
  if (planar) Q = identity;
  const BeamSectionProperties s = section();
  double o[3], m_axis[3];  // local z = Q e_z: bending about Iz
  apply(Q, 0, 1, 0, o);
  apply(Q, 0, 0, 1, m_axis);
  const int n_nodes = n_elements + 1, n_all = 6 * n_nodes;
  // Active DOFs of nodes 1..N (node n's DOFs are 6n + [ux uy uz rx ry rz]).
  std::vector<int> active;
  for (int n = 1; n < n_nodes; ++n)
    for (int k = 0; k < 6; ++k)
      if (!planar || k == 0 || k == 1 || k == 5) active.push_back(6 * n + k);
  const int n_active = static_cast<int>(active.size());
  std::vector<double> u(n_all, 0.0);
  const int steps = 16;
  Rolled out{};
  for (int step = 1; step <= steps; ++step) {
    const double moment = M * step / steps;
    for (int it = 0;; ++it) {
      if (it == 40) {  // no convergence: a NaN tip fails every check
        ADD_FAILURE() << "no convergence at step " << step;
        out.tip[0] = out.tip[1] = out.tip[2] = out.tip_rotation = std::nan("");
        return out;
      }
      std::vector<double> r(n_all, 0.0), K(n_all * n_all, 0.0);
      for (int k = 0; k < 3; ++k) r[6 * (n_nodes - 1) + 3 + k] = -moment * m_axis[k];
      for (int e = 0; e < n_elements; ++e) {
        double Xa[3], Xb[3];
        apply(Q, L * e / n_elements, 0, 0, Xa);
        apply(Q, L * (e + 1) / n_elements, 0, 0, Xb);
        int map[12];
        for (int k = 0; k < 3; ++k) {
          map[k] = 6 * e + k;
          map[3 + k] = 6 * (e + 1) + k;
          map[6 + k] = 6 * e + 3 + k;
          map[9 + k] = 6 * (e + 1) + 3 + k;
        }
        double d[12], f[12], Ke[144];
        for (int k = 0; k < 12; ++k) d[k] = u[map[k]];
        corotational_beam_force(Xa, Xb, o, s, material(), timoshenko, d, f, Ke, nullptr);
        for (int i = 0; i < 12; ++i) {
          r[map[i]] += f[i];
          for (int j = 0; j < 12; ++j) K[map[i] * n_all + map[j]] += Ke[12 * i + j];
        }
      }
      double rmax = 0;
      std::vector<double> A(n_active * n_active), b(n_active);
      for (int i = 0; i < n_active; ++i) {
        b[i] = -r[active[i]];
        // Forces scaled by L to compare with moments.
        rmax = std::max(rmax, std::abs(r[active[i]]) * (active[i] % 6 >= 3 ? 1 : L));
        for (int j = 0; j < n_active; ++j) A[n_active * i + j] = K[active[i] * n_all + active[j]];
      }
      if (rmax < 1e-10 * M) break;
      const auto du = solve(A, b);
      for (int i = 0; i < n_active; ++i) u[active[i]] += du[i];
      ++out.iterations;
    }
  }
  const int tip = 6 * (n_nodes - 1);
  double x[3], psi[3];
  apply(Q, L, 0, 0, x);
  for (int k = 0; k < 3; ++k) x[k] += u[tip + k];
  for (int a = 0; a < 3; ++a) {  // Q^T x, Q^T psi
    out.tip[a] = Q[a] * x[0] + Q[3 + a] * x[1] + Q[6 + a] * x[2];
    psi[a] = Q[a] * u[tip + 3] + Q[3 + a] * u[tip + 4] + Q[6 + a] * u[tip + 5];
  }
  out.tip_rotation = psi[2];
  out.off_plane = std::max(std::abs(psi[0]), std::abs(psi[1]));
  return out;
}

TEST(BeamCorotational, EndMomentRollsACantileverIntoACircle) {
  const double L = 1.0, EI = E * section().iz;
  for (int N : {4, 8, 16, 32})
    for (bool timoshenko : {false, true}) {
      // Pure bending: the element's end rotations are -+ M Le / (2 EI) about its chord, whose
      // length stays Le (no axial force): the deformed beam is the regular polygon of N chords
      // Le turning by alpha = M Le / EI, inscribed in the circle of radius
      // rho' = Le / (2 sin(alpha / 2)) through the root, tangent to x there. The continuum's
      // circle has rho = EI / M (rho' / rho - 1 = alpha^2 / 24 + ...).
      const double Le = L / N;
      // A quarter circle: the tip at rho' (1, 1); the continuum's (2 L / pi)(1, 1).
      const double Mq = pi * EI / (2 * L), aq = Mq * Le / EI;
      const double rho_q = Le / (2 * std::sin(aq / 2));
      const Rolled q = roll_up(N, Mq, timoshenko);
      const double eq = std::hypot(q.tip[0] - rho_q, q.tip[1] - rho_q) / L;
      const double eq_continuum = std::hypot(q.tip[0] - 2 * L / pi, q.tip[1] - 2 * L / pi) / L;
      // The full circle: the tip back at the root, turned by 2 pi.
      const double Mf = 2 * pi * EI / L;
      const Rolled c = roll_up(N, Mf, timoshenko);
      const double ec = std::hypot(c.tip[0], c.tip[1], c.tip[2]) / L;
      std::printf(
          "N %2d %s: quarter circle tip - polygon %.1e L, - continuum %.2e L "
          "(predicted %.2e); full circle |tip - root| %.1e L, rotation - 2 pi %.1e "
          "(%d + %d Newton iterations)\n",
          N, timoshenko ? "Tim" : "E-B", eq, eq_continuum, aq * aq / 24 * 2 * std::sqrt(2.0) / pi,
          ec, c.tip_rotation - 2 * pi, q.iterations, c.iterations);
      EXPECT_LT(eq, 1e-9);
      EXPECT_NEAR(q.tip_rotation, pi / 2, 1e-9);
      EXPECT_LT(ec, 1e-6);
      EXPECT_LT(ec, 1e-9);
      EXPECT_NEAR(c.tip_rotation, 2 * pi, 1e-9);
      EXPECT_LT(std::abs(q.tip[2]) + std::abs(c.tip[2]), 1e-15);
    }
}

TEST(BeamCorotational, EndMomentRollsASkewCantileverWithAllDofsFree) {
  // The quarter circle in a skew plane, all six DOFs of every node free: the same polygon, the
  // rotations staying about the plane's normal.
  const double L = 1.0, EI = E * section().iz;
  const double phi[3] = {0.4, -0.7, 0.9};
  double Q[9];
  rotation_from_vector(phi, Q);
  for (int N : {8, 16})
    for (bool timoshenko : {false, true}) {
      const double Le = L / N, M = pi * EI / (2 * L), alpha = M * Le / EI;
      const double rho_p = Le / (2 * std::sin(alpha / 2));
      const Rolled q = roll_up(N, M, timoshenko, Q);
      const double e = std::hypot(q.tip[0] - rho_p, q.tip[1] - rho_p, q.tip[2]) / L;
      std::printf(
          "skew plane, 6 DOFs, N %2d %s: quarter circle tip - polygon %.1e L, off-plane "
          "rotation %.1e (%d Newton iterations)\n",
          N, timoshenko ? "Tim" : "E-B", e, q.off_plane, q.iterations);
      EXPECT_LT(e, 1e-9);
      EXPECT_NEAR(q.tip_rotation, pi / 2, 1e-9);
      EXPECT_LT(q.off_plane, 1e-9);
    }
}

// ---------------------------------------------------------------------------------------------
// A free beam spun about its axis, integrated by the central difference with the lumped mass of
// fe/beam.hpp (the explicit scheme's update on the additive DOFs): the force is the gradient of
// the energy, so the discrete system is Hamiltonian, H = 1/2 v . M v + E(d), and the central
// difference keeps H to O(dt^2) without drift over many turns (|psi| passes 2 pi several times).
// With bending the rotation vectors leave the axis: H's kinetic part 1/2 psi' . M psi' is then the
// additive DOFs' (the true angular velocity is T(psi) psi', not psi'): the kernel's part, f =
// dE/dd, is what this checks.

struct Spin {
  double drift;     // max |H - H0| / H0
  double turns;     // the spin's turns
  double off_axis;  // max |psi_y|, |psi_z| (0 for a spin with torsion only)
};

Spin spin(double omega, double bending, int n_elements, double courant) {
  const double L = 1.0;
  const BeamSectionProperties s = section();
  const double o[3] = {0, 1, 0};
  const int n_nodes = n_elements + 1, n_all = 6 * n_nodes;
  auto element_map = [](int e, int map[12]) {
    for (int k = 0; k < 3; ++k) {
      map[k] = 6 * e + k;
      map[3 + k] = 6 * (e + 1) + k;
      map[6 + k] = 6 * e + 3 + k;
      map[9 + k] = 6 * (e + 1) + 3 + k;
    }
  };
  std::vector<double> mass(n_all, 0.0), u(n_all, 0.0), v(n_all, 0.0), f(n_all, 0.0);
  for (int e = 0; e < n_elements; ++e) {
    const double Xa[3] = {L * e / n_elements, 0, 0}, Xb[3] = {L * (e + 1) / n_elements, 0, 0};
    double me[12];
    int map[12];
    beam_lumped_mass(Xa, Xb, s, material(), me);
    element_map(e, map);
    for (int i = 0; i < 12; ++i) mass[map[i]] += me[i];
  }
  // The spin with a torsional perturbation (+-20 % along the beam) and, when bending != 0, a
  // transverse velocity (bending omega L at the middle, a half sine).
  for (int n = 0; n < n_nodes; ++n) {
    const double x = static_cast<double>(n) / n_elements;
    v[6 * n + 3] = omega * (1 + 0.2 * std::cos(pi * x));
    v[6 * n + 2] = bending * omega * L * std::sin(pi * x);
  }
  auto forces = [&](double& energy) {
    std::fill(f.begin(), f.end(), 0.0);
    energy = 0;
    for (int e = 0; e < n_elements; ++e) {
      const double Xa[3] = {L * e / n_elements, 0, 0}, Xb[3] = {L * (e + 1) / n_elements, 0, 0};
      int map[12];
      element_map(e, map);
      double d[12], fe[12], ee;
      for (int k = 0; k < 12; ++k) d[k] = u[map[k]];
      corotational_beam_force(Xa, Xb, o, s, material(), false, d, fe, nullptr, &ee);
      energy += ee;
      for (int i = 0; i < 12; ++i) f[map[i]] += fe[i];
    }
  };
  // Stable step of the linear element's fastest mode: the axial one, Le / c with the lumped
  // masses (the rotary inertia's bending mode is slower here), times courant.
  const double dt = courant * (L / n_elements) / std::sqrt(E / rho);
  const double period = 2 * pi / omega;
  const int steps = static_cast<int>(3.2 * period / dt);
  double energy;
  forces(energy);
  // v holds v_{n-1/2} after this half step back (so that v_0 is the initial velocity).
  for (int i = 0; i < n_all; ++i) v[i] += 0.5 * dt * f[i] / mass[i];
  Spin out{0, 0, 0};
  double H0 = 0;
  for (int n = 0; n <= steps; ++n) {
    forces(energy);
    double kinetic = 0;
    for (int i = 0; i < n_all; ++i) {
      const double vn = v[i] - 0.5 * dt * f[i] / mass[i];  // v_n = v_{n-1/2} + dt/2 a_n
      kinetic += 0.5 * mass[i] * vn * vn;
    }
    if (n == 0) H0 = kinetic + energy;
    out.drift = std::max(out.drift, std::abs(kinetic + energy - H0) / H0);
    for (int i = 0; i < n_all; ++i) {
      v[i] -= dt * f[i] / mass[i];
      u[i] += dt * v[i];
    }
    for (int k = 0; k < n_nodes; ++k)
      out.off_axis = std::max({out.off_axis, std::abs(u[6 * k + 4]), std::abs(u[6 * k + 5])});
  }
  out.turns = u[3] / (2 * pi);
  return out;
}

TEST(BeamCorotational, BeamSpunAboutItsAxisKeepsItsEnergyInAnExplicitRun) {
  // A rigid spin alone: no force at any angle (7 rad about the skew beam's axis, beyond 2 pi).
  const double L = beam_length(X0, X1);
  V12 d{};
  for (int i = 0; i < 3; ++i) d[6 + i] = d[9 + i] = 7 * (X1[i] - X0[i]) / L;
  const Response r = response(d, true);
  EXPECT_LT(max_abs(r.f.data(), 12), 1e-16 * E * section().area);
  EXPECT_LT(r.energy, 1e-20 * E * section().area * L);
  // Spin with torsion (exact rigid-body kinematics: every rotation about x), then with bending.
  const Spin a = spin(2000, 0, 4, 0.5), b = spin(2000, 5e-3, 4, 0.5);
  const Spin a2 = spin(2000, 0, 4, 0.25), b2 = spin(2000, 5e-3, 4, 0.25);
  std::printf(
      "spin: %.2f turns, energy error %.2e (torsion), %.2e (with bending, off-axis psi "
      "%.1e); half the step: %.2e, %.2e\n",
      a.turns, a.drift, b.drift, b.off_axis, a2.drift, b2.drift);
  EXPECT_GT(a.turns, 3);
  EXPECT_EQ(a.off_axis, 0.0);
  EXPECT_GT(b.off_axis, 0.1);
  // The energy error is the central difference's O(dt^2) (a quarter with half the step), not a
  // drift: 1.2e-4 and 2.2e-4 of H at half the stable step, ratios 4.0 and 4.8.
  for (const auto& [coarse, fine] : {std::pair{a, a2}, std::pair{b, b2}}) {
    EXPECT_LT(coarse.drift, 1e-3);
    EXPECT_GT(coarse.drift / fine.drift, 3.5);
    EXPECT_LT(coarse.drift / fine.drift, 6.0);
  }
}

}  // namespace
}  // namespace inertia::fe
