#pragma once
/// \file mechanical_system.hpp
/// The mechanical system as the integrators see it (SOFA's vocabulary): forces, products with
/// M, K and C = alpha_M M + alpha_K K, solves with m M + k K on the free DOFs, constrained DOFs
/// and their prescribed motion, energies. It owns every PETSc object of the discretisation.
///
/// Constraints: the solved system is P A P + (I - P) with P b on the right-hand side (P projects
/// onto the free DOFs); constrained rows get a diagonal scaled like the rest of A so Krylov
/// solvers and AMG see a well-scaled matrix.

#include <array>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "inertia/assembly/assembler.hpp"
#include "inertia/assembly/matrix_free.hpp"
#include "inertia/system/dynamic_system.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

class MechanicalSystem final : public DynamicSystem {
 public:
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
  PetscInt num_constrained_dofs() const;  ///< collective: over all ranks

  /// A zeroed ghosted vector with the DOF layout.
  petsc::Vector create_vector() const override { return assembler_.create_vector(); }

  /// Collective. Linearises the system at displacement u: the tangent stiffness used by
  /// mult_stiffness, mult_damping (its alpha_K part) and solve() becomes K(u). A no-op while every
  /// element is linear (K is constant); nonlinear elements re-assemble only when u changed.
  void update_tangent(Vec u) override;

  /// True while every element is linear (no springs, no nonlinear materials): K is constant
  /// and f_int(u) = K u.
  bool is_linear() const override { return linear_; }
  /// True if some spring has a dashpot (then B, the dashpot matrix, is not zero).
  bool has_dashpots() const override { return dashpots_; }
  bool has_friction() const override { return !friction_terms_.empty(); }
  /// The force terms (force_term.hpp), the same list on every rank.
  std::span<const std::unique_ptr<ForceTerm>> terms() const { return terms_; }
  /// Collective. The constant stiffness of the linear terms into K (a matrix of the
  /// assembler's pattern, either format; nonlinear terms add nothing: their forces are
  /// evaluated at u).
  void assemble_stiffness(Mat K) const;
  /// Collective. The consistent mass of the terms' cells into M (nodal masses not included).
  void assemble_consistent_mass(Mat M) const;

  /// y = M x, y = K x (tangent), y = C x = alpha_M M x + alpha_K K x (Rayleigh), y = B x
  /// (spring dashpots, at the linearisation point). Collective.
  void mult_mass(Vec x, Vec y) const override;
  void mult_stiffness(Vec x, Vec y) const override;
  void mult_damping(Vec x, Vec y) const override;
  void mult_dashpot(Vec x, Vec y) const;

  /// External load f_ext(t): the sum of every load times its amplitude, and with uniform base
  /// excitation and Rayleigh mass damping the ground's share of that damping (see
  /// ground_damping_force()). Collective.
  void external_force(double t, Vec f) const override;
  /// Internal elastic force f_int(u) (K u for linear elasticity, plus the springs). Collective.
  void internal_force(Vec u, Vec f) const;
  /// Spring dashpot force f_dashpot(u, v). Collective.
  void dashpot_force(Vec u, Vec v, Vec f) const;
  /// f(t, u, v) = f_ext(t) - f_int(u) - f_dashpot(u, v). Rayleigh damping is not in it: the
  /// integrators apply it. Collective.
  void force(double t, Vec u, Vec v, Vec f) const override;
  /// Collective. For a linear model with a lumped mass and no dashpots: a = M^{-1} f(t, u) on
  /// the free DOFs and 0 on the constrained ones, in one pass over the vectors after the product
  /// K u (the explicit schemes' hot path). Returns false, doing nothing, for other models.
  bool lumped_acceleration(double t, Vec u, Vec a) const override;

  /// Sets the constrained DOFs of u, v, a (each may be null) to g(t), g'(t), g''(t).
  void apply_constraints(double t, Vec u, Vec v, Vec a) const override;
  /// The constrained entries of the increments du, dv of a Newmark-type predictor from t0 to
  /// t1 = t0 + h (to round-off: the run's n dt), chosen so that u(t0) + du + h^2 beta a and
  /// v(t0) + dv + h gamma a with a = g''(t1) are the prescribed g(t1) and g'(t1):
  ///   du_c = g(t1) - h^2 beta g''(t1) - g(t0),  dv_c = g'(t1) - h gamma g''(t1) - g'(t0).
  /// The free entries are left as they are.
  void prescribe_increments(double t0, double t1, double h, double beta, double gamma, Vec du,
                            Vec dv) const override;
  /// Zeroes the constrained DOFs of r.
  void zero_constrained(Vec r) const override;
  /// True if some constrained DOF has a non-zero prescribed motion (same on every rank).
  bool has_prescribed_motion() const override { return has_prescribed_motion_; }
  /// y += s x on the constrained DOFs (owned entries; ghosts are not updated).
  void add_constrained(double s, Vec x, Vec y) const override;

