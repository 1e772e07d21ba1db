#pragma once
/// \file round_off_floor.hpp
/// The round-off floor of a Newton solve's residual (newton.hpp, "Round-off floor"): measured
/// where a solve stalls, at the stalled iterate y, from G at y +- delta, delta = relative_probe y
/// on the free entries:
///   floor = ||G(y + delta) + G(y - delta) - 2 G(y)|| / sqrt(6).
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
  bool reached(const std::function<void(Vec y, Vec g)>& residual, Vec y, Vec g, PetscReal gnorm);
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
