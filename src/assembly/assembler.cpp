#include "inertia/assembly/assembler.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {
constexpr int max_dofs = 3 * fe::max_nodes;
}  // namespace

Assembler::Assembler(MPI_Comm comm, const LocalMesh& mesh, ElementAssignment elements)
    : comm_(comm), mesh_(mesh), elements_(std::move(elements)) {
  const auto ncells = static_cast<std::size_t>(mesh_.num_cells());
  INERTIA_ASSERT(elements_.cell_material.size() == ncells);
  elements_.cell_spring.resize(ncells, -1);
  elements_.cell_point.resize(ncells, 0);
  for (std::int64_t c = 0; c < mesh_.num_cells(); ++c) {
    const bool solid = elements_.cell_material[c] >= 0;
    const bool spring = elements_.cell_spring[c] >= 0;
    if (solid) solid_cells_.push_back(c);
    if (solid || spring || elements_.cell_point[c]) pattern_cells_.push_back(c);
  }
  pattern_index_.assign(ncells, -1);
  for (std::size_t e = 0; e < pattern_cells_.size(); ++e)
    pattern_index_[static_cast<std::size_t>(pattern_cells_[e])] = static_cast<std::int64_t>(e);
  // Local-to-global map over nodes (blocks of 3 DOFs): owned, then ghosts.
  std::vector<PetscInt> nodes(static_cast<std::size_t>(mesh_.num_local_nodes()));
  for (std::int32_t i = 0; i < mesh_.num_local_nodes(); ++i)
    nodes[i] = static_cast<PetscInt>(mesh_.global_node(i));
  INERTIA_PETSC(ISLocalToGlobalMappingCreate(comm_, 3, static_cast<PetscInt>(nodes.size()),
                                             nodes.data(), PETSC_COPY_VALUES, l2g_.out()));
  ghost_nodes_.assign(nodes.begin() + mesh_.num_owned, nodes.end());

  // Owned node coordinates (the rigid-body modes for AMG are made from them with the pattern).
  INERTIA_PETSC(VecCreateMPI(comm_, num_owned_dofs(), num_global_dofs(), coordinates_.out()));
  INERTIA_PETSC(VecSetBlockSize(coordinates_, 3));
  {
    petsc::Array x(coordinates_);
    std::copy(mesh_.coords.begin(), mesh_.coords.begin() + 3 * mesh_.num_owned, x.span().begin());
  }
}

void Assembler::ensure_pattern() const {
  if (pattern_built_) return;
  build_pattern();
  pattern_built_ = true;
}

petsc::Vector Assembler::create_vector() const {
  petsc::Vector v;
  INERTIA_PETSC(VecCreateGhostBlock(comm_, 3, num_owned_dofs(), num_global_dofs(),
                                    static_cast<PetscInt>(ghost_nodes_.size()), ghost_nodes_.data(),
                                    v.out()));
  {
    petsc::LocalForm local(v);
    INERTIA_PETSC(VecZeroEntries(local.get()));  // owned and ghost parts
  }
  return v;
}

void Assembler::gather_coords(std::int64_t c, double* x) const {
  const auto nodes = mesh_.nodes_of(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * nodes[a] + i];
}

std::exception_ptr Assembler::element_error(std::int64_t c, const std::exception& e) const {
  const auto nodes = mesh_.nodes_of(c);
  const int nc = info(mesh_.cell_types[c]).num_corners;
  double centre[3] = {0, 0, 0};
  for (int a = 0; a < nc; ++a)
    for (int i = 0; i < 3; ++i) centre[i] += mesh_.coords[3 * nodes[a] + i] / nc;
  return std::make_exception_ptr(
      SolverError(cat("element ", mesh_.cell_tags[c], " (", info(mesh_.cell_types[c]).name,
                      ") at (", centre[0], ", ", centre[1], ", ", centre[2], "): ", e.what())));
}

