// Behaviour of the reference elements, quadrature rules and element kernels (fe/element.hpp).
//
// Tolerances are relative to the natural scale of each quantity (||K||, rho * volume, ...) and
// stated next to each check; all random inputs come from fixed seeds.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "../support/symmetric_eigenvalues.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"

namespace inertia::fe {
namespace {

using Vec = std::vector<double>;

constexpr std::array volume_types{CellType::tet4, CellType::tet10, CellType::hex8};
constexpr std::array all_types{CellType::line2, CellType::tri3,  CellType::tri6, CellType::quad4,
                               CellType::tet4,  CellType::tet10, CellType::hex8};

int nodes(CellType t) { return info(t).num_nodes; }
int dim(CellType t) { return info(t).dim; }
bool is_simplex(CellType t) {
  return t == CellType::tri3 || t == CellType::tri6 || t == CellType::tet4 || t == CellType::tet10;
}
double reference_measure(CellType t) {
  if (is_simplex(t)) return dim(t) == 2 ? 0.5 : 1.0 / 6.0;
  return std::pow(2.0, dim(t));
}

/// Reference node coordinates (3 per node) in VTK order, written out independently of the source.
Vec reference_nodes(CellType t) {
  switch (t) {
    case CellType::line2:
      return {-1, 0, 0, 1, 0, 0};
    case CellType::tri3:
      return {0, 0, 0, 1, 0, 0, 0, 1, 0};
    case CellType::tri6:
      return {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0, 0, 0.5, 0.5, 0, 0, 0.5, 0};
    case CellType::quad4:
      return {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    case CellType::tet4:
      return {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    case CellType::tet10:
      return {0,   0,   0, 1, 0,   0, 0, 1, 0,   0,   0, 1,   0.5, 0,   0,
              0.5, 0.5, 0, 0, 0.5, 0, 0, 0, 0.5, 0.5, 0, 0.5, 0,   0.5, 0.5};
    case CellType::hex8:
      return {-1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1, -1, -1, 1, 1, -1, 1, 1, 1, 1, -1, 1, 1};
    default:
      return {};
  }
}

/// A uniformly random point of the reference cell.
std::array<double, 3> random_reference_point(CellType t, std::mt19937& rng) {
  std::array<double, 3> xi{};
  if (is_simplex(t)) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    do {
      for (int j = 0; j < dim(t); ++j) xi[j] = u(rng);
    } while (xi[0] + xi[1] + xi[2] > 1.0);
  } else {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int j = 0; j < dim(t); ++j) xi[j] = u(rng);
  }
  return xi;
}

/// A random affine image of the reference cell (positive orientation, 3D for every cell type)
/// with every node then moved by up to `wobble` times the cell size: a distorted, curved (tet10)
/// and, for faces, non-planar cell. Retries until the cell is comfortably non-inverted (and fails
/// the test, rather than hanging, if that never happens: a sign of broken shape functions).
Vec distorted_cell(CellType t, std::mt19937& rng, double wobble = 0.1) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec ref = reference_nodes(t);
  const double size = is_simplex(t) ? 1.0 : 2.0;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    double A[3][3], c[3];
    for (int i = 0; i < 3; ++i) {
      c[i] = 5.0 * u(rng);
      for (int j = 0; j < 3; ++j) A[i][j] = (i == j ? 1.5 : 0.0) + 0.4 * u(rng);
    }
    const double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                       A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                       A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    if (det < 0.5) continue;
    Vec x(ref.size());
    for (int a = 0; a < nodes(t); ++a)
      for (int i = 0; i < 3; ++i) {
        x[3 * a + i] = c[i] + wobble * size * u(rng);
        for (int j = 0; j < 3; ++j) x[3 * a + i] += A[i][j] * ref[3 * a + j];
      }
    if (dim(t) < 3 || min_scaled_jacobian(t, x) > 0.3) return x;
  }
  ADD_FAILURE() << "no valid distorted " << info(t).name << " in 1000 attempts";
  return reference_nodes(t);
}

double frobenius(const Vec& a) {
  double s = 0.0;
  for (double v : a) s += v * v;
  return std::sqrt(s);
}

Vec mat_vec(const Vec& A, const Vec& v) {
  const std::size_t n = v.size();
  Vec r(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) r[i] += A[i * n + j] * v[j];
  return r;
}

/// The six rigid-body modes (3 translations, 3 infinitesimal rotations about the centroid).
std::vector<Vec> rigid_body_modes(const Vec& x) {
  const std::size_t n = x.size() / 3;
  double c[3] = {0, 0, 0};
  for (std::size_t a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i) c[i] += x[3 * a + i] / n;
  std::vector<Vec> modes(6, Vec(3 * n, 0.0));
  for (std::size_t a = 0; a < n; ++a) {
    const double r[3] = {x[3 * a] - c[0], x[3 * a + 1] - c[1], x[3 * a + 2] - c[2]};
    for (int i = 0; i < 3; ++i) modes[i][3 * a + i] = 1.0;
    // omega x r for omega = e_x, e_y, e_z
    modes[3][3 * a + 1] = -r[2], modes[3][3 * a + 2] = r[1];
    modes[4][3 * a + 0] = r[2], modes[4][3 * a + 2] = -r[0];
    modes[5][3 * a + 0] = -r[1], modes[5][3 * a + 1] = r[0];
  }
  return modes;
}

