#include "inertia/app/run.hpp"

#include <petscsys.h>

#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "inertia/app/analysis_sequence.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/command_line.hpp"
#include "inertia/app/drifts.hpp"
#include "inertia/app/harmonic_analysis.hpp"
#include "inertia/app/modal_analysis.hpp"
#include "inertia/app/model.hpp"
#include "inertia/app/model_report.hpp"
#include "inertia/app/monitors.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/app/response_spectrum_analysis.hpp"
#include "inertia/app/run_directories.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/app/sections.hpp"
#include "inertia/app/spectrum_tool.hpp"
#include "inertia/app/time_step_choice.hpp"
#include "inertia/app/transient_analysis.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

// "inertia: error: <what>" on stderr in one write, so that no other output (mpiexec's) can
// come between its parts.
void report_error(const std::string& what) {
  // printable(): a path or name with control bytes (a newline, an escape sequence) in any
  // message still makes one line that changes nothing on the terminal.
  const std::string line = "inertia: error: " + printable(what) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

namespace {

/// One run of a case: the sequencer of its parts (deal.II step-18's TopLevel::run() is the
/// model). It loads the case, builds the model, reports it (app/model_report.hpp), runs each
/// analysis in order (modal, response spectrum, harmonic, then the transient: one file each,
/// handed an AnalysisContext, never the driver) and finishes.
class Run {
 public:
  Run(MPI_Comm comm, const Arguments& args)
      : comm_(comm), args_(args), log_(root_out(comm)), start_(MPI_Wtime()) {
    for (const char* name : run_phases) phases_.declare(name);
  }

  /// Collective. Returns the exit status; throws on bad input or a failed run.
  int run() {
    if (args_.split > 0) return split();
    try {
      set_up();
    } catch (const Interrupted& e) {  // the outputs are not open yet: nothing to mark
      throw Interrupted(e.signal(), cat(e.what(), "; ", written_before_the_outputs()));
    }
    if (!c().analyses.empty()) {  // a sequence of analyses (app/analysis_sequence.hpp)
      run_analysis_sequence(context(), args_, plan_inputs_, sequence_summary_);
      if (!args_.check) {
        report_timings();
        return 0;
      }
    }
    if (args_.check) {
      warn_unused_petsc_options(log_);
      log_ << "check     OK\n";
      return 0;
    }
    if (!c().has_time) {  // a modal analysis alone
      finish_modal();
      return 0;
    }
    if (args_.restart) transient_->restore_checkpoint(*args_.restart, args_.allow_changed_model);
    transient_->open_outputs();
    transient_->time_loop();
    transient_->summary();
    report_timings();
    return 0;
  }

 private:
  MechanicalSystem& system() { return *model_.system; }
  const CaseFile& c() const { return *case_; }
  const AnalysisContext& context() const { return *context_; }

  /// --split N: rank 0 reads the mesh, partitions it for N ranks and writes CASE.pN.split.
  int split() {
    run_collectively(comm_, [&] { case_.emplace(load_case(comm_, args_.case_file)); });
    if (c().mesh_file)  // a box: split_mesh says why there is nothing to split
      log_ << "split     " << printable(c().mesh_file->lexically_normal().string()) << " for "
           << args_.split << " ranks into "
           << printable(split_path(c(), args_.split).lexically_normal().string()) << "\n"
           << std::flush;
    try {
      log_ << "split     " << split_mesh(comm_, c(), args_.split) << "\n";
    } catch (const Interrupted& e) {  // the split is written atomically, at the end
      throw Interrupted(e.signal(), cat(e.what(), "; no split written"));
    }
    // Rank 0 works alone and sees only its own signal: another rank's stops the run here.
    stop_if_interrupted(comm_, "during --split (the split was written completely)");
    return 0;
  }

  /// Everything before the outputs open: the model, its summary, the modal analysis, the time
  /// step and the integrator's start (its solver set-up). A signal stops it where every rank
  /// passes (stop_if_interrupted()), and inside its long parts: the mesh read, the power
  /// iterations, SLEPc's solves.
  void set_up() {
    build();
    monitors_.push_back(
        std::make_unique<MemoryMonitor>(comm_, log_, c().output_directory, peak_resident_bytes()));
    ModelSummary summary = describe_model(context(), model_);
    stop_if_interrupted(comm_, "during the set-up (after the model's summary)");
    if (!c().analyses.empty()) {
      sequence_summary_ = std::move(summary);
      if (args_.check) check_analyses();
      return;
    }
    if (!c().has_time) {  // a modal (and/or harmonic) analysis alone
      if (!args_.check) return frequency_analyses();
      return check_analyses();
    }
    if (!args_.check) frequency_analyses();
    TimeStep step = choose_time_step(context(), plan_inputs_);
    if (args_.check) return check_analyses();
    stop_if_interrupted(comm_, "during the set-up (after the time step's choice)");
    transient_.emplace(
        context(),
        TransientInputs{std::move(step), plan_inputs_, summary.size, std::move(summary.probes)},
        monitors_, args_.restart.has_value());
    transient_->initialize();
    stop_if_interrupted(comm_, "during the set-up (after the integrator's solver set-up)");
    log_set_up_time();
  }

  /// --check: what the analyses and the monitors check before their first solve or step (the
  /// harmonic's loads and supports, the section cuts and drift lines against the mesh), so that a
  /// case --check accepts is not refused by the run. Collective.
  void check_analyses() {
    if (c().harmonic.enabled)
      check_harmonic(c(), system().spec(), system(),
                     c().harmonic.method == CaseHarmonic::Method::modal);
    if (!c().sections.empty()) SectionCuts cuts(system(), c());
    if (!c().drifts.empty()) DriftLines lines(system(), c());
  }

  /// The set-up's wall time from the start of the run (max over ranks) and its phases, with
  /// what the stiffness operator is.
  void log_set_up_time() {
    double elapsed = MPI_Wtime() - start_;
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm_));
    const auto s = [](double x) {
      std::ostringstream out;
      out << std::fixed << std::setprecision(2) << x << " s";
      return out.str();
    };
    log_ << "setup     " << s(elapsed) << " (max over ranks): mesh "
         << s(phases_.seconds(comm_, "mesh")) << ", partition "
         << s(phases_.seconds(comm_, "partition")) << ", distribute "
         << s(phases_.seconds(comm_, "distribute")) << ", assemble "
         << s(phases_.seconds(comm_, "assemble")) << ", solver setup "
         << s(phases_.seconds(comm_, "solver setup")) << "; "
         << (system().matrix_free() ? "K matrix-free: its element data built in 'assemble', no "
                                      "matrix or sparsity pattern"
                                    : "K assembled")
         << "\n";
  }

  /// For an interruption before the outputs open: what the run has written.
  std::string written_before_the_outputs() const {
    if (modes_written_)
      return "the modal analysis is complete (modes.csv), the transient did not start";
    return "no output written";
  }

  /// Reads the case and builds the model: mesh, partition, distribution, assembly. Before the
  /// model, a run (not --check) creates its output directories and locks them (one run per
  /// directory); --check only verifies that they could be created.
  void build() {
    run_collectively(comm_, [&] { case_.emplace(load_case(comm_, args_.case_file)); });
    const int nranks = size_of(comm_);
    log_ << "inertia " << INERTIA_VERSION << ": case " << printable(c().path.string()) << " on "
         << nranks << (nranks == 1 ? " rank\n" : " ranks\n") << std::flush;
    insert_case_options(c().petsc_options);
    check_solver_options(comm_, !args_.check               ? UnreadAfterCheck::all
                                : c().scheme.is_explicit() ? UnreadAfterCheck::unprefixed
                                                           : UnreadAfterCheck::none);
    if (args_.check)
      check_directories(comm_, c());
    else
      locks_ = lock_directories(comm_, c(), log_);
    stop_if_interrupted(comm_, "during the set-up (before the mesh)");
    model_ = build_model(comm_, c(), &phases_);
    context_.emplace(AnalysisContext{comm_, log_, c(), *model_.system, phases_});
    stop_if_interrupted(comm_, "during the set-up (after the assembly)");
  }
  /// The timing table, timings.csv, the monitors' reports (memory) and the PETSc options
  /// nothing used: the end of every run.
  void report_timings() {
    phases_.print(comm_, log_);
    const double total = MPI_Wtime() - start_;
    log_ << "  " << std::left << std::setw(16) << "total" << std::right << std::setw(12)
         << std::fixed << std::setprecision(3) << total << "\n";
    phases_.write_csv(comm_, c().output_directory / "timings.csv", total);
    for (const auto& m : monitors_) m->finish();
    warn_unused_petsc_options(log_);
  }

  /// The analyses before a transient (or alone): the modal analysis and what builds on its modes
  /// (the response-spectrum analysis), and the harmonic response (on the modes, or direct).
  void frequency_analyses() {
    ModalResult modes;
    if (c().modal_modes > 0) {
      ModalAnalysis modal(context(), plan_inputs_);
      try {
        modes = modal.run();
      } catch (...) {
        modes_written_ = modal.written();
        throw;
      }
      modes_written_ = modal.written();
      if (c().response_spectrum.enabled) run_response_spectrum(context(), modes);
    }
    if (c().harmonic.enabled)
      run_harmonic(context(),
                   c().harmonic.method == CaseHarmonic::Method::modal ? &modes : nullptr);
  }
  /// The summary of a modal analysis without a transient.
  void finish_modal() {
    log_ << "\nfinished: modal analysis\n";
    report_timings();
  }

  MPI_Comm comm_;
  const Arguments& args_;
  std::ostream& log_;
  const double start_;
  Phases phases_;
  std::optional<const CaseFile> case_;  ///< the case as parsed: never changed after
  Model model_;
  std::optional<AnalysisContext> context_;  ///< once the model is built
  PlanInputs plan_inputs_;                  ///< what the run measured for its plan
  std::optional<TransientAnalysis> transient_;
  MonitorList monitors_;              ///< the memory monitor, then the transient's
  std::vector<DirectoryLock> locks_;  ///< rank 0: the output (and checkpoint) directory's
  bool modes_written_ = false;        ///< modes.csv and the mode shapes are complete
  ModelSummary sequence_summary_;     ///< a sequence's: the model's size and probes
};

}  // namespace

int run_main(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "spectrum")
    return spectrum_main(argc - 1, argv + 1);
  Arguments args;
  if (const auto status = parse_arguments(argc, argv, args)) return *status;
  std::optional<Session> session;
  try {
    session.emplace(&argc, &argv, args.petsc);
  } catch (const std::exception& e) {
    report_error(e.what());  // MPI or PETSc did not start: every process says so
    return 1;
  }
  // Errors are the same on every rank (they fail collectively) and are printed once, by rank 0,
  // while MPI is still up: a rank that exits non-zero first makes mpiexec abort the job, which
  // must not take the line with it.
  const bool root = rank_of(PETSC_COMM_WORLD) == 0;
  try {
    const InterruptGuard interrupts;
    return Run(PETSC_COMM_WORLD, args).run();
  } catch (const Interrupted& e) {
    if (root) report_error(e.what());
    return 128 + e.signal();
  } catch (const std::exception& e) {
    if (root) report_error(e.what());
    return 1;
  }
}

}  // namespace inertia
