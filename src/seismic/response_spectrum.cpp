// Nigam-Jennings response spectra.

#include "inertia/seismic/response_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "inertia/core/error.hpp"

namespace inertia {

namespace {

/// The exact response over one sub-step from (u0, v0) under a(tau) = a0 + s tau, s = (a1 - a0) / h:
/// a particular part c0 + c1 tau and the damped free vibration that matches u0, v0 at tau = 0,
///   u(tau) = c0 + c1 tau + e^(-xi w tau) (p cos wd tau + q sin wd tau),
///   v(tau) = c1 + e^(-xi w tau) (P cos wd tau + Q sin wd tau),
/// P = wd q - xi w p, Q = -(xi w q + wd p).
class SubStepResponse {
 public:
  SubStepResponse(double omega, double damping, double h, double u0, double v0, double a0,
                  double a1)
      : w_(omega), xi_(damping), wd_(omega * std::sqrt(1 - damping * damping)), a0_(a0) {
    s_ = (a1 - a0) / h;
    c1_ = -s_ / (w_ * w_);
    c0_ = -a0 / (w_ * w_) + 2 * xi_ * s_ / (w_ * w_ * w_);
    p_ = u0 - c0_;
    q_ = (v0 - c1_ + xi_ * w_ * p_) / wd_;
  }
  void at(double tau, double& u, double& v) const {
    const double e = std::exp(-xi_ * w_ * tau), c = std::cos(wd_ * tau), sn = std::sin(wd_ * tau);
    u = c0_ + c1_ * tau + e * (p_ * c + q_ * sn);
    v = c1_ + e * ((wd_ * q_ - xi_ * w_ * p_) * c - (xi_ * w_ * q_ + wd_ * p_) * sn);
  }
  /// u'' = -a(tau) - 2 xi w v - w^2 u.
  double acceleration(double tau, double u, double v) const {
    return -(a0_ + s_ * tau) - 2 * xi_ * w_ * v - w_ * w_ * u;
  }
  /// Where v's oscillating part e^(-xi w tau) (P cos wd tau + Q sin wd tau) has its extremum
  /// in (0, h), in closed form (its derivative vanishes where tan wd tau = -P' / Q', once per
  /// half damped period, so at most once in a sub-step shorter than that), or -1.
  double velocity_extremum(double h) const {
    const double P = wd_ * q_ - xi_ * w_ * p_, Q = -(xi_ * w_ * q_ + wd_ * p_);
    const double dP = -xi_ * w_ * P + wd_ * Q, dQ = -xi_ * w_ * Q - wd_ * P;
    // dP cos x + dQ sin x = 0: x = atan2(-dP, dQ) + k pi; the one in [0, pi).
    double x = std::fmod(std::atan2(-dP, dQ) + 2 * std::numbers::pi, std::numbers::pi);
    const double tau = x / wd_;
    return tau > 0 && tau < h ? tau : -1;
  }

