#include "inertia/app/modal_analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/app/output_series.hpp"
#include "inertia/app/phases.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

ModalResult ModalAnalysis::run() {
  ModalResult modes;
  {
    Phases::Scope scope(phases_, "modal analysis");
    log_ << "modal     the " << c().modal_modes << " lowest modes (SLEPc)\n" << std::flush;
    try {
      modes = compute_modes(system(), c().modal_modes, c().modal_reference_point);
    } catch (const InputError& e) {  // the same on every rank: the model cannot have modes
      throw InputError(cat(c().path.string(), ": ", e.what()));
    }
  }
  // time.rayleigh.modes beyond the modes found: an error once they are written.
  std::string unusable;
  const auto found = static_cast<int>(modes.modes.size());
  if (const auto& m = c().rayleigh_modes; !m.empty() && std::max(m[0], m[1]) > found)
    unusable =
        cat(c().path.string(), ": time.rayleigh.modes: mode ", std::max(m[0], m[1]),
            ", but the modal analysis found ", found, " modes",
            modes.free_dofs < modes.asked ? cat(" (the model has ", modes.free_dofs, " free DOFs)")
                                          : std::string(),
            "; modes.csv lists them");
  for (const Mode& m : modes.modes) plan_inputs_.modes.push_back({m.frequency, m.rigid});
  RayleighDamping rayleigh = c().rayleigh;
  if (!c().rayleigh_modes.empty() && unusable.empty()) {
    // time.rayleigh: {damping_ratios, modes}: the targets at those modes' frequencies.
    rayleigh = plan_rayleigh(c(), plan_inputs_.modes).coefficients;
    system().set_rayleigh(rayleigh);
  }
  const bool damped = rayleigh.mass != 0 || rayleigh.stiffness != 0;
  log_ << "modal     " << modes.modes.size() << " modes of K phi = omega^2 M phi ("
       << (c().mass == MassTreatment::lumped ? "lumped" : "consistent")
       << " mass), Krylov-Schur with shift-and-invert at sigma = " << modes.shift << ", "
       << modes.iterations << " iterations; inner solve of K - sigma M: " << modes.solver << "\n";
  log_ << "   mode   frequency (Hz)    omega (rad/s)   eff. mass x     eff. mass y     eff. mass "
          "z     eff. mass rx    eff. mass ry    eff. mass rz"
       << (damped ? "     Rayleigh ratio" : "") << "\n";
  std::array<double, 3> sums{}, rotation_sums{};
  const std::string header =
      "mode,frequency,omega,generalized_mass,participation_x,participation_y,participation_z,"
      "effective_mass_x,effective_mass_y,effective_mass_z,participation_rx,participation_ry,"
      "participation_rz,effective_mass_rx,effective_mass_ry,effective_mass_rz\n";
  std::ostringstream csv;
  csv << std::setprecision(17) << header;
  for (std::size_t i = 0; i < modes.modes.size(); ++i) {
    const Mode& m = modes.modes[i];
    log_ << std::setw(7) << i + 1 << std::setw(17) << std::setprecision(6) << m.frequency
         << std::setw(17) << m.omega;
    for (int d = 0; d < 3; ++d) {
      log_ << std::setw(16) << m.effective_mass[d];
      sums[d] += m.effective_mass[d];
    }
    for (int d = 0; d < 3; ++d) {
      log_ << std::setw(16) << m.effective_mass_rotation[d];
      rotation_sums[d] += m.effective_mass_rotation[d];
    }
    if (damped && !m.rigid) log_ << std::setw(19) << rayleigh.ratio(m.omega);
    if (m.rigid) log_ << "   rigid-body mode (0 Hz)";
    log_ << "\n";
    csv << i + 1 << "," << m.frequency << "," << m.omega << "," << m.generalized_mass;
    for (double x : m.participation) csv << "," << x;
    for (double x : m.effective_mass) csv << "," << x;
    for (double x : m.participation_rotation) csv << "," << x;
    for (double x : m.effective_mass_rotation) csv << "," << x;
    csv << "\n";
  }
  // Against the total mass: the effective masses include the supports' mass coupling (the
  // convention of modal.hpp), so their sum can pass the free DOFs' mass, never the total.
  log_ << "   sum of the effective masses against the total mass (every DOF; all modes together "
          "reach it less the mass that moves with the supports): ";
  for (int d = 0; d < 3; ++d)
    log_ << "xyz"[d] << " " << sums[d] << " of " << modes.total_mass[d] << " ("
         << std::setprecision(3)
         << (modes.total_mass[d] > 0 ? 100 * sums[d] / modes.total_mass[d] : 0.0) << " %)"
         << std::setprecision(6) << (d < 2 ? ", " : "\n");
  const auto& x0 = modes.reference_point;
  log_ << "   sum of the rotational effective masses against the total rotary inertia about the "
       << (c().modal_reference_point ? "reference point" : "centre of mass") << " (" << x0[0]
       << ", " << x0[1] << ", " << x0[2] << "): ";
  for (int d = 0; d < 3; ++d) {
    const double total = modes.total_rotary_inertia[d];
    log_ << "r"
         << "xyz"[d] << " " << rotation_sums[d] << " of " << total << " kg m^2 ("
         << std::setprecision(3) << (total > 0 ? 100 * rotation_sums[d] / total : 0.0) << " %)"
         << std::setprecision(6) << (d < 2 ? ", " : "\n");
  }
  run_on_root(comm_, [&] { write_file_atomically(c().output_directory / "modes.csv", csv.str()); });
  // The mode shapes as a series ParaView steps through.
  OutputSeries series(comm_, c(), system(), std::nullopt, c().name + "_modes");
  for (std::size_t i = 0; i < modes.shapes.size(); ++i)
    series.write_point_field(static_cast<double>(i + 1), "mode_shape", modes.shapes[i]);
  written_ = true;
  log_ << "modal     modes.csv and " << printable(series.series_path().string()) << " written\n";
  if (damped) warn_overdamped_modes(modes, rayleigh);
  if (modes.cluster_completion > 0) {
    const int n = modes.asked, k = modes.cluster_completion;
    log_ << "modal     " << (k == 1 ? "mode " : "modes ") << n + 1
         << (k == 1 ? "" : cat(" to ", n + k)) << " added: mode " << n << "'s frequency "
         << modes.modes[static_cast<std::size_t>(n - 1)].frequency << " Hz is repeated (within "
         << cluster_tolerance << " relative), and a truncation at " << n
         << " modes would keep an arbitrary part of that eigenspace\n";
  }
  if (found < modes.asked) {
    const auto count = [](auto n) { return cat(n, n == 1 ? " mode" : " modes"); };
    log_ << "warning   modal: " << count(modes.asked) << " asked, ";
    if (modes.free_dofs <= modes.asked) log_ << "the model has " << modes.free_dofs << " free DOFs";
    if (found == modes.free_dofs)
      log_ << ": " << count(found) << " computed and written\n";
    else
      log_ << (modes.free_dofs <= modes.asked ? "; " : "") << "SLEPc converged " << found << " in "
           << modes.iterations << " iterations: " << count(found)
           << " written (more with -eps_max_it)\n";
  }
  if (!unusable.empty()) throw InputError(unusable);
  return modes;
}

void ModalAnalysis::warn_overdamped_modes(const ModalResult& modes,
                                          const RayleighDamping& rayleigh) {
  if (c().rayleigh_targets.empty() || !c().rayleigh_modes.empty()) return;
  double target = 0, lowest = INFINITY;
  for (const auto& [zeta, f] : c().rayleigh_targets)
    target = std::max(target, zeta), lowest = std::min(lowest, f);
  for (std::size_t i = 0; i < modes.modes.size(); ++i) {
    const Mode& m = modes.modes[i];
    if (m.rigid || m.frequency >= lowest || !(rayleigh.ratio(m.omega) > 2 * target)) continue;
    log_ << "warning   " << printable(c().path.string()) << ": time.rayleigh: mode " << i + 1
         << " (" << six(m.frequency) << " Hz) gets a damping ratio of "
         << six(rayleigh.ratio(m.omega)) << ", more than twice the largest target (" << six(target)
         << " at " << six(c().rayleigh_targets[0].second) << " and "
         << six(c().rayleigh_targets.back().second)
         << " Hz): put the targets around the modes that respond\n";
    return;
  }
}

}  // namespace inertia
