#pragma once
/// \file histories.hpp
/// Point histories (probes.csv) and the energy balance (energy.csv), one row per step.

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/output_fields.hpp"
#include "inertia/core/files.hpp"
#include "inertia/system/model_stress.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {

/// A CSV history written by rank 0 (the other ranks hold no file). Rows are formatted into a
/// buffer and reach the file whole, at flush() (or when the buffer is large), so a kill cuts at
/// most the last row. Every write is checked: a failure (a full disk) is an IoError
/// "<file>: <reason>", raised on every rank by the next flush(), and the file is cut back to its
/// last complete row.
class CsvFile {
 public:
  CsvFile() = default;
  /// Collective. Rank 0 creates `path` with its header. With resume_after >= 0 (a restart at that
  /// step) an existing file with the same columns is continued instead: only its complete rows
  /// (newline-terminated, every field present) up to that step are kept, markers dropped
  /// (rewritten atomically). Throws InputError or IoError on every rank.
  CsvFile(MPI_Comm comm, const std::filesystem::path& path, const std::string& header_comment,
          const std::vector<std::string>& columns, std::int64_t resume_after = -1);
  /// Appends a row (rank 0; a no-op elsewhere). Allocates nothing once the buffer has grown.
  void row(std::int64_t step, double time, std::span<const double> values);
  /// Collective. Writes the buffered rows; throws IoError on every rank if rank 0 could not
  /// write them (now or at an earlier automatic write).
  void flush();
  /// Rank 0: writes the buffered rows and "# INCOMPLETE: ...", so a truncated history is not
  /// mistaken for a finished run. Best effort (the disk may be full): never throws.
  void mark_failed(const std::string& reason) noexcept;

 private:
  void write_buffer();  ///< rank 0: buffer_ to the file; a failure is kept in error_

  MPI_Comm comm_ = MPI_COMM_NULL;
  OutputFile file_;     ///< rank 0 only
  std::string buffer_;  ///< formatted rows not yet written
  std::string error_;   ///< rank 0: the first write failure, raised by flush()
  std::size_t fields_ = 0;
};

class BeamTermInfo;
class ShellTermInfo;

/// Where a probe reads a shell's resultants: the shell cell whose centre is nearest its point
/// (ties: the lowest file tag) and its term (cell -1 on the other ranks and for a probe without
/// shell_resultants).
struct ShellPoint {
  const ShellTermInfo* term = nullptr;
  std::int64_t cell = -1;
};

/// Where a probe reads a beam's section forces: the beam cell nearest its point (ties: the lowest
/// file tag), its term, and the point's place along it, s in [0, 1] from end 0 (cell -1 on the
/// other ranks and for a probe without section_forces).
struct BeamPoint {
  const BeamTermInfo* term = nullptr;
  std::int64_t cell = -1;
  double s = 0;
};

/// Where the probes read: u and v at the mesh node nearest each probe point (ties: lowest rank);
/// strain, stress and von Mises at the point itself, in the solid cell that contains it (ties:
/// the lowest file tag), or if none does, in the nearest one at the point of the cell nearest it.
struct ProbeSites {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> fields;  ///< each probe's fields (CaseProbe::fields)
  std::vector<PetscInt> owned_dof;               ///< first owned DOF of each probe's node, or -1
  /// First owned DOF of the rotation node of each probe's node (a beam node; probes asking for
  /// rotation or angular_velocity), or -1.
  std::vector<PetscInt> owned_rotation_dof;
  /// Where each probe samples strain and stress: cell -1 on the ranks other than the cell's, and
  /// for a probe without stress, strain or von_mises.
  std::vector<SolidPoint> points;
  std::vector<BeamPoint> beams;           ///< where each probe reads section_forces
  std::vector<ShellPoint> shells;         ///< where each probe reads shell_resultants
  std::vector<std::string> descriptions;  ///< "probe tip: node 478 at (...), distance ...", ...
};

/// Collective. Locates the probes of a case. Throws InputError (naming `case_path`, the probe's
/// line and its point) for a probe outside the mesh: farther from its nearest node than the
/// elements around that node reach (distances are computed without overflow); and for a probe
/// that asks for stress, strain or von_mises with no solid element there, or for section_forces
/// in a model without beams.
ProbeSites locate_probes(const MechanicalSystem& system, const std::vector<CaseProbe>& probes,
                         const std::string& case_path);

/// Collective. The x, y, z entries of `x` at each site's node (3 per site, in site order), read
/// on the rank that owns the node and summed over the ranks; zero for a site without a node.
void values_at_sites(MPI_Comm comm, const ProbeSites& sites, Vec x, std::vector<double>& out);