void Assembler::add_cell_matrix(std::int64_t c, const double* Ke) const {
  if (!diagonal_target_.empty()) {
    const auto nodes = mesh_.nodes_of(c);
    const auto nd = static_cast<std::int64_t>(3 * nodes.size());
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) {
        const std::int64_t k = 3 * static_cast<std::int64_t>(a) + i;
        diagonal_target_[3 * nodes[a] + i] += Ke[k * nd + k];
      }
    return;
  }
  const std::int64_t e = pattern_index_[static_cast<std::size_t>(c)];
  INERTIA_ASSERT(e >= 0);
  const auto nodes = mesh_.nodes_of(c);
  const int n = static_cast<int>(nodes.size());
  const int nd = 3 * n;
  const std::int32_t no = mesh_.num_owned;
  const std::uint16_t* place = cell_block_.data() + cell_block_offset_[e];
  for (int a = 0; a < n; ++a) {
    const auto r = static_cast<std::int32_t>(nodes[a]);
    const double* row = Ke + 3 * a * nd;
    const std::uint16_t* pos = place + a * n;  // where each node b's block is in row a
    if (r >= no) {                             // a ghost row: summed here, then sent to its owner
      const std::int64_t stride = 3 * (block_ptr_[r + 1] - block_ptr_[r]);
      double* base = ghost_values_.data() + 9 * (block_ptr_[r] - block_ptr_[no]);
      for (int b = 0; b < n; ++b) {
        double* v = base + 3 * pos[b];
        const double* k = row + 3 * b;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) v[i * stride + j] += k[i * nd + j];
      }
      continue;
    }
    // Row r's two parts (owned_block, with what depends on the row alone taken out of the
    // loop over the blocks).
    const bool extended = owned_extended_[r] != 0;
    const std::int32_t* index = owned_index_.data() + block_ptr_[r];
    const std::int32_t left = owned_left_[r], in_diag = owned_diag_[r];
    PetscScalar* const diag = target_.diag + diag_ptr_[3 * r];
    PetscScalar* const off = target_.off ? target_.off + off_ptr_[3 * r] : nullptr;
    const bool blocked = target_.blocked;
    const std::int64_t step = blocked ? 9 : 3, sj = blocked ? 3 : 1;
    const std::int64_t diag_si = blocked ? 1 : diag_ptr_[3 * r + 1] - diag_ptr_[3 * r];
    const std::int64_t off_si = blocked || !off ? 1 : off_ptr_[3 * r + 1] - off_ptr_[3 * r];
    for (int b = 0; b < n; ++b) {
      const std::int32_t f = extended ? index[pos[b]] : pos[b];
      const bool d = f >= left && f < left + in_diag;
      PetscScalar* p = d ? diag + step * (f - left) : off + step * (f < left ? f : f - in_diag);
      const std::int64_t si = d ? diag_si : off_si;
      const double* k = row + 3 * b;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p[i * si + j * sj] += k[i * nd + j];
    }
  }
}

void MatrixSum::add_node_block(std::int32_t n, const double* k33) { a_.add_node_matrix(n, k33); }

void Assembler::add_node_matrix(std::int32_t n, const double* k33) const {
  INERTIA_ASSERT(n >= 0 && n < mesh_.num_owned);
  // The block of column n in row n: the row's blocks are sorted by order().
  const std::int32_t* cols = block_cols_.data();
  const std::int64_t b = block_ptr_[n], e = block_ptr_[n + 1];
  const std::int32_t key = order(n);
  const std::int32_t* it = std::lower_bound(
      cols + b, cols + e, key, [&](std::int32_t l, std::int32_t k) { return order(l) < k; });
  INERTIA_ASSERT(it != cols + e && *it == n);
  const auto pos = static_cast<std::int32_t>(it - (cols + b));
  const Block d = owned_block(n, owned_extended_[n] ? owned_index_[b + pos] : pos);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) d.p[i * d.si + j * d.sj] += k33[3 * i + j];
}

void Assembler::assemble(Mat A, const std::function<void(MatrixSum&)>& fill) const {
  static const PetscLogEvent event = petsc::log_event("InertiaElements");
  ensure_pattern();
  MatrixSum sum(*this);
  set_matrix_values(A, [&] {
    PetscLogEventBegin(event, 0, 0, 0, 0);
    fill(sum);
    PetscLogEventEnd(event, 0, 0, 0, 0);
  });
  rethrow_collectively(comm_, sum.error_);
}

