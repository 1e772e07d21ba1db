#include "inertia/app/time_step_choice.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numbers>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/conditions_report.hpp"
#include "inertia/app/mass_scaling.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/core/limits.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"
#include "inertia/system/force_term.hpp"
#include "inertia/system/mechanical_system.hpp"
#include "inertia/system/stable_step.hpp"

namespace inertia {

namespace {

/// The highest frequency, the plan's dt and the log's lines about them (choose_time_step()).
class TimeStepChoice : AnalysisPart {
 public:
  TimeStepChoice(const AnalysisContext& context, PlanInputs& plan_inputs)
      : AnalysisPart(context), plan_inputs_(plan_inputs) {}

  /// Estimates the highest frequency, sets dt (dt: auto) or checks it against the scheme's
  /// stable step, and logs the scheme.
  TimeStep choose() {
    const Scheme& scheme = c().scheme;
    {
      Phases::Scope scope(phases_, "solver setup");
      // Implicit schemes only log it and choose a solver with it: lumped masses suffice.
      const bool lumped = !scheme.is_explicit();
      auto& known = plan_inputs_.linear_frequency[lumped ? 1 : 0];
      if (!(known && system().is_linear())) {
        frequency_ = estimate_highest_frequency(system(), max_power_iterations, lumped);
        if (system().is_linear()) known = std::make_shared<const FrequencyEstimate>(frequency_);
      } else {
        frequency_ = *known;  // the same operators as the analysis before: the same estimate
      }
    }
    if (c().mass_scaling_dt_min > 0) scale_masses_for_dt_min();
    // Linear models: moderate implicit steps (mass-dominated operators) solve with Jacobi-CG.
    if (system().is_linear()) system().set_highest_frequency(frequency_.power);
    const double omega = frequency_.power;
    log_ << "frequency highest ~" << omega << " rad/s (" << frequency_.iterations
         << " power iterations, last change " << frequency_.last_change << " relative; "
         << (frequency_.bound > 0
                 ? cat("lumped-mass Gershgorin bound ", frequency_.bound, " rad/s)")
                 : std::string("no Gershgorin bound: matrix-free K)"))
         << "\n";
    if (!frequency_.converged)
      log_ << "warning   the power iterations did not settle in " << frequency_.iterations
           << " (the estimate still changed by " << frequency_.last_change
           << " relative, tolerance " << power_iteration_tolerance
           << "): the highest frequency may be underestimated\n";
    plan_inputs_.highest_omega = omega;
    plan_inputs_.nonlinear = !system().is_linear();
    plan_ = plan_run(c(), plan_inputs_);
    const RunPlan& p = plan_;
    log_ << "          stable step of " << p.stable_reference << ": dt <= " << p.stability_limit
         << "/omega = " << p.stable_dt << " s"
         << (scheme.conditionally_stable()
                 ? ""
                 : cat(" (", scheme.name(),
                       scheme.stability_limit() > 0 ? " is unconditionally stable)"
                                                    : " is unstable at any step)"))
         << "\n";
    log_limiting_element();
    log_time_step();
    describe_conditions(context(), plan_);
    log_ << "time      " << scheme.name();
    if (!scheme.options_text().empty()) log_ << " (" << scheme.options_text() << ")";
    log_ << ", dt " << (p.varying_dt ? "auto from " : "") << p.dt << ", "
         << (p.varying_dt ? "about " : "") << p.steps << " steps to t = " << p.end() << ", "
         << (c().mass == MassTreatment::lumped ? "lumped"
             : system().lumped_mass()
                 ? "consistent (diagonal: every term's is its lumped one, no mass solve)"
                 : "consistent")
         << " mass, rayleigh " << p.rayleigh.coefficients.mass << " / "
         << p.rayleigh.coefficients.stiffness;
    if (c().velocity_damping > 0) log_ << ", velocity damping " << c().velocity_damping;
    if (!p.rayleigh.targets.empty()) log_rayleigh_targets();
    if (!system().is_linear())
      log_ << (scheme.newton() ? ", nonlinear: Newton (SNES) every step" : ", nonlinear");
    log_ << "\n";
    warn_close_rayleigh_targets();
    warn_fast_contact(p.dt);
    return {frequency_, plan_};
  }

