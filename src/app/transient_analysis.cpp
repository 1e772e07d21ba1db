#include "inertia/app/transient_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/app/auto_step.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/conditions_report.hpp"
#include "inertia/app/erosion_monitor.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/app/rigid_body_monitor.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/mechanical_system.hpp"
#include "inertia/time/newton.hpp"
#include "inertia/time/static.hpp"

namespace inertia {

TransientAnalysis::TransientAnalysis(const AnalysisContext& context, TransientInputs inputs,
                                     MonitorList& monitors, bool restarting)
    : AnalysisPart(context),
      plan_inputs_(std::move(inputs.plan_inputs)),
      plan_(std::move(inputs.step.plan)),
      frequency_(inputs.step.frequency),
      model_size_(inputs.model_size),
      probe_sites_(std::move(inputs.probes)),
      restarting_(restarting),
      monitors_(monitors) {}

void TransientAnalysis::initialize(const State* from) {
  log_ << "output    " << printable(c().output_directory.string()) << "\n";
  bool probes_state = false;
  for (const auto& p : c().probes)
    probes_state = probes_state || std::ranges::count(p.fields, std::string("state")) > 0;
  if ((c().has_field("state") || c().has_field("nodal_state") || probes_state) &&
      system().point_states().empty())
    log_ << "warning   output: 'state'/'nodal_state' asked for, but no force term of this case "
            "has history variables: nothing is written for it\n";
  else
    for (const PointState* s : system().point_states())
      log_ << "state     " << s->layout().name << ": " << s->layout().components.size()
           << " components at up to " << s->layout().points << " points per cell\n";
  state_.u = system().create_vector();
  state_.v = system().create_vector();
  if (from) {  // the state the analysis before left, at this one's start
    INERTIA_PETSC(VecCopy(from->u, state_.u));
    INERTIA_PETSC(VecCopy(from->v, state_.v));
  } else {
    set_initial_state(system(), state_.u, state_.v);
  }
  state_.time = plan_.start_time;
  if (c().static_equilibrium) start_from_equilibrium();
  integrator_ = c().scheme.create();
  Phases::Scope scope(phases_, "solver setup");
  stats_ = integrator_->initialize(system(), state_);
  linear_its_ = stats_.linear_iterations;
  build_monitors();
}

void TransientAnalysis::start_from_equilibrium() {
  Phases::Scope scope(phases_, "solver setup");
  EquilibriumWork work;
  const StepStats s = solve_equilibrium(system(), state_.time, state_.u, work);
  system().commit_step(state_.u);  // the plastic state of the preload is the start's
  log_ << "initial   static equilibrium under the loads at t = " << state_.time << ": "
       << s.linear_iterations << " linear iterations";
  if (s.nonlinear_iterations > 0) log_ << ", " << s.nonlinear_iterations << " Newton iterations";
  // The largest translation of the model (a beam's or shell's rotation nodes hold radians).
  double largest = 0;
  {
    const petsc::ConstArray u(state_.u);
    const LocalMesh& mesh = system().mesh();
    for (std::int32_t n = 0; n < mesh.num_owned; ++n)
      if (!mesh.is_rotation(n))
        for (int i = 0; i < 3; ++i)
          largest = std::max(largest, std::abs(u[static_cast<PetscInt>(3 * n + i)]));
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, comm_));
  log_ << "; largest displacement " << largest
       << " m (the transient starts there, the loads held as their amplitudes say)\n";
}

