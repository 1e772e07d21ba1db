// J2 plasticity at small strain: see plasticity.hpp.
#include "inertia/fe/plasticity.hpp"

#include <cmath>

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
  const double theta = dgamma > 0 ? 1.0 - 2.0 * mu * dgamma / norm : 1.0;
  const double theta_bar = dgamma > 0 ? 1.0 / (1.0 + H / (3.0 * mu)) - (1.0 - theta) : 0.0;
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

}  // namespace inertia::fe