/// Brute-force Ke = sum_q w detJ B^T D B with the 6 x 6 isotropic D (engineering shear) and the
/// 6 x 3n strain-displacement matrix B, over an arbitrary rule.
Vec stiffness_brute_force(CellType t, const Vec& x, double lambda, double mu,
                          const QuadratureRule& rule) {
  const int n = nodes(t), nd = 3 * n;
  double D[6][6] = {};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) D[i][j] = lambda;
    D[i][i] += 2 * mu;
    D[3 + i][3 + i] = mu;
  }
  Vec K(nd * nd, 0.0);
  for (int q = 0; q < rule.num_points; ++q) {
    Vec dN(3 * n);
    shape_gradients(t, rule.points + 3 * q, dN.data());
    double J[3][3] = {};
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) J[i][j] += x[3 * a + i] * dN[3 * a + j];
    const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                       J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                       J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    double inv[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
        inv[i][j] = (J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1]) / det;
      }
    std::vector<std::array<double, 6>> B(nd);  // column-wise
    for (int a = 0; a < n; ++a) {
      double g[3] = {};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) g[i] += dN[3 * a + j] * inv[j][i];
      B[3 * a + 0] = {g[0], 0, 0, g[1], 0, g[2]};
      B[3 * a + 1] = {0, g[1], 0, g[0], g[2], 0};
      B[3 * a + 2] = {0, 0, g[2], 0, g[1], g[0]};
    }
    for (int r = 0; r < nd; ++r)
      for (int c = 0; c < nd; ++c) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k)
          for (int l = 0; l < 6; ++l) s += B[r][k] * D[k][l] * B[c][l];
        K[r * nd + c] += rule.weights[q] * det * s;
      }
  }
  return K;
}

double factorial(int k) { return k <= 1 ? 1.0 : k * factorial(k - 1); }

/// Exact integral of x^i y^j z^k over the reference cell of t.
double exact_monomial_integral(CellType t, int i, int j, int k) {
  if (is_simplex(t))
    return factorial(i) * factorial(j) * factorial(k) / factorial(i + j + k + dim(t));
  const auto line = [](int p) { return p % 2 ? 0.0 : 2.0 / (p + 1); };
  return line(i) * (dim(t) >= 2 ? line(j) : 1.0) * (dim(t) >= 3 ? line(k) : 1.0);
}

constexpr double lambda = 1.7e3, mu = 0.9e3;  // arbitrary, unequal Lame parameters

// ---- shape functions ---------------------------------------------------------------------------

TEST(ShapeFunctions, SumToOneWithGradientsSummingToZeroAtRandomPoints) {
  std::mt19937 rng(1);
  for (CellType t : all_types) {
    for (int trial = 0; trial < 50; ++trial) {
      const auto xi = random_reference_point(t, rng);
      Vec N(nodes(t)), dN(3 * nodes(t));
      shape_values(t, xi.data(), N.data());
      shape_gradients(t, xi.data(), dN.data());
      double sum = 0.0, grad[3] = {0, 0, 0};
      for (int a = 0; a < nodes(t); ++a) {
        sum += N[a];
        for (int j = 0; j < 3; ++j) grad[j] += dN[3 * a + j];
      }
      EXPECT_NEAR(sum, 1.0, 1e-14) << info(t).name;
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(grad[j], 0.0, 1e-13) << info(t).name;
    }
  }
}

TEST(ShapeFunctions, AreOneAtTheirOwnNodeAndZeroAtEveryOtherNode) {
  for (CellType t : all_types) {
    const Vec ref = reference_nodes(t);
    for (int b = 0; b < nodes(t); ++b) {
      Vec N(nodes(t));
      shape_values(t, &ref[3 * b], N.data());
      for (int a = 0; a < nodes(t); ++a)
        EXPECT_NEAR(N[a], a == b ? 1.0 : 0.0, 1e-15) << info(t).name << " N" << a << " at " << b;
    }
  }
}

TEST(ShapeFunctions, GradientsMatchCentralDifferencesOfTheValues) {
  std::mt19937 rng(2);
  const double h = 1e-6;
  for (CellType t : all_types) {
    for (int trial = 0; trial < 10; ++trial) {
      auto xi = random_reference_point(t, rng);
      Vec dN(3 * nodes(t)), Np(nodes(t)), Nm(nodes(t));
      shape_gradients(t, xi.data(), dN.data());
      for (int j = 0; j < 3; ++j) {
        auto xp = xi, xm = xi;
        xp[j] += h, xm[j] -= h;
        shape_values(t, xp.data(), Np.data());
        shape_values(t, xm.data(), Nm.data());
        for (int a = 0; a < nodes(t); ++a) {
          const double fd = j < dim(t) ? (Np[a] - Nm[a]) / (2 * h) : 0.0;
          EXPECT_NEAR(dN[3 * a + j], fd, 1e-8) << info(t).name;  // O(h^2) + roundoff/h
        }
      }
    }
  }
}

// ---- quadrature
// ----------------------------------------------------------------------------------

