/// \file hyperelastic.cpp
/// Large-deformation material laws and total-Lagrangian element kernels (see fe/hyperelastic.hpp).
///
/// Reference gradients of the shape functions at the stiffness rule's points are tabulated once
/// (one thread-safe function-local static). The element kernel is a template on the node and point
/// counts so every loop has constant bounds; all work arrays are on the stack.

#include "inertia/fe/hyperelastic.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "inertia/fe/element.hpp"
#include "inertia/fe/log_strain.hpp"

namespace inertia::fe {
namespace {

// ---- 3x3 helpers (row-major) --------------------------------------------------------------------

inline double det3(const double* A) {
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

inline double delta(int i, int j) { return i == j ? 1.0 : 0.0; }

/// Rotation R of the polar decomposition F = R S, det F > 0: Newton's iteration
/// X <- (g X + X^{-T} / g) / 2 from X = F, with Frobenius-norm scaling g = sqrt(|X^-1| / |X|)
/// while far from convergence (Higham, "Functions of Matrices", sec. 8.6). Every iterate has
/// det > 0; near the limit the error squares each step (e_{k+1} <= e_k^2 / 2), so a step smaller
/// than 1e-8 means the new iterate is orthogonal to round-off. F = I (or any rotation) is exact.
void polar_rotation(const double* F, double* R) {
  double X[9];
  for (int k = 0; k < 9; ++k) X[k] = F[k];
  bool scaled = true;
  for (int it = 0; it < 100; ++it) {
    double Xi[9];
    inverse3(X, Xi);
    double g = 1.0;
    if (scaled) {
      double nx = 0.0, ni = 0.0;
      for (int k = 0; k < 9; ++k) {
        nx += X[k] * X[k];
        ni += Xi[k] * Xi[k];
      }
      g = std::sqrt(std::sqrt(ni / nx));
    }
    double Y[9], step = 0.0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Y[3 * i + j] = 0.5 * (g * X[3 * i + j] + Xi[3 * j + i] / g);
        const double d = Y[3 * i + j] - X[3 * i + j];
        step += d * d;
      }
    for (int k = 0; k < 9; ++k) X[k] = Y[k];
    if (step < 1e-4) scaled = false;  // |step| < 1e-2: plain Newton, quadratic convergence
    if (step < 1e-16) break;          // |step| < 1e-8: X is the rotation to round-off
  }
  for (int k = 0; k < 9; ++k) R[k] = X[k];
}

// ---- material laws -----------------------------------------------------------------------------

double linear_elastic(Lame m, const double* F, double* P, double* A) {
  double eps[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) eps[3 * i + j] = 0.5 * (F[3 * i + j] + F[3 * j + i]) - delta(i, j);
  const double tr = eps[0] + eps[4] + eps[8];
  double ee = 0.0;
  for (int k = 0; k < 9; ++k) ee += eps[k] * eps[k];
  if (P)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] = 2.0 * m.mu * eps[3 * i + j] + m.lambda * tr * delta(i, j);
  if (A)
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J)
        for (int k = 0; k < 3; ++k)
          for (int L = 0; L < 3; ++L)
            A[(3 * i + J) * 9 + 3 * k + L] =
                m.mu * (delta(i, k) * delta(J, L) + delta(i, L) * delta(J, k)) +
                m.lambda * delta(i, J) * delta(k, L);
  return m.mu * ee + 0.5 * m.lambda * tr * tr;
}

