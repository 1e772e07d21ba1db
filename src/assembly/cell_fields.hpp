#pragma once
/// \file cell_fields.hpp
/// The fields of an assembler's solid cells (internal: not part of include/): what
/// Assembler::cell_stress, nodal_average, solid_containing, nearest_solid and point_stress do
/// (assembler.hpp documents them), as functions of the cells they read.

#include <array>
#include <cstdint>
#include <span>

#include "inertia/assembly/assembler.hpp"

namespace inertia::detail {

/// What the cell fields read from an assembler.
struct SolidCells {
  MPI_Comm comm;
  const LocalMesh& mesh;
  const ElementAssignment& elements;
  std::span<const std::int64_t> solids;   ///< local cells with a solid material
  std::span<const PetscInt> ghost_nodes;  ///< global ids of the ghost nodes
};

/// Collective (ghost update of u). Assembler::cell_stress.
void cell_stress(const SolidCells& in, Vec u, CellStress& out);
/// Collective. Assembler::nodal_average of the cell fields.
void nodal_average(const SolidCells& in, const CellStress& cells, NodalStress& out);
/// Collective. Assembler::nodal_average of cell rows.
void nodal_average(const SolidCells& in, std::span<const std::int64_t> cells,
                   std::span<const double> values, int components, NodalCellAverage& out);
/// Serial. Assembler::solid_containing (nearest false: reach unused) and nearest_solid (true).
SolidPoint locate_in_solids(const SolidCells& in, const std::array<double, 3>& p, double reach,
                            bool nearest);
/// Assembler::point_stress.
void point_stress(const SolidCells& in, std::span<const PetscScalar> u_local,
                  const SolidPoint& point, double* strain, double* stress);

}  // namespace inertia::detail
