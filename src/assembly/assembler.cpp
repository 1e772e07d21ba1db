#include "inertia/assembly/assembler.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {
constexpr int max_dofs = 3 * fe::max_nodes;
}

Assembler::Assembler(MPI_Comm comm, const LocalMesh& mesh, std::vector<int> cell_material,
                     std::vector<ElasticMaterial> materials)
    : comm_(comm),
      mesh_(mesh),
      cell_material_(std::move(cell_material)),
      materials_(std::move(materials)) {
  INERTIA_ASSERT(static_cast<std::int64_t>(cell_material_.size()) == mesh_.num_cells());
  for (std::int64_t c = 0; c < mesh_.num_cells(); ++c)
    if (cell_material_[c] >= 0) {
      element_cells_.push_back(c);
      const int n = info(mesh_.cell_types[c]).num_nodes;
      coo_size_ += static_cast<std::size_t>(9 * n * n);
    }
  // Local-to-global map over nodes (blocks of 3 DOFs): owned, then ghosts.
  std::vector<PetscInt> nodes(static_cast<std::size_t>(mesh_.num_local_nodes()));
  for (std::int32_t i = 0; i < mesh_.num_local_nodes(); ++i)
    nodes[i] = static_cast<PetscInt>(mesh_.global_node(i));
  INERTIA_PETSC(ISLocalToGlobalMappingCreate(comm_, 3, static_cast<PetscInt>(nodes.size()),
                                             nodes.data(), PETSC_COPY_VALUES, l2g_.out()));
  ghost_nodes_.assign(nodes.begin() + mesh_.num_owned, nodes.end());

  // Owned node coordinates and the six rigid-body modes for AMG.
  INERTIA_PETSC(VecCreateMPI(comm_, num_owned_dofs(), num_global_dofs(), coordinates_.out()));
  INERTIA_PETSC(VecSetBlockSize(coordinates_, 3));
  {
    petsc::Array x(coordinates_);
    std::copy(mesh_.coords.begin(), mesh_.coords.begin() + 3 * mesh_.num_owned, x.span().begin());
  }
  INERTIA_PETSC(MatNullSpaceCreateRigidBody(coordinates_, rigid_body_modes_.out()));
  coo_values_.resize(coo_size_);
}

petsc::Vector Assembler::create_vector() const {
  petsc::Vector v;
  INERTIA_PETSC(VecCreateGhostBlock(comm_, 3, num_owned_dofs(), num_global_dofs(),
                                    static_cast<PetscInt>(ghost_nodes_.size()), ghost_nodes_.data(),
                                    v.out()));
  INERTIA_PETSC(VecZeroEntries(v));
  return v;
}

petsc::Matrix Assembler::create_matrix() const {
  petsc::Matrix A;
  INERTIA_PETSC(MatCreate(comm_, A.out()));
  INERTIA_PETSC(MatSetSizes(A, num_owned_dofs(), num_owned_dofs(), num_global_dofs(),
                            num_global_dofs()));
  INERTIA_PETSC(MatSetType(A, MATAIJ));
  INERTIA_PETSC(MatSetBlockSize(A, 3));
  INERTIA_PETSC(MatSetLocalToGlobalMapping(A, l2g_, l2g_));
  // COO pattern: every (row, column) DOF pair of every element; PETSc sums duplicates.
  std::vector<PetscInt> rows(coo_size_), cols(coo_size_);
  std::size_t k = 0;
  for (auto c : element_cells_) {
    const auto nodes = mesh_.nodes_of(c);
    const auto n = nodes.size();
    for (std::size_t a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i)
        for (std::size_t b = 0; b < n; ++b)
          for (int j = 0; j < 3; ++j, ++k) {
            rows[k] = static_cast<PetscInt>(3 * nodes[a] + i);
            cols[k] = static_cast<PetscInt>(3 * nodes[b] + j);
          }
  }
  INERTIA_PETSC(MatSetPreallocationCOOLocal(A, static_cast<PetscCount>(coo_size_), rows.data(),
                                            cols.data()));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  INERTIA_PETSC(MatSetNearNullSpace(A, rigid_body_modes_));
  return A;
}

void Assembler::gather_coords(std::int64_t c, double* x) const {
  const auto nodes = mesh_.nodes_of(c);
  for (std::size_t a = 0; a < nodes.size(); ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * nodes[a] + i];
}

template <typename Kernel>
void Assembler::assemble_matrix(Mat A, Kernel&& kernel) const {
  std::size_t k = 0;
  double x[max_dofs];
  for (auto c : element_cells_) {
    const CellType t = mesh_.cell_types[c];
    const int nd = 3 * info(t).num_nodes;
    gather_coords(c, x);
    kernel(t, std::span<const double>(x, nd), materials_[cell_material_[c]],
           std::span<double>(coo_values_.data() + k, static_cast<std::size_t>(nd * nd)));
    k += static_cast<std::size_t>(nd * nd);
  }
  INERTIA_PETSC(MatSetValuesCOO(A, coo_values_.data(), INSERT_VALUES));
}

