#pragma once
/// \file stable_step.hpp
/// The solid cells' wave transit times L / c at the current configuration X + u: what an
/// explicit run's dt: auto follows as the mesh deforms (app/auto_step.hpp). L is the cell's
/// characteristic length (LS-DYNA's): hex8 volume / largest face area; tet4 (and tet10's corner
/// tetrahedron) its smallest altitude, 3 volume / largest face area; other cells the shortest
/// distance between two corners. c = sqrt((lambda + 2 mu) / rho) is the region material's
/// dilatational wave speed. Each cell's value depends only on its own nodes' coordinates and
/// displacements, so the minimum over ranks is the same bits on every rank count.

#include <mpi.h>
#include <petscvec.h>

#include <cstdint>
#include <span>
#include <vector>

#include "inertia/mesh/cell_type.hpp"
#include "inertia/partition/local_mesh.hpp"

namespace inertia {

/// Serial. The characteristic length of a cell of `type` from its corners' coordinates
/// (3 per node, in the cell's node order; only the corners are read).
double characteristic_length(CellType type, std::span<const double> x);

/// Serial. The volume of a hex8 (trilinear, exact) or of a tet4/tet10's corner tetrahedron
/// (signed: negative when inverted); 0 for other cells.
double cell_volume(CellType type, std::span<const double> x);

/// The cell with the smallest transit time, the same on every rank (ties: the smallest tag).
struct ControllingCell {
  double time = 0;        ///< L / c (s); infinite without solid cells
  std::int64_t tag = -1;  ///< file tag
  int region = -1;        ///< index into LocalMesh::regions
  double length = 0;      ///< L (m)
  double wave_speed = 0;  ///< c (m/s)
};

class StableStepKernel {
 public:
  /// `wave_speed[r]`: region r's dilatational wave speed, 0 where it has no solid material;
  /// `cell_scale[k]` (empty: 1): local cell k's transit time multiplied by it (mass scaling:
  /// sqrt(scaled density / density)).
  StableStepKernel(const LocalMesh& mesh, std::vector<double> wave_speed,
                   std::vector<double> cell_scale = {});

  /// Local cell k's corners at X + u (u: the ghosted local entries, null: X), 3 per corner;
  /// valid until the next call.
  std::span<const double> corners(std::int64_t k, const PetscScalar* u) const;

  /// Collective (a ghost update of u). Every local cell's transit time L / c at X + u, infinite
  /// for cells without a solid material; u is the system's ghosted displacement (null: X).
  void transit_times(Vec u, std::vector<double>& out) const;
  /// Collective. The smallest of transit_times() over all ranks.
  double smallest(MPI_Comm comm, Vec u);
  /// Collective. The cell of the last smallest() (its times kept), with its L and c.
  ControllingCell controlling(MPI_Comm comm) const;
  /// Per local cell, 1 for a cell left out (an eroded one); empty: none. Read at every
  /// transit_times(), so it must outlive the kernel (the system's eroded_cells()).
  void skip(const std::vector<std::uint8_t>* cells) { skip_ = cells; }

 private:
  const LocalMesh& mesh_;
  std::vector<double> wave_speed_;
  std::vector<double> cell_scale_;
  const std::vector<std::uint8_t>* skip_ = nullptr;
  std::vector<double> times_;
  double last_ = 0;
  mutable std::vector<double> corners_;
};

}  // namespace inertia
