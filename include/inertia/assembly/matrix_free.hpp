#pragma once
/// \file matrix_free.hpp
/// Matrix-free linear-elastic stiffness (case key `time.operator: matrix_free`): y = K x
/// computed element by element from precomputed quadrature-point data, never storing K.
///
/// Stored per hex8 element: at each 2x2x2 Gauss point G = J^-1 sqrt(w detJ mu) / 8 (9 doubles),
/// and lambda / mu once: 73 doubles (584 B) plus 8 node offsets (32 B). The stress is linear in
/// the gradient, so P = S(R G) G^T with S(H) = (lambda/mu) tr(H) I + H + H^T is w detJ sigma J^-T
/// (R: 8 x the reference gradient of u); f_a = sum over the points of P dN_a. The reference
/// gradients are sum-factorised: for Q1 at the 2x2x2 Gauss points du/dxi does not depend on xi,
/// so three butterflies (sums and differences along xi, eta, zeta) of the 8 corner values and one
/// bilinear evaluation at the 4 (eta, zeta) points per direction give all 72 derivatives of a
/// component in about 47 additions and multiply-adds (576 multiply-adds directly), and the
/// transpose about 66; the rest is 63 per point (H = R G, S, P = S G^T). tet4: the physical
/// gradients of nodes 1..3 times sqrt(V mu) (node 0's is minus their sum) and lambda / mu,
/// 10 doubles (80 B) plus 4 node offsets (16 B); two tets that share a face (paired greedily in
/// mesh order: all of the box generator's) go in one lane, 5 nodes read and written instead of 8
/// (20 doubles and 5 offsets, 90 B per tet). A product then reads about 616 B per hex8 and
/// 90-96 B per tet4 (on a grid about 620 and 560 B per node) plus the vectors, against 76 B per
/// 3x3 block of the assembled BAIJ K (27 blocks per node on a hex8 grid, 15 on its tet4 split:
/// about 2 KB and 1.1 KB per node).
///
/// Elements go in batches of 8 (one SIMD lane each, structure of arrays) whose lanes share no
/// node, filled greedily in mesh order so a batch holds nearby elements. With AVX-512 (chosen at
/// run time) a batch reads its nodes with two 3-wide masked loads per register and a register
/// transpose, adds its forces back lane by lane (x and y interleaved in a register, then a
/// 2-wide and a 1-wide add per node), and prefetches the element data two batches (tet4: four)
/// ahead into L2; elsewhere the same arithmetic runs with scalar gathers and scatters (AVX2 and
/// baseline x86-64 builds). The ghost exchange of x overlaps the elements that touch owned nodes
/// only.
///
/// A reduced hex8 (formulation reduced, fe/hex8_technology.hpp) stores sqrt(V mu) b (24 mean
/// gradients), lambda / mu and sqrt(C) gamma (32 hourglass vectors): 57 doubles (456 B) plus 8
/// node offsets, and costs about 300 multiply-adds (the one-point stress, 12 hourglass modes);
/// the lanes as for tet4 (scalar gathers, or AVX-512 masked loads).

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "inertia/assembly/assembler.hpp"

namespace inertia {

class MatrixFreeElasticity {
 public:
  /// Collective. Precomputes the quadrature data of the linear-elastic solids of `elements`.
  /// Throws InputError (on every rank) if some element cell is not a linear-elastic hex8 (full
  /// or reduced) or tet4 (the matrix-free kernels cover exactly those) or has det J <= 0 at a
  /// quadrature point.
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
  /// std::allocator with 64-byte alignment (a cache line, an AVX-512 register).
  template <class T>
  struct CacheAligned {
    using value_type = T;
    CacheAligned() = default;
    template <class U>
    CacheAligned(const CacheAligned<U>&) {}
    T* allocate(std::size_t n) {
      return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
    }
    void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
    bool operator==(const CacheAligned&) const { return true; }
  };
  struct Batches {
    std::int64_t count = 0;
    std::vector<std::int32_t> nodes;  ///< [batch][node][lane] 3 x local node (hex8: corners
                                      ///< lexicographic)
    std::vector<double, CacheAligned<double>> data;  ///< [batch][73, 10 or 20][lane]
  };
  enum class Kind { hex8, tet4, tet4_pair, hex8_reduced };
  /// Batches of `items`: cells ({c, -1}), or for tet4_pair two tets sharing a face.
  void add_batches(const std::vector<std::array<std::int64_t, 2>>& items,
                   const ElementAssignment& elements, Kind kind, Batches& out) const;
  void apply(const double* x, double* y, bool interior) const;

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  Batches hex_interior_, hex_boundary_, tet_interior_, tet_boundary_;
  Batches tet_pair_interior_, tet_pair_boundary_;
  Batches reduced_interior_, reduced_boundary_;  ///< hex8 of formulation reduced
  petsc::Vector x_ghosted_, y_ghosted_;          ///< used when the caller's vectors are not ghosted
};

}  // namespace inertia