 private:
  double w_, xi_, wd_, a0_, s_ = 0, c0_ = 0, c1_ = 0, p_ = 0, q_ = 0;
};

/// The zero of v in (lo, hi), where v is monotone and v(lo), v(hi) have opposite signs:
/// Newton's iterations kept inside the bracket (bisection when a step would leave it), to
/// round-off. Returns tau; u, v: the response there.
double velocity_zero(const SubStepResponse& r, double lo, double v_lo, double hi, double& u,
                     double& v) {
  double tau = 0.5 * (lo + hi);
  const double resolution = 4 * std::numeric_limits<double>::epsilon() * hi;
  for (int iteration = 0; iteration < 100; ++iteration) {
    r.at(tau, u, v);
    if (v == 0) break;
    if ((v < 0) == (v_lo < 0))
      lo = tau, v_lo = v;
    else
      hi = tau;
    double next = tau - v / r.acceleration(tau, u, v);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    const bool settled = std::abs(next - tau) <= resolution || hi - lo <= resolution;
    tau = next;
    if (settled) break;
  }
  r.at(tau, u, v);
  return tau;
}

/// The largest |p| over [0, 1] of the cubic Hermite p through (u0, h v0) and (u1, h v1): at the
/// ends or at its stationary points.
double hermite_largest(double u0, double v0, double u1, double v1, double h) {
  const double m0 = h * v0, m1 = h * v1;
  const double A = 2 * u0 + m0 - 2 * u1 + m1, B = -3 * u0 - 2 * m0 + 3 * u1 - m1, C = m0;
  double best = std::max(std::abs(u0), std::abs(u1));
  // p'(x) = 3 A x^2 + 2 B x + C.
  const double qa = 3 * A, qb = 2 * B, qc = C;
  double roots[2];
  int count = 0;
  if (std::abs(qa) < 1e-300) {
    if (qb != 0) roots[count++] = -qc / qb;
  } else if (const double disc = qb * qb - 4 * qa * qc; disc >= 0) {
    const double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
    roots[count++] = q / qa;
    if (q != 0) roots[count++] = qc / q;
  }
  for (int i = 0; i < count; ++i)
    if (roots[i] > 0 && roots[i] < 1)
      best = std::max(best, std::abs(((A * roots[i] + B) * roots[i] + C) * roots[i] + u0));
  return best;
}

/// The largest |u| over a sub-step of length h from (u0, v0) to (u1, v1) under the ground
/// acceleration going linearly from a0 to a1, where it exceeds `peak` (else |u1|): |u1|, or |u|
/// where v vanishes inside the step (an extremum of the exact response), found on the
/// closed-form solution. `at`: where (tau).
double sub_step_peak(double omega, double damping, double h, double u0, double v0, double a0,
                     double u1, double v1, double a1, double peak, double& at) {
  double best = std::abs(u1);
  at = h;
  // v is monotone between the extrema of its oscillating part (at most one inside the step,
  // where u'' = v' changes sign): a zero of v needs a sign change of v over the step or of u''.
  const double two_xi_w = 2 * damping * omega, w2 = omega * omega;
  const double acc0 = -a0 - two_xi_w * v0 - w2 * u0, acc1 = -a1 - two_xi_w * v1 - w2 * u1;
  if (!(v0 * v1 < 0) && !(acc0 * acc1 < 0)) return best;
  // The cubic through the ends is within (omega h)^4 / 384 (2.5e-5 at h = T / 20) of the exact
  // response, relative to its scale (|u|, the static |a| / w^2, |v| / w): an extremum that
  // cannot exceed `peak` by a margin 40 times that is not sought.
  const double scale = std::max(std::abs(u0), std::abs(u1)) +
                       std::max(std::abs(a0), std::abs(a1)) / w2 +
                       std::max(std::abs(v0), std::abs(v1)) / omega;
  if (hermite_largest(u0, v0, u1, v1, h) + 1e-3 * scale < peak) return best;
  const SubStepResponse r(omega, damping, h, u0, v0, a0, a1);
  double taus[3], vs[3];  // the step's ends and v's extremum between, if any
  int count = 0;
  taus[count] = 0, vs[count++] = v0;
  if (acc0 * acc1 < 0) {
    const double tau = r.velocity_extremum(h);
    if (tau > 0) {
      double u = 0;
      taus[count] = tau;
      r.at(tau, u, vs[count++]);
    }
  }
  taus[count] = h, vs[count++] = v1;
  for (int i = 0; i + 1 < count; ++i) {
    if (!(vs[i] * vs[i + 1] < 0)) continue;
    double u = 0, v = 0;
    const double tau = velocity_zero(r, taus[i], vs[i], taus[i + 1], u, v);
    if (std::abs(u) > best) best = std::abs(u), at = tau;
  }
  return best;
}

}  // namespace

OscillatorStep::OscillatorStep(double omega, double damping, double h) : h_(h) {
  // The exact solution over [0, h] (SubStepResponse) applied to unit states and inputs gives
  // the columns of A and B.
  auto solve = [&](double u, double v, double a0, double a1, double& u1, double& v1) {
    SubStepResponse(omega, damping, h, u, v, a0, a1).at(h, u1, v1);
  };
  solve(1, 0, 0, 0, a_[0], a_[2]);
  solve(0, 1, 0, 0, a_[1], a_[3]);
  solve(0, 0, 1, 0, b_[0], b_[2]);
  solve(0, 0, 0, 1, b_[1], b_[3]);
}

double peak_displacement(const std::vector<std::pair<double, double>>& record, double period,
                         double damping, double* time) {
  if (!(period > 0)) throw InputError(cat("a period must be > 0, got ", period));
  if (!(damping >= 0 && damping < 1))
    throw InputError(cat("a damping ratio must be in [0, 1), got ", damping));
  const double omega = 2 * std::numbers::pi / period, h_max = period / 20;
  const double two_xi_w = 2 * damping * omega, w2 = omega * omega;
  double u = 0, v = 0, peak = 0, peak_time = record.empty() ? 0 : record.front().first;
  std::optional<OscillatorStep> step;
  auto sub_steps = [&](double t0, double a0, double t1, double a1) {
    const double length = t1 - t0;
    const int m = std::max(1, static_cast<int>(std::ceil(length / h_max * (1 - 1e-12))));
    const double h = length / m;
    if (!step || step->h() != h) step.emplace(omega, damping, h);
    for (int k = 0; k < m; ++k) {
      const double b0 = a0 + (a1 - a0) * k / m, b1 = a0 + (a1 - a0) * (k + 1) / m;
      const double u0 = u, v0 = v;
      step->advance(u, v, b0, b1);
      double at = h, p = std::abs(u);
      // An extremum inside needs v or u'' = v' to change sign (sub_step_peak): rare, so tested
      // here, where it costs a few flops.
      if (v0 * v < 0 || (b0 + two_xi_w * v0 + w2 * u0) * (b1 + two_xi_w * v + w2 * u) < 0)
        p = sub_step_peak(omega, damping, h, u0, v0, b0, u, v, b1, peak, at);
      if (p > peak) {
        peak = p;
        peak_time = t0 + k * h + at;
      }
    }
  };
  for (std::size_t i = 1; i < record.size(); ++i)
    sub_steps(record[i - 1].first, record[i - 1].second, record[i].first, record[i].second);
  // After the record: free vibration (the ground acceleration is zero), whose largest excursion
  // comes within the half damped period that follows: one period covers it.
  if (!record.empty()) {
    const double end = record.back().first;
    sub_steps(end, 0, end + period, 0);
  }
  if (time) *time = peak_time;
  return peak;
}

ResponseSpectrum response_spectrum(const std::vector<std::pair<double, double>>& record,
                                   std::vector<double> periods, std::vector<double> dampings) {
  ResponseSpectrum s;
  s.periods = std::move(periods);
  s.dampings = std::move(dampings);
  s.displacement.assign(s.dampings.size(), std::vector<double>(s.periods.size(), 0.0));
  for (std::size_t d = 0; d < s.dampings.size(); ++d)
    for (std::size_t p = 0; p < s.periods.size(); ++p)
      s.displacement[d][p] = peak_displacement(record, s.periods[p], s.dampings[d]);
  return s;
}

std::vector<double> log_spaced(double first, double last, int count) {
  std::vector<double> out;
  if (count == 1) return {first};
  for (int i = 0; i < count; ++i)
    out.push_back(i == count - 1
                      ? last
                      : first * std::pow(last / first, static_cast<double>(i) / (count - 1)));
  return out;
}

}  // namespace inertia