  /// Uniform base excitation. In a component d where every constrained DOF follows one
  /// acceleration record (conditions of type acceleration with the same record and value), the
  /// body moving rigidly with its supports is a translation r_d u_g(t), r_d = 1 on every d-DOF.
  /// There Rayleigh's mass-proportional term damps the velocity relative to the ground:
  ///   C (v - G(t)),  G(t) = sum_d r_d v_g,d(t),
  /// and since K r_d = 0, C G = alpha_M M G: the model stays in absolute coordinates and gets the
  /// load alpha_M M G(t) (in external_force()), so a body riding with its base feels no damping.
  /// Components whose supports follow different motions (multi-support excitation, or fixed
  /// supports besides accelerated ones) keep C v on the absolute velocity.
  /// displaced: no acceleration record, but supports driven by a prescribed displacement (mass
  /// damping acts on the absolute velocity there: the log says so).
  enum class GroundMotion { none, uniform, multi_support, displaced };
  /// Per component x, y, z (the same on every rank).
  const std::array<GroundMotion, 3>& ground_motion() const { return ground_state_; }
  /// True if some component has uniform base excitation.
  bool has_ground_motion() const { return !ground_.empty(); }
  /// G(t): the ground's velocity on every DOF of its components (zero elsewhere). Collective.
  void ground_velocity(double t, Vec w) const;
  /// alpha_M M G(t), the ground's share of the Rayleigh mass damping (part of external_force()).
  void ground_damping_force(double t, Vec f) const;
  /// Collective. Support reactions r = M a + C v + f_int(u) - f_ext(t) on the constrained DOFs,
  /// zero elsewhere: the forces the constraints apply to keep the prescribed motion. A null `a`
  /// counts as zero (static equilibrium).
  void reaction(double t, Vec u, Vec v, Vec a, Vec r) const;
  /// Collective. The same on every DOF: the equation of motion's residual (free DOFs: what the
  /// solve left, or what a change of the constrained entries put there).
  void residual(double t, Vec u, Vec v, Vec a, Vec r) const;
  /// Zeroes the free entries of r (the complement of zero_constrained()).
  void keep_constrained(Vec r) const override;
  /// Collective. The reactions of reaction(), on this rank's constrained DOFs only (in the order
  /// of constrained_dofs()), without a product over the whole mesh for linear models with an
  /// assembled K: the constrained rows of K and M are cut out on the first call. Nonlinear and
  /// matrix-free models evaluate the internal force (one residual evaluation). Linear models:
  /// two products with those rows, K_c (u + alpha_K v) and M_c (a + alpha_M v) (the lumped M's
  /// pointwise); a second call at the same t, u, v, a (same vectors, unchanged: PETSc's object
  /// states) returns the first call's values without a product (reactions.csv and energy.csv).
  void support_reactions(double t, Vec u, Vec v, Vec a, std::span<double> out) const;
  /// This rank's constrained DOFs (global indices, sorted) and, for each, the index of the
  /// condition (ProblemSpec::dirichlet) that holds it: the last one naming it.
  std::span<const PetscInt> constrained_dofs() const { return constrained_; }
  /// The loads' reference vectors F_j and the index of each one's amplitude (f_ext(t) = sum_j
  /// a_j(t) F_j; ProblemSpec::amplitudes), in the order of ProblemSpec::loads.
  const std::vector<std::pair<int, petsc::Vector>>& load_vectors() const { return loads_; }
  std::span<const int> constrained_conditions() const { return constrained_condition_; }
  /// Two conditions (ProblemSpec::dirichlet indices, earlier < later) naming the same DOFs: the
  /// later one holds them (its motion, its reaction). A DOF three conditions name counts for
  /// (first, third) and (second, third).
  struct ConstraintOverlap {
    int earlier = 0, later = 0;
    std::int64_t dofs = 0;       ///< DOFs both name, over all ranks
    std::int64_t differing = 0;  ///< of those, where the two prescribe different motions
  };
  /// The same on every rank, ordered by (earlier, later).
  std::span<const ConstraintOverlap> constraint_overlaps() const { return overlaps_; }

