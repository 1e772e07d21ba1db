#pragma once
/// \file term_set.hpp
/// MechanicalSystem's force terms (force_term.hpp) sorted by their traits, and the sums over
/// them that need no matrix of the system: the assembled stiffness and masses, the nonlinear,
/// dashpot and nodal forces, the history's commit and rejection, the augmented Lagrangian's
/// updates, and the energies and bounds the energy balance and the stable step read. Every rank
/// holds the same list and the same groups, so what the traits say is the same on every rank.
///
/// An explicit run whose only nonlinear terms are nodal (rigid walls) stays a linear model with
/// those terms added node by node; otherwise they are nonlinear terms like the others. Terms that
/// gather (contact pairs) are always added node by node; under implicit schemes their tangent
/// couples nodes outside the assembled pattern (coupled(): the model is then nonlinear).

#include <memory>
#include <span>
#include <vector>

#include "inertia/system/erosion.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

/// The energy dissipated plastically since the start, from the return map, and the work error
/// (the trapezoidal rule's work at the material points less the stored and dissipated energy;
/// fe::J2State), both from the committed states.
struct PlasticEnergy {
  double dissipation = 0, work_error = 0;
};

class TermSet {
 public:
  /// Sorts `terms` by their traits. `assembler` must outlive the set.
  TermSet(MPI_Comm comm, const Assembler& assembler, const ProblemSpec& spec,
          std::vector<std::unique_ptr<ForceTerm>> terms);
  TermSet(const TermSet&) = delete;
  TermSet& operator=(const TermSet&) = delete;

  std::span<const std::unique_ptr<ForceTerm>> all() const { return terms_; }
  /// Every term linear (or a load), nodal terms of an explicit run aside: f_int = K u.
  bool linear() const { return linear_; }
  bool dashpots() const { return dashpots_; }
  bool friction() const { return !friction_terms_.empty(); }
  bool plastic() const { return plastic_; }
  bool hourglass() const { return hourglass_; }
  bool moving() const { return moving_; }
  /// Gathering terms under an implicit scheme: their tangent is coupling() blocks.
  bool coupled() const { return coupled_; }
  bool nodal() const { return !nodal_terms_.empty(); }
  int augmentation_limit() const { return augmentation_limit_; }
  /// The terms' point states: their history variables, then the erosion states.
  std::span<PointState* const> point_states() const { return point_states_; }
  /// Some term's cells erode (erosion.hpp).
  bool erosion() const { return !erosion_terms_.empty(); }
  /// Per local cell, 1 for an eroded one (empty until a cell erodes), updated at each erosion
  /// and restart.
  const std::vector<std::uint8_t>& eroded_cells() const { return eroded_cells_; }