TEST(Quadrature, IntegratesEveryMonomialUpToItsDegreeExactly) {
  // Simplices: total degree <= d; tensor cells: degree <= d in each direction.
  for (CellType t : all_types) {
    for (int d = 0; d <= 5; ++d) {
      {
        const QuadratureRule rule = quadrature(t, d);
        const int jmax = dim(t) >= 2 ? d : 0, kmax = dim(t) >= 3 ? d : 0;
        for (int i = 0; i <= d; ++i)
          for (int j = 0; j <= jmax; ++j)
            for (int k = 0; k <= kmax; ++k) {
              if (is_simplex(t) && i + j + k > d) continue;
              double sum = 0.0;
              for (int q = 0; q < rule.num_points; ++q) {
                const double* p = rule.points + 3 * q;
                sum += rule.weights[q] * std::pow(p[0], i) * std::pow(p[1], j) * std::pow(p[2], k);
              }
              EXPECT_NEAR(sum, exact_monomial_integral(t, i, j, k), 1e-15 * reference_measure(t))
                  << info(t).name << " degree " << d << ": x^" << i << " y^" << j << " z^" << k;
            }
      }
    }
  }
}

TEST(Quadrature, RulesHavePositiveWeightsAndPointsInsideTheReferenceCell) {
  for (CellType t : all_types)
    for (int d = 0; d <= 5; ++d) {
      const QuadratureRule rule = quadrature(t, d);
      ASSERT_GE(rule.num_points, 1);
      ASSERT_LE(rule.num_points, max_qpoints);
      for (int q = 0; q < rule.num_points; ++q) {
        const double* p = rule.points + 3 * q;
        EXPECT_GT(rule.weights[q], 0.0) << info(t).name << " degree " << d;
        for (int j = 0; j < 3; ++j) {
          if (j >= dim(t)) {
            EXPECT_EQ(p[j], 0.0);
          } else if (is_simplex(t)) {
            EXPECT_GT(p[j], 0.0) << info(t).name << " degree " << d;
          } else {
            EXPECT_LT(std::abs(p[j]), 1.0) << info(t).name << " degree " << d;
          }
        }
        if (is_simplex(t)) {
          EXPECT_LT(p[0] + p[1] + p[2], 1.0) << info(t).name << " degree " << d;
        }
      }
    }
}

TEST(Quadrature, ThrowsForADegreeBeyondTheTabulatedRules) {
  EXPECT_THROW(quadrature(CellType::tet4, 6), InternalError);
  EXPECT_THROW(quadrature(CellType::tri3, 6), InternalError);
  EXPECT_THROW(quadrature(CellType::hex8, 6), InternalError);
  EXPECT_THROW(quadrature(CellType::quad4, -1), InternalError);
}

TEST(Quadrature, KernelRulesHaveTheDocumentedPointCounts) {
  EXPECT_EQ(stiffness_rule(CellType::tet4).num_points, 1);
  EXPECT_EQ(stiffness_rule(CellType::tet10).num_points, 4);
  EXPECT_EQ(stiffness_rule(CellType::hex8).num_points, 8);
  EXPECT_EQ(mass_rule(CellType::tet4).num_points, 4);
  EXPECT_EQ(mass_rule(CellType::hex8).num_points, 8);
  EXPECT_EQ(mass_rule(CellType::quad4).num_points, 4);
  EXPECT_EQ(mass_rule(CellType::tri3).num_points, 3);
  EXPECT_GE(mass_rule(CellType::tet10).num_points, 11);  // degree 4
}

// ---- geometry
// ------------------------------------------------------------------------------------

TEST(Geometry, ReferenceCellsHaveTheReferenceMeasureAndScaledJacobianOne) {
  for (CellType t : all_types) {
    EXPECT_NEAR(measure(t, reference_nodes(t)), reference_measure(t), 1e-15 * reference_measure(t))
        << info(t).name;
    if (dim(t) == 3) {
      EXPECT_NEAR(min_scaled_jacobian(t, reference_nodes(t)), 1.0, 1e-14) << info(t).name;
    }
  }
}

TEST(Geometry, AStraightSidedTet10HasTheVolumeOfItsTet4) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    const Vec x4 = distorted_cell(CellType::tet4, rng);
    Vec x10(x4);
    const int edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
    for (const auto& e : edge)
      for (int i = 0; i < 3; ++i) x10.push_back(0.5 * (x4[3 * e[0] + i] + x4[3 * e[1] + i]));
    const double v4 = measure(CellType::tet4, x4);
    EXPECT_GT(v4, 0.0);
    EXPECT_NEAR(measure(CellType::tet10, x10), v4, 1e-14 * v4);
    EXPECT_NEAR(min_scaled_jacobian(CellType::tet10, x10), 1.0, 1e-12);
  }
}

TEST(Geometry, AParallelepipedHex8HasTheVolumeOfItsEdgeVectors) {
  const double e[3][3] = {{2.0, 0.1, 0.0}, {0.3, 1.5, 0.2}, {-0.1, 0.4, 0.8}};
  Vec x;
  for (int a = 0; a < 8; ++a) {
    const Vec ref = reference_nodes(CellType::hex8);
    for (int i = 0; i < 3; ++i) {
      double v = 1.0;  // arbitrary origin
      for (int k = 0; k < 3; ++k) v += 0.5 * (ref[3 * a + k] + 1.0) * e[k][i];
      x.push_back(v);
    }
  }
  const double volume = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                        e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                        e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  EXPECT_NEAR(measure(CellType::hex8, x), volume, 1e-14 * volume);
  EXPECT_NEAR(min_scaled_jacobian(CellType::hex8, x), 1.0, 1e-14);
}

