#pragma once
/// \file force_term.hpp
/// The model's physics as a list of force terms (SOFA's ForceField): solids (one term per
/// material region), springs with their dashpots, point masses, and the loads. MechanicalSystem
/// holds the list and the schemes, the energy balance, the reactions and Newton see only the
/// system, which asks each term:
///
/// - linear terms (f = K u with a constant K) add their K once into the assembled stiffness, so an
///   explicit step stays one product and an implicit one keeps its single factorisation;
/// - nonlinear terms add their internal force f_int(u), their tangent dK at u and their stored
///   energy at every evaluation;
/// - dashpot terms add a velocity-dependent force f_d(u, v) and its matrix B(u);
/// - terms with mass add their lumped and consistent mass, and the weight of that mass under a
///   body acceleration (gravity);
/// - loads add a reference load vector F, which the system scales by the load's amplitude a(t);
/// - terms with history variables at their quadrature points (plasticity) own a PointState
///   (point_state.hpp): their evaluations at u write its trial state, the system commits it when
///   a step is accepted and restores it when a step is retried; checkpoints and outputs read it.
///
/// A term is one class in one file (src/system/term_<name>.cpp) and one line in the registry
/// (src/system/term_registry.cpp), which builds the terms of its kind from the ProblemSpec. A
/// kind may have a case-file section of its own (a top-level key named after it): its `parse`
/// reads and validates the section with the case file's reader (inertia/core/case_node.hpp), the
/// case file keeps what it returns, and its `build` finds it in ProblemSpec::term_sections. A kind
/// defined outside the library (a test's) is added with register_force_term() before the case
/// file is read.
/// Every rank holds the same list (a term may have no cells on a rank), so that what the
/// traits say is the same on every rank.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/assembly/assembler.hpp"
#include "inertia/core/registry.hpp"
#include "inertia/system/point_state.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

namespace case_yaml {
struct Node;
}
class CellErosion;

/// Where a term is evaluated: the local forms (owned, then ghost DOFs; ghosts current) of the
/// displacement and, for dashpots, the velocity.
struct TermPoint {
  std::span<const PetscScalar> u;
  std::span<const PetscScalar> v;  ///< empty where no dashpot is evaluated
  /// The time of the evaluation (a moving wall's position): the time of the system's last force
  /// evaluation (MechanicalSystem::force) for tangents, energies and commits.
  double time = 0;
};

class ForceTerm {
 public:
  struct Traits {
    /// f_int = K u with a constant K (linear elasticity): added once into the assembled K.
    bool linear = true;
    /// Has a velocity-dependent force f_d(u, v) with matrix B(u) (dashpots).
    bool dashpot = false;
    /// A load: a reference vector F scaled by amplitude `amplitude` (ProblemSpec::amplitudes).
    bool load = false;
    int amplitude = 0;
    /// Moves with time at fixed u (a moving wall): evaluated at TermPoint::time, with work done
    /// on the body (moving_work).
    bool moves = false;
    /// A nonlinear term whose force acts at this rank's owned nodes only, from u there (a rigid
    /// wall): an explicit run whose other terms are linear keeps the linear fast path (a BAIJ K,
    /// the fused lumped-mass update) and adds it node by node (add_nodal_force), without an
    /// assembly or a tangent.
    bool nodal = false;
    /// A nodal term whose force needs other ranks' data (contact between bodies): gather(u, t)
    /// evaluates it, collectively, before add_nodal_force and energy read it. Always added node
    /// by node; under implicit schemes and static its tangent couples nodes the assembled
    /// pattern does not (add_coupling).
    bool gathers = false;
    /// Has history at nodes that dissipates energy (friction): commit_nodal and
    /// take_friction_dissipation are called for it.
    bool friction = false;
    /// Enforces a constraint by augmented Lagrangian iterations (contact with `augmented`):
    /// Newton solves are repeated with updated multipliers (augment) until the constraint holds
    /// to its tolerance; the multipliers are committed with an accepted step (commit_nodal) and
    /// restored for a retried one (reject_multipliers).
    bool multipliers = false;
    /// Carries a rigid body's motion (a drop weight): commit_nodal is called after every
    /// accepted step (the body advances there) and body_kinetic_energy counts in the kinetic
    /// energy.
    bool body = false;
    /// Takes no stiffness but carries contact (a rigid body): add_contact_stiffness sizes the
    /// contact penalties at its nodes.
    bool contact_stiffness = false;
    /// Has hourglass modes held by a stiffness (one-point shells): hourglass_energy is called
    /// for energy.csv's `hourglass` column.
    bool hourglass = false;
  };

  virtual ~ForceTerm() = default;
  /// For the log and messages: "springs of region 'chain'".
  virtual std::string describe() const = 0;
  virtual Traits traits() const = 0;

