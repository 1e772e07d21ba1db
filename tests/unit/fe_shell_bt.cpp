// The one-point Belytschko-Tsay shell (fe/shell_bt.hpp): rigid motions of any size give no force
// and no energy; constant membrane and bending states give the exact nodal forces of the
// constant resultants (the boundary tractions: the patch test) on an irregular quad, and the
// linear MITC4's force on a parallelogram; the linearization at rest (central differences of the
// force) is symmetric and has 6 + 4 zero eigenvalues with the hourglass coefficient 0 (rigid
// modes, membrane and bending hourglass) and 6 with 0.1; the energies of a square's hourglass
// modes against BLT's stiffness, the w mode, the uniform shear, drilling and the rotations' curl
// against their exact Mindlin energies; the force against the energy's derivative at large
// rotations; the plastic section's state at the point; the cost per element.
//
// Tolerances: rounding for rigid motions (1e-10 of |K| L) and patches (1e-9 of the force at
// strains 1e-6, 1e-7 for bending: the coordinates' rounding against the bending displacements,
// measured 1.5e-8; the second-order terms (f(d) - f(-d)) / 2 removes are ~1e-12); the zero
// eigenvalues below 1e-10 of the largest, the others above 1e-8 of it (measured: the zero ones
// 9e-13, the central differences' error; the smallest others 1.5e-6 with r = 0.1, the bending
// hourglass r E t^3 against the membrane's E t, and 2.4e-4 with r = 0).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../support/fixtures.hpp"
#include "../support/symmetric_eigenvalues.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/shell.hpp"
#include "inertia/fe/shell_bt.hpp"