TEST(Geometry, ScaledJacobianIsNegativeForAnInvertedCellAndPositiveForADistortedOne) {
  std::mt19937 rng(4);
  for (CellType t : volume_types) {
    Vec x = distorted_cell(t, rng);
    const double q = min_scaled_jacobian(t, x);
    EXPECT_GT(q, 0.0) << info(t).name;
    EXPECT_LE(q, 1.0 + 1e-12) << info(t).name;
    for (int i = 0; i < 3; ++i) std::swap(x[3 + i], x[6 + i]);  // swap nodes 1 and 2
    EXPECT_LT(min_scaled_jacobian(t, x), 0.0) << info(t).name;
  }
  // A flat tet (all four corners in a plane) is degenerate.
  const Vec flat{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  EXPECT_LE(min_scaled_jacobian(CellType::tet4, flat), 0.0);
}

// ---- stiffness
// -------------------------------------------------------------------------------------

TEST(Stiffness, IsSymmetricWithExactlyTheSixRigidBodyModesInItsNullSpace) {
  std::mt19937 rng(5);
  for (CellType t : volume_types) {
    const int nd = 3 * nodes(t);
    for (int trial = 0; trial < 5; ++trial) {
      const Vec x = distorted_cell(t, rng);
      Vec K(nd * nd);
      stiffness_linear_elastic(t, x, lambda, mu, K);
      const double norm = frobenius(K);
      for (int r = 0; r < nd; ++r)
        for (int c = 0; c < nd; ++c)
          EXPECT_NEAR(K[r * nd + c], K[c * nd + r], 1e-14 * norm) << info(t).name;
      for (const Vec& mode : rigid_body_modes(x))
        EXPECT_LT(frobenius(mat_vec(K, mode)), 1e-12 * norm * frobenius(mode)) << info(t).name;
      const Vec eig = testing::symmetric_eigenvalues(K, nd);
      const double largest = eig.back();
      int zeros = 0;
      for (double e : eig) {
        EXPECT_GT(e, -1e-12 * largest) << info(t).name;  // positive semi-definite
        if (std::abs(e) < 1e-10 * largest) ++zeros;
      }
      EXPECT_EQ(zeros, 6) << info(t).name;
      EXPECT_GT(eig[6], 1e-6 * largest) << info(t).name;  // no spurious (hourglass) modes
    }
  }
}

TEST(Stiffness, EqualsTheBruteForceBTransposeDBOnDistortedCells) {
  std::mt19937 rng(6);
  for (CellType t : volume_types) {
    const int nd = 3 * nodes(t);
    const Vec x = distorted_cell(t, rng, 0.15);
    Vec K(nd * nd);
    stiffness_linear_elastic(t, x, lambda, mu, K);
    const Vec ref = stiffness_brute_force(t, x, lambda, mu, stiffness_rule(t));
    const double norm = frobenius(ref);
    for (int k = 0; k < nd * nd; ++k) EXPECT_NEAR(K[k], ref[k], 1e-13 * norm) << info(t).name;
  }
}

TEST(Stiffness, OfTheUnitCubeHex8MatchesThreePointGaussAndClosedFormEntries) {
  // The unit cube [0,1]^3 is affine, so 2x2x2 Gauss is exact and agrees with 3x3x3.
  Vec x = reference_nodes(CellType::hex8);
  for (double& v : x) v = 0.5 * (v + 1.0);
  Vec K(24 * 24);
  stiffness_linear_elastic(CellType::hex8, x, lambda, mu, K);
  const Vec ref =
      stiffness_brute_force(CellType::hex8, x, lambda, mu, quadrature(CellType::hex8, 5));
  const double norm = frobenius(ref);
  for (int k = 0; k < 24 * 24; ++k) EXPECT_NEAR(K[k], ref[k], 1e-14 * norm);
  // int (dN0/dx)^2 = 1/9 and int dN0/dx dN0/dy = 1/12 on the unit cube.
  EXPECT_NEAR(K[0], (lambda + 4 * mu) / 9, 1e-14 * norm);
  EXPECT_NEAR(K[1], (lambda + mu) / 12, 1e-14 * norm);
}

TEST(Stiffness, OfATet4MatchesTheConstantStrainFormula) {
  // Ke = V B^T D B with constant gradients; V = 1/6 for the reference tet.
  const Vec x = reference_nodes(CellType::tet4);
  Vec K(144);
  stiffness_linear_elastic(CellType::tet4, x, lambda, mu, K);
  const Vec ref =
      stiffness_brute_force(CellType::tet4, x, lambda, mu, quadrature(CellType::tet4, 1));
  for (int k = 0; k < 144; ++k) EXPECT_NEAR(K[k], ref[k], 1e-14 * frobenius(ref));
  EXPECT_NEAR(K[0], (lambda + 4 * mu) / 6, 1e-12);  // node 0, x-x: grad N0 = (-1, -1, -1)
}

TEST(Stiffness, IsRejectedForFaceCells) {
  Vec K(81);
  EXPECT_THROW(stiffness_linear_elastic(CellType::tri3, reference_nodes(CellType::tri3), 1, 1, K),
               InternalError);
}

// ---- patch test
// ------------------------------------------------------------------------------------

TEST(PatchTest, ALinearDisplacementGivesItsConstantStrainAndStress) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (CellType t : volume_types) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vec x = distorted_cell(t, rng);
      double A[3][3], b[3];
      for (int i = 0; i < 3; ++i) {
        b[i] = u(rng);
        for (int j = 0; j < 3; ++j) A[i][j] = 1e-3 * u(rng);
      }
      Vec disp(x.size());
      for (int a = 0; a < nodes(t); ++a)
        for (int i = 0; i < 3; ++i) {
          disp[3 * a + i] = b[i];
          for (int j = 0; j < 3; ++j) disp[3 * a + i] += A[i][j] * x[3 * a + j];
        }
      double strain[6], stress[6];
      strain_stress_linear_elastic(t, x, disp, lambda, mu, strain, stress);
      const double eps[6] = {A[0][0],
                             A[1][1],
                             A[2][2],
                             0.5 * (A[0][1] + A[1][0]),
                             0.5 * (A[1][2] + A[2][1]),
                             0.5 * (A[0][2] + A[2][0])};
      const double tr = eps[0] + eps[1] + eps[2];
      for (int k = 0; k < 6; ++k) {
        EXPECT_NEAR(strain[k], eps[k], 1e-13) << info(t).name << " component " << k;
        const double sigma = 2 * mu * eps[k] + (k < 3 ? lambda * tr : 0.0);
        EXPECT_NEAR(stress[k], sigma, 1e-13 * (lambda + mu)) << info(t).name << " component " << k;
      }
    }
  }
}

