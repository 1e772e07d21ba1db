#pragma once
/// \file analysis.hpp
/// What the parts of a run work on: the context the sequencer (app/run.cpp) hands to the model
/// report, the time step's choice and each analysis (modal, harmonic, response spectrum,
/// transient), so that none of them calls back into the driver.

#include <mpi.h>

#include <ostream>

namespace inertia {

struct CaseFile;
class MechanicalSystem;
class Phases;

/// The run's communicator, its log (rank 0's stream), the case as parsed, the model's system and
/// the timed phases.
struct AnalysisContext {
  MPI_Comm comm;
  std::ostream& log;
  const CaseFile& c;
  MechanicalSystem& system;
  Phases& phases;
};

/// The members every part of a run reads, under the names the parts use: `c()`, `system()`,
/// `log_`, `comm_`, `phases_`.
class AnalysisPart {
 public:
  explicit AnalysisPart(const AnalysisContext& context)
      : comm_(context.comm),
        log_(context.log),
        phases_(context.phases),
        context_(context),
        case_(context.c),
        system_(context.system) {}

 protected:
  const CaseFile& c() const { return case_; }
  MechanicalSystem& system() const { return system_; }
  const AnalysisContext& context() const { return context_; }

  MPI_Comm comm_;
  std::ostream& log_;
  Phases& phases_;

 private:
  AnalysisContext context_;
  const CaseFile& case_;
  MechanicalSystem& system_;
};

}  // namespace inertia