void TransientAnalysis::build_monitors() {
  const std::filesystem::path& out = c().output_directory;
  EnergyMonitor* energy = nullptr;
  if (c().energy) energy = add<EnergyMonitor>(system(), *integrator_, out / "energy.csv");
  BlowUpMonitor* blow_up = add<BlowUpMonitor>(model_size_, frequency_.power, energy);
  if (!c().probes.empty()) add<ProbesMonitor>(std::move(probe_sites_), out / "probes.csv");
  if (!c().sections.empty()) add<SectionsMonitor>(out / "sections.csv");
  if (!c().drifts.empty()) add<DriftsMonitor>(out / "drifts.csv");
  ReactionsMonitor* reactions = nullptr;
  {  // the regions of fixed, displacement and acceleration conditions
    std::vector<std::string> regions;
    for (const auto& bc : c().boundary_conditions)
      if (bc.type->prescribes_motion) regions.push_back(bc.region);
    if ((c().reactions || c().has_field("reaction")) && !regions.empty())
      reactions = add<ReactionsMonitor>(std::move(regions), c().has_field("reaction"));
  }
  {
    std::vector<const ContactTerm*> walls;
    for (const auto& t : system().terms())
      if (const auto* w = dynamic_cast<const ContactTerm*>(t.get())) walls.push_back(w);
    if (!walls.empty()) add<ContactMonitor>(system(), std::move(walls), out / "contact.csv");
  }
  if (plan_.varying_dt)
    auto_step_ = add<AutoStep>(
        comm_, log_, system(), c(), plan_.auto_rounded, plan_.stability_limit,
        plan_inputs_.mass_scaling_calibration,
        plan_inputs_.mass_scaling_cells ? *plan_inputs_.mass_scaling_cells : std::vector<double>{});
  if (plan_.schedule.frames()) add<SeriesMonitor>(reactions);
  if (c().checkpoint_every > 0 || restarting_) {
    checkpoints_ =
        add<CheckpointMonitor>(comm_, c(), plan_, system(), state_, *integrator_, monitors_);
    checkpoints_->set_watch(blow_up);
    blow_up->set_checkpoints(checkpoints_);
  }
  if (system().has_erosion()) add<ErosionMonitor>();
  if (system().has_rigid_bodies()) add<RigidBodyMonitor>(system());
  add<ProgressMonitor>(energy, monitors_);
  for (const auto& m : monitors_) {
    (m->in_step() ? step_monitors_ : output_monitors_).push_back(m.get());
    wants_removed_kinetic_ = wants_removed_kinetic_ || m->wants_removed_kinetic();
  }
}

void TransientAnalysis::restore_checkpoint(const std::filesystem::path& from,
                                           bool allow_changed_model) {
  Phases::Scope scope(phases_, "checkpoint");
  const auto [a, file] = checkpoints_->restore_from(from, allow_changed_model, log_);
  system().restore_erosion();  // the eroded cells leave the restored model's masses
  // The checkpoint's dt, whatever this rank count's estimate (dt: auto) or a changed end_time
  // would give: the steps repeat exactly, and the step count comes from end_time and that dt
  // (plan_run()).
  const bool modal_damping = !c().rayleigh_modes.empty();
  plan_inputs_.restart =
      PlanRestart{a.integers.at("step"), a.reals.at("time"), a.reals.at("dt"), std::nullopt};
  if (modal_damping)
    plan_inputs_.restart->rayleigh =
        RayleighDamping{a.reals.at("rayleigh.mass"), a.reals.at("rayleigh.stiffness")};
  plan_ = plan_run(c(), plan_inputs_);
  if (modal_damping) system().set_rayleigh(plan_.rayleigh.coefficients);
  state_.time = plan_.start_time;
  state_.step = plan_.first_step;
  if (const auto it = a.optional_strings.find(AutoStep::previous_dt_key);
      it != a.optional_strings.end())
    state_.previous_dt = parse_hex_float(it->second).value_or(0);
  for (const auto& m : monitors_) m->restore(a);
  resumed_ = true;
  const std::int64_t steps = plan_.steps;
  const double case_dt = plan_.case_dt;
  const double t_end = plan_.end();
  log_ << "restart   from " << file.string() << ": step " << state_.step << ", t = " << state_.time
       << "; continuing to step " << steps << ", t = " << t_end << ", with the checkpoint's dt "
       << plan_.dt << " s";
  if (std::abs(case_dt - plan_.dt) > 1e-12 * plan_.dt)
    log_ << " (this case alone would step " << case_dt << " s)";
  if (const double span = plan_.duration();
      c().steps == 0 && std::abs(span - c().end_time) > 1e-9 * c().end_time)
    log_ << "; end_time " << c().start_time + c().end_time
         << " s is not a whole number of its steps: the run ends " << span - c().end_time
         << " s past it";
  log_ << "\n";
}

