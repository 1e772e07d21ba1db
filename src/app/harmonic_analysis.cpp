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
  // The mode shapes at the probes' nodes (owned_dof: a local index, on the owner only), summed
  // over the ranks.
  const std::size_t np = probes.owned_dof.size();
  std::vector<double> at_probes(np * 3 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    petsc::ConstArray phi(modes.shapes[i]);
    for (std::size_t p = 0; p < np; ++p)
      if (probes.owned_dof[p] >= 0)
        for (std::size_t k = 0; k < 3; ++k)
          at_probes[(p * 3 + k) * n + i] = phi[probes.owned_dof[p] + static_cast<PetscInt>(k)];
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, at_probes.data(), static_cast<int>(at_probes.size()),
                            MPI_DOUBLE, MPI_SUM, system.comm()));
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
  INERTIA_PETSC(VecGhostUpdateBegin(real, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(real, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateBegin(imag, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(imag, INSERT_VALUES, SCATTER_FORWARD));
}

}  // namespace inertia
