#include "inertia/assembly/assembler.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "cell_fields.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr int max_dofs = 3 * fe::max_nodes;

/// `e` with a spring and point flag for every local cell of `mesh`.
ElementAssignment completed(ElementAssignment e, const LocalMesh& mesh) {
  const auto ncells = static_cast<std::size_t>(mesh.num_cells());
  INERTIA_ASSERT(e.cell_material.size() == ncells);
  e.cell_spring.resize(ncells, -1);
  e.cell_point.resize(ncells, 0);
  return e;
}

/// The local cells in the sparsity pattern: solids, springs, point-mass cells, beams and shells.
std::vector<std::int64_t> pattern_cells(const LocalMesh& mesh, const ElementAssignment& e) {
  std::vector<std::int64_t> cells;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    if (e.cell_material[c] >= 0 || e.cell_spring[c] >= 0 || e.cell_point[c] ||
        (rotation_nodes_from(mesh.cell_types[c]) > 0 && mesh.cell_is_element[c]))
      cells.push_back(c);
  return cells;
}

}  // namespace

Assembler::Assembler(MPI_Comm comm, const LocalMesh& mesh, ElementAssignment elements)
    : comm_(comm),
      mesh_(mesh),
      elements_(completed(std::move(elements), mesh)),
      pattern_(comm, mesh, pattern_cells(mesh, elements_)) {
  for (std::int64_t c = 0; c < mesh_.num_cells(); ++c)
    if (elements_.cell_material[c] >= 0) solid_cells_.push_back(c);
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

void VectorSum::fail(std::int64_t c, const std::exception& e) {
  if (!error_) error_ = a_.element_error(c, e);
}

void MatrixSum::add_node_block(std::int32_t n, const double* k33) { a_.add_node_matrix(n, k33); }

void Assembler::assemble(Mat A, const std::function<void(MatrixSum&)>& fill) const {
  static const PetscLogEvent event = petsc::log_event("InertiaElements");
  ensure_pattern();
  MatrixSum sum(*this);
  pattern_.set_matrix_values(A, [&] {
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
    struct Reset {  // the diagonal target points into the local form only while it is borrowed
      MatrixPattern& pattern;
      ~Reset() { pattern.set_diagonal_target({}); }
    } reset{pattern_};
    pattern_.set_diagonal_target(lf.span());
    MatrixSum sum(*this);
    fill(sum);
    error = sum.error_;
  }
  INERTIA_PETSC(VecGhostUpdateBegin(contribution, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(contribution, ADD_VALUES, SCATTER_REVERSE));
  rethrow_collectively(comm_, error);
  INERTIA_PETSC(VecCopy(contribution, d));
}

detail::SolidCells Assembler::solid_cells() const {
  return {comm_, mesh_, elements_, solid_cells_, ghost_nodes_};
}

void Assembler::cell_stress(Vec u, CellStress& out) const {
  detail::cell_stress(solid_cells(), u, out);
}

void Assembler::nodal_average(const CellStress& cells, NodalStress& out) const {
  detail::nodal_average(solid_cells(), cells, out);
}

void Assembler::nodal_average(std::span<const std::int64_t> cells, std::span<const double> values,
                              int components, NodalCellAverage& out) const {
  detail::nodal_average(solid_cells(), cells, values, components, out);
}

SolidPoint Assembler::solid_containing(const std::array<double, 3>& p) const {
  return detail::locate_in_solids(solid_cells(), p, 0.0, false);
}

SolidPoint Assembler::nearest_solid(const std::array<double, 3>& p, double reach) const {
  return detail::locate_in_solids(solid_cells(), p, reach, true);
}

void Assembler::point_stress(std::span<const PetscScalar> u_local, const SolidPoint& point,
                             double* strain, double* stress) const {
  detail::point_stress(solid_cells(), u_local, point, strain, stress);
}

petsc::Matrix Assembler::create_matrix(MatrixFormat format) const {
  ensure_pattern();
  static const PetscLogEvent event = petsc::log_event("InertiaCreateMatrix");
  PetscLogEventBegin(event, 0, 0, 0, 0);
  const bool blocked = format == MatrixFormat::blocked;
  if (!blocked && !rigid_body_modes_) rigid_body_modes(coordinates_, rigid_body_modes_.out());
  petsc::Matrix A =
      pattern_.create_matrix(blocked, l2g_, blocked ? nullptr : rigid_body_modes_.get());
  PetscLogEventEnd(event, 0, 0, 0, 0);
  return A;
}

void Assembler::copy_values(Mat from, Mat to) const { pattern_.copy_values(from, to); }

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
  rigid_body_modes(x, modes.out());
  INERTIA_PETSC(MatSetNearNullSpace(A, modes));
}

petsc::Vector Assembler::unit_translation(int d) const {
  petsc::Vector r = create_vector();
  petsc::Array x(r);
  for (PetscInt i = 0; i < x.size(); ++i)
    x[i] = i % 3 == d && !mesh_.is_rotation(static_cast<std::int32_t>(i / 3)) ? 1.0 : 0.0;
  return r;
}

petsc::Vector Assembler::unit_rotation(int d, const std::array<double, 3>& x0) const {
  petsc::Vector r = create_vector();
  petsc::Array v(r);
  petsc::ConstArray xa(coordinates_);
  const double w[3] = {d == 0 ? 1.0 : 0.0, d == 1 ? 1.0 : 0.0, d == 2 ? 1.0 : 0.0};
  for (PetscInt n = 0; 3 * n < v.size(); ++n) {
    double* m = &v[3 * n];
    if (mesh_.is_rotation(static_cast<std::int32_t>(n))) {
      for (int i = 0; i < 3; ++i) m[i] = w[i];
      continue;
    }
    const double p[3] = {xa[3 * n] - x0[0], xa[3 * n + 1] - x0[1], xa[3 * n + 2] - x0[2]};
    m[0] = w[1] * p[2] - w[2] * p[1];
    m[1] = w[2] * p[0] - w[0] * p[2];
    m[2] = w[0] * p[1] - w[1] * p[0];
  }
  return r;
}

petsc::Vector Assembler::positions() const {
  petsc::Vector r = create_vector();
  petsc::Array v(r);
  petsc::ConstArray xa(coordinates_);
  for (PetscInt i = 0; i < v.size(); ++i)
    v[i] = mesh_.is_rotation(static_cast<std::int32_t>(i / 3)) ? 0.0 : xa[i];
  return r;
}

void Assembler::rigid_body_modes(Vec x, MatNullSpace* modes) const {
  if (!mesh_.has_rotations) {
    INERTIA_PETSC(MatNullSpaceCreateRigidBody(x, modes));
    return;
  }
  std::array<petsc::Vector, 6> v;
  std::array<Vec, 6> raw{};
  {
    petsc::ConstArray xa(x);
    for (int k = 0; k < 6; ++k) {
      INERTIA_PETSC(VecDuplicate(x, v[k].out()));
      petsc::Array a(v[k]);
      for (std::int32_t n = 0; n < mesh_.num_owned; ++n) {
        double* m = &a[3 * n];
        const double* p = &xa[3 * n];
        m[0] = m[1] = m[2] = 0;
        if (k < 3) {
          if (!mesh_.is_rotation(n)) m[k] = 1;  // translation k
        } else if (mesh_.is_rotation(n)) {
          m[k - 3] = 1;  // a rotation about axis k - 3 turns the rotations by it
        } else {
          const double w[3] = {k == 3 ? 1.0 : 0.0, k == 4 ? 1.0 : 0.0, k == 5 ? 1.0 : 0.0};
          m[0] = w[1] * p[2] - w[2] * p[1];
          m[1] = w[2] * p[0] - w[0] * p[2];
          m[2] = w[0] * p[1] - w[1] * p[0];
        }
      }
    }
  }
  // Modified Gram-Schmidt: MatNullSpaceCreate takes orthonormal vectors.
  for (int k = 0; k < 6; ++k) {
    for (int j = 0; j < k; ++j) {
      PetscScalar dot = 0;
      INERTIA_PETSC(VecDot(v[k], v[j], &dot));
      INERTIA_PETSC(VecAXPY(v[k], -dot, v[j]));
    }
    PetscReal norm = 0;
    INERTIA_PETSC(VecNormalize(v[k], &norm));
    raw[k] = v[k];
  }
  INERTIA_PETSC(MatNullSpaceCreate(comm_, PETSC_FALSE, 6, raw.data(), modes));
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