  /// time.mass_scaling: the unscaled model's stable step decides which cells get mass
  /// (app/mass_scaling.hpp); then the power iterations again, on the scaled masses.
  void scale_masses_for_dt_min() {
    plan_inputs_.highest_omega = frequency_.power;
    const RunPlan unscaled = plan_run(c(), plan_inputs_);
    log_ << "frequency highest ~" << frequency_.power << " rad/s before mass scaling (stable step "
         << unscaled.stable_dt << " s)\n";
    MassScaling m =
        scale_masses(comm_, log_, system(), c(), round_down_to_digits(unscaled.stable_dt, 3),
                     unscaled.stability_limit);
    plan_inputs_.mass_scaling_calibration = m.calibration;
    plan_inputs_.mass_scaling_cells =
        std::make_shared<const std::vector<double>>(std::move(m.cell_scale));
    Phases::Scope scope(phases_, "solver setup");
    frequency_ = estimate_highest_frequency(system(), max_power_iterations, false);
    plan_inputs_.linear_frequency[0].reset();  // the masses changed
  }

  /// How the plan chose dt (dt: auto, a given dt above the stable step, shortened), and the
  /// warnings about it.
  void log_time_step() {
    const RunPlan& p = plan_;
    const Scheme& scheme = c().scheme;
    if (p.varying_dt) {
      log_ << "          dt: auto follows the deforming mesh: recomputed every step from the "
              "cells' L/c at X + u, "
           << c().safety_factor << " x the stable step; the first about " << p.dt << " s (about "
           << p.auto_fit_steps
           << " steps to end_time if it stayed; frames and history rows on "
              "the clock)\n";
    } else if (c().dt_auto) {
      std::string how = cat(c().safety_factor, " x the stable step ", p.auto_rounded,
                            " s rounded down to 3 digits");
      if (c().steps == 0) {
        how += p.dt_source == DtSource::automatic
                   ? cat(", ", p.auto_fit_steps, " steps to end_time")
                   : cat(", then ", p.auto_fit_steps, " steps of end_time/", p.auto_fit_steps,
                         " to end exactly at end_time");
        if (p.auto_fit_steps == 1 && p.auto_unfitted > c().end_time)
          log_ << "warning   dt: auto would be " << p.auto_unfitted << " s, longer than end_time "
               << c().end_time << " s: the run is one step of " << p.dt
               << " s. Check the units (total mass, bounding box and highest frequency above)\n";
      }
      log_ << "          dt: auto = " << p.dt << " s (" << how << ")\n";
    } else if (!p.exceeds_stable.empty()) {
      refuse_unstable_dt(c(), p);
      log_ << "warning   " << p.exceeds_stable << "; running anyway (time.allow_unstable: true)\n";
    }
    if (p.steps > 100'000'000)
      log_ << "warning   the run is " << p.steps << " steps of " << p.dt
           << " s: check the units, a penalty or a material that sets so small a step\n";
    if (scheme.stability_limit() == 0)
      log_ << "warning   " << scheme.name()
           << " grows for an undamped oscillation at any time step; it is here for teaching. "
              "Prefer symplectic_euler, central_difference or rk4 (explicit), or an implicit "
              "scheme\n";
    if (!c().dt_auto && c().steps == 0 && c().dt_requested > c().end_time)
      log_ << "warning   time.dt " << c().dt_requested << " s is longer than end_time "
           << c().end_time << " s: the run is one step of " << p.dt
           << " s. Check the units (total mass, bounding box and highest frequency above)\n";
    else if (p.dt_source == DtSource::given_shortened)
      log_ << "          time.dt " << c().dt_requested << " s does not divide end_time "
           << c().end_time << " s: " << p.steps << " steps of end_time/" << p.steps << " = " << p.dt
           << " s instead, to end exactly at end_time\n";
  }

