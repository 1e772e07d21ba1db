// J2 plasticity at small and finite strain: see plasticity.hpp.
#include "inertia/fe/plasticity.hpp"

#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/log_strain.hpp"

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

/// The stress kappa tr(eps) I + 2 mu (dev eps - eps_p) of strain eps and plastic strain ep.
void elastic_stress(Lame lame, const double* eps, const double* ep, double* sigma) {
  const double kappa = lame.lambda + 2.0 * lame.mu / 3.0;
  const double tr = eps[0] + eps[1] + eps[2];
  for (int c = 0; c < 6; ++c)
    sigma[c] =
        2.0 * lame.mu * (eps[c] - (c < 3 ? tr / 3.0 : 0.0) - ep[c]) + (c < 3 ? kappa * tr : 0.0);
}

}  // namespace

void j2_yield_stress(const J2Parameters& p, double alpha, double& k, double& slope) {
  const auto& xs = p.curve_strain;
  const auto& ys = p.curve_stress;
  if (!xs.empty()) {
    const std::size_t n = xs.size();
    if (alpha >= xs[n - 1] || n == 1) {
      k = ys[n - 1], slope = 0;
      return;
    }
    std::size_t i = 1;
    while (xs[i] < alpha) ++i;  // xs[i - 1] <= alpha < xs[i] (alpha >= 0 = xs[0])
    slope = (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1]);
    k = ys[i - 1] + slope * (alpha - xs[i - 1]);
    return;
  }
  k = p.yield_stress + p.isotropic_modulus * alpha;
  slope = p.isotropic_modulus;
  if (p.voce_saturation > 0) {
    const double e = std::exp(-p.voce_rate * alpha);
    k += p.voce_saturation * (1 - e);
    slope += p.voce_saturation * p.voce_rate * e;
  }
}

namespace {

/// The stored energy of isotropic hardening, int_0^alpha (k(a) - k(0)) da.
double hardening_energy(const J2Parameters& p, double alpha) {
  const auto& xs = p.curve_strain;
  const auto& ys = p.curve_stress;
  if (!xs.empty()) {
    double energy = 0;
    for (std::size_t i = 1; i < xs.size() && xs[i - 1] < alpha; ++i) {
      const double b = std::min(alpha, xs[i]);
      const double slope = (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1]);
      const double kb = ys[i - 1] + slope * (b - xs[i - 1]);
      energy += 0.5 * (ys[i - 1] + kb - 2 * ys[0]) * (b - xs[i - 1]);
    }
    if (alpha > xs.back()) energy += (ys.back() - ys[0]) * (alpha - xs.back());
    return energy;
  }
  double energy = 0.5 * p.isotropic_modulus * alpha * alpha;
  if (p.voce_saturation > 0)
    energy += p.voce_saturation * (alpha - (1 - std::exp(-p.voce_rate * alpha)) / p.voce_rate);
  return energy;
}

/// The yield radius sqrt(2/3) k(alpha_n + sqrt(2/3) dgamma) R(dgamma) and its derivative in
/// dgamma.
void yield_radius(const J2Parameters& p, double alpha_n, double dgamma, double& radius,
                  double& derivative) {
  const double s = std::sqrt(2.0 / 3.0);
  double k, slope;
  j2_yield_stress(p, alpha_n + s * dgamma, k, slope);
  double R = 1, dR = 0;
  if (p.rate_sensitivity > 0 && p.frozen_rate > p.reference_rate) {
    R = 1 + p.rate_sensitivity * std::log(p.frozen_rate / p.reference_rate);
  } else if (p.rate_sensitivity > 0 && p.dt > 0 && dgamma > 0 && p.frozen_rate < 0) {
    const double rate = s * dgamma / p.dt;
    if (rate > p.reference_rate) {
      R = 1 + p.rate_sensitivity * std::log(rate / p.reference_rate);
      dR = p.rate_sensitivity / dgamma;
    }
  }
  radius = s * k * R;
  derivative = s * (s * slope * R + k * dR);
}

}  // namespace

