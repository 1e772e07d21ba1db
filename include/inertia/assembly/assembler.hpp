#pragma once
/// \file assembler.hpp
/// The only place that knows both the element kernels and PETSc: DOF layout (block size 3,
/// ghosted vectors), the sparsity pattern (built once), and assembly of mass, stiffness,
/// internal and dashpot forces, loads and cell fields from element kernels.
///
/// Element kinds on a rank's cells: solids (3D cells with a material: its density, hex8
/// formulation and constitutive model, material/constitutive.hpp), springs
/// (line2 cells with a spring set; nonlinear: they act along the current axis) and point-mass
/// cells (any cell of a point-mass region whose nodes need a diagonal entry in the pattern).

#include <mpi.h>

#include <algorithm>
#include <array>
#include <exception>
#include <functional>
#include <span>
#include <vector>

#include "inertia/assembly/matrix_pattern.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

/// The springs of one region: Hooke stiffness, axial dashpot, rest length (negative: the length
/// in the mesh).
struct SpringProperties {
  double stiffness = 0;
  double damping = 0;
  double rest_length = -1;
};

/// What each local cell is, for the assembler.
struct ElementAssignment {
  std::vector<int> cell_material;                  ///< per local cell: index into materials, or -1
  std::vector<material::SolidMaterial> materials;  ///< density, kinematics, model
  std::vector<int> cell_spring;                    ///< per local cell: index into springs, or -1
  std::vector<SpringProperties> springs;
  std::vector<char> cell_point;  ///< per local cell: needs its nodes' diagonal blocks
};

/// Per-cell strain, stress (6 each, VTK order) and von Mises stress of the local cells (zero for
/// cells without a solid material).
struct CellStress {
  std::vector<double> strain, stress, von_mises;
};

/// Nodal averages of the cell fields (Assembler::nodal_average), per local node (owned, then
/// ghosts): strain and stress (6 each, VTK order) and the von Mises stress of the averaged stress.
/// Sized on first use and reused.
struct NodalStress {
  std::vector<double> strain, stress, von_mises;
  std::vector<double> volumes;  ///< per local cell: its volume (the weight), 0 for non-solids
  petsc::Vector sums;  ///< ghosted, 13 per node: the weighted sums of stress, strain, the weight
};

/// Nodal averages of values given on a set of cells (Assembler::nodal_average of cell rows: a
/// point state's cell averages), per local node (owned, then ghosts). Sized on first use and
/// reused: the cells and the number of components stay those of the first call.
struct NodalCellAverage {
  int components = 0;
  /// Component-major: component k of local node n at [k * nodes + n] (an array per component).
  std::vector<double> values;
  std::vector<double> volumes;  ///< per cell of the set: its volume (the weight)
  petsc::Vector sums;           ///< ghosted, components + 1 per node: the weighted sums, the weight
};

/// A point of a solid cell of this rank where strain and stress are sampled
/// (Assembler::solid_containing, nearest_solid): the cell, the point's reference coordinates there,
/// and the physical shape-function gradients at them, so that sampling is one product per step.
struct SolidPoint {
  std::int64_t cell = -1;      ///< local cell; -1: none
  std::array<double, 3> xi{};  ///< reference coordinates in the cell
  std::array<double, 3> at{};  ///< their physical position: the point asked for when inside
  /// From the point asked for to `at`: 0 when the cell contains the point; otherwise `at` is the
  /// cell's point nearest it (fe::nearest_reference_point), on the cell's boundary.
  double distance = 0;
  std::array<double, 3 * fe::max_nodes> gradients{};  ///< dN_a / dx_j at xi, 3 per node
  /// The cell's mean gradients (fe::hex8_mean_gradients), for a bbar or reduced hex8: the strain
  /// there is its formulation's (fe::apply_technology).
  std::array<double, 3 * fe::max_nodes> mean_gradients{};
};

class Assembler;
namespace detail {
struct SolidCells;
}