namespace inertia::fe {
namespace {

using V24 = std::array<double, 24>;
using M24 = std::array<double, 576>;
using Quad = std::array<double, 12>;

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

/// The quad with local plane coordinates `plane` (4 x 3), rotated by Q and moved.
Quad placed(const double plane[4][3], const std::array<double, 9>& Q) {
  Quad x{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      x[3 * a + i] = Q[3 * i] * plane[a][0] + Q[3 * i + 1] * plane[a][1] +
                     Q[3 * i + 2] * plane[a][2] + 0.5 * (i + 1);
  return x;
}
const std::array<double, 9> Q0 = rotation({0.3, -0.5, 0.8}, 0.7);
/// An irregular convex quad (size ~2), warped by +-w.
Quad skew(double w = 0) {
  const double p[4][3] = {{0.0, 0.0, w}, {2.0, 0.3, -w}, {1.7, 1.4, w}, {0.2, 1.1, -w}};
  return placed(p, Q0);
}
/// A parallelogram.
const double parallelogram[4][3] = {{0, 0, 0}, {2, 0.3, 0}, {2.5, 1.5, 0}, {0.5, 1.2, 0}};

struct Response {
  V24 f{};
  ShellBtResult r;
};
Response bt(const Quad& x, const V24& d, double hourglass = 0.1, const ShellLayers& s = plate) {
  Response out;
  out.r = shell4_bt(x.data(), s, hourglass, d.data(), {}, {}, out.f.data());
  return out;
}

/// The central-difference linearization of the force at d = 0 (h = 1e-5: the second-order
/// terms cancel, the third-order ones ~1e-10 relative).
M24 linearized(const Quad& x, double hourglass) {
  M24 K{};
  const double h = 1e-5;
  for (int j = 0; j < 24; ++j) {
    V24 p{}, m{};
    p[j] = h, m[j] = -h;
    const Response fp = bt(x, p, hourglass), fm = bt(x, m, hourglass);
    for (int i = 0; i < 24; ++i) K[24 * i + j] = (fp.f[i] - fm.f[i]) / (2 * h);
  }
  return K;
}

/// A rigid motion of the nodes x about x0 by exp(psi) and a translation t.
V24 rigid_motion(const Quad& x, const double psi[3], const double t[3]) {
  double Q[9];
  rotation_from_vector(psi, Q);
  V24 d{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) {
      double v = x[i] + t[i] - x[3 * a + i];
      for (int k = 0; k < 3; ++k) v += Q[3 * i + k] * (x[3 * a + k] - x[k]);
      d[3 * a + i] = v;
      d[12 + 3 * a + i] = psi[i];
    }
  return d;
}

TEST(ShellBt, RigidMotionsGiveNoForce) {
  const double t[3] = {0.7, -1.3, 2.2};
  for (const double warp : {0.0, 0.05}) {
    const Quad x = skew(warp);
    M24 K{};
    shell4_stiffness(x.data(), plate.elastic, K.data());
    const double kscale = max_abs(K.data(), 576) * 2;  // |K| x element size
    for (const double angle : {0.3, 2.9, 5.5}) {
      const double axis[3] = {0.9, -1.7, 2.1};
      const double n = std::hypot(axis[0], axis[1], axis[2]);
      const double psi[3] = {axis[0] / n * angle, axis[1] / n * angle, axis[2] / n * angle};
      const Response r = bt(x, rigid_motion(x, psi, t));
      std::printf("warp %.2f, rigid rotation %.1f rad: |f| / (|K| L) %.2e, E %.2e\n", warp, angle,
                  max_abs(r.f.data(), 24) / kscale, r.r.energy.stored);
      EXPECT_LT(max_abs(r.f.data(), 24), 1e-10 * kscale);
      EXPECT_LT(std::abs(r.r.energy.stored), 1e-20 * kscale);
    }
  }
}

/// The local field of a constant membrane strain e and curvature k (and the rigid-free drilling
/// rotation theta_z = omega = 0 here: u,y = v,x) at plane point (x, y): d's 6 values in local
/// axes [u v w th_x th_y th_z].
void linear_field(const double e[3], const double k[3], double x, double y, double out[6]) {
  out[0] = e[0] * x + 0.5 * e[2] * y;
  out[1] = e[1] * y + 0.5 * e[2] * x;
  out[2] = -0.5 * (k[0] * x * x + k[1] * y * y + k[2] * x * y);
  const double bx = k[0] * x + 0.5 * k[2] * y, by = k[1] * y + 0.5 * k[2] * x;  // -grad w
  out[3] = -by, out[4] = bx, out[5] = 0;
}

/// The element's global d of the local field, on the quad with plane coordinates p placed by Q0.
V24 field_d(const double p[4][3], const double e[3], const double k[3]) {
  V24 d{};
  for (int a = 0; a < 4; ++a) {
    double l[6];
    linear_field(e, k, p[a][0], p[a][1], l);
    for (int i = 0; i < 3; ++i) {
      d[3 * a + i] = Q0[3 * i] * l[0] + Q0[3 * i + 1] * l[1] + Q0[3 * i + 2] * l[2];
      d[12 + 3 * a + i] = Q0[3 * i] * l[3] + Q0[3 * i + 1] * l[4] + Q0[3 * i + 2] * l[5];
    }
  }
  return d;
}

/// The force of the element in plane axes: (f(d) - f(-d)) / 2 rotated back by Q0^T.
V24 local_force(const Quad& x, const V24& d) {
  V24 m = d;
  for (double& v : m) v = -v;
  const Response p = bt(x, d), n = bt(x, m);
  V24 out{};
  for (int b = 0; b < 8; ++b)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        out[3 * b + i] += Q0[3 * k + i] * 0.5 * (p.f[3 * b + k] - n.f[3 * b + k]);
  return out;
}

TEST(ShellBt, ConstantStrainPatchesGiveTheBoundaryTractions) {
  // An irregular quad: a constant membrane strain and a constant curvature, each exact nodal
  // forces sigma . n_a (n_a half the outward normals times lengths of the node's two sides):
  // the one-point element passes the patch test on any quad (the hourglass vector is orthogonal
  // to linear fields), so a patch of such elements does too.
  const double p[4][3] = {{0.0, 0.0, 0}, {2.0, 0.3, 0}, {1.7, 1.4, 0}, {0.2, 1.1, 0}};
  const Quad x = placed(p, Q0);
  const ShellSection& s = plate.elastic;
  const double t = s.thickness, nu = s.poissons_ratio;
  const double Am = s.youngs_modulus * t / (1 - nu * nu), Db = Am * t * t / 12;
  // Strains 1e-6 and curvatures 1e-5, t = 0.1 on a size of 2: the bending forces' error is the
  // coordinates' rounding (1e-16 of the size) against the bending displacements, and the
  // third-order terms (the membrane's stiffness times rotations cubed) against the bending's.
  const double e[3] = {1.1e-6, -0.7e-6, 0.9e-6}, k[3] = {0.8e-5, 1.3e-5, -0.6e-5}, z[3] = {};
  for (const bool bending : {false, true}) {
    const double* ek = bending ? k : e;
    const double c = bending ? Db : Am;
    const double S[3] = {c * (ek[0] + nu * ek[1]), c * (nu * ek[0] + ek[1]),
                         c * (1 - nu) / 2 * ek[2]};  // N or M (11, 22, 12)
    const V24 f = local_force(x, field_d(p, bending ? z : e, bending ? k : z));
    V24 exact{};
    for (int a = 0; a < 4; ++a) {
      const int n1 = (a + 1) % 4, n3 = (a + 3) % 4;
      const double nx = 0.5 * (p[n1][1] - p[n3][1]), ny = -0.5 * (p[n1][0] - p[n3][0]);
      const double fx = S[0] * nx + S[2] * ny, fy = S[2] * nx + S[1] * ny;
      if (bending)
        exact[12 + 3 * a + 1] = fx, exact[12 + 3 * a] = -fy;  // beta_x = th_y, beta_y = -th_x
      else
        exact[3 * a] = fx, exact[3 * a + 1] = fy;
    }
    const double rel = max_diff(f.data(), exact.data(), 24) / max_abs(exact.data(), 24);
    std::printf("%s patch on an irregular quad: force against the tractions %.2e relative\n",
                bending ? "bending" : "membrane", rel);
    EXPECT_LT(rel, bending ? 1e-7 : 1e-9);
  }
}

TEST(ShellBt, ConstantStrainsOnAParallelogramGiveTheLinearMitc4Force) {
  // Also with the nodes off the mid-surface (the offset's membrane-bending coupling: the section's
  // in Belytschko-Tsay, the membrane rows' in MITC4).
  for (const double offset : {0.0, 0.5 * plate.elastic.thickness, -0.3 * plate.elastic.thickness}) {
    ShellLayers s = plate;
    s.elastic.offset = offset;
    const Quad x = placed(parallelogram, Q0);
    M24 K{};
    shell4_stiffness(x.data(), s.elastic, K.data());
    const double e[3] = {1.1e-6, -0.7e-6, 0.9e-6}, k[3] = {0.8e-6, 1.3e-6, -0.6e-6};
    const V24 d = field_d(parallelogram, e, k);
    V24 fm{};
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) fm[i] += K[24 * i + j] * d[j];
    V24 m = d;
    for (double& v : m) v = -v;
    const Response p = bt(x, d, 0.1, s), n = bt(x, m, 0.1, s);
    V24 f{};
    for (int i = 0; i < 24; ++i) f[i] = 0.5 * (p.f[i] - n.f[i]);
    const double rel = max_diff(f.data(), fm.data(), 24) / max_abs(fm.data(), 24);
    std::printf(
        "membrane + bending on a parallelogram, offset %g: against MITC4's K d %.2e relative\n",
        offset, rel);
    EXPECT_LT(rel, 1e-9);
  }
}

TEST(ShellBt, ZeroEnergyModesWithAndWithoutHourglassControl) {
  for (const double warp : {0.0, 0.05})
    for (const double r : {0.0, 0.1}) {
      const M24 K = linearized(skew(warp), r);
      double asym = 0, kmax = max_abs(K.data(), 576);
      for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j) asym = std::max(asym, std::abs(K[24 * i + j] - K[24 * j + i]));
      std::vector<double> sym(576);
      for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 24; ++j) sym[24 * i + j] = 0.5 * (K[24 * i + j] + K[24 * j + i]);
      const std::vector<double> ev = testing::symmetric_eigenvalues(sym, 24);
      const double top = ev.back();
      int zero = 0;
      for (const double v : ev) zero += std::abs(v) < 1e-10 * top;
      std::printf(
          "warp %.2f, hourglass %.1f: %d zero eigenvalues; smallest others %.2e, "
          "largest zero %.2e (of the largest); K - K^T %.1e\n",
          warp, r, zero, ev[static_cast<std::size_t>(zero)] / top,
          std::abs(ev[static_cast<std::size_t>(zero - 1)]) / top, asym / kmax);
      EXPECT_EQ(zero, r == 0 ? 10 : 6);
      EXPECT_GT(ev[static_cast<std::size_t>(zero)], 1e-8 * top);
      EXPECT_GT(ev[0], -1e-10 * top);
      EXPECT_LT(asym, 1e-6 * kmax);
    }
}

