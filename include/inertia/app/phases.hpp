#pragma once
/// \file phases.hpp
/// Wall-clock phases of a run (mesh, partition, ..., time loop, output, checkpoint): the timing
/// table of the log and timings.csv.

#include <mpi.h>
#include <petsclog.h>

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

namespace inertia {

/// Wall-clock phases for the timing table and timings.csv (seconds, max over ranks at the end),
/// mirrored as PETSc log stages so -log_view shows the same phases.
class Phases {
 public:
  class Scope {
   public:
    Scope(Phases& p, const std::string& name) : p_(p), name_(name), start_(MPI_Wtime()) {
      const PetscLogStage stage = p_.stage(name_);
      pushed_ = stage >= 0 && PetscLogStagePush(stage) == 0;
    }
    ~Scope() {
      if (pushed_) PetscLogStagePop();
      auto& e = p_.entries_[p_.index(name_)];
      e.seconds += MPI_Wtime() - start_;
      ++e.calls;
    }

   private:
    Phases& p_;
    std::string name_;
    double start_;
    bool pushed_ = false;
  };

  /// Collective. Prints the table (max over ranks).
  void print(MPI_Comm comm, std::ostream& out) {
    out << "\ntiming (seconds, max over ranks)\n";
    for (auto& e : entries_) {
      double global = 0;
      MPI_Allreduce(&e.seconds, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
      out << "  " << std::left << std::setw(16) << e.name << std::right << std::setw(12)
          << std::fixed << std::setprecision(3) << global << std::setw(10) << e.calls << "\n";
      out.unsetf(std::ios::floatfield);
    }
  }

  /// Collective. The seconds spent in phase `name` so far, max over ranks (0 if it never ran).
  double seconds(MPI_Comm comm, const std::string& name) {
    const double mine = entries_[index(name)].seconds;
    double global = 0;
    MPI_Allreduce(&mine, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    return global;
  }

  /// Registers a phase (so it appears in the table and timings.csv even if it never runs).
  void declare(const std::string& name) { stage(name); }

  /// Collective. Writes `phase,seconds,calls` (seconds: max over ranks) for every phase, then
  /// `total` with the given wall time, to path on rank 0, atomically (temporary file, rename).
  void write_csv(MPI_Comm comm, const std::filesystem::path& path, double total) const;

 private:
  struct Entry {
    std::string name;
    double seconds = 0;
    long calls = 0;
    PetscLogStage stage = -1;
  };
  std::size_t index(const std::string& name) {
    for (std::size_t i = 0; i < entries_.size(); ++i)
      if (entries_[i].name == name) return i;
    entries_.push_back({name});
    return entries_.size() - 1;
  }
  PetscLogStage stage(const std::string& name) {
    auto& e = entries_[index(name)];
    if (e.stage < 0) {
      // Stages are global to PETSc: reuse one registered by an earlier Phases object.
      if (PetscLogStageGetId(name.c_str(), &e.stage) || e.stage < 0)
        if (PetscLogStageRegister(name.c_str(), &e.stage)) e.stage = -1;
    }
    return e.stage;
  }
  std::vector<Entry> entries_;
};

/// The phases of a run, in the order of timings.csv.
inline constexpr const char* run_phases[] = {"mesh",     "partition",    "distribute",
                                             "assemble", "solver setup", "time loop",
                                             "output",   "checkpoint"};

}  // namespace inertia
