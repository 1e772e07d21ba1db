#pragma once
/// \file mechanical_system.hpp
/// The mechanical system as the integrators see it (SOFA's vocabulary): forces, products with
/// M, K and C = alpha_M M + alpha_K K, solves with m M + k K on the free DOFs, constrained DOFs
/// and their prescribed motion, energies. It owns every PETSc object of the discretisation, in
/// parts one file each, and forwards to them:
///
/// - TermSet (term_set.hpp): the force terms sorted by their traits; their forces, energies
///   and history;
/// - SystemOperators (system_operators.hpp): K, the tangent K(u), B(u), M or the lumped masses;
///   the operators m M + k K + b B;
/// - ExternalLoads (external_loads.hpp): the loads' vectors, the ground's damping load;
///   f_ext(t) - K u in one pass;
/// - ConstraintSet (constraint_set.hpp): the constrained DOFs, their motion g(t), the overlaps of
///   conditions, the ground motion;
/// - SolverCache (solver_cache.hpp): an operator and KSP per (m, k, b), the solver choices and
///   their notes;
/// - SupportReactions (support_reactions.hpp): the reactions on the constrained DOFs.
///
/// Constraints: the solved system is P A P + (I - P) with P b on the right-hand side (P projects
/// onto the free DOFs); constrained rows get a diagonal scaled like the rest of A so Krylov
/// solvers and AMG see a well-scaled matrix.
///
/// Uniform base excitation. In a component d where every constrained DOF follows one
/// acceleration record (GroundMotion::uniform), the body moving rigidly with its supports is a
/// translation r_d u_g(t), r_d = 1 on every d-DOF. There Rayleigh's mass-proportional term damps
/// the velocity relative to the ground:
///   C (v - G(t)),  G(t) = sum_d r_d v_g,d(t),
/// and since K r_d = 0, C G = alpha_M M G: the model stays in absolute coordinates and gets the
/// load alpha_M M G(t) (in external_force()), so a body riding with its base feels no damping.
/// Components whose supports follow different motions (multi_support) keep C v on the absolute
/// velocity; displaced supports (no acceleration record): mass damping acts on the absolute
/// velocity there (the log says so).

#include <array>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "inertia/system/constraint_set.hpp"
#include "inertia/system/dynamic_system.hpp"
#include "inertia/system/external_loads.hpp"
#include "inertia/system/rigid_bodies.hpp"
#include "inertia/system/solver_cache.hpp"
#include "inertia/system/support_reactions.hpp"
#include "inertia/system/system_operators.hpp"
#include "inertia/system/term_set.hpp"

namespace inertia {

class MechanicalSystem final : public DynamicSystem {
 public:
  using GroundMotion = inertia::GroundMotion;
  using ConstraintOverlap = inertia::ConstraintOverlap;
  using PlasticEnergy = inertia::PlasticEnergy;

  /// Collective. Assembles M (consistent or lumped), K, the load vectors and the constraint sets.
  MechanicalSystem(MPI_Comm comm, LocalMesh mesh, ProblemSpec spec);
  MechanicalSystem(const MechanicalSystem&) = delete;
  MechanicalSystem& operator=(const MechanicalSystem&) = delete;

  MPI_Comm comm() const override { return comm_; }
  const LocalMesh& mesh() const { return mesh_; }
  const Assembler& assembler() const { return assembler_; }
  const ProblemSpec& spec() const { return spec_; }
  const RayleighDamping& rayleigh() const override { return spec_.rayleigh; }
  /// Sets the Rayleigh coefficients (damping ratios at modes, known once the modes are): before
  /// the first solve that uses them.
  void set_rayleigh(const RayleighDamping& r) { spec_.rayleigh = r; }
  PetscInt num_global_dofs() const override { return assembler_.num_global_dofs(); }
  /// Collective: over all ranks.
  PetscInt num_constrained_dofs() const { return constraints_.global_count(comm_); }
  /// A zeroed ghosted vector with the DOF layout.
  petsc::Vector create_vector() const override { return assembler_.create_vector(); }