  /// Collective. The linear terms' constant K into K; every term's stiffness at `at` (the
  /// nonlinear ones' tangent) into K and, if B is not null, the dashpots' matrix into B.
  void assemble_stiffness(Mat K) const;
  /// Collective. The diagonal of the linear terms' K, summed from the element matrices (no
  /// matrix: also for a matrix-free run).
  void assemble_stiffness_diagonal(Vec d) const;
  void assemble_tangent(const TermPoint& at, Mat K, Mat B) const;
  /// Collective. Adds the diagonal of the terms' contact stiffness (a rigid body's cells') to d.
  void add_contact_stiffness_diagonal(Vec d) const;
  /// Collective. The terms' consistent mass into M; their lumped masses into m (zeroed first).
  void assemble_consistent_mass(Mat M) const;
  void assemble_lumped_masses(Vec m) const;
  /// Every term's ForceTerm::consistent_mass_is_lumped.
  bool consistent_mass_is_lumped() const;
  /// Adds the point masses at this rank's owned nodes.
  void add_nodal_masses(std::span<PetscScalar> owned) const;
  /// Sizes the terms from the stiffness's diagonal and the lumped masses (ForceTerm::set_up):
  /// the nodal terms only, or all.
  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> masses,
              bool nodal_only) const;
  /// Collective. The loads' reference vectors: one per amplitude, in the order of their first
  /// load, as (amplitude, F).
  std::vector<std::pair<int, petsc::Vector>> assemble_loads() const;

  /// Adds the nonlinear terms' internal force at u to f_int (if non-null) and the dashpot terms'
  /// force at (u, v) to f_dashpot (if non-null), at time t. Ghosts of u and v are updated here.
  void add_nonlinear_forces(Vec u, Vec v, double t, Vec f_int, Vec f_dashpot) const;
  /// Adds factor x scale x (the nodal terms' force at u, t) into f (owned entries); gathers first.
  void add_nodal_forces(Vec u, double t, double factor, Vec scale, Vec f) const;
  /// Collective: the gathering terms (Traits::gathers) evaluated at u, t.
  void gather(Vec u, double t) const;
  /// The gathering terms' tangent blocks at their last gather.
  void add_coupling(std::vector<ForceTerm::CouplingBlock>& blocks) const;
  /// The nodal terms' energy at u, summed over ranks (0 without them). Collective.
  double nodal_energy(Vec u, double t) const;
  /// This rank's stored energy of the nonlinear terms assembled at u (not the nodal ones).
  double nonlinear_energy(Vec u, double t) const;

  /// Collective. The accepted step's u: nodal history and point states committed.
  void commit(Vec u, double t) const;
  void reject() const;
  /// Collective, after commit: the cells that meet their failure criterion at (u, v), t erode
  /// (erosion.hpp); returns how many did on all ranks.
  std::int64_t erode(Vec u, Vec v, double t) const;
  /// After a restart: the eroded flags from the restored erosion states; how many cells are
  /// eroded on all ranks. Collective.
  std::int64_t restore_erosion() const;
  /// Collective: what the eroded cells carried away, summed over all ranks (strain: with the
  /// penalty energy the contact pairs' rebuilt surfaces let go, ForceTerm::eroded_energy).
  ErodedTotals eroded() const;
  /// Collective. The multiplier terms' worst violation at u; updated where above 1.
  double augment(Vec u, double t, double inertia) const;

  /// Collective, over all ranks: the total mass; the largest stiffness-over-mass bound
  /// (ForceTerm::frequency_squared_bound); the moving terms' work from t0 to t1; the plastic
  /// energy; the hourglass energy at u; friction's dissipation since the last call.
  double total_mass() const;
  double penalty_frequency_squared() const;
  /// The terms' ForceTerm::add_penalty_diagonal summed into d (zeroed first; owned entries).
  void penalty_diagonal(Vec d) const;
  double moving_work(Vec u0, Vec u1, double t0, double t1) const;
  PlasticEnergy plastic_energy() const;
  double hourglass_energy(Vec u, double t) const;
  /// Whether the last internal-force evaluation was at u and t, reads of u since (their ghost
  /// updates) included: its force still holds there.
  bool force_pass_at(Vec u, double t) const { return force_pass_ == Evaluation::of(u, t); }
  double take_friction_dissipation() const;
  /// The rigid bodies' kinetic energy (Traits::body), the same on every rank.
  double body_kinetic_energy() const;

 private:
  MPI_Comm comm_;
  const Assembler& assembler_;
  std::vector<std::unique_ptr<ForceTerm>> terms_;
  bool linear_ = true, dashpots_ = false, moving_ = false, coupled_ = false;
  bool plastic_ = false, hourglass_ = false;      ///< some material is plastic / reduced
  std::vector<const ForceTerm*> friction_terms_;  ///< with Traits::friction
  /// With Traits::friction or Traits::multipliers: committed with an accepted step.
  std::vector<const ForceTerm*> nodal_history_terms_;
  std::vector<const ForceTerm*> multiplier_terms_;  ///< with Traits::multipliers
  std::vector<const ForceTerm*> body_terms_;        ///< with Traits::body
  int augmentation_limit_ = 0;                      ///< the largest of theirs
  /// Added node by node (Traits::nodal in an explicit linear run, or Traits::gathers).
  std::vector<ForceTerm*> nodal_terms_;
  std::vector<ForceTerm*> gathering_terms_;         ///< those of them that gather
  std::vector<const ForceTerm*> state_terms_;       ///< the terms with history variables
  std::vector<PointState*> point_states_;           ///< theirs, then the erosion states
  std::vector<const ForceTerm*> erosion_terms_;     ///< the terms with an erosion()
  mutable std::vector<std::uint8_t> eroded_cells_;  ///< eroded_cells()
  /// Collective. The eroded flags per local cell to every term (ForceTerm::cells_eroded) at the
  /// accepted u, t (null after a restart).
  void cells_eroded(Vec u, double t) const;
  /// A vector's contents at a time: its PETSc id and state (which every change advances).
  struct Evaluation {
    PetscObjectId id = 0;
    PetscObjectState state = -1;
    double time = 0;
    static Evaluation of(Vec u, double t);
    bool operator==(const Evaluation&) const = default;
  };
  /// The last internal-force evaluation, if no other evaluation of the point states came after
  /// it (state -1: none): a commit at the same u skips the terms with
  /// ForceTerm::trial_from_force.
  mutable Evaluation forced_;
  /// The last internal-force evaluation, kept through a commit (not through a tangent, a
  /// rejected step or the next force pass): the terms with ForceTerm::energy_from_force hold its
  /// energies (their force_energy, force_hourglass_energy, from their states for J2 solids),
  /// which an energy at the same u and time takes.
  mutable Evaluation force_pass_;
  /// After an evaluation that read u (updating its ghosts) and found `forced`: forced_ at u's new
  /// state, unless something evaluated the trial states in between; likewise force_pass_ if
  /// `from_force`.
  void still_forced(bool forced, Vec u, double t, bool from_force = false) const;
};

}  // namespace inertia
