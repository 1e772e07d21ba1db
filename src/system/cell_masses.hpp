#pragma once
/// \file cell_masses.hpp
/// Internal to src/system: the mass of a term's cells of one density, written once for the
/// solids (term_solids.cpp, whose eroded rows add nothing) and the rigid bodies (term_rigid.cpp):
/// lumped nodal masses, the consistent mass, the mass on this rank and the weight under a body
/// acceleration. `skip(row)` is true for a row (index into `cells`) that adds nothing.
#include <array>
#include <cstdint>
#include <span>

#include "inertia/assembly/assembler.hpp"
#include "inertia/fe/element.hpp"

namespace inertia::cell_masses {

template <class Skip>
void add_lumped(std::span<const std::int64_t> cells, double density, VectorSum& m, Skip skip) {
  std::size_t row = 0;
  m.add_cells(cells, [&](std::int64_t, CellType t, auto x, auto me) {
    if (skip(row++)) return false;
    double nodal[fe::max_nodes];
    const int n = info(t).num_nodes;
    fe::mass_lumped(t, x, density, std::span<double>(nodal, n));
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) me[3 * a + i] = nodal[a];
    return true;
  });
}

template <class Skip>
void add_consistent(std::span<const std::int64_t> cells, double density, MatrixSum& M, Skip skip) {
  std::size_t row = 0;
  M.add_cells(cells, [&](std::int64_t, CellType t, auto x, auto Me) {
    if (skip(row++)) return;
    fe::mass_consistent(t, x, density, Me);
  });
}

template <class Skip>
double mass(const Assembler& assembler, const LocalMesh& mesh, std::span<const std::int64_t> cells,
            double density, Skip skip) {
  double local = 0, x[Assembler::max_cell_dofs];
  for (std::size_t r = 0; r < cells.size(); ++r) {
    if (skip(r)) continue;
    const CellType t = mesh.cell_types[cells[r]];
    assembler.cell_coordinates(cells[r], x);
    local += density * fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
  }
  return local;
}

template <class Skip>
void add_weight(std::span<const std::int64_t> cells, double density, const std::array<double, 3>& g,
                VectorSum& f, Skip skip) {
  const double b[3] = {density * g[0], density * g[1], density * g[2]};
  std::size_t row = 0;
  f.add_cells(cells, [&](std::int64_t, CellType t, auto x, auto fe_vec) {
    if (skip(row++)) return false;
    fe::body_force(t, x, b, fe_vec);
    return true;
  });
}

/// Every row adds.
inline bool none(std::size_t) { return false; }

}  // namespace inertia::cell_masses
