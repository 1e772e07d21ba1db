#pragma once
/// \file harmonic_analysis.hpp
/// Harmonic (steady-state) response (examples/guide/harmonic.md): loads F_j sin(Omega t +
/// phi_j) (a load's `value`; phi_j the `phase` of its `sine` amplitude, 0 without one) give
/// u(t) = Im(U e^{i Omega t}), F = sum_j F_j e^{i phi_j}, with U from
/// - modal superposition: U = sum_n phi_n q_n,
///     q_n = (phi_n . F) / (omega_n^2 (1 + i eta) - Omega^2 + 2 i xi_n omega_n Omega),
///   xi_n the modal viscous ratio plus Rayleigh's alpha_M / (2 omega_n) + alpha_K omega_n / 2,
///   eta the structural (hysteretic) loss factor. Exact for the modes kept; with `residual` the
///   modes left out add their static response (K^-1 F - sum_n phi_n (phi_n . F) / omega_n^2)
///   / (1 + i eta), frequency-independent (one static solve).
/// - the direct solve: (K (1 + i eta) + i Omega C - Omega^2 M) U = F on the free DOFs,
///   C = alpha_M M + alpha_K K + B (B: the springs' dashpots), as the real symmetric block system
///     [ A  D ] [ Re U ]   [ Re F ]
///     [ D -A ] [-Im U ] = [ Im F ],  A = K - Omega^2 M,  D = eta K + Omega C,
///   factored (MUMPS LDL^T) once per frequency. Exact for the discretisation, every DOF.

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "inertia/app/analysis.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/modal/modal.hpp"

namespace inertia {

class HarmonicDirect;

struct HarmonicResult {
  std::vector<double> frequencies;  ///< Hz
  /// Per frequency, per probe, per component (x, y, z): U at the probe's node.
  std::vector<std::complex<double>> probe_values;
  std::vector<std::complex<double>> modal_forces;  ///< phi_n . F per mode (modal)
  std::vector<double> phases;                      ///< per load: its phase (rad)
  std::shared_ptr<HarmonicDirect> direct;          ///< the direct solver (direct)
  /// modal with `residual`: K^-1 F less the kept modes' static parts, real and imaginary (not
  /// yet divided by 1 + i eta), and at the probes.
  petsc::Vector residual_real, residual_imag;
  std::vector<std::complex<double>> residual_at_probes;
  double residual_fraction = 0;      ///< |residual| / |K^-1 F| (largest entries)
  std::string solver;                ///< direct: the solver, for the log
  double seconds_per_frequency = 0;  ///< direct: one factorisation and solve
  /// With base excitation: the ground's rigid motion per unit in x, y, z (1 on the translations,
  /// 0 on the rotations of beam nodes).
  std::array<petsc::Vector, 3> unit_translation;
};

/// Collective. What the harmonic analysis needs of the case, before any solve (also --check):
/// loads or a base acceleration to drive it, loads with a sine amplitude (or none), a support in
/// each component the base moves, no dashpots for the `modal` method. InputError naming the key.
void check_harmonic(const CaseFile& c, const ProblemSpec& spec, MechanicalSystem& system,
                    bool modal);

/// Collective. The load phases (and an InputError for a load whose amplitude is not a sine or
/// none), then the probes' complex displacements over the sweep: by modal superposition on
/// `modes`, or (null `modes`) by the direct solve.
HarmonicResult harmonic_analysis(const CaseFile& c, const ProblemSpec& spec,
                                 MechanicalSystem& system, const ModalResult* modes,
                                 const ProbeSites& probes);

/// Collective. U at `frequency` (Hz) on every DOF: its real and imaginary parts (the owned
/// entries), by the method `r` came from.
void harmonic_field(const CaseFile& c, const ModalResult* modes, const HarmonicResult& r,
                    double frequency, Vec real, Vec imag);

/// harmonic: the steady-state response over the sweep by modal superposition on `modes` (or,
/// null, by the direct solve), at the probes (harmonic.csv, harmonic.svg) and as fields at the
/// chosen frequencies (<case>_harmonic.pvd).
/// Collective.
void run_harmonic(const AnalysisContext& context, const ModalResult* modes);

}  // namespace inertia