TEST(PatchTest, StiffnessEnergyOfAConstantStrainIsStressDoubleDotStrainTimesVolume) {
  // Exact for cells whose det J the stiffness rule integrates exactly: tet4, straight tet10, hex8.
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (CellType t : volume_types) {
    Vec x = distorted_cell(t, rng);
    if (t == CellType::tet10) {
      const int edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
      for (int e = 0; e < 6; ++e)
        for (int i = 0; i < 3; ++i)
          x[3 * (4 + e) + i] = 0.5 * (x[3 * edge[e][0] + i] + x[3 * edge[e][1] + i]);
    }
    double A[3][3];
    for (auto& row : A)
      for (double& v : row) v = u(rng);
    Vec disp(x.size(), 0.0);
    for (int a = 0; a < nodes(t); ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) disp[3 * a + i] += A[i][j] * x[3 * a + j];
    const int nd = 3 * nodes(t);
    Vec K(nd * nd);
    stiffness_linear_elastic(t, x, lambda, mu, K);
    const Vec Ku = mat_vec(K, disp);
    double energy = 0.0;
    for (int k = 0; k < nd; ++k) energy += disp[k] * Ku[k];
    double s_e = 0.0, tr = 0.0;
    for (int i = 0; i < 3; ++i) tr += A[i][i];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double e = 0.5 * (A[i][j] + A[j][i]);
        s_e += (2 * mu * e + (i == j ? lambda * tr : 0.0)) * e;
      }
    const double expected = s_e * measure(t, x);
    EXPECT_NEAR(energy, expected, 1e-12 * std::abs(expected)) << info(t).name;
  }
}

// ---- mass
// --------------------------------------------------------------------------------------------

TEST(Mass, ConsistentIsSymmetricBlockDiagonalAndTotalsRhoTimesVolume) {
  std::mt19937 rng(9);
  const double rho = 7850.0;
  for (CellType t : all_types) {
    const int nd = 3 * nodes(t);
    const Vec x = distorted_cell(t, rng);
    Vec M(nd * nd);
    mass_consistent(t, x, rho, M);
    double total = 0.0;
    for (int r = 0; r < nd; ++r)
      for (int c = 0; c < nd; ++c) {
        total += M[r * nd + c];
        EXPECT_NEAR(M[r * nd + c], M[c * nd + r], 1e-14 * frobenius(M)) << info(t).name;
        if (r % 3 != c % 3) {
          EXPECT_EQ(M[r * nd + c], 0.0) << info(t).name;
        }
      }
    const double expected = rho * measure(t, x);
    EXPECT_NEAR(total / 3, expected, 1e-13 * expected) << info(t).name;
  }
}

TEST(Mass, ConsistentOfATet4IsTheTextbookMatrix) {
  // M_ab = rho V (1 + delta_ab) / 20.
  const Vec x = reference_nodes(CellType::tet4);
  Vec M(144);
  mass_consistent(CellType::tet4, x, 2.0, M);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      EXPECT_NEAR(M[(3 * a) * 12 + 3 * b], 2.0 / 6.0 * (a == b ? 2.0 : 1.0) / 20.0, 1e-16);
}

TEST(Mass, LumpedIsPositiveAndTotalsRhoTimesVolumeForEveryCell) {
  std::mt19937 rng(10);
  const double rho = 2.5;
  for (CellType t : all_types) {
    for (int trial = 0; trial < 5; ++trial) {
      const Vec x = distorted_cell(t, rng);
      Vec m(nodes(t));
      mass_lumped(t, x, rho, m);
      double total = 0.0;
      for (double v : m) {
        EXPECT_GT(v, 0.0) << info(t).name;
        total += v;
      }
      const double expected = rho * measure(t, x);
      EXPECT_NEAR(total, expected, 1e-13 * expected) << info(t).name;
    }
  }
}

