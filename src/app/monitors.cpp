#include "inertia/app/monitors.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <numbers>
#include <ostream>
#include <sstream>

#include "inertia/app/auto_step.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/natural_order.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

double largest_magnitude(Vec x) {
  petsc::ConstArray a(x);
  double m = 0, nan_or_inf = 0;  // v * 0 is 0, or NaN for a NaN or an infinity: no branch
  for (const double v : a.span()) {
    m = std::max(m, std::abs(v));
    nan_or_inf += v * 0.0;
  }
  return std::isnan(nan_or_inf) ? HUGE_VAL : m;
}

// ---------------------------------------------------------------------------------------------
// Energy

EnergyMonitor::EnergyMonitor(MechanicalSystem& system, const Integrator& integrator,
                             std::filesystem::path path)
    : path_(std::move(path)) {
  if (EnergyHistory::has_carried(integrator)) carried_ = system.create_vector();
}

void EnergyMonitor::declare(io::NamedVectors& vectors) {
  if (carried_) vectors.push_back({"energy_residual", carried_.get()});
}

void EnergyMonitor::restore(const io::CheckpointAttributes& read) {
  resume_ = EnergyResume{read.integers.at("step"), read.reals.at("energy.external_work"),
                         read.reals.at("energy.dissipation"),
                         read.reals.at("energy.algorithmic_dissipation"),
                         read.reals.at("energy.initial_total")};
}

void EnergyMonitor::start(const RunContext& run) {
  run_ = &run;
  history_ = std::make_unique<EnergyHistory>(run.system, run.state, run.integrator, path_,
                                             resume_ ? &*resume_ : nullptr, carried_.get(),
                                             run.c.velocity_damping > 0);
}

void EnergyMonitor::before_step() { history_->before_step(run_->system, run_->state); }

void EnergyMonitor::within_step(const State& state, double dt) {
  // The balance of a retried step is summed over its parts, each the scheme's own step.
  history_->after_step(run_->system, state, dt, 0, false);
  history_->before_step(run_->system, state);
}

void EnergyMonitor::after_step(const StepView& step) {
  history_->after_step(run_->system, step.state, step.last_dt, step.removed_kinetic,
                       step.history_row);
}

void EnergyMonitor::save(io::CheckpointAttributes& a, io::NamedVectors& vectors) {
  a.reals["energy.external_work"] = history_->external_work();
  a.reals["energy.dissipation"] = history_->dissipation();
  a.reals["energy.algorithmic_dissipation"] = history_->algorithmic_dissipation();
  a.reals["energy.initial_total"] = history_->initial_total();
  if (carried_) {
    // The energy history's carried vector (the alpha schemes' end-point residual).
    INERTIA_PETSC(VecCopy(history_->carried(), carried_));
    vectors.push_back({"energy_residual", carried_.get()});
  }
}

// ---------------------------------------------------------------------------------------------
// Blow-up watch

void BlowUpMonitor::start(const RunContext& run) {
  run_ = &run;
  const BlowUpWatch::Options options{.energy_floor = BlowUpWatch::energy_floor(
                                         run.system.total_mass(), highest_omega_, model_size_),
                                     .allow_growth = run.c.allow_unstable};
  watch_.emplace(model_size_, run.state.step, options);
  double m = largest_magnitude(run.state.u);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MAX, run.comm));
  watch_->after_step(run.state.step, m);  // the state the run starts from
}

void BlowUpMonitor::after_step(const StepView& step) {
  std::optional<BlowUpWatch::Energy> energy;
  if (energy_) {
    EnergyHistory& history = energy_->history();
    if (!step.history_row) history.update_total(run_->system, step.state);  // no product
    energy = BlowUpWatch::Energy{history.balance(), history.in_play()};
  }
  auto verdict = watch_->after_step(step.state.step, step.largest_displacement, energy);
  if (auto warning = watch_->take_warning()) run_->log << "warning   " << *warning << "\n";
  if (verdict)
    throw SolverError(
        cat(*verdict, checkpoints_ ? checkpoints_->set_aside_from(watch_->onset()) : ""));
}

