#pragma once
/// \file harmonic_analysis.hpp
/// Harmonic (steady-state) response by modal superposition (README, "Harmonic response"): loads
/// F_j sin(Omega t + phi_j) (a load's `value`; phi_j the `phase` of its `sine` amplitude, 0
/// without one) give u(t) = Im(U e^{i Omega t}) with
///   U = sum_n phi_n q_n,  q_n = (phi_n . F) / (omega_n^2 (1 + i eta) - Omega^2 + 2 i xi omega_n
///   Omega), F = sum_j F_j e^{i phi_j},
/// xi the modal viscous damping ratio, eta the structural (hysteretic) loss factor. Exact for the
/// modes kept: the modes above the sweep contribute their static part only approximately.

#include <complex>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/modal/modal.hpp"

namespace inertia {

struct HarmonicResult {
  std::vector<double> frequencies;  ///< Hz
  /// Per frequency, per probe, per component (x, y, z): U at the probe's node.
  std::vector<std::complex<double>> probe_values;
  std::vector<std::complex<double>> modal_forces;  ///< phi_n . F per mode
  /// Per load: its phase (rad) and the amplitude it came from ("" for none).
  std::vector<double> phases;
};

/// Collective. The load phases (and an InputError for a load whose amplitude is not a sine or
/// none), the modal forces, and the probes' complex displacements over the sweep.
HarmonicResult harmonic_analysis(const CaseFile& c, const ProblemSpec& spec,
                                 MechanicalSystem& system, const ModalResult& modes,
                                 const ProbeSites& probes);

/// Collective. U at `frequency` (Hz) on every DOF: its real and imaginary parts.
void harmonic_field(const CaseFile& c, const ModalResult& modes,
                    const std::vector<std::complex<double>>& modal_forces, double frequency,
                    Vec real, Vec imag);

}  // namespace inertia