  /// Collective. Solves (m M + k K + b B) y = r for the free DOFs of y; the constrained DOFs of y
  /// hold their prescribed values on entry and keep them (with Coupling::lift, the default, their
  /// effect on the free rows is lifted to the right-hand side: a product with K, and with M
  /// unless it is lumped, when has_prescribed_motion(); with Coupling::in_rhs r carries it). r is
  /// not modified. The operator and its preconditioner are built on the first call with a given
  /// (m, k, b) and reused until the tangent changes. Throws SolverError if the solve diverges.
  SolveReport solve(double m, double k, Vec r, Vec y, double b = 0,
                    Coupling coupling = Coupling::lift) override;

  /// The highest natural frequency (rad/s) of the linear model, from the driver's estimate:
  /// solves with m M + k K, k omega^2 <= 30 m (mass-dominated: moderate time steps), then
  /// default to Jacobi-preconditioned CG instead of GAMG (still overridable with -pc_type).
  void set_highest_frequency(double omega) { omega_max_ = omega; }
  /// How many solves with each implicit operator the run expects (its steps): the automatic
  /// choice between a factorisation computed once and an iterative solve weighs it. 0: unknown
  /// (taken as one).
  void set_expected_solves(double n) { expected_solves_ = n; }
  double expected_solves() const override { return expected_solves_; }
  /// Records a solver choice made elsewhere (Newton's tangents) for take_solver_notes(); a note
  /// that starts with the log tag "warning   " is logged as a warning.
  void add_solver_note(std::string note) override { solver_notes_.push_back(std::move(note)); }
  /// The solver choices made since the last call, one line each (what, which solver and why).
  std::vector<std::string> take_solver_notes() { return std::exchange(solver_notes_, {}); }
  /// True if solves with m M + k K default to Jacobi (see set_highest_frequency).
  bool mass_dominated(double m, double k) const;
  /// Iterative solves with m M + k K where k omega_max^2 / m is at most this (Newmark steps up
  /// to ~16x the stable one) build GAMG by plain aggregation (-pc_gamg_agg_nsmooths 0): a third
  /// of the set-up, cheaper iterations, a few more of them; stiffer operators (and static K)
  /// keep smoothed aggregation. The log's solver line says which.
  static constexpr double plain_aggregation_limit = 250;

  /// Collective. A matrix with the operator's pattern and near-null space, for Newton Jacobians.
  petsc::Matrix create_operator() const override;
  /// Collective. A = m M + k K + b B at the current linearisation, with the constrained rows and
  /// columns replaced by a scaled identity (see solve()). Returns that diagonal value.
  double fill_operator(double m, double k, double b, Mat A, PC pc = nullptr) const override;
  /// The rigid-body modes at configuration x (Assembler::attach_rigid_body_modes).
  void attach_near_null_space(Mat A, Vec x) const override {
    assembler_.attach_rigid_body_modes(A, x);
  }
  /// time.linear_solver.
  LinearSolverChoice linear_solver() const override { return spec_.linear_solver; }

  /// 1/2 v.M v; the stored elastic energy (1/2 u.K u for the solids, 1/2 k (l - l0)^2 per
  /// spring). Collective.
  double kinetic_energy(Vec v) const;
  double strain_energy(Vec u) const override;
  /// The same for a linear model, with K u into ku (taken from force()'s K u where that is
  /// still valid, else one product).
  double strain_energy(Vec u, Vec ku) const;
  void commit_step(Vec u) override;
  void reject_step() override;
  int augmentation_limit() const override { return augmentation_limit_; }
  double augment(Vec u, double t, double inertia) override;
  /// Collective. The energy friction has dissipated over the accepted steps since the last call
  /// (ForceTerm::take_friction_dissipation).
  double take_friction_dissipation() const;
  /// Whether some solid is plastic (energy.csv's plastic_dissipation column).
  bool has_plasticity() const override { return plastic_; }
  /// The energy dissipated plastically since the start, from the return map, and the work
  /// error (the trapezoidal rule's work at the material points less the stored and dissipated
  /// energy; fe::J2State), both from the committed states.
  struct PlasticEnergy {
    double dissipation = 0, work_error = 0;
  };
  /// Collective. PlasticEnergy over all ranks.
  PlasticEnergy plastic_energy() const;
  /// Whether some solid uses reduced-integration hex8 (energy.csv's hourglass column).
  bool has_hourglass() const { return hourglass_; }
  /// Collective. The part of the strain energy at u held by the hourglass modes.
  double hourglass_energy(Vec u) const;
  /// The terms' history variables (point_state.hpp), in term order; the same list on every rank.
  std::span<PointState* const> point_states() const { return point_states_; }
  /// Collective. The largest k / m of the terms' stiffness the reference tangent does not show
  /// (contact penalties, ForceTerm::frequency_squared_bound), over all ranks; 0 if none.
  double penalty_frequency_squared() const;
  /// Collective. The work the terms that move (walls) did on the body from t0 to t1
  /// (ForceTerm::moving_work), summed over ranks; 0 without such terms.
  double moving_work(Vec u0, Vec u1, double t0, double t1) const;

