#pragma once
/// \file monitors.hpp
/// The run's monitors (app/monitor.hpp): one class per output of the time loop. The driver
/// (run.cpp) builds the list once, in the order the loop calls them.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inertia/app/blow_up.hpp"
#include "inertia/app/drifts.hpp"
#include "inertia/app/fingerprint.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/monitor.hpp"
#include "inertia/app/output_series.hpp"
#include "inertia/app/sections.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/system/contact.hpp"

namespace inertia {

/// The run's monitors in the loop's order.
using MonitorList = std::vector<std::unique_ptr<Monitor>>;

/// This rank's largest |x_i| of a vector, infinity where an entry is not finite.
double largest_magnitude(Vec x);

/// energy.csv (EnergyHistory): a row per history step; its sums are part of a checkpoint.
class EnergyMonitor final : public Monitor {
 public:
  /// Collective (the carried vector of the alpha schemes).
  EnergyMonitor(MechanicalSystem& system, const Integrator& integrator, std::filesystem::path path);
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  bool wants_removed_kinetic() const override { return true; }
  void declare(io::NamedVectors& vectors) override;
  void restore(const io::CheckpointAttributes& read) override;
  void start(const RunContext& run) override;
  void before_step() override;
  void within_step(const State& state, double dt) override;
  void after_step(const StepView& step) override;
  /// The row of the sums within_step() took to `state`.
  void reached(const State& state) override { history_->write(run_->system, state); }
  void flush() override { history_->flush(); }
  void mark_failed(const std::string& reason) override { history_->mark_failed(reason); }
  void save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) override;
  /// The balance, for the blow-up watch and the progress line.
  EnergyHistory& history() { return *history_; }

 private:
  const RunContext* run_ = nullptr;
  std::filesystem::path path_;
  std::optional<EnergyResume> resume_;
  petsc::Vector carried_;  ///< checkpointed for the alpha schemes (see EnergyHistory)
  std::unique_ptr<EnergyHistory> history_;
};

class CheckpointMonitor;

/// The blow-up watch (app/blow_up.hpp) over the largest displacement and, every step, the energy
/// balance (its terms are evaluated every step anyway: reading them costs no product): a
/// SolverError naming the onset, the unstable checkpoints set aside; with time.allow_unstable one
/// warning in the log instead, and only a non-finite solution stops the run.
class BlowUpMonitor final : public Monitor {
 public:
  /// `energy` may be null. `highest_omega`: the model's highest frequency estimate (rad/s; 0:
  /// none), for the energy floor (BlowUpWatch::energy_floor).
  BlowUpMonitor(double model_size, double highest_omega, EnergyMonitor* energy)
      : model_size_(model_size), highest_omega_(highest_omega), energy_(energy) {}
  /// The checkpoints to set aside after a blow-up.
  void set_checkpoints(CheckpointMonitor* checkpoints) { checkpoints_ = checkpoints; }
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::check; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  /// The newest state the watch trusts (-1 before the loop).
  std::int64_t last_steady_step() const { return watch_ ? watch_->last_steady_step() : -1; }

 private:
  const RunContext* run_ = nullptr;
  double model_size_, highest_omega_;
  EnergyMonitor* energy_;
  CheckpointMonitor* checkpoints_ = nullptr;
  std::optional<BlowUpWatch> watch_;
};

/// probes.csv: the probes' fields per history step.
class ProbesMonitor final : public Monitor {
 public:
  ProbesMonitor(ProbeSites sites, std::filesystem::path path)
      : sites_(std::move(sites)), path_(std::move(path)) {}
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override { probes_->record(state); }
  void flush() override { probes_->flush(); }
  void mark_failed(const std::string& reason) override { probes_->mark_failed(reason); }

 private:
  const RunContext* run_ = nullptr;
  ProbeSites sites_;
  std::filesystem::path path_;
  std::unique_ptr<Probes> probes_;
};

