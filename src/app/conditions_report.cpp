#include "inertia/app/conditions_report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/app/run_plan.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/partition/connected_parts.hpp"
#include "inertia/seismic/record.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

namespace {

/// "table of 2000 points from quake.csv", "smooth step of 3 points", "sine of 2 Hz".
std::string describe_amplitude(const CaseAmplitude& a) {
  switch (a.type) {
    case CaseAmplitude::Type::table:
      return cat("table of ", a.points.size(), a.points.size() == 1 ? " point" : " points",
                 a.file.empty() ? std::string() : cat(" from ", a.file));
    case CaseAmplitude::Type::smooth_step:
      return cat("smooth step of ", a.points.size(), a.points.size() == 1 ? " point" : " points");
    case CaseAmplitude::Type::sine:
      break;
  }
  return cat("sine of ", six(a.frequency), " Hz");
}

/// The initial velocities as the case gives them (initial_conditions, in order), before the
/// constraints.
void set_given_velocity(const MechanicalSystem& system, Vec v) {
  const LocalMesh& lm = system.mesh();
  for (const auto& iv : system.spec().initial_velocity) {
    petsc::Array x(v);
    // A velocity of translation: the rotation nodes of beams keep theirs.
    if (iv.region < 0) {
      for (PetscInt i = 0; i < x.size(); ++i)
        if (!lm.is_rotation(static_cast<std::int32_t>(i / 3))) x[i] = iv.value[i % 3];
    } else {
      for (auto n : lm.region_owned_nodes[iv.region])  // beam nodes: the rotations' rates
        for (int i = 0; i < 3; ++i) x[3 * n + i] = lm.is_rotation(n) ? iv.angular[i] : iv.value[i];
    }
  }
}

/// The conditions and the initial state in the log, part by part (describe_conditions()).
class ConditionsReport : AnalysisPart {
 public:
  ConditionsReport(const AnalysisContext& context, const RunPlan& plan)
      : AnalysisPart(context), plan_(plan) {}

  /// The boundary conditions and the initial state as the run will apply them (after the case
  /// summary, once dt is known), then the warnings about the amplitudes. Collective.
  void describe() {
    log_amplitude_files();
    echo_conditions();
    log_initial_state();
    warn_fast_amplitudes();
    warn_amplitude_spans();
  }

  /// One line per amplitude read from a file: rows, time span, what was skipped.
  void log_amplitude_files() {
    for (const auto& [name, a] : c().amplitudes) {
      if (!a.file.empty()) {
        const auto format = a.read.format;
        log_ << "amplitude " << name << ": " << printable(a.file);
        if (format == RecordFormat::peer) log_ << " (PEER AT2: " << a.read.title << ")";
        if (format == RecordFormat::single) log_ << " (single column)";
        log_ << ", " << a.read.rows;
        if (format == RecordFormat::table)
          log_ << (a.read.rows == 1 ? " row" : " rows");
        else
          log_ << (a.read.rows == 1 ? " value" : " values") << " at dt = " << six(a.read.dt)
               << " s";
        log_ << ", t = " << six(a.points.front().first) << " to " << six(a.points.back().first)
             << " s";
        if (a.read.byte_order_mark) log_ << "; a UTF-8 byte-order mark skipped";
        if (a.read.header_line > 0)
          log_ << "; line " << a.read.header_line << " skipped as a header: '" << a.read.header
               << "'";
        log_ << "\n";
      }
      if (!a.units.empty() || a.scale != 1) {
        log_ << "amplitude " << name << ": values";
        if (!a.units.empty())
          log_ << " in " << a.units << " x " << six(*units_factor(a.units)) << " (to m/s^2)";
        if (a.scale != 1) log_ << " x " << six(a.scale) << " (scale)";
        log_ << "\n";
      }
      if (!a.baseline.method.empty()) {
        const auto& b = a.baseline;
        log_ << "amplitude " << name << ": baseline corrected (";
        if (b.method == "polynomial")
          log_ << "polynomial of degree " << b.degree << " fitted to the displacement";
        else
          log_ << "acausal Butterworth high-pass, order " << b.order << " each way, corner "
               << six(b.corner) << " Hz; zero pads of " << six(b.delay)
               << " s at each end: the record is delayed by " << six(b.delay) << " s";
        log_ << ", Boore and Bommer 2005): at t = " << six(a.points.back().first)
             << " s the ground's displacement " << six(b.final_displacement_before) << " -> "
             << six(b.final_displacement_after) << ", velocity " << six(b.final_velocity_before)
             << " -> " << six(b.final_velocity_after) << "; largest change of a value "
             << six(b.peak_correction) << "\n";
      }
      if (!a.units.empty()) {  // an accelerogram: is it one an engineer means?
        const RecordSource source{
            .name = cat("amplitude '", name, "'",
                        a.file.empty() ? "" : cat(" (", printable(a.file), ")")),
            .units = a.units,
            .units_from_file = !a.read.file_units.empty(),
            .units_option = "units:",
            .baseline_option = "baseline:",
            .corrected = !a.baseline.method.empty()};
        for (const auto& w : record_warnings({a.points.begin(), a.points.end()}, a.scale, source))
          log_ << "warning   " << w << "\n";
      }
    }
  }