// ---------------------------------------------------------------------------------------------
// Probes and reactions

void ProbesMonitor::start(const RunContext& run) {
  run_ = &run;
  probes_ = std::make_unique<Probes>(run.comm, run.system.assembler(), std::move(sites_), path_,
                                     run.resumed ? run.state.step : -1, run.system.point_states());
  if (!run.resumed) probes_->record(run.state);
}

void ProbesMonitor::after_step(const StepView& step) {
  if (step.history_row) probes_->record(step.state);
}

void SectionsMonitor::start(const RunContext& run) {
  run_ = &run;
  cuts_ = std::make_unique<SectionCuts>(run.system, run.c);
  for (const auto& load : run.system.spec().loads)
    if (load.kind == Load::Kind::gravity) gravity_amplitude_ = load.amplitude;
  std::vector<std::string> columns;
  for (const auto& name : cuts_->names())
    for (const char* q : {"fx", "fy", "fz", "mx", "my", "mz"}) columns.push_back(name + "." + q);
  file_ = CsvFile(run.comm, path_,
                  "# the force and moment on each section's side A (the side its normal points "
                  "to, or its first region) from the rest (or its second region), through the "
                  "cut; moments about the plane's point (or the cut nodes' centroid)\n",
                  columns, run.resumed ? run.state.step : -1);
  for (std::size_t s = 0; s < cuts_->size(); ++s) {
    const auto& p = cuts_->centres()[s];
    run.log << "section   " << cuts_->names()[s] << ": " << cuts_->cut_nodes()[s]
            << " nodes on the cut, moments about (" << p[0] << ", " << p[1] << ", " << p[2]
            << ")\n";
  }
  peak_.assign(columns.size(), 0.0);
  peak_time_.assign(columns.size(), 0.0);
  if (!run.resumed) record(run.state);
}

void SectionsMonitor::record(const State& state) {
  const auto& r = run_->system.rayleigh();
  const double g =
      gravity_amplitude_ < 0
          ? 0.0
          : run_->system.spec().amplitudes[static_cast<std::size_t>(gravity_amplitude_)].value(
                state.time);
  Vec v = state.v;
  if (run_->system.has_ground_motion() && (r.mass != 0 || r.stiffness != 0)) {
    // Rayleigh damping on the velocity relative to the ground, as the reactions have it (K G = 0:
    // the stiffness part is the same either way).
    if (!relative_) relative_ = run_->system.create_vector();
    run_->system.ground_velocity(state.time, relative_);
    INERTIA_PETSC(VecAYPX(relative_, -1.0, state.v));
    v = relative_;
  }
  cuts_->compute(state.u, v, run_->integrator.acceleration(), r.mass, r.stiffness, g, values_);
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (std::abs(values_[i]) > peak_[i])
      peak_[i] = std::abs(values_[i]), peak_time_[i] = state.time;
  file_.row(state.step, state.time, values_);
}

void SectionsMonitor::after_step(const StepView& step) {
  if (step.history_row) record(step.state);
}

void SectionsMonitor::finish() {
  for (std::size_t s = 0; s < cuts_->size(); ++s) {
    std::ostringstream line;  // 6 significant digits, whatever the log's format
    line << "section   " << cuts_->names()[s] << ": largest |f|";
    for (std::size_t j = 0; j < 6; ++j)
      line << (j == 3  ? "; largest |m|"
               : j > 0 ? ","
                       : "")
           << " "
           << "xyz"[j % 3] << " " << peak_[6 * s + j] << " at t = " << peak_time_[6 * s + j];
    line << " (of the history rows)\n";
    run_->log << line.str();
  }
}

