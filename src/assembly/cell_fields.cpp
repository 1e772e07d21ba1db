/// \file cell_fields.cpp
/// The fields of the solid cells (cell_fields.hpp): strain and stress per cell and at points,
/// their nodal averages, and the search for the solid cell at a point.
#include "cell_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "inertia/fe/element.hpp"

namespace inertia::detail {

namespace {

constexpr int max_dofs = 3 * fe::max_nodes;

/// The node coordinates of local cell c, 3 per node.
void coordinates_of(const LocalMesh& mesh, std::int64_t c, double* x) {
  const auto nodes = mesh.nodes_of(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh.coords[3 * nodes[a] + i];
}

}  // namespace

void cell_stress(const SolidCells& in, Vec u, CellStress& out) {
  const auto ncells = static_cast<std::size_t>(in.mesh.num_cells());
  out.strain.assign(6 * ncells, 0.0);
  out.stress.assign(6 * ncells, 0.0);
  out.von_mises.assign(ncells, 0.0);
  {
    petsc::GhostedRead ul(u);
    double x[max_dofs], ue[max_dofs];
    for (auto c : in.solids) {
      const CellType t = in.mesh.cell_types[c];
      const int nd = 3 * info(t).num_nodes;
      coordinates_of(in.mesh, c, x);
      const auto nodes = in.mesh.nodes_of(c);
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i) ue[3 * a + i] = ul[static_cast<PetscInt>(3 * nodes[a] + i)];
      const auto& m = in.elements.materials[in.elements.cell_material[c]];
      if (m.technology.formulation != fe::Formulation::full) {  // maybe plastic
        double grad[9];
        fe::cell_gradient(t, std::span<const double>(x, nd), std::span<const double>(ue, nd),
                          m.technology.formulation, grad);
        if (m.law().linear) {
          fe::small_strain_stress(grad, m.lambda(), m.mu(), &out.strain[6 * c], &out.stress[6 * c]);
        } else {  // hencky with plasticity: the Green-Lagrange strain of the mean F
          for (int i = 0; i < 3; ++i) grad[4 * i] += 1.0;
          try {
            fe::material_strain_stress(m.law(), m.lame(), grad, &out.strain[6 * c],
                                       &out.stress[6 * c]);
          } catch (const SolverError&) {
            for (int i = 0; i < 6; ++i)
              out.strain[6 * c + i] = out.stress[6 * c + i] =
                  std::numeric_limits<double>::quiet_NaN();
          }
        }
      } else if (m.is_linear()) {
        fe::strain_stress_linear_elastic(t, std::span<const double>(x, nd),
                                         std::span<const double>(ue, nd), m.lambda(), m.mu(),
                                         &out.strain[6 * c], &out.stress[6 * c]);
      } else {
        try {
          fe::hyperelastic_strain_stress(t, std::span<const double>(x, nd),
                                         std::span<const double>(ue, nd), m.law(), m.lame(),
                                         &out.strain[6 * c], &out.stress[6 * c]);
        } catch (const SolverError&) {
          for (int i = 0; i < 6; ++i)  // inverted: no meaningful stress
            out.strain[6 * c + i] = out.stress[6 * c + i] =
                std::numeric_limits<double>::quiet_NaN();
        }
      }
      out.von_mises[c] = fe::von_mises(&out.stress[6 * c]);
    }
  }
}

namespace {

/// Collective. The ghost nodes' parts of a ghosted vector summed into their owners, then the
/// owners' totals copied back to every ghost.
void sum_ghosts_into_owners(Vec sums) {
  INERTIA_PETSC(VecGhostUpdateBegin(sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateBegin(sums, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(sums, INSERT_VALUES, SCATTER_FORWARD));
}

}  // namespace

void nodal_average(const SolidCells& in, const CellStress& cells, NodalStress& out) {
  constexpr int bs = 13;  // stress (6), strain (6), weight
  const auto nodes = static_cast<std::size_t>(in.mesh.num_local_nodes());
  if (!out.sums) {  // first use: the ghosted sums (the ghosts of the DOF vectors) and the weights
    INERTIA_PETSC(VecCreateGhostBlock(in.comm, bs, bs * static_cast<PetscInt>(in.mesh.num_owned),
                                      bs * static_cast<PetscInt>(in.mesh.num_global_nodes),
                                      static_cast<PetscInt>(in.ghost_nodes.size()),
                                      in.ghost_nodes.data(), out.sums.out()));
    out.volumes.assign(static_cast<std::size_t>(in.mesh.num_cells()), 0.0);
    double x[max_dofs];
    for (auto c : in.solids) {
      const CellType t = in.mesh.cell_types[c];
      coordinates_of(in.mesh, c, x);
      out.volumes[c] = fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
    }
    out.stress.resize(6 * nodes);
    out.strain.resize(6 * nodes);
    out.von_mises.resize(nodes);
  }
  {
    petsc::GhostedArray sums(out.sums);
    std::ranges::fill(sums.span(), 0.0);  // owned and ghost parts
    for (auto c : in.solids) {
      const double w = out.volumes[c];
      const double* stress = &cells.stress[6 * c];
      const double* strain = &cells.strain[6 * c];
      for (auto n : in.mesh.nodes_of(c)) {
        PetscScalar* s = sums.data() + bs * n;
        for (int k = 0; k < 6; ++k) {
          s[k] += w * stress[k];
          s[6 + k] += w * strain[k];
        }
        s[12] += w;
      }
    }
  }  // local form restored before the updates
  sum_ghosts_into_owners(out.sums);
  petsc::LocalForm local(out.sums);
  petsc::ConstArray sums(local.get());
  for (std::size_t n = 0; n < nodes; ++n) {
    const PetscScalar* s = sums.data() + bs * n;
    const double r = s[12] > 0 ? 1.0 / s[12] : 0.0;  // no solid cell: zero
    for (int k = 0; k < 6; ++k) {
      out.stress[6 * n + k] = r * s[k];
      out.strain[6 * n + k] = r * s[6 + k];
    }
    out.von_mises[n] = fe::von_mises(&out.stress[6 * n]);
  }
}

void nodal_average(const SolidCells& in, std::span<const std::int64_t> cells,
                   std::span<const double> values, int components, NodalCellAverage& out) {
  const int bs = components + 1;  // the weighted sums, the weight
  const auto nodes = static_cast<std::size_t>(in.mesh.num_local_nodes());
  const auto nc = static_cast<std::size_t>(components);
  INERTIA_CHECK(components >= 1 && values.size() == nc * cells.size(), InternalError,
                "nodal average: ", values.size(), " values for ", cells.size(), " cells of ",
                components, " components");
  if (!out.sums) {  // first use: the ghosted sums (the ghosts of the DOF vectors) and the weights
    INERTIA_PETSC(VecCreateGhostBlock(in.comm, bs, bs * static_cast<PetscInt>(in.mesh.num_owned),
                                      bs * static_cast<PetscInt>(in.mesh.num_global_nodes),
                                      static_cast<PetscInt>(in.ghost_nodes.size()),
                                      in.ghost_nodes.data(), out.sums.out()));
    out.components = components;
    out.volumes.resize(cells.size());
    double x[max_dofs];
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const CellType t = in.mesh.cell_types[cells[i]];
      coordinates_of(in.mesh, cells[i], x);
      out.volumes[i] = fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
    }
    out.values.resize(nc * nodes);
  }
  INERTIA_CHECK(out.components == components && out.volumes.size() == cells.size(), InternalError,
                "nodal average: called with other cells or components than at its first use");
  {
    petsc::GhostedArray sums(out.sums);
    std::ranges::fill(sums.span(), 0.0);  // owned and ghost parts
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const double w = out.volumes[i];
      const double* v = &values[nc * i];
      for (auto n : in.mesh.nodes_of(cells[i])) {
        PetscScalar* s = sums.data() + bs * n;
        for (std::size_t k = 0; k < nc; ++k) s[k] += w * v[k];
        s[nc] += w;
      }
    }
  }  // local form restored before the updates
  sum_ghosts_into_owners(out.sums);
  petsc::LocalForm local(out.sums);
  petsc::ConstArray sums(local.get());
  for (std::size_t n = 0; n < nodes; ++n) {
    const PetscScalar* s = sums.data() + bs * n;
    const double r = s[nc] > 0 ? 1.0 / s[nc] : 0.0;  // no such cell: zero
    for (std::size_t k = 0; k < nc; ++k) out.values[k * nodes + n] = r * s[k];
  }
}

SolidPoint locate_in_solids(const SolidCells& in, const std::array<double, 3>& p, double reach,
                            bool nearest) {
  // A point within this of the reference cell (in reference coordinates, where the cell has size
  // 1) is inside: points on a face shared by two cells are inside both.
  constexpr double inside = 1e-10;
  SolidPoint best;
  best.distance = std::numeric_limits<double>::infinity();
  std::int64_t best_tag = std::numeric_limits<std::int64_t>::max();
  double x[max_dofs];
  for (auto c : in.solids) {
    const CellType t = in.mesh.cell_types[c];
    const auto nodes = in.mesh.nodes_of(c);
    // Cheap rejection: the nodes' bounding box, widened by a tenth of its diagonal for curved
    // tet10 edges, farther from p than reach.
    double lo[3], hi[3];
    for (int i = 0; i < 3; ++i) lo[i] = hi[i] = in.mesh.coords[3 * nodes[0] + i];
    for (auto n : nodes)
      for (int i = 0; i < 3; ++i) {
        lo[i] = std::min(lo[i], in.mesh.coords[3 * n + i]);
        hi[i] = std::max(hi[i], in.mesh.coords[3 * n + i]);
      }
    double gap[3];
    for (int i = 0; i < 3; ++i) gap[i] = std::max({lo[i] - p[i], p[i] - hi[i], 0.0});
    const double slack = 0.1 * std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    if (!(std::hypot(gap[0], gap[1], gap[2]) <= reach + slack)) continue;
    const int nd = 3 * static_cast<int>(nodes.size());
    coordinates_of(in.mesh, c, x);
    const std::span<const double> xs(x, nd);
    SolidPoint here;
    here.cell = c;
    if (fe::reference_point(t, xs, p.data(), here.xi.data()) &&
        fe::reference_outside(t, here.xi.data()) <= inside) {
      here.at = p;
      here.distance = 0;
    } else if (nearest) {  // the cell's point nearest p, from Newton's iterate
      here.distance = fe::nearest_reference_point(t, xs, p.data(), here.xi.data());
      fe::physical_point(t, xs, here.xi.data(), here.at.data());
    } else {
      continue;
    }
    const std::int64_t tag = in.mesh.cell_tags[c];
    if (here.distance < best.distance || (here.distance == best.distance && tag < best_tag)) {
      best = here;
      best_tag = tag;
    }
  }
  if (best.cell < 0) return best;
  const CellType t = in.mesh.cell_types[best.cell];
  coordinates_of(in.mesh, best.cell, x);
  fe::physical_gradients(t, std::span<const double>(x, 3 * info(t).num_nodes), best.xi.data(),
                         best.gradients.data());
  const int m = in.elements.cell_material[best.cell];
  if (m >= 0 && in.elements.materials[m].technology.formulation != fe::Formulation::full)
    fe::hex8_mean_gradients(std::span<const double>(x, 3 * info(t).num_nodes),
                            best.mean_gradients.data());
  return best;
}

void point_stress(const SolidCells& in, std::span<const PetscScalar> u_local,
                  const SolidPoint& point, double* strain, double* stress) {
  const std::int64_t c = point.cell;
  const auto nodes = in.mesh.nodes_of(c);
  double grad[9] = {};  // du_i / dx_j at the point
  for (std::size_t a = 0; a < nodes.size(); ++a) {
    const double* g = &point.gradients[3 * a];
    for (int i = 0; i < 3; ++i) {
      const double u = u_local[3 * nodes[a] + i];
      for (int j = 0; j < 3; ++j) grad[3 * i + j] += u * g[j];
    }
  }
  const auto& m = in.elements.materials[in.elements.cell_material[c]];
  if (m.technology.formulation != fe::Formulation::full) {
    double ue[max_dofs];
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) ue[3 * a + i] = u_local[3 * nodes[a] + i];
    fe::apply_technology(m.technology.formulation, std::span<const double>(ue, 3 * nodes.size()),
                         point.mean_gradients.data(), static_cast<int>(nodes.size()), grad);
  }
  if (m.is_linear()) {
    fe::small_strain_stress(grad, m.lambda(), m.mu(), strain, stress);
    return;
  }
  for (int i = 0; i < 3; ++i) grad[4 * i] += 1.0;  // F = I + grad u
  try {
    fe::material_strain_stress(m.law(), m.lame(), grad, strain, stress);
  } catch (const SolverError&) {
    for (int k = 0; k < 6; ++k)  // inverted: no meaningful stress
      strain[k] = stress[k] = std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace inertia::detail
