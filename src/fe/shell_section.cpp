// A shell's section law (shell_section.hpp).
#include "inertia/fe/shell_section.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gauss_points.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "shell_elastic_section.hpp"

namespace inertia::fe {

namespace {

using Rule = ShellLayers::Rule;
constexpr int max_points = ShellLayers::max_points;

/// Every rule's points x on [-1/2, 1/2] and weights summing to 1 (indexed by ShellLayers::Rule
/// and the point count), computed once.
constexpr int rule_kinds = 3;
struct Rules {
  double x[rule_kinds][max_points + 1][max_points];
  double w[rule_kinds][max_points + 1][max_points];
};

/// Gauss-Lobatto (lobatto) or Gauss-Legendre point i of n on [-1, 1] and its weight
/// (gauss_points.hpp, the fiber beam's rule), the middle point of an odd rule exactly 0.
void gauss_point(bool lobatto, int n, int i, double& x, double& w) {
  gauss_points::point(lobatto, n, i, x, w);
  if (2 * i + 1 == n) x = 0, w = gauss_points::weight(lobatto, n, 0.0);
}

Rules build_rules() {
  Rules r{};
  for (int n = 2; n <= max_points; ++n)
    for (int i = 0; i < n; ++i) {
      for (const Rule rule : {Rule::lobatto, Rule::legendre}) {
        double x = 0, w = 0;
        if (rule == Rule::legendre || n >= 3) gauss_point(rule == Rule::lobatto, n, i, x, w);
        r.x[static_cast<int>(rule)][n][i] = 0.5 * x;
        r.w[static_cast<int>(rule)][n][i] = 0.5 * w;
      }
      // Composite Simpson (odd n): h / 3 [1 4 2 4 ... 2 4 1], h = 1 / (n - 1).
      const int k = static_cast<int>(Rule::simpson);
      r.x[k][n][i] = -0.5 + static_cast<double>(i) / (n - 1);
      r.w[k][n][i] = (i == 0 || i == n - 1 ? 1.0 : i % 2 ? 4.0 : 2.0) / (3.0 * (n - 1));
    }
  return r;
}

const Rules& rules() {
  static const Rules r = build_rules();
  return r;
}

/// InputError unless the section's rule has its point count (Lobatto 3..15, Legendre 2..15,
/// Simpson odd 3..15).
void check_points(const ShellLayers& s) {
  const int lo = s.rule == Rule::legendre ? 2 : 3;
  if (s.points < lo || s.points > max_points || (s.rule == Rule::simpson && s.points % 2 == 0))
    throw InputError(cat("shell section: a ",
                         s.rule == Rule::lobatto    ? "Gauss-Lobatto"
                         : s.rule == Rule::legendre ? "Gauss-Legendre"
                                                    : "Simpson",
                         " rule through the thickness takes ",
                         s.rule == Rule::simpson ? "an odd number of " : "", lo, " to ", max_points,
                         " points (", s.points, " given)"));
}

/// The plane-stress point's 3D strain: [e11, e22, eps_zz, g12 / 2, 0, 0].
void strain3(const double e[3], double ez, double* eps) {
  eps[0] = e[0], eps[1] = e[1], eps[2] = ez, eps[3] = 0.5 * e[2], eps[4] = eps[5] = 0;
}

}  // namespace

void check_shell_layers(const ShellLayers& s) {
  const ShellSection& e = s.elastic;
  if (!(e.thickness > 0) || !(e.youngs_modulus > 0) || !(e.poissons_ratio > -1) ||
      !(e.poissons_ratio < 0.5))
    throw InputError(cat("shell section: thickness ", e.thickness, ", E ", e.youngs_modulus,
                         ", nu ", e.poissons_ratio, " (need t > 0, E > 0, -1 < nu < 0.5)"));
  if (!std::isfinite(e.offset))
    throw InputError(cat("shell section: offset ", e.offset, " (need a finite length)"));
  if (!s.plastic) return;
  check_points(s);
  const J2Parameters& h = s.j2;
  if (h.curve_strain.empty() && !(h.yield_stress > 0 && std::isfinite(h.yield_stress)))
    throw InputError("shell section: plasticity needs a yield_stress > 0 (or a yield curve)");
  if (!h.curve_strain.empty() &&
      (h.curve_stress.size() != h.curve_strain.size() || h.curve_strain[0] != 0))
    throw InputError(
        "shell section: a yield curve needs as many stresses as strains, from plastic strain 0");
  if (!(h.isotropic_modulus >= 0) || !(h.kinematic_modulus >= 0) || !(h.voce_saturation >= 0) ||
      (h.voce_saturation > 0 && !(h.voce_rate > 0)))
    throw InputError(
        "shell section: hardening moduli must be >= 0 (and Voce's rate > 0 where it is used)");
  if (!(h.rate_sensitivity >= 0) || (h.rate_sensitivity > 0 && !(h.reference_rate > 0)))
    throw InputError(
        "shell section: a rate factor needs rate_sensitivity >= 0 and a reference "
        "rate > 0");
}

int shell_layers_point_stride(const ShellLayers& s) {
  return s.rate_history && s.j2.rate_sensitivity > 0 ? ShellRateState::size : J2State::size;
}

int shell_layers_state_size(const ShellLayers& s) {
  return s.plastic ? s.points * shell_layers_point_stride(s) : 0;
}

ShellThicknessPoints shell_layers_points(const ShellLayers& s) {
  check_points(s);
  const Rules& r = rules();
  const int k = static_cast<int>(s.rule);
  const double t = s.elastic.thickness;
  ShellThicknessPoints out;
  out.points = s.points;
  for (int q = 0; q < s.points; ++q) {
    out.z[q] = t * r.x[k][s.points][q] - s.elastic.offset;
    out.weight[q] = t * r.w[k][s.points][q];
  }
  return out;
}

namespace {

/// d sigma_zz / d eps_zz of the return map at eps from c, whose result is next with multiplier
/// dg: the zz-zz entry of j2_return_map's consistent tangent, kappa + 4/3 mu theta - 2 mu
/// theta_bar n_zz^2 with the hardening modulus (3/2) d(radius)/d(dg) of its local iteration (the
/// Johnson-Cook factor R's dependence on dg included): Newton's slope for eps_zz.
double zz_slope(const J2Parameters& p, const double* eps, const double* c, const double* next,
                double dg) {
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2 * mu / 3;
  if (!(dg > 0)) return kappa + 4 * mu / 3;
  const double tr = eps[0] + eps[1] + eps[2];
  double norm2 = 0;  // |xi_trial|^2, xi = 2 mu (dev eps - eps_p,n) - beta_n
  for (int k = 0; k < 6; ++k) {
    const double xi = 2 * mu * (eps[k] - (k < 3 ? tr / 3 : 0.0) - c[J2State::plastic_strain + k]) -
                      c[J2State::back_stress + k];
    norm2 += (k < 3 ? 1 : 2) * xi * xi;
  }
  double k, slope, H = p.kinematic_modulus;
  j2_yield_stress(p, next[J2State::equivalent_plastic_strain], k, slope);
  if (p.rate_sensitivity > 0 && p.frozen_rate > p.reference_rate) {
    H += slope * (1 + p.rate_sensitivity * std::log(p.frozen_rate / p.reference_rate));
  } else if (p.rate_sensitivity > 0 && p.frozen_rate < 0 && p.dt > 0 &&
             std::sqrt(2.0 / 3.0) * dg / p.dt > p.reference_rate) {
    const double rate = std::sqrt(2.0 / 3.0) * dg / p.dt;
    H += slope * (1 + p.rate_sensitivity * std::log(rate / p.reference_rate)) +
         std::sqrt(1.5) * k * p.rate_sensitivity / dg;
  } else {
    H += slope;
  }
  const double theta = 1 - 2 * mu * dg / std::sqrt(norm2);
  const double theta_bar = 1 / (1 + H / (3 * mu)) - (1 - theta);
  const double n_zz = (next[J2State::plastic_strain + 2] - c[J2State::plastic_strain + 2]) / dg;
  return kappa + 4 * mu / 3 * theta - 2 * mu * theta_bar * n_zz * n_zz;
}

}  // namespace

void shell_layers_stresses(const ShellLayers& s, const double ek[6], std::span<const double> state,
                           std::span<double> stress) {
  check_shell_layers(s);
  const ShellThicknessPoints r = shell_layers_points(s);
  INERTIA_CHECK(stress.size() >= static_cast<std::size_t>(3 * r.points) &&
                    state.size() >= static_cast<std::size_t>(shell_layers_state_size(s)),
                InternalError, "shell_layers_stresses: short spans");
  const double E = s.elastic.youngs_modulus, nu = s.elastic.poissons_ratio;
  const double mu = E / (2 * (1 + nu)), lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  const int stride = shell_layers_point_stride(s);
  for (int q = 0; q < r.points; ++q) {
    const double z = r.z[q];
    const double e[3] = {ek[0] + z * ek[3], ek[1] + z * ek[4], ek[2] + z * ek[5]};
    const double* ep = s.plastic ? state.data() + q * stride + J2State::plastic_strain : nullptr;
    const double ep0 = ep ? ep[0] : 0, ep1 = ep ? ep[1] : 0, ep2 = ep ? ep[2] : 0,
                 ep3 = ep ? ep[3] : 0;
    // sigma = lambda tr(eps) I + 2 mu (eps - eps_p) with eps_zz such that sigma_zz = 0.
    const double ez = (2 * mu * ep2 - lambda * (e[0] + e[1])) / (lambda + 2 * mu);
    const double tr = e[0] + e[1] + ez;
    stress[3 * q] = lambda * tr + 2 * mu * (e[0] - ep0);
    stress[3 * q + 1] = lambda * tr + 2 * mu * (e[1] - ep1);
    stress[3 * q + 2] = 2 * mu * (0.5 * e[2] - ep3);
  }
}

double plane_stress_j2_update(const J2Parameters& p, const double e[3], const double* c, double* tr,
                              double sigma[3], double* C, double* dgamma) {
  const double lambda = p.lame.lambda, mu = p.lame.mu, kappa = lambda + 2 * mu / 3;
  // The elastic guess: sigma_zz = (lambda + 2 mu) eps_zz + lambda (e11 + e22) - 2 mu ep_zz = 0.
  double ez =
      (2 * mu * c[J2State::plastic_strain + 2] - lambda * (e[0] + e[1])) / (lambda + 2 * mu);
  double lo = -std::numeric_limits<double>::infinity(), hi = -lo;
  double eps[6], stress[6], next[J2State::size], dg = 0;
  bool converged = false;
  for (int it = 0; it < 60 && !converged; ++it) {
    strain3(e, ez, eps);
    dg = j2_return_map(p, eps, c, next, stress, nullptr);
    const double szz = stress[2];
    // The round-off of sigma_zz = kappa tr + 2 mu (dev eps_zz - eps_p,zz) (lambda (1 - 2 nu) is
    // large near incompressibility, tr small) and of the in-plane stress.
    const double tr_eps = e[0] + e[1] + ez;
    const double scale = std::abs(stress[0]) + std::abs(stress[1]) + std::abs(stress[3]) +
                         kappa * std::abs(tr_eps) +
                         2 * mu *
                             (std::abs(e[0]) + std::abs(e[1]) + std::abs(ez) +
                              std::abs(c[J2State::plastic_strain + 2]));
    if (std::abs(szz) <= 1e-14 * scale) {
      converged = true;
      break;
    }
    (szz > 0 ? hi : lo) = ez;  // sigma_zz increases with eps_zz
    const double azz = zz_slope(p, eps, c, next, dg);
    double guess = azz > 0 ? ez - szz / azz : std::numeric_limits<double>::quiet_NaN();
    if (!(guess > lo && guess < hi))
      guess = std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi)
              : szz > 0                              ? ez - 2 * std::abs(szz) / (lambda + 2 * mu)
                                                     : ez + 2 * std::abs(szz) / (lambda + 2 * mu);
    // A step at the round-off of the strains: eps_zz is as good as it gets (and the state is
    // this evaluation's).
    if (std::abs(guess - ez) <= 1e-15 * (std::abs(e[0]) + std::abs(e[1]) + std::abs(ez))) {
      converged = true;
      break;
    }
    ez = guess;
  }
  if (!converged)
    throw SolverError(
        cat("a shell section point's plane-stress iteration did not converge "
            "(membrane strain ",
            e[0], " ", e[1], " ", e[2], ")"));
  sigma[0] = stress[0], sigma[1] = stress[1], sigma[2] = stress[3];
  if (dgamma) *dgamma = dg;
  if (C) {
    // The tangent at the converged eps_zz (the same return map from c, with its A; before tr,
    // which may alias c, is written), condensed. Full-index positions of 11, 22, 12 and zz in
    // the 9 x 9 tangent; d/d g12 = A_..12 (minor symmetry: eps_12 = eps_21 = g12 / 2).
    double A[81], unused[J2State::size], unused_stress[6];
    j2_return_map(p, eps, c, unused, unused_stress, A);
    constexpr int ix[3] = {0, 4, 1}, iz = 8;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        C[3 * a + b] =
            A[9 * ix[a] + ix[b]] - A[9 * ix[a] + iz] * A[9 * iz + ix[b]] / A[9 * iz + iz];
  }
  for (int k = 0; k < J2State::size; ++k) tr[k] = next[k];
  return ez;
}

