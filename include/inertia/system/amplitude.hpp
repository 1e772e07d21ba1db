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
/// - smooth_step: through (t_i, a_i) like a table, but each segment is a smooth step with zero
///   rate (continuity 1: 3 x^2 - 2 x^3) or zero rate and acceleration (continuity 2, Abaqus's
///   SMOOTH STEP: x^3 (10 - 15 x + 6 x^2)) at its ends, x = (t - t_i) / (t_i+1 - t_i);
/// - sine: sin(2 pi frequency t + phase).
/// Tables and smooth steps hold their first value before the first point and their last value
/// after the last one.
class Amplitude {
 public:
  static Amplitude constant();
  static Amplitude ramp(double end_time);
  static Amplitude table(std::vector<std::pair<double, double>> points);
  static Amplitude sine(double frequency, double phase);
  static Amplitude smooth_step(std::vector<std::pair<double, double>> points, int continuity);

  double value(double t) const;
  double rate(double t) const;          ///< da/dt
  double acceleration(double t) const;  ///< d2a/dt2

 private:
  enum class Kind { constant, ramp, table, sine, smooth_step };
  /// The segment [t0, t1] of points_ containing t (t strictly inside the points' span), or false.
  bool segment(double t, double& t0, double& a0, double& t1, double& a1) const;
  /// Smooth step s(x) on [0, 1] and its derivatives (of the order `derivative`).
  double step_shape(double x, int derivative) const;
  Kind kind_ = Kind::constant;
  double a_ = 0, b_ = 0;  // ramp: 1/end; sine: omega, phase
  std::vector<std::pair<double, double>> points_;
};

}  // namespace inertia