double corotational(Lame m, const double* F, double* P, double* A) {
  const double J = det3(F);
  if (!(J > 0.0)) throw InvertedElement(J);
  double R[9], S[9];
  polar_rotation(F, R);
  for (int i = 0; i < 3; ++i)  // S = R^T F
    for (int j = 0; j < 3; ++j)
      S[3 * i + j] = R[i] * F[j] + R[3 + i] * F[3 + j] + R[6 + i] * F[6 + j];
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      S[3 * i + j] = S[3 * j + i] = 0.5 * (S[3 * i + j] + S[3 * j + i]);
  const double tr = S[0] + S[4] + S[8] - 3.0;  // tr(S - I)
  double ss = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double d = S[3 * i + j] - delta(i, j);
      ss += d * d;
    }
  if (P) {
    double T[9];  // 2 mu (S - I) + lambda tr(S - I) I
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        T[3 * i + j] = 2.0 * m.mu * (S[3 * i + j] - delta(i, j)) + m.lambda * tr * delta(i, j);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] = R[3 * i] * T[j] + R[3 * i + 1] * T[3 + j] + R[3 * i + 2] * T[6 + j];
  }
  if (A) {
    // G = tr(S) I - S: symmetric positive definite (eigenvalues s_i + s_j).
    double G[9], Gi[9];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) G[3 * i + j] = (tr + 3.0) * delta(i, j) - S[3 * i + j];
    inverse3(G, Gi);
    const double c = m.lambda * tr - 2.0 * m.mu;
    for (int k = 0; k < 3; ++k)
      for (int L = 0; L < 3; ++L) {
        const double* r = &R[3 * k];  // row k of R
        // v = e_L x r_k; w = G^{-1} v; dR/dF_kL = R [w]x.
        double v[3] = {0.0, 0.0, 0.0};
        const int L1 = (L + 1) % 3, L2 = (L + 2) % 3;
        v[L1] = -r[L2];
        v[L2] = r[L1];
        double w[3];
        for (int a = 0; a < 3; ++a)
          w[a] = Gi[3 * a] * v[0] + Gi[3 * a + 1] * v[1] + Gi[3 * a + 2] * v[2];
        // [w]x = [[0, -w2, w1], [w2, 0, -w0], [-w1, w0, 0]]
        const double W[9] = {0.0, -w[2], w[1], w[2], 0.0, -w[0], -w[1], w[0], 0.0};
        for (int i = 0; i < 3; ++i)
          for (int Jc = 0; Jc < 3; ++Jc) {
            const double dR =
                R[3 * i] * W[Jc] + R[3 * i + 1] * W[3 + Jc] + R[3 * i + 2] * W[6 + Jc];
            A[(3 * i + Jc) * 9 + 3 * k + L] = 2.0 * m.mu * delta(i, k) * delta(Jc, L) +
                                              m.lambda * R[3 * k + L] * R[3 * i + Jc] + c * dR;
          }
      }
    // Symmetric in exact arithmetic (the law is hyperelastic); make it so to round-off.
    for (int p = 0; p < 9; ++p)
      for (int q = p + 1; q < 9; ++q)
        A[p * 9 + q] = A[q * 9 + p] = 0.5 * (A[p * 9 + q] + A[q * 9 + p]);
  }
  return m.mu * ss + 0.5 * m.lambda * tr * tr;
}

double saint_venant_kirchhoff(Lame m, const double* F, double* P, double* A) {
  double E[9];
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 3; ++J)
      E[3 * I + J] = 0.5 * (F[I] * F[J] + F[3 + I] * F[3 + J] + F[6 + I] * F[6 + J] - delta(I, J));
  const double tr = E[0] + E[4] + E[8];
  double ee = 0.0;
  for (int k = 0; k < 9; ++k) ee += E[k] * E[k];
  if (P || A) {
    double S[9];
    for (int I = 0; I < 3; ++I)
      for (int J = 0; J < 3; ++J)
        S[3 * I + J] = m.lambda * tr * delta(I, J) + 2.0 * m.mu * E[3 * I + J];
    if (P)
      for (int i = 0; i < 3; ++i)
        for (int J = 0; J < 3; ++J)
          P[3 * i + J] = F[3 * i] * S[J] + F[3 * i + 1] * S[3 + J] + F[3 * i + 2] * S[6 + J];
    if (A) {
      double B[9];  // F F^T
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
          B[3 * i + k] =
              F[3 * i] * F[3 * k] + F[3 * i + 1] * F[3 * k + 1] + F[3 * i + 2] * F[3 * k + 2];
      for (int i = 0; i < 3; ++i)
        for (int J = 0; J < 3; ++J)
          for (int k = 0; k < 3; ++k)
            for (int L = 0; L < 3; ++L)
              A[(3 * i + J) * 9 + 3 * k + L] =
                  delta(i, k) * S[3 * J + L] + m.lambda * F[3 * i + J] * F[3 * k + L] +
                  m.mu * B[3 * i + k] * delta(J, L) + m.mu * F[3 * i + L] * F[3 * k + J];
    }
  }
  return 0.5 * m.lambda * tr * tr + m.mu * ee;
}

