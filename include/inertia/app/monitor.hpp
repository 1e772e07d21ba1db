#pragma once
/// \file monitor.hpp
/// What the time loop calls after each step (PETSc's TSMonitorSet is the model): every output of
/// a run (frames, probes, reactions, energy, checkpoints, the progress line, the memory report)
/// and the blow-up watch is a Monitor in the run's list. A new output is one class behind this
/// interface (app/monitors.hpp) and one line where the driver builds the list (run.cpp,
/// Run::initialize()).

#include <mpi.h>

#include <cstdint>
#include <iosfwd>
#include <string>

#include "inertia/io/checkpoint.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia {

struct CaseFile;
struct RunPlan;
class MechanicalSystem;
class Phases;

/// What the loop is doing when a monitor fails, for the INCOMPLETE marks.
enum class LoopActivity {
  step,        ///< the step and what is measured with it (history rows)
  check,       ///< the blow-up watch after a completed step
  output,      ///< a frame, the progress line
  checkpoint,  ///< a checkpoint
};

/// What every monitor sees of the run: set once, for the run's life.
struct RunContext {
  MPI_Comm comm;
  std::ostream& log;
  const CaseFile& c;
  const RunPlan& plan;
  MechanicalSystem& system;
  Integrator& integrator;
  const State& state;
  Phases& phases;
  bool resumed = false;  ///< --restart: the histories continue, step 0 is not recorded again
};

/// One completed step, as the loop passes it to the monitors.
struct StepView {
  const State& state;
  const StepStats& stats;      ///< the step's solver statistics
  bool history_row = false;    ///< a probe/reaction/energy row at this step (the schedule)
  double removed_kinetic = 0;  ///< kinetic energy velocity damping took in this step
  /// The size of the step's last part: the run's dt, or less where the step was retried in halves
  /// (Monitor::within_step saw the other parts).
  double last_dt = 0;
  double largest_displacement = 0;  ///< max |u_i| over the ranks, infinite if not finite
  std::int64_t first_step = 0;      ///< where this run's loop started
  double loop_start = 0;            ///< MPI_Wtime() when the loop started
};

/// One output of the run, or a watch over it. Collective: every rank has the same list and
/// calls the same methods in the same order. The default of every method does nothing.
class Monitor {
 public:
  virtual ~Monitor() = default;
  /// Whether after_step() belongs to the step (timed with it as "time loop", history rows, run
  /// before the solver notes are logged) rather than to the outputs after it.
  virtual bool in_step() const { return false; }
  /// What a failure in after_step() is reported as.
  virtual LoopActivity activity() const { return LoopActivity::output; }
  /// Wants StepView::removed_kinetic (measured only then: two kinetic energies per step).
  virtual bool wants_removed_kinetic() const { return false; }

  /// --restart: the vectors to read from the checkpoint besides the state's (added to `vectors`).
  virtual void declare(io::NamedVectors& vectors) { (void)vectors; }
  /// --restart: the attributes to read from the checkpoint besides the run's (added to `read`
  /// with placeholder values; restore() gets them).
  virtual void declare_attributes(io::CheckpointAttributes& read) { (void)read; }
  /// --restart: the checkpoint's attributes, once read.
  virtual void restore(const io::CheckpointAttributes& read) { (void)read; }
  /// Opens the output (continued after a restart) and records the first state.
  virtual void start(const RunContext& run) { (void)run; }
  /// Before the integrator's step.
  virtual void before_step() {}
  /// A step retried in halves (StepController): at each boundary inside it, the state there and
  /// the size of the part that just ended (an accumulation over the step's parts, such as the
  /// energy balance's work, needs them). Collective.
  virtual void within_step(const State& state, double dt) { (void)state, (void)dt; }
  /// After a completed step.
  virtual void after_step(const StepView& step) { (void)step; }
  /// A step retried in halves that still failed: the state its last converged part reached
  /// (within_step saw it last), numbered as the failed step. A history writes its row there.
  /// Collective.
  virtual void reached(const State& state) { (void)state; }
  /// Writes what is buffered (before a checkpoint, with the progress line, at the end).
  virtual void flush() {}
  /// Marks what was written INCOMPLETE with the reason (a failed or interrupted run).
  virtual void mark_failed(const std::string& reason) { (void)reason; }
  /// Adds the monitor's part of a checkpoint: attributes and vectors.
  virtual void save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) {
    (void)attributes;
    (void)vectors;
  }
  /// Appends ", what it wrote" to the run's "finished:" line.
  virtual void summary(std::ostream& line) const { (void)line; }
  /// Collective. At the end of every run, after the timing table.
  virtual void finish() {}
};

}  // namespace inertia