  /// Collective. Lumped nodal masses (solids' row sums or HRZ, plus point masses) into m,
  /// whatever the mass treatment of the run.
  void lumped_masses(Vec m) const;
  /// Collective. Total mass of solids and point masses.
  double total_mass() const;
  /// Lumped masses (lumped treatment only; null otherwise).
  Vec lumped_mass() const override { return lumped_mass_.get(); }
  Mat stiffness() const { return is_linear() ? K_.get() : K_tangent_.get(); }
  /// The matrix-free operator (time.operator: matrix_free), or null.
  const MatrixFreeElasticity* matrix_free() const { return matrix_free_.get(); }
  Mat mass_matrix() const { return M_.get(); }

 private:
  /// Adds the nonlinear terms' internal force at u to f_int (if non-null) and the dashpot
  /// terms' force at (u, v) to f_dashpot (if non-null). Ghosts of u and v are updated here.
  void add_nonlinear_forces(Vec u, Vec v, Vec f_int, Vec f_dashpot) const;
  /// The time of the last force(t, ...) evaluation: where the nonlinear terms are evaluated
  /// (TermPoint::time) by the tangent, the energy and the commit.
  mutable double term_time_ = 0;
  double tangent_time_ = 0;  ///< term_time_ of the assembled tangent
  bool moving_ = false;      ///< a term moves (Traits::moves): the tangent depends on time
  std::vector<const ForceTerm*> friction_terms_;  ///< with Traits::friction
  bool plastic_ = false, hourglass_ = false;      ///< some material is plastic / reduced
  /// With Traits::friction or Traits::multipliers: committed with an accepted step
  /// (commit_nodal).
  std::vector<const ForceTerm*> nodal_history_terms_;
  std::vector<const ForceTerm*> multiplier_terms_;  ///< with Traits::multipliers
  int augmentation_limit_ = 0;                      ///< the largest of theirs
  /// Explicit schemes: the nodal terms (Traits::nodal), added node by node to the linear model's
  /// forces (they do not make it nonlinear).
  std::vector<ForceTerm*> nodal_terms_;
  std::vector<ForceTerm*> gathering_terms_;  ///< those of them that gather (Traits::gathers)
  /// Implicit schemes and static with gathering terms: their tangent couples nodes outside the
  /// assembled pattern. update_tangent gathers it into coupling_ (null while no node is in
  /// contact), and fill_operator builds each operator afresh with the union of both patterns.
  bool coupled_ = false;
  petsc::Matrix coupling_;
  std::vector<ForceTerm::CouplingBlock> coupling_blocks_;
  /// The coupling's pattern (sorted block positions), its generation (changed on any rank: +1)
  /// and the generation each operator was last filled with.
  std::vector<std::pair<std::int64_t, std::int64_t>> coupling_pattern_;
  std::uint64_t coupling_generation_ = 0;
  mutable std::unordered_map<Mat, std::uint64_t> filled_generation_;
  /// The gathering terms' tangent at u, t into coupling_ (update_tangent). Collective.
  void build_coupling(Vec u, double t);
  /// Adds factor x scale x (the nodal terms' force at u, t) into f (owned entries).
  void add_nodal_forces(Vec u, double t, double factor, Vec scale, Vec f) const;
  /// The nodal terms' energy at u, summed over ranks (0 without them). Collective.
  double nodal_energy(Vec u) const;
  /// Collective: the gathering terms (Traits::gathers) evaluated at u, t.
  void gather(Vec u, double t) const;
  /// f = f_ext(t) - K u, times `scale` pointwise if not null; remembers K u (ku_).
  void external_minus_internal(double t, Vec u, Vec f, Vec scale) const;
  struct Solver {
    petsc::Matrix A;
    petsc::Matrix products;  ///< A's BAIJ copy, the Krylov operator of iterative solves
    petsc::Ksp ksp;
    double diagonal = 1;   ///< value on the constrained rows
    bool stale = false;    ///< the tangent changed since A was filled
    bool direct = false;   ///< a MUMPS factorisation (see choose_direct)
    bool checked = false;  ///< a direct solve's residual was checked (the first solve)
  };
  Solver& solver(double m, double k, double b);
  /// Collective. True if the constant operator A = m M + k K + b B (linear model) is best
  /// solved by a factorisation computed once; records why in solver_notes_.
  bool choose_direct(Mat A, double m, double k, double b);