double j2_return_map(const J2Parameters& p, const double* eps, const double* committed,
                     double* trial, double* stress, double* A) {
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double Hk = p.kinematic_modulus;
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
  double k0, slope0;
  j2_yield_stress(p, alpha, k0, slope0);
  if (p.rate_sensitivity > 0 && p.frozen_rate > p.reference_rate) {
    const double R = 1 + p.rate_sensitivity * std::log(p.frozen_rate / p.reference_rate);
    k0 *= R, slope0 *= R;
  }
  const double f = norm - std::sqrt(2.0 / 3.0) * k0;
  // The hardening modulus the tangent sees, (3/2) d(radius)/d(dgamma) (H_iso for linear
  // hardening).
  double H_iso = slope0;
  double dgamma = 0, n[6] = {0, 0, 0, 0, 0, 0};
  double next[J2State::size];
  for (int k = 0; k < J2State::size; ++k) next[k] = committed[k];
  if (f > 0) {
    if (!p.nonlinear()) {
      dgamma = f / (2.0 * mu + 2.0 / 3.0 * (p.isotropic_modulus + Hk));
    } else {
      // phi(dgamma) = |xi| - (2 mu + 2/3 H_kin) dgamma - radius(dgamma): decreasing, phi(0) = f
      // > 0 and phi(|xi| / (2 mu)) < 0. Newton, kept in the bracket by bisection.
      double lo = 0, hi = norm / (2.0 * mu);
      dgamma = f / (2.0 * mu + 2.0 / 3.0 * (slope0 + Hk));
      for (int it = 0; it < 100; ++it) {
        if (!(dgamma > lo && dgamma < hi)) dgamma = 0.5 * (lo + hi);
        double radius, derivative;
        yield_radius(p, alpha, dgamma, radius, derivative);
        const double phi = norm - (2.0 * mu + 2.0 / 3.0 * Hk) * dgamma - radius;
        (phi > 0 ? lo : hi) = dgamma;
        const double dphi = 2.0 * mu + 2.0 / 3.0 * Hk + derivative;
        const double step = phi / dphi;
        dgamma += step;
        if (std::abs(step) <= 1e-15 * dgamma || std::abs(phi) <= 1e-14 * norm) {
          yield_radius(p, alpha, dgamma, radius, derivative);
          H_iso = 1.5 * derivative;
          break;
        }
      }
    }
    for (int c = 0; c < 6; ++c) {
      n[c] = xi[c] / norm;
      s[c] -= 2.0 * mu * dgamma * n[c];
      next[J2State::plastic_strain + c] += dgamma * n[c];
      next[J2State::back_stress + c] += 2.0 / 3.0 * Hk * dgamma * n[c];
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
  const bool on_surface = dgamma == 0 && alpha > 0 && norm > 0 && f > -1e-10 * k0;
  if (on_surface)
    for (int c = 0; c < 6; ++c) n[c] = xi[c] / norm;
  const double H = H_iso + Hk;
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

double j2_dissipation(const J2Parameters& p, double alpha_n, double alpha) {
  const double d_alpha = alpha - alpha_n;
  if (!(d_alpha > 0)) return 0;
  double k0, k, slope;
  j2_yield_stress(p, 0, k0, slope);
  j2_yield_stress(p, alpha, k, slope);
  double R = 1;  // yield_radius's factor
  if (p.rate_sensitivity > 0) {
    const double rate = p.frozen_rate >= 0 ? p.frozen_rate : p.dt > 0 ? d_alpha / p.dt : 0;
    if (rate > p.reference_rate) R = 1 + p.rate_sensitivity * std::log(rate / p.reference_rate);
  }
  return d_alpha * (k0 + (R - 1) * k);
}

double j2_free_energy(const J2Parameters& p, const double* eps, const double* s) {
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double* ep = s + J2State::plastic_strain;
  const double tr = eps[0] + eps[1] + eps[2];
  double e[6];
  for (int c = 0; c < 6; ++c) e[c] = eps[c] - (c < 3 ? tr / 3.0 : 0.0) - ep[c];
  const double alpha = s[J2State::equivalent_plastic_strain];
  const double* beta = s + J2State::back_stress;
  double energy = 0.5 * kappa * tr * tr + mu * contract(e, e) + hardening_energy(p, alpha);
  if (p.kinematic_modulus > 0) energy += 0.75 / p.kinematic_modulus * contract(beta, beta);
  return energy;
}

namespace {

/// M^-T of a 3x3 matrix M (row-major) into out (fe::inverse3, transposed); returns det M.
double inverse_transpose(const double* M, double* out) {
  double inverse[9];
  const double det = inverse3(M, inverse);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[3 * i + j] = inverse[3 * j + i];
  return det;
}

/// F-bar's G^T P at one point: phi_ai = r (P_iJ g_aJ + 1/3 (P : F) (F0^-T_iM b_aM - F^-T_iM g_aM)),
/// r = (J0 / J)^(1/3).
void fbar_phi(int n, const double* g, const double* b, const double* F, const double* FinvT,
              const double* F0invT, double r, const double* P, double* phi) {
  double PF = 0;
  for (int k = 0; k < 9; ++k) PF += P[k] * F[k];
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i) {
      double v = 0;
      for (int M = 0; M < 3; ++M)
        v += P[3 * i + M] * g[3 * a + M] +
             PF / 3.0 * (F0invT[3 * i + M] * b[3 * a + M] - FinvT[3 * i + M] * g[3 * a + M]);
      phi[3 * a + i] = r * v;
    }
}

/// fbar_phi with F, F0 and r from the element's displacements u.
void fbar_force(int n, const double* g, const double* b, const double* u, const double* P,
                double* phi) {
  double F[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, F0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        F[3 * i + j] += u[3 * a + i] * g[3 * a + j];
        F0[3 * i + j] += u[3 * a + i] * b[3 * a + j];
      }
  double FinvT[9], F0invT[9];
  const double J = inverse_transpose(F, FinvT), J0 = inverse_transpose(F0, F0invT);
  fbar_phi(n, g, b, F, FinvT, F0invT, std::cbrt(J0 / J), P, phi);
}

/// One F-bar point's force s G^T P and tangent s (G^T A G + d(G^T P)/du at fixed P), the last by
/// central differences (smooth: no return map inside).
void fbar_point(int n, const double* g, const double* b, const double* F, const double* FinvT,
                const double* F0invT, double r, const double* P, const double* A, double s,
                std::span<const double> u, std::span<double> f, std::span<double> K) {
  const int nd = 3 * n;
  if (!f.empty()) {
    double phi[3 * max_nodes];
    fbar_phi(n, g, b, F, FinvT, F0invT, r, P, phi);
    for (int k = 0; k < nd; ++k) f[k] += s * phi[k];
  }
  if (K.empty()) return;
  // G[(iJ)][(a k)] = r (d_ik g_aJ + 1/3 F_iJ (F0^-T_kM b_aM - F^-T_kM g_aM))
  double G[9][3 * max_nodes];
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) {
      double vol = 0;
      for (int M = 0; M < 3; ++M)
        vol += F0invT[3 * k + M] * b[3 * a + M] - FinvT[3 * k + M] * g[3 * a + M];
      for (int i = 0; i < 3; ++i)
        for (int J = 0; J < 3; ++J)
          G[3 * i + J][3 * a + k] = r * ((i == k ? g[3 * a + J] : 0.0) + F[3 * i + J] * vol / 3.0);
    }
  double AG[9][3 * max_nodes];
  for (int ij = 0; ij < 9; ++ij)
    for (int c = 0; c < nd; ++c) {
      double v = 0;
      for (int kl = 0; kl < 9; ++kl) v += A[ij * 9 + kl] * G[kl][c];
      AG[ij][c] = v;
    }
  for (int r2 = 0; r2 < nd; ++r2)
    for (int c = 0; c < nd; ++c) {
      double v = 0;
      for (int ij = 0; ij < 9; ++ij) v += G[ij][r2] * AG[ij][c];
      K[r2 * nd + c] += s * v;
    }
  double scale = 0;  // the displacement step: 1e-7 of the cell's size (1 / |b|)
  for (int k = 0; k < nd; ++k) scale += b[k] * b[k];
  const double h = 1e-7 / std::sqrt(scale / n);
  double v[3 * max_nodes], plus[3 * max_nodes], minus[3 * max_nodes];
  for (int k = 0; k < nd; ++k) v[k] = u[k];
  for (int c = 0; c < nd; ++c) {
    v[c] = u[c] + h;
    fbar_force(n, g, b, v, P, plus);
    v[c] = u[c] - h;
    fbar_force(n, g, b, v, P, minus);
    v[c] = u[c];
    for (int r2 = 0; r2 < nd; ++r2) K[r2 * nd + c] += s * (plus[r2] - minus[r2]) / (2 * h);
  }
}

/// One point's strain: eps (VTK order) from the displacement gradient grad (du_i / dx_j); at
/// finite strain eps is 1/2 ln C (kin), with F-bar's F_bar = ratio F, Fq the point's own F and
/// FinvT its F^-T.
struct PointStrain {
  double eps[6];
  LogStrain kin;
  double Fq[9] = {}, FinvT[9] = {}, ratio = 1;
};

/// The strain at a point of gradients g (b the mean gradients for B-bar, J0 = det F0 for F-bar).
void point_strain(const J2Parameters& p, int n, const double* g, const double* b, bool bbar,
                  bool fbar, double J0, std::span<const double> u, PointStrain& out) {
  double grad[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};  // du_i / dx_j
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) grad[3 * i + j] += u[3 * a + i] * g[3 * a + j];
  if (bbar) apply_technology(Formulation::bbar, u, b, n, grad);
  double* eps = out.eps;
  eps[0] = grad[0], eps[1] = grad[4], eps[2] = grad[8];
  eps[3] = 0.5 * (grad[1] + grad[3]), eps[4] = 0.5 * (grad[5] + grad[7]),
  eps[5] = 0.5 * (grad[2] + grad[6]);
  if (!p.finite_strain) return;
  double F[9] = {1 + grad[0], grad[1], grad[2], grad[3],    1 + grad[4],
                 grad[5],     grad[6], grad[7], 1 + grad[8]};
  if (fbar) {
    const double J = inverse_transpose(F, out.FinvT);
    if (!(J > 0)) throw InvertedElement(J);
    out.ratio = std::cbrt(J0 / J);
    for (int k = 0; k < 9; ++k) out.Fq[k] = F[k], F[k] *= out.ratio;
  }
  log_strain(F, out.kin);
  for (int k = 0; k < 6; ++k) eps[k] = out.kin.E[k];
}

}  // namespace