/// Probes: at the probe sites, every step (probes.csv), the fields each probe asks for: u and v
/// of its node (<probe>.ux,uy,uz, <probe>.vx,vy,vz), and at its point the stress
/// (<probe>.sxx,syy,szz,sxy,syz,sxz), the strain (<probe>.exx,...,exz, tensor shear) and the
/// von Mises stress (<probe>.von_mises), as cell_stress defines them; and in the beam nearest
/// its point the section forces there (<probe>.N, Vy, Vz, T, My, Mz), linear between the beam's
/// end values.
class Probes {
 public:
  /// Collective. Starts probes.csv at `path` (its header comments describe the sites), or with
  /// resume_after >= 0 continues an existing file after that step (restart). `assembler`
  /// samples the stresses; it must outlive the probes.
  /// `states`: the system's point states, for the probes that ask for `state` (the committed
  /// state of the probe's cell, averaged over its points: <probe>.<variable>.<component>).
  Probes(MPI_Comm comm, const Assembler& assembler, ProbeSites sites,
         const std::filesystem::path& path, std::int64_t resume_after = -1,
         std::span<PointState* const> states = {});
  /// Collective. Appends a row. Allocates nothing.
  void record(const State& state);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }

 private:
  /// Collective: the probes' section forces (beam_sampled_) into values_.
  void record_beams(const State& state);
  /// Collective: the probes' shell resultants (shell_sampled_) into values_.
  void record_shells(const State& state);
  /// A field of a probe (a probe row of app/output_fields.hpp) and where its values go in a row.
  struct Column {
    const OutputField* field = nullptr;
    int offset = 0;
  };
  MPI_Comm comm_;
  std::vector<PetscInt> owned_dof_;  ///< first DOF (owned local index) of each probe's node, or -1
  std::vector<PetscInt> owned_rotation_dof_;  ///< ... of its rotation node, or -1
  std::vector<SolidPoint> points_;
  std::vector<BeamPoint> beams_;
  std::vector<ShellPoint> shells_;
  bool shell_sampled_ = false;       ///< some probe reads shell_resultants (the same on every rank)
  bool beam_sampled_ = false;        ///< some probe reads section_forces (the same on every rank)
  std::vector<double> beam_forces_;  ///< 12 per local cell (BeamTermInfo::section_forces)
  /// The sampled stress (plasticity: the probe's stress is the return map's).
  ModelStress model_stress_;
  std::vector<std::vector<Column>> columns_;  ///< per probe, in the order it lists its fields
  /// `state` columns: a point state's components at a probe's cell (row -1: not the term's).
  struct StateColumn {
    std::size_t probe = 0;
    const PointState* state = nullptr;
    std::int64_t row = -1;
    int offset = 0;
  };
  std::vector<StateColumn> state_columns_;
  bool sampled_ = false;  ///< some probe samples strain or stress (the same on every rank)
  std::vector<double> values_, sums_;
  CsvFile file_;
};

/// Support reactions (reactions.csv): for every region with a fixed or displacement condition,
/// the total force the support exerts on the body, R = sum over the region's constrained DOFs of
/// f_int(u) + M a + C v - f_ext (inertia, damping and the loads on the supported nodes included),
/// at the state the scheme reached, its supports exactly on their prescribed path. A DOF held by
/// two conditions counts for the later one (the one whose motion it follows), so the regions'
/// totals add up to the whole reaction.
class Reactions {
 public:
  /// Collective. `regions`: the region name of each of the system's dirichlet conditions.
  Reactions(const MechanicalSystem& system, const std::vector<std::string>& regions,
            const std::filesystem::path& path, std::int64_t resume_after = -1);
  /// Collective. Appends a row at the state, with the integrator's acceleration.
  void record(const MechanicalSystem& system, const State& state, const Integrator& integrator);
  /// Collective. Computes the DOF reactions at the state without a row (for fill()).
  void compute(const MechanicalSystem& system, const State& state, const Integrator& integrator);
  /// Collective. Scatters the last computed DOF reactions into r (zero elsewhere, ghosts set).
  void fill(const MechanicalSystem& system, Vec r) const;
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }
  /// The last row's totals, per region (fx, fy, fz), on every rank.
  const std::vector<double>& totals() const { return sums_; }

 private:
  MPI_Comm comm_;
  std::vector<int> column_of_dof_;  ///< first column (of 3) of each constrained DOF's region
  std::vector<int> component_of_dof_;
  std::vector<double> dof_values_, values_, sums_;
  std::int64_t computed_step_ = -1;  ///< the step dof_values_ belong to
  CsvFile file_;
};

/// The running sums of an energy history at a checkpoint.
struct EnergyResume {
  std::int64_t step = 0;
  double external_work = 0, dissipation = 0, algorithmic_dissipation = 0, initial_total = 0;
};