  /// Linear terms: their constant stiffness (`at` unused). Nonlinear terms: the tangent
  /// d f_int / d u at `at`. Collective only through the assembly that calls it.
  virtual void add_stiffness(const TermPoint& at, MatrixSum& K) const { (void)at, (void)K; }
  /// Nonlinear terms: the internal force at `at` (a linear term's is in K u).
  virtual void add_internal_force(const TermPoint& at, VectorSum& f) const { (void)at, (void)f; }
  /// Terms with a point state whose add_internal_force writes every row's trial state at its u
  /// (as update_state would): a commit at the u of the system's last force evaluation (an
  /// explicit step's) takes that state without evaluating again.
  virtual bool trial_from_force() const { return false; }
  /// Nonlinear terms whose add_internal_force computes their stored energy on the way (or
  /// leaves what gives it cheaply: its point states): true, and force_energy(at) is this rank's
  /// part of it at the last add_internal_force's `at` (the same u and time as `at`, also after
  /// a commit). The system then takes it for the energy at that u and time (the energy history
  /// of an explicit step) instead of evaluating energy() again.
  virtual bool energy_from_force() const { return false; }
  virtual double force_energy(const TermPoint& at) const { return (void)at, 0.0; }
  /// With energy_from_force: the part of force_energy(at) its hourglass modes hold (as
  /// hourglass_energy at the same `at`, which it is unless the term kept it from the force).
  virtual double force_hourglass_energy(const TermPoint& at) const { return hourglass_energy(at); }
  /// Nonlinear terms: the stored energy of this rank's part at `at` (a linear term's is in
  /// 1/2 u.K u); NaN where it has none (an inverted element).
  virtual double energy(const TermPoint& at) const {
    (void)at;
    return 0;
  }
  /// Dashpot terms: f_d(u, v) and B(u).
  virtual void add_dashpot_force(const TermPoint& at, VectorSum& f) const { (void)at, (void)f; }
  virtual void add_dashpot_matrix(const TermPoint& at, MatrixSum& B) const { (void)at, (void)B; }

  /// Terms with Traits::contact_stiffness: the stiffness their cells would have if they
  /// deformed, only to size contact penalties at their nodes (the diagonal set_up() gets).
  virtual void add_contact_stiffness(MatrixSum& K) const { (void)K; }
  /// Terms with mass: lumped nodal masses (the same in the 3 DOFs of a node) and the
  /// consistent mass matrix of their cells.
  virtual void add_lumped_mass(VectorSum& m) const { (void)m; }
  virtual void add_consistent_mass(MatrixSum& M) const { (void)M; }
  /// Whether add_consistent_mass adds only the diagonal add_lumped_mass adds (shells: their
  /// lumped mass with its rotary inertia in both treatments; terms without cell mass). A term
  /// whose consistent mass couples DOFs says false: where every term says true, a consistent
  /// treatment is the lumped one and runs as it (SystemOperators: no mass matrix, no mass solve).
  virtual bool consistent_mass_is_lumped() const { return true; }
  /// Masses at nodes (point masses): into the owned entries of m, the same in both treatments
  /// (on the diagonal of a consistent M).
  virtual void add_nodal_mass(std::span<PetscScalar> owned) const { (void)owned; }
  /// This rank's share of the term's mass.
  virtual double mass() const { return 0; }
  /// The forces of a uniform body acceleration g on the term's cell mass (rho g; nodal masses
  /// weigh through add_nodal_mass).
  virtual void add_body_force(const std::array<double, 3>& g, VectorSum& f) const {
    (void)g, (void)f;
  }

  /// Loads: the reference vector F (f_ext = a(t) F). `terms`: the whole list (gravity weighs
  /// the terms with mass).
  virtual void add_load(std::span<const std::unique_ptr<ForceTerm>> terms, VectorSum& f) const {
    (void)terms, (void)f;
  }

  /// Nonlinear terms sized from the model (contact penalties): called once, collectively, when
  /// every term's tangent at the reference configuration and the lumped masses exist, with their
  /// owned entries (3 per owned node); the reference tangent is then assembled again.
  virtual void set_up(std::span<const PetscScalar> stiffness_diagonal,
                      std::span<const PetscScalar> lumped_mass) {
    (void)stiffness_diagonal, (void)lumped_mass;
  }
  /// The largest k / m of a stiffness the term adds where the reference tangent does not show it
  /// (a contact penalty), on this rank's nodes: the explicit stable step adds it to omega_max^2.
  virtual double frequency_squared_bound() const { return 0; }
  /// That stiffness's dominating diagonal D (P <= D), added to d (owned entries, 3 per owned node):
  /// frequency_squared_bound() is max D / m over the lumped masses m. With a consistent mass the
  /// bound is the largest eigenvalue of M^-1 D instead (spectrum.cpp): up to 27 times max D / m
  /// for hex8 cells, whose consistent mass has modes 27 times lighter than the lumped one.
  virtual void add_penalty_diagonal(std::span<PetscScalar> d) const { (void)d; }
  /// Terms that move (a wall): the work they do on the body from the state (u0, t0) to (u1, t1)
  /// (owned entries read), on this rank, to the order of the trapezoidal rule. The energy balance
  /// books it as external work.
  virtual double moving_work(std::span<const PetscScalar> u0, std::span<const PetscScalar> u1,
                             double t0, double t1) const {
    (void)u0, (void)u1, (void)t0, (void)t1;
    return 0;
  }
  /// The same for gathering terms (Traits::gathers), which read it in place of moving_work:
  /// collective, from the global vectors.
  virtual double gathered_moving_work(Vec u0, Vec u1, double t0, double t1) const {
    (void)u0, (void)u1, (void)t0, (void)t1;
    return 0;
  }

