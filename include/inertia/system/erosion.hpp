#pragma once
/// \file erosion.hpp
/// Element erosion: a solid term's cells that meet their material's failure criterion
/// (material/failure.hpp) leave the model. A CellErosion belongs to one solid term (one
/// material region) and holds, per row of the term (one per local cell, in the term's order):
///
/// - the eroded flag the term reads to skip the row in its force, tangent, energy and masses
///   (ForceTerm::erosion(); gone(r));
/// - a PointState "erosion" (one point per cell) with components eroded (0 or 1), damage (the
///   Johnson-Cook sum), damage_plastic_strain (the plastic strain that sum has counted), time (of
///   the erosion) and what the cell carried away when it eroded: its mass, kinetic_energy,
///   strain_energy and momentum_x, _y, _z. The system lists it among the terms' point states,
///   so the output field `state` shows it, checkpoints carry it (keyed by cell tags: any rank
///   count restarts) and probes read it.
///
/// The life cycle (TermSet::erode, after an accepted step's commit): check() lists the rows
/// that meet the criterion at the committed state; if any rank has one, each is booked
/// (erode(): the cell's lumped nodal masses times the nodes' velocities, its stored energy at
/// the configuration) and flagged; the system then rebuilds the lumped masses and the
/// integrator continues from the step's (u, v) with the new masses and forces. The bookkeeping
/// is exact: the model's momentum plus the eroded cells' stays what the forces made it, and
/// their kinetic and strain energy is a column of the energy balance.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "inertia/assembly/assembler.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/system/point_state.hpp"

namespace inertia {

class ForceTerm;
struct TermPoint;

/// What the eroded cells carried away (sums over cells).
struct ErodedTotals {
  double cells = 0, mass = 0, kinetic = 0, strain = 0;
  std::array<double, 3> momentum{};
};

class CellErosion {
 public:
  /// The erosion of a solid term's cells (`cells`: local, the term's rows in order) of material
  /// `material` (which has a failure criterion); `plastic`: the term's J2 state (null for a
  /// model without one).
  CellErosion(const Assembler& assembler, const LocalMesh& mesh, std::vector<std::int64_t> cells,
              const material::SolidMaterial& material, const PointState* plastic);

  const material::FailureCriterion& criterion() const { return *material_.failure; }
  /// Whether row r has eroded (the term skips it).
  bool gone(std::size_t r) const { return flags_[r] != 0; }
  /// Per row: 1 if it has eroded (the batched kernels' mask).
  const std::uint8_t* flags() const { return flags_.data(); }
  std::size_t rows() const { return flags_.size(); }
  /// The rows' local cells.
  std::span<const std::int64_t> cells() const { return cells_; }
  /// The "erosion" point state (output, checkpoints).
  PointState& state() { return *state_; }

  /// The rows not yet eroded that meet the criterion at `at` (the committed state, after the
  /// step's commit); advances the Johnson-Cook damage by the step's plastic strain.
  std::vector<std::size_t> check(const TermPoint& at);
  /// Row r's stored energy at `at`: `term` evaluated with every other row skipped.
  double cell_energy(const ForceTerm& term, const TermPoint& at, std::size_t r);
  /// Row r erodes at time t: its lumped mass, kinetic energy and momentum at the nodes'
  /// velocity v (the local form, ghosts current) and its stored energy `strain` are booked.
  void erode(std::size_t r, double t, std::span<const PetscScalar> v, double strain);
  /// After a restart: the flags from the restored state.
  void restore_flags();
  /// This rank's totals.
  ErodedTotals totals() const;

 private:
  /// Row r's displacement gradient at its centre (9, du_i/dx_j).
  void centre_gradient(std::size_t r, std::span<const PetscScalar> u, double* grad) const;
  /// Writes component k of row r in both the committed and the trial state.
  void set(std::size_t r, int k, double value);

  const Assembler& assembler_;
  const LocalMesh& mesh_;
  std::vector<std::int64_t> cells_;
  material::SolidMaterial material_;
  const PointState* plastic_;
  std::vector<std::uint8_t> flags_;
  std::unique_ptr<PointState> state_;
};

}  // namespace inertia