/// reactions.csv (and the `reaction` field's values) for the regions of fixed, displacement and
/// acceleration conditions, with a scheme that carries an acceleration (else a warning, and
/// nothing).
class ReactionsMonitor final : public Monitor {
 public:
  ReactionsMonitor(std::vector<std::string> regions, bool field)
      : regions_(std::move(regions)), want_field_(field) {}
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override {
    if (reactions_) reactions_->record(run_->system, state, run_->integrator);
  }
  void flush() override {
    if (reactions_) reactions_->flush();
  }
  void mark_failed(const std::string& reason) override {
    if (reactions_) reactions_->mark_failed(reason);
  }
  /// The `reaction` field of the current state (null when not asked for or not available).
  Vec field();

 private:
  const RunContext* run_ = nullptr;
  std::vector<std::string> regions_;
  bool want_field_;
  std::unique_ptr<Reactions> reactions_;
  petsc::Vector field_;
};

/// sections.csv: the force and moment through each output.sections plane (app/sections.hpp) at
/// every history step; the largest magnitudes and when, in the log at the end.
class SectionsMonitor final : public Monitor {
 public:
  explicit SectionsMonitor(std::filesystem::path path) : path_(std::move(path)) {}
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override { record(state); }
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }
  void finish() override;

 private:
  void record(const State& state);
  const RunContext* run_ = nullptr;
  std::filesystem::path path_;
  std::unique_ptr<SectionCuts> cuts_;
  int gravity_amplitude_ = -1;
  /// Under uniform base excitation: v - G(t), the velocity Rayleigh damping acts on (as in the
  /// support reactions).
  petsc::Vector relative_;
  std::vector<double> values_, peak_, peak_time_;
  CsvFile file_;
};

/// drifts.csv: the storey drifts and drift ratios of each output.drifts line (app/drifts.hpp) at
/// every history step; the largest ratios and when, in the log at the end.
class DriftsMonitor final : public Monitor {
 public:
  explicit DriftsMonitor(std::filesystem::path path) : path_(std::move(path)) {}
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override { record(state); }
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }
  void finish() override;

 private:
  void record(const State& state);
  const RunContext* run_ = nullptr;
  std::filesystem::path path_;
  std::unique_ptr<DriftLines> lines_;
  std::vector<double> values_, peak_, peak_time_;
  CsvFile file_;
};

/// contact.csv: per rigid wall (contact:) the force it exerts on the body, the number of nodes in
/// contact and the deepest penetration, at every history step.
class ContactMonitor final : public Monitor {
 public:
  /// `walls`: the system's contact terms (at least one).
  /// Collective (the vectors of the contacts with friction, for checkpoints).
  ContactMonitor(const MechanicalSystem& system, std::vector<const ContactTerm*> walls,
                 std::filesystem::path path);
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void declare(io::NamedVectors& vectors) override;
  void declare_attributes(io::CheckpointAttributes& read) override;
  void restore(const io::CheckpointAttributes& read) override;
  void save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) override;
  void start(const RunContext& run) override;
  void summary(std::ostream& line) const override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override { record(state); }
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }

 private:
  void record(const State& state);
  std::vector<const ContactTerm*> walls_;
  /// Per contact with friction: its committed friction forces (a checkpoint's vector).
  struct StateVector {
    const ContactTerm* term;
    std::string which;  ///< ContactTerm::states()
    petsc::Vector v;
    std::string name() const { return "contact." + term->name() + "." + which; }
  };
  std::vector<StateVector> states_;
  /// With drop weights (walls with a mass): the system, whose momentum M v is the body's
  /// (contact.csv's momentum columns).
  const MechanicalSystem* system_ = nullptr;
  std::filesystem::path path_;
  std::vector<double> row_;
  CsvFile file_;
};

/// The output frames (OutputSeries: VTK or XDMF) on the plan's schedule.
class SeriesMonitor final : public Monitor {
 public:
  /// `reactions` (may be null) fills the `reaction` field.
  explicit SeriesMonitor(ReactionsMonitor* reactions) : reactions_(reactions) {}
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void mark_failed(const std::string& reason) override { series_->mark_failed(reason); }
  void summary(std::ostream& line) const override;

 private:
  void write_frame();
  const char* kind() const;
  const RunContext* run_ = nullptr;
  ReactionsMonitor* reactions_;
  std::unique_ptr<OutputSeries> series_;
  double next_frame_time_ = 0;  ///< output.interval: the next frame at the first step from here
};