  MPI_Comm comm_;
  LocalMesh mesh_;
  ProblemSpec spec_;
  Assembler assembler_;
  std::vector<std::unique_ptr<ForceTerm>> terms_;
  bool linear_ = true;                         ///< every term is linear (or a load): f_int = K u
  bool dashpots_ = false;                      ///< some term has a dashpot
  std::vector<const ForceTerm*> state_terms_;  ///< the terms with history variables
  std::vector<PointState*> point_states_;      ///< theirs
  std::unique_ptr<MatrixFreeElasticity> matrix_free_;  ///< time.operator: matrix_free
  bool baij_stiffness_ = false;
  double expected_solves_ = 0;
  std::vector<std::string> solver_notes_;
  double omega_max_ = 0;     ///< 0: unknown  ///< K_ is BAIJ (explicit schemes, linear model)
  petsc::Matrix K_;          ///< linear stiffness of the solids (constant; a shell if matrix-free)
  petsc::Matrix K_tangent_;  ///< solids + springs at the linearisation point (nonlinear only)
  petsc::Matrix B_;          ///< dashpot matrix at the linearisation point (dashpots only)
  petsc::Matrix M_;
  petsc::Vector point_masses_;   ///< nodal point masses (all 3 DOFs of a node)
  petsc::Vector linearised_at_;  ///< u of the last tangent update (nonlinear only)
  bool tangent_assembled_ = false;
  petsc::Vector lumped_mass_;
  petsc::Vector inverse_mass_;  ///< 1 / lumped mass on the free DOFs, 0 on the constrained ones
  std::vector<std::pair<int, petsc::Vector>> loads_;  ///< (amplitude, load vector)
  /// external_minus_internal's per-step storage (sized in the constructor; no allocation per
  /// step): each load's amplitude value, and the loads' borrowed arrays while it runs (empty
  /// otherwise).
  mutable std::vector<double> load_amplitudes_;
  mutable std::vector<petsc::ConstArray> load_arrays_;
  std::vector<PetscInt> constrained_;        ///< owned constrained DOFs, global, sorted
  std::vector<int> constrained_condition_;   ///< the dirichlet condition holding each
  std::vector<ConstraintOverlap> overlaps_;  ///< see constraint_overlaps()
  /// support_reactions(): the constrained rows of K and M (linear, assembled), and their products.
  mutable struct {
    petsc::Matrix K, M;
    petsc::Vector r, w;
  } reaction_rows_;
  /// support_reactions()'s last result and where it was computed.
  mutable struct {
    double t = 0;
    std::array<Vec, 3> vecs{};
    std::array<PetscObjectState, 3> states{};
    bool valid = false;
    std::vector<double> values;
  } reactions_cache_;
  struct Prescribed {
    PetscInt local;  ///< owned local DOF index
    double value;
    int amplitude;
  };
  std::vector<Prescribed> prescribed_;  ///< non-zero prescribed values
  /// Uniform base excitation in a component: G_d(t) = value x amplitude rate(t) on its DOFs.
  struct Ground {
    int component = 0;
    int amplitude = 0;  ///< the condition's displacement amplitude (its rate is the velocity)
    double value = 0;
    petsc::Vector mass_translation;  ///< M r_d
  };
  std::vector<Ground> ground_;
  std::array<GroundMotion, 3> ground_state_{GroundMotion::none, GroundMotion::none,
                                            GroundMotion::none};
  /// The load factors of external_minus_internal's vectors at t: the loads', then (with alpha_M)
  /// the ground's; returns how many.
  std::size_t load_factors(double t) const;
  std::vector<double> constrained_values_;  ///< scratch for solve()
  bool has_prescribed_motion_ = false;
  std::map<std::array<double, 3>, Solver> solvers_;
  mutable petsc::Vector work_, work2_, lift_;
  /// The last K u computed by force() (in work2_), valid while u and work2_ are unchanged.
  mutable struct {
    Vec u = nullptr;
    PetscObjectState u_state = 0, ku_state = 0;
  } ku_;
};

}  // namespace inertia