  /// Collective. Contact pairs catch a node crossing a face only within their catch distance (half
  /// the search margin) of it at an evaluation: bodies closing faster than that per step pass
  /// through each other. The closing speed of the initial velocities (the largest difference
  /// between two of them, or one and rest) against catch distance / dt: a warning per pair.
  void warn_fast_contact(double dt) {
    if (c().scheme.kind() == SchemeKind::static_solve || !(dt > 0)) return;
    std::vector<std::array<double, 3>> v{{0, 0, 0}};
    for (const auto& iv : c().initial_velocity) v.push_back(iv.value);
    double closing = 0;
    for (const auto& a : v)
      for (const auto& b : v)
        closing = std::max(closing, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    for (const auto& t : system().terms()) {
      const auto* contact = dynamic_cast<const ContactTerm*>(t.get());
      if (!contact) continue;
      if (const auto w = contact->step_warning(dt, plan_.end()); !w.empty())
        log_ << "warning   " << w << "\n";
      if (!(contact->catch_distance() > 0)) continue;
      const double limit = contact->catch_distance() / dt;
      if (closing > limit)
        log_ << "warning   contact '" << contact->name()
             << "': the initial velocities close at up to " << six(closing) << " m/s, "
             << six(closing * dt) << " m per step of " << six(dt) << " s, more than the "
             << six(contact->catch_distance())
             << " m within which the pair catches a node crossing a face (half its margin): "
                "above "
             << six(limit)
             << " m/s the bodies pass through each other; reduce dt or "
                "raise the pair's margin\n";
    }
  }

  /// time.rayleigh's damping ratios: the targets, the ratio's minimum and the highest
  /// frequency's (what the stiff modes get), continuing the "time" line.
  void log_rayleigh_targets() {
    const RayleighPlan& r = plan_.rayleigh;
    const RayleighDamping& rayleigh = r.coefficients;
    const auto& t = r.targets;
    auto where = [&](int i) {
      return c().rayleigh_modes.empty()
                 ? cat(t[i].second, " Hz")
                 : cat("mode ", c().rayleigh_modes[i], " (",
                       t[i].second > 0 ? cat(t[i].second, " Hz") : std::string("after modal"), ")");
    };
    log_ << "\nrayleigh  from damping ratios " << t[0].first << " at " << where(0) << " and "
         << t[1].first << " at " << where(1);
    if (t[0].second == 0)
      log_ << ": solved once the modal analysis has run (not with --check)";
    else
      log_ << ": alpha_M " << rayleigh.mass << " 1/s, alpha_K " << rayleigh.stiffness << " s";
    if (rayleigh.mass > 0 && rayleigh.stiffness > 0) {
      const double w_min = std::sqrt(rayleigh.mass / rayleigh.stiffness);
      log_ << "; lowest ratio " << rayleigh.ratio(w_min) << " at " << w_min / (2 * std::numbers::pi)
           << " Hz";
    }
    if (frequency_.power > 0 && t[0].second > 0)
      log_ << "; ratio " << rayleigh.ratio(frequency_.power) << " at the highest frequency ("
           << frequency_.power / (2 * std::numbers::pi) << " Hz)";
  }

  /// time.rayleigh's targets closer than a factor 1.5 in frequency (rayleigh_close_targets()).
  void warn_close_rayleigh_targets() {
    const auto& t = plan_.rayleigh.targets;
    if (t.empty() || t[0].second == 0) return;  // coefficients given, or modes not computed
    const std::string what =
        rayleigh_close_targets(t[0].first, t[0].second, t[1].first, t[1].second,
                               frequency_.power / (2 * std::numbers::pi));
    if (!what.empty()) log_ << "warning   time.rayleigh: " << what << "\n";
  }

  /// The solid element with the shortest wave transit time L / c (L its shortest corner-to-corner
  /// distance, c = sqrt((lambda + 2 mu) / rho) its material's dilatational wave speed), as Abaqus
  /// names the element that limits the stable step: where to look when the step is smaller than
  /// expected (a sliver element, a stiff or light material).
  void log_limiting_element() {
    const LocalMesh& lm = system().mesh();
    std::vector<double> wave_speed(lm.regions.size(), 0.0);
    for (const auto& m : system().spec().materials) {
      const auto& e = m.material;
      wave_speed[m.region] = std::sqrt((e.lambda() + 2 * e.mu()) / e.density);
    }
    struct {
      double time;
      int rank;
    } best{INFINITY, rank_of(comm_)};
    std::int64_t best_cell = -1;
    double best_length = 0;
    const std::vector<BeamStepSection> beams = beam_step_sections(system().spec(), lm);
    BeamCriticalStep best_beam;
    for (std::int64_t k = 0; k < lm.num_cells(); ++k) {
      const int r = lm.cell_regions[k];
      if (!lm.cell_is_element[k] || r < 0 || wave_speed[r] <= 0) continue;
      const auto nodes = lm.nodes_of(k);
      if (lm.cell_types[k] == CellType::beam2 && beams[r].beam) {  // the beam's own step
        const double* x = &lm.coords[3 * nodes[0]];
        const double* y = &lm.coords[3 * nodes[1]];
        const double length = std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
        const BeamStepSection& b = beams[r];
        const BeamCriticalStep step =
            beam_critical_step(length, b.section, b.material, b.shear_deformable);
        if (step.time < best.time) {
          best.time = step.time;
          best_cell = k;
          best_length = length;
          best_beam = step;
        }
        continue;
      }
      const int corners = info(lm.cell_types[k]).num_corners;
      double length = INFINITY;
      for (int a = 0; a < corners; ++a)
        for (int b = a + 1; b < corners; ++b) {
          const double* x = &lm.coords[3 * nodes[a]];
          const double* y = &lm.coords[3 * nodes[b]];
          length = std::min(length, std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
        }
      if (length / wave_speed[r] < best.time) {
        best.time = length / wave_speed[r];
        best_cell = k;
        best_length = length;
        best_beam = {};
      }
    }
    auto global = best;
    INERTIA_MPI(MPI_Allreduce(&best, &global, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm_));
    if (!std::isfinite(global.time)) return;  // no solid elements (springs and masses only)
    std::string line;
    if (global.rank == best.rank) {
      const int r = lm.cell_regions[best_cell];
      std::ostringstream out;
      if (*best_beam.mode)  // a beam: 2 / omega_max of the element, its limiting mode
        out << std::setprecision(4)
            << "          smallest element stable step 2/omega_max = " << best.time
            << " s: beam element " << lm.cell_tags[best_cell] << " (region '"
            << printable(lm.regions[r].name) << "', L = " << best_length
            << ", c = sqrt(E/rho) = " << best_beam.wave_speed << ", lumped mass; its "
            << best_beam.mode << " mode), the element that limits explicit steps";
      else
        out << std::setprecision(4) << "          smallest element transit time L/c = " << best.time
            << " s: element " << lm.cell_tags[best_cell] << " ("
            << info(lm.cell_types[best_cell]).name << ", region '" << printable(lm.regions[r].name)
            << "', L = " << best_length << ", c = " << wave_speed[r]
            << "), the element that limits explicit steps";
      line = out.str();
    }
    line = broadcast_string(comm_, line, global.rank);
    log_ << line << "\n";
  }

 private:
  PlanInputs& plan_inputs_;
  FrequencyEstimate frequency_;
  RunPlan plan_;
};

}  // namespace

TimeStep choose_time_step(const AnalysisContext& context, PlanInputs& plan_inputs) {
  return TimeStepChoice(context, plan_inputs).choose();
}

}  // namespace inertia
