#pragma once
/// \file spectrum.hpp
/// The highest natural frequency of the constrained system, for the stable step of the explicit
/// schemes (omega_max h <= limit).

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

struct FrequencyEstimate {
  double power = 0;  ///< sqrt of the Rayleigh quotient after the power iterations (from below)
  double bound =
      0;  ///< Gershgorin upper bound sqrt(||D K D||_inf), D = M_lumped^{-1/2} (free DOFs)
  int iterations = 0;
};

/// Collective. Power iterations on M^{-1} K (the system's own mass treatment: pointwise for
/// lumped mass, a KSP solve per iteration for consistent mass) on the free DOFs, at the current
/// linearisation, and the lumped-mass Gershgorin bound. Deterministic (fixed random seed).
/// With `lumped`, the lumped masses stand in for a consistent mass (no mass solves: cheap; the
/// implicit schemes use the estimate only for the log and the solver choice).
FrequencyEstimate estimate_highest_frequency(MechanicalSystem& system, int iterations,
                                             bool lumped = false);

}  // namespace inertia