  /// Nodal terms (Traits::nodal): adds factor x scale_i x f_int,i (scale empty: 1) of the term's
  /// internal force at displacement u, time t into f, owned entries (3 per owned node).
  virtual void add_nodal_force(std::span<const PetscScalar> u, double t, double factor,
                               std::span<const PetscScalar> scale, std::span<PetscScalar> f) const {
    (void)u, (void)t, (void)factor, (void)scale, (void)f;
  }

  /// Gathering terms (Traits::gathers): collective; evaluates the term at displacement u (the
  /// global vector) and time t, for the add_nodal_force and energy calls that follow with the
  /// same u and t.
  virtual void gather(Vec u, double t) const { (void)u, (void)t; }

  /// A 3x3 block of a tangent between two nodes (global node numbers; either may be owned by
  /// any rank): d f_row / d u_col, row-major.
  struct CouplingBlock {
    std::int64_t row = 0, col = 0;
    std::array<double, 9> b{};
  };
  /// Gathering terms under implicit schemes and static: appends the tangent of the last
  /// gather(u, t), on this rank's share of the term, as blocks (summed where they repeat). The
  /// system adds them to the operator of the Newton solves outside the assembled pattern.
  virtual void add_coupling(std::vector<CouplingBlock>& blocks) const { (void)blocks; }

  /// Terms with history at nodes (friction): collective, called with an accepted step's
  /// displacement u (the global vector) and its time t, after the step; the trial history at u
  /// becomes the committed one.
  virtual void commit_nodal(Vec u, double t) const { (void)u, (void)t; }
  /// The energy the term has dissipated on this rank (friction) over the accepted steps since
  /// the last call; the count starts again from zero. Per step, not a running total: the energy
  /// balance adds the steps' amounts, which a restart then adds in the same order.
  virtual double take_friction_dissipation() const { return 0; }
  /// Terms with a rigid body (Traits::body): its kinetic energy at the last accepted step, the
  /// same on every rank (not a share: summed once).
  virtual double body_kinetic_energy() const { return 0; }
  /// Solids with plastic state: the energy dissipated plastically on this rank since the start,
  /// from the committed states (restored with them on a restart).
  virtual double plastic_dissipation() const { return 0; }
  /// Solids with plastic state: the trapezoidal rule's work at the material points less their
  /// stored and dissipated energy, on this rank since the start (fe::J2State::work_error).
  virtual double plastic_work_error() const { return 0; }
  /// Section cuts (app/sections.cpp) through solids whose force is not K u (plastic,
  /// hyperelastic): whether local cell c is one of this term's such cells, and its internal force
  /// at u (the local form, ghosts current; from its committed state without time passing, its
  /// trial state written as the outputs' evaluations do; zero for an eroded cell), 3 values per
  /// node into f. Beams and shells answer through BeamTermInfo and ShellTermInfo.
  virtual bool holds_nonlinear_solid(std::int64_t c) const {
    (void)c;
    return false;
  }
  virtual void nonlinear_solid_force(std::span<const PetscScalar> u, std::int64_t c,
                                     double* f) const {
    (void)u, (void)c, (void)f;
  }
  /// Solids with reduced-integration hex8 and one-point shells (Traits::hourglass): the part of
  /// their stored energy at `at` that the hourglass modes hold, on this rank.
  virtual double hourglass_energy(const TermPoint& at) const {
    (void)at;
    return 0;
  }

  /// Terms with multipliers (Traits::multipliers): collective. At displacement u (the global
  /// vector), time t, with the trial multipliers of the last Newton solve: the largest violation
  /// of the constraint on this rank over its tolerance (<= 1: satisfied). With `update`, the
  /// trial multipliers take a step along it (Uzawa: lambda <- max(0, lambda - rho g)), rho the
  /// penalty plus `inertia` (the Newton operator's mass coefficient over its stiffness
  /// coefficient, 0 in static) times the nodes' mass: a lower bound of the stiffness the
  /// constraint sees in a dynamic step, where inertia dominates it.
  virtual double augment(Vec u, double t, bool update, double inertia) const {
    (void)u, (void)t, (void)update, (void)inertia;
    return 0;
  }
  /// The largest number of multiplier updates in one solve, the same on every rank.
  virtual int augmentation_limit() const { return 0; }
  /// The step being tried is retried: the trial multipliers are the committed ones again.
  virtual void reject_multipliers() const {}