  /// Collective. Linearises the system at displacement u: the tangent stiffness used by
  /// mult_stiffness, mult_damping (its alpha_K part) and solve() becomes K(u). A no-op while every
  /// element is linear (K is constant); nonlinear elements re-assemble only when u changed.
  void update_tangent(Vec u) override {
    if (operators_.update_tangent(u, term_time_)) solvers_.mark_stale();
  }
  /// True while every element is linear (no springs, no nonlinear materials): f_int(u) = K u.
  bool is_linear() const override { return terms_.linear(); }
  /// True if some spring has a dashpot (then B, the dashpot matrix, is not zero).
  bool has_dashpots() const override { return terms_.dashpots(); }
  bool has_friction() const override { return terms_.friction(); }
  /// The force terms (force_term.hpp), the same list on every rank.
  std::span<const std::unique_ptr<ForceTerm>> terms() const { return terms_.all(); }
  /// Collective. The linear terms' constant stiffness into K (a matrix of the assembler's
  /// pattern, either format); the consistent mass of the terms' cells into M (no nodal masses).
  void assemble_stiffness(Mat K) const { terms_.assemble_stiffness(K); }
  void assemble_consistent_mass(Mat M) const { terms_.assemble_consistent_mass(M); }

  /// y = M x, y = K x (tangent), y = C x = alpha_M M x + alpha_K K x (Rayleigh). Collective.
  void mult_mass(Vec x, Vec y) const override { operators_.mult_mass(x, y); }
  void mult_stiffness(Vec x, Vec y) const override { operators_.mult_stiffness(x, y); }
  void mult_damping(Vec x, Vec y) const override { operators_.mult_damping(spec_.rayleigh, x, y); }

  /// External load f_ext(t), with the ground's share of the Rayleigh mass damping. Collective.
  void external_force(double t, Vec f) const override { loads_.external_force(t, f); }
  /// Internal elastic force f_int(u) (K u for linear elasticity, plus the springs). Collective.
  void internal_force(Vec u, Vec f) const;
  /// Spring dashpot force f_dashpot(u, v). Collective.
  void dashpot_force(Vec u, Vec v, Vec f) const;
  /// f(t, u, v) = f_ext(t) - f_int(u) - f_dashpot(u, v). Rayleigh damping is not in it: the
  /// integrators apply it. Collective.
  void force(double t, Vec u, Vec v, Vec f) const override;
  /// Collective. For a linear model with a lumped mass: a = M^{-1} f(t, u) on the free DOFs and
  /// 0 on the constrained ones, in one pass after the product K u (the explicit schemes' hot
  /// path). Returns false, doing nothing, for other models.
  bool lumped_acceleration(double t, Vec u, Vec a) const override;

  /// The constraints (ConstraintSet): g(t), g'(t), g''(t) into u, v, a; a Newmark predictor's
  /// constrained increments du_c = g(t1) - h^2 beta g''(t1) - g(t0), dv_c = g'(t1) -
  /// h gamma g''(t1) - g'(t0); zeroing; y += s x there.
  void apply_constraints(double t, Vec u, Vec v, Vec a) const override {
    constraints_.apply(t, u, v, a);
  }
  void prescribe_increments(double t0, double t1, double h, double beta, double gamma, Vec du,
                            Vec dv) const override {
    constraints_.prescribe_increments(t0, t1, h, beta, gamma, du, dv);
  }
  void zero_constrained(Vec r) const override { constraints_.zero(r); }
  bool has_prescribed_motion() const override { return constraints_.has_prescribed_motion(); }
  void add_constrained(double s, Vec x, Vec y) const override { constraints_.add(s, x, y); }
  /// Zeroes the free entries of r (the complement of zero_constrained()).
  void keep_constrained(Vec r) const override;

  /// The supports' motion per component (see the file's comment), the same on every rank;
  /// whether some component is uniform; G(t) on every DOF of those components; alpha_M M G(t).
  const std::array<GroundMotion, 3>& ground_motion() const { return constraints_.ground_motion(); }
  bool has_ground_motion() const { return loads_.has_ground(); }
  void ground_velocity(double t, Vec w) const { loads_.ground_velocity(t, w); }
  void ground_damping_force(double t, Vec f) const { loads_.ground_damping_force(t, f); }
  /// Collective. Support reactions r = M a + C v + f_int(u) - f_ext(t) on the constrained DOFs,
  /// zero elsewhere (a null `a` counts as zero); residual(): the same on every DOF.
  void reaction(double t, Vec u, Vec v, Vec a, Vec r) const;
  void residual(double t, Vec u, Vec v, Vec a, Vec r) const;
  /// Collective. The reactions on this rank's constrained DOFs only (support_reactions.hpp).
  void support_reactions(double t, Vec u, Vec v, Vec a, std::span<double> out) const {
    reactions_.compute(*this, t, u, v, a, out);
  }
  /// This rank's constrained DOFs (global, sorted) and the condition holding each (the last).
  std::span<const PetscInt> constrained_dofs() const { return constraints_.dofs(); }
  std::span<const int> constrained_conditions() const { return constraints_.conditions(); }
  /// The same on every rank, ordered by (earlier, later).
  std::span<const ConstraintOverlap> constraint_overlaps() const { return constraints_.overlaps(); }
  /// The loads' reference vectors F_j and each one's amplitude index (f_ext(t) = sum_j a_j(t) F_j).
  const std::vector<std::pair<int, petsc::Vector>>& load_vectors() const {
    return loads_.vectors();
  }

