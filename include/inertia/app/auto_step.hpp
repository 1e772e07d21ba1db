#pragma once
/// \file auto_step.hpp
/// dt: auto that follows the deforming mesh (RunPlan::varying_dt): before every step of an
/// explicit run of a nonlinear model, the stable step from the cells' wave transit times L / c
/// at X + u (system/stable_step.hpp) and the contact penalties' bound, times
/// time.safety_factor, rounded down to 6 digits (the same bits on every rank count: the
/// displacements agree across rank counts only to round-off).
///
/// The cells' L / c is not the assembled model's stable step (a lumped hex8 mesh's highest
/// frequency exceeds 2 c / L by up to sqrt(3)); the start's power iterations measure that step
/// (rounded to 3 digits, as the fixed dt: auto). So the cells' part of the step is
/// k min(L / c) with the calibration k = min(1, the start's stable step without the penalties /
/// min(L / c) at the start), kept for the run (and in checkpoints): the step is the measured one
/// at the start and shrinks as the smallest transit time does, never above the start's (springs
/// and point masses are only in the power iterations). Each step:
///   omega^2 = (limit / (k min L/c))^2 + penalty bound,   dt = safety x limit / omega
/// (limit: the scheme's stability limit, 2 for central difference). The last steps end exactly
/// at end_time (the step before the last split in two equal halves rather than a sliver).
/// The log names the controlling cell (file tag, region) whenever the step has changed by more
/// than 20 % since the last such line, and a summary at the end; dt.csv has, at every history
/// row, the step's dt, the smallest transit time L/c it came from and that cell's file tag.

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "inertia/app/histories.hpp"
#include "inertia/app/monitor.hpp"
#include "inertia/system/stable_step.hpp"

namespace inertia {

class AutoStep : public Monitor {
 public:
  /// `start_stable_step`: the plan's stable step at the start (3 digits), `limit` the scheme's
  /// stability limit.
  /// `calibration` (> 0): k as mass scaling set it; `cell_scale`: its cells' factors.
  AutoStep(MPI_Comm comm, std::ostream& log, MechanicalSystem& system, const CaseFile& c,
           double start_stable_step, double limit, double calibration = 0,
           std::vector<double> cell_scale = {});

  /// Collective. The step from `state` (its u at state.time) towards `end`; sets `last` when the
  /// step ends the run there. Throws SolverError naming an inverted or flat cell.
  double next(const State& state, double end, bool& last);

  /// The calibration k (computed at start() from the state there unless a checkpoint gave it).
  double calibration() const { return calibration_.value_or(0); }

  void restore(const io::CheckpointAttributes& read) override;
  void start(const RunContext& run) override;
  void save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) override;
  void finish() override;
  void after_step(const StepView& step) override;
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }

  /// The checkpoint's attributes of the calibration and of State::previous_dt (hex floats).
  static constexpr const char* calibration_key = "dt_auto.calibration";
  static constexpr const char* previous_dt_key = "dt_auto.previous_dt";

 private:
  std::string describe(const ControllingCell& cell) const;

  MPI_Comm comm_;
  std::ostream& log_;
  MechanicalSystem& system_;
  const CaseFile& c_;
  double start_stable_step_, limit_;
  double penalty_ = 0;  ///< the contact penalties' omega^2 bound
  double cap_ = 0;      ///< the plan's dt (the start's step): the largest step
  StableStepKernel kernel_;
  CsvFile file_;                 ///< dt.csv
  double dt_ = 0, transit_ = 0;  ///< the last next()'s step and smallest L/c
  std::optional<double> calibration_;
  bool restored_ = false;  ///< calibration_ from a checkpoint
  const RunContext* run_ = nullptr;
  double first_ = 0, logged_ = 0;  ///< the first step, the step of the last log line
  double smallest_ = INFINITY, largest_ = 0;
  std::int64_t steps_ = 0, smallest_step_ = 0;
  double smallest_time_ = 0, described_ = INFINITY;
  std::string smallest_cell_;
};

/// The calibration k = min(1, the stable step without the penalties / smallest L/c), from the
/// power iterations' stable step (3 digits, with the penalties' bound `penalty` in it) and the
/// smallest L/c of the undeformed cells; 1 where either is missing.
double auto_step_calibration(double stable_step, double limit, double penalty, double smallest);

/// The regions' dilatational wave speeds sqrt((lambda + 2 mu) / rho) (0: no solid).
std::vector<double> region_wave_speeds(const MechanicalSystem& system);

/// A double as a hex float ("%a"): exact through text; and back (nullopt if not one).
std::string hex_float(double x);
std::optional<double> parse_hex_float(const std::string& text);

}  // namespace inertia
