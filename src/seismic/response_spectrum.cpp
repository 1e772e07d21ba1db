// Nigam-Jennings response spectra.

#include "inertia/seismic/response_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "inertia/core/error.hpp"

namespace inertia {

OscillatorStep::OscillatorStep(double omega, double damping, double h) : h_(h) {
  // The exact solution over [0, h] with a(tau) = a0 + s tau: a particular part c0 + c1 tau and
  // the damped free vibration that matches u, v at 0. Applied to unit states and inputs, it
  // gives the columns of A and B.
  const double xi = damping, wd = omega * std::sqrt(1 - xi * xi);
  const double e = std::exp(-xi * omega * h), c = std::cos(wd * h), sn = std::sin(wd * h);
  auto solve = [&](double u, double v, double a0, double a1, double& u1, double& v1) {
    const double s = (a1 - a0) / h;
    const double c1 = -s / (omega * omega);
    const double c0 = -a0 / (omega * omega) + 2 * xi * s / (omega * omega * omega);
    const double p = u - c0, q = (v - c1 + xi * omega * p) / wd;
    u1 = c0 + c1 * h + e * (p * c + q * sn);
    v1 = c1 + e * ((wd * q - xi * omega * p) * c - (xi * omega * q + wd * p) * sn);
  };
  solve(1, 0, 0, 0, a_[0], a_[2]);
  solve(0, 1, 0, 0, a_[1], a_[3]);
  solve(0, 0, 1, 0, b_[0], b_[2]);
  solve(0, 0, 0, 1, b_[1], b_[3]);
}

namespace {

/// The largest |p| of the cubic Hermite through (u0, v0) and (u1, v1) over a step h, at its
/// interior stationary point (when v changes sign), else max(|u0|, |u1|); `at`: its fraction.
double hermite_peak(double u0, double v0, double u1, double v1, double h, double& at) {
  double best = std::abs(u1);
  at = 1;
  if (!(v0 * v1 < 0)) return best;
  // p(x) = u0 h00 + h v0 h10 + u1 h01 + h v1 h11; p'(x) = 3 A x^2 + 2 B x + C.
  const double m0 = h * v0, m1 = h * v1;
  const double A = 2 * u0 + m0 - 2 * u1 + m1, B = -3 * u0 - 2 * m0 + 3 * u1 - m1, C = m0;
  auto p = [&](double x) { return ((A * x + B) * x + C) * x + u0; };
  const double qa = 3 * A, qb = 2 * B, qc = C;
  double roots[2];
  int count = 0;
  if (std::abs(qa) < 1e-300) {
    if (qb != 0) roots[count++] = -qc / qb;
  } else {
    const double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0) {
      const double r = std::sqrt(disc);
      const double q = -0.5 * (qb + std::copysign(r, qb));
      roots[count++] = q / qa;
      if (q != 0) roots[count++] = qc / q;
    }
  }
  for (int i = 0; i < count; ++i)
    if (roots[i] > 0 && roots[i] < 1 && std::abs(p(roots[i])) > best) {
      best = std::abs(p(roots[i]));
      at = roots[i];
    }
  return best;
}

}  // namespace

double peak_displacement(const std::vector<std::pair<double, double>>& record, double period,
                         double damping, double* time) {
  if (!(period > 0)) throw InputError(cat("a period must be > 0, got ", period));
  if (!(damping >= 0 && damping < 1))
    throw InputError(cat("a damping ratio must be in [0, 1), got ", damping));
  const double omega = 2 * std::numbers::pi / period, h_max = period / 20;
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
      double at = 1;
      const double p = hermite_peak(u0, v0, u, v, h, at);
      if (p > peak) {
        peak = p;
        peak_time = t0 + (k + at) * h;
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