double neo_hookean(Lame m, const double* F, double* P, double* A) {
  double Fi[9];
  const double J = inverse3(F, Fi);
  if (!(J > 0.0)) throw InvertedElement(J);
  const double lnJ = std::log(J);
  double I1 = 0.0;
  for (int k = 0; k < 9; ++k) I1 += F[k] * F[k];
  if (P)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] = m.mu * F[3 * i + j] + (m.lambda * lnJ - m.mu) * Fi[3 * j + i];
  if (A) {
    const double c = m.mu - m.lambda * lnJ;
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J)
        for (int k = 0; k < 3; ++k)
          for (int L = 0; L < 3; ++L)
            A[(3 * i + J) * 9 + 3 * k + L] = m.mu * delta(i, k) * delta(J, L) +
                                             c * Fi[3 * J + k] * Fi[3 * L + i] +
                                             m.lambda * Fi[3 * J + i] * Fi[3 * L + k];
  }
  return 0.5 * m.mu * (I1 - 3.0) - m.mu * lnJ + 0.5 * m.lambda * lnJ * lnJ;
}

/// Hencky's law in the Lagrangian logarithmic strain E = 1/2 ln C (fe/log_strain.hpp):
/// W = mu E : E + lambda/2 tr(E)^2, T = 2 mu E + lambda tr(E) I, P = F (PP : T).
double hencky(Lame m, const double* F, double* P, double* A) {
  LogStrain k;
  log_strain(F, k);
  const double tr = k.E[0] + k.E[1] + k.E[2];
  double T[6], EE = 0;
  for (int c = 0; c < 6; ++c) {
    T[c] = 2.0 * m.mu * k.E[c] + (c < 3 ? m.lambda * tr : 0.0);
    EE += (c < 3 ? 1.0 : 2.0) * k.E[c] * k.E[c];
  }
  if (P || A) {
    double D[81], Pl[9];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int kk = 0; kk < 3; ++kk)
          for (int l = 0; l < 3; ++l)
            D[(3 * i + j) * 9 + 3 * kk + l] =
                m.lambda * delta(i, j) * delta(kk, l) +
                m.mu * (delta(i, kk) * delta(j, l) + delta(i, l) * delta(j, kk));
    log_strain_stress(k, T, D, P ? P : Pl, A);
    if (A)  // hyperelastic: A_iJkL = A_kLiJ; averaging removes the numerical part's asymmetry
      for (int r = 0; r < 9; ++r)
        for (int c = r + 1; c < 9; ++c)
          A[r * 9 + c] = A[c * 9 + r] = 0.5 * (A[r * 9 + c] + A[c * 9 + r]);
  }
  return m.mu * EE + 0.5 * m.lambda * tr * tr;
}

// ---- element tabulation ------------------------------------------------------------------------

struct Tabulation {
  QuadratureRule rule;
  int num_nodes = 0;
  std::array<double, 3 * max_qpoints * max_nodes> dN{};
};

constexpr std::array<CellType, 3> volume_types{CellType::tet4, CellType::tet10, CellType::hex8};

[[noreturn]] void unsupported(const char* what, CellType t) {
  throw InternalError(cat(what, ": unsupported cell type ", info(t).name));
}