/// One assembly of a matrix with the assembler's pattern (Assembler::assemble): the force terms
/// add their cells' matrices into it (owned rows straight into the PETSc matrix's arrays, ghost
/// rows into a buffer sent to their owners when the terms are done).
class MatrixSum {
 public:
  /// kernel(c, type, x, Ke) writes the (3n)^2 entries of local cell c (zeroed before; x holds its
  /// node coordinates). A kernel may throw SolverError for a configuration it cannot take (an
  /// inverted element, a collapsed spring): the loop goes on with the next cell, so that every
  /// rank reaches the collective insertion, and the first error is rethrown on every rank with
  /// the element's id when the assembly ends. Every cell must be in the pattern.
  template <typename Kernel>
  void add_cells(std::span<const std::int64_t> cells, Kernel&& kernel);
  /// Adds a 3x3 block (row-major) to the diagonal block of owned local node n (a node of an
  /// element cell: in the pattern). For nodal terms (contact).
  void add_node_block(std::int32_t n, const double* k33);

 private:
  friend class Assembler;
  explicit MatrixSum(const Assembler& a) : a_(a) {}
  const Assembler& a_;
  std::exception_ptr error_;
};

/// One assembly of a vector (Assembler::assemble): the terms add their cells' vectors (or
/// nodal values) into the local form, whose ghost parts are then summed into their owners.
class VectorSum {
 public:
  /// kernel(c, type, x, fe) writes the 3n entries of local cell c (zeroed before) and returns
  /// true, or returns false if the cell adds nothing. SolverError: as MatrixSum::add_cells.
  template <typename Kernel>
  void add_cells(std::span<const std::int64_t> cells, Kernel&& kernel);
  /// The local form (owned DOFs, then ghost-node DOFs): nodal contributions go straight here.
  std::span<PetscScalar> local() { return local_; }
  /// For kernels that add into local() themselves: local cell c could not be evaluated (as a
  /// SolverError from add_cells' kernel: the first is rethrown on every rank when the sum ends).
  void fail(std::int64_t c, const std::exception& e);

 private:
  friend class Assembler;
  VectorSum(const Assembler& a, std::span<PetscScalar> local) : a_(a), local_(local) {}
  const Assembler& a_;
  std::span<PetscScalar> local_;
  std::exception_ptr error_;
};

class Assembler {
 public:
  /// Degrees of freedom of the largest cell.
  static constexpr int max_cell_dofs = 3 * fe::max_nodes;
  /// Collective. Builds the local-to-global map and the owned node coordinates. The sparsity
  /// pattern (about 130 B per DOF on a hex8 grid) is built by the first create_matrix() or matrix
  /// assemble(), which are collective: a run that assembles no matrix (matrix-free) never holds
  /// it.
  Assembler(MPI_Comm comm, const LocalMesh& mesh, ElementAssignment elements);

  MPI_Comm comm() const { return comm_; }
  const LocalMesh& mesh() const { return mesh_; }
  /// What each local cell is (its material, its spring set, ...).
  const ElementAssignment& elements() const { return elements_; }
  PetscInt num_owned_dofs() const { return 3 * mesh_.num_owned; }
  PetscInt num_global_dofs() const { return static_cast<PetscInt>(3 * mesh_.num_global_nodes); }
  /// Collective. A zeroed ghosted vector (block size 3): owned DOFs, then ghost-node DOFs in the
  /// local form.
  petsc::Vector create_vector() const;
  /// Storage of the assembled matrices: AIJ (what every preconditioner takes) or BAIJ with 3x3
  /// blocks (a third of the index data: the fastest MatMult, for explicit schemes).
  enum class MatrixFormat { aij, blocked };
  /// Collective. A matrix with block size 3, the local-to-global map, the exact pattern of the
  /// element cells (every block of every owned row, from all ranks) and, for AIJ (what AMG
  /// takes), the rigid-body near-null space attached; values zero. AIJ matrices use CSR arrays
  /// built here without a copy or an insertion pass. Every matrix of one assembler has the same
  /// pattern.
  petsc::Matrix create_matrix(MatrixFormat format = MatrixFormat::aij) const;
  /// True once the sparsity pattern is built (by the first create_matrix or matrix assemble).
  bool has_pattern() const { return pattern_.built(); }
  /// Copies the values of `from` into `to`, two matrices of create_matrix (either format; not
  /// collective: each rank copies its rows, no insertion pass). An AIJ operator's BAIJ copy
  /// multiplies about 1.5x faster (a third of the index data).
  void copy_values(Mat from, Mat to) const;