double j2_point_update(const J2Parameters& p, const double* eps, const double* c, double* tr,
                       bool history, double* sigma, double* A) {
  J2Parameters at = p;  // with history: the step since the committed state, for the rate factor
  if (history && p.rate_sensitivity > 0) {
    at.dt = p.time - c[J2State::time];
    if (!(at.dt > 0)) at.dt = 0, at.frozen_rate = c[J2State::rate];
  }
  j2_return_map(at, eps, c, tr, sigma, A);
  const double psi = j2_free_energy(p, eps, tr);
  if (!history) return psi;
  const double dt = p.time - c[J2State::time];
  tr[J2State::time] = p.time;
  tr[J2State::rate] =
      dt > 0 ? (tr[J2State::equivalent_plastic_strain] - c[J2State::equivalent_plastic_strain]) / dt
             : c[J2State::rate];
  const double* e0 = c + J2State::strain;
  double s0[6];  // the committed state's stress conjugate to eps
  elastic_stress(p.lame, e0, c + J2State::plastic_strain, s0);
  double work = 0;
  for (int k = 0; k < 6; ++k) work += (k < 3 ? 0.5 : 1.0) * (s0[k] + sigma[k]) * (eps[k] - e0[k]);
  const double dissipated = j2_dissipation(at, c[J2State::equivalent_plastic_strain],
                                           tr[J2State::equivalent_plastic_strain]);
  tr[J2State::dissipation] = c[J2State::dissipation] + dissipated;
  tr[J2State::work_error] =
      c[J2State::work_error] + work - (psi - j2_free_energy(p, e0, c)) - dissipated;
  for (int k = 0; k < 6; ++k) tr[J2State::strain + k] = eps[k], tr[J2State::stress + k] = sigma[k];
  return psi;
}