  /// One line per boundary condition (and gravity): what it does, on which region and components,
  /// value x amplitude, and the peak of its motion or load over the run and when; for a base
  /// acceleration also the ground's velocity and displacement at the end (the drift of a record
  /// that is not baseline-corrected). The unit names assume SI.
  void echo_conditions() {
    ConditionEcho echo;
    echo.t_end = plan_.end();
    echo.ramped = c().scheme.kind() == SchemeKind::static_solve && !c().in_sequence;
    echo.amplitudes = &c().amplitudes;
    const ProblemSpec& spec = system().spec();
    std::size_t dirichlet = 0;  // resolve_problem made one Dirichlet condition per such entry
    for (std::size_t i = 0; i < c().boundary_conditions.size(); ++i) {
      const CaseBoundaryCondition& bc = c().boundary_conditions[i];
      echo.motion = bc.type->prescribes_motion
                        ? &spec.amplitudes.at(spec.dirichlet.at(dirichlet++).amplitude)
                        : nullptr;
      log_ << "condition "
           << (bc.origin.key.empty() ? cat("boundary_conditions[", i, "]") : bc.origin.key) << ": "
           << bc.type->describe(echo, bc) << "\n";
    }
    if (c().gravity) {
      const std::array<bool, 3> all{true, true, true};
      log_ << "condition gravity: " << on_components(*c().gravity, all)
           << echo.times(c().gravity_amplitude)
           << echo.peak(c().gravity_amplitude, norm_on(*c().gravity, all), "m/s^2") << "\n";
    }
  }

  /// Collective. An initial velocity given on constrained DOFs, which the supports override
  /// (fixed: 0; prescribed: the motion's rate): one warning with their count.
  void warn_constrained_initial_velocity(Vec v) {
    if (system().spec().initial_velocity.empty()) return;
    const petsc::Vector given = system().create_vector();
    set_given_velocity(system(), given);
    std::int64_t overridden = 0;
    {
      PetscInt begin = 0, end = 0;  // constrained_dofs() are global
      INERTIA_PETSC(VecGetOwnershipRange(given, &begin, &end));
      petsc::ConstArray a(given), b(v);
      for (const PetscInt g : system().constrained_dofs())
        if (const PetscInt i = g - begin; a[i] != 0 && a[i] != b[i]) ++overridden;
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &overridden, 1, MPI_INT64_T, MPI_SUM, comm_));
    if (overridden > 0)
      log_ << "warning   " << printable(c().path.string())
           << ": initial_conditions.velocity: given on " << overridden
           << " constrained DOFs (fixed or prescribed components), where the "
              "supports win (0 where fixed); give the velocity to the moving region only\n";
  }

  /// What the initial conditions put in: the kinetic energy 1/2 v.M v and the momentum (the
  /// sum of M v per component) of the first state, on the mass matrix the run uses. Collective.
  void log_initial_state() {
    if (c().has_time && c().scheme.kind() == SchemeKind::static_solve) {
      // The prescribed motion's rates at t = 0 would show a kinetic energy a static run never has.
      log_ << "initial   static: no velocities or accelerations (each load step is an "
              "equilibrium)\n";
      return;
    }
    const petsc::Vector u = system().create_vector(), v = system().create_vector();
    set_initial_state(system(), u, v);
    warn_constrained_initial_velocity(v);
    const double kinetic = system().kinetic_energy(v);
    const std::array<double, 3> momentum = system().momentum(v);
    log_ << "initial   kinetic energy " << kinetic << " J, momentum (" << momentum[0] << ", "
         << momentum[1] << ", " << momentum[2] << ") kg m/s"
         << (system().has_rigid_bodies()
                 ? " (without the rigid bodies' initial motion: rigid_bodies.csv's first row)"
                 : "")
         << "\n";
  }