  /// Collective. Solves (m M + k K + b B) y = r for the free DOFs of y; the constrained DOFs of y
  /// hold their prescribed values on entry and keep them (Coupling::lift: their effect on the
  /// free rows is lifted to the right-hand side; Coupling::in_rhs: r carries it). The operator
  /// and its solver are built at the first solve with (m, k, b) and reused until the tangent
  /// changes (solver_cache.hpp). Throws SolverError if the solve diverges.
  SolveReport solve(double m, double k, Vec r, Vec y, double b = 0,
                    Coupling coupling = Coupling::lift) override {
    return solvers_.solve(m, k, r, y, b, coupling);
  }
  /// The highest natural frequency (rad/s) of the linear model, from the driver's estimate:
  /// solves with m M + k K, k omega^2 <= 30 m, then default to Jacobi-CG instead of GAMG.
  void set_highest_frequency(double omega) { solvers_.set_highest_frequency(omega); }
  /// How many solves with each implicit operator the run expects (0: unknown, taken as one).
  void set_expected_solves(double n) { solvers_.set_expected_solves(n); }
  double expected_solves() const override { return solvers_.expected_solves(); }
  /// Records a solver choice made elsewhere (Newton's tangents) for take_solver_notes().
  void add_solver_note(std::string note) override { solvers_.add_note(std::move(note)); }
  /// The solver choices made since the last call, one line each (what, which solver and why).
  std::vector<std::string> take_solver_notes() { return solvers_.take_notes(); }
  static constexpr double plain_aggregation_limit = SolverCache::plain_aggregation_limit;

  /// Collective. Newton's Jacobians (DynamicSystem; system_operators.hpp).
  petsc::Matrix create_operator() const override { return operators_.create_operator(); }
  double fill_operator(double m, double k, double b, Mat A, PC pc = nullptr) const override {
    return operators_.fill_operator(m, k, b, A, pc, constraints_.dofs());
  }
  /// The rigid-body modes at configuration x (Assembler::attach_rigid_body_modes).
  void attach_near_null_space(Mat A, Vec x) const override {
    assembler_.attach_rigid_body_modes(A, x);
  }
  /// time.linear_solver.
  LinearSolverChoice linear_solver() const override { return spec_.linear_solver; }

