#pragma once
/// \file rigid_body_monitor.hpp
/// Rigid bodies' outputs (system/rigid_bodies.hpp): the log's lines on each body's mass
/// properties; rigid_bodies.csv, a row per history step with each body's motion (the centre's
/// displacement, the rotation vector, velocity, angular velocity), the resultant force and
/// moment on it (contact, loads, the welded cells': held degrees of freedom's reactions
/// included), its momentum, angular momentum and kinetic energy, and the model's momentum M v
/// (the bodies' included: their lumped nodes carry m V); the bodies' states in checkpoints.

#include <vector>

#include "inertia/app/histories.hpp"
#include "inertia/app/monitor.hpp"
#include "inertia/system/rigid_bodies.hpp"

namespace inertia {

class RigidBodyMonitor final : public Monitor {
 public:
  explicit RigidBodyMonitor(const MechanicalSystem& system);
  bool in_step() const override { return true; }
  LoopActivity activity() const override { return LoopActivity::step; }
  void declare_attributes(io::CheckpointAttributes& read) override;
  void restore(const io::CheckpointAttributes& read) override;
  void save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) override;
  void start(const RunContext& run) override;
  void after_step(const StepView& step) override;
  void reached(const State& state) override { record(state); }
  void flush() override { file_.flush(); }
  void mark_failed(const std::string& reason) override { file_.mark_failed(reason); }

 private:
  void record(const State& state);
  const MechanicalSystem& system_;
  std::vector<double> row_;
  CsvFile file_;
};

}  // namespace inertia
