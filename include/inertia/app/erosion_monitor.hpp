#pragma once
/// \file erosion_monitor.hpp
/// Element erosion's outputs (system/erosion.hpp): erosion.csv, a row per history step with the
/// cells eroded so far and what they carried away when they eroded (mass, kinetic and strain
/// energy, momentum) next to the model's momentum M v (lumped masses): their sum stays what the
/// loads and supports made it; a log line at each step where cells eroded (the first few such
/// steps; the output field `state` shows every one); the totals on the "finished:" line.

#include <array>

#include "inertia/app/histories.hpp"
#include "inertia/app/monitor.hpp"
#include "inertia/system/erosion.hpp"

namespace inertia {

class ErosionMonitor final : public Monitor {
 public:
  /// Steps whose erosions get a log line of their own.
  static constexpr int logged_steps = 20;

  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }
  void summary(std::ostream& line) const override;

 private:
  void write(const State& state, const ErodedTotals& e);

  const RunContext* run_ = nullptr;
  CsvFile file_;
  ErodedTotals totals_;
  int steps_logged_ = 0;
};

}  // namespace inertia