  /// Collective. A = the sum of what `fill` adds (the force terms' cell matrices), with the
  /// ghost rows' values sent to their owners; then the first element error of any rank is
  /// rethrown on every rank.
  void assemble(Mat A, const std::function<void(MatrixSum&)>& fill) const;
  /// Collective. f += the sum of what `fill` adds (cell vectors and nodal values into the local
  /// form, ghost parts summed into their owners); element errors as above.
  void assemble(Vec f, const std::function<void(VectorSum&)>& fill) const;
  /// Collective. d = the diagonal of the matrix `fill` would assemble (the cell matrices' diagonal
  /// entries summed, ghost parts into their owners), without a matrix or its pattern.
  void assemble_diagonal(Vec d, const std::function<void(MatrixSum&)>& fill) const;
  /// The node coordinates of local cell c, 3 per node.
  void cell_coordinates(std::int64_t c, double* x) const { gather_coords(c, x); }
  /// A SolverError naming local cell c (file tag, type, centroid) and the kernel's message.
  std::exception_ptr element_error(std::int64_t c, const std::exception& e) const;

  /// Collective (ghost update of u). Cell strain/stress from displacement u: small strain and
  /// linear stress for linear-elastic cells, Green-Lagrange strain and Cauchy stress for
  /// nonlinear materials.
  void cell_stress(Vec u, CellStress& out) const;

  /// Collective. The volume-weighted average at every node of the cell values of the solid cells
  /// around it (over all ranks: owned and ghost nodes agree), and the von Mises stress of the
  /// averaged stress; zero at nodes of no solid cell. `cells` is what cell_stress gave.
  void nodal_average(const CellStress& cells, NodalStress& out) const;
  /// Collective. The volume-weighted average at every node of `values` (`components` per cell of
  /// `cells`, local indices, cell-major in that order) over the cells of `cells` around it (over
  /// all ranks: owned and ghost nodes agree); zero at nodes of none of them. `components` is the
  /// same on every rank (a rank may have no cells). Allocates nothing after the first call.
  void nodal_average(std::span<const std::int64_t> cells, std::span<const double> values,
                     int components, NodalCellAverage& out) const;

  /// The solid cell of this rank that contains p (the lowest file tag of several, so that the
  /// choice does not depend on the partition), sampled at p; cell -1 if none does. Serial.
  SolidPoint solid_containing(const std::array<double, 3>& p) const;
  /// For a p in no solid cell: the solid cell of this rank nearest p among those whose bounding
  /// box is within `reach` of p (ties: the lowest file tag), sampled at its point nearest p;
  /// cell -1 if there is none. Serial.
  SolidPoint nearest_solid(const std::array<double, 3>& p, double reach) const;
  /// Strain and stress (6 each, VTK order) at a SolidPoint of this rank, from the local form of u
  /// (owned and ghost entries, ghosts up to date): what cell_stress computes, at the point instead
  /// of averaged over the cell (NaN for an inverted nonlinear element). Allocates nothing.
  void point_stress(std::span<const PetscScalar> u_local, const SolidPoint& point, double* strain,
                    double* stress) const;

  /// Collective. Attaches to A the six rigid-body modes of the deformed configuration X + u
  /// (its near-null space for AMG).
  void attach_rigid_body_modes(Mat A, Vec u) const;
  /// Collective. The unit translation along axis d: 1 in component d of every node with
  /// translations, 0 at the rotation nodes of beams (the influence vector of a ground motion,
  /// the direction of an effective modal mass).
  petsc::Vector unit_translation(int d) const;
  /// Collective. The unit rigid rotation about axis d through x0: e_d x (x - x0) at every node
  /// with translations, e_d at the rotation nodes of beams (the influence vector of a rotational
  /// effective modal mass).
  petsc::Vector unit_rotation(int d, const std::array<double, 3>& x0) const;
  /// Collective. The node positions X at every node with translations, 0 at the rotation nodes
  /// (r_d.M X / r_d.M r_d is the centre of mass's coordinate d).
  petsc::Vector positions() const;

