// Hex8 element technology (fe/hex8_technology.hpp): the patch test for every formulation on a
// distorted patch, rigid-body modes, the hourglass energy of each hourglass mode against its
// closed form, and B-bar's insensitivity to the bulk modulus in a bending mode (which is what
// stops it locking).

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"

namespace inertia::fe {
namespace {

constexpr std::array<Formulation, 3> formulations{Formulation::full, Formulation::bbar,
                                                  Formulation::reduced};
constexpr double lambda = 1.15e11, mu = 7.7e10;
constexpr double corner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                 {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

Technology tech(Formulation f) { return {f, 0.05}; }

/// A non-affine hex8 near the cube [0, L]^3 (each node moved by up to 8 % of L).
std::vector<double> distorted(double L, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.08 * L, 0.08 * L);
  std::vector<double> x(24);
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = 0.5 * L * (1 + corner[a][i]) + jitter(rng);
  return x;
}

std::vector<double> stiffness(const std::vector<double>& x, Formulation f, double lam = lambda) {
  std::vector<double> K(24 * 24);
  stiffness_linear_elastic(CellType::hex8, x, lam, mu, tech(f), K);
  return K;
}

double energy(const std::vector<double>& K, const std::vector<double>& u) {
  double e = 0;
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 24; ++c) e += 0.5 * u[r] * K[r * 24 + c] * u[c];
  return e;
}

double largest(const std::vector<double>& K) {
  double m = 0;
  for (double v : K) m = std::max(m, std::abs(v));
  return m;
}

TEST(Hex8Technology, StiffnessIsSymmetricAndRigidMotionsHaveNoForce) {
  const std::vector<double> x = distorted(0.1, 3);
  for (const Formulation f : formulations) {
    const std::vector<double> K = stiffness(x, f);
    const double scale = largest(K);
    for (int r = 0; r < 24; ++r)
      for (int c = 0; c < 24; ++c)
        EXPECT_NEAR(K[r * 24 + c], K[c * 24 + r], 1e-12 * scale) << name(f);
    // Three translations and three rotations (u = w x x).
    for (int mode = 0; mode < 6; ++mode) {
      std::vector<double> u(24);
      for (int a = 0; a < 8; ++a) {
        const double* p = &x[3 * a];
        if (mode < 3) {
          u[3 * a + mode] = 1e-3;
        } else {
          double w[3] = {0, 0, 0};
          w[mode - 3] = 1e-3;
          u[3 * a] = w[1] * p[2] - w[2] * p[1];
          u[3 * a + 1] = w[2] * p[0] - w[0] * p[2];
          u[3 * a + 2] = w[0] * p[1] - w[1] * p[0];
        }
      }
      for (int r = 0; r < 24; ++r) {
        double ku = 0;
        for (int c = 0; c < 24; ++c) ku += K[r * 24 + c] * u[c];
        EXPECT_NEAR(ku, 0.0, 1e-13 * scale) << name(f) << " mode " << mode;
      }
    }
  }
}

TEST(Hex8Technology, PatchTestOnADistortedPatchForEveryFormulation) {
  // 2 x 2 x 2 cells, the middle node moved off the centre and every node jittered; a linear
  // displacement u = G x + c on the 26 boundary nodes; the middle node solved from its three
  // equations must follow the same linear field, and each cell's strain equal sym(G).
  constexpr double h = 0.05;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> jitter(-0.1 * h, 0.1 * h);
  std::vector<double> X(27 * 3);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        const int n = 9 * k + 3 * j + i;
        X[3 * n] = h * i + jitter(rng), X[3 * n + 1] = h * j + jitter(rng);
        X[3 * n + 2] = h * k + jitter(rng);
      }
  constexpr int middle = 13;
  X[3 * middle] += 0.2 * h, X[3 * middle + 1] -= 0.15 * h, X[3 * middle + 2] += 0.1 * h;
  const double G[9] = {1e-3, 2e-4, -3e-4, 5e-4, -7e-4, 1e-4, -2e-4, 6e-4, 4e-4};
  const double c[3] = {1e-4, -2e-4, 3e-4};
  auto exact = [&](int n, int i) {
    return G[3 * i] * X[3 * n] + G[3 * i + 1] * X[3 * n + 1] + G[3 * i + 2] * X[3 * n + 2] + c[i];
  };
  for (const Formulation f : formulations) {
    std::vector<double> K(81 * 81, 0.0);
    std::vector<std::array<int, 8>> cells;
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
          std::array<int, 8> nodes{};
          for (int a = 0; a < 8; ++a) {
            const int di = corner[a][0] > 0, dj = corner[a][1] > 0, dk = corner[a][2] > 0;
            nodes[a] = 9 * (k + dk) + 3 * (j + dj) + (i + di);
          }
          cells.push_back(nodes);
          std::vector<double> x(24);
          for (int a = 0; a < 8; ++a)
            for (int d = 0; d < 3; ++d) x[3 * a + d] = X[3 * nodes[a] + d];
          const std::vector<double> Ke = stiffness(x, f);
          for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b)
              for (int d = 0; d < 3; ++d)
                for (int e = 0; e < 3; ++e)
                  K[(3 * nodes[a] + d) * 81 + 3 * nodes[b] + e] += Ke[(3 * a + d) * 24 + 3 * b + e];
        }
    // K_mm u_m = -sum_b K_mb u_b over the boundary nodes b.
    double A[3][4];
    for (int d = 0; d < 3; ++d) {
      for (int e = 0; e < 3; ++e) A[d][e] = K[(3 * middle + d) * 81 + 3 * middle + e];
      double r = 0;
      for (int n = 0; n < 27; ++n)
        if (n != middle)
          for (int e = 0; e < 3; ++e) r -= K[(3 * middle + d) * 81 + 3 * n + e] * exact(n, e);
      A[d][3] = r;
    }
    for (int p = 0; p < 3; ++p)  // Gaussian elimination (K_mm is positive definite)
      for (int r = p + 1; r < 3; ++r) {
        const double m = A[r][p] / A[p][p];
        for (int col = p; col < 4; ++col) A[r][col] -= m * A[p][col];
      }
    double um[3];
    for (int r = 2; r >= 0; --r) {
      double s = A[r][3];
      for (int col = r + 1; col < 3; ++col) s -= A[r][col] * um[col];
      um[r] = s / A[r][r];
    }
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(um[d], exact(middle, d), 1e-12 * 1e-3 * h) << name(f) << " component " << d;
    // Each cell's strain (the formulation's) is sym(G).
    for (const auto& nodes : cells) {
      std::vector<double> x(24), u(24);
      for (int a = 0; a < 8; ++a)
        for (int d = 0; d < 3; ++d)
          x[3 * a + d] = X[3 * nodes[a] + d], u[3 * a + d] = exact(nodes[a], d);
      double grad[9];
      cell_gradient(CellType::hex8, x, u, f, grad);
      for (int k = 0; k < 9; ++k) EXPECT_NEAR(grad[k], G[k], 1e-13) << name(f);
      // K_e u_e are the nodal forces of the uniform stress sigma(sym G): V sigma b_a.
      double b[24], strain[6], sigma[6];
      const double V = hex8_mean_gradients(x, b);
      small_strain_stress(G, lambda, mu, strain, sigma);
      const double S[9] = {sigma[0], sigma[3], sigma[5], sigma[3], sigma[1],
                           sigma[4], sigma[5], sigma[4], sigma[2]};
      const std::vector<double> Ke = stiffness(x, f);
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) {
          double ku = 0, expected = 0;
          for (int col = 0; col < 24; ++col) ku += Ke[(3 * a + i) * 24 + col] * u[col];
          for (int j = 0; j < 3; ++j) expected += V * S[3 * i + j] * b[3 * a + j];
          EXPECT_NEAR(ku, expected, 1e-10 * std::abs(sigma[0]) * h * h) << name(f);
        }
    }
  }
}

