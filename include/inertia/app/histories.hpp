#pragma once
/// \file histories.hpp
/// Point histories (probes.csv) and the energy balance (energy.csv), one row per step.

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {

/// A CSV file written by rank 0 (other ranks hold a closed one). Rows are flushed at flush().
class CsvFile {
 public:
  CsvFile() = default;
  /// Rank 0 opens `path` for writing; throws InputError if it cannot. With resume_after >= 0
  /// (a restart at that step) an existing file with the same columns is continued instead: its
  /// rows after that step and any INCOMPLETE marker are dropped (rewritten atomically).
  CsvFile(MPI_Comm comm, const std::filesystem::path& path, const std::string& header_comment,
          const std::vector<std::string>& columns, std::int64_t resume_after = -1);
  void row(std::int64_t step, double time, const std::vector<double>& values);
  void flush();
  /// Appends "# INCOMPLETE: ..." so a truncated history is not mistaken for a finished run.
  void mark_failed(const std::string& reason);

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
};

/// Probes: the mesh node nearest each probe point (ties: lowest rank); u and v every step.
class Probes {
 public:
  /// Collective. Locates the nodes; `log` gets one line per probe (rank 0).
  /// resume_after >= 0: continue an existing file after that step (restart).
  Probes(const MechanicalSystem& system, const std::vector<CaseProbe>& probes,
         const std::filesystem::path& path, std::ostream& log, std::int64_t resume_after = -1);
  /// Collective. Appends a row.
  void record(const State& state);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }

 private:
  MPI_Comm comm_;
  std::vector<PetscInt> owned_dof_;  ///< first DOF (owned local index) of each probe's node, or -1
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
  /// Collective. Call after a step: accumulates work and dissipation and appends a row.
  /// `extra_dissipation` is energy removed outside the scheme (velocity damping).
  void after_step(MechanicalSystem& system, const State& state, double dt,
                  double extra_dissipation);
  void flush() { file_.flush(); }
  void mark_failed(const std::string& reason) { file_.mark_failed(reason); }
  double total() const { return total_; }
  double external_work() const { return external_work_; }
  double dissipation() const { return dissipation_; }

 private:
  void write(MechanicalSystem& system, const State& state);
  Integrator& integrator_;
  petsc::Vector u_prev_, v_prev_, f_prev_, f_now_, work_;
  bool reactions_ = false;  ///< prescribed motion and an acceleration: count reaction work
  double external_work_ = 0, dissipation_ = 0, total_ = 0;
  CsvFile file_;
};

}  // namespace inertia