const Tabulation& tabulation(CellType t) {
  static const auto tables = [] {
    std::array<Tabulation, volume_types.size()> all{};
    for (std::size_t c = 0; c < volume_types.size(); ++c) {
      Tabulation& tab = all[c];
      tab.rule = stiffness_rule(volume_types[c]);
      tab.num_nodes = info(volume_types[c]).num_nodes;
      for (int q = 0; q < tab.rule.num_points; ++q)
        shape_gradients(volume_types[c], tab.rule.points + 3 * q, &tab.dN[3 * q * tab.num_nodes]);
    }
    return all;
  }();
  for (std::size_t c = 0; c < volume_types.size(); ++c)
    if (volume_types[c] == t) return tables[c];
  unsupported("hyperelastic kernels", t);
}

void require_size(const char* what, std::size_t have, std::size_t need) {
  INERTIA_CHECK(have >= need, InternalError, what, ": span of ", have, " values, need ", need);
}

/// Physical reference gradients g[a][j] = dN_a/dX_j at point q; returns w_q det J0.
template <int NN>
inline double reference_gradients(const Tabulation& tab, int q, const double* X, double (*g)[3]) {
  const double* dN = &tab.dN[3 * q * NN];
  double J0[9] = {}, Ji[9];
  for (int a = 0; a < NN; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J0[3 * i + j] += X[3 * a + i] * dN[3 * a + j];
  const double s = tab.rule.weights[q] * inverse3(J0, Ji);
  for (int a = 0; a < NN; ++a)
    for (int j = 0; j < 3; ++j)
      g[a][j] = dN[3 * a] * Ji[j] + dN[3 * a + 1] * Ji[3 + j] + dN[3 * a + 2] * Ji[6 + j];
  return s;
}

/// F = I + sum_a u_a g_a^T; throws InvertedElement unless det F > 0.
template <int NN>
inline void deformation_gradient(const double* u, const double (*g)[3], double* F) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double v = delta(i, j);
      for (int a = 0; a < NN; ++a) v += u[3 * a + i] * g[a][j];
      F[3 * i + j] = v;
    }
  const double J = det3(F);
  if (!(J > 0.0)) throw InvertedElement(J);
}

/// Energy (returned), force f (3n, if non-null) and tangent K (3n x 3n, if non-null).
/// K: per point, T[a][i][3k+L] = s sum_J g_aJ A_iJkL (81 n multiply-adds), then the block upper
/// triangle K_ab,ik += sum_L T[a][i][3k+L] g_bL (27 n(n+1)/2), mirrored at the end; A's major
/// symmetry makes K symmetric, and forming half of it makes it so exactly.
template <int NN, int NQ>
double element_kernel(const Tabulation& tab, const double* X, const double* u,
                      const MaterialLaw& model, Lame lame, double* f, double* K) {
  constexpr int nd = 3 * NN;
  INERTIA_ASSERT(tab.rule.num_points == NQ && tab.num_nodes == NN);
  if (f)
    for (int k = 0; k < nd; ++k) f[k] = 0.0;
  if (K)
    for (int k = 0; k < nd * nd; ++k) K[k] = 0.0;
  double energy = 0.0;
  for (int q = 0; q < NQ; ++q) {
    double g[NN][3];
    const double s = reference_gradients<NN>(tab, q, X, g);
    double F[9];
    deformation_gradient<NN>(u, g, F);
    alignas(16) double P[9];
    alignas(16) double A[81];
    energy += s * material_response(model, lame, F, f ? P : nullptr, K ? A : nullptr);
    if (f)
      for (int a = 0; a < NN; ++a)
        for (int i = 0; i < 3; ++i)
          f[3 * a + i] +=
              s * (P[3 * i] * g[a][0] + P[3 * i + 1] * g[a][1] + P[3 * i + 2] * g[a][2]);
    if (K) {
      alignas(16) double T[NN][3][9];
      for (int a = 0; a < NN; ++a) {
        const double g0 = s * g[a][0], g1 = s * g[a][1], g2 = s * g[a][2];
        for (int i = 0; i < 3; ++i)
          for (int kL = 0; kL < 9; ++kL)
            T[a][i][kL] = g0 * A[(3 * i) * 9 + kL] + g1 * A[(3 * i + 1) * 9 + kL] +
                          g2 * A[(3 * i + 2) * 9 + kL];
      }
      for (int a = 0; a < NN; ++a)
        for (int b = a; b < NN; ++b)
          for (int i = 0; i < 3; ++i)
            for (int k = (a == b ? i : 0); k < 3; ++k)
              K[(3 * a + i) * nd + 3 * b + k] += T[a][i][3 * k] * g[b][0] +
                                                 T[a][i][3 * k + 1] * g[b][1] +
                                                 T[a][i][3 * k + 2] * g[b][2];
    }
  }
  if (K)
    for (int r = 0; r < nd; ++r)
      for (int c = r + 1; c < nd; ++c) K[c * nd + r] = K[r * nd + c];
  return energy;
}

}  // namespace