TEST(ShellBt, EnergiesOfTheModesOfASquare) {
  // A square of side L = 2 in the x-y plane; the pattern h = (1, -1, 1, -1) on one DOF at a
  // time, amplitude a: gamma . h = 1, so q = a. b . b = 2 / L^2 = 0.5, A = 4:
  // k_m = r E t A (b.b) / 8 = r E t / 4 and k_b = r E t^3 / 96. The w mode (w = h, no rotation)
  // is the bilinear twist w = 4 x y / L^2, held by the shear alone: its exact Mindlin energy
  // 1/2 k G t int |grad w|^2 = 4/3 k G t a^2, whatever r.
  const double sq[4][3] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const auto I = rotation({0, 0, 1}, 0);
  const Quad x = placed(sq, I);
  const double h[4] = {1, -1, 1, -1}, a = 1e-5, r = 0.1;
  const ShellSection& s = plate.elastic;
  const double E = s.youngs_modulus, t = s.thickness, G = E / (2 * (1 + s.poissons_ratio));
  const double kGt = s.shear_factor * G * t;
  const struct {
    int dof;
    const char* name;
    double exact;
  } modes[] = {{0, "u", 0.5 * r * E * t / 4 * a * a},
               {1, "v", 0.5 * r * E * t / 4 * a * a},
               {12, "theta_x", 0.5 * r * E * t * t * t / 96 * a * a},
               {13, "theta_y", 0.5 * r * E * t * t * t / 96 * a * a},
               {2, "w", 4.0 / 3 * kGt * a * a}};
  for (const auto& m : modes) {
    V24 d{};
    for (int n = 0; n < 4; ++n) d[(m.dof < 12 ? 3 * n : 12 + 3 * n) + m.dof % 3] = a * h[n];
    const Response with = bt(x, d, r), without = bt(x, d, 0);
    const double held = m.dof == 2 ? with.r.energy.stored : with.r.hourglass;
    std::printf("%-7s hourglass: energy %.6e, exact %.6e (%.2e relative); with r = 0: %.2e\n",
                m.name, held, m.exact, held / m.exact - 1, without.r.energy.stored);
    EXPECT_NEAR(held / m.exact, 1, 1e-8);
    if (m.dof == 2)
      EXPECT_NEAR(without.r.energy.stored / m.exact, 1, 1e-8);  // physical: no coefficient
    else
      EXPECT_LT(std::abs(without.r.energy.stored), 1e-12 * m.exact);
  }
  // The other modes the one point alone would not see or sees at its centre, exact energies on
  // the square: a uniform shear (theta_y = a, w = 0: beta_x = a), 1/2 k G t A a^2; a uniform
  // drilling rotation theta_z = a, 1/2 drilling G t A a^2; the rotations' curl (theta_x = a x,
  // theta_y = a y: no curvature, the shear beta = a (y, -x)), 1/2 k G t int |beta|^2 = 4/3 k G t
  // a^2, held by the shear's variation.
  const double A = 4, alpha = s.drilling * G * t;
  const struct {
    const char* name;
    double exact;
    double th[3][2];  // theta_i = th[i][0] x + th[i][1] y + ... (see below)
    double th0[3];    // the uniform part
  } others[] = {{"shear", 0.5 * kGt * A * a * a, {}, {0, a, 0}},
                {"drilling", 0.5 * alpha * A * a * a, {}, {0, 0, a}},
                {"curl", 4.0 / 3 * kGt * a * a, {{a, 0}, {0, a}, {0, 0}}, {}}};
  for (const auto& m : others) {
    V24 d{};
    for (int n = 0; n < 4; ++n)
      for (int i = 0; i < 3; ++i)
        d[12 + 3 * n + i] = m.th0[i] + m.th[i][0] * sq[n][0] + m.th[i][1] * sq[n][1];
    const Response with = bt(x, d, r);
    std::printf("%-8s energy %.6e, exact %.6e (%.2e relative), hourglass part %.1e\n", m.name,
                with.r.energy.stored, m.exact, with.r.energy.stored / m.exact - 1,
                with.r.hourglass);
    EXPECT_NEAR(with.r.energy.stored / m.exact, 1, 1e-8);
    EXPECT_LT(with.r.hourglass, 1e-12 * m.exact);
  }
}