namespace {

/// The elastic section in closed form (shell_elastic_section.hpp), with its matrix D (6 x 6:
/// A, B; B, D) when asked.
FiberEnergy elastic_section(const ShellLayers& s, const double ek[6], double nm[6], double* D) {
  FiberEnergy energy;
  energy.stored = shell_section_detail::elastic_resultants(s.elastic, ek, nm);
  if (D) {
    const shell_section_detail::ElasticSectionMatrices m =
        shell_section_detail::elastic_section_matrices(s.elastic);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        D[6 * i + j] = m.C[3 * (i % 3) + j % 3] * m.a[(i >= 3) + (j >= 3)];
  }
  return energy;
}

}  // namespace

FiberEnergy shell_layers_update(const ShellLayers& s, const double ek[6],
                                std::span<const double> committed, std::span<double> trial,
                                double nm[6], double* D) {
  check_shell_layers(s);
  if (!s.plastic) return elastic_section(s, ek, nm, D);
  const auto size = static_cast<std::size_t>(shell_layers_state_size(s));
  INERTIA_CHECK(committed.size() >= size && trial.size() >= size, InternalError,
                "shell_layers_update: short spans (", committed.size(), ", ", trial.size(), " for ",
                size, ")");
  J2Parameters p = s.j2;
  const double E = s.elastic.youngs_modulus, nu = s.elastic.poissons_ratio;
  p.lame.mu = E / (2 * (1 + nu));
  p.lame.lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  const ShellThicknessPoints r = shell_layers_points(s);
  for (int i = 0; i < 6; ++i) nm[i] = 0;
  if (D)
    for (int i = 0; i < 36; ++i) D[i] = 0;
  FiberEnergy energy;
  const bool rate = s.rate_history && p.rate_sensitivity > 0;
  const int stride = shell_layers_point_stride(s);
  for (int q = 0; q < s.points; ++q) {
    const double z = r.z[q], w = r.weight[q];
    const double e[3] = {ek[0] + z * ek[3], ek[1] + z * ek[4], ek[2] + z * ek[5]};
    const double* c = committed.data() + q * stride;
    double* tr = trial.data() + q * stride;
    const double alpha_n = c[J2State::equivalent_plastic_strain];  // before tr overwrites c
    // A rate factor: the step since the state's time, or (none: an evaluation at the state's
    // time) the state's own rate, so that the state is its own return.
    J2Parameters at = p;
    double dt = 0, time_n = 0, rate_n = 0, dissipation_n = 0;
    if (rate) {
      time_n = c[ShellRateState::time], rate_n = c[ShellRateState::rate];
      dissipation_n = c[ShellRateState::dissipation];
      dt = p.time - time_n;
      if (dt > 0)
        at.dt = dt;
      else
        at.dt = 0, at.frozen_rate = rate_n;
    }
    double sigma[3], C[9], eps[6];
    const double ez = plane_stress_j2_update(at, e, c, tr, sigma, D ? C : nullptr);
    strain3(e, ez, eps);
    const double alpha = tr[J2State::equivalent_plastic_strain];
    const double dissipated = j2_dissipation(at, alpha_n, alpha);
    energy.stored += w * j2_free_energy(p, eps, tr);
    energy.dissipated += w * dissipated;
    if (rate) {
      tr[ShellRateState::time] = dt > 0 ? p.time : time_n;
      tr[ShellRateState::rate] = dt > 0 ? (alpha - alpha_n) / dt : rate_n;
      tr[ShellRateState::dissipation] = dissipation_n + dissipated;
    }
    for (int i = 0; i < 3; ++i) {
      nm[i] += w * sigma[i];
      nm[3 + i] += w * z * sigma[i];
    }
    if (!D) continue;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double v = w * C[3 * i + j];
        D[6 * i + j] += v;
        D[6 * i + 3 + j] += z * v;
        D[6 * (3 + i) + j] += z * v;
        D[6 * (3 + i) + 3 + j] += z * z * v;
      }
  }
  return energy;
}

}  // namespace inertia::fe
