#include "inertia/system/amplitude.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

namespace inertia {

namespace {

/// A time within a few ulps of a point's (8 eps relative): n dt and the decimal a table was
/// written in may differ by an ulp or two.
bool near_point(double t, double point) {
  return std::abs(t - point) <= 8 * std::numeric_limits<double>::epsilon() * std::abs(point);
}

}  // namespace

Amplitude Amplitude::constant() { return {}; }

Amplitude Amplitude::ramp(double end_time) {
  Amplitude a;
  a.kind_ = Kind::ramp;
  a.a_ = 1.0 / end_time;
  return a;
}

Amplitude Amplitude::table(AmplitudePoints points) {
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

Amplitude Amplitude::smooth_step(AmplitudePoints points, int continuity) {
  Amplitude a;
  a.kind_ = Kind::smooth_step;
  a.points_ = std::move(points);
  a.a_ = continuity;
  return a;
}

Amplitude Amplitude::integrated(const Amplitude& acceleration) {
  Amplitude a;
  a.kind_ = Kind::integrated;
  a.base_ = std::make_shared<const Amplitude>(acceleration);
  a.breaks_ = {0.0};
  a.breaks_.reserve(acceleration.points_.size() + 1);  // exactly: a record may be 10^7 points
  if (acceleration.kind_ == Kind::table || acceleration.kind_ == Kind::smooth_step) {
    for (const auto& p : acceleration.points_)
      if (p.first > 0) a.breaks_.push_back(p.first);
    // A record ends at its last point: the ground stops accelerating there (holding the last
    // sample would accelerate it uniformly to the end of the run). The last point is a break, so
    // no quadrature segment straddles the end.
    a.acceleration_end_ = acceleration.points_.back().first;
  }
  a.v_at_ = {0.0};
  a.u_at_ = {0.0};
  a.v_at_.reserve(a.breaks_.size());
  a.u_at_.reserve(a.breaks_.size());
  std::size_t cursor = 0;
  for (std::size_t i = 0; i + 1 < a.breaks_.size(); ++i) {
    double v = 0, u = 0;
    a.partial(i, a.breaks_[i + 1], v, u, &cursor);
    a.v_at_.push_back(v);
    a.u_at_.push_back(u);
  }
  return a;
}

double Amplitude::integrand(double t) const {
  return t > acceleration_end_ && !near_point(t, acceleration_end_) ? 0.0 : base_->value(t);
}

AmplitudePoints::const_iterator Amplitude::locate(double& t) const {
  auto it = std::upper_bound(points_.begin(), points_.end(), t,
                             [](double x, const auto& p) { return x < p.first; });
  if (it != points_.end() && near_point(t, it->first))
    t = (it++)->first;  // just below a point: on it, the segment to its right
  else if (it != points_.begin() && near_point(t, (it - 1)->first))
    t = (it - 1)->first;
  return it;
}

std::size_t Amplitude::break_before(double t) const {
  const auto it = std::upper_bound(breaks_.begin(), breaks_.end(), t);
  return it == breaks_.begin() ? 0 : static_cast<std::size_t>(it - breaks_.begin()) - 1;
}

void Amplitude::partial(std::size_t i, double t, double& v, double& u, std::size_t* cursor) const {
  // From breaks_[i] (velocity v_at_[i], displacement u_at_[i]) to t, 4-point Gauss-Legendre.
  static constexpr double x[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563,
                                  0.8611363115940526};
  static constexpr double w[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461,
                                  0.3478548451374538};
  const double t0 = breaks_[i], half = 0.5 * (t - t0);
  double tau[4], a[4];
  for (int k = 0; k < 4; ++k) tau[k] = t0 + half * (1 + x[k]);
  // The four points lie in one segment of a table: one search for them (a record of 10^7
  // points is integrated in a second, not four binary searches per point).
  if (base_->kind_ == Kind::table && half > 0 && base_->points_.size() >= 2 &&
      tau[0] >= base_->points_.front().first && tau[3] < base_->points_.back().first) {
    const auto& pts = base_->points_;
    // From the caller's cursor (the construction walks the segments in order), else a search.
    auto it = cursor && *cursor < pts.size() && pts[*cursor].first <= tau[0]
                  ? pts.begin() + static_cast<std::ptrdiff_t>(*cursor)
                  : std::upper_bound(pts.begin(), pts.end(), tau[0],
                                     [](double y, const auto& p) { return y < p.first; });
    for (int k = 0; k < 4; ++k) {
      while (it->first <= tau[k]) ++it;  // tau[3] < the last point's time: stays in range
      const auto& [tb, ab] = *it;
      const auto& [ta, aa] = *(it - 1);
      a[k] = tau[k] > acceleration_end_ ? 0.0 : aa + (ab - aa) * (tau[k] - ta) / (tb - ta);
    }
    if (cursor) *cursor = static_cast<std::size_t>(it - pts.begin()) - 1;
  } else {
    for (int k = 0; k < 4; ++k) a[k] = integrand(tau[k]);
  }
  double dv = 0, du = 0;
  for (int k = 0; k < 4; ++k) {
    dv += w[k] * a[k];
    du += w[k] * (t - tau[k]) * a[k];
  }
  v = v_at_[i] + half * dv;
  u = u_at_[i] + v_at_[i] * (t - t0) + half * du;
}

bool Amplitude::segment(double& t, double& t0, double& a0, double& t1, double& a1) const {
  if (points_.size() < 2) return false;
  const auto it = locate(t);
  if (t < points_.front().first || it == points_.end()) return false;
  std::tie(t1, a1) = *it;
  std::tie(t0, a0) = *(it - 1);
  return true;
}

double Amplitude::step_shape(double x, int derivative) const {
  if (a_ == 1) {  // C1: 3 x^2 - 2 x^3
    switch (derivative) {
      case 0:
        return x * x * (3 - 2 * x);
      case 1:
        return 6 * x * (1 - x);
      default:
        return 6 * (1 - 2 * x);
    }
  }
  switch (derivative) {  // C2: x^3 (10 - 15 x + 6 x^2)
    case 0:
      return x * x * x * (10 + x * (-15 + 6 * x));
    case 1:
      return 30 * x * x * (1 - x) * (1 - x);
    default:
      return 60 * x * (1 - x) * (1 - 2 * x);
  }
}

double Amplitude::value(double t) const {
  switch (kind_) {
    case Kind::integrated: {
      if (t <= 0) return 0;
      if (base_->kind_ == Kind::sine) {
        // A = sin(w t + p): u = t cos(p) / w - (sin(w t + p) - sin(p)) / w^2.
        const double w = base_->a_, p = base_->b_;
        return t * std::cos(p) / w - (std::sin(w * t + p) - std::sin(p)) / (w * w);
      }
      double v = 0, u = 0;
      partial(break_before(t), t, v, u);
      return u;
    }
    case Kind::constant:
      return 1.0;
    case Kind::ramp:
      return t * a_;
    case Kind::sine:
      return std::sin(a_ * t + b_);
    case Kind::table: {
      const auto it = locate(t);
      if (t <= points_.front().first) return points_.front().second;
      if (it == points_.end()) return points_.back().second;
      const auto& [t1, a1] = *it;
      const auto& [t0, a0] = *(it - 1);
      return a0 + (a1 - a0) * (t - t0) / (t1 - t0);
    }
    case Kind::smooth_step: {
      double t0, a0, t1, a1;
      const bool inside = segment(t, t0, a0, t1, a1);
      if (t <= points_.front().first) return points_.front().second;
      if (!inside) return points_.back().second;
      return a0 + (a1 - a0) * step_shape((t - t0) / (t1 - t0), 0);
    }
  }
  return 0;
}

double Amplitude::rate(double t) const {
  switch (kind_) {
    case Kind::integrated: {
      if (t <= 0) return 0;
      if (base_->kind_ == Kind::sine) {
        const double w = base_->a_, p = base_->b_;
        return (std::cos(p) - std::cos(w * t + p)) / w;
      }
      double v = 0, u = 0;
      partial(break_before(t), t, v, u);
      return v;
    }
    case Kind::constant:
      return 0.0;
    case Kind::ramp:
      return a_;
    case Kind::sine:
      return a_ * std::cos(a_ * t + b_);
    case Kind::table: {
      const auto it = locate(t);
      if (t < points_.front().first || it == points_.end() || points_.size() < 2) return 0;
      const auto& [t1, a1] = *it;
      const auto& [t0, a0] = *(it - 1);
      return (a1 - a0) / (t1 - t0);
    }
    case Kind::smooth_step: {
      double t0, a0, t1, a1;
      if (!segment(t, t0, a0, t1, a1)) return 0;
      return (a1 - a0) * step_shape((t - t0) / (t1 - t0), 1) / (t1 - t0);
    }
  }
  return 0;
}

double Amplitude::acceleration(double t) const {
  if (kind_ == Kind::integrated) return t < 0 ? 0.0 : integrand(t);
  if (kind_ == Kind::sine) return -a_ * a_ * std::sin(a_ * t + b_);
  double t0, a0, t1, a1;
  if (kind_ == Kind::smooth_step && segment(t, t0, a0, t1, a1))
    return (a1 - a0) * step_shape((t - t0) / (t1 - t0), 2) / ((t1 - t0) * (t1 - t0));
  return 0.0;
}

Amplitude::Peak Amplitude::peak(double t0, double t1) const {
  // The candidates in increasing time, so that the first of equal peaks is kept.
  Peak best{std::abs(value(t0)), t0};
  auto consider = [&](double t) {
    if (t < t0 || t > t1) return;
    const double a = std::abs(value(t));
    if (a > best.value) best = {a, t};
  };
  switch (kind_) {
    case Kind::constant:
      break;
    case Kind::ramp:
      break;
    case Kind::table:
    case Kind::smooth_step:
      // Linear or monotone between the points: the extremes are at the points (where the value
      // is the point's) or the ends.
      for (const auto& [t, a] : points_)
        if (t >= t0 && t <= t1 && std::abs(a) > best.value) best = {std::abs(a), t};
      break;
    case Kind::sine: {
      // |sin(w t + p)| = 1 at w t + p = pi/2 + k pi: the first such t from t0.
      const double w = a_, p = b_, pi = std::numbers::pi;
      const double k = std::ceil((w * t0 + p - pi / 2) / pi);
      const double crest = (pi / 2 + k * pi - p) / w;
      if (crest <= t1) {
        best = {std::max(best.value, std::abs(value(crest))), crest};
        return best;
      }
      break;
    }
    case Kind::integrated: {
      // The breaks (where the value is u_at_) and the even samples, merged in time order.
      constexpr int samples = 4096;
      std::size_t b = 0;
      for (int i = 1; i <= samples; ++i) {
        const double ts = i < samples ? t0 + (t1 - t0) * i / samples : t1;
        for (; b < breaks_.size() && breaks_[b] <= ts; ++b)
          if (breaks_[b] >= t0 && std::abs(u_at_[b]) > best.value)
            best = {std::abs(u_at_[b]), breaks_[b]};
        consider(ts);
      }
      break;
    }
  }
  consider(t1);
  return best;
}

}  // namespace inertia