 private:
  /// Collective. The six rigid-body modes at the positions x (owned entries, 3 per node): PETSc's
  /// for a model without rotations; with beams, a rotation w moves a node by w x x and turns a
  /// rotation node by w (orthonormalised).
  void rigid_body_modes(Vec x, MatNullSpace* modes) const;
  void gather_coords(std::int64_t c, double* x) const;
  /// What the cell fields (src/assembly/cell_fields.cpp) read.
  detail::SolidCells solid_cells() const;
  /// Adds the cell matrix Ke (3n x 3n) of local cell c (in the pattern) to the matrix being
  /// assembled (MatrixPattern::add_cell_matrix).
  void add_cell_matrix(std::int64_t c, const double* Ke) const { pattern_.add_cell_matrix(c, Ke); }
  /// Adds k33 to the diagonal block of owned node n of the matrix being assembled.
  void add_node_matrix(std::int32_t n, const double* k33) const {
    pattern_.add_node_matrix(n, k33);
  }
  /// Collective. Builds the pattern unless it is built.
  void ensure_pattern() const { pattern_.build(); }
  friend class MatrixSum;
  MPI_Comm comm_;
  const LocalMesh& mesh_;
  ElementAssignment elements_;
  std::vector<std::int64_t> solid_cells_;
  petsc::LocalToGlobal l2g_;
  petsc::Vector coordinates_;  ///< owned node coordinates, block size 3
  std::vector<PetscInt> ghost_nodes_;
  /// The sparsity pattern and the matrices' storage (pattern.cpp), built on first use (collective),
  /// hence mutable.
  mutable MatrixPattern pattern_;
  /// The rigid-body modes, made by the first AIJ create_matrix (AMG reads them from the
  /// preconditioning matrix; BAIJ matrices only multiply).
  mutable petsc::NullSpace rigid_body_modes_;
  mutable petsc::Vector scratch_;   ///< ghosted, reused by add_cell_vectors
  mutable petsc::Vector deformed_;  ///< X + u, reused by attach_rigid_body_modes
};

template <typename Kernel>
void MatrixSum::add_cells(std::span<const std::int64_t> cells, Kernel&& kernel) {
  double x[Assembler::max_cell_dofs];
  double Ke[Assembler::max_cell_dofs * Assembler::max_cell_dofs];
  for (const std::int64_t c : cells) {
    const CellType t = a_.mesh().cell_types[c];
    const int nd = 3 * info(t).num_nodes;
    a_.cell_coordinates(c, x);
    std::fill(Ke, Ke + nd * nd, 0.0);
    try {
      kernel(c, t, std::span<const double>(x, nd),
             std::span<double>(Ke, static_cast<std::size_t>(nd * nd)));
    } catch (const SolverError& err) {
      if (!error_) error_ = a_.element_error(c, err);
      continue;
    }
    a_.add_cell_matrix(c, Ke);
  }
}

template <typename Kernel>
void VectorSum::add_cells(std::span<const std::int64_t> cells, Kernel&& kernel) {
  double x[Assembler::max_cell_dofs], fe_vec[Assembler::max_cell_dofs];
  for (const std::int64_t c : cells) {
    const CellType t = a_.mesh().cell_types[c];
    const int nd = 3 * info(t).num_nodes;
    a_.cell_coordinates(c, x);
    std::fill(fe_vec, fe_vec + nd, 0.0);
    try {
      if (!kernel(c, t, std::span<const double>(x, nd), std::span<double>(fe_vec, nd))) continue;
    } catch (const SolverError& e) {
      if (!error_) error_ = a_.element_error(c, e);
      continue;
    }
    const auto nodes = a_.mesh().nodes_of(c);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int i = 0; i < 3; ++i) local_[3 * nodes[a] + i] += fe_vec[3 * a + i];
  }
}

/// Rejects inverted or degenerate 3D cells: throws InputError naming the first bad cell's file tag,
/// type, centroid and scaled Jacobian. Serial (rank 0, before distribution).
void check_cell_quality(const MeshData& mesh, double min_scaled_jacobian = 1e-6);

}  // namespace inertia
