// Harmonic response by modal superposition.

#include "inertia/app/harmonic_analysis.hpp"

#include <cmath>
#include <numbers>

#include "inertia/core/error.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// q_n / (phi_n . F) at Omega (rad/s).
std::complex<double> modal_factor(const CaseFile& c, double omega_n, double omega) {
  const auto& h = c.harmonic;
  const std::complex<double> den(
      omega_n * omega_n - omega * omega,
      omega_n * omega_n * h.structural_damping + 2 * h.damping * omega_n * omega);
  return 1.0 / den;
}

}  // namespace

HarmonicResult harmonic_analysis(const CaseFile& c, const ProblemSpec& spec,
                                 MechanicalSystem& system, const ModalResult& modes,
                                 const ProbeSites& probes) {
  HarmonicResult result;
  result.frequencies = c.harmonic.frequencies;
  // The amplitudes the case names, by their index in ProblemSpec::amplitudes.
  std::vector<const CaseAmplitude*> named(spec.amplitudes.size(), nullptr);
  std::vector<std::string> names(spec.amplitudes.size());
  for (const auto& [name, index] : spec.amplitude_index)
    if (index >= 0 && static_cast<std::size_t>(index) < named.size()) {
      named[static_cast<std::size_t>(index)] = &c.amplitudes.at(name);
      names[static_cast<std::size_t>(index)] = name;
    }
  const auto& loads = system.load_vectors();
  if (loads.empty())
    throw InputError(cat(c.path.string(), ":", c.harmonic.origin.line,
                         ": harmonic: the case has no loads (force, traction, pressure, gravity) "
                         "to drive it"));
  const std::size_t n = modes.modes.size();
  result.modal_forces.assign(n, {0.0, 0.0});
  for (const auto& [amplitude, vector] : loads) {
    double phase = 0;
    const CaseAmplitude* a = amplitude >= 0 && static_cast<std::size_t>(amplitude) < named.size()
                                 ? named[static_cast<std::size_t>(amplitude)]
                                 : nullptr;
    if (a) {
      if (a->type != CaseAmplitude::Type::sine)
        throw InputError(cat(c.path.string(), ":", c.harmonic.origin.line,
                             ": harmonic: a load's amplitude '",
                             names[static_cast<std::size_t>(amplitude)],
                             "' is not a sine: a harmonic load has a sine amplitude (its phase) or "
                             "none (phase 0)"));
      phase = a->phase;
    }
    result.phases.push_back(phase);
    const std::complex<double> rotation(std::cos(phase), std::sin(phase));
    for (std::size_t i = 0; i < n; ++i) {
      PetscScalar dot = 0;
      INERTIA_PETSC(VecDot(modes.shapes[i], vector, &dot));
      result.modal_forces[i] += dot * rotation;
    }
  }
  // The mode shapes at the probes' nodes: at_probes[(3 p + k) n + i].
  const std::size_t np = probes.owned_dof.size();
  std::vector<double> at_probes(np * 3 * n, 0.0), values;
  for (std::size_t i = 0; i < n; ++i) {
    values_at_sites(system.comm(), probes, modes.shapes[i], values);
    for (std::size_t e = 0; e < 3 * np; ++e) at_probes[e * n + i] = values[e];
  }
  result.probe_values.assign(result.frequencies.size() * np * 3, {0.0, 0.0});
  std::vector<std::complex<double>> q(n);
  for (std::size_t f = 0; f < result.frequencies.size(); ++f) {
    const double omega = 2 * std::numbers::pi * result.frequencies[f];
    for (std::size_t i = 0; i < n; ++i)
      q[i] = result.modal_forces[i] * modal_factor(c, modes.modes[i].omega, omega);
    for (std::size_t e = 0; e < np * 3; ++e) {
      std::complex<double> u(0.0, 0.0);
      for (std::size_t i = 0; i < n; ++i) u += at_probes[e * n + i] * q[i];
      result.probe_values[f * np * 3 + e] = u;
    }
  }
  return result;
}

void harmonic_field(const CaseFile& c, const ModalResult& modes,
                    const std::vector<std::complex<double>>& modal_forces, double frequency,
                    Vec real, Vec imag) {
  INERTIA_PETSC(VecZeroEntries(real));
  INERTIA_PETSC(VecZeroEntries(imag));
  const double omega = 2 * std::numbers::pi * frequency;
  for (std::size_t i = 0; i < modes.modes.size(); ++i) {
    const std::complex<double> q = modal_forces[i] * modal_factor(c, modes.modes[i].omega, omega);
    INERTIA_PETSC(VecAXPY(real, q.real(), modes.shapes[i]));
    INERTIA_PETSC(VecAXPY(imag, q.imag(), modes.shapes[i]));
  }
}

}  // namespace inertia
