#pragma once
/// \file histories.hpp
/// Point histories (probes.csv) and the energy balance (energy.csv), one row per step.

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/core/files.hpp"
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

/// Where the probes read: u and v at the mesh node nearest each probe point (ties: lowest rank);
/// strain, stress and von Mises at the point itself, in the solid cell that contains it (ties:
/// the lowest file tag), or if none does, in the nearest one at the point of the cell nearest it.
struct ProbeSites {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> fields;  ///< each probe's fields (CaseProbe::fields)
  std::vector<PetscInt> owned_dof;               ///< first owned DOF of each probe's node, or -1
  /// Where each probe samples strain and stress: cell -1 on the ranks other than the cell's, and
  /// for a probe without stress, strain or von_mises.
  std::vector<SolidPoint> points;
  std::vector<std::string> descriptions;  ///< "probe tip: node 478 at (...), distance ...", ...
};

/// Collective. Locates the probes of a case. Throws InputError (naming `case_path`, the probe's
/// line and its point) for a probe outside the mesh: farther from its nearest node than the
/// elements around that node reach (distances are computed without overflow); and for a probe
/// that asks for stress, strain or von_mises with no solid element there.
ProbeSites locate_probes(const MechanicalSystem& system, const std::vector<CaseProbe>& probes,
                         const std::string& case_path);

/// Probes: at the probe sites, every step (probes.csv), the fields each probe asks for: u and v
/// of its node (<probe>.ux,uy,uz, <probe>.vx,vy,vz), and at its point the stress
/// (<probe>.sxx,syy,szz,sxy,syz,sxz), the strain (<probe>.exx,...,exz, tensor shear) and the
/// von Mises stress (<probe>.von_mises), as cell_stress defines them.
class Probes {
 public:
  /// Collective. Starts probes.csv at `path` (its header comments describe the sites), or with
  /// resume_after >= 0 continues an existing file after that step (restart). `assembler`
  /// samples the stresses; it must outlive the probes.
  Probes(MPI_Comm comm, const Assembler& assembler, ProbeSites sites,
         const std::filesystem::path& path, std::int64_t resume_after = -1);
  /// Collective. Appends a row. Allocates nothing.
  void record(const State& state);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }

 private:
  /// Where a probe's values go in a row (-1: not asked for).
  struct Columns {
    int displacement = -1, velocity = -1, stress = -1, strain = -1, von_mises = -1;
  };
  MPI_Comm comm_;
  const Assembler& assembler_;
  std::vector<PetscInt> owned_dof_;  ///< first DOF (owned local index) of each probe's node, or -1
  std::vector<SolidPoint> points_;
  std::vector<Columns> columns_;
  bool sampled_ = false;  ///< some probe samples strain or stress (the same on every rank)
  std::vector<double> values_, sums_;
  CsvFile file_;
};

/// Energy balance: kinetic, strain, work of the external loads and of the support reactions of
/// prescribed motion (trapezoidal in time), Rayleigh and velocity-damping dissipation, and
/// total = kinetic + strain - work + dissipation. Reaction work needs the scheme's acceleration.
/// The running sums of an energy history at a checkpoint.
struct EnergyResume {
  std::int64_t step = 0;
  double external_work = 0, dissipation = 0;
};

class EnergyHistory {
 public:
  /// Collective. Writes the step-0 row, or with `resume` continues an existing file after
  /// resume->step with its running sums.
  /// With an integrator that has a Hamiltonian (variational), adds its `hamiltonian` column.
  EnergyHistory(MechanicalSystem& system, const State& state, Integrator& integrator,
                const std::filesystem::path& path, const EnergyResume* resume = nullptr);
  /// Collective. Call before a step: remembers u_n, v_n, f_ext(t_n).
  void before_step(MechanicalSystem& system, const State& state);
  /// Collective. Call after a step: accumulates work and dissipation and appends a row (unless
  /// `row` is false: output.history_every).
  /// `extra_dissipation` is energy removed outside the scheme (velocity damping).
  void after_step(MechanicalSystem& system, const State& state, double dt, double extra_dissipation,
                  bool row = true);
  /// Collective. Recomputes total() at this state without a row (after a step without one).
  /// Returns the kinetic and strain energies it computed.
  std::pair<double, double> update_total(MechanicalSystem& system, const State& state);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }
  double total() const { return total_; }
  /// The largest of |kinetic|, |strain|, |external work|, |dissipation| where total() was last
  /// computed: the scale of the balance error total().
  double largest_term() const { return largest_term_; }
  double external_work() const { return external_work_; }
  double dissipation() const { return dissipation_; }

 private:
  void write(MechanicalSystem& system, const State& state);
  Integrator& integrator_;
  petsc::Vector u_prev_, v_prev_, f_prev_, f_now_, work_;
  bool reactions_ = false;  ///< prescribed motion and an acceleration: count reaction work
  double external_work_ = 0, dissipation_ = 0, total_ = 0, largest_term_ = 0;
  std::array<double, 6> row_{};
  CsvFile file_;
};

}  // namespace inertia
