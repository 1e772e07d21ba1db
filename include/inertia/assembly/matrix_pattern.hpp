#pragma once
/// \file matrix_pattern.hpp
/// The sparsity pattern of an assembler's matrices and their storage (src/assembly/pattern.cpp):
/// the block pattern of a rank's element rows, built once; the owned rows' CSR arrays (the ghost
/// rows' blocks included, from their owners); matrices made on those arrays; the sum of cell
/// matrices into a matrix's arrays (owned rows in place, ghost rows sent to their owners).
/// Assembler owns one and forwards to it.

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/partition/partition.hpp"

namespace inertia {

/// The block pattern of a rank's element rows and the owned rows' layout, built once
/// (collective, src/assembly/pattern_layout.cpp); MatrixPattern fills matrices on it.
class PatternLayout {
 public:
  /// The pattern of `cells` (local cells of `mesh`, in that order), built by build().
  PatternLayout(MPI_Comm comm, const LocalMesh& mesh, std::vector<std::int64_t> cells);

  /// True once build() ran.
  bool built() const { return built_; }
  /// Collective. Builds the block pattern and the owned rows (once).
  void build();

 protected:
  MPI_Comm comm_;
  const LocalMesh& mesh_;
  std::vector<std::int64_t> cells_;          ///< local cells in the sparsity pattern
  std::vector<std::int64_t> pattern_index_;  ///< per local cell: its index in cells_, or -1
  bool built_ = false;

  /// Local rows (owned nodes, then ghost nodes), each with its column blocks (local node
  /// indices) in global order: the pattern of this rank's elements.
  std::vector<std::int64_t> block_ptr_;
  std::vector<std::int32_t> block_cols_;
  /// Ghost nodes below the owned range: local node l has place order(l) in global order (block
  /// columns are sorted by it).
  std::int32_t ghosts_below_ = 0;
  /// Per pattern cell (pattern_index_), from cell_block_offset_[e]: for each of its n x n blocks
  /// (row node a, column node b) the block's place in row a (block_cols_ from block_ptr_[a]),
  /// found once when the pattern is built: add_cell_matrix looks it up instead of searching
  /// (2 B per block: 43 B/DOF for hex8, against 8 B for the offsets it held before).
  std::vector<std::uint16_t> cell_block_;
  std::vector<std::int64_t> cell_block_offset_;
  std::int32_t order(std::int32_t l) const {
    const std::int32_t no = mesh_.num_owned;
    return l < no ? l + ghosts_below_ : l < no + ghosts_below_ ? l - no : l;
  }
  /// One value per entry of the ghost rows (row node, row component, column block, column
  /// component: the CSR order of the local pattern), reused by every assembly.
  std::vector<PetscScalar> ghost_values_;
  /// Owned rows of the matrix: the local pattern plus the blocks other ranks' ghost rows add.
  std::vector<PetscInt> owned_ptr_;           ///< per owned node: first block below
  std::vector<PetscInt> owned_cols_;          ///< global column node of each block, sorted
  std::vector<std::int32_t> owned_left_;      ///< per owned node: blocks left of the owned columns
  std::vector<std::int32_t> owned_diag_;      ///< per owned node: blocks in the owned columns
  std::vector<char> owned_extended_;          ///< per owned node: other ranks add blocks
  std::vector<std::int32_t> owned_index_;     ///< per local block of an extended row: its index
  std::vector<PetscInt> diag_ptr_, off_ptr_;  ///< CSR row pointers of the two parts (DOF rows)
  struct Message {
    int rank;
    std::int64_t begin, count;  ///< in values
  };
  std::vector<Message> sends_, receives_;     ///< ghost-row values, per neighbour
  std::vector<std::int32_t> received_rows_;   ///< owned node of each received row
  std::vector<std::int64_t> received_ptr_;    ///< per received row: first block below
  std::vector<std::int32_t> received_index_;  ///< per received block: its index in the row
  std::vector<PetscScalar> received_values_;

 private:
  void build_blocks();
  /// Exchanges the ghost-row patterns with their owners and lays out the owned rows.
  void build_owned_rows();
  /// The ghost rows' patterns, one message per owner (rows from global node begins[p] are
  /// rank p's): (global row, block count, global block columns...) per row; sets sends_.
  std::vector<std::vector<std::int64_t>> ghost_row_messages(
      const std::vector<std::int64_t>& begins);
  /// The owned rows (owned_*): the local blocks merged with the `extra` ones other ranks add
  /// ((owned row, global column), sorted).
  void lay_out_owned_rows(const std::vector<std::pair<std::int32_t, std::int64_t>>& extra);
  /// Where the values of the received ghost rows (`in`, from ranks `from`) go: receives_ and
  /// received_*.
  void index_received_rows(const std::vector<std::vector<std::int64_t>>& in,
                           const std::vector<int>& from);
};

/// Matrices on a PatternLayout: made on its arrays, filled cell by cell, copied.
class MatrixPattern : private PatternLayout {
 public:
  using PatternLayout::build;
  using PatternLayout::built;
  using PatternLayout::PatternLayout;

  /// Collective. A matrix on the pattern: BAIJ(3) from the block CSR (`blocked`), or AIJ on CSR
  /// arrays made here without a copy or an insertion pass (owned by the matrix); the
  /// local-to-global map and, if not null, the near-null space `modes` attached; values zero.
  petsc::Matrix create_matrix(bool blocked, ISLocalToGlobalMapping l2g, MatNullSpace modes) const;
  /// Copies the values of `from` into `to`, two matrices of create_matrix (either format; not
  /// collective).
  void copy_values(Mat from, Mat to) const;

  /// Collective. A = what `fill` adds (through add_cell_matrix): A's values are zeroed, the owned
  /// rows summed in place in its diagonal and off-diagonal arrays (no copy of the matrix), the
  /// ghost rows sent to and added by their owners.
  void set_matrix_values(Mat A, const std::function<void()>& fill);
  /// While `target` is set (not empty: a local form, owned then ghost DOFs), add_cell_matrix adds
  /// only the cell matrices' diagonal entries there, without a matrix or the pattern.
  void set_diagonal_target(std::span<PetscScalar> target) { diagonal_target_ = target; }
  /// Adds the cell matrix Ke (3n x 3n) of local cell c (in the pattern): its owned rows into
  /// the arrays of the matrix being assembled, its ghost rows into the ghost buffer.
  void add_cell_matrix(std::int64_t c, const double* Ke);
  /// Adds k33 to the diagonal block of owned node n of the matrix being assembled.
  void add_node_matrix(std::int32_t n, const double* k33);

 private:
  /// The value arrays of the matrix set_matrix_values is filling (null outside it).
  struct Target {
    PetscScalar* diag = nullptr;
    PetscScalar* off = nullptr;
    bool blocked = false;
  };
  Target target_;
  std::span<PetscScalar> diagonal_target_;
  /// Block f of owned row r in target_: where its entry (0, 0) is and the strides of i and j.
  struct Block {
    PetscScalar* p;
    std::int64_t si, sj;
  };
  Block owned_block(std::int32_t r, std::int32_t f) const;
};

}  // namespace inertia