void DriftsMonitor::start(const RunContext& run) {
  run_ = &run;
  lines_ = std::make_unique<DriftLines>(run.system, run.c);
  const auto columns = lines_->columns();
  file_ = CsvFile(run.comm, path_,
                  "# storey drifts u(z_i) - u(z_i-1) in x and y at the nodes nearest the levels, "
                  "and their ratios to the storey height\n",
                  columns, run.resumed ? run.state.step : -1);
  peak_.assign(columns.size(), 0.0);
  peak_time_.assign(columns.size(), 0.0);
  if (!run.resumed) record(run.state);
}

void DriftsMonitor::record(const State& state) {
  lines_->compute(state.u, values_);
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (std::abs(values_[i]) > peak_[i])
      peak_[i] = std::abs(values_[i]), peak_time_[i] = state.time;
  file_.row(state.step, state.time, values_);
}

void DriftsMonitor::after_step(const StepView& step) {
  if (step.history_row) record(step.state);
}

void DriftsMonitor::finish() {
  const auto& storeys = lines_->storeys();
  for (std::size_t s = 0; s < storeys.size(); ++s) {
    std::ostringstream line;
    line << "drift     " << storeys[s] << " (height " << lines_->heights()[s]
         << "): largest |ratio| x " << peak_[4 * s + 2] << " at t = " << peak_time_[4 * s + 2]
         << ", y " << peak_[4 * s + 3] << " at t = " << peak_time_[4 * s + 3] << "\n";
    run_->log << line.str();
  }
}

void ReactionsMonitor::start(const RunContext& run) {
  run_ = &run;
  if (!run.integrator.acceleration()) {
    run.log << "warning   no support reactions (reactions.csv, field reaction): "
            << run.c.scheme.name() << " carries no acceleration\n";
    return;
  }
  reactions_ =
      std::make_unique<Reactions>(run.system, regions_, run.c.output_directory / "reactions.csv",
                                  run.resumed ? run.state.step : -1);
  if (want_field_) field_ = run.system.create_vector();
  if (!run.resumed) reactions_->record(run.system, run.state, run.integrator);
}

void ReactionsMonitor::after_step(const StepView& step) {
  if (reactions_ && step.history_row)
    reactions_->record(run_->system, step.state, run_->integrator);
}

Vec ReactionsMonitor::field() {
  if (!field_) return nullptr;
  reactions_->compute(run_->system, run_->state, run_->integrator);
  reactions_->fill(run_->system, field_);
  return field_.get();
}

ContactMonitor::ContactMonitor(const MechanicalSystem& system,
                               std::vector<const ContactTerm*> walls, std::filesystem::path path)
    : walls_(std::move(walls)), path_(std::move(path)) {
  for (const ContactTerm* w : walls_) {
    for (std::string& which : w->states())
      states_.push_back({w, std::move(which), system.create_vector()});
    if (w->body()) system_ = &system;
  }
}

void ContactMonitor::declare(io::NamedVectors& vectors) {
  for (const StateVector& s : states_) vectors.push_back({s.name(), s.v});
}

namespace {

/// A drop weight's checkpoint attributes: contact.<wall>.body.<i>, i < its state's size.
std::string body_attribute(const ContactTerm& w, std::size_t i) {
  return cat("contact.", w.name(), ".body.", i);
}

}  // namespace

void ContactMonitor::declare_attributes(io::CheckpointAttributes& read) {
  for (const ContactTerm* w : walls_)
    for (std::size_t i = 0; i < w->body_state().size(); ++i) read.reals[body_attribute(*w, i)] = 0;
}

void ContactMonitor::restore(const io::CheckpointAttributes& read) {
  for (const ContactTerm* w : walls_) {
    std::vector<double> values = w->body_state();
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = read.reals.at(body_attribute(*w, i));
    if (!values.empty()) w->load_body_state(values);
  }
}