TEST(Mass, LumpedTet4AndHex8AreRowSumsOfTheConsistentMass) {
  std::mt19937 rng(11);
  for (CellType t : {CellType::tet4, CellType::hex8}) {
    const int n = nodes(t), nd = 3 * n;
    const Vec x = distorted_cell(t, rng);
    Vec M(nd * nd), m(n);
    mass_consistent(t, x, 3.0, M);
    mass_lumped(t, x, 3.0, m);
    for (int a = 0; a < n; ++a) {
      double row = 0.0;
      for (int c = 0; c < nd; ++c) row += M[(3 * a) * nd + c];
      EXPECT_NEAR(m[a], row, 1e-14 * row) << info(t).name;
    }
  }
}

TEST(Mass, LumpedStraightTet10GivesCornersOneThirtySixthAndEdgesFourTwentySevenths) {
  // HRZ on an affine tet10: consistent diagonal 6/420 (corner) and 32/420 (edge) of rho V,
  // scaled to the total mass.
  const Vec x = reference_nodes(CellType::tet10);
  Vec m(10);
  mass_lumped(CellType::tet10, x, 6.0, m);  // rho V = 1
  for (int a = 0; a < 10; ++a) EXPECT_NEAR(m[a], a < 4 ? 1.0 / 36 : 4.0 / 27, 1e-15);
}

// ---- loads
// -------------------------------------------------------------------------------------------

TEST(Loads, BodyForceSumsToForceDensityTimesVolume) {
  std::mt19937 rng(12);
  const double b[3] = {1.0, -2.0, 9.81};
  for (CellType t : volume_types) {
    const Vec x = distorted_cell(t, rng);
    Vec f(x.size());
    body_force(t, x, b, f);
    const double v = measure(t, x);
    for (int i = 0; i < 3; ++i) {
      double sum = 0.0;
      for (int a = 0; a < nodes(t); ++a) sum += f[3 * a + i];
      EXPECT_NEAR(sum, b[i] * v, 1e-13 * std::abs(b[i] * v)) << info(t).name;
    }
  }
}

TEST(Loads, FaceTractionSumsToTractionTimesArea) {
  std::mt19937 rng(13);
  const double traction[3] = {3.0, -1.0, 0.5};
  for (CellType t : {CellType::line2, CellType::tri3, CellType::tri6, CellType::quad4}) {
    const Vec x = distorted_cell(t, rng);  // non-planar for quad4, curved for tri6
    Vec f(x.size());
    face_traction(t, x, traction, f);
    const double area = measure(t, x);
    for (int i = 0; i < 3; ++i) {
      double sum = 0.0;
      for (int a = 0; a < nodes(t); ++a) sum += f[3 * a + i];
      EXPECT_NEAR(sum, traction[i] * area, 1e-13 * area) << info(t).name;
    }
  }
}

TEST(Loads, PressureOnAUnitSquareGivesMinusPressureTimesAreaAlongTheNormal) {
  const Vec x{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};  // counter-clockwise seen from +z: n = +z
  const double p = 4.0;
  Vec f(12);
  face_pressure(CellType::quad4, x, p, f);
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(f[3 * a + 0], 0.0, 1e-15);
    EXPECT_NEAR(f[3 * a + 1], 0.0, 1e-15);
    EXPECT_NEAR(f[3 * a + 2], -p / 4, 1e-15);
  }
}

TEST(Loads, PressureOnATriangleFollowsTheRightHandRuleOnItsNodeOrder) {
  // (x1-x0) x (x2-x0) = (2,0,0) x (0,1,0) = (0,0,2): n = +z and area 1, so f_a = -p/3 e_z.
  const Vec x{0, 0, 1, 2, 0, 1, 0, 1, 1};
  Vec f(9);
  face_pressure(CellType::tri3, x, 3.0, f);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(f[3 * a + 2], -3.0 * 1.0 / 3, 1e-15);
  Vec reversed{0, 0, 1, 0, 1, 1, 2, 0, 1};  // nodes 1 and 2 swapped: n = -z
  face_pressure(CellType::tri3, reversed, 3.0, f);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(f[3 * a + 2], 1.0, 1e-15);
}

TEST(Loads, PressureOnAWarpedFaceSumsToMinusPressureTimesItsVectorArea) {
  // The vector area of any bilinear quad, planar or not, is (x2 - x0) x (x3 - x1) / 2.
  std::mt19937 rng(14);
  const double p = 2.5;
  for (int trial = 0; trial < 5; ++trial) {
    const Vec x = distorted_cell(CellType::quad4, rng, 0.2);
    Vec f(12);
    face_pressure(CellType::quad4, x, p, f);
    double d0[3], d1[3];
    for (int i = 0; i < 3; ++i) d0[i] = x[6 + i] - x[i], d1[i] = x[9 + i] - x[3 + i];
    const double area[3] = {0.5 * (d0[1] * d1[2] - d0[2] * d1[1]),
                            0.5 * (d0[2] * d1[0] - d0[0] * d1[2]),
                            0.5 * (d0[0] * d1[1] - d0[1] * d1[0])};
    for (int i = 0; i < 3; ++i) {
      const double sum = f[i] + f[3 + i] + f[6 + i] + f[9 + i];
      EXPECT_NEAR(sum, -p * area[i], 1e-13 * p * measure(CellType::quad4, x));
    }
  }
  // Flat tri6 (area 1/2, n = +z): consistent loads vanish at corners, p A / 3 on each mid-edge.
  Vec f(18);
  face_pressure(CellType::tri6, reference_nodes(CellType::tri6), p, f);
  for (int a = 0; a < 6; ++a) EXPECT_NEAR(f[3 * a + 2], a < 3 ? 0.0 : -p * 0.5 / 3, 1e-15);
}

