// Fiber sections with the uniaxial J2 law and the displacement-based fiber beam element: see
// beam_fiber.hpp.
#include "inertia/fe/beam_fiber.hpp"

#include <algorithm>
#include <cmath>

#include "gauss_points.hpp"
#include "inertia/core/error.hpp"

namespace inertia::fe {

namespace {

using S = UniaxialJ2State;

/// The stored energy of the isotropic hardening, int_0^alpha (k(a) - k(0)) da: j2_free_energy's
/// hardening term (no elasticity, no back stress, zero strain).
double isotropic_energy(const J2Parameters& h, double alpha) {
  if (!h.nonlinear()) return 0.5 * h.isotropic_modulus * alpha * alpha;
  J2Parameters p = h;
  p.lame = {};
  p.kinematic_modulus = 0;
  double zero[J2State::size] = {};
  zero[J2State::equivalent_plastic_strain] = alpha;
  const double eps[6] = {0, 0, 0, 0, 0, 0};
  return j2_free_energy(p, eps, zero);
}

/// The second derivatives of the Hermite cubics at xi = x / L: (H1'', H2'', H3'', H4'') for the
/// DOFs (v0, v0', v1, v1').
void hermite_dd(double xi, double l, double h[4]) {
  h[0] = (-6 + 12 * xi) / (l * l);
  h[1] = (-4 + 6 * xi) / l;
  h[2] = (6 - 12 * xi) / (l * l);
  h[3] = (-2 + 6 * xi) / l;
}

// Local DOFs: axial (u0x, u1x), torsion (th0x, th1x), bending x-y (v0, th_z0, v1, th_z1, with
// th_z = v'), x-z (w0, th_y0, w1, th_y1, with th_y = -w').
constexpr int axial[2] = {0, 3};
constexpr int twist[2] = {6, 9};
constexpr int bend_xy[4] = {1, 8, 4, 11};
constexpr int bend_xz[4] = {2, 7, 5, 10};

/// B (3 x 12, row-major) at xi: eps0, kappa_y = -w'', kappa_z = v''.
void strain_operator(double xi, double l, double B[36]) {
  std::fill(B, B + 36, 0.0);
  B[axial[0]] = -1 / l;
  B[axial[1]] = 1 / l;
  double h[4];
  hermite_dd(xi, l, h);
  // kappa_y = -w'' = -(h0 w0 + h1 (-th_y0) + h2 w1 + h3 (-th_y1)).
  const double sy[4] = {-1, 1, -1, 1};
  for (int i = 0; i < 4; ++i) {
    B[12 + bend_xz[i]] = sy[i] * h[i];
    B[24 + bend_xy[i]] = h[i];
  }
}

}  // namespace

void check_uniaxial_j2(const UniaxialJ2& m) {
  const J2Parameters& h = m.hardening;
  if (!(m.youngs_modulus > 0 && std::isfinite(m.youngs_modulus)))
    throw InputError("a fiber section's material needs a Young's modulus > 0");
  if (h.curve_strain.empty() && !(h.yield_stress > 0 && std::isfinite(h.yield_stress)))
    throw InputError("a fiber section's plasticity needs a yield_stress > 0");
  if (!(h.isotropic_modulus >= 0) || !(h.kinematic_modulus >= 0) || !(h.voce_saturation >= 0) ||
      (h.voce_saturation > 0 && !(h.voce_rate > 0)))
    throw InputError(
        "a fiber section's hardening moduli must be >= 0 (and Voce's rate > 0 where it is used)");
  if (h.rate_sensitivity > 0)
    throw InputError("fiber sections have no strain-rate effect (rate_sensitivity): not supported");
}

double uniaxial_j2_update(const UniaxialJ2& m, double eps, const double* c, double* tr,
                          double& stress, double& tangent) {
  const J2Parameters& h = m.hardening;
  const double E = m.youngs_modulus, Hk = h.kinematic_modulus;
  const double ep = c[S::plastic_strain], beta = c[S::back_stress],
               alpha = c[S::equivalent_plastic_strain];
  const double trial = E * (eps - ep);
  const double xi = trial - beta;
  const double norm = std::abs(xi);
  double k, slope;
  j2_yield_stress(h, alpha, k, slope);
  const double f = norm - k;
  if (!(f > 0)) {
    tr[S::plastic_strain] = ep, tr[S::back_stress] = beta, tr[S::equivalent_plastic_strain] = alpha;
    stress = trial;
    tangent = E;
    return 0;
  }
  double dgamma = f / (E + h.isotropic_modulus + Hk);
  if (h.nonlinear()) {
    // phi(dg) = |xi| - (E + H_kin) dg - k(alpha + dg): decreasing, phi(0) = f > 0,
    // phi(|xi| / E) < 0. Newton kept in the bracket by bisection.
    double lo = 0, hi = norm / E;
    dgamma = f / (E + slope + Hk);
    for (int it = 0; it < 100; ++it) {
      if (!(dgamma > lo && dgamma < hi)) dgamma = 0.5 * (lo + hi);
      j2_yield_stress(h, alpha + dgamma, k, slope);
      const double phi = norm - (E + Hk) * dgamma - k;
      (phi > 0 ? lo : hi) = dgamma;
      const double step = phi / (E + Hk + slope);
      dgamma += step;
      if (std::abs(step) <= 1e-15 * dgamma || std::abs(phi) <= 1e-14 * norm) break;
    }
  }
  j2_yield_stress(h, alpha + dgamma, k, slope);
  const double sign = xi > 0 ? 1.0 : -1.0;
  tr[S::plastic_strain] = ep + dgamma * sign;
  tr[S::back_stress] = beta + Hk * dgamma * sign;
  tr[S::equivalent_plastic_strain] = alpha + dgamma;
  stress = trial - E * dgamma * sign;
  const double H = slope + Hk;
  tangent = E * H / (E + H);
  return dgamma;
}

double uniaxial_j2_free_energy(const UniaxialJ2& m, double eps, const double* s) {
  const double e = eps - s[S::plastic_strain], beta = s[S::back_stress];
  const double Hk = m.hardening.kinematic_modulus;
  double energy = 0.5 * m.youngs_modulus * e * e +
                  isotropic_energy(m.hardening, s[S::equivalent_plastic_strain]);
  if (Hk > 0) energy += 0.5 * beta * beta / Hk;
  return energy;
}

double uniaxial_j2_dissipation(const UniaxialJ2& m, const double* c, const double* tr) {
  return j2_dissipation(m.hardening, c[S::equivalent_plastic_strain],
                        tr[S::equivalent_plastic_strain]);
}

FiberEnergy fiber_section_update(const FiberSection& section, const double e[3],
                                 std::span<const double> committed, std::span<double> trial,
                                 double s[3], double* k) {
  const auto& fibers = section.fibers;
  const std::size_t n = fibers.size() * S::size;
  INERTIA_ASSERT(committed.size() >= n && trial.size() >= n);
  s[0] = s[1] = s[2] = 0;
  double kk[6] = {0, 0, 0, 0, 0, 0};  // upper triangle: 00 01 02 11 12 22
  FiberEnergy energy;
  for (std::size_t i = 0; i < fibers.size(); ++i) {
    const double y = fibers[i].y, z = fibers[i].z, a = fibers[i].area;
    const double eps = e[0] + z * e[1] - y * e[2];
    const double* c = committed.data() + S::size * i;
    double* tr = trial.data() + S::size * i;
    double sigma, et;
    const double dgamma = uniaxial_j2_update(section.material, eps, c, tr, sigma, et);
    if (dgamma > 0) energy.dissipated += a * uniaxial_j2_dissipation(section.material, c, tr);
    energy.stored += a * uniaxial_j2_free_energy(section.material, eps, tr);
    const double as = a * sigma;
    s[0] += as;
    s[1] += as * z;
    s[2] -= as * y;
    if (k) {
      const double ae = a * et;
      kk[0] += ae, kk[1] += ae * z, kk[2] -= ae * y;
      kk[3] += ae * z * z, kk[4] -= ae * z * y, kk[5] += ae * y * y;
    }
  }
  if (k) {
    k[0] = kk[0], k[1] = k[3] = kk[1], k[2] = k[6] = kk[2];
    k[4] = kk[3], k[5] = k[7] = kk[4], k[8] = kk[5];
  }
  return energy;
}

FiberBeamIntegration fiber_beam_integration(FiberBeamIntegration::Rule rule, int points) {
  using Rule = FiberBeamIntegration::Rule;
  const bool lobatto = rule == Rule::lobatto;
  const int lo = lobatto ? 3 : 2, hi = FiberBeamIntegration::max_points;
  if (points < lo || points > hi)
    throw InputError(cat("a fiber beam's ", lobatto ? "Gauss-Lobatto" : "Gauss-Legendre",
                         " rule takes ", lo, " to ", hi, " points (", points, " given)"));
  FiberBeamIntegration r;
  r.rule = rule;
  r.points = points;
  const int n = points;
  for (int i = 0; i < n; ++i) {
    double x, w;
    gauss_points::point(lobatto, n, i, x, w);
    r.xi[i] = 0.5 * (x + 1);
    r.weight[i] = 0.5 * w;
  }
  return r;
}

int fiber_beam_state_size(const FiberBeam& b) {
  return b.integration.points * static_cast<int>(b.section.fibers.size()) * S::size;
}

FiberEnergy fiber_beam_update(const double x0[3], const double x1[3], const double R[9],
                              const FiberBeam& b, const double d[12],
                              std::span<const double> committed, std::span<double> trial,
                              std::span<double> f, std::span<double> K,
                              std::span<double> sections) {
  const double l = beam_length(x0, x1);
  if (!(l > 0) || !std::isfinite(l))
    throw SolverError("a beam element has zero length (or its ends are not finite)");
  const int np = b.integration.points;
  const std::size_t per_point = b.section.fibers.size() * S::size;
  INERTIA_ASSERT(committed.size() >= np * per_point && trial.size() >= np * per_point);
  INERTIA_ASSERT(f.empty() || f.size() >= 12);
  INERTIA_ASSERT(K.empty() || K.size() >= 144);
  INERTIA_ASSERT(sections.empty() || sections.size() >= 3 * static_cast<std::size_t>(np));
  // Local displacements: each 3-block times R.
  double dl[12];
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      dl[3 * a + i] =
          R[3 * i] * d[3 * a] + R[3 * i + 1] * d[3 * a + 1] + R[3 * i + 2] * d[3 * a + 2];
  double fl[12] = {}, Kl[144] = {};
  FiberEnergy energy;
  for (int p = 0; p < np; ++p) {
    double B[36];
    strain_operator(b.integration.xi[p], l, B);
    double e[3] = {0, 0, 0};
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 12; ++j) e[r] += B[12 * r + j] * dl[j];
    double s[3], k[9];
    const FiberEnergy ep =
        fiber_section_update(b.section, e, committed.subspan(p * per_point, per_point),
                             trial.subspan(p * per_point, per_point), s, K.empty() ? nullptr : k);
    const double w = l * b.integration.weight[p];
    energy.stored += w * ep.stored;
    energy.dissipated += w * ep.dissipated;
    if (!sections.empty())
      for (int r = 0; r < 3; ++r) sections[3 * p + r] = s[r];
    for (int j = 0; j < 12; ++j) fl[j] += w * (B[j] * s[0] + B[12 + j] * s[1] + B[24 + j] * s[2]);
    if (K.empty()) continue;
    double kB[36];  // k B (3 x 12)
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < 12; ++j)
        kB[12 * r + j] = k[3 * r] * B[j] + k[3 * r + 1] * B[12 + j] + k[3 * r + 2] * B[24 + j];
    for (int i = 0; i < 12; ++i) {
      const double b0 = B[i], b1 = B[12 + i], b2 = B[24 + i];
      if (b0 == 0 && b1 == 0 && b2 == 0) continue;
      for (int j = 0; j < 12; ++j)
        Kl[12 * i + j] += w * (b0 * kB[j] + b1 * kB[12 + j] + b2 * kB[24 + j]);
    }
  }
  // Elastic torsion.
  const double gj = b.shear_modulus * b.torsion / l;
  const double twist_angle = dl[twist[1]] - dl[twist[0]];
  fl[twist[0]] -= gj * twist_angle;
  fl[twist[1]] += gj * twist_angle;
  energy.stored += 0.5 * gj * twist_angle * twist_angle;
  if (!f.empty())
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i)
        f[3 * a + i] = R[i] * fl[3 * a] + R[3 + i] * fl[3 * a + 1] + R[6 + i] * fl[3 * a + 2];
  if (!K.empty()) {
    Kl[12 * twist[0] + twist[0]] += gj;
    Kl[12 * twist[1] + twist[1]] += gj;
    Kl[12 * twist[0] + twist[1]] -= gj;
    Kl[12 * twist[1] + twist[0]] -= gj;
    beam_to_global(R, Kl, K.data());
  }
  return energy;
}

}  // namespace inertia::fe
