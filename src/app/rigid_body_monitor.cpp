#include "inertia/app/rigid_body_monitor.hpp"

#include <cmath>

#include "inertia/app/case_file.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

namespace {

std::string attribute(const RigidBodyTerm& b, std::size_t i) {
  return cat("rigid_body.", b.name(), ".", i);
}

}  // namespace

RigidBodyMonitor::RigidBodyMonitor(const MechanicalSystem& system) : system_(system) {}

void RigidBodyMonitor::declare_attributes(io::CheckpointAttributes& read) {
  for (const RigidBodyTerm* b : system_.rigid_bodies())
    for (std::size_t i = 0; i < RigidBody::state_size; ++i) read.reals[attribute(*b, i)] = 0;
}

void RigidBodyMonitor::restore(const io::CheckpointAttributes& read) {
  for (RigidBodyTerm* b : system_.rigid_bodies()) {
    std::vector<double> values(RigidBody::state_size);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = read.reals.at(attribute(*b, i));
    b->body().load(values);
  }
}

void RigidBodyMonitor::save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) {
  (void)vectors;
  for (const RigidBodyTerm* b : system_.rigid_bodies()) {
    const std::vector<double> values = b->body().save();
    for (std::size_t i = 0; i < values.size(); ++i) attributes.reals[attribute(*b, i)] = values[i];
  }
}

void RigidBodyMonitor::start(const RunContext& run) {
  std::vector<std::string> columns;
  for (const RigidBodyTerm* b : system_.rigid_bodies()) {
    const RigidMassProperties& p = b->body().properties();
    const Mat3& J = p.inertia;
    run.log << "rigid     body '" << b->name() << "': mass " << p.mass << " kg, centre ["
            << p.center[0] << ", " << p.center[1] << ", " << p.center[2]
            << "] m, inertia about it [" << J[0] << ", " << J[4] << ", " << J[8] << "; " << J[1]
            << ", " << J[5] << ", " << J[2] << "] kg m^2 (xx yy zz; xy xz yz)\n";
    for (const char* c : {".ux", ".uy", ".uz", ".rx", ".ry", ".rz", ".vx",     ".vy", ".vz",
                          ".wx", ".wy", ".wz", ".fx", ".fy", ".fz", ".mx",     ".my", ".mz",
                          ".px", ".py", ".pz", ".lx", ".ly", ".lz", ".kinetic"})
      columns.push_back(b->name() + c);
  }
  for (const char* c : {"model.px", "model.py", "model.pz"}) columns.push_back(c);
  row_.resize(columns.size());
  file_ =
      CsvFile(run.comm, run.c.output_directory / "rigid_bodies.csv",
              "# per rigid body: its centre's displacement (m), rotation vector (rad), velocity "
              "(m/s), angular velocity (rad/s), the resultant force (N) and moment about the "
              "centre (N m) of every force on its nodes (contact, loads, welded cells; the "
              "reactions of held degrees of freedom), momentum (kg m/s), angular momentum "
              "about the centre (kg m^2/s), kinetic energy (J); the model's momentum M v "
              "(the bodies' included)\n",
              columns, run.resumed ? run.state.step : -1);
  if (!run.resumed) record(run.state);
}

void RigidBodyMonitor::after_step(const StepView& step) {
  if (step.history_row) record(step.state);
}

void RigidBodyMonitor::record(const State& state) {
  std::size_t k = 0;
  for (const RigidBodyTerm* b : system_.rigid_bodies()) {
    const RigidBody& r = b->body();
    const Vec3& c0 = r.properties().center;
    for (int i = 0; i < 3; ++i) row_[k++] = r.center()[i] - c0[i];
    for (const auto& v : {r.rotation_vector(), r.velocity(), r.angular_velocity(), r.force(),
                          r.moment(), r.momentum(), r.angular_momentum()})
      for (const double x : v) row_[k++] = x;
    row_[k++] = r.kinetic_energy();
  }
  for (const double x : system_.momentum(state.v)) row_[k++] = x;
  file_.row(state.step, state.time, row_);
}

}  // namespace inertia