TEST(ShellBt, ForceIsTheEnergysDerivative) {
  // f = B^T fl with the frame's spin and log's tangent (to_global): the exact gradient of E, on a
  // warped element, at rest with strains ~1e-6 and after a rigid rotation of 2 rad plus strains
  // and local rotations ~1e-4 and ~1e-2, along three directions (central differences, h = 1e-2
  // of the state's size, 1e-3 at 1e-2: their error ~1e-8). Holding the frame (f = T^T fl alone)
  // would leave 2.7e-5 at 1e-4 (measured), of the order of the local rotations.
  const Quad x = skew(0.03);
  const double psi[3] = {1.2, -0.9, 1.3}, t[3] = {0.1, 0.2, -0.3};
  for (const double strain : {1e-6, 1e-4, 1e-2}) {
    V24 d = strain > 1e-5 ? rigid_motion(x, psi, t) : V24{};
    const V24 p = pattern(3);
    for (int i = 0; i < 24; ++i) d[i] += strain * p[i];
    const Response r = bt(x, d);
    for (const int seed : {7, 8, 9}) {
      const V24 dir = pattern(seed);
      const double hh = (strain < 1e-3 ? 1e-2 : 1e-3) * strain;  // rounding / truncation
      V24 dp = d, dm = d;
      for (int i = 0; i < 24; ++i) dp[i] += hh * dir[i], dm[i] -= hh * dir[i];
      const double dE = (bt(x, dp).r.energy.stored - bt(x, dm).r.energy.stored) / (2 * hh);
      double fd = 0;
      for (int i = 0; i < 24; ++i) fd += r.f[i] * dir[i];
      const double rel = std::abs(fd - dE) / std::abs(dE);
      std::printf("strain ~%.0e%s: f . v %.12e, dE/dv %.12e, %.2e relative\n", strain,
                  strain > 1e-5 ? " after 2 rad" : "", fd, dE, rel);
      EXPECT_LT(rel, 1e-7);
    }
  }
}