namespace {

/// A finite-strain point's force s g^T P and tangent s g^T AF g (AF = dP/dF, 9 x 9).
void add_finite_strain_point(int n, const double* g, double s, const double* P, const double* AF,
                             std::span<double> f, std::span<double> K) {
  const int nd = 3 * n;
  if (!f.empty())
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i)
        f[3 * a + i] +=
            s * (P[3 * i] * g[3 * a] + P[3 * i + 1] * g[3 * a + 1] + P[3 * i + 2] * g[3 * a + 2]);
  if (K.empty()) return;
  // K_ai,bk = s sum_JL g_a,J A_iJkL g_b,L
  double R[3 * max_nodes][9];  // R[(a i)][(k L)] = sum_J g_a,J A_iJkL
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int kL = 0; kL < 9; ++kL) {
        double v = 0;
        for (int Jd = 0; Jd < 3; ++Jd) v += g[3 * a + Jd] * AF[(3 * i + Jd) * 9 + kL];
        R[3 * a + i][kL] = v;
      }
  for (int r = 0; r < nd; ++r)
    for (int b2 = 0; b2 < n; ++b2)
      for (int k = 0; k < 3; ++k) {
        double v = 0;
        for (int L = 0; L < 3; ++L) v += R[r][3 * k + L] * g[3 * b2 + L];
        K[r * nd + 3 * b2 + k] += s * v;
      }
}

