// J2 plasticity at small strain: see plasticity.hpp.
#include "inertia/fe/plasticity.hpp"

#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"

namespace inertia::fe {

namespace {

// VTK order xx yy zz xy yz xz: component c is the pair (I[c], J[c]); the shear components count
// twice in a double contraction.
constexpr int I[6] = {0, 1, 2, 0, 1, 0};
constexpr int J[6] = {0, 1, 2, 1, 2, 2};
constexpr double weight[6] = {1, 1, 1, 2, 2, 2};

double contract(const double* a, const double* b) {
  double s = 0;
  for (int c = 0; c < 6; ++c) s += weight[c] * a[c] * b[c];
  return s;
}

}  // namespace

double j2_return_map(const J2Parameters& p, const double* eps, const double* committed,
                     double* trial, double* stress, double* A) {
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double H = p.isotropic_modulus + p.kinematic_modulus;
  const double* ep = committed + J2State::plastic_strain;
  const double alpha = committed[J2State::equivalent_plastic_strain];
  const double* beta = committed + J2State::back_stress;
  const double tr = eps[0] + eps[1] + eps[2];
  double xi[6], s[6];
  for (int c = 0; c < 6; ++c) {
    const double dev = eps[c] - (c < 3 ? tr / 3.0 : 0.0);
    s[c] = 2.0 * mu * (dev - ep[c]);
    xi[c] = s[c] - beta[c];
  }
  const double norm = std::sqrt(contract(xi, xi));
  const double f = norm - std::sqrt(2.0 / 3.0) * (p.yield_stress + p.isotropic_modulus * alpha);
  double dgamma = 0, n[6] = {0, 0, 0, 0, 0, 0};
  double next[J2State::size];
  for (int k = 0; k < J2State::size; ++k) next[k] = committed[k];
  if (f > 0) {
    dgamma = f / (2.0 * mu + 2.0 / 3.0 * H);
    for (int c = 0; c < 6; ++c) {
      n[c] = xi[c] / norm;
      s[c] -= 2.0 * mu * dgamma * n[c];
      next[J2State::plastic_strain + c] += dgamma * n[c];
      next[J2State::back_stress + c] += 2.0 / 3.0 * p.kinematic_modulus * dgamma * n[c];
    }
    next[J2State::equivalent_plastic_strain] += std::sqrt(2.0 / 3.0) * dgamma;
  }
  for (int k = 0; k < J2State::size; ++k) trial[k] = next[k];
  for (int c = 0; c < 6; ++c) stress[c] = s[c] + (c < 3 ? kappa * tr : 0.0);
  if (!A) return dgamma;
  // A point that flowed in the last step starts the next one on its yield surface (f = 0 to
  // round-off), where the response is elastic in unloading directions and elastic-plastic in
  // loading ones: it takes the elastic-plastic (continuum) tangent there. With the elastic one
  // Newton's first direction at a load step's start overshoots the flowing zone, and in a
  // perfectly plastic region the residual can rise along it from the first step length on.
  const bool on_surface = dgamma == 0 && alpha > 0 && norm > 0 &&
                          f > -1e-10 * (p.yield_stress + p.isotropic_modulus * alpha);
  if (on_surface)
    for (int c = 0; c < 6; ++c) n[c] = xi[c] / norm;
  const double theta = dgamma > 0 ? 1.0 - 2.0 * mu * dgamma / norm : 1.0;
  const double theta_bar =
      dgamma > 0 || on_surface ? 1.0 / (1.0 + H / (3.0 * mu)) - (1.0 - theta) : 0.0;
  // Full-index n (symmetric 3x3).
  double N[9];
  for (int c = 0; c < 6; ++c) N[3 * I[c] + J[c]] = N[3 * J[c] + I[c]] = n[c];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) {
          const double dij = i == j, dkl = k == l, dik = i == k, djl = j == l, dil = i == l,
                       djk = j == k;
          const double dev = 0.5 * (dik * djl + dil * djk) - dij * dkl / 3.0;
          A[(3 * i + j) * 9 + 3 * k + l] = kappa * dij * dkl + 2.0 * mu * theta * dev -
                                           2.0 * mu * theta_bar * N[3 * i + j] * N[3 * k + l];
        }
  return dgamma;
}

double j2_free_energy(const J2Parameters& p, const double* eps, const double* s) {
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double* ep = s + J2State::plastic_strain;
  const double tr = eps[0] + eps[1] + eps[2];
  double e[6];
  for (int c = 0; c < 6; ++c) e[c] = eps[c] - (c < 3 ? tr / 3.0 : 0.0) - ep[c];
  const double alpha = s[J2State::equivalent_plastic_strain];
  const double* beta = s + J2State::back_stress;
  double energy =
      0.5 * kappa * tr * tr + mu * contract(e, e) + 0.5 * p.isotropic_modulus * alpha * alpha;
  if (p.kinematic_modulus > 0) energy += 0.75 / p.kinematic_modulus * contract(beta, beta);
  return energy;
}

