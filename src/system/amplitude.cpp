#include "inertia/system/amplitude.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace inertia {

Amplitude Amplitude::constant() { return {}; }

Amplitude Amplitude::ramp(double end_time) {
  Amplitude a;
  a.kind_ = Kind::ramp;
  a.a_ = 1.0 / end_time;
  return a;
}

Amplitude Amplitude::table(std::vector<std::pair<double, double>> points) {
  Amplitude a;
  a.kind_ = Kind::table;
  a.points_ = std::move(points);
  return a;
}

Amplitude Amplitude::sine(double frequency, double phase) {
  Amplitude a;
  a.kind_ = Kind::sine;
  a.a_ = 2 * std::numbers::pi * frequency;
  a.b_ = phase;
  return a;
}

double Amplitude::value(double t) const {
  switch (kind_) {
    case Kind::constant:
      return 1.0;
    case Kind::ramp:
      return t * a_;
    case Kind::sine:
      return std::sin(a_ * t + b_);
    case Kind::table: {
      if (t <= points_.front().first) return points_.front().second;
      if (t >= points_.back().first) return points_.back().second;
      auto it = std::upper_bound(points_.begin(), points_.end(), t,
                                 [](double x, const auto& p) { return x < p.first; });
      const auto& [t1, a1] = *it;
      const auto& [t0, a0] = *(it - 1);
      return a0 + (a1 - a0) * (t - t0) / (t1 - t0);
    }
  }
  return 0;
}

double Amplitude::rate(double t) const {
  switch (kind_) {
    case Kind::constant:
      return 0.0;
    case Kind::ramp:
      return a_;
    case Kind::sine:
      return a_ * std::cos(a_ * t + b_);
    case Kind::table: {
      if (t < points_.front().first || t >= points_.back().first || points_.size() < 2) return 0;
      auto it = std::upper_bound(points_.begin(), points_.end(), t,
                                 [](double x, const auto& p) { return x < p.first; });
      const auto& [t1, a1] = *it;
      const auto& [t0, a0] = *(it - 1);
      return (a1 - a0) / (t1 - t0);
    }
  }
  return 0;
}

double Amplitude::acceleration(double t) const {
  if (kind_ == Kind::sine) return -a_ * a_ * std::sin(a_ * t + b_);
  return 0.0;
}

}  // namespace inertia
