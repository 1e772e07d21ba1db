// Nigam-Jennings response spectra against closed forms.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/seismic/response_spectrum.hpp"

namespace inertia {
namespace {

constexpr double pi = std::numbers::pi;

TEST(ResponseSpectrum, AStepIsTheClosedForm) {
  // a(t) = a0 from t = 0: u = -a0/w^2 (1 - e^(-xi w t)(cos wd t + xi/sqrt(1-xi^2) sin wd t)),
  // largest at t = pi / wd: a0/w^2 (1 + exp(-xi pi / sqrt(1 - xi^2))).
  const double a0 = 2.5;
  for (double period : {0.1, 0.5, 2.0})
    for (double xi : {0.0, 0.02, 0.05, 0.2}) {
      const double w = 2 * pi / period, root = std::sqrt(1 - xi * xi);
      // Long enough that the first peak is the largest; the record ends while the oscillator
      // rests near -a0/w^2, below the peak.
      const std::vector<std::pair<double, double>> record{{0, a0}, {10 * period, a0}};
      double at = 0;
      const double peak = peak_displacement(record, period, xi, &at);
      const double exact = a0 / (w * w) * (1 + std::exp(-xi * pi / root));
      // The exact solution's extremum between the sub-steps (the cubic through their
      // displacements and velocities was 2.9e-6 low at xi 0.2 and put the peak 2.4e-5 T early).
      EXPECT_NEAR(peak / exact, 1, 1e-12) << "T " << period << " xi " << xi;
      EXPECT_NEAR(at, pi / (w * root), 1e-9 * period) << "T " << period << " xi " << xi;
    }
}

TEST(ResponseSpectrum, PeaksBetweenSubStepsAreTheExactSolutionsExtrema) {
  // Short periods, where every sub-step is T / 20 and the peak falls inside one (the record's
  // length is no whole number of sub-steps):
  // - a step a0 from t = 0, 5 % damping: a0 / w^2 (1 + exp(-xi pi / sqrt(1 - xi^2))) at
  //   pi / wd;
  // - a ramp to a0 over td, then a0, undamped (Chopra, section 4.5): a0 / w^2 (1 +
  //   |sin(pi td / T)| / (pi td / T)) at td / 2 + T / 2 (+ k T: the crests repeat), the linear
  //   segment's exact solution carried over.
  // The cubic between sub-steps was 8.5e-6 low for the ramp, 2.8e-7 for the step; now 3e-16.
  const double a0 = 3.0, xi = 0.05;
  for (double period : {0.02, 0.05, 0.1}) {
    const double w = 2 * pi / period, wd = w * std::sqrt(1 - xi * xi);
    double at = 0;
    const std::vector<std::pair<double, double>> step{{0, a0}, {10.37 * period, a0}};
    const double step_peak = peak_displacement(step, period, xi, &at);
    EXPECT_NEAR(step_peak / (a0 / (w * w) * (1 + std::exp(-xi * pi * w / wd))), 1, 1e-10)
        << "T " << period;
    EXPECT_NEAR(at, pi / wd, 1e-9 * period) << "T " << period;
    const double td = 0.37 * period, x = pi * td / period;
    const std::vector<std::pair<double, double>> ramp{{0, 0}, {td, a0}, {5.3 * period, a0}};
    const double ramp_peak = peak_displacement(ramp, period, 0.0, &at);
    EXPECT_NEAR(ramp_peak / (a0 / (w * w) * (1 + std::sin(x) / x)), 1, 1e-10) << "T " << period;
    const double phase = std::remainder(at - (td / 2 + period / 2), period);
    EXPECT_NEAR(phase, 0, 1e-9 * period) << "T " << period;
  }
}

TEST(ResponseSpectrum, ARectangularPulseGivesItsPeakAfterTheRecord) {
  // Undamped, a pulse of a0 for td < T/2: the largest excursion is in the free vibration after
  // it, 2 a0 / w^2 sin(pi td / T) (Chopra, Dynamics of Structures, section 4.7).
  const double a0 = 1.0, period = 1.0, td = 0.1, w = 2 * pi / period;
  const std::vector<std::pair<double, double>> record{{0, a0}, {td, a0}};
  double at = 0;
  const double peak = peak_displacement(record, period, 0.0, &at);
  EXPECT_NEAR(peak / (2 * a0 / (w * w) * std::sin(pi * td / period)), 1, 1e-9);
  EXPECT_GT(at, td);
}

/// The exact response to a(t) = A sin(W t) from rest: the steady state plus the free vibration
/// that cancels its displacement and velocity at t = 0.
double harmonic_response(double A, double W, double w, double xi, double t) {
  const double r = W / w, den = (1 - r * r) * (1 - r * r) + (2 * xi * r) * (2 * xi * r);
  // u_p = C sin Wt + D cos Wt for u'' + 2 xi w u' + w^2 u = -A sin Wt.
  const double C = -A / (w * w) * (1 - r * r) / den, D = A / (w * w) * 2 * xi * r / den;
  const double wd = w * std::sqrt(1 - xi * xi);
  const double P = -D, Q = (-C * W + xi * w * P) / wd;
  return C * std::sin(W * t) + D * std::cos(W * t) +
         std::exp(-xi * w * t) * (P * std::cos(wd * t) + Q * std::sin(wd * t));
}

TEST(ResponseSpectrum, AHarmonicRecordConvergesAtSecondOrderToTheClosedForm) {
  // The record samples A sin(W t); the oscillator is exact for the piecewise-linear samples, so
  // the error is that of linear interpolation: O(h^2).
  const double A = 3.0, W = 2 * pi * 1.7, period = 0.7, xi = 0.05, w = 2 * pi / period;
  double previous = 0;
  for (double h : {0.02, 0.01, 0.005}) {
    const int n = static_cast<int>(std::round(6.0 / h));
    double u = 0, v = 0, error = 0, scale = 0;
    const OscillatorStep step(w, xi, h);
    for (int i = 0; i < n; ++i) {
      step.advance(u, v, A * std::sin(W * i * h), A * std::sin(W * (i + 1) * h));
      const double exact = harmonic_response(A, W, w, xi, (i + 1) * h);
      error = std::max(error, std::abs(u - exact));
      scale = std::max(scale, std::abs(exact));
    }
    error /= scale;
    EXPECT_LT(error, 0.01);
    if (previous > 0) {
      EXPECT_NEAR(previous / error, 4, 0.4) << "h " << h;
    }
    previous = error;
  }
}

TEST(ResponseSpectrum, SpectraAndTheirInputs) {
  const std::vector<std::pair<double, double>> record{{0, 0}, {0.1, 1}, {0.2, -1}, {0.3, 0}};
  const auto s = response_spectrum(record, {0.1, 1.0}, {0.0, 0.05});
  ASSERT_EQ(s.displacement.size(), 2u);
  ASSERT_EQ(s.displacement[0].size(), 2u);
  for (std::size_t d = 0; d < 2; ++d)
    for (std::size_t p = 0; p < 2; ++p)
      EXPECT_EQ(s.displacement[d][p], peak_displacement(record, s.periods[p], s.dampings[d]));
  EXPECT_THROW(peak_displacement(record, 0, 0.05), InputError);
  EXPECT_THROW(peak_displacement(record, 1, 1.0), InputError);
  EXPECT_THROW(peak_displacement(record, 1, -0.1), InputError);
  const auto p = log_spaced(0.01, 10, 4);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p.front(), 0.01);
  EXPECT_EQ(p.back(), 10);
  EXPECT_NEAR(p[1], 0.1, 1e-15);
}

}  // namespace
}  // namespace inertia