void ContactMonitor::save(io::CheckpointAttributes& attributes, io::NamedVectors& vectors) {
  for (const ContactTerm* w : walls_) {
    const std::vector<double> values = w->body_state();
    for (std::size_t i = 0; i < values.size(); ++i)
      attributes.reals[body_attribute(*w, i)] = values[i];
  }
  for (const StateVector& s : states_) {
    {
      petsc::Array a(s.v);
      s.term->save_state(s.which, a.span());
    }
    vectors.push_back({s.name(), s.v});
  }
}

void ContactMonitor::summary(std::ostream& line) const {
  for (const ContactTerm* w : walls_) {
    if (const std::int64_t n = w->searches(); n >= 0)
      line << ", contact pair '" << w->name() << "' searched " << n
           << (n == 1 ? " time" : " times");
    if (const std::int64_t n = w->augmentations(); n >= 0)
      line << ", '" << w->name() << "' multipliers updated " << n << (n == 1 ? " time" : " times");
  }
}

void ContactMonitor::start(const RunContext& run) {
  if (run.resumed)  // the committed friction forces and multipliers read from the checkpoint
    for (const StateVector& s : states_) {
      petsc::ConstArray a(s.v), u(run.state.u);
      s.term->load_state(s.which, a.span(), u.span(), run.state.time);
    }
  std::vector<std::string> columns;
  for (const ContactTerm* w : walls_) {
    for (const char* c : {".fx", ".fy", ".fz", ".normal", ".active", ".penetration"})
      columns.push_back(w->name() + c);
    if (w->body())
      for (const char* c : {".ux", ".uy", ".uz", ".vx", ".vy", ".vz"})
        columns.push_back(w->name() + c);
  }
  if (system_)
    for (const char* c : {"body.px", "body.py", "body.pz", "total.px", "total.py", "total.pz"})
      columns.push_back(c);
  row_.resize(columns.size());
  file_ = CsvFile(run.comm, path_,
                  "# per rigid wall: the force it exerts on the body (N); per contact pair: the "
                  "force on its first surface; the sum of the normal forces' magnitudes (N), the "
                  "nodes in contact and the deepest penetration (m); per drop weight: its "
                  "translation (m) and velocity (m/s); with drop weights, the momentum of the "
                  "mesh's nodes (M v summed, kg m/s) and with the weights' (total)\n",
                  columns, run.resumed ? run.state.step : -1);
  if (!run.resumed) record(run.state);
}

void ContactMonitor::after_step(const StepView& step) {
  if (step.history_row) record(step.state);
}

void ContactMonitor::record(const State& state) {
  std::size_t k = 0;
  for (const ContactTerm* w : walls_) {
    const ContactTerm::Reading r = w->read(state.u, state.time);
    for (const double f : r.force) row_[k++] = f;
    row_[k++] = r.normal;
    row_[k++] = static_cast<double>(r.active);
    row_[k++] = r.penetration;
    if (const auto b = w->body()) {
      for (const double x : b->displacement) row_[k++] = x;
      for (const double x : b->velocity) row_[k++] = x;
    }
  }
  if (system_) {
    const std::array<double, 3> p = system_->momentum(state.v);
    double total[3] = {p[0], p[1], p[2]};
    for (const ContactTerm* w : walls_)
      if (const auto b = w->body())
        for (int i = 0; i < 3; ++i) total[i] += b->mass * b->velocity[i];
    for (const double x : p) row_[k++] = x;
    for (const double x : total) row_[k++] = x;
  }
  file_.row(state.step, state.time, row_);
}

// ---------------------------------------------------------------------------------------------
// Output series

const char* SeriesMonitor::kind() const {
  return run_->c.output_format == OutputFormat::xdmf ? "XDMF" : "VTK";
}