  /// Terms with history variables: their state at the quadrature points (null for the others).
  /// Every evaluation at u (force, tangent, energy) writes its trial state from the committed one.
  virtual PointState* point_state() const { return nullptr; }
  /// Solids whose material has a failure criterion: their cells' erosion (erosion.hpp), whose
  /// eroded rows the term skips in every sum (null for the others).
  virtual CellErosion* erosion() const { return nullptr; }
  /// Collective, after cells eroded at the accepted state u, t (or, u null, after a restart
  /// restored eroded cells): `eroded`, per local cell of the mesh, 1 for a cell that has eroded.
  /// Terms built on the mesh's faces (contact pairs on volume regions) rebuild what those cells'
  /// leaving changes.
  virtual void cells_eroded(const std::vector<std::uint8_t>& eroded, Vec u, double t) {
    (void)eroded, (void)u, (void)t;
  }
  /// This rank's share of the energy the term's changes at erosions took away (a contact pair:
  /// the penalty energy its rebuilt surfaces no longer hold at the erosions' u), since the start.
  virtual double eroded_energy() const { return 0; }
  /// Terms with state: sets the trial state at `at` from the committed one, what an evaluation
  /// does on the way. The system calls it at an accepted step's configuration, then commits. May
  /// throw SolverError (an element that cannot take the configuration): the step is retried.
  virtual void update_state(const TermPoint& at) const { (void)at; }
};

/// What a registry entry builds its terms from.
struct TermInputs {
  MPI_Comm comm;
  const LocalMesh& mesh;
  const ProblemSpec& spec;
  const Assembler& assembler;
  const ElementAssignment& elements;  ///< per local cell: its material, its spring set
};

/// One kind of force term: its name is the case-file section its terms come from, its example
/// that section (with what it needs: a contact's `materials` come from the box case).
struct ForceTermEntry : EntryInfo {
  /// Appends the terms of this kind (the same number on every rank). Collective: may throw
  /// InputError on every rank.
  void (*build)(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out) = nullptr;
  /// Kinds with a section of their own (the top-level key `name`): reads and validates it
  /// (InputError "<file>:<line>: <key>: ...", one line); the result's `where` and `source` are
  /// filled by the caller. Null for the kinds built from the case file's own sections.
  std::shared_ptr<TermSection> (*parse)(const case_yaml::Node& section) = nullptr;
  /// Optional: changes the mesh before any term is built (contact's initial penetrations moved
  /// away); `mesh` is the inputs' mesh. Collective: may throw InputError on every rank.
  void (*prepare)(const TermInputs& in, LocalMesh& mesh) = nullptr;
  /// Optional, for kinds with a section: changes the whole mesh on rank 0 before it is
  /// partitioned (beams give their nodes rotation nodes). InputError for a mesh the section
  /// cannot take.
  void (*prepare_mesh_data)(const TermSection& section, MeshData& mesh) = nullptr;
};

/// Every kind, built-in then registered, in the order the terms are built (and summed). The
/// registry is a view: register_force_term() after it was taken may leave it dangling.
Registry<ForceTermEntry> force_terms();
inline std::span<const ForceTermEntry> force_term_entries() { return force_terms().entries(); }
/// Adds a kind defined outside the library (a test's term), before any case file is read. Its
/// name must differ from every kind's and from the case file's own sections.
void register_force_term(const ForceTermEntry& entry);
/// The entry with a section of its own named `name`, or null.
const ForceTermEntry* force_term_section(std::string_view name);
/// Serial: the kinds' changes to the whole mesh (ForceTermEntry::prepare_mesh_data) for the
/// sections the case has.
void prepare_mesh_data(const TermSections& sections, MeshData& mesh);
/// The kinds' changes to the mesh (ForceTermEntry::prepare), before build_force_terms.
/// Collective.
void prepare_mesh(const TermInputs& in, LocalMesh& mesh);
/// The terms of a problem, kind by kind in registry order. Collective.
std::vector<std::unique_ptr<ForceTerm>> build_force_terms(const TermInputs& in);

// The registered kinds (one file each).
void build_solid_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
void build_spring_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
void build_point_mass_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
void build_load_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
void build_contact_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
std::shared_ptr<TermSection> parse_contact_section(const case_yaml::Node& section);
void prepare_contact_mesh(const TermInputs& in, LocalMesh& mesh);

}  // namespace inertia