/// Checkpoints (io/checkpoint.hpp) on the plan's schedule, after a signal, and the restart's
/// read; every monitor adds its part (Monitor::save()).
class CheckpointMonitor final : public Monitor {
 public:
  /// Collective. `monitors`: the run's list (flushed before, and saved into, each checkpoint).
  CheckpointMonitor(MPI_Comm comm, const CaseFile& c, const RunPlan& plan, MechanicalSystem& system,
                    State& state, Integrator& integrator, const MonitorList& monitors);
  LoopActivity activity() const override { return LoopActivity::checkpoint; }
  void set_watch(const BlowUpMonitor* watch) { watch_ = watch; }
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void summary(std::ostream& line) const override;

  /// Collective. --restart from `path`: reads the newest usable checkpoint's state and
  /// attributes (refused for another case, or another model unless `allow_changed_model`),
  /// logs what was skipped, and passes the attributes to every monitor (Monitor::restore()).
  /// Returns the attributes and the file.
  std::pair<io::CheckpointAttributes, std::filesystem::path> restore_from(
      const std::filesystem::path& path, bool allow_changed_model, std::ostream& log);
  /// After a signal: a checkpoint of this step unless there is one; what the message says.
  std::string write_for_stop();
  /// After a blow-up from `onset`: the checkpoints from its onset on are set aside (--restart
  /// would take the newest); "; ..." says so and names the newest checkpoint before the onset.
  std::string set_aside_from(std::int64_t onset);

 private:
  void write();
  void check_fingerprint(const io::CheckpointAttributes& read, bool allow_changed_model,
                         std::ostream& log) const;
  io::NamedVectors vectors();
  /// The system's point states as cell arrays, keyed by their cells' file tags.
  io::CellArrays cell_arrays();
  MPI_Comm comm_;
  const CaseFile& c_;
  const RunPlan& plan_;
  State& state_;
  Integrator& integrator_;
  const MonitorList& monitors_;
  const RunContext* run_ = nullptr;
  const BlowUpMonitor* watch_ = nullptr;
  io::Checkpointer checkpointer_;
  std::vector<FingerprintPart> fingerprint_;  ///< the model's, for checkpoints and restarts
  /// Per point state of the system: the natural row of each of its rows (natural_order of the
  /// cells' tags) and the number of rows over all ranks.
  struct StateRows {
    PointState* state;
    std::vector<std::int64_t> natural;
    std::int64_t global = 0;
  };
  std::vector<StateRows> states_;
  std::vector<std::int64_t> steps_;  ///< written or restored from, by this run
  std::int64_t bytes_ = 0, count_ = 0, last_step_ = -1;
};

/// The progress line, about ten times per run and at the last step, with the energy balance.
class ProgressMonitor final : public Monitor {
 public:
  /// `energy` may be null; `monitors`: flushed with each line.
  ProgressMonitor(EnergyMonitor* energy, const MonitorList& monitors)
      : energy_(energy), monitors_(monitors) {}
  void start(const RunContext& run) override { run_ = &run; }
  void after_step(const StepView& step) override;

  /// A balance beyond this percentage of the largest energy term does not close.
  static constexpr double balance_error_percent = 1.0;

 private:
  const RunContext* run_ = nullptr;
  EnergyMonitor* energy_;
  const MonitorList& monitors_;
};

/// Collective. Each rank's peak resident set after the setup and over the run: memory.csv (one
/// row per rank) and one log line (the largest rank's and the sum).
void report_memory(MPI_Comm comm, std::ostream& log, const std::filesystem::path& directory,
                   std::uint64_t setup_peak_rss);

/// The memory report (report_memory()) at the end of the run.
class MemoryMonitor final : public Monitor {
 public:
  MemoryMonitor(MPI_Comm comm, std::ostream& log, std::filesystem::path directory,
                std::uint64_t setup_peak_rss)
      : comm_(comm), log_(log), directory_(std::move(directory)), setup_(setup_peak_rss) {}
  void finish() override { report_memory(comm_, log_, directory_, setup_); }

 private:
  MPI_Comm comm_;
  std::ostream& log_;
  std::filesystem::path directory_;
  std::uint64_t setup_;
};

}  // namespace inertia