void SeriesMonitor::start(const RunContext& run) {
  run_ = &run;
  const CaseFile& c = run.c;
  const State& state = run.state;
  series_ = std::make_unique<OutputSeries>(
      run.comm, c, run.system,
      run.resumed ? std::optional<double>(state.time + 0.5 * run.plan.dt) : std::nullopt);
  if (!run.resumed) write_frame();
  // The frames to come: with output.interval, the first step at or after each multiple of the
  // interval; with output.every, every N steps; and the last step always. Logs their count and
  // their size (from the frame just written, or the average of the series so far).
  const OutputSchedule& schedule = run.plan.schedule;
  if (schedule.frame_interval > 0) next_frame_time_ = schedule.first_frame_time(state.time);
  // The steps to come, through the loop's own test (it advances a copy of the next time).
  const std::int64_t frames = schedule.frames_after(state.step, next_frame_time_);
  const double raw = static_cast<double>(series_->raw_bytes_per_frame());
  const bool xdmf = c.output_format == OutputFormat::xdmf;
  run.log << "output    " << frames << " more " << kind() << " frames ("
          << (c.output_interval > 0 ? cat("every ", c.output_interval, " s")
              : run.plan.varying_dt ? cat("about; every ", schedule.frame_interval,
                                          " s = ", c.output_every, " x the first step")
                                    : cat("every ", c.output_every, " steps"))
          << " and the last step), at most " << std::setprecision(3)
          << raw * static_cast<double>(frames) / (1 << 20) << " MiB (" << raw / 1024
          << (xdmf ? " KiB per frame, uncompressed)" : " KiB per frame before compression)")
          << std::setprecision(6) << "\n";
}

void SeriesMonitor::after_step(const StepView& step) {
  const OutputSchedule& s = run_->plan.schedule;
  if (run_->plan.varying_dt ? s.frame_due(step.state.step, step.state.time, next_frame_time_)
                            : s.frame_due(step.state.step, next_frame_time_))
    write_frame();
}

void SeriesMonitor::write_frame() {
  Phases::Scope scope(run_->phases, "output");
  Vec reaction = reactions_ ? reactions_->field() : nullptr;
  series_->write(run_->state, run_->integrator.acceleration(), reaction);
}

void SeriesMonitor::summary(std::ostream& line) const {
  const int frames = series_->frames();
  line << ", " << frames << " " << kind() << " outputs (" << series_->bytes() / 1024 << " KiB, "
       << (frames ? series_->bytes() / 1024 / frames : 0) << " KiB per output) in "
       << printable(series_->series_path().string());
}

// ---------------------------------------------------------------------------------------------
// Checkpoints

CheckpointMonitor::CheckpointMonitor(MPI_Comm comm, const CaseFile& c, const RunPlan& plan,
                                     MechanicalSystem& system, State& state, Integrator& integrator,
                                     const MonitorList& monitors)
    : comm_(comm),
      c_(c),
      plan_(plan),
      state_(state),
      integrator_(integrator),
      monitors_(monitors),
      checkpointer_(comm, system.mesh().natural_ids, system.mesh().num_global_nodes, state.u),
      fingerprint_(model_fingerprint(comm, c, system.mesh())) {
  for (PointState* s : system.point_states()) {
    StateRows& rows = states_.emplace_back();
    rows.state = s;
    std::vector<std::int64_t> tags;
    tags.reserve(s->rows());
    for (const auto cell : s->cells()) tags.push_back(system.mesh().cell_tags[cell]);
    rows.natural = natural_order(comm, tags, rows.global, cat(s->layout().name, ": element"));
  }
}

io::CellArrays CheckpointMonitor::cell_arrays() {
  io::CellArrays arrays;
  std::map<std::string, int> seen;  // two regions' states of one name: "state.plasticity.2"
  for (const StateRows& rows : states_) {
    std::string name = "state." + rows.state->layout().name;
    if (const int n = ++seen[name]; n > 1) name += cat(".", n);
    arrays.push_back(
        {name, rows.state->stride(), rows.global, rows.natural, rows.state->committed_values()});
  }
  return arrays;
}