TEST(ShellBt, PlasticSectionAtThePoint) {
  // A J2 section (Simpson, 5 points): a membrane stretch of 3 yield strains writes the state of
  // each point through the thickness; the resultants are the section's at the element's strains
  // (shell_layers_update called here on shell4_bt_strains'), the dissipation positive, and a
  // rigid rotation of the stretched element leaves energy and state unchanged.
  ShellLayers s = inertia::testing::simpson_j2(section(0.01, 2e11, 0.3));
  const int n = shell4_bt_state_size(s);
  ASSERT_EQ(n, 5 * J2State::size);
  const double sq[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const auto I = rotation({0, 0, 1}, 0);
  const Quad x = placed(sq, I);
  V24 d{};
  const double e = 3e-3;
  d[3] = d[6] = e;  // nodes 1, 2 along x
  std::vector<double> committed(static_cast<std::size_t>(n)), trial(committed.size());
  V24 f{};
  const ShellBtResult r = shell4_bt(x.data(), s, 0.1, d.data(), committed, trial, f.data());
  double ek[6], R[9], nm[6];
  shell4_bt_strains(shell4_bt_reference(x.data()), x.data(), d.data(), ek, R);
  std::vector<double> t2(committed.size());
  const FiberEnergy direct = shell_layers_update(s, ek, committed, t2, nm, nullptr);
  std::printf(
      "stretch 3 e_y: N11 %.6e (direct %.6e, sigma_y t %.3e), alpha %.3e, dissipated %.3e\n",
      r.resultants[0], nm[0], 2e8 * 0.01, trial[J2State::equivalent_plastic_strain],
      r.energy.dissipated);
  EXPECT_NEAR(r.resultants[0], nm[0], 1e-9 * std::abs(nm[0]));
  EXPECT_NEAR(r.energy.stored, direct.stored + 0.0, 1e-9 * r.energy.stored + 1e-12);
  EXPECT_GT(trial[J2State::equivalent_plastic_strain], 1e-3);
  EXPECT_GT(r.energy.dissipated, 0);
  EXPECT_GT(std::abs(nm[0]), 2e8 * 0.01);
  // The same state turned rigidly by 1 rad about an oblique axis: the same trial state, energy.
  const double psi[3] = {0.4, 0.6, -0.5}, zero[3] = {};
  const V24 rig = rigid_motion(x, psi, zero);
  double Q[9];
  rotation_from_vector(psi, Q);
  V24 dr{};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) {
      double v = 0;
      for (int k = 0; k < 3; ++k) v += Q[3 * i + k] * (x[3 * a + k] + d[3 * a + k] - x[k]);
      dr[3 * a + i] = x[i] + v - x[3 * a + i];
      dr[12 + 3 * a + i] = rig[12 + 3 * a + i];
    }
  std::vector<double> trial2(committed.size());
  const ShellBtResult rr = shell4_bt(x.data(), s, 0.1, dr.data(), committed, trial2, f.data());
  std::printf("turned by 1 rad: energy %.12e against %.12e, state %.2e apart\n", rr.energy.stored,
              r.energy.stored, max_diff(trial.data(), trial2.data(), n));
  EXPECT_NEAR(rr.energy.stored, r.energy.stored, 1e-9 * r.energy.stored);
  EXPECT_LT(max_diff(trial.data(), trial2.data(), n), 1e-12);
}

