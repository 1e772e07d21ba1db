#pragma once
/// \file assembler.hpp
/// The only place that knows both the element kernels and PETSc: DOF layout (block size 3,
/// ghosted vectors), the COO sparsity pattern (built once), and assembly of mass, stiffness,
/// loads and cell fields from element kernels.

#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

/// Linear-elastic material data of one material region, in the user's units.
struct ElasticMaterial {
  double density = 0;
  double youngs_modulus = 0;
  double poissons_ratio = 0;
  double lambda() const {
    return youngs_modulus * poissons_ratio / ((1 + poissons_ratio) * (1 - 2 * poissons_ratio));
  }
  double mu() const { return youngs_modulus / (2 * (1 + poissons_ratio)); }
};

/// Per-cell strain, stress (6 each, VTK order) and von Mises stress of the local element cells
/// (zero for cells without a solid material).
struct CellStress {
  std::vector<double> strain, stress, von_mises;
};

class Assembler {
 public:
  /// Collective. `cell_material[c]` is the index into `materials` of local cell c, or -1 for
  /// cells without a solid material. Builds the local-to-global map and the COO pattern.
  Assembler(MPI_Comm comm, const LocalMesh& mesh, std::vector<int> cell_material,
            std::vector<ElasticMaterial> materials);

  MPI_Comm comm() const { return comm_; }
  const LocalMesh& mesh() const { return mesh_; }
  PetscInt num_owned_dofs() const { return 3 * mesh_.num_owned; }
  PetscInt num_global_dofs() const { return static_cast<PetscInt>(3 * mesh_.num_global_nodes); }

  /// Collective. A zeroed ghosted vector (block size 3): owned DOFs, then ghost-node DOFs in the
  /// local form.
  petsc::Vector create_vector() const;
  /// Collective. An AIJ matrix with block size 3, the local-to-global map, the COO pattern of the
  /// element cells preallocated, and the rigid-body near-null space attached. Values unset.
  petsc::Matrix create_matrix() const;

  /// Collective. Assembles the linear-elastic stiffness into a matrix from create_matrix().
  void assemble_stiffness(Mat K) const;
  /// Collective. Assembles the consistent mass into a matrix from create_matrix().
  void assemble_consistent_mass(Mat M) const;
  /// Collective. Lumped nodal masses (the same value in the 3 DOFs of a node) into a vector
  /// from create_vector().
  void assemble_lumped_mass(Vec m) const;

  /// Collective. Adds the consistent nodal forces of the body acceleration g (force = rho g) to f.
  void add_gravity(const std::array<double, 3>& g, Vec f) const;
  /// Collective. Adds consistent nodal forces of a uniform traction (force per area) or pressure
  /// (along the inward normal) on the face cells of `region` held by this rank.
  void add_traction(int region, const std::array<double, 3>& traction, Vec f) const;
  void add_pressure(int region, double pressure, Vec f) const;

  /// Collective (ghost update of u). Cell strain/stress from displacement u.
  void cell_stress(Vec u, CellStress& out) const;

  /// Total mass (sum over ranks of rho * volume of the element cells). Collective.
  double total_mass() const;

 private:
  template <typename Kernel>
  void assemble_matrix(Mat A, Kernel&& kernel) const;
  template <typename Kernel>
  void add_cell_vectors(Vec f, Kernel&& kernel) const;
  void gather_coords(std::int64_t c, double* x) const;

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  std::vector<int> cell_material_;
  std::vector<ElasticMaterial> materials_;
  std::vector<std::int64_t> element_cells_;  ///< local cells with a material
  petsc::LocalToGlobal l2g_;
  petsc::Vector coordinates_;                ///< owned node coordinates, block size 3
  petsc::NullSpace rigid_body_modes_;
  std::vector<PetscInt> ghost_nodes_;
  std::size_t coo_size_ = 0;
  mutable std::vector<PetscScalar> coo_values_;  ///< reused by every assembly
};

/// Rejects inverted or degenerate 3D cells: throws InputError naming the first bad cell's file tag,
/// type, centroid and scaled Jacobian. Serial (rank 0, before distribution).
void check_cell_quality(const MeshData& mesh, double min_scaled_jacobian = 1e-6);

}  // namespace inertia
