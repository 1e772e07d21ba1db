#pragma once
/// \file external_loads.hpp
/// MechanicalSystem's external load f_ext(t) = sum_j a_j(t) F_j: the loads' reference vectors,
/// one per amplitude, and with uniform base excitation and Rayleigh mass damping the ground's
/// share of that damping, alpha_M M G(t) (mechanical_system.hpp, ground_motion()). The explicit
/// schemes' hot path, f = f_ext(t) - K u (times 1/m), is one pass over the vectors without an
/// allocation.

#include <span>
#include <utility>
#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

class ExternalLoads {
 public:
  /// `loads`: (amplitude, F_j) (TermSet::assemble_loads). `spec` must outlive the loads (its
  /// amplitudes and Rayleigh coefficients are read at every evaluation).
  ExternalLoads(const ProblemSpec& spec, std::vector<std::pair<int, petsc::Vector>> loads);
  ExternalLoads(const ExternalLoads&) = delete;
  ExternalLoads& operator=(const ExternalLoads&) = delete;

  /// Uniform base excitation in component d: G_d(t) = value x (amplitude's rate)(t) on its DOFs;
  /// mass_translation is M r_d.
  /// `translation`: r_d, the unit translation (0 on the rotations of beam nodes).
  void add_ground(int component, int amplitude, double value, petsc::Vector mass_translation,
                  petsc::Vector translation);
  bool has_ground() const { return !ground_.empty(); }
  const std::vector<std::pair<int, petsc::Vector>>& vectors() const { return loads_; }

  /// f_ext(t), the ground's damping force included. Collective.
  void external_force(double t, Vec f) const;
  /// alpha_M M G(t), the ground's share of the Rayleigh mass damping.
  void ground_damping_force(double t, Vec f) const;
  /// G(t): the ground's velocity on every DOF of its components (zero elsewhere).
  void ground_velocity(double t, Vec w) const;
  /// f = (f_ext(t) - ku) times `scale` pointwise if not null, in one pass (no allocation).
  void subtract_from_external(double t, Vec ku, Vec f, Vec scale) const;

 private:
  /// The load factors of the vectors at t into amplitudes_: the loads', then (with alpha_M)
  /// the ground's; returns how many.
  std::size_t factors(double t) const;
  struct Ground {
    int component = 0;
    int amplitude = 0;  ///< the condition's displacement amplitude (its rate is the velocity)
    double value = 0;
    petsc::Vector mass_translation;  ///< M r_d
    petsc::Vector translation;       ///< r_d
  };
  const ProblemSpec& spec_;
  std::vector<std::pair<int, petsc::Vector>> loads_;  ///< (amplitude, load vector)
  std::vector<Ground> ground_;
  /// subtract_from_external's per-step storage (sized when the vectors are known): each
  /// vector's factor, and their borrowed arrays while it runs (empty otherwise).
  mutable std::vector<double> amplitudes_;
  mutable std::vector<petsc::ConstArray> arrays_;
};

}  // namespace inertia