void Assembler::assemble_stiffness(Mat K) const {
  assemble_matrix(K, [](CellType t, auto x, const ElasticMaterial& m, auto Ke) {
    fe::stiffness_linear_elastic(t, x, m.lambda(), m.mu(), Ke);
  });
}

void Assembler::assemble_consistent_mass(Mat M) const {
  assemble_matrix(M, [](CellType t, auto x, const ElasticMaterial& m, auto Me) {
    fe::mass_consistent(t, x, m.density, Me);
  });
}

template <typename Kernel>
void Assembler::add_cell_vectors(Vec f, Kernel&& kernel) const {
  // Accumulate into the local form (owned + ghosts), then sum the ghost parts into their owners.
  petsc::Vector contribution = create_vector();
  Vec local;
  INERTIA_PETSC(VecGhostGetLocalForm(contribution, &local));
  {
    petsc::Array lf(local);
    double x[max_dofs], fe_vec[max_dofs];
    for (std::int64_t c = 0; c < mesh_.num_cells(); ++c) {
      const CellType t = mesh_.cell_types[c];
      const int nd = 3 * info(t).num_nodes;
      gather_coords(c, x);
      std::fill(fe_vec, fe_vec + nd, 0.0);
      if (!kernel(c, t, std::span<const double>(x, nd), std::span<double>(fe_vec, nd))) continue;
      const auto nodes = mesh_.nodes_of(c);
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i) lf[static_cast<PetscInt>(3 * nodes[a] + i)] += fe_vec[3 * a + i];
    }
  }
  INERTIA_PETSC(VecGhostRestoreLocalForm(contribution, &local));
  INERTIA_PETSC(VecGhostUpdateBegin(contribution, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(contribution, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecAXPY(f, 1.0, contribution));
}

void Assembler::assemble_lumped_mass(Vec m) const {
  INERTIA_PETSC(VecZeroEntries(m));
  add_cell_vectors(m, [&](std::int64_t c, CellType t, auto x, auto me) {
    if (cell_material_[c] < 0) return false;
    double nodal[fe::max_nodes];
    const int n = info(t).num_nodes;
    fe::mass_lumped(t, x, materials_[cell_material_[c]].density, std::span<double>(nodal, n));
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) me[3 * a + i] = nodal[a];
    return true;
  });
}

void Assembler::add_gravity(const std::array<double, 3>& g, Vec f) const {
  add_cell_vectors(f, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
    if (cell_material_[c] < 0) return false;
    const double rho = materials_[cell_material_[c]].density;
    const double b[3] = {rho * g[0], rho * g[1], rho * g[2]};
    fe::body_force(t, x, b, fe_vec);
    return true;
  });
}

void Assembler::add_traction(int region, const std::array<double, 3>& traction, Vec f) const {
  add_cell_vectors(f, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
    if (mesh_.cell_regions[c] != region || info(t).dim != 2) return false;
    fe::face_traction(t, x, traction.data(), fe_vec);
    return true;
  });
}

void Assembler::add_pressure(int region, double pressure, Vec f) const {
  add_cell_vectors(f, [&](std::int64_t c, CellType t, auto x, auto fe_vec) {
    if (mesh_.cell_regions[c] != region || info(t).dim != 2) return false;
    fe::face_pressure(t, x, pressure, fe_vec);
    return true;
  });
}

void Assembler::cell_stress(Vec u, CellStress& out) const {
  const auto ncells = static_cast<std::size_t>(mesh_.num_cells());
  out.strain.assign(6 * ncells, 0.0);
  out.stress.assign(6 * ncells, 0.0);
  out.von_mises.assign(ncells, 0.0);
  INERTIA_PETSC(VecGhostUpdateBegin(u, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(u, INSERT_VALUES, SCATTER_FORWARD));
  Vec local;
  INERTIA_PETSC(VecGhostGetLocalForm(u, &local));
  {
    petsc::ConstArray ul(local);
    double x[max_dofs], ue[max_dofs];
    for (auto c : element_cells_) {
      const CellType t = mesh_.cell_types[c];
      const int nd = 3 * info(t).num_nodes;
      gather_coords(c, x);
      const auto nodes = mesh_.nodes_of(c);
      for (std::size_t a = 0; a < nodes.size(); ++a)
        for (int i = 0; i < 3; ++i) ue[3 * a + i] = ul[static_cast<PetscInt>(3 * nodes[a] + i)];
      const auto& m = materials_[cell_material_[c]];
      fe::strain_stress_linear_elastic(t, std::span<const double>(x, nd),
                                       std::span<const double>(ue, nd), m.lambda(), m.mu(),
                                       &out.strain[6 * c], &out.stress[6 * c]);
      out.von_mises[c] = fe::von_mises(&out.stress[6 * c]);
    }
  }
  INERTIA_PETSC(VecGhostRestoreLocalForm(u, &local));
}

double Assembler::total_mass() const {
  double local = 0, x[max_dofs];
  for (auto c : element_cells_) {
    const CellType t = mesh_.cell_types[c];
    gather_coords(c, x);
    local += materials_[cell_material_[c]].density *
             fe::measure(t, std::span<const double>(x, 3 * info(t).num_nodes));
  }
  double global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_));
  return global;
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