// ---- public API --------------------------------------------------------------------------------

Lame lame_from_young_poisson(double young, double poisson) {
  return {young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson)),
          young / (2.0 * (1.0 + poisson))};
}

InvertedElement::InvertedElement(double J)
    : SolverError(cat("inverted element (J = ", J,
                      " at a quadrature point; a load or motion applied abruptly can do this: "
                      "ramp it with a longer or smooth_step amplitude)")),
      J_(J) {}

double material_response(const MaterialLaw& model, Lame lame, const double* F, double* P,
                         double* A) {
  return model.response(lame, F, P, A);
}

namespace {

constexpr MaterialLaw laws[] = {
    {"linear_elastic", true, "small-strain linear elasticity (Hooke)", linear_elastic},
    {"corotational", false, "corotated linear elasticity (the rotation of F removed)",
     corotational},
    {"saint_venant_kirchhoff", false, "St. Venant-Kirchhoff: PK2 = lambda tr(E) I + 2 mu E",
     saint_venant_kirchhoff},
    {"neo_hookean", false, "compressible Neo-Hookean", neo_hookean},
    {"hencky", false,
     "Hencky: logarithmic strain E = 1/2 ln C, T = lambda tr(E) I + 2 mu E (takes plasticity)",
     hencky},
};

}  // namespace

std::span<const MaterialLaw> material_laws() { return laws; }

const MaterialLaw* find_material_law(std::string_view name) {
  for (const auto& law : laws)
    if (law.name == name) return &law;
  return nullptr;
}

const MaterialLaw& material_law(std::string_view name) {
  const MaterialLaw* law = find_material_law(name);
  INERTIA_CHECK(law, InternalError, "no material law called '", name, "'");
  return *law;
}

void cauchy_stress(const double* F, const double* P, double* sigma) {
  const double r = 1.0 / det3(F);
  double s[9];  // P F^T / J
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      s[3 * i + j] =
          r * (P[3 * i] * F[3 * j] + P[3 * i + 1] * F[3 * j + 1] + P[3 * i + 2] * F[3 * j + 2]);
  sigma[0] = s[0];
  sigma[1] = s[4];
  sigma[2] = s[8];
  sigma[3] = 0.5 * (s[1] + s[3]);
  sigma[4] = 0.5 * (s[5] + s[7]);
  sigma[5] = 0.5 * (s[2] + s[6]);
}

void green_lagrange_strain(const double* F, double* E) {
  const auto c = [F](int I, int J) {
    return F[I] * F[J] + F[3 + I] * F[3 + J] + F[6 + I] * F[6 + J];
  };
  E[0] = 0.5 * (c(0, 0) - 1.0);
  E[1] = 0.5 * (c(1, 1) - 1.0);
  E[2] = 0.5 * (c(2, 2) - 1.0);
  E[3] = 0.5 * c(0, 1);
  E[4] = 0.5 * c(1, 2);
  E[5] = 0.5 * c(0, 2);
}

