#pragma once
/// \file response_spectrum_analysis.hpp
/// Response-spectrum analysis (examples/guide/response_spectrum.md): the peak response of a
/// linear model to a ground acceleration given by its spectrum, from the modes of the modal
/// analysis. Mode n in direction d (unit translation r_d, factor f_d):
///   A_n = f_d Gamma_n Sa(T_n), the modal displacement u_n = A_n / omega_n^2 phi_n, and the support
///   reactions R_n = A_n (K phi_n / omega_n^2 - M phi_n) on the constrained DOFs: the equivalent
///   static forces Gamma_n Sa_n M phi_n (M's coupling to the supports included) balanced by the
///   supports, so that the base reaction of each mode is -f_d Gamma_n^2 Sa_n = -M_eff,n Sa_n.
/// With missing_mass, the mass the modes leave out in direction d, f = M r_d - sum_n Gamma_n M
/// phi_n (the supports' own mass included), responds statically at the zero-period acceleration
/// (ZPA: a record's peak ground acceleration, a design table's value at its shortest period):
/// K_ff u = ZPA f_f, reactions K u - ZPA f; that response joins each quantity's modal
/// combination by SRSS (US NRC Regulatory Guide 1.92 rev. 3, the missing-mass method).
/// Each quantity (every component of u, of the reactions, of the cells' stresses; the base
/// reaction) combines over the modes (SRSS, CQC, ABS) and then over the directions (SRSS or
/// 100/30). Combined peaks are not simultaneous: the stress components are combined one by one,
/// and no von Mises stress is formed from them.

#include <array>
#include <string>
#include <vector>

#include "inertia/app/analysis.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/drifts.hpp"
#include "inertia/app/sections.hpp"
#include "inertia/assembly/assembler.hpp"
#include "inertia/modal/modal.hpp"

namespace inertia {

struct RsaModeRow {
  int direction = 0;  ///< 0, 1, 2
  int mode = 0;       ///< 1-based, as in modes.csv
  double period = 0, sa = 0;
  double damping = 0;  ///< the mode's damping ratio (its Sa's and in CQC)
  double participation = 0, effective_mass = 0;
  double displacement_factor = 0;  ///< A_n / omega_n^2: u_n = factor phi_n
  std::array<double, 3> base{};    ///< the mode's base reaction (all supports), signed
};

struct RsaResult {
  std::vector<RsaModeRow> rows;  ///< per direction, per mode
  /// Per direction: the combined base reaction (3 components) by each rule (srss, cqc, abs).
  std::vector<std::array<std::array<double, 3>, 3>> base_by_rule;
  std::array<double, 3> base{};        ///< the case's rules: over the modes, then the directions
  std::vector<double> mass_fraction;   ///< per direction: sum of M_eff over the total mass
  int held_below = 0, held_above = 0;  ///< modes outside a design table's periods (held ends)
  double zpa = 0;                      ///< the zero-period acceleration (missing_mass)
  /// Per direction: the missing mass (total less the modes' effective masses) and its base
  /// reaction (3 components; zero without missing_mass).
  std::vector<double> missing_mass;
  std::vector<std::array<double, 3>> missing_base;
  std::string missing_solver;            ///< the static solve's choice, for the log
  petsc::Vector displacement, reaction;  ///< combined per component (ghosts updated)
  CellStress stress;                     ///< combined per component (von_mises empty)
  /// Per output.sections entry: the combined force and moment on its side A (6 components).
  std::vector<std::array<double, 6>> sections;
  /// Per output.drifts storey: the combined drift and drift ratio in x and y (4 values, the
  /// columns of DriftLines), each combined from the modes' drifts (not from combined
  /// displacements).
  std::vector<double> drifts;
};

/// Collective. The analysis the case's response_spectrum asks for, on `modes` (from
/// compute_modes on `system`). Throws InputError for a nonlinear model or rigid-body modes.
RsaResult response_spectrum_analysis(const CaseFile& c, MechanicalSystem& system,
                                     const ModalResult& modes, const SectionCuts* cuts = nullptr,
                                     const DriftLines* drifts = nullptr);

/// response_spectrum: the combined peaks on the modes just computed, logged per mode and
/// combined, written to rsa_modes.csv, rsa.csv and <case>_rsa.pvd.
/// Collective.
void run_response_spectrum(const AnalysisContext& context, const ModalResult& modes);

}  // namespace inertia