// ---- stress measures
// ---------------------------------------------------------------------------------

TEST(VonMises, OfUniaxialStressIsItsMagnitudeAndOfPureShearIsRootThreeTimesTheShear) {
  for (int i = 0; i < 3; ++i) {
    double s[6] = {0, 0, 0, 0, 0, 0};
    s[i] = -250.0;
    EXPECT_NEAR(von_mises(s), 250.0, 1e-12);
    double shear[6] = {0, 0, 0, 0, 0, 0};
    shear[3 + i] = 40.0;
    EXPECT_NEAR(von_mises(shear), std::sqrt(3.0) * 40.0, 1e-12);
  }
  const double hydrostatic[6] = {7, 7, 7, 0, 0, 0};
  EXPECT_NEAR(von_mises(hydrostatic), 0.0, 1e-12);
}

// ---- points inside a cell
// ------------------------------------------------------------------------

TEST(PointInCell, ReferencePointInvertsTheMapOfDistortedCells) {
  std::mt19937 rng(11);
  for (CellType t : volume_types)
    for (int trial = 0; trial < 20; ++trial) {
      const Vec x = distorted_cell(t, rng);  // curved tet10, non-parallelepiped hex8
      const auto xi = random_reference_point(t, rng);
      double p[3], found[3];
      physical_point(t, x, xi.data(), p);
      ASSERT_TRUE(reference_point(t, x, p, found)) << info(t).name;
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(found[j], xi[j], 1e-12) << info(t).name;
      EXPECT_LE(reference_outside(t, found), 1e-12) << info(t).name;
      // A point beyond a face: found, and measured as outside.
      const double beyond[3] = {is_simplex(t) ? -0.2 : 1.2, xi[1], xi[2]};
      physical_point(t, x, beyond, p);
      ASSERT_TRUE(reference_point(t, x, p, found)) << info(t).name;
      EXPECT_NEAR(reference_outside(t, found), 0.2, 1e-12) << info(t).name;
    }
}

TEST(PointInCell, NodesAndEdgeMidpointsAreFoundOnTheBoundary) {
  for (CellType t : volume_types) {
    const Vec ref = reference_nodes(t);
    for (int a = 0; a < nodes(t); ++a) {
      double found[3];
      ASSERT_TRUE(reference_point(t, ref, &ref[3 * a], found));
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(found[j], ref[3 * a + j], 1e-14);
      EXPECT_LE(reference_outside(t, found), 1e-14);
    }
  }
}

TEST(PointInCell, ClampGivesTheNearestPointOfTheReferenceCell) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (CellType t : volume_types) {
    // Brute force: the nearest of a fine lattice of the reference cell, within its spacing.
    std::vector<std::array<double, 3>> lattice;
    const int m = 40;
    for (int i = 0; i <= m; ++i)
      for (int j = 0; j <= m; ++j)
        for (int k = 0; k <= m; ++k) {
          const std::array<double, 3> y =
              is_simplex(t) ? std::array<double, 3>{1.0 * i / m, 1.0 * j / m, 1.0 * k / m}
                            : std::array<double, 3>{-1.0 + 2.0 * i / m, -1.0 + 2.0 * j / m,
                                                    -1.0 + 2.0 * k / m};
          if (reference_outside(t, y.data()) <= 1e-12) lattice.push_back(y);
        }
    for (int trial = 0; trial < 50; ++trial) {
      double xi[3] = {u(rng), u(rng), u(rng)};
      const double original[3] = {xi[0], xi[1], xi[2]};
      clamp_to_reference(t, xi);
      EXPECT_LE(reference_outside(t, xi), 1e-15) << info(t).name;
      auto distance = [&](const double* y) {
        return std::hypot(y[0] - original[0], y[1] - original[1], y[2] - original[2]);
      };
      double nearest = 1e300;
      for (const auto& y : lattice) nearest = std::min(nearest, distance(y.data()));
      EXPECT_LE(distance(xi), nearest + 1e-15) << info(t).name;
      EXPECT_GE(distance(xi), nearest - (is_simplex(t) ? 1.0 : 2.0) * std::sqrt(3.0) / m)
          << info(t).name;
    }
  }
}

TEST(PointInCell, NearestPointOfTheReferenceCellsIsExact) {
  struct Case {
    CellType t;
    std::array<double, 3> p, nearest;
  };
  const double third = 1.0 / 3.0;
  for (const auto& [t, p, nearest] :
       {Case{CellType::tet4, {-0.5, 0.2, 0.3}, {0, 0.2, 0.3}},            // a face
        Case{CellType::tet10, {1, 1, 1}, {third, third, third}},          // the slanted face
        Case{CellType::tet4, {-1, -2, 0.5}, {0, 0, 0.5}},                 // an edge
        Case{CellType::tet10, {2, -1, -1}, {1, 0, 0}},                    // a corner
        Case{CellType::hex8, {2, 0.5, 3}, {1, 0.5, 1}},                   // an edge
        Case{CellType::hex8, {-0.25, -1.5, 0.75}, {-0.25, -1, 0.75}}}) {  // a face
    const Vec x = reference_nodes(t);
    double xi[3] = {NAN, NAN, NAN};  // not finite: starts from the centre
    const double d = nearest_reference_point(t, x, p.data(), xi);
    EXPECT_NEAR(d, std::hypot(p[0] - nearest[0], p[1] - nearest[1], p[2] - nearest[2]), 1e-14)
        << info(t).name;
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(xi[j], nearest[j], 1e-14) << info(t).name;
  }
}

