#include "inertia/app/erosion_monitor.hpp"

#include <ostream>

#include "inertia/app/case_file.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

namespace {

std::string carried(const ErodedTotals& e) {
  return cat("mass ", g3(e.mass), " kg, kinetic energy ", g3(e.kinetic), " J, strain energy ",
             g3(e.strain), " J, momentum (", g3(e.momentum[0]), ", ", g3(e.momentum[1]), ", ",
             g3(e.momentum[2]), ") kg m/s");
}

}  // namespace

void ErosionMonitor::start(const RunContext& run) {
  run_ = &run;
  file_ =
      CsvFile(run.comm, run.c.output_directory / "erosion.csv",
              "# cells eroded so far and what they carried away; momentum: the model's M v\n",
              {"cells", "eroded_mass", "eroded_kinetic", "eroded_strain", "eroded_momentum_x",
               "eroded_momentum_y", "eroded_momentum_z", "momentum_x", "momentum_y", "momentum_z"},
              run.resumed ? run.state.step : -1);
  totals_ = run.system.eroded();
  if (run.resumed && totals_.cells > 0)
    run.log << "erosion   " << static_cast<std::int64_t>(totals_.cells)
            << " cells had eroded at the checkpoint (" << carried(totals_) << ")\n";
  if (!run.resumed) write(run.state, totals_);
}

void ErosionMonitor::write(const State& state, const ErodedTotals& e) {
  const auto p = run_->system.momentum(state.v);
  const double row[10] = {e.cells,       e.mass,        e.kinetic, e.strain, e.momentum[0],
                          e.momentum[1], e.momentum[2], p[0],      p[1],     p[2]};
  file_.row(state.step, state.time, row);
}

void ErosionMonitor::after_step(const StepView& step) {
  const ErodedTotals now = run_->system.eroded();
  if (step.history_row) write(step.state, now);
  if (now.cells == totals_.cells) return;
  const auto fresh = static_cast<std::int64_t>(now.cells - totals_.cells);
  totals_ = now;
  if (steps_logged_ < logged_steps)
    run_->log << "erosion   step " << step.state.step << ", t = " << step.state.time << ": "
              << fresh << " cells eroded, " << static_cast<std::int64_t>(now.cells)
              << " in all, which carried away " << carried(now) << "\n";
  if (++steps_logged_ == logged_steps)
    run_->log << "erosion   (further erosions: erosion.csv, and the output field state's "
                 "erosion.eroded and erosion.time)\n";
}

void ErosionMonitor::summary(std::ostream& line) const {
  line << ", " << static_cast<std::int64_t>(totals_.cells) << " cells eroded (" << carried(totals_)
       << "; erosion.csv)";
}

}  // namespace inertia