  /// 1/2 v.M v; the stored elastic energy (1/2 u.K u for the solids, 1/2 k (l - l0)^2 per
  /// spring); for a linear model with K u into ku (force()'s K u where still valid). Collective.
  double kinetic_energy(Vec v) const;
  /// Collective. The momentum M v summed per component over all ranks (a rigid body's nodes
  /// carry its m V).
  std::array<double, 3> momentum(Vec v) const;
  double strain_energy(Vec u) const override;
  double strain_energy(Vec u, Vec ku) const;
  void commit_step(Vec u) override { terms_.commit(u, term_time_); }
  void reject_step() override { terms_.reject(); }
  /// Erosion (erosion.hpp): the failing cells erode, then the lumped masses are rebuilt.
  std::int64_t erode(Vec u, Vec v) override;
  bool has_erosion() const { return terms_.erosion(); }
  /// Per local cell, 1 for an eroded one (empty until a cell erodes).
  const std::vector<std::uint8_t>& eroded_cells() const { return terms_.eroded_cells(); }
  /// Collective. After a restart: the restored erosion states' flags, the masses rebuilt if a
  /// cell had eroded; how many had.
  std::int64_t restore_erosion();
  /// Collective: what the eroded cells carried away (all ranks).
  ErodedTotals eroded() const { return terms_.eroded(); }
  /// Rigid bodies (rigid_bodies.hpp): the DynamicSystem's calls, forwarded to their terms.
  bool has_rigid_bodies() const override { return !rigid_.empty(); }
  void start_rigid_bodies(Vec v, bool fresh) override;
  void load_rigid_bodies(Vec a) override;
  void advance_rigid_bodies(double t, double h, double kick, Vec u, Vec v_half) override;
  void finish_rigid_bodies(double t1, double h, Vec a, Vec v) override;
  std::span<RigidBodyTerm* const> rigid_bodies() const { return rigid_; }
  int augmentation_limit() const override { return terms_.augmentation_limit(); }
  double augment(Vec u, double t, double inertia) override { return terms_.augment(u, t, inertia); }
  /// Collective, over all ranks (term_set.hpp): friction's dissipation since the last call; the
  /// plastic energy (energy.csv's columns); the hourglass modes' share of the strain energy; the
  /// penalty bound k / m the reference tangent does not show; the moving terms' work.
  double take_friction_dissipation() const { return terms_.take_friction_dissipation(); }
  /// The rigid bodies' (drop weights') kinetic energy, the same on every rank.
  double body_kinetic_energy() const { return terms_.body_kinetic_energy(); }
  bool has_plasticity() const override { return terms_.plastic(); }
  PlasticEnergy plastic_energy() const { return terms_.plastic_energy(); }
  bool has_hourglass() const { return terms_.hourglass(); }
  double hourglass_energy(Vec u) const { return terms_.hourglass_energy(u, term_time_); }
  /// The penalty bound: the terms' (lumped masses), or the one the last highest-frequency estimate
  /// set for a consistent mass (spectrum.cpp).
  double penalty_frequency_squared() const {
    return consistent_penalty_ >= 0 ? consistent_penalty_ : terms_.penalty_frequency_squared();
  }
  void set_consistent_penalty_frequency_squared(double w2) const { consistent_penalty_ = w2; }
  void penalty_diagonal(Vec d) const { terms_.penalty_diagonal(d); }
  double moving_work(Vec u0, Vec u1, double t0, double t1) const {
    return terms_.moving_work(u0, u1, t0, t1);
  }
  /// The terms' history variables (point_state.hpp), in term order; the same list on every rank.
  std::span<PointState* const> point_states() const { return terms_.point_states(); }

  /// Collective. Lumped nodal masses (whatever the mass treatment of the run); total mass.
  void lumped_masses(Vec m) const { operators_.lumped_masses(m); }
  double total_mass() const { return terms_.total_mass(); }
  /// Lumped masses (lumped treatment only; null otherwise).
  Vec lumped_mass() const override { return operators_.lumped_mass(); }
  /// Collective. Mass scaling: nodal masses added to the lumped masses (a lumped run), `total`
  /// their sum over the ranks (added_mass()).
  void add_masses(Vec added, double total) {
    operators_.add_masses(added, constraints_);
    added_mass_ += total;
  }
  /// The mass that mass scaling added (kg; 0: none).
  double added_mass() const { return added_mass_; }
  Mat stiffness() const { return operators_.stiffness(); }
  /// The matrix-free operator (time.operator: matrix_free), or null.
  const MatrixFreeElasticity* matrix_free() const { return operators_.matrix_free(); }
  Mat mass_matrix() const { return operators_.mass_matrix(); }

 private:
  /// f = f_ext(t) - K u, times `scale` pointwise if not null; remembers K u (ku_).
  void external_minus_internal(double t, Vec u, Vec f, Vec scale) const;

  MPI_Comm comm_;
  LocalMesh mesh_;
  ProblemSpec spec_;
  Assembler assembler_;
  TermSet terms_;
  SystemOperators operators_;
  ExternalLoads loads_;
  ConstraintSet constraints_;
  SolverCache solvers_;
  SupportReactions reactions_;
  /// The time of the last force(t, ...) evaluation: where the nonlinear terms are evaluated
  /// (TermPoint::time) by the tangent, the energy and the commit.
  mutable double term_time_ = 0;
  mutable double consistent_penalty_ = -1;  ///< -1: none set (the terms' lumped bound)
  double added_mass_ = 0;                   ///< add_masses()' sum
  std::vector<RigidBodyTerm*> rigid_;       ///< the terms of rigid bodies
  mutable petsc::Vector work_, work2_;
  /// The last K u computed by force() (in work2_), valid while u and work2_ are unchanged.
  mutable struct {
    Vec u = nullptr;
    PetscObjectState u_state = 0, ku_state = 0;
  } ku_;
  /// The nonlinear terms' internal force at u, t left in work2_ by force() (no dashpots),
  /// valid while u and work2_ are unchanged: internal_force() at that u (the reactions of the
  /// step's history row) takes it instead of evaluating the elements again.
  mutable struct {
    Vec u = nullptr;
    PetscObjectState u_state = 0, f_state = 0;
    double t = 0;
  } f_int_;
};

}  // namespace inertia
