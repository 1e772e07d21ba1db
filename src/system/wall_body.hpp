#pragma once
/// \file wall_body.hpp
/// Internal to src/system: a rigid wall with a mass (contact.walls[].mass, a drop weight), whose
/// translation is integrated from the contact force instead of being prescribed. The leap-frog of
/// central difference, the same recurrence as the body's nodes:
///   w_{n+1/2} = w_{n-1/2} + h F_n / M,   o_{n+1} = o_n + h w_{n+1/2},
/// F_n the force on the wall at the accepted step n (minus the force it exerts on the body),
/// started as central difference starts (w_{1/2} = w_0 + h F_0 / (2 M)). The translation at a
/// time t after the last accepted step is that of the step to t (offset()), so every evaluation
/// of the step to t sees the wall where the step puts it; the step's commit then takes the force
/// at the new configuration (commit()). Wall and body exchange momentum to round-off: the
/// whole-step momenta M w_n + sum m v_n stay the initial ones.
#include <array>
#include <span>
#include <vector>

namespace inertia::contact_input {

class WallBody {
 public:
  WallBody(double mass, const std::array<double, 3>& velocity) : mass_(mass), w_(velocity) {}

  /// The translation at time t (the last accepted step's at its own time).
  std::array<double, 3> offset(double t) const;
  /// The accepted step to time t; `force` the force on the wall there (at offset(t)). A commit at
  /// the last accepted time only replaces the force (a static start, a restart).
  void commit(double t, const std::array<double, 3>& force);
  /// At the last accepted step: the whole-step velocity w_n = w_{n-1/2} + h F_n / (2 M), as
  /// central difference's v_n; the momentum M w_n and the kinetic energy M w_n^2 / 2.
  std::array<double, 3> velocity() const;
  std::array<double, 3> momentum() const;
  double kinetic_energy() const;
  double mass() const { return mass_; }
  double time() const { return t_; }
  const std::array<double, 3>& force() const { return force_; }

  /// The state for a checkpoint and back (every value, the same on every rank).
  std::vector<double> save() const;
  void load(std::span<const double> values);
  static constexpr std::size_t state_size = 13;

 private:
  /// The share of h F_n / M the step from t_ adds to w_: 1, or 1/2 for the first step.
  double kick() const { return started_ ? 1.0 : 0.5; }

  double mass_;
  std::array<double, 3> w_;  ///< w_{n-1/2}; before the first step, the initial velocity w_0
  std::array<double, 3> o_{0, 0, 0};
  std::array<double, 3> force_{0, 0, 0};
  double t_ = 0, h_ = 0;  ///< the last accepted step's time and length
  bool started_ = false;
};

}  // namespace inertia::contact_input