void TransientAnalysis::open_outputs() {
  // Room for the INCOMPLETE marks, should the disk fill (released by mark_failed()).
  int rank = 0;
  INERTIA_MPI(MPI_Comm_rank(comm_, &rank));
  if (rank == 0) reserve_.emplace(c().output_directory / ".inertia-reserve", 16 << 10);
  context_.emplace(
      RunContext{comm_, log_, c(), plan_, system(), *integrator_, state_, phases_, resumed_});
  for (const auto& m : monitors_) m->start(*context_);
  if (const double every = plan_.schedule.history_interval; every > 0)
    next_history_time_ = (std::floor((state_.time + 1e-9 * plan_.dt) / every) + 1) * every;
}

void TransientAnalysis::flush_monitors() {
  for (const auto& m : monitors_) m->flush();
}

void TransientAnalysis::time_loop() {
  log_ << "\n";
  // An explicit step of a linear model has nothing that can fail and be retried: no snapshots.
  const int halvings = c().scheme.is_explicit() && system().is_linear() ? 0 : c().max_step_halvings;
  StepController steps(halvings,
                       [&](const std::string& what) { log_ << "retry     " << what << "\n"; });
  steps.on_within_step([&](const State& state, double dt) {
    for (Monitor* m : step_monitors_) m->within_step(state, dt);
  });
  loop_start_ = MPI_Wtime();
  first_step_ = state_.step;
  system().set_expected_solves(static_cast<double>(plan_.steps - state_.step));
  if (first_step_ >= plan_.steps)
    log_ << "nothing to do: the checkpoint is at or after the last step\n";
  int signal = 0;
  try {
    while (state_.step < plan_.steps && !signal) {
      activity_ = LoopActivity::step;
      const StepView step = advance(steps, signal);
      for (const auto& note : system().take_solver_notes())  // a warning brings its own tag
        log_ << (note.starts_with("warning   ") ? "" : "solver    ") << note << "\n";
      for (Monitor* m : output_monitors_) {
        activity_ = m->activity();
        m->after_step(step);
      }
    }
    activity_ = LoopActivity::output;
    flush_monitors();
    if (signal) stop(signal);
  } catch (const Interrupted&) {
    throw;
  } catch (const Error& e) {
    // Keep what was written (every listed step is complete) but mark it as a failed run.
    std::string reason = cat(activity(), ": ", e.what());
    if (c().scheme.is_explicit() && !system().is_linear() && !plan_.varying_dt &&
        reason.find("inverted element") != std::string::npos)
      reason +=
          "; an explicit run keeps the dt chosen for the undeformed mesh: cells flattened "
          "by large deformation need a smaller time.dt";
    if (steps.failed_part_way()) record_reached(reason);
    mark_failed(reason);
    if (dynamic_cast<const SolverError*>(&e)) throw SolverError(reason);
    throw;
  }
}

void TransientAnalysis::record_reached(std::string& reason) {
  const std::int64_t step = state_.step;
  try {
    state_.step = step + 1;
    for (Monitor* m : step_monitors_) m->reached(state_);
  } catch (const Error& e) {
    reason += cat("; the rows of t = ", state_.time, " were not recorded: ", e.what());
  }
  state_.step = step;
}

std::string TransientAnalysis::activity() const {
  switch (activity_) {
    case LoopActivity::step:
      return cat("step ", state_.step + 1, " (from t = ", state_.time, ")");
    case LoopActivity::checkpoint:
      return cat("checkpoint of step ", state_.step, ", t = ", state_.time);
    case LoopActivity::check:
      return cat("after step ", state_.step, ", t = ", state_.time);
    case LoopActivity::output:
      break;
  }
  return cat("output of step ", state_.step, ", t = ", state_.time);
}

