#pragma once
/// \file amplitude.hpp
/// Time functions that multiply a load or a prescribed displacement (case file `amplitudes`).

#include <initializer_list>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace inertia {

/// The (t, a) points of a table or smooth step, immutable and shared by every copy: a record of
/// 10^7 points is held once per rank, however many conditions, copies and integrals use it.
class AmplitudePoints {
 public:
  using value_type = std::pair<double, double>;
  using const_iterator = std::vector<value_type>::const_iterator;
  AmplitudePoints() = default;
  AmplitudePoints(std::vector<value_type> points)  // NOLINT(google-explicit-constructor)
      : points_(std::make_shared<const std::vector<value_type>>(std::move(points))) {}
  AmplitudePoints(std::initializer_list<value_type> points)
      : AmplitudePoints(std::vector<value_type>(points)) {}
  std::size_t size() const { return points_ ? points_->size() : 0; }
  bool empty() const { return size() == 0; }
  const value_type& operator[](std::size_t i) const { return (*points_)[i]; }
  const value_type& front() const { return points_->front(); }
  const value_type& back() const { return points_->back(); }
  const_iterator begin() const { return points_ ? points_->begin() : const_iterator(); }
  const_iterator end() const { return points_ ? points_->end() : const_iterator(); }

 private:
  std::shared_ptr<const std::vector<value_type>> points_;
};

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
/// after the last one (what a load or a prescribed displacement does after its table). A time
/// within a few ulps of a point (8 eps relative) is that point's time (n dt and the decimal a
/// table was written in may differ by an ulp or two): its value, the rate to its right.
/// - integrated(A): the motion of a prescribed acceleration A, value(t) = the double integral of A
///   from 0, rate(t) = its integral, acceleration(t) = A(t) (zero displacement and velocity at
///   t = 0). Exact: analytic for a sine, and per segment between A's points (where A is a
///   polynomial of degree <= 5) by 4-point Gauss-Legendre quadrature, exact to degree 7; a table's
///   displacement is piecewise cubic. A table or smooth step A is an accelerogram: zero after its
///   last point t_n (OpenSees' Path series; t_n plus a few ulps is still t_n), not held, so
///   that a record shorter than the run leaves the base moving on at its final velocity,
///   acceleration(t) = 0, rate(t) = rate(t_n), value(t) = value(t_n) + rate(t_n) (t - t_n),
///   instead of accelerating it to the end.
class Amplitude {
 public:
  /// The largest |a(t)| over an interval and the earliest time it is reached.
  struct Peak {
    double value = 0;
    double time = 0;
  };

  static Amplitude integrated(const Amplitude& acceleration);
  static Amplitude constant();
  static Amplitude ramp(double end_time);
  static Amplitude table(AmplitudePoints points);
  static Amplitude sine(double frequency, double phase);
  static Amplitude smooth_step(AmplitudePoints points, int continuity);

  double value(double t) const;
  double rate(double t) const;          ///< da/dt
  double acceleration(double t) const;  ///< d2a/dt2
  /// The peak of |value(t)| over [t0, t1] (t0 <= t1). Exact for a constant, a ramp, a table and
  /// a smooth step (monotone between their points: the extremes are at the points or at t0, t1)
  /// and a sine (its first crest in the interval); an integrated amplitude is sampled at its
  /// breaks, t0, t1 and 4096 even steps between.
  Peak peak(double t0, double t1) const;

 private:
  enum class Kind { constant, ramp, table, sine, smooth_step, integrated };
  /// integrated: the integrals from breaks_[i] to t (< the next break) of A and (t - tau) A.
  /// `cursor` (optional): a table A's segment to search from, updated (for calls in time order).
  void partial(std::size_t i, double t, double& v, double& u, std::size_t* cursor = nullptr) const;
  std::size_t break_before(double t) const;
  /// integrated: the acceleration A(t), zero after acceleration_end_.
  double integrand(double t) const;
  /// A table or smooth step: the first point after t, with t moved onto a point it is within a
  /// few ulps of (8 eps relative; then the point after that one).
  AmplitudePoints::const_iterator locate(double& t) const;
  /// The segment [t0, t1] of points_ containing t (t moved by locate(), then strictly inside the
  /// points' span), or false.
  bool segment(double& t, double& t0, double& a0, double& t1, double& a1) const;
  /// Smooth step s(x) on [0, 1] and its derivatives (of the order `derivative`).
  double step_shape(double x, int derivative) const;
  Kind kind_ = Kind::constant;
  double a_ = 0, b_ = 0;  // ramp: 1/end; sine: omega, phase
  AmplitudePoints points_;
  // integrated: the acceleration, its breakpoints (0 and its points after 0), and the velocity
  // and displacement at each breakpoint.
  std::shared_ptr<const Amplitude> base_;
  std::vector<double> breaks_, v_at_, u_at_;
  /// integrated: where the acceleration stops (a table's or smooth step's last point; A = 0
  /// after it), infinity for a constant or a sine.
  double acceleration_end_ = std::numeric_limits<double>::infinity();
};

}  // namespace inertia
