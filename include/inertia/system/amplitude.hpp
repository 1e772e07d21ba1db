#pragma once
/// \file amplitude.hpp
/// Time functions that multiply a load or a prescribed displacement (case file `amplitudes`).

#include <utility>
#include <vector>

namespace inertia {

/// a(t) with its first and second derivatives.
/// - constant: 1;
/// - ramp: t / end_time (the implicit amplitude of loads under `integrator: static`);
/// - table: piecewise linear through (t_i, a_i), constant beyond the ends (derivatives are those of
///   the segment containing t; at a kink, of the segment to the right);
/// - sine: sin(2 pi frequency t + phase).
class Amplitude {
 public:
  static Amplitude constant();
  static Amplitude ramp(double end_time);
  static Amplitude table(std::vector<std::pair<double, double>> points);
  static Amplitude sine(double frequency, double phase);

  double value(double t) const;
  double rate(double t) const;          ///< da/dt
  double acceleration(double t) const;  ///< d2a/dt2

 private:
  enum class Kind { constant, ramp, table, sine };
  Kind kind_ = Kind::constant;
  double a_ = 0, b_ = 0;  // ramp: 1/end; sine: omega, phase
  std::vector<std::pair<double, double>> points_;
};

}  // namespace inertia