TEST(ShellBt, CostPerElement) {
  // Figures for examples/guide/shells.md (no assertion on time: the machine is shared): the
  // kernel alone at a deformed state (2 rad rigid plus strains 1e-3), elastic; a J2 section (5
  // Simpson points) in its elastic range; the same flowing at every point (a membrane stretch of
  // 3 yield strains from the virgin state, the trial state discarded each call).
  const Quad x = skew(0.03);
  const double psi[3] = {1.2, -0.9, 1.3}, t[3] = {0.1, 0.2, -0.3};
  V24 d = rigid_motion(x, psi, t);
  const V24 p = pattern(3);
  for (int i = 0; i < 24; ++i) d[i] += 1e-3 * p[i];
  ShellLayers s = inertia::testing::simpson_j2(section(0.01, 2e11, 0.3));
  std::vector<double> committed(static_cast<std::size_t>(shell4_bt_state_size(s))),
      trial(committed.size());
  const double sq[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const Quad unit = placed(sq, rotation({0, 0, 1}, 0));
  V24 stretched{}, small{};
  stretched[3] = stretched[6] = 3e-3;
  small[3] = small[6] = 1e-4;
  using clock = std::chrono::steady_clock;
  V24 f{};
  double sink = 0;
  // As an explicit run calls it: the reference built once, no resultants (`cached`); or the
  // reference built on every call, with the resultants.
  // `given`: also the nodes' rotations computed before (a run computes them once per node for
  // the up to four elements around it).
  auto per_call = [&](const Quad& xq, const ShellLayers& sec, const V24& dq, int n,
                      bool cached = true, bool given = false) {
    const ShellBtReference ref = shell4_bt_reference(xq.data());
    double rotations[4][18];
    const double* QT[4];
    for (int a = 0; a < 4; ++a) {
      shell4_bt_node_rotation(dq.data() + 12 + 3 * a, rotations[a]);
      QT[a] = rotations[a];
    }
    double best = 1e300;  // the best of 5 batches
    for (int batch = 0; batch < 5; ++batch) {
      const auto t0 = clock::now();
      for (int i = 0; i < n; ++i) {
        if (cached)
          shell4_bt(ref, xq.data(), sec, 0.1, dq.data(), committed, trial, f.data(), false,
                    given ? QT : nullptr);
        else
          shell4_bt(xq.data(), sec, 0.1, dq.data(), committed, trial, f.data());
        sink += f[0];
      }
      best =
          std::min(best, std::chrono::duration<double, std::micro>(clock::now() - t0).count() / n);
    }
    return best;
  };
  const double elastic = per_call(x, plate, d, 20000);
  const double uncached = per_call(x, plate, d, 20000, false);
  const double given = per_call(x, plate, d, 20000, true, true);
  const double j2_elastic = per_call(unit, s, small, 5000);
  const double j2_flowing = per_call(unit, s, stretched, 2000);
  std::printf(
      "us per element: elastic %.3f (reference and resultants on every call: %.3f; the nodes' "
      "rotations given: %.3f), J2 (5 points) elastic range %.3f, flowing %.3f (%g)\n",
      elastic, uncached, given, j2_elastic, j2_flowing, sink != 0 ? 1.0 : 0.0);
  EXPECT_TRUE(std::isfinite(sink));
  EXPECT_GT(trial[J2State::equivalent_plastic_strain], 0);  // the last call flowed
}

TEST(ShellBt, CollapsedElementsAndShortStatesAreRefused) {
  const Quad x = skew();
  V24 d{};
  for (int i = 0; i < 3; ++i)  // every node to node 0
    for (int a = 1; a < 4; ++a) d[3 * a + i] = x[i] - x[3 * a + i];
  V24 f{};
  EXPECT_THROW(shell4_bt(x.data(), plate, 0.1, d.data(), {}, {}, f.data()), SolverError);
  ShellLayers s = plate;
  s.plastic = true;
  s.j2.yield_stress = 1e3;
  s.j2.lame = lame_from_young_poisson(1e6, 0.3);
  const V24 z{};
  EXPECT_THROW(shell4_bt(x.data(), s, 0.1, z.data(), {}, {}, f.data()), InternalError);
}

}  // namespace
}  // namespace inertia::fe
