// Behaviour of the large-deformation material laws and element kernels (fe/hyperelastic.hpp).
//
// Derivatives are checked against 4th-order central differences
//   f'(x) ~ (f(x - 2h) - 8 f(x - h) + 8 f(x + h) - f(x + 2h)) / (12 h),
// whose truncation (h^4) and round-off (eps / h) errors both stay far below the stated relative
// tolerances (h = 1e-3 on F, h = 2e-4 on element displacements: the quadratic tet10's local
// strains are the largest, and ln J's higher derivatives make the Neo-Hookean energy the least
// smooth; observed errors are at least 100 times below the tolerances). Relative errors are
// Frobenius norms of the difference over the norm of the reference quantity. All random inputs
// come from fixed seeds.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hyperelastic.hpp"

namespace inertia::fe {
namespace {

using Vec = std::vector<double>;
using Mat = std::array<double, 9>;

using Law = std::reference_wrapper<const MaterialLaw>;
const std::array<Law, 5> all_models{material_law("linear_elastic"), material_law("corotational"),
                                    material_law("saint_venant_kirchhoff"),
                                    material_law("neo_hookean"), material_law("hencky")};
const std::array<Law, 4> invariant_models{material_law("corotational"),
                                          material_law("saint_venant_kirchhoff"),
                                          material_law("neo_hookean"), material_law("hencky")};
constexpr std::array volume_types{CellType::tet4, CellType::tet10, CellType::hex8};

constexpr Lame lame{1.7, 0.9};  // arbitrary, unequal

std::string name(const MaterialLaw& m) { return std::string(m.name); }

int nodes(CellType t) { return info(t).num_nodes; }

double norm(const double* a, std::size_t n) {
  double s = 0.0;
  for (std::size_t k = 0; k < n; ++k) s += a[k] * a[k];
  return std::sqrt(s);
}
double norm(const Vec& a) { return norm(a.data(), a.size()); }

/// |a - b| / |b| (Frobenius).
double relative_error(const double* a, const double* b, std::size_t n) {
  double d = 0.0;
  for (std::size_t k = 0; k < n; ++k) d += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(d) / norm(b, n);
}
double relative_error(const Vec& a, const Vec& b) {
  return relative_error(a.data(), b.data(), a.size());
}

/// 4th-order central difference of a scalar function of one variable.
template <typename Fn>
double central_difference(Fn&& fn, double h) {
  return (fn(-2 * h) - 8 * fn(-h) + 8 * fn(h) - fn(2 * h)) / (12 * h);
}

Mat matmul(const Mat& a, const Mat& b) {
  Mat c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}
Mat transpose(const Mat& a) {
  Mat t{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[3 * i + j] = a[3 * j + i];
  return t;
}
Mat diag(double a, double b, double c) { return {a, 0, 0, 0, b, 0, 0, 0, c}; }
double det(const Mat& A) {
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/// Rotation by `angle` about the unit vector along `axis` (Rodrigues).
Mat rotation(std::array<double, 3> axis, double angle) {
  const double l = norm(axis.data(), 3);
  for (double& v : axis) v /= l;
  const double c = std::cos(angle), s = std::sin(angle);
  Mat R{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[3 * i + j] = (i == j ? c : 0.0) + (1 - c) * axis[i] * axis[j];
  R[1] -= s * axis[2], R[2] += s * axis[1];
  R[3] += s * axis[2], R[5] -= s * axis[0];
  R[6] -= s * axis[1], R[7] += s * axis[0];
  return R;
}

Mat random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  std::uniform_real_distribution<double> a(-M_PI, M_PI);
  return rotation({n(rng), n(rng), n(rng)}, a(rng));
}

/// F = Q1 diag(s) Q2^T with stretches s in [0.7, 1.4] and random rotations: det F > 0.
Mat random_deformation_gradient(std::mt19937& rng) {
  std::uniform_real_distribution<double> s(0.7, 1.4);
  const Mat Q1 = random_rotation(rng), Q2 = random_rotation(rng);
  return matmul(matmul(Q1, diag(s(rng), s(rng), s(rng))), transpose(Q2));
}

/// Random deformation gradients, plus states with repeated singular values (the identity, a pure
/// rotation, a half-turn, a rotated equibiaxial stretch, a rotated uniform dilatation).
std::vector<Mat> test_deformation_gradients() {
  std::mt19937 rng(11);
  std::vector<Mat> Fs;
  for (int k = 0; k < 8; ++k) Fs.push_back(random_deformation_gradient(rng));
  Fs.push_back(diag(1, 1, 1));
  Fs.push_back(random_rotation(rng));
  Fs.push_back(diag(-1, -1, 1));
  Fs.push_back(matmul(random_rotation(rng), diag(1.2, 1.2, 0.8)));
  Fs.push_back(matmul(random_rotation(rng), diag(0.9, 0.9, 0.9)));
  return Fs;
}

double energy(const MaterialLaw& m, const Mat& F) {
  return material_response(m, lame, F.data(), nullptr);
}
Mat stress(const MaterialLaw& m, const Mat& F) {
  Mat P{};
  material_response(m, lame, F.data(), P.data());
  return P;
}

// ---- elements ----------------------------------------------------------------------------------

Vec reference_nodes(CellType t) {
  switch (t) {
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

/// A random affine image of the reference cell with every node moved by up to `wobble` times the
/// cell size (a distorted, for tet10 curved, element), comfortably non-inverted.
Vec distorted_cell(CellType t, std::mt19937& rng, double wobble = 0.1) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec ref = reference_nodes(t);
  const double size = t == CellType::hex8 ? 2.0 : 1.0;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Mat A{};
    double c[3];
    for (int i = 0; i < 3; ++i) {
      c[i] = 5.0 * u(rng);
      for (int j = 0; j < 3; ++j) A[3 * i + j] = (i == j ? 1.5 : 0.0) + 0.4 * u(rng);
    }
    if (det(A) < 0.5) continue;
    Vec x(ref.size());
    for (int a = 0; a < nodes(t); ++a)
      for (int i = 0; i < 3; ++i) {
        x[3 * a + i] = c[i] + wobble * size * u(rng);
        for (int j = 0; j < 3; ++j) x[3 * a + i] += A[3 * i + j] * ref[3 * a + j];
      }
    if (min_scaled_jacobian(t, x) > 0.3) return x;
  }
  ADD_FAILURE() << "no valid distorted " << info(t).name;
  return ref;
}

/// Random displacements of up to `scale` times the element size per component (moderate strains).
Vec random_displacement(CellType t, std::mt19937& rng, double scale = 0.1) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double size = t == CellType::hex8 ? 2.0 : 1.0;
  Vec v(3 * nodes(t));
  for (double& x : v) x = scale * size * u(rng);
  return v;
}

/// Displacement of the homogeneous deformation x = F X (about the origin).
Vec homogeneous_displacement(const Vec& X, const Mat& F) {
  Vec u(X.size());
  for (std::size_t a = 0; a < X.size() / 3; ++a)
    for (int i = 0; i < 3; ++i) {
      u[3 * a + i] = -X[3 * a + i];
      for (int j = 0; j < 3; ++j) u[3 * a + i] += F[3 * i + j] * X[3 * a + j];
    }
  return u;
}

double element_energy(CellType t, const Vec& X, const Vec& u, const MaterialLaw& m) {
  return hyperelastic_energy(t, X, u, m, lame);
}
Vec element_force(CellType t, const Vec& X, const Vec& u, const MaterialLaw& m) {
  Vec f(3 * nodes(t));
  hyperelastic_force_tangent(t, X, u, m, lame, f, {});
  return f;
}

// ---- material point ----------------------------------------------------------------------------

TEST(MaterialPoint, StressMatchesCentralDifferencesOfTheEnergyDensity) {
  // |P - dW/dF (FD)| <= 1e-8 max(|P|, mu): relative to |P|, or to the stress scale mu at the
  // stress-free states (identity, rigid rotation) where P vanishes.
  const double h = 1e-3;
  for (const MaterialLaw& m : all_models)
    for (const Mat& F : test_deformation_gradients()) {
      const Mat P = stress(m, F);
      Mat fd{};
      for (int k = 0; k < 9; ++k)
        fd[k] = central_difference(
            [&](double d) {
              Mat G = F;
              G[k] += d;
              return energy(m, G);
            },
            h);
      double diff[9];
      for (int k = 0; k < 9; ++k) diff[k] = P[k] - fd[k];
      EXPECT_LT(norm(diff, 9), 1e-8 * std::max(norm(P.data(), 9), lame.mu)) << name(m);
    }
}

TEST(MaterialPoint, TangentMatchesCentralDifferencesOfTheStress) {
  // |A - dP/dF (FD)| <= 1e-7 |A|, including F with repeated singular values (corotational).
  const double h = 1e-3;
  for (const MaterialLaw& m : all_models)
    for (const Mat& F : test_deformation_gradients()) {
      std::array<double, 81> A{}, fd{};
      Mat P{};
      material_response(m, lame, F.data(), P.data(), A.data());
      for (int kl = 0; kl < 9; ++kl)
        for (int ij = 0; ij < 9; ++ij)
          fd[ij * 9 + kl] = central_difference(
              [&](double d) {
                Mat G = F;
                G[kl] += d;
                return stress(m, G)[ij];
              },
              h);
      EXPECT_LT(relative_error(A.data(), fd.data(), 81), 1e-7) << name(m);
    }
}

TEST(MaterialPoint, TangentHasMajorSymmetry) {
  // A_iJkL = A_kLiJ to 1e-14 |A| (every model is hyperelastic).
  for (const MaterialLaw& m : all_models)
    for (const Mat& F : test_deformation_gradients()) {
      std::array<double, 81> A{};
      material_response(m, lame, F.data(), nullptr, A.data());
      double asym = 0.0;
      for (int p = 0; p < 9; ++p)
        for (int q = 0; q < 9; ++q) asym = std::max(asym, std::abs(A[p * 9 + q] - A[q * 9 + p]));
      EXPECT_LE(asym, 1e-14 * norm(A.data(), 81)) << name(m);
    }
}

TEST(MaterialPoint, ReferenceStateHasZeroStressAndZeroEnergyAndTheLinearElasticTangent) {
  // W = 0, P = 0 (to 1e-15) and A = mu (d_ik d_JL + d_iL d_Jk) + lambda d_iJ d_kL (to 1e-15).
  const Mat I = diag(1, 1, 1);
  for (const MaterialLaw& m : all_models) {
    Mat P{};
    std::array<double, 81> A{};
    EXPECT_NEAR(material_response(m, lame, I.data(), P.data(), A.data()), 0.0, 1e-15) << name(m);
    for (double v : P) EXPECT_NEAR(v, 0.0, 1e-15) << name(m);
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J)
        for (int k = 0; k < 3; ++k)
          for (int L = 0; L < 3; ++L) {
            const double expected = lame.mu * ((i == k && J == L) + (i == L && J == k)) +
                                    lame.lambda * (i == J && k == L);
            EXPECT_NEAR(A[(3 * i + J) * 9 + 3 * k + L], expected, 1e-15) << name(m);
          }
  }
}

TEST(MaterialPoint, StressAndEnergyAreInvariantUnderARigidRotationOfTheDeformedState) {
  // P(Q F) = Q P(F) to 1e-12 max(|P|, mu), W(Q F) = W(F) to 1e-12 max(W, mu) (the floors are
  // the natural scales at the stress-free states among the test F).
  std::mt19937 rng(5);
  for (const MaterialLaw& m : invariant_models)
    for (const Mat& F : test_deformation_gradients()) {
      const Mat Q = random_rotation(rng);
      const Mat QF = matmul(Q, F);
      const double W = energy(m, F);
      EXPECT_NEAR(energy(m, QF), W, 1e-12 * std::max(W, lame.mu)) << name(m);
      const Mat expected = matmul(Q, stress(m, F));
      const Mat P = stress(m, QF);
      for (int k = 0; k < 9; ++k)
        EXPECT_NEAR(P[k], expected[k], 1e-12 * std::max(norm(expected.data(), 9), lame.mu))
            << name(m);
    }
}

TEST(MaterialPoint, LinearElasticIsNotRotationInvariantALargeRigidRotationStoresEnergy) {
  // Documented limitation: a 60 degree rigid rotation (no strain at all) gives W > 0 and P != 0.
  // eps = sym(Q) - I = (cos 60 - 1) on the two in-plane axes: W = 2 mu (1/2)^2 + lambda/2 (1)^2.
  const Mat Q = rotation({0, 0, 1}, M_PI / 3);
  const double W = energy(material_law("linear_elastic"), Q);
  EXPECT_NEAR(W, 0.5 * lame.mu + 0.5 * lame.lambda, 1e-14);
  EXPECT_GT(norm(stress(material_law("linear_elastic"), Q).data(), 9), 1.0);
  for (const MaterialLaw& m : invariant_models) EXPECT_NEAR(energy(m, Q), 0.0, 1e-14) << name(m);
}

TEST(MaterialPoint, CorotationalStressIsTheRotatedLinearStressOfTheStretch) {
  // F = Q U (U symmetric positive definite): P = Q (2 mu (U - I) + lambda tr(U - I) I) to 1e-13.
  std::mt19937 rng(9);
  const Mat V = random_rotation(rng), Q = random_rotation(rng);
  const Mat U = matmul(matmul(V, diag(1.3, 0.8, 1.1)), transpose(V));
  const double tr = U[0] + U[4] + U[8] - 3.0;
  Mat T{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      T[3 * i + j] = 2 * lame.mu * (U[3 * i + j] - (i == j)) + lame.lambda * tr * (i == j);
  const Mat expected = matmul(Q, T);
  const Mat P = stress(material_law("corotational"), matmul(Q, U));
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(P[k], expected[k], 1e-13);
}

TEST(MaterialPoint, NeoHookeanUniaxialStretchHasTheKnownLateralContractionAndCauchyStress) {
  // mu = lambda = 1, F = diag(1.5, s, s): P_22(s) = s - 1/s + ln(1.5 s^2)/s = 0 at
  // s = 0.8988206149 (to 1e-9), where sigma_11 = 1.1900481787 (to 1e-8).
  const Lame one{1.0, 1.0};
  const auto P22 = [&](double s) {
    const Mat F = diag(1.5, s, s);
    Mat P{};
    std::array<double, 81> A{};
    material_response(material_law("neo_hookean"), one, F.data(), P.data(), A.data());
    // dP_22/ds = dP_22/dF_22 + dP_22/dF_33 (both lateral stretches move together).
    return std::pair{P[4], A[4 * 9 + 4] + A[4 * 9 + 8]};
  };
  double s = 1.0;
  for (int it = 0; it < 50; ++it) {
    const auto [r, dr] = P22(s);
    s -= r / dr;
    if (std::abs(r) < 1e-15) break;
  }
  EXPECT_NEAR(s, 0.8988206149, 1e-9);
  const Mat F = diag(1.5, s, s);
  Mat P{};
  material_response(material_law("neo_hookean"), one, F.data(), P.data());
  double sigma[6];
  cauchy_stress(F.data(), P.data(), sigma);
  EXPECT_NEAR(sigma[0], 1.1900481787, 1e-8);
  for (int k = 1; k < 6; ++k) EXPECT_NEAR(sigma[k], 0.0, 1e-14);
}

TEST(MaterialPoint, CauchyStressIsSymmetricAndGreenLagrangeStrainIsHalfOfCMinusI) {
  // sigma = P F^T / J from P = F S (StVK) equals F S F^T / J (to 1e-13); E = (F^T F - I) / 2.
  std::mt19937 rng(3);
  const Mat F = random_deformation_gradient(rng);
  const Mat P = stress(material_law("saint_venant_kirchhoff"), F);
  double sigma[6], E[6];
  cauchy_stress(F.data(), P.data(), sigma);
  green_lagrange_strain(F.data(), E);
  const Mat C = matmul(transpose(F), F);
  const int vtk[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}};
  Mat Ef{}, S{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Ef[3 * i + j] = 0.5 * (C[3 * i + j] - (i == j));
  const double trE = Ef[0] + Ef[4] + Ef[8];
  for (int k = 0; k < 9; ++k) S[k] = 2 * lame.mu * Ef[k] + (k % 4 == 0 ? lame.lambda * trE : 0.0);
  const Mat FSFt = matmul(matmul(F, S), transpose(F));
  for (int k = 0; k < 6; ++k) {
    const int i = vtk[k][0], j = vtk[k][1];
    EXPECT_NEAR(E[k], Ef[3 * i + j], 1e-15);
    EXPECT_NEAR(sigma[k], FSFt[3 * i + j] / det(F), 1e-13);
  }
}

TEST(MaterialPoint, NonPositiveJacobianThrowsInvertedElementForCorotationalAndNeoHookean) {
  // A reflection (det F = -1) has no rotation R with S positive definite, nor a ln J.
  const Mat reflection = diag(-1, 1, 1);
  for (const MaterialLaw& m :
       {Law(material_law("corotational")), Law(material_law("neo_hookean"))}) {
    Mat P{};
    EXPECT_THROW(material_response(m, lame, reflection.data(), P.data()), InvertedElement)
        << name(m);
  }
}

// ---- element -----------------------------------------------------------------------------------

TEST(Element, ForceMatchesCentralDifferencesOfTheElementEnergy) {
  // Distorted tet4 / tet10 / hex8, random displacements of 10% of the element size:
  // |f - dE/du (FD)| <= 1e-8 |f|.
  std::mt19937 rng(21);
  for (CellType t : volume_types)
    for (const MaterialLaw& m : all_models)
      for (int trial = 0; trial < 3; ++trial) {
        const Vec X = distorted_cell(t, rng);
        const Vec u = random_displacement(t, rng);
        const Vec f = element_force(t, X, u, m);
        Vec fd(f.size());
        for (std::size_t k = 0; k < u.size(); ++k)
          fd[k] = central_difference(
              [&](double d) {
                Vec v = u;
                v[k] += d;
                return element_energy(t, X, v, m);
              },
              2e-4);
        EXPECT_LT(relative_error(f, fd), 1e-8) << info(t).name << " " << name(m);
      }
}

TEST(Element, TangentMatchesCentralDifferencesOfTheElementForceAndIsSymmetric) {
  // |K - df/du (FD)| <= 1e-7 |K|; K = K^T exactly.
  std::mt19937 rng(22);
  for (CellType t : volume_types)
    for (const MaterialLaw& m : all_models)
      for (int trial = 0; trial < 3; ++trial) {
        const Vec X = distorted_cell(t, rng);
        const Vec u = random_displacement(t, rng);
        const int nd = 3 * nodes(t);
        Vec f(nd), K(nd * nd), fd(nd * nd);
        const double W = hyperelastic_force_tangent(t, X, u, m, lame, f, K);
        EXPECT_NEAR(W, element_energy(t, X, u, m), 1e-14 * W);
        EXPECT_LT(relative_error(f, element_force(t, X, u, m)), 1e-15);
        for (int c = 0; c < nd; ++c)
          for (int r = 0; r < nd; ++r)
            fd[r * nd + c] = central_difference(
                [&](double d) {
                  Vec v = u;
                  v[c] += d;
                  return element_force(t, X, v, m)[r];
                },
                2e-4);
        EXPECT_LT(relative_error(K, fd), 1e-7) << info(t).name << " " << name(m);
        for (int r = 0; r < nd; ++r)
          for (int c = 0; c < nd; ++c) ASSERT_EQ(K[r * nd + c], K[c * nd + r]);
      }
}

TEST(Element, ReferenceStateHasZeroForceAndZeroEnergy) {
  // u = 0: energy and force vanish (to 1e-14 of the scale mu * volume).
  std::mt19937 rng(23);
  for (CellType t : volume_types)
    for (const MaterialLaw& m : all_models) {
      const Vec X = distorted_cell(t, rng);
      const Vec u(3 * nodes(t), 0.0);
      Vec f(u.size());
      const double W = hyperelastic_force_tangent(t, X, u, m, lame, f, {});
      const double scale = lame.mu * measure(t, X);
      EXPECT_NEAR(W, 0.0, 1e-14 * scale) << info(t).name << " " << name(m);
      for (double v : f) EXPECT_NEAR(v, 0.0, 1e-14 * scale) << info(t).name << " " << name(m);
    }
}

TEST(Element, TangentAtTheReferenceStateIsTheLinearElasticStiffness) {
  // K(u = 0) = stiffness_linear_elastic to 1e-12 |Ke|, for every model and element.
  std::mt19937 rng(24);
  for (CellType t : volume_types)
    for (const MaterialLaw& m : all_models) {
      const Vec X = distorted_cell(t, rng);
      const int nd = 3 * nodes(t);
      const Vec u(nd, 0.0);
      Vec K(nd * nd), Ke(nd * nd);
      hyperelastic_force_tangent(t, X, u, m, lame, {}, K);
      stiffness_linear_elastic(t, X, lame.lambda, lame.mu, Ke);
      EXPECT_LT(relative_error(K, Ke), 1e-12) << info(t).name << " " << name(m);
    }
}

TEST(Element, ALargeRigidRotationProducesNoForceAndNoEnergyForTheInvariantModels) {
  // u = (Q - I) X with a 90 degree rotation: f = 0 and energy = 0 (to 1e-13 mu * volume);
  // linear_elastic, for contrast, stores energy of order mu * volume.
  std::mt19937 rng(25);
  const Mat Q = rotation({1, 2, 3}, M_PI / 2);
  for (CellType t : volume_types) {
    const Vec X = distorted_cell(t, rng);
    const Vec u = homogeneous_displacement(X, Q);
    const double scale = lame.mu * measure(t, X);
    for (const MaterialLaw& m : invariant_models) {
      Vec f(u.size());
      const double W = hyperelastic_force_tangent(t, X, u, m, lame, f, {});
      EXPECT_NEAR(W, 0.0, 1e-13 * scale) << info(t).name << " " << name(m);
      EXPECT_LT(norm(f), 1e-13 * scale) << info(t).name << " " << name(m);
    }
    EXPECT_GT(element_energy(t, X, u, material_law("linear_elastic")), 0.1 * scale);
  }
}

TEST(Element, HomogeneousDeformationGivesTheMaterialPointEnergyAndAverages) {
  // u = (F - I) X: every point sees F, so energy = W(F) * volume (1e-12), the averaged strain is
  // E(F) and the averaged stress sigma(F) (1e-12); linear_elastic reports its small strain and
  // stress, equal to strain_stress_linear_elastic's. The tet10 is straight-sided here: the
  // 4-point rule does not integrate a curved tet10's cubic det J0 exactly, so its quadrature
  // volume differs from measure().
  std::mt19937 rng(26);
  for (CellType t : volume_types) {
    const Vec X = distorted_cell(t, rng, t == CellType::tet10 ? 0.0 : 0.1);
    const Mat F = random_deformation_gradient(rng);
    const Vec u = homogeneous_displacement(X, F);
    for (const MaterialLaw& m : all_models) {
      const double W = energy(m, F);
      EXPECT_NEAR(element_energy(t, X, u, m), W * measure(t, X), 1e-12 * W * measure(t, X))
          << info(t).name << " " << name(m);
      double strain[6], stress6[6], E[6], sigma[6];
      hyperelastic_strain_stress(t, X, u, m, lame, strain, stress6);
      if (m.linear) {
        strain_stress_linear_elastic(t, X, u, lame.lambda, lame.mu, E, sigma);
      } else {
        green_lagrange_strain(F.data(), E);
        cauchy_stress(F.data(), stress(m, F).data(), sigma);
      }
      // The material point alone (what a probe samples) reports the same.
      double point_strain[6], point_stress[6];
      material_strain_stress(m, lame, F.data(), point_strain, point_stress);
      for (int k = 0; k < 6; ++k) {
        EXPECT_NEAR(strain[k], E[k], 1e-12) << info(t).name << " " << name(m);
        EXPECT_NEAR(stress6[k], sigma[k], 1e-12 * norm(sigma, 6)) << info(t).name << " " << name(m);
        EXPECT_NEAR(point_strain[k], E[k], 1e-12) << info(t).name << " " << name(m);
        EXPECT_NEAR(point_stress[k], sigma[k], 1e-12 * norm(sigma, 6))
            << info(t).name << " " << name(m);
      }
    }
  }
}

TEST(Element, InvertedTetThrowsInvertedElementWithTheJacobianInItsMessage) {
  // Moving node 3 of the unit tet through the opposite face (z: 1 -> -1) gives det F = -1.
  const Vec X = reference_nodes(CellType::tet4);
  Vec u(12, 0.0);
  u[3 * 3 + 2] = -2.0;
  for (const MaterialLaw& m : all_models) {
    Vec f(12), K(144);
    try {
      hyperelastic_force_tangent(CellType::tet4, X, u, m, lame, f, K);
      ADD_FAILURE() << name(m) << ": no exception";
    } catch (const InvertedElement& e) {
      EXPECT_EQ(std::string(e.what()),
                "inverted element (J = -1 at a quadrature point; a load or motion applied "
                "abruptly can do this: ramp it with a longer or smooth_step amplitude)");
      EXPECT_EQ(e.jacobian(), -1.0);
    }
    EXPECT_THROW(hyperelastic_energy(CellType::tet4, X, u, m, lame), SolverError);
    double strain[6], stress6[6];
    EXPECT_THROW(hyperelastic_strain_stress(CellType::tet4, X, u, m, lame, strain, stress6),
                 InvertedElement);
  }
  // A quadratic tet whose edge node is pushed past the far face is inverted at some point.
  const Vec X10 = reference_nodes(CellType::tet10);
  Vec u10(30, 0.0);
  u10[3 * 7 + 2] = -1.5;  // edge node on (0, 3) pushed below z = 0
  EXPECT_THROW(hyperelastic_energy(CellType::tet10, X10, u10, material_law("neo_hookean"), lame),
               InvertedElement);
}

TEST(Element, LameParametersFromYoungAndPoisson) {
  const Lame l = lame_from_young_poisson(210e9, 0.3);
  EXPECT_NEAR(l.lambda, 210e9 * 0.3 / (1.3 * 0.4), 1e-6);
  EXPECT_NEAR(l.mu, 210e9 / 2.6, 1e-6);
}

TEST(Element, UnsupportedCellTypesAndShortSpansAreInternalErrors) {
  const Vec X(30, 0.0), u(30, 0.0);
  EXPECT_THROW(hyperelastic_energy(CellType::tri3, X, u, material_law("neo_hookean"), lame),
               InternalError);
  Vec f(3);
  EXPECT_THROW(hyperelastic_force_tangent(CellType::tet4, reference_nodes(CellType::tet4),
                                          Vec(12, 0.0), material_law("neo_hookean"), lame, f, {}),
               InternalError);
}

}  // namespace
}  // namespace inertia::fe