TEST(Hex8Technology, HourglassModesOfACubeStoreTheirClosedFormEnergy) {
  // On the cube [0, L]^3 the mean gradients are +-1 / (4 L), so b . b = 3 / (2 L^2), and
  // gamma_alpha = h_alpha / 8: the mode u_i = d h_alpha has q = d, C = 3/2 kappa mu L, and
  // stores 1/2 C d^2 (the one-point part sees no strain).
  constexpr double L = 0.2, d = 1e-4;
  std::vector<double> x(24);
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = 0.5 * L * (1 + corner[a][i]);
  const std::vector<double> K = stiffness(x, Formulation::reduced);
  const double expected = 0.5 * (1.5 * 0.05 * mu * L) * d * d;
  for (int alpha = 0; alpha < 4; ++alpha)
    for (int i = 0; i < 3; ++i) {
      std::vector<double> u(24);
      for (int a = 0; a < 8; ++a) {
        const double* r = corner[a];
        const double h = alpha == 0   ? r[1] * r[2]
                         : alpha == 1 ? r[0] * r[2]
                         : alpha == 2 ? r[0] * r[1]
                                      : r[0] * r[1] * r[2];
        u[3 * a + i] = d * h;
      }
      EXPECT_NEAR(energy(K, u), expected, 1e-12 * expected) << "alpha " << alpha << " i " << i;
      double b[24], gamma[32];
      const double V = hex8_mean_gradients(x, b);
      const double C = 0.05 * mu * hex8_hourglass_vectors(x, b, V, gamma);
      EXPECT_NEAR(add_hourglass_force(gamma, C, u, {}), expected, 1e-12 * expected);
    }
}

