#pragma once
/// \file system_operators.hpp
/// MechanicalSystem's matrices and mass vectors: K, the linear terms' constant stiffness (BAIJ
/// for explicit schemes, whose products it speeds up; a shell when matrix-free), a nonlinear
/// model's tangent K(u) and dashpot matrix B(u) at its linearisation point, the consistent mass
/// M or the lumped masses, and the operators A = m M + k K + b B that implicit solves and Newton
/// use, with the constrained rows and columns a scaled identity.
///
/// Contact between bodies under an implicit scheme (TermSet::coupled()): the gathering terms'
/// tangent couples nodes outside the assembled pattern. update_tangent gathers it into a
/// coupling matrix (none while no node is in contact), and fill_operator builds each operator
/// afresh with the union of both patterns, resetting a preconditioner whose pattern changed.

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "inertia/assembly/matrix_free.hpp"
#include "inertia/system/constraint_set.hpp"
#include "inertia/system/term_set.hpp"

namespace inertia {

class SystemOperators {
 public:
  /// Collective. Assembles K, the masses and, for a nonlinear model, the tangent at the
  /// reference configuration; sizes the terms from them (ForceTerm::set_up) and assembles the
  /// tangent again with what they sized. `assembler` and `terms` must outlive the operators.
  SystemOperators(MPI_Comm comm, const LocalMesh& mesh, const ProblemSpec& spec,
                  const Assembler& assembler, const TermSet& terms);
  SystemOperators(const SystemOperators&) = delete;
  SystemOperators& operator=(const SystemOperators&) = delete;
  /// Collective. InputError if a free DOF has no mass (the system would be singular).
  void check_masses(const LocalMesh& mesh, const ConstraintSet& constraints) const;
  /// Collective. M r_d: the mass of a rigid translation in component d.
  petsc::Vector translation_mass(int d) const;
  /// The masses are final: a consistent M drops the lumped masses; a lumped one gets its
  /// inverse on the free DOFs (0 on the constrained ones).
  void finish_masses(const ConstraintSet& constraints);
  /// Collective. Erosion (erosion.hpp): the lumped masses and their inverse assembled again,
  /// in place, from the cells that remain.
  void rebuild_lumped_masses(const ConstraintSet& constraints);

  /// Collective. The tangent (and B) at u, t; false (a no-op) for a linear model, or where u
  /// (and t, for moving terms) are those of the last assembly.
  bool update_tangent(Vec u, double t);
  /// The linear terms' K (constant); the stiffness products use (the tangent if nonlinear).
  Mat linear_stiffness() const { return K_.get(); }
  /// Collective. y = the linear terms' K u (zero, without a product, when that K is zero).
  void mult_linear_stiffness(Vec u, Vec y) const;
  Mat stiffness() const { return terms_.linear() ? K_.get() : K_tangent_.get(); }
  Mat mass_matrix() const { return M_.get(); }
  Mat dashpot_matrix() const { return B_.get(); }
  Vec lumped_mass() const { return lumped_mass_.get(); }
  Vec inverse_mass() const { return inverse_mass_.get(); }
  const MatrixFreeElasticity* matrix_free() const { return matrix_free_.get(); }

  /// y = M x, K x, B x (0 without dashpots), C x = alpha_M M x + alpha_K K x. Collective.
  void mult_mass(Vec x, Vec y) const;
  void mult_stiffness(Vec x, Vec y) const;
  void mult_dashpot(Vec x, Vec y) const;
  void mult_damping(const RayleighDamping& rayleigh, Vec x, Vec y) const;
  /// Collective. The terms' lumped masses plus the point masses (and the added masses) into m.
  void lumped_masses(Vec m) const;
  /// Collective. Adds nodal masses (mass scaling: owned entries, 3 per node) to the lumped
  /// masses and their inverse; lumped treatment only, after finish_masses().
  void add_masses(Vec added, const ConstraintSet& constraints);

  /// Collective. See DynamicSystem::create_operator and fill_operator; `constrained`: the
  /// owned constrained DOFs (global indices).
  petsc::Matrix create_operator() const;
  double fill_operator(double m, double k, double b, Mat A, PC pc,
                       std::span<const PetscInt> constrained) const;

 private:
  /// Collective. K (or the matrix-free shell), then the nonlinear model's tangent.
  void assemble_stiffness(const ProblemSpec& spec);
  /// Collective. The terms sized from the diagonals and the lumped masses (ForceTerm::set_up).
  void set_up_terms();
  /// The gathering terms' tangent at u, t into coupling_ (update_tangent). Collective.
  void build_coupling(Vec u, double t);

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  const Assembler& assembler_;
  const TermSet& terms_;
  std::unique_ptr<MatrixFreeElasticity> matrix_free_;  ///< time.operator: matrix_free
  bool baij_stiffness_ = false;  ///< K_ is BAIJ (explicit schemes, linear model)
  petsc::Matrix K_;          ///< linear stiffness of the solids (constant; a shell if matrix-free)
  petsc::Matrix K_tangent_;  ///< solids + springs at the linearisation point (nonlinear only)
  petsc::Matrix B_;          ///< dashpot matrix at the linearisation point (dashpots only)
  petsc::Matrix M_;
  petsc::Vector point_masses_;   ///< nodal point masses (all 3 DOFs of a node)
  petsc::Vector added_mass_;     ///< mass scaling's added masses (null: none)
  petsc::Vector lumped_mass_;    ///< lumped treatment only, once finish_masses ran
  petsc::Vector inverse_mass_;   ///< 1 / lumped mass on the free DOFs, 0 on the constrained ones
  petsc::Vector linearised_at_;  ///< u of the last tangent update (nonlinear only)
  bool tangent_assembled_ = false;
  double tangent_time_ = 0;  ///< the time of the assembled tangent
  /// The coupling's blocks and pattern (sorted block positions), its generation (changed on any
  /// rank: +1) and the generation each operator was last filled with.
  petsc::Matrix coupling_;
  std::vector<ForceTerm::CouplingBlock> coupling_blocks_;
  std::vector<std::pair<std::int64_t, std::int64_t>> coupling_pattern_;
  std::uint64_t coupling_generation_ = 0;
  mutable std::unordered_map<Mat, std::uint64_t> filled_generation_;
  mutable petsc::Vector scratch_;
  bool linear_stiffness_zero_ = false;  ///< the assembled linear K has no nonzero value
};

}  // namespace inertia
