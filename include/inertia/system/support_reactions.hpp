#pragma once
/// \file support_reactions.hpp
/// MechanicalSystem::support_reactions: the reactions r = M a + C v + f_int(u) - f_ext(t) on
/// this rank's constrained DOFs only. Linear models with an assembled K cut the constrained rows
/// of K and M out on the first call and multiply by those rows alone; nonlinear and matrix-free
/// models evaluate the internal force. A second call at the same t, u, v, a (same vectors,
/// unchanged: PETSc's object states) returns the first call's values without a product
/// (reactions.csv and energy.csv at one step).

#include <array>
#include <span>
#include <vector>

#include "inertia/parallel/petsc.hpp"

namespace inertia {

class MechanicalSystem;

class SupportReactions {
 public:
  /// Collective. The reactions at (t, u, v, a) into out (a null `a` counts as zero), in the
  /// order of system.constrained_dofs().
  void compute(const MechanicalSystem& system, double t, Vec u, Vec v, Vec a,
               std::span<double> out) const;

 private:
  /// Collective. The constrained rows of K and M (consistent) and the vectors of their products.
  void cut_rows(const MechanicalSystem& system) const;
  /// Adds M (a + alpha_M v) on the constrained rows to out.
  void add_inertia(const MechanicalSystem& system, Vec v, Vec a, bool rows,
                   std::span<double> out) const;
  /// The constrained rows of K and M (linear, assembled), and their products.
  mutable struct {
    petsc::Matrix K, M;
    petsc::Vector r;
  } rows_;
  mutable petsc::Vector work_, work2_;  ///< scratch (nonlinear models)
  /// The last result and where it was computed.
  mutable struct {
    double t = 0;
    std::array<Vec, 3> vecs{};
    std::array<PetscObjectState, 3> states{};
    bool valid = false;
    std::vector<double> values;
  } cache_;
};

}  // namespace inertia
