#pragma once
/// \file constraint_set.hpp
/// MechanicalSystem's constrained DOFs: which conditions (ProblemSpec::dirichlet) hold which
/// owned DOFs (a later condition overrides an earlier one on the DOFs both name), the prescribed
/// motion g(t) = value x amplitude there, the overlaps between conditions, and what the supports'
/// motion is per component (uniform base excitation or not). Built once from the mesh and the
/// conditions; the same on every rank where it says so.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "inertia/system/problem.hpp"

namespace inertia {

/// Two conditions (ProblemSpec::dirichlet indices, earlier < later) naming the same DOFs: the
/// later one holds them (its motion, its reaction). A DOF three conditions name counts for
/// (first, third) and (second, third).
struct ConstraintOverlap {
  int earlier = 0, later = 0;
  std::int64_t dofs = 0;       ///< DOFs both name, over all ranks
  std::int64_t differing = 0;  ///< of those, where the two prescribe different motions
};

/// The supports' motion in a component (MechanicalSystem::ground_motion). uniform: every
/// constrained DOF of the component follows one acceleration record (conditions of type
/// acceleration with the same record and value); multi_support: supports follow different
/// motions (or fixed supports besides accelerated ones); displaced: no acceleration record, but
/// supports driven by a prescribed displacement.
enum class GroundMotion { none, uniform, multi_support, displaced };

class ConstraintSet {
 public:
  /// Collective (the overlaps, the prescribed motion and the ground motion over all ranks).
  /// `spec` must outlive the set (its amplitudes are read at every application).
  ConstraintSet(MPI_Comm comm, const LocalMesh& mesh, const ProblemSpec& spec);
  ConstraintSet(const ConstraintSet&) = delete;
  ConstraintSet& operator=(const ConstraintSet&) = delete;

  /// This rank's constrained DOFs (global indices, sorted) and, for each, the condition that
  /// holds it: the last one naming it.
  std::span<const PetscInt> dofs() const { return dofs_; }
  std::span<const int> conditions() const { return conditions_; }
  /// The owned local index of dofs()[i].
  PetscInt local(std::size_t i) const { return dofs_[i] - first_; }
  /// True if the owned local DOF `local` is constrained.
  bool holds(PetscInt local) const;
  /// Collective: the constrained DOFs over all ranks.
  PetscInt global_count(MPI_Comm comm) const;
  /// The same on every rank, ordered by (earlier, later).
  std::span<const ConstraintOverlap> overlaps() const { return overlaps_; }
  /// True if some constrained DOF has a non-zero prescribed motion (same on every rank).
  bool has_prescribed_motion() const { return has_prescribed_motion_; }
  /// Per component x, y, z (the same on every rank).
  const std::array<GroundMotion, 3>& ground_motion() const { return ground_motion_; }
  /// The condition whose record moves component d uniformly (GroundMotion::uniform), or -1.
  int uniform_ground_condition(int d) const { return ground_condition_[d]; }

  /// Sets the constrained DOFs of u, v, a (each may be null) to g(t), g'(t), g''(t).
  void apply(double t, Vec u, Vec v, Vec a) const;
  /// The constrained entries of a Newmark-type predictor's increments (see
  /// MechanicalSystem::prescribe_increments); the free entries are left as they are.
  void prescribe_increments(double t0, double t1, double h, double beta, double gamma, Vec du,
                            Vec dv) const;
  /// y += s x on the constrained DOFs (owned entries).
  void add(double s, Vec x, Vec y) const;
  /// Zeroes the constrained DOFs of r.
  void zero(Vec r) const;

 private:
  struct Prescribed {
    PetscInt local;  ///< owned local DOF index
    double value;
    int amplitude;
  };
  const std::vector<Amplitude>& amplitudes_;
  PetscInt first_ = 0;                  ///< the first owned DOF's global index
  std::vector<PetscInt> dofs_;          ///< owned constrained DOFs, global, sorted
  std::vector<int> conditions_;         ///< the dirichlet condition holding each
  std::vector<Prescribed> prescribed_;  ///< non-zero prescribed values
  std::vector<ConstraintOverlap> overlaps_;
  bool has_prescribed_motion_ = false;
  std::array<GroundMotion, 3> ground_motion_{GroundMotion::none, GroundMotion::none,
                                             GroundMotion::none};
  std::array<int, 3> ground_condition_{-1, -1, -1};
};

}  // namespace inertia
