// Modal and directional combination rules.

#include "inertia/seismic/modal_combination.hpp"

#include <algorithm>
#include <cmath>

namespace inertia {

double cqc_correlation(double w_i, double w_j, double xi_i, double xi_j) {
  if (w_i == w_j && xi_i == xi_j) return 1;
  const double r = w_j / w_i;
  const double num = 8 * std::sqrt(xi_i * xi_j) * (xi_i + r * xi_j) * std::pow(r, 1.5);
  const double den = (1 - r * r) * (1 - r * r) + 4 * xi_i * xi_j * r * (1 + r * r) +
                     4 * (xi_i * xi_i + xi_j * xi_j) * r * r;
  return den > 0 ? num / den : 1;
}

std::vector<double> modal_coefficients(ModalRule rule, std::span<const double> omega,
                                       std::span<const double> damping) {
  const std::size_t n = omega.size();
  std::vector<double> rho(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      rho[i * n + j] = i == j ? 1.0
                       : rule == ModalRule::cqc
                           ? cqc_correlation(omega[i], omega[j], damping[i], damping[j])
                           : 0.0;
  return rho;
}

double combine_modes(ModalRule rule, std::span<const double> q, std::span<const double> rho) {
  const std::size_t n = q.size();
  double s = 0;
  switch (rule) {
    case ModalRule::abs:
      for (double x : q) s += std::abs(x);
      return s;
    case ModalRule::srss:
      for (double x : q) s += x * x;
      return std::sqrt(s);
    case ModalRule::cqc:
      for (std::size_t i = 0; i < n; ++i) {
        s += q[i] * q[i];
        for (std::size_t j = i + 1; j < n; ++j) s += 2 * rho[i * n + j] * q[i] * q[j];
      }
      // rho is positive semi-definite (a correlation matrix): s >= 0 but for round-off.
      return std::sqrt(std::max(s, 0.0));
  }
  return 0;
}

double combine_directions(DirectionalRule rule, std::span<const double> r) {
  if (rule == DirectionalRule::srss) {
    double s = 0;
    for (double x : r) s += x * x;
    return std::sqrt(s);
  }
  double total = 0, best = 0;
  for (double x : r) total += std::abs(x);
  for (double x : r) best = std::max(best, std::abs(x) + 0.3 * (total - std::abs(x)));
  return best;
}

}  // namespace inertia
