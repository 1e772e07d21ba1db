#pragma once
/// \file response_spectrum.hpp
/// Response spectra of a ground-acceleration record: the peak relative displacement of linear
/// oscillators u'' + 2 xi omega u' + omega^2 u = -a(t), a(t) piecewise linear through the
/// record's points, solved exactly over each segment (Nigam and Jennings, Bull. Seism. Soc. Am.
/// 59(2), 1969): no time-step error. Serial.

#include <utility>
#include <vector>

namespace inertia {

/// One exact step of the oscillator over a segment of length h where the ground acceleration
/// goes linearly from a0 to a1: [u, v] <- A [u, v] + B [a0, a1] (Nigam and Jennings' matrices).
class OscillatorStep {
 public:
  OscillatorStep(double omega, double damping, double h);
  void advance(double& u, double& v, double a0, double a1) const {
    const double u1 = a_[0] * u + a_[1] * v + b_[0] * a0 + b_[1] * a1;
    const double v1 = a_[2] * u + a_[3] * v + b_[2] * a0 + b_[3] * a1;
    u = u1;
    v = v1;
  }
  double h() const { return h_; }

 private:
  double h_;
  double a_[4], b_[4];
};

/// The largest |u| of the oscillator of `period` (> 0) and `damping` (in [0, 1)) over the record
/// (at rest at its first point) and one period after its last point, where the ground
/// acceleration is zero (as in a transient: the record ends, the ground stops accelerating; the
/// free vibration's largest excursion comes within half a damped period).
/// Segments are cut into exact sub-steps of at most period / 20; inside a sub-step the peak is
/// the exact solution's extremum, where its closed-form velocity vanishes (found to round-off
/// by Newton's method bracketed between the sub-step's ends and the velocity's own extremum,
/// which is in closed form): the peak of the piecewise-linear record's exact response. `time`:
/// where the peak is.
double peak_displacement(const std::vector<std::pair<double, double>>& record, double period,
                         double damping, double* time = nullptr);

struct ResponseSpectrum {
  std::vector<double> periods;
  std::vector<double> dampings;
  /// Sd per damping and period: displacement[d][p]; pseudo-velocity omega Sd, pseudo-acceleration
  /// omega^2 Sd.
  std::vector<std::vector<double>> displacement;
};

ResponseSpectrum response_spectrum(const std::vector<std::pair<double, double>>& record,
                                   std::vector<double> periods, std::vector<double> dampings);

/// `count` periods from `first` to `last`, evenly spaced in log(period).
std::vector<double> log_spaced(double first, double last, int count);

}  // namespace inertia