io::NamedVectors CheckpointMonitor::vectors() {
  io::NamedVectors vectors{{"displacement", state_.u.get()}, {"velocity", state_.v.get()}};
  for (const auto& x : integrator_.internal_state()) vectors.push_back(x);
  for (const auto& x : integrator_.solver_guesses()) vectors.push_back(x);
  return vectors;
}

std::pair<io::CheckpointAttributes, std::filesystem::path> CheckpointMonitor::restore_from(
    const std::filesystem::path& path, bool allow_changed_model, std::ostream& log) {
  io::CheckpointAttributes a;
  a.reals = {{"time", 0.0},
             {"dt", 0.0},
             {"energy.external_work", 0.0},
             {"energy.dissipation", 0.0},
             {"energy.algorithmic_dissipation", 0.0},
             {"energy.initial_total", 0.0}};
  a.integers = {{"step", 0}};
  a.strings = {{"integrator", ""}};
  // Damping solved from modes (time.rayleigh.modes) continues with the coefficients the run
  // started with: the modal analysis repeated here agrees only to round-off at np > 1
  // (MUMPS's parallel factorisation), and the steps must repeat exactly.
  const bool modal_damping = !c_.rayleigh_modes.empty();
  if (modal_damping) a.reals.insert({{"rayleigh.mass", 0.0}, {"rayleigh.stiffness", 0.0}});
  for (const auto& part : fingerprint_) a.optional_strings["model." + part.key] = "";
  a.optional_strings[AutoStep::calibration_key] = "";  // dt: auto following the mesh
  a.optional_strings[AutoStep::previous_dt_key] = "";
  // A checkpoint of another case is refused before its vectors are read.
  auto same_case = [&](const io::CheckpointAttributes& read) {
    const std::string& integrator = read.strings.at("integrator");
    INERTIA_CHECK(integrator == c_.scheme.name(), InputError, "it was written by the ", integrator,
                  " integrator, but ", c_.path.string(), " uses ", c_.scheme.name());
    // The run continues with the checkpoint's dt. A given dt must be the case's: the step it
    // runs, or (end_time given) time.dt shortened to end some end_time exactly, which for a
    // checkpoint at step k of that run lies in (time.dt (k - 1) / k, time.dt].
    const double dt = read.reals.at("dt");
    const double k = static_cast<double>(read.integers.at("step"));
    const bool shortened = c_.steps == 0 && dt <= c_.dt_requested * (1 + 1e-12) &&
                           dt * k > c_.dt_requested * (k - 1) * (1 - 1e-12);
    INERTIA_CHECK(c_.dt_auto || std::abs(plan_.dt - dt) <= 1e-12 * dt || shortened, InputError,
                  "time.dt ", c_.dt_requested, " of ", c_.path.string(),
                  " differs from the checkpoint's ", dt);
    if (modal_damping) {
      // The same targets: the saved coefficients give the case's ratios at the modes.
      const RayleighDamping saved{read.reals.at("rayleigh.mass"),
                                  read.reals.at("rayleigh.stiffness")};
      for (const auto& [ratio, hz] : plan_.rayleigh.targets) {
        const double omega = 2 * std::numbers::pi * hz;
        INERTIA_CHECK(std::abs(saved.ratio(omega) - ratio) <= 1e-8 * std::max(ratio, 1e-3),
                      InputError, "time.rayleigh of ", c_.path.string(), " (damping ratio ", ratio,
                      " at ", hz, " Hz) differs from the checkpoint's (", saved.ratio(omega), ")");
      }
    }
    check_fingerprint(read, allow_changed_model, log);
  };
  io::NamedVectors vectors = this->vectors();
  for (const auto& m : monitors_) m->declare(vectors), m->declare_attributes(a);
  const io::Restored restored = checkpointer_.restore(path, vectors, a, same_case, cell_arrays());
  for (const StateRows& rows : states_) rows.state->restore();  // trial = the restored state
  for (const auto& why : restored.skipped) log << "restart   skipped " << why << "\n";
  steps_.push_back(a.integers["step"]);
  return {a, restored.file};
}

