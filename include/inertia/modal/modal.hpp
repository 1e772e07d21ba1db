#pragma once
/// \file modal.hpp
/// Modal analysis with SLEPc: the lowest natural frequencies and mode shapes of K phi = omega^2 M
/// phi on the free DOFs (fixed and prescribed components held at zero), by Krylov-Schur with a
/// shift-and-invert spectral transformation. The inner solve is a sparse direct Cholesky
/// factorisation (MUMPS) where MUMPS's estimate says it is the fastest path and fits, CG with
/// GAMG and the rigid-body near-null space otherwise (system/direct_solver.hpp); -eps_* and
/// -st_* options override every choice. An unconstrained or partly constrained body works: the
/// shift is slightly negative, so K - sigma M stays definite and the rigid-body modes come out at
/// ~0 Hz.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

struct Mode {
  double eigenvalue = 0;                   ///< omega^2 (rad^2/s^2)
  double omega = 0;                        ///< rad/s (0 for a rigid-body mode)
  double frequency = 0;                    ///< Hz
  bool rigid = false;                      ///< a rigid-body mode (|omega^2| at round-off level)
  double generalized_mass = 0;             ///< phi.M phi after mass normalisation (1)
  std::array<double, 3> participation{};   ///< Gamma_d = phi.M r_d, r_d the unit translation
  std::array<double, 3> effective_mass{};  ///< Gamma_d^2
  /// Gamma_rd = phi.M r_rd, r_rd the unit rigid rotation about axis d through the reference
  /// point (ModalResult::reference_point; Assembler::unit_rotation)
  std::array<double, 3> participation_rotation{};
  std::array<double, 3> effective_mass_rotation{};  ///< Gamma_rd^2 (kg m^2)
};

/// Frequencies equal to this relative tolerance form one cluster (a repeated eigenvalue: any
/// basis of its eigenspace is as good as another, so a truncation keeps all or none of them).
inline constexpr double cluster_tolerance = 1e-6;

struct ModalResult {
  std::vector<Mode> modes;            ///< ascending frequency
  std::vector<petsc::Vector> shapes;  ///< mass-normalised, zero on the constrained DOFs
  std::array<double, 3> free_mass{};  ///< r_d.M r_d over the free DOFs, per direction
  /// r_d.M r_d over every DOF, per direction: the total (rigid-body) mass, point masses
  /// included. The effective masses (Gamma_d = phi.M r_d with r_d on every DOF, so the supports'
  /// mass coupling is in them) add up over all modes to (M r_d)_f.M_ff^-1 (M r_d)_f: the total
  /// less r_c.(M_cc - M_cf M_ff^-1 M_fc) r_c (c: the constrained DOFs; the mass that moves with
  /// the supports). Never more than this, but more than free_mass with a consistent mass.
  std::array<double, 3> total_mass{};
  /// The point the rotational participations turn about: the model's centre of mass (r_d.M X /
  /// r_d.M r_d over every DOF, point masses included) unless compute_modes was given one.
  std::array<double, 3> reference_point{};
  /// r_rd.M r_rd over every DOF: the total rotary inertia about the axis d through the reference
  /// point (the translations' m |e_d x (x - x0)|^2, the beams' and point masses' rotary
  /// inertia). The rotational effective masses add up to it like the translational ones to
  /// total_mass (less what moves with the supports).
  std::array<double, 3> total_rotary_inertia{};
  std::array<double, 3> free_rotary_inertia{};  ///< r_rd.M r_rd over the free DOFs
  int asked = 0;  ///< the modes asked for (modes.size() may be fewer, or more)
  /// Modes computed beyond those asked because the last one asked for has twins (frequencies
  /// equal to cluster_tolerance): a truncation never splits such a cluster, whose basis is
  /// arbitrary (modes.size() = asked + cluster_completion when SLEPc converged them all).
  int cluster_completion = 0;
  PetscInt free_dofs = 0;   ///< DOFs not constrained: the model's number of modes
  std::string solver;       ///< the inner solve and why, for the log
  double shift = 0;         ///< sigma of the shift-and-invert
  PetscInt iterations = 0;  ///< Krylov-Schur restarts
};

/// Collective. The `count` lowest modes, or as many as SLEPc converged of them: never more than
/// the free DOFs (a model has as many modes), fewer if SLEPc stops before (-eps_max_it); more
/// when the count-th mode's frequency is repeated: the cluster is completed (cluster_completion).
/// Throws InputError if every DOF is constrained, SolverError if SLEPc converged no mode at all.
/// `reference_point`: the point of the rotational participations (the centre of mass without).
ModalResult compute_modes(MechanicalSystem& system, int count,
                          const std::optional<std::array<double, 3>>& reference_point = {});

}  // namespace inertia