TEST(Hex8Technology, BbarBendingEnergyDoesNotGrowWithTheBulkModulus) {
  // u_x = k x y on a distorted cell, less the uniform stretch that makes its mean dilatation
  // b . u zero: a bending mode. Full integration stores lambda times its pointwise dilatation
  // (it locks as lambda grows); B-bar only the mean, here zero.
  const std::vector<double> x = distorted(0.1, 9);
  std::vector<double> u(24);
  for (int a = 0; a < 8; ++a) u[3 * a] = 0.1 * x[3 * a] * x[3 * a + 1];
  double b[24], mean = 0;
  hex8_mean_gradients(x, b);
  for (int k = 0; k < 24; ++k) mean += b[k] * u[k];
  for (int a = 0; a < 8; ++a) u[3 * a] -= mean * x[3 * a];  // b . x-stretch = 1
  double check = 0;
  for (int k = 0; k < 24; ++k) check += b[k] * u[k];
  EXPECT_NEAR(check, 0.0, 1e-15);
  const double b1 = energy(stiffness(x, Formulation::bbar, lambda), u);
  const double b2 = energy(stiffness(x, Formulation::bbar, 1e4 * lambda), u);
  const double f1 = energy(stiffness(x, Formulation::full, lambda), u);
  const double f2 = energy(stiffness(x, Formulation::full, 1e4 * lambda), u);
  EXPECT_GT(f2 / f1, 100.0);
  EXPECT_NEAR(b2, b1, 1e-6 * b1);
  EXPECT_LT(b1, f1);
}

TEST(Hex8Technology, OnlyHex8HasBbarAndReduced) {
  for (const CellType t : {CellType::tet4, CellType::tet10}) {
    EXPECT_TRUE(available(Formulation::full, t));
    EXPECT_FALSE(available(Formulation::bbar, t));
    EXPECT_FALSE(available(Formulation::reduced, t));
    std::vector<double> x(3 * info(t).num_nodes), K(x.size() * x.size());
    EXPECT_THROW(stiffness_linear_elastic(t, x, lambda, mu, tech(Formulation::bbar), K),
                 InternalError);
  }
  EXPECT_TRUE(available(Formulation::reduced, CellType::hex8));
}

}  // namespace
}  // namespace inertia::fe