void material_strain_stress(const MaterialLaw& model, Lame lame, const double* F, double* strain,
                            double* stress) {
  const double J = det3(F);
  if (!(J > 0.0)) throw InvertedElement(J);
  double P[9];
  material_response(model, lame, F, P);
  if (model.linear) {
    strain[0] = F[0] - 1.0;
    strain[1] = F[4] - 1.0;
    strain[2] = F[8] - 1.0;
    strain[3] = 0.5 * (F[1] + F[3]);
    strain[4] = 0.5 * (F[5] + F[7]);
    strain[5] = 0.5 * (F[2] + F[6]);
    stress[0] = P[0], stress[1] = P[4], stress[2] = P[8];
    stress[3] = P[1], stress[4] = P[5], stress[5] = P[2];
  } else {
    green_lagrange_strain(F, strain);
    cauchy_stress(F, P, stress);
  }
}

double hyperelastic_force_tangent(CellType t, std::span<const double> X, std::span<const double> u,
                                  const MaterialLaw& model, Lame lame, std::span<double> f,
                                  std::span<double> K) {
  const Tabulation& tab = tabulation(t);
  const int n = tab.num_nodes;
  require_size("hyperelastic_force_tangent: X", X.size(), 3 * n);
  require_size("hyperelastic_force_tangent: u", u.size(), 3 * n);
  double* fp = nullptr;
  double* Kp = nullptr;
  if (!f.empty()) {
    require_size("hyperelastic_force_tangent: f", f.size(), 3 * n);
    fp = f.data();
  }
  if (!K.empty()) {
    require_size("hyperelastic_force_tangent: K", K.size(), 9 * n * n);
    Kp = K.data();
  }
  switch (t) {
    case CellType::tet4:
      return element_kernel<4, 1>(tab, X.data(), u.data(), model, lame, fp, Kp);
    case CellType::tet10:
      return element_kernel<10, 4>(tab, X.data(), u.data(), model, lame, fp, Kp);
    case CellType::hex8:
      return element_kernel<8, 8>(tab, X.data(), u.data(), model, lame, fp, Kp);
    default:
      unsupported("hyperelastic_force_tangent", t);
  }
}

double hyperelastic_energy(CellType t, std::span<const double> X, std::span<const double> u,
                           const MaterialLaw& model, Lame lame) {
  return hyperelastic_force_tangent(t, X, u, model, lame, {}, {});
}

void hyperelastic_strain_stress(CellType t, std::span<const double> X, std::span<const double> u,
                                const MaterialLaw& model, Lame lame, double* strain,
                                double* stress) {
  const Tabulation& tab = tabulation(t);
  const int n = tab.num_nodes;
  require_size("hyperelastic_strain_stress: X", X.size(), 3 * n);
  require_size("hyperelastic_strain_stress: u", u.size(), 3 * n);
  const int nq = tab.rule.num_points;
  for (int k = 0; k < 6; ++k) strain[k] = stress[k] = 0.0;
  for (int q = 0; q < nq; ++q) {
    double g[max_nodes][3], F[9], e[6], s[6];
    double s_q = 0.0;
    switch (n) {
      case 4:
        s_q = reference_gradients<4>(tab, q, X.data(), g);
        deformation_gradient<4>(u.data(), g, F);
        break;
      case 8:
        s_q = reference_gradients<8>(tab, q, X.data(), g);
        deformation_gradient<8>(u.data(), g, F);
        break;
      default:
        s_q = reference_gradients<10>(tab, q, X.data(), g);
        deformation_gradient<10>(u.data(), g, F);
        break;
    }
    (void)s_q;
    material_strain_stress(model, lame, F, e, s);
    for (int k = 0; k < 6; ++k) {
      strain[k] += e[k] / nq;
      stress[k] += s[k] / nq;
    }
  }
}

}  // namespace inertia::fe
