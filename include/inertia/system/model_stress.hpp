#pragma once
/// \file model_stress.hpp
/// The model's stress at a configuration, for what a user reads (frames, nodal averages, probes):
/// the kinematics' strain and the elastic law's stress (Assembler::cell_stress, point_stress),
/// and wherever a force term's point state carries the stress (plasticity: components stress_xx
/// ... stress_xz), the stress of its committed state, the return map's, instead of the elastic
/// law's of the total strain. Every consumer asks this one place (the plastic stress once).

#include <petscvec.h>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "inertia/assembly/assembler.hpp"

namespace inertia {

class PointState;

class ModelStress {
 public:
  /// The terms' point states: the rows whose state carries a stress are found once, per cell.
  ModelStress(const Assembler& assembler, std::span<PointState* const> states);

  /// Collective (ghost update of u). Per local cell: strain, stress and von Mises stress.
  void cells(Vec u, CellStress& out) const;
  /// Serial. At a SolidPoint of this rank, from the local form of u (ghosts up to date): the
  /// strain and the stress (6 each, VTK order); a cell with a stress state gives that state's
  /// (its points' average: the state is kept per quadrature point, not interpolated).
  void at_point(std::span<const PetscScalar> u_local, const SolidPoint& point, double* strain,
                double* stress) const;

 private:
  const Assembler& assembler_;
  /// Per local cell: the point state carrying its stress and its row there (nullptr: none).
  std::vector<std::pair<const PointState*, std::size_t>> stress_row_;
};

}  // namespace inertia
