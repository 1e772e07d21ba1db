#pragma once
/// \file round_off_floor.hpp
/// The round-off floor of a Newton solve's residual (newton.hpp, "Round-off floor"): measured
/// where a solve stalls, at the stalled iterate y, from G at y +- delta on the free entries:
///   floor = ||G(y + delta) + G(y - delta) - 2 G(y)|| / sqrt(6),
///   delta_i = relative_probe max(|y_i|, |x_i| / cx),
/// x = x0 + cx y the displacement at y (NewtonProblem::configuration; cx = 0: delta =
/// relative_probe y). The unknown of a dynamic step is an acceleration or a velocity, zero (or
/// round-off) where a body flies free at rest or at a constant velocity, while the residual's
/// round-off comes from the displacement: a probe of 1e-8 of y alone moved x by less than its
/// last bit there, measured a floor of 0, and Newton stalled at the first step's round-off (a
/// shell plate thrown at a wall, implicitly). 1e-8 of x is what a static solve probes.
/// Re-measured only where ||G|| fell tenfold since the last measurement of the solve.

#include <functional>

#include "inertia/system/dynamic_system.hpp"

namespace inertia {

class RoundOffFloor {
 public:
  explicit RoundOffFloor(DynamicSystem& system) : system_(system) {}

  /// A new solve: nothing measured.
  void reset() { floor_ = measured_at_ = 0; }
  /// Collective. Whether ||G(y)|| = gnorm (g = G(y), `residual` evaluates G) is within
  /// floor_factor of the floor measured at y (or at the last measurement, where ||G|| did not
  /// fall tenfold since).
  /// `configuration` (x(y) = x0 + cx y, may be empty with cx = 0) scales the probe.
  bool reached(const std::function<void(Vec y, Vec g)>& residual,
               const std::function<void(Vec y, Vec x)>& configuration, double cx, Vec y, Vec g,
               PetscReal gnorm);
  /// The floor of this solve's last measurement (0: none).
  PetscReal floor() const { return floor_; }

  /// delta = relative_probe y; ||G|| at most floor_factor times the measured floor is accepted.
  static constexpr double relative_probe = 1e-8, floor_factor = 10;

 private:
  DynamicSystem& system_;
  petsc::Vector probe_, probe_g_, probe_h_;
  PetscReal floor_ = 0, measured_at_ = 0;
};

}  // namespace inertia
