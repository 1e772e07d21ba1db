#pragma once
/// \file matrix_free.hpp
/// Matrix-free linear-elastic stiffness (case key `time.operator: matrix_free`): y = K x
/// computed element by element from precomputed quadrature-point data, never storing K.
///
/// Per hex8 element and Gauss point (2x2x2) it keeps J^-1 and the two Lame factors times the
/// quadrature weight and det J (11 doubles; tet4: its 4 physical shape gradients and the two
/// factors times the volume, 14 doubles per element). A product then reads 704 B per hex8
/// (112 B per tet4) plus the vectors, against about 2 KB per node for the assembled AIJ K. The
/// elements are processed in batches of 8 (one SIMD lane each), structure-of-arrays, compiled
/// for AVX-512, AVX2 and baseline x86-64 and chosen at run time; the ghost exchange of x
/// overlaps the elements that touch owned nodes only.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "inertia/assembly/assembler.hpp"

namespace inertia {

class MatrixFreeElasticity {
 public:
  /// Collective. Precomputes the quadrature data of the linear-elastic solids of `elements`.
  /// Throws InputError (on every rank) if some element cell is not a linear-elastic hex8 or
  /// tet4 (the matrix-free kernel covers exactly those).
  MatrixFreeElasticity(MPI_Comm comm, const LocalMesh& mesh, const ElementAssignment& elements,
                       petsc::Vector layout);
  MatrixFreeElasticity(const MatrixFreeElasticity&) = delete;
  MatrixFreeElasticity& operator=(const MatrixFreeElasticity&) = delete;

  /// Collective. y = K x (x, y: vectors of the DOF layout; ghosted or not).
  void mult(Vec x, Vec y) const;

  /// Collective. A MATSHELL whose MatMult is mult() (this object must outlive it).
  petsc::Matrix create_shell() const;

  /// Bytes one product reads and writes on this rank (element data, indices, vectors).
  std::size_t bytes_per_product() const;

 private:
  static constexpr int lanes = 8;
  struct Batches {
    std::int64_t count = 0;
    std::vector<std::int32_t> nodes;  ///< [batch][node][lane] local node index
    std::vector<double> data;         ///< [batch][point][11 or 14][lane]
  };
  void add_cells(const std::vector<std::int64_t>& cells, const ElementAssignment& elements,
                 CellType type, Batches& out) const;
  void apply(const double* x, double* y, bool interior) const;

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  Batches hex_interior_, hex_boundary_, tet_interior_, tet_boundary_;
  petsc::Vector x_ghosted_, y_ghosted_;  ///< used when the caller's vectors are not ghosted
};

}  // namespace inertia
