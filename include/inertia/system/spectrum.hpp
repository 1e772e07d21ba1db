#pragma once
/// \file spectrum.hpp
/// The highest natural frequency of the constrained system, for the stable step of the explicit
/// schemes (omega_max h <= limit), and the step `dt: auto` takes from it.
///
/// The estimate is the same on every rank count. Power iterations on M^{-1} K converge to the
/// highest frequency of the assembled system from below. The Gershgorin bound bounds it from
/// above, loosely (42 % above it for the tet10 cantilever example: 42 % more steps), and so does
/// an element-by-element bound (each element's own highest frequency, which the mesh's cannot
/// exceed), by a margin that depends on the elements. So the estimate is the power method, made
/// independent of the partition: its start vector is a hash of each DOF's index in the mesh's
/// natural numbering (LocalMesh::natural_ids: file order, not the per-rank-count numbering), so
/// every rank count makes the same iterations and differs only in the order of the sums
/// (round-off, 1e-15 relative for the cantilever at np 1, 2, 3). The iterations run until the
/// estimate settles (the convergence test below) rather than a fixed 50, which left the
/// cantilever's 1.4e-3 low. `dt: auto` then rounds the stable step down to 3 significant digits
/// (round_down_to_digits), which absorbs the round-off: np 1, 2, 3 get the same bits, unless the
/// estimates of two rank counts, 1e-15 apart, straddle a 3-digit boundary (a chance of ~1e-12).

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

struct FrequencyEstimate {
  double power = 0;  ///< sqrt of the Rayleigh quotient after the power iterations (from below)
  double bound =
      0;  ///< Gershgorin upper bound sqrt(||D K D||_inf), D = M_lumped^{-1/2} (free DOFs)
  int iterations = 0;
  bool converged = false;  ///< the estimate settled (power_iteration_tolerance) within the cap
  double last_change = 0;  ///< |omega_k - omega_{k-1}| / omega_k at the last iteration
};

/// The power iterations stop once sqrt of the Rayleigh quotient changes by less than this,
/// relative, from one iteration to the next. The estimate rises to omega_max geometrically; what
/// is left is about 10x this for the cantilever example with lumped mass (8.7e-6 below the value
/// after 5000 iterations, at 96), and at most ~sqrt(tolerance / 2) = 7e-4 below a tight cluster
/// of highest frequencies (the consistent-mass cantilever: 2.5e-4 below the value after 2000, at
/// 104). Far inside dt: auto's 10 % margin.
inline constexpr double power_iteration_tolerance = 1e-6;
/// The cap on the power iterations (the examples settle in about 100): with consistent mass each
/// one is a mass solve, about the cost of an explicit step.
inline constexpr int max_power_iterations = 1000;

/// Collective. Power iterations on M^{-1} K (the system's own mass treatment: pointwise for
/// lumped mass, a KSP solve per iteration for consistent mass) on the free DOFs, at the current
/// linearisation, from the partition-independent start vector above, until the estimate settles
/// or after `max_iterations`; and the lumped-mass Gershgorin bound. With `lumped`, the lumped
/// masses stand in for a consistent mass (no mass solves: cheap; the implicit schemes use the
/// estimate only for the log and the solver choice).
FrequencyEstimate estimate_highest_frequency(MechanicalSystem& system,
                                             int max_iterations = max_power_iterations,
                                             bool lumped = false);

/// x > 0 rounded down to `digits` (1 to 15) significant decimal digits: 7.1789e-7 -> 7.17e-7 for
/// 3, never above x, and for 1e-20 < x < 1e20 the double nearest that decimal (10^22 is the
/// largest exact power of 10). dt: auto rounds the stable step so (see the file's comment). Values
/// outside (1e-290, 1e290), infinities and NaN are returned as they are.
double round_down_to_digits(double x, int digits);

}  // namespace inertia