  /// Tables and smooth steps that end before the run does, saying what each use of them does
  /// after (an acceleration stops, loads and displacements hold the last value); and records
  /// (tables of record_points or more) whose span is off the run's duration by more than 10x (times
  /// in ms against a run in s).
  void warn_amplitude_spans() {
    constexpr std::size_t record_points = 10;
    // An analysis of a sequence: against the end of the sequence (a static at an instant has
    // no span to compare).
    const double t_end = c().in_sequence ? c().sequence_end : plan_.end();
    if (!(t_end > 0)) return;
    for (const auto& [name, a] : c().amplitudes) {
      if (a.type == CaseAmplitude::Type::sine) continue;
      const auto [last, last_value] = a.points.back();
      std::string uses;
      auto add = [&](const std::string& use) { uses += (uses.empty() ? "" : "; ") + use; };
      for (const auto& bc : c().boundary_conditions) {
        if (bc.amplitude != name) continue;
        const std::string which =
            cat(bc.type->name, " of condition ", bc.origin.key, " (region ", bc.region, ")");
        if (bc.type->name == "acceleration")
          add(cat("as the ", which, " it is zero after ", six(last),
                  " s (the ground moves on at its final velocity)"));
        else
          add(cat("as the ", which, " it holds its last value ", six(last_value)));
      }
      if (c().gravity && c().gravity_amplitude == name)
        add(cat("as gravity's amplitude it holds its last value ", six(last_value)));
      if (uses.empty()) continue;  // unused: it changes nothing
      const std::string what = cat("amplitude '", name, "' (", describe_amplitude(a), ")");
      if (last < t_end * (1 - 1e-9))
        log_ << "warning   " << what << " ends at t = " << last << " s, before the run's end "
             << t_end << " s: " << uses << "\n";
      // Records only: a ramp and hold of a few points ([0, 0], [0.02, 1], [100, 1]) is no unit
      // mistake, however its span compares.
      if (a.type != CaseAmplitude::Type::table || a.points.size() < record_points) continue;
      const double span = last - a.points.front().first;
      if (span > 10 * t_end)
        log_ << "warning   " << what << " spans " << span << " s, " << std::lround(span / t_end)
             << "x the run's " << t_end << " s, of which the run sees the first "
             << std::setprecision(2) << 100 * t_end / span << " %" << std::setprecision(6)
             << ": are its times in the case's unit of time (ms where the run is in s)?\n";
      else if (10 * span < t_end)
        log_ << "warning   " << what << " spans " << span << " s, 1/" << std::lround(t_end / span)
             << " of the run's " << t_end
             << " s: are its times in the case's unit of time (s where the run is in ms)?\n";
    }
  }

  /// Amplitudes that change within less than a step (a 40 us pulse under a 2 ms step) are only
  /// sampled at the step times: a warning for each, with the time scale and dt.
  void warn_fast_amplitudes() {
    const double t_end = plan_.end();
    for (const auto& [name, a] : c().amplitudes) {
      if (a.type == CaseAmplitude::Type::sine) {
        const double period = 1 / a.frequency;
        if (period < 10 * plan_.dt)
          log_ << "warning   amplitude '" << printable(name) << "': a period of " << period
               << " s is fewer than 10 steps of dt " << plan_.dt
               << " s: the sine is undersampled; use a smaller dt\n";
        continue;
      }
      for (std::size_t i = 0; i + 1 < a.points.size(); ++i) {
        const auto [t0, a0] = a.points[i];
        const auto [t1, a1] = a.points[i + 1];
        // Relative tolerance: a record sampled at 0.01 s has steps of 0.01 s only to round-off
        // (0.07 - 0.06 < 0.01), and a run at dt 0.01 samples every point of it.
        if (t1 - t0 < plan_.dt * (1 - 1e-6) && a1 != a0 && t0 < t_end && t1 > 0) {
          log_ << "warning   amplitude '" << printable(name) << "' changes from " << a0 << " to "
               << a1 << " within " << t1 - t0 << " s (t = " << t0 << " to " << t1
               << "), less than dt " << plan_.dt
               << " s: the steps sample it only at their times; use a smaller dt\n";
          break;
        }
      }
    }
  }

 private:
  const RunPlan& plan_;
};

}  // namespace

void describe_conditions(const AnalysisContext& context, const RunPlan& plan) {
  ConditionsReport(context, plan).describe();
}

void set_initial_state(MechanicalSystem& system, Vec u, Vec v) {
  set_given_velocity(system, v);
  system.apply_constraints(0.0, u, v, nullptr);
}

}  // namespace inertia