void CheckpointMonitor::check_fingerprint(const io::CheckpointAttributes& read,
                                          bool allow_changed_model, std::ostream& log) const {
  std::vector<std::string> differ;
  bool any = false;
  for (const auto& part : fingerprint_) {
    const std::string& theirs = read.optional_strings.at("model." + part.key);
    any = any || !theirs.empty();
    if (theirs != hex64(part.hash)) differ.push_back(part.what);
  }
  if (differ.empty()) return;
  const std::string what =
      any ? cat("it was written for another model (changed: ",
                join(std::vector<std::string_view>(differ.begin(), differ.end()), "; "), ")")
          : std::string(
                "it has no model fingerprint (written by an older inertia), so "
                "nothing says it belongs to this model");
  if (!allow_changed_model)
    throw InputError(cat(what, " (--allow-changed-model continues from it anyway)"));
  log << "warning   restart: " << what << "; continuing from it (--allow-changed-model)\n";
}

void CheckpointMonitor::start(const RunContext& run) { run_ = &run; }

void CheckpointMonitor::after_step(const StepView& step) {
  if (plan_.schedule.checkpoint_due(step.state.step)) write();
}

void CheckpointMonitor::write() {
  Phases::Scope scope(run_->phases, "checkpoint");
  // Every history row up to this step is on disk before the checkpoint.
  for (const auto& m : monitors_) m->flush();
  io::CheckpointAttributes a;
  a.reals = {{"time", state_.time},
             {"dt", plan_.dt},
             {"energy.external_work", 0.0},
             {"energy.dissipation", 0.0},
             {"energy.algorithmic_dissipation", 0.0},
             {"energy.initial_total", 0.0},
             {"rayleigh.mass", plan_.rayleigh.coefficients.mass},
             {"rayleigh.stiffness", plan_.rayleigh.coefficients.stiffness}};
  a.integers = {{"step", state_.step}};
  a.strings = {{"integrator", std::string(c_.scheme.name())}, {"version", INERTIA_VERSION}};
  for (const auto& part : fingerprint_) a.strings["model." + part.key] = hex64(part.hash);
  io::NamedVectors vectors = this->vectors();
  for (const auto& m : monitors_) m->save(a, vectors);
  // keep: never removes the newest checkpoint of a state the blow-up watch still trusts.
  const auto [file, bytes] =
      checkpointer_.write(c_.checkpoint_directory, state_.step, a, vectors, c_.checkpoint_keep,
                          watch_ ? watch_->last_steady_step() : -1, cell_arrays());
  steps_.push_back(state_.step);
  bytes_ += bytes;
  ++count_;
  last_step_ = state_.step;
}

std::string CheckpointMonitor::write_for_stop() {
  if (c_.checkpoint_every <= 0) return "no checkpoint (output.checkpoint is off)";
  if (last_step_ != state_.step) write();
  return cat("checkpoint of step ", state_.step, " in ", c_.checkpoint_directory.string(),
             " (continue with --restart)");
}

std::string CheckpointMonitor::set_aside_from(std::int64_t onset) {
  if (c_.checkpoint_every <= 0) return std::string();
  const int aside = checkpointer_.set_aside_from(c_.checkpoint_directory, onset);
  // The newest one before the onset that is still there (keep: keeps it; see write()).
  std::int64_t best = -1;
  for (const std::int64_t s : steps_)
    if (s < onset && s > best && rank_of(comm_) == 0 &&
        std::filesystem::exists(c_.checkpoint_directory / io::checkpoint_name(s)))
      best = s;
  INERTIA_MPI(MPI_Bcast(&best, 1, MPI_INT64_T, 0, comm_));
  std::string out;
  if (aside > 0)
    out = cat("; ", aside, aside == 1 ? " checkpoint" : " checkpoints", " from step ", onset,
              " on renamed *.unstable");
  if (best < 0) return cat(out, "; no checkpoint before step ", onset);
  return cat(out, "; the newest checkpoint before step ", onset, ": ",
             (c_.checkpoint_directory / io::checkpoint_name(best)).string());
}

