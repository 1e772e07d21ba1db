#include "inertia/app/auto_step.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>

#include "inertia/app/case_file.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/core/text.hpp"
#include "inertia/io/checkpoint.hpp"
#include "inertia/system/mechanical_system.hpp"
#include "inertia/system/spectrum.hpp"

namespace inertia {

std::vector<double> region_wave_speeds(const MechanicalSystem& system) {
  std::vector<double> c(system.mesh().regions.size(), 0.0);
  for (const auto& m : system.spec().materials) {
    const auto& e = m.material;
    if (e.density > 0) c[m.region] = std::sqrt((e.lambda() + 2 * e.mu()) / e.density);
  }
  for (const int r : rigid_regions(system.mesh(), system.spec())) c[r] = 0;  // no deformation
  return c;
}

double auto_step_calibration(double stable_step, double limit, double penalty, double smallest) {
  const double omega = limit / stable_step;
  const double cells = omega * omega - penalty;  // the power iterations include the penalties
  if (!(cells > 0) || !std::isfinite(smallest) || !(smallest > 0)) return 1;
  return std::min(1.0, limit / std::sqrt(cells) / smallest);
}

std::string hex_float(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

std::optional<double> parse_hex_float(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return x;
}

AutoStep::AutoStep(MPI_Comm comm, std::ostream& log, MechanicalSystem& system, const CaseFile& c,
                   double start_stable_step, double limit, double calibration,
                   std::vector<double> cell_scale)
    : comm_(comm),
      log_(log),
      system_(system),
      c_(c),
      start_stable_step_(start_stable_step),
      limit_(limit),
      penalty_(system.penalty_frequency_squared()),
      kernel_(system.mesh(), region_wave_speeds(system), std::move(cell_scale)) {
  if (calibration > 0) calibration_ = calibration;
  kernel_.beams(beam_step_sections(system.spec(), system.mesh()));  // beams: their own steps
  kernel_.skip(&system.eroded_cells());  // eroded cells have no step: their distortion sets none
}

void AutoStep::restore(const io::CheckpointAttributes& read) {
  if (const auto it = read.optional_strings.find(calibration_key);
      it != read.optional_strings.end())
    if (const auto k = parse_hex_float(it->second)) {
      calibration_ = k;
      restored_ = true;
    }
}

void AutoStep::start(const RunContext& run) {
  run_ = &run;
  cap_ = run.plan.dt;  // the first step's estimate (the checkpoint's after a restart)
  if (run.resumed && !restored_)
    log_ << "warning   restart: the checkpoint has no dt: auto calibration (written by a run "
            "with another dt); calibrating on the undeformed cells\n";
  file_ = CsvFile(run.comm, run.c.output_directory / "dt.csv",
                  "# dt: auto following the mesh: each step's dt (s), the smallest wave transit "
                  "time L/c of the cells before it (s, the calibration k not applied) and that "
                  "cell's file tag\n",
                  {"dt", "smallest_transit", "cell"}, run.resumed ? run.state.step : -1);
  // The undeformed cells (X): the same calibration at the start and at a restart.
  const double smallest = kernel_.smallest(comm_, nullptr);
  const ControllingCell cell = kernel_.controlling(comm_);
  const bool given = calibration_.has_value();
  if (!given) calibration_ = auto_step_calibration(start_stable_step_, limit_, penalty_, smallest);
  log_ << "dt        auto: smallest L/c of the undeformed cells " << smallest << " s ("
       << describe(cell) << "); calibration k = " << std::setprecision(17) << *calibration_
       << std::setprecision(6)
       << (restored_ ? " (the checkpoint's)"
           : given   ? " (mass scaling's, of the unscaled model)"
                     : cat(" (the power iterations' stable step ", start_stable_step_, " s",
                         penalty_ > 0 ? " without the contact penalties' bound" : "",
                           " over min L/c, at most 1)"))
       << "\n";
}

double AutoStep::next(const State& state, double end, bool& last) {
  const double smallest = kernel_.smallest(comm_, state.u);
  if (!(smallest > 0)) {
    const ControllingCell cell = kernel_.controlling(comm_);
    throw SolverError(cat(
        "dt: auto: cell ", cell.tag, " (region '",
        cell.region >= 0 ? printable(system_.mesh().regions[cell.region].name) : std::string("?"),
        "') is inverted or flat at t = ", state.time, ": it has no stable step"));
  }
  const double k = calibration_.value_or(1);
  const double cells = std::isfinite(smallest) ? limit_ / (k * smallest) : 0;
  const double omega = std::sqrt(cells * cells + penalty_);
  // Never above the start's step: springs and point masses are only in the power iterations.
  double dt =
      omega > 0 ? std::min(round_down_to_digits(c_.safety_factor * limit_ / omega, 6), cap_) : cap_;
  const double left = end - state.time;
  last = dt >= left * (1 - 1e-9);
  const bool fitted = last || 2 * dt > left;  // the last two steps: not the mesh's doing
  if (last)
    dt = left;
  else if (fitted)
    dt = left / 2;  // two equal steps to the end rather than a sliver
  if (steps_ == 0) first_ = logged_ = dt;
  dt_ = dt;
  transit_ = smallest;
  ++steps_;
  largest_ = std::max(largest_, dt);
  const bool changed = std::abs(dt - logged_) > 0.2 * logged_ && !fitted;
  if (dt < smallest_ && !fitted) {
    smallest_ = dt;
    smallest_step_ = state.step + 1;
    smallest_time_ = state.time;
  }
  // The controlling cell (two reductions): for a log line, and for the summary's smallest step
  // each time it has shrunk by 1 % more.
  if (changed || (smallest_ == dt && !(dt > 0.99 * described_))) {
    const std::string cell = describe(kernel_.controlling(comm_));
    if (smallest_ == dt) {
      described_ = dt;
      smallest_cell_ = cell;
    }
    if (changed) {
      logged_ = dt;
      log_ << "dt        step " << state.step + 1 << ", t = " << state.time << ": dt " << dt
           << " s, " << dt / first_ << " of the first; smallest L/c " << smallest << " s, " << cell
           << "\n";
    }
  }
  return dt;
}

std::string AutoStep::describe(const ControllingCell& cell) const {
  if (cell.region < 0) return "no solid cells";
  if (*cell.mode)
    return cat("beam cell ", cell.tag, " (region '",
               printable(system_.mesh().regions[cell.region].name), "', L = ", cell.length,
               " m, c = sqrt(E/rho) = ", cell.wave_speed, " m/s, its ", cell.mode, " mode)");
  return cat("cell ", cell.tag, " (region '", printable(system_.mesh().regions[cell.region].name),
             "', L = ", cell.length, " m, c = ", cell.wave_speed, " m/s)");
}

void AutoStep::save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) {
  (void)vectors;
  attributes.strings[calibration_key] = hex_float(calibration_.value_or(1));
  if (run_) attributes.strings[previous_dt_key] = hex_float(run_->state.previous_dt);
}

void AutoStep::after_step(const StepView& step) {
  if (!step.history_row) return;
  const ControllingCell cell = kernel_.controlling(comm_);
  const double row[3] = {dt_, transit_, static_cast<double>(cell.tag)};
  file_.row(step.state.step, step.state.time, row);
}

void AutoStep::finish() {
  if (steps_ == 0) return;
  std::string line =
      cat("dt        auto: ", steps_, " steps, dt from ", first_, " s, at most ", largest_, " s");
  if (std::isfinite(smallest_))
    line += cat(", smallest ", smallest_, " s (", smallest_ / first_, " of the first) at step ",
                smallest_step_, ", t = ", smallest_time_,
                " (controlling near there: ", smallest_cell_, ")");
  log_ << line << "\n";
}

}  // namespace inertia