void Assembler::assemble(Vec f, const std::function<void(VectorSum&)>& fill) const {
  // Accumulate into the local form (owned + ghosts), then sum the ghost parts into their owners.
  if (!scratch_) scratch_ = create_vector();
  Vec contribution = scratch_;
  std::exception_ptr error;
  {
    petsc::GhostedArray lf(contribution);
    std::ranges::fill(lf.span(), 0.0);  // owned and ghost parts
    VectorSum sum(*this, lf.span());
    fill(sum);
    error = sum.error_;
  }  // local form restored before the reverse update
  INERTIA_PETSC(VecGhostUpdateBegin(contribution, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(contribution, ADD_VALUES, SCATTER_REVERSE));
  rethrow_collectively(comm_, error);
  INERTIA_PETSC(VecAXPY(f, 1.0, contribution));
}

void Assembler::assemble_diagonal(Vec d, const std::function<void(MatrixSum&)>& fill) const {
  if (!scratch_) scratch_ = create_vector();
  Vec contribution = scratch_;
  std::exception_ptr error;
  {
    petsc::GhostedArray lf(contribution);
    std::ranges::fill(lf.span(), 0.0);
    struct Reset {  // diagonal_target_ points into the local form only while it is borrowed
      std::span<PetscScalar>& target;
      ~Reset() { target = {}; }
    } reset{diagonal_target_};
    diagonal_target_ = lf.span();
    MatrixSum sum(*this);
    fill(sum);
    error = sum.error_;
  }
  INERTIA_PETSC(VecGhostUpdateBegin(contribution, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(contribution, ADD_VALUES, SCATTER_REVERSE));
  rethrow_collectively(comm_, error);
  INERTIA_PETSC(VecCopy(contribution, d));
}

void Assembler::cell_stress(Vec u, CellStress& out) const {
  const auto ncells = static_cast<std::size_t>(mesh_.num_cells());
  out.strain.assign(6 * ncells, 0.0);
  out.stress.assign(6 * ncells, 0.0);
  out.von_mises.assign(ncells, 0.0);
  {
    petsc::GhostedRead ul(u);
    double x[max_dofs], ue[max_dofs];
    for (auto c : solid_cells_) {
      const CellType t = mesh_.cell_types[c];
      const int nd = 3 * info(t).num_nodes;
      gather_coords(c, x);
      const auto nodes = mesh_.nodes_of(c);
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i) ue[3 * a + i] = ul[static_cast<PetscInt>(3 * nodes[a] + i)];
      const auto& m = elements_.materials[elements_.cell_material[c]];
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

void Assembler::nodal_average(const CellStress& cells, NodalStress& out) const {
  constexpr int bs = 13;  // stress (6), strain (6), weight
  const auto nodes = static_cast<std::size_t>(mesh_.num_local_nodes());
  if (!out.sums) {  // first use: the ghosted sums (the ghosts of the DOF vectors) and the weights
    INERTIA_PETSC(VecCreateGhostBlock(comm_, bs, bs * static_cast<PetscInt>(mesh_.num_owned),
                                      bs * static_cast<PetscInt>(mesh_.num_global_nodes),
                                      static_cast<PetscInt>(ghost_nodes_.size()),
                                      ghost_nodes_.data(), out.sums.out()));
    out.volumes.assign(static_cast<std::size_t>(mesh_.num_cells()), 0.0);
    double x[max_dofs];
    for (auto c : solid_cells_) {
      const CellType t = mesh_.cell_types[c];
      gather_coords(c, x);
      out.volumes[c] = fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
    }
    out.stress.resize(6 * nodes);
    out.strain.resize(6 * nodes);
    out.von_mises.resize(nodes);
  }
  {
    petsc::GhostedArray sums(out.sums);
    std::ranges::fill(sums.span(), 0.0);  // owned and ghost parts
    for (auto c : solid_cells_) {
      const double w = out.volumes[c];
      const double* stress = &cells.stress[6 * c];
      const double* strain = &cells.strain[6 * c];
      for (auto n : mesh_.nodes_of(c)) {
        PetscScalar* s = sums.data() + bs * n;
        for (int k = 0; k < 6; ++k) {
          s[k] += w * stress[k];
          s[6 + k] += w * strain[k];
        }
        s[12] += w;
      }
    }
  }  // local form restored before the updates
  // The ghost nodes' parts summed into their owners, then the owners' totals copied back.
  INERTIA_PETSC(VecGhostUpdateBegin(out.sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(out.sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateBegin(out.sums, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(out.sums, INSERT_VALUES, SCATTER_FORWARD));
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

void Assembler::nodal_average(std::span<const std::int64_t> cells, std::span<const double> values,
                              int components, NodalCellAverage& out) const {
  const int bs = components + 1;  // the weighted sums, the weight
  const auto nodes = static_cast<std::size_t>(mesh_.num_local_nodes());
  const auto nc = static_cast<std::size_t>(components);
  INERTIA_CHECK(components >= 1 && values.size() == nc * cells.size(), InternalError,
                "nodal average: ", values.size(), " values for ", cells.size(), " cells of ",
                components, " components");
  if (!out.sums) {  // first use: the ghosted sums (the ghosts of the DOF vectors) and the weights
    INERTIA_PETSC(VecCreateGhostBlock(comm_, bs, bs * static_cast<PetscInt>(mesh_.num_owned),
                                      bs * static_cast<PetscInt>(mesh_.num_global_nodes),
                                      static_cast<PetscInt>(ghost_nodes_.size()),
                                      ghost_nodes_.data(), out.sums.out()));
    out.components = components;
    out.volumes.resize(cells.size());
    double x[max_dofs];
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const CellType t = mesh_.cell_types[cells[i]];
      gather_coords(cells[i], x);
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
      for (auto n : mesh_.nodes_of(cells[i])) {
        PetscScalar* s = sums.data() + bs * n;
        for (std::size_t k = 0; k < nc; ++k) s[k] += w * v[k];
        s[nc] += w;
      }
    }
  }  // local form restored before the updates
  // The ghost nodes' parts summed into their owners, then the owners' totals copied back.
  INERTIA_PETSC(VecGhostUpdateBegin(out.sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(out.sums, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateBegin(out.sums, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(out.sums, INSERT_VALUES, SCATTER_FORWARD));
  petsc::LocalForm local(out.sums);
  petsc::ConstArray sums(local.get());
  for (std::size_t n = 0; n < nodes; ++n) {
    const PetscScalar* s = sums.data() + bs * n;
    const double r = s[nc] > 0 ? 1.0 / s[nc] : 0.0;  // no such cell: zero
    for (std::size_t k = 0; k < nc; ++k) out.values[k * nodes + n] = r * s[k];
  }
}

SolidPoint Assembler::solid_containing(const std::array<double, 3>& p) const {
  return locate_in_solids(p, 0.0, false);
}

SolidPoint Assembler::nearest_solid(const std::array<double, 3>& p, double reach) const {
  return locate_in_solids(p, reach, true);
}

SolidPoint Assembler::locate_in_solids(const std::array<double, 3>& p, double reach,
                                       bool nearest) const {
  // A point within this of the reference cell (in reference coordinates, where the cell has size
  // 1) is inside: points on a face shared by two cells are inside both.
  constexpr double inside = 1e-10;
  SolidPoint best;
  best.distance = std::numeric_limits<double>::infinity();
  std::int64_t best_tag = std::numeric_limits<std::int64_t>::max();
  double x[max_dofs];
  for (auto c : solid_cells_) {
    const CellType t = mesh_.cell_types[c];
    const auto nodes = mesh_.nodes_of(c);
    // Cheap rejection: the nodes' bounding box, widened by a tenth of its diagonal for curved
    // tet10 edges, farther from p than reach.
    double lo[3], hi[3];
    for (int i = 0; i < 3; ++i) lo[i] = hi[i] = mesh_.coords[3 * nodes[0] + i];
    for (auto n : nodes)
      for (int i = 0; i < 3; ++i) {
        lo[i] = std::min(lo[i], mesh_.coords[3 * n + i]);
        hi[i] = std::max(hi[i], mesh_.coords[3 * n + i]);
      }
    double gap[3];
    for (int i = 0; i < 3; ++i) gap[i] = std::max({lo[i] - p[i], p[i] - hi[i], 0.0});
    const double slack = 0.1 * std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    if (!(std::hypot(gap[0], gap[1], gap[2]) <= reach + slack)) continue;
    const int nd = 3 * static_cast<int>(nodes.size());
    gather_coords(c, x);
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
    const std::int64_t tag = mesh_.cell_tags[c];
    if (here.distance < best.distance || (here.distance == best.distance && tag < best_tag)) {
      best = here;
      best_tag = tag;
    }
  }
  if (best.cell < 0) return best;
  const CellType t = mesh_.cell_types[best.cell];
  gather_coords(best.cell, x);
  fe::physical_gradients(t, std::span<const double>(x, 3 * info(t).num_nodes), best.xi.data(),
                         best.gradients.data());
  const int m = elements_.cell_material[best.cell];
  if (m >= 0 && elements_.materials[m].technology.formulation != fe::Formulation::full)
    fe::hex8_mean_gradients(std::span<const double>(x, 3 * info(t).num_nodes),
                            best.mean_gradients.data());
  return best;
}

void Assembler::point_stress(std::span<const PetscScalar> u_local, const SolidPoint& point,
                             double* strain, double* stress) const {
  const std::int64_t c = point.cell;
  const auto nodes = mesh_.nodes_of(c);
  double grad[9] = {};  // du_i / dx_j at the point
  for (std::size_t a = 0; a < nodes.size(); ++a) {
    const double* g = &point.gradients[3 * a];
    for (int i = 0; i < 3; ++i) {
      const double u = u_local[3 * nodes[a] + i];
      for (int j = 0; j < 3; ++j) grad[3 * i + j] += u * g[j];
    }
  }
  const auto& m = elements_.materials[elements_.cell_material[c]];
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

void Assembler::attach_rigid_body_modes(Mat A, Vec u) const {
  if (!deformed_) INERTIA_PETSC(VecDuplicate(coordinates_, deformed_.out()));  // once per run
  Vec x = deformed_;
  INERTIA_PETSC(VecCopy(coordinates_, x));
  {
    petsc::Array xa(x);
    petsc::ConstArray ua(u);
    for (PetscInt i = 0; i < xa.size(); ++i) xa[i] += ua[i];
  }
  petsc::NullSpace modes;
  INERTIA_PETSC(MatNullSpaceCreateRigidBody(x, modes.out()));
  INERTIA_PETSC(MatSetNearNullSpace(A, modes));
}

void check_cell_quality(const MeshData& mesh, double min_scaled_jacobian) {
  double x[max_dofs];
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const CellType t = mesh.cell_types[c];
    if (info(t).dim != 3) continue;
    const auto nodes = mesh.nodes_of(c);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh.coords[3 * nodes[a] + i];
    const double q = fe::min_scaled_jacobian(t, std::span<const double>(x, 3 * nodes.size()));
    if (q > min_scaled_jacobian && std::isfinite(q)) continue;
    double centre[3] = {0, 0, 0};
    const int nc = info(t).num_corners;
    for (int a = 0; a < nc; ++a)
      for (int i = 0; i < 3; ++i) centre[i] += x[3 * a + i] / nc;
    throw InputError(cat("element ", mesh.cell_tags[c], " (", info(t).name, ") at (", centre[0],
                         ", ", centre[1], ", ", centre[2], ") is ",
                         q <= 0 || !std::isfinite(q) ? "inverted" : "degenerate",
                         " (scaled Jacobian ", q, ")"));
  }
}

}  // namespace inertia
