#include "inertia/time/round_off_floor.hpp"

#include <cmath>

#include "inertia/core/error.hpp"

namespace inertia {

bool RoundOffFloor::reached(const std::function<void(Vec y, Vec g)>& residual,
                            const std::function<void(Vec y, Vec x)>& configuration, double cx,
                            Vec y, Vec g, PetscReal gnorm) {
  if (measured_at_ > 0 && gnorm >= 0.1 * measured_at_)
    return gnorm <= floor_factor * floor_;  // no closer to the floor than at the last measurement
  if (!probe_) {
    probe_ = system_.create_vector();
    probe_g_ = system_.create_vector();
    probe_h_ = system_.create_vector();
  }
  // G(y_probe) into out; false where the elements cannot take y_probe (raised on every rank).
  auto evaluate = [&](Vec y_probe, Vec out) {
    try {
      residual(y_probe, out);
    } catch (const SolverError&) {
      return false;
    }
    system_.zero_constrained(out);
    return true;
  };
  // delta = relative_probe max(|y|, |x| / cx) (the sign of y) on the free entries (the
  // prescribed ones must not move), in probe_g_ until both probe points are formed.
  INERTIA_PETSC(VecCopy(y, probe_g_));
  if (cx > 0 && configuration) {
    configuration(y, probe_);
    INERTIA_PETSC(VecAbs(probe_));
    INERTIA_PETSC(VecScale(probe_, 1 / cx));
    INERTIA_PETSC(VecAbs(probe_g_));
    INERTIA_PETSC(VecPointwiseMax(probe_g_, probe_g_, probe_));
  }
  INERTIA_PETSC(VecScale(probe_g_, relative_probe));
  system_.zero_constrained(probe_g_);
  INERTIA_PETSC(VecWAXPY(probe_, 1.0, probe_g_, y));
  bool measured = evaluate(probe_, probe_h_);
  INERTIA_PETSC(VecWAXPY(probe_, -1.0, probe_g_, y));
  measured = measured && evaluate(probe_, probe_g_);
  PetscReal second_difference = 0;
  if (measured) {
    INERTIA_PETSC(VecAXPBYPCZ(probe_h_, 1.0, -2.0, 1.0, probe_g_, g));
    INERTIA_PETSC(VecNorm(probe_h_, NORM_2, &second_difference));
  }
  floor_ = measured && std::isfinite(second_difference) ? second_difference / std::sqrt(6.0) : 0;
  measured_at_ = gnorm;
  return floor_ > 0 && gnorm <= floor_factor * floor_;
}

}  // namespace inertia