void CheckpointMonitor::summary(std::ostream& line) const {
  if (count_)
    line << ", " << count_ << " checkpoints (" << bytes_ / 1024 / count_ << " KiB each) in "
         << printable(c_.checkpoint_directory.string());
}

// ---------------------------------------------------------------------------------------------
// Progress line and memory

void ProgressMonitor::after_step(const StepView& step) {
  const State& state = step.state;
  const std::int64_t last = run_->plan.steps;
  const std::int64_t done = state.step - step.first_step, todo = last - step.first_step;
  const std::int64_t every = std::max<std::int64_t>(1, todo / 10);
  if (done % every != 0 && state.step != last) return;
  std::ostream& log = run_->log;
  const double wall = MPI_Wtime() - step.loop_start;
  const double left = wall / static_cast<double>(done) * static_cast<double>(last - state.step);
  log << "step " << std::setw(7) << state.step << "/" << last << "  t " << std::setw(11)
      << state.time << "  wall " << std::setw(8) << std::setprecision(3) << wall << " s  left "
      << std::setw(8) << left << " s  ksp its " << step.stats.linear_iterations
      << std::setprecision(6);
  if (!step.stats.nonlinear_reason.empty())
    log << "  newton its " << step.stats.nonlinear_iterations << " (" << step.stats.nonlinear_reason
        << ")";
  if (energy_) {
    EnergyHistory& energy = energy_->history();
    if (!step.history_row) energy.update_total(run_->system, state);  // no row at this step
    // The balance (the change of total since the start) and its size against the largest
    // energy term; beyond 1 % of it the balance does not close, and the line says "error".
    const double balance = energy.balance(), scale = energy.largest_term();
    const double percent = scale > 0 ? 100 * balance / scale : 0.0;
    log << (std::abs(percent) > balance_error_percent ? "  energy balance error "
                                                      : "  energy balance ")
        << std::setprecision(3) << balance;
    if (scale > 0) log << " (" << percent << " %)";
    log << std::setprecision(6);
  }
  log << "\n";
  for (const auto& m : monitors_) m->flush();
}

void report_memory(MPI_Comm comm, std::ostream& log, const std::filesystem::path& directory,
                   std::uint64_t setup_peak_rss) {
  const std::uint64_t mine[2] = {setup_peak_rss, peak_resident_bytes()};
  const int size = size_of(comm);
  std::vector<std::uint64_t> all(rank_of(comm) == 0 ? 2 * static_cast<std::size_t>(size) : 0);
  INERTIA_MPI(MPI_Gather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, comm));
  run_on_root(comm, [&] {
    std::ostringstream csv;
    csv << "rank,setup_peak_rss_bytes,peak_rss_bytes\n";
    int largest[2] = {0, 0};
    double sum = 0;
    for (int r = 0; r < size; ++r) {
      csv << r << "," << all[2 * r] << "," << all[2 * r + 1] << "\n";
      for (int k = 0; k < 2; ++k)
        if (all[2 * r + k] > all[2 * largest[k] + k]) largest[k] = r;
      sum += static_cast<double>(all[2 * r + 1]);
    }
    write_file_atomically(directory / "memory.csv", csv.str());
    const auto mb = [](double bytes) { return cat(std::lround(bytes / 1e6), " MB"); };
    log << "memory    peak resident set: largest rank " << mb(all[2 * largest[1] + 1]) << " (rank "
        << largest[1] << "), all " << size << (size == 1 ? " rank " : " ranks ") << mb(sum)
        << "; after the setup: largest " << mb(all[2 * largest[0]]) << " (rank " << largest[0]
        << "); per rank in memory.csv\n";
  });
}

}  // namespace inertia