/// Energy balance (energy.csv), a row per step: the kinetic energy 1/2 v.M v and the stored
/// (strain) energy at the state, and the running sums over the steps n -> n+1 (h = dt, Delta x =
/// x_{n+1} - x_n, xbar = (x_n + x_{n+1}) / 2):
///   external_work += Delta u . fbar + Delta u_c . Rbar_c: the loads (f_ext, all DOFs) and the
///     support reactions R (on the constrained DOFs, at each step's state: Reactions) by the
///     trapezoidal rule;
///   damping_dissipation += h vbar.C vbar (Rayleigh), plus what velocity damping removes;
///   algorithmic_dissipation (Newmark-family schemes other than the trapezoidal rule: hht,
///     generalized_alpha, newmark with other beta, gamma) += what the scheme's balance removes,
///     from its discrete energy identity (below);
///   plastic_dissipation and plastic_work_error (plastic solids), from the committed states
///     (fe::J2State): the energy the return map dissipates, and the trapezoidal rule's work at
///     the material points less their stored and dissipated energy (the rule's error where a
///     step's stress path kinks);
///   eroded (element erosion, system/erosion.hpp): the kinetic and strain energy the eroded
///     cells carried away when they eroded, from their committed erosion states;
///   total = kinetic + strain - external_work + damping_dissipation [+ plastic_dissipation +
///     plastic_work_error] [+ eroded] [+ algorithmic_dissipation],
/// constant for a correct run: to the solver's tolerance for the implicit Newmark-family schemes
/// of a linear model whose supports do not move; to O(dt^2) for moving supports (the prescribed
/// motion is exact at each step, and the trapezoidal rule integrates the reactions' work between
/// the steps), nonlinear materials and the explicit schemes.
///
/// Uniform base excitation (MechanicalSystem::ground_motion): Rayleigh's mass term damps the
/// velocity relative to the ground, w = v - G: damping_dissipation += h wbar.C wbar, and the work
/// the ground does through that damping, Delta u . fbar_g - h (vbar.C vbar - wbar.C wbar) =
/// - h fbar_g.(vbar + wbar) with f_g = alpha_M M G (part of f_ext), is in external_work.
///
/// The Newmark-family identity. With Newmark's updates Delta u = h vbar + h^2 (beta - gamma/2)
/// Delta a, Delta v = h abar + h (gamma - 1/2) Delta a on the free DOFs, and the end-point
/// residual rho_n = M a_n + C v_n + f_int(u_n) - f_ext(t_n) (zero on the free DOFs for Newmark,
/// the reactions R on the constrained ones), the change of kinetic plus strain energy is
///   Delta u . fbar + Delta u_c . Rbar_c - h vbar.C vbar - D + e,
///   D = - Delta u . rhobar_f - h (gamma - 1/2) vbar.M Delta a_f
///       + h^2 (beta - gamma/2) Delta a_f.(M abar + C vbar),
/// for a linear model (the subscript f: the free DOFs' part). e = 0 when the supports do not
/// move; a moving support's exact motion departs from the trapezoidal rule by O(h^3) per step,
/// which e is, so the balance closes to O(h^2) then. D is the
/// algorithmic dissipation: 0 for the trapezoidal rule; for the alpha schemes rho_f is carried
/// by their balance (1 - alpha_f) rho_{n+1} + alpha_f rho_n + (alpha_f - alpha_m) M Delta a = 0 on
/// the free DOFs, from rho_0 = 0 (a_0 solves the equation of motion), never evaluated as a
/// residual: an implementation that does not solve its balance leaves total drifting.
///
/// Cost per step, linear models (products with the whole K or a consistent M; the reactions'
/// products with the constrained rows are shared with reactions.csv): M v_{n+1} (kinetic energy,
/// and Rayleigh's mass term from M vbar = (M v_n + M v_{n+1}) / 2, M Gbar = fbar_g / alpha_M),
/// K u_{n+1} (strain energy; none where the scheme's force already made it: explicit schemes),
/// with alpha_K one product K vbar (K Gbar = 0), except for the trapezoidal rule (newmark 1/4,
/// 1/2) with fixed supports and no velocity damping, where vbar = Delta u / h on every DOF and
/// vbar.K vbar = vbar.(K u_{n+1} - K u_n) / h; the identity adds M a_{n+1}. Nonlinear models
/// multiply by C at the current tangent.
class EnergyHistory {
 public:
  /// Collective. Writes the step-0 row, or with `resume` continues an existing file after
  /// resume->step with its running sums. With an integrator that has a Hamiltonian (variational),
  /// adds its `hamiltonian` column. `carried` (see carried()): the checkpoint's, on a resume.
  /// `velocity_scaled`: the run scales v after each step (velocity damping), so the trapezoidal
  /// rule's vbar = Delta u / h does not hold (see Cost below).
  EnergyHistory(MechanicalSystem& system, const State& state, Integrator& integrator,
                const std::filesystem::path& path, const EnergyResume* resume = nullptr,
                Vec carried = nullptr, bool velocity_scaled = false);
  /// Whether the balance carries a vector from step to step (the alpha schemes' end-point
  /// residual) that a checkpoint must hold for an exact restart.
  static bool has_carried(const Integrator& integrator);
  /// That vector (null without one).
  Vec carried() const { return residual_; }
  /// Collective. Call before a step: remembers the state at t_n.
  void before_step(MechanicalSystem& system, const State& state);
  /// Collective. Call after a step: accumulates work and dissipation and appends a row (unless
  /// `row` is false: output.history_every).
  /// `extra_dissipation` is energy removed outside the scheme (velocity damping).
  void after_step(MechanicalSystem& system, const State& state, double dt, double extra_dissipation,
                  bool row = true);
  /// Recomputes total() without a row (after a step without one), from the kinetic and strain
  /// energies the last after_step (or the constructor) computed at `state`; no product. Returns
  /// them.
  std::pair<double, double> update_total(MechanicalSystem& system, const State& state);
  /// Collective. Appends the row of `state` from the sums and energies the last after_step()
  /// computed there (a retried step's last converged part, when the step failed).
  void write(MechanicalSystem& system, const State& state);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }
  double total() const { return total_; }
  /// total() at the start of the run (the initial kinetic and strain energy): the balance is
  /// total() - initial_total().
  double initial_total() const { return initial_total_; }
  double balance() const { return total_ - initial_total_; }
  /// The largest of |kinetic|, |strain|, |external work|, |dissipation| where total() was last
  /// computed: the scale of balance().
  double largest_term() const { return largest_term_; }
  /// |kinetic| + |strain| + |work| + |dissipation| (both kinds) + |initial total| where total()
  /// was last computed: the energy in play, which a blow-up's balance approaches.
  double in_play() const { return in_play_; }
  double external_work() const { return external_work_; }
  double dissipation() const { return dissipation_; }
  double algorithmic_dissipation() const { return algorithmic_; }

 private:
  /// The state-dependent quantities at the current state (loads, reactions, M v, M a).
  void evaluate(MechanicalSystem& system, const State& state);
  Integrator& integrator_;
  std::optional<NewmarkWeights> identity_;  ///< the Newmark-family identity (not trapezoidal)
  bool reactions_ = false;  ///< prescribed motion and an acceleration: count reaction work
  bool ground_ = false;     ///< uniform base excitation with Rayleigh mass damping
  bool linear_ = false;     ///< the system is linear: C = alpha_M M + alpha_K K, K constant
  /// The trapezoidal rule's alpha_K vbar.K vbar from K u_n and K u_{n+1} (Cost above).
  bool trapezoidal_stiffness_ = false;
  petsc::Vector ku_prev_, ku_now_;  ///< trapezoidal_stiffness_: K u_n, K u_{n+1}
  petsc::Vector kv_;                ///< K vbar (linear, alpha_K, not trapezoidal_stiffness_)
  double kinetic_now_ = 0, strain_now_ = 0;  ///< at the state evaluate() last saw
  petsc::Vector u_prev_, v_prev_, a_prev_, f_prev_, f_now_, work_, work2_, cw_;
  petsc::Vector mv_prev_, mv_now_, ma_prev_, ma_now_;  ///< M v; the identity: M a
  petsc::Vector residual_, residual_next_;             ///< the identity: rho_f
  petsc::Vector ground_prev_, ground_now_;             ///< ground: f_g at t_n and t_{n+1}
  petsc::Vector dashpot_prev_, dashpot_now_;  ///< springs' dashpot forces at t_n and t_{n+1}
  std::vector<double> reaction_prev_, reaction_now_;  ///< R on this rank's constrained DOFs
  double time_prev_ = 0;
  double in_play_ = 0;
  double external_work_ = 0, dissipation_ = 0, algorithmic_ = 0, total_ = 0, largest_term_ = 0,
         initial_total_ = 0;
  /// The system's plastic dissipation and work error at the state evaluate() last saw.
  MechanicalSystem::PlasticEnergy plastic_;
  double eroded_ = 0;  ///< erosion: the eroded cells' kinetic and strain energy when they eroded
  std::array<double, 13> row_{};  ///< the most columns energy_columns() gives (12), and one
  CsvFile file_;
};

}  // namespace inertia