double j2_element(CellType t, std::span<const double> x, std::span<const double> u,
                  const J2Parameters& p, std::span<const double> committed, std::span<double> trial,
                  std::span<double> f, std::span<double> K, int stride, const Technology& tech,
                  double* hourglass) {
  INERTIA_CHECK(t == CellType::tet4 || t == CellType::tet10 || t == CellType::hex8, InternalError,
                "j2_element: a tet4, tet10 or hex8 cell, not ", info(t).name);
  INERTIA_CHECK(available(tech.formulation, t), InternalError, "j2_element: no ",
                name(tech.formulation), " ", info(t).name);
  const int n = info(t).num_nodes, nd = 3 * n;
  const QuadratureRule rule = stiffness_rule(t);
  const bool reduced = tech.formulation == Formulation::reduced;
  const bool bbar = tech.formulation == Formulation::bbar;
  const int points = j2_points(t, tech.formulation);
  INERTIA_CHECK(stride == J2State::size || stride >= J2State::with_history, InternalError,
                "j2_element: stride ", stride);
  const auto states = static_cast<std::size_t>(points * stride);
  INERTIA_CHECK(x.size() >= static_cast<std::size_t>(nd) &&
                    u.size() >= static_cast<std::size_t>(nd) && committed.size() >= states &&
                    trial.size() >= states &&
                    (f.empty() || f.size() >= static_cast<std::size_t>(nd)) &&
                    (K.empty() || K.size() >= static_cast<std::size_t>(nd * nd)),
                InternalError, "j2_element: short spans");
  for (auto& v : f) v = 0;
  for (auto& v : K) v = 0;
  double b[3 * max_nodes], V = 0;  // the mean gradients (bbar, reduced)
  if (bbar || reduced) V = hex8_mean_gradients(x.first(nd), b);
  double energy = 0;
  for (int q = 0; q < points; ++q) {
    double g[3 * max_nodes];
    double s = V;
    if (reduced)
      for (int k = 0; k < nd; ++k) g[k] = b[k];
    else
      s = rule.weights[q] * physical_gradients(t, x.first(nd), rule.points + 3 * q, g);
    double grad[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};  // du_i / dx_j
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) grad[3 * i + j] += u[3 * a + i] * g[3 * a + j];
    if (bbar) apply_technology(Formulation::bbar, u, b, n, grad);
    const double eps[6] = {grad[0],
                           grad[4],
                           grad[8],
                           0.5 * (grad[1] + grad[3]),
                           0.5 * (grad[5] + grad[7]),
                           0.5 * (grad[2] + grad[6])};
    double sigma[6], A[81];
    const double* c = committed.data() + q * stride;
    double* tr = trial.data() + q * stride;
    j2_return_map(p, eps, c, tr, sigma, K.empty() ? nullptr : A);
    const double psi = j2_free_energy(p, eps, tr);
    energy += s * psi;
    if (stride >= J2State::with_history) {
      const double* e0 = c + J2State::strain;
      const double* s0 = c + J2State::stress;
      double work = 0;
      for (int k = 0; k < 6; ++k)
        work += (k < 3 ? 0.5 : 1.0) * (s0[k] + sigma[k]) * (eps[k] - e0[k]);
      tr[J2State::dissipation] = c[J2State::dissipation] + work - (psi - j2_free_energy(p, e0, c));
      for (int k = 0; k < 6; ++k)
        tr[J2State::strain + k] = eps[k], tr[J2State::stress + k] = sigma[k];
    }
    const double S[9] = {sigma[0], sigma[3], sigma[5], sigma[3], sigma[1],
                         sigma[4], sigma[5], sigma[4], sigma[2]};
    // B-bar's force sum_q s_q B_bar_q^T sigma_q adds sum_q s_q p_q (b_a - g_a,q) to B^T sigma,
    // p = tr(sigma) / 3; here p = kappa theta_bar at every point (the flow is deviatoric), and
    // sum_q s_q g_a,q = V b_a: the term vanishes.
    if (!f.empty())
      for (int a = 0; a < n; ++a)
        for (int i = 0; i < 3; ++i)
          f[3 * a + i] +=
              s * (S[3 * i] * g[3 * a] + S[3 * i + 1] * g[3 * a + 1] + S[3 * i + 2] * g[3 * a + 2]);
    if (K.empty()) continue;
    // B[(a k)][(i j)] = d eps_ij / d u_ak (full index, symmetric in ij); R = B A; K += s R B^T.
    double B[3 * max_nodes][9], R[3 * max_nodes][9];
    for (int a = 0; a < n; ++a)
      for (int k = 0; k < 3; ++k) {
        double* row = B[3 * a + k];
        for (int ij = 0; ij < 9; ++ij) row[ij] = 0;
        for (int j = 0; j < 3; ++j) {
          row[3 * k + j] += 0.5 * g[3 * a + j];
          row[3 * j + k] += 0.5 * g[3 * a + j];
        }
        if (bbar)
          for (int i = 0; i < 3; ++i) row[4 * i] += (b[3 * a + k] - g[3 * a + k]) / 3.0;
      }
    for (int r = 0; r < nd; ++r)
      for (int mn = 0; mn < 9; ++mn) {
        double v = 0;
        for (int ij = 0; ij < 9; ++ij) v += B[r][ij] * A[ij * 9 + mn];
        R[r][mn] = v;
      }
    for (int r = 0; r < nd; ++r)
      for (int c2 = 0; c2 < nd; ++c2) {
        double v = 0;
        for (int mn = 0; mn < 9; ++mn) v += R[r][mn] * B[c2][mn];
        K[r * nd + c2] += s * v;
      }
  }
  if (reduced) {
    double gamma[32];
    const double C = tech.hourglass * p.lame.mu * hex8_hourglass_vectors(x.first(nd), b, V, gamma);
    const double e = add_hourglass_force(gamma, C, u.first(nd), f);
    energy += e;
    if (hourglass) *hourglass = e;
    if (!K.empty()) add_hourglass_stiffness(gamma, C, K);
  } else if (hourglass) {
    *hourglass = 0;
  }
  return energy;
}

int j2_points(CellType t, Formulation f) {
  return f == Formulation::reduced ? 1 : stiffness_rule(t).num_points;
}

}  // namespace inertia::fe