TEST(PointInCell, NearestPointOfADistortedCellBeatsEveryPointOfAFineLattice) {
  // Affine cells (exact: the problem is convex) and distorted ones (a local minimum near Newton's
  // iterate, here the global one): no lattice point is nearer, and one is within its spacing.
  std::mt19937 rng(17);
  for (CellType t : volume_types)
    for (int trial = 0; trial < 6; ++trial) {
      const Vec x = distorted_cell(t, rng, trial % 2 ? 0.05 : 0.0);
      const auto inside = random_reference_point(t, rng);
      double beyond[3];  // well outside one face
      for (int j = 0; j < 3; ++j) beyond[j] = inside[j];
      beyond[trial % 3] = is_simplex(t) ? -0.4 : 1.4;
      double p[3], xi[3];
      physical_point(t, x, beyond, p);
      reference_point(t, x, p, xi);
      const double d = nearest_reference_point(t, x, p, xi);
      EXPECT_LE(reference_outside(t, xi), 1e-10) << info(t).name;
      double at[3];
      physical_point(t, x, xi, at);
      EXPECT_NEAR(std::hypot(at[0] - p[0], at[1] - p[1], at[2] - p[2]), d, 1e-14 * (1 + d));
      const int m = 30;
      double best = 1e300;
      for (int i = 0; i <= m; ++i)
        for (int j = 0; j <= m; ++j)
          for (int k = 0; k <= m; ++k) {
            const double y[3] = {is_simplex(t) ? 1.0 * i / m : -1.0 + 2.0 * i / m,
                                 is_simplex(t) ? 1.0 * j / m : -1.0 + 2.0 * j / m,
                                 is_simplex(t) ? 1.0 * k / m : -1.0 + 2.0 * k / m};
            if (reference_outside(t, y) > 1e-12) continue;
            double q[3];
            physical_point(t, x, y, q);
            best = std::min(best, std::hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]));
          }
      EXPECT_LE(d, best + 1e-12) << info(t).name << " trial " << trial;
      EXPECT_GT(d, best - 0.25) << info(t).name;  // lattice spacing: below 0.2 here
    }
}

TEST(PointInCell, PhysicalGradientsReproduceTheGradientOfEveryFieldTheCellRepresents) {
  // Linear fields on distorted cells (every type) and quadratic fields on a straight-sided
  // tet10: the gradient at a random point is exact.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (CellType t : volume_types)
    for (int trial = 0; trial < 10; ++trial) {
      const bool affine = trial % 2 == 1;
      const Vec x = distorted_cell(t, rng, affine ? 0.0 : 0.1);
      double c[10];
      for (double& v : c) v = u(rng);
      const bool higher = affine && t != CellType::tet4;
      auto field = [&](const double* y) {
        double f = c[0] + c[1] * y[0] + c[2] * y[1] + c[3] * y[2];
        if (higher && t == CellType::tet10)
          f += c[4] * y[0] * y[0] + c[5] * y[1] * y[2] + c[6] * y[2] * y[0] + c[7] * y[1] * y[1];
        return f;
      };
      auto gradient = [&](const double* y, double* g) {
        g[0] = c[1], g[1] = c[2], g[2] = c[3];
        if (higher && t == CellType::tet10) {
          g[0] += 2 * c[4] * y[0] + c[6] * y[2];
          g[1] += c[5] * y[2] + 2 * c[7] * y[1];
          g[2] += c[5] * y[1] + c[6] * y[0];
        }
      };
      const auto xi = random_reference_point(t, rng);
      double p[3], g[3 * max_nodes], expected[3];
      physical_point(t, x, xi.data(), p);
      EXPECT_GT(physical_gradients(t, x, xi.data(), g), 0.0);
      gradient(p, expected);
      for (int j = 0; j < 3; ++j) {
        double have = 0.0;
        for (int a = 0; a < nodes(t); ++a) have += field(&x[3 * a]) * g[3 * a + j];
        EXPECT_NEAR(have, expected[j], 1e-11) << info(t).name << (affine ? " affine" : "");
      }
    }
}

TEST(PointInCell, SmallStrainStressOfAGradientIsHookesLaw) {
  const double grad[9] = {1e-3, 2e-3, 0, 0, -4e-4, 6e-4, 8e-4, 0, 5e-4};
  double strain[6], stress[6];
  small_strain_stress(grad, lambda, mu, strain, stress);
  const double eps[6] = {1e-3, -4e-4, 5e-4, 1e-3, 3e-4, 4e-4};
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(strain[k], eps[k], 1e-18);
    EXPECT_NEAR(stress[k], 2 * mu * eps[k] + (k < 3 ? lambda * 11e-4 : 0.0), 1e-12 * mu);
  }
}

}  // namespace
}  // namespace inertia::fe