/// A small-strain point's force s B^T sigma and tangent s B A B^T (B-bar's B if bbar, b the mean
/// gradients).
void add_small_strain_point(int n, const double* g, const double* b, bool bbar, double s,
                            const double* sigma, const double* A, std::span<double> f,
                            std::span<double> K) {
  const int nd = 3 * n;
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
  if (K.empty()) return;
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

/// The checks of j2_element's arguments (one line each, InternalError).
void check_j2_arguments(CellType t, std::span<const double> x, std::span<const double> u,
                        const J2Parameters& p, std::span<const double> committed,
                        std::span<double> trial, std::span<double> f, std::span<double> K,
                        int stride, const Technology& tech) {
  INERTIA_CHECK(t == CellType::tet4 || t == CellType::tet10 || t == CellType::hex8, InternalError,
                "j2_element: a tet4, tet10 or hex8 cell, not ", info(t).name);
  INERTIA_CHECK(available(tech.formulation, t), InternalError, "j2_element: no ",
                name(tech.formulation), " ", info(t).name);
  INERTIA_CHECK(!(p.finite_strain && tech.formulation == Formulation::bbar), InternalError,
                "j2_element: bbar is a small-strain formulation");
  INERTIA_CHECK(p.finite_strain || tech.formulation != Formulation::fbar, InternalError,
                "j2_element: fbar is a finite-strain formulation");
  const auto nd = static_cast<std::size_t>(3 * info(t).num_nodes);
  INERTIA_CHECK(stride == J2State::size || stride >= J2State::with_history, InternalError,
                "j2_element: stride ", stride);
  const auto states = static_cast<std::size_t>(j2_points(t, tech.formulation) * stride);
  INERTIA_CHECK(x.size() >= nd && u.size() >= nd && committed.size() >= states &&
                    trial.size() >= states && (f.empty() || f.size() >= nd) &&
                    (K.empty() || K.size() >= nd * nd),
                InternalError, "j2_element: short spans");
}

/// F-bar's F0 = I + sum_a u_a b_a^T from the mean gradients b: F0^-T into F0invT; returns J0.
double fbar_reference(int n, const double* b, std::span<const double> u, double* F0invT) {
  double F0[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F0[3 * i + j] += u[3 * a + i] * b[3 * a + j];
  const double J0 = inverse_transpose(F0, F0invT);
  if (!(J0 > 0)) throw InvertedElement(J0);
  return J0;
}

}  // namespace

double j2_element(CellType t, std::span<const double> x, std::span<const double> u,
                  const J2Parameters& p, std::span<const double> committed, std::span<double> trial,
                  std::span<double> f, std::span<double> K, int stride, const Technology& tech,
                  double* hourglass, const double* geometry) {
  check_j2_arguments(t, x, u, p, committed, trial, f, K, stride, tech);
  const int n = info(t).num_nodes, nd = 3 * n;
  const QuadratureRule rule = stiffness_rule(t);
  const bool reduced = tech.formulation == Formulation::reduced;
  const bool bbar = tech.formulation == Formulation::bbar;
  const bool fbar = tech.formulation == Formulation::fbar;
  const int points = j2_points(t, tech.formulation);
  for (auto& v : f) v = 0;
  for (auto& v : K) v = 0;
  double b_local[3 * max_nodes], V = 0;  // the mean gradients (bbar, reduced)
  const double* b = b_local;
  if (reduced && geometry)
    b = geometry, V = geometry[24];
  else if (bbar || reduced || fbar)
    V = hex8_mean_gradients(x.first(nd), b_local);
  // F-bar (de Souza Neto, Peric, Dutko and Owen, IJSS 33, 1996): F_bar = (J0 / J)^(1/3) F with
  // J0 = det F0, F0 = I + sum_a u_a b_a^T from the mean gradients; f = sum_q s_q G_q^T P(F_bar_q),
  // G = d F_bar / d u.
  double F0invT[9] = {}, J0 = 1;
  if (fbar) J0 = fbar_reference(n, b, u, F0invT);
  const bool history = stride >= J2State::with_history;
  double energy = 0;
  for (int q = 0; q < points; ++q) {
    double g[3 * max_nodes];
    double s = V;
    if (reduced)
      for (int k = 0; k < nd; ++k) g[k] = b[k];
    else
      s = rule.weights[q] * physical_gradients(t, x.first(nd), rule.points + 3 * q, g);
    PointStrain ps;
    point_strain(p, n, g, b, bbar, fbar, J0, u, ps);
    double sigma[6], A[81];
    double* tr = trial.data() + q * stride;
    energy += s * j2_point_update(p, ps.eps, committed.data() + q * stride, tr, history, sigma,
                                  K.empty() ? nullptr : A);
    if (!p.finite_strain) {
      add_small_strain_point(n, g, b, bbar, s, sigma, A, f, K);
      continue;
    }
    double P[9], AF[81];
    log_strain_stress(ps.kin, sigma, A, P, K.empty() ? nullptr : AF);
    if (history) cauchy_from_pk1(ps.kin, P, tr + J2State::stress);
    if (fbar)
      fbar_point(n, g, b, ps.Fq, ps.FinvT, F0invT, ps.ratio, P, AF, s, u, f, K);
    else
      add_finite_strain_point(n, g, s, P, AF, f, K);
  }
  if (reduced) {
    double gamma_local[32];
    const double* gamma = geometry ? geometry + 25 : gamma_local;
    const double C =
        tech.hourglass * p.lame.mu *
        (geometry ? geometry[57] : hex8_hourglass_vectors(x.first(nd), b, V, gamma_local));
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