void TransientAnalysis::mark_failed(const std::string& reason) {
  reserve_.reset();
  for (Monitor* m : output_monitors_) m->mark_failed(reason);
  for (Monitor* m : step_monitors_) m->mark_failed(reason);
}

void TransientAnalysis::stop(int signal) {
  std::string checkpoint = "no checkpoint (output.checkpoint is off)";
  if (checkpoints_) {
    activity_ = LoopActivity::checkpoint;
    checkpoint = checkpoints_->write_for_stop();
  }
  const std::string what =
      interrupted_message(signal, cat("after step ", state_.step, " of ", plan_.steps,
                                      " (t = ", state_.time, "); ", checkpoint));
  mark_failed(what);
  throw Interrupted(signal, what);
}

StepView TransientAnalysis::advance(StepController& steps, int& signal) {
  Phases::Scope scope(phases_, "time loop");
  for (Monitor* m : step_monitors_) m->before_step();
  double dt = plan_.dt;
  if (auto_step_) {
    dt = next_auto_step();
  } else {
    state_.step_end = plan_.time_of(state_.step + 1);  // the scheme's t_{n+1}: n dt, not t_n + dt
  }
  stats_ = steps.advance(system(), *integrator_, state_, dt);
  linear_its_ += stats_.linear_iterations;
  newton_its_ += stats_.nonlinear_iterations;
  state_.time = auto_step_ ? state_.step_end : plan_.time_of(state_.step);
  double removed = 0;  // kinetic energy taken by velocity damping
  if (c().velocity_damping > 0) {
    const double before = wants_removed_kinetic_ ? system().kinetic_energy(state_.v) : 0;
    integrator_->scale_velocity(std::exp(-dt * c().velocity_damping), state_);
    system().apply_constraints(state_.time, nullptr, state_.v, nullptr);
    if (wants_removed_kinetic_) removed = before - system().kinetic_energy(state_.v);
  }
  // One reduction for both: the largest displacement (infinite where u is not finite), for
  // the blow-up watch, and whether a rank received a signal.
  double local[2] = {largest_magnitude(state_.u), static_cast<double>(interrupt_signal())};
  double global[2] = {0, 0};
  INERTIA_MPI(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, comm_));
  const bool row = auto_step_
                       ? plan_.schedule.history_due(state_.step, state_.time, next_history_time_)
                       : plan_.schedule.history_row(state_.step);
  const StepView step{state_,          stats_,    row,         removed,
                      steps.last_dt(), global[0], first_step_, loop_start_};
  for (Monitor* m : step_monitors_) {
    activity_ = m->activity();
    m->after_step(step);
  }
  signal = static_cast<int>(global[1]);
  return step;
}

double TransientAnalysis::next_auto_step() {
  bool last = false;
  const double end = plan_.end();
  const double dt = auto_step_->next(state_, end, last);
  const std::int64_t n = state_.step + 1;
  state_.step_end = last ? end : state_.time + dt;
  // The last step's number: known at the last step, else an estimate at this step's size.
  const double left = std::ceil((end - state_.step_end) / dt);
  plan_.steps = last ? n : n + static_cast<std::int64_t>(std::clamp(left, 1.0, 1e15));
  plan_.schedule.last_step = plan_.steps;
  return dt;
}

void TransientAnalysis::summary() {
  log_ << "\nfinished: " << plan_.steps - first_step_ << " steps, " << linear_its_
       << " linear iterations";
  if (newton_its_) log_ << ", " << newton_its_ << " Newton iterations";
  for (const Monitor* m : step_monitors_) m->summary(log_);
  for (const Monitor* m : output_monitors_) m->summary(log_);
  log_ << "\n";
}

}  // namespace inertia
