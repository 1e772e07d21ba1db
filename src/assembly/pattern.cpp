/// The assembled matrices' storage on the sparsity pattern (matrix_pattern.hpp, MatrixPattern;
/// the pattern itself: pattern_layout.cpp).
///
/// Matrices are created directly from CSR arrays of the owned rows (the diagonal and off-diagonal
/// parts of MPIAIJ, PETSc's own layout), so no preallocation pass or insertion sort runs; an
/// assembly sums the owned rows' values in place in the matrix's arrays (no second copy of the
/// matrix: the peak memory of an assembled run is the matrix, not the matrix and its values) and
/// the ghost rows' in a buffer it then sends to their owners, which add them.

#include <algorithm>
#include <memory>

#include "inertia/assembly/matrix_pattern.hpp"
#include "inertia/core/error.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr int values_tag = 7302;

/// The CSR arrays a matrix of create_matrix uses without copying them; freed with the matrix.
struct MatrixArrays {
  std::vector<PetscInt> diag_ptr, diag_cols, off_ptr, off_cols;
  std::vector<PetscScalar> diag_values, off_values;
};

PetscErrorCode destroy_arrays(void* p) {
  delete static_cast<MatrixArrays*>(p);
  return 0;
}

/// The diagonal and off-diagonal parts' values of a matrix of create_matrix (off: null on one
/// rank), borrowed for the scope of the object: a guard like petsc.hpp's vector guards (checked
/// Gets in the constructor, Restores in the destructor, errors ignored: destructors never throw).
/// It stays here rather than in petsc.hpp because it knows create_matrix's layouts (AIJ or
/// BAIJ(3), sequential or the MPI diagonal/off-diagonal split) and has no other user.
class MatrixValues {
 public:
  MatrixValues(Mat A, bool parallel) {
    PetscBool baij = PETSC_FALSE;
    INERTIA_PETSC(PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(A), &baij, MATSEQBAIJ,
                                            MATMPIBAIJ, ""));
    blocked_ = baij;
    diag_ = A;
    if (parallel && blocked_) INERTIA_PETSC(MatMPIBAIJGetSeqBAIJ(A, &diag_, &off_, nullptr));
    if (parallel && !blocked_) INERTIA_PETSC(MatMPIAIJGetSeqAIJ(A, &diag_, &off_, nullptr));
    if (blocked_) {
      INERTIA_PETSC(MatSeqBAIJGetArray(diag_, &diag_values_));
      if (off_) INERTIA_PETSC(MatSeqBAIJGetArray(off_, &off_values_));
    } else {
      INERTIA_PETSC(MatSeqAIJGetArray(diag_, &diag_values_));
      if (off_) INERTIA_PETSC(MatSeqAIJGetArray(off_, &off_values_));
    }
  }
  MatrixValues(const MatrixValues&) = delete;
  MatrixValues& operator=(const MatrixValues&) = delete;
  ~MatrixValues() {
    if (blocked_) {
      (void)MatSeqBAIJRestoreArray(diag_, &diag_values_);
      if (off_) (void)MatSeqBAIJRestoreArray(off_, &off_values_);
    } else {
      (void)MatSeqAIJRestoreArray(diag_, &diag_values_);
      if (off_) (void)MatSeqAIJRestoreArray(off_, &off_values_);
    }
  }
  /// BAIJ: each 3x3 block stored column by column; AIJ: CSR rows.
  bool blocked() const { return blocked_; }
  PetscScalar* diag() const { return diag_values_; }
  PetscScalar* off() const { return off_values_; }

 private:
  bool blocked_ = false;
  Mat diag_ = nullptr, off_ = nullptr;
  PetscScalar *diag_values_ = nullptr, *off_values_ = nullptr;
};

}  // namespace

namespace {

void finish_matrix(Mat A, ISLocalToGlobalMapping l2g, MatNullSpace modes) {
  INERTIA_PETSC(MatSetLocalToGlobalMapping(A, l2g, l2g));
  INERTIA_PETSC(MatSetOption(A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  if (modes) INERTIA_PETSC(MatSetNearNullSpace(A, modes));
}

}  // namespace

petsc::Matrix MatrixPattern::create_matrix(bool blocked, ISLocalToGlobalMapping l2g,
                                           MatNullSpace modes) const {
  INERTIA_ASSERT(built_);
  int size = 1;
  INERTIA_MPI(MPI_Comm_size(comm_, &size));
  const PetscInt n = 3 * static_cast<PetscInt>(mesh_.num_owned);
  const PetscInt N = 3 * static_cast<PetscInt>(mesh_.num_global_nodes);
  if (blocked) {
    // BAIJ: PETSc allocates exactly from the block CSR pattern (global block columns).
    petsc::Matrix A;
    INERTIA_PETSC(MatCreate(comm_, A.out()));
    INERTIA_PETSC(MatSetSizes(A, n, n, N, N));
    INERTIA_PETSC(MatSetType(A, MATBAIJ));
    INERTIA_PETSC(MatSetBlockSize(A, 3));
    INERTIA_PETSC(
        MatSeqBAIJSetPreallocationCSR(A, 3, owned_ptr_.data(), owned_cols_.data(), nullptr));
    INERTIA_PETSC(
        MatMPIBAIJSetPreallocationCSR(A, 3, owned_ptr_.data(), owned_cols_.data(), nullptr));
    finish_matrix(A, l2g, nullptr);  // products only: no near-null space
    return A;
  }
  const std::int32_t no = mesh_.num_owned;
  const PetscInt first = static_cast<PetscInt>(mesh_.node_begin);
  auto arrays = std::make_unique<MatrixArrays>();
  MatrixArrays& a = *arrays;
  a.diag_ptr = diag_ptr_;
  a.off_ptr = off_ptr_;
  // Never empty: PETSc may take a null array for a missing one.
  a.diag_cols.resize(std::max<std::size_t>(1, static_cast<std::size_t>(diag_ptr_.back())));
  a.off_cols.resize(std::max<std::size_t>(1, static_cast<std::size_t>(off_ptr_.back())));
  a.diag_values.assign(a.diag_cols.size(), 0.0);
  a.off_values.assign(a.off_cols.size(), 0.0);
  for (std::int32_t r = 0; r < no; ++r)
    for (int i = 0; i < 3; ++i) {
      PetscInt d = diag_ptr_[3 * r + i], o = off_ptr_[3 * r + i];
      for (PetscInt b = owned_ptr_[r]; b < owned_ptr_[r + 1]; ++b) {
        const PetscInt g = owned_cols_[b];
        const bool diag = g >= first && g < first + no;
        for (int j = 0; j < 3; ++j) {
          if (diag)
            a.diag_cols[d++] = 3 * (g - first) + j;
          else
            a.off_cols[o++] = 3 * g + j;
        }
      }
    }
  INERTIA_CHECK(size > 1 || off_ptr_.back() == 0, InternalError,
                "create_matrix: off-diagonal blocks on one rank");
  petsc::Matrix A;
  if (size == 1)
    INERTIA_PETSC(MatCreateSeqAIJWithArrays(comm_, n, n, a.diag_ptr.data(), a.diag_cols.data(),
                                            a.diag_values.data(), A.out()));
  else
    INERTIA_PETSC(MatCreateMPIAIJWithSplitArrays(
        comm_, n, n, N, N, a.diag_ptr.data(), a.diag_cols.data(), a.diag_values.data(),
        a.off_ptr.data(), a.off_cols.data(), a.off_values.data(), A.out()));
  // The arrays live as long as the matrix: a container composed with it owns them.
  PetscContainer container = nullptr;
  INERTIA_PETSC(PetscContainerCreate(PETSC_COMM_SELF, &container));
  INERTIA_PETSC(PetscContainerSetPointer(container, arrays.release()));
  INERTIA_PETSC(PetscContainerSetUserDestroy(container, destroy_arrays));
  INERTIA_PETSC(PetscObjectCompose(reinterpret_cast<PetscObject>(A.get()), "inertia_csr",
                                   reinterpret_cast<PetscObject>(container)));
  INERTIA_PETSC(PetscContainerDestroy(&container));
  INERTIA_PETSC(MatSetBlockSize(A, 3));
  finish_matrix(A, l2g, modes);
  return A;
}

void MatrixPattern::copy_values(Mat from, Mat to) const {
  static const PetscLogEvent event = petsc::log_event("InertiaCopyValues");
  INERTIA_ASSERT(built_);  // from and to came from create_matrix
  PetscLogEventBegin(event, 0, 0, 0, 0);
  int size = 1;
  INERTIA_MPI(MPI_Comm_size(comm_, &size));
  {
    const MatrixValues src(from, size > 1), dst(to, size > 1);
    // Entry (i, j) of block k of a row part with nb blocks starting at value offset `base`:
    // BAIJ stores each block column by column, AIJ the part's three DOF rows one after another.
    const auto index = [](bool blocked, std::int64_t base, std::int64_t nb, std::int64_t k, int i,
                          int j) {
      return blocked ? base + 9 * k + i + 3 * j : base + 3 * nb * i + 3 * k + j;
    };
    const std::int32_t no = mesh_.num_owned;
    for (int part = 0; part < 2; ++part) {
      const PetscScalar* in = part == 0 ? src.diag() : src.off();
      PetscScalar* out = part == 0 ? dst.diag() : dst.off();
      const auto& ptr = part == 0 ? diag_ptr_ : off_ptr_;
      if (!in || !out) continue;
      if (src.blocked() == dst.blocked()) {
        std::copy(in, in + ptr[3 * no], out);
        continue;
      }
      for (std::int32_t r = 0; r < no; ++r) {
        const std::int64_t total = owned_ptr_[r + 1] - owned_ptr_[r];
        const std::int64_t nb = part == 0 ? owned_diag_[r] : total - owned_diag_[r];
        const std::int64_t base = ptr[3 * r];
        for (std::int64_t k = 0; k < nb; ++k)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              out[index(dst.blocked(), base, nb, k, i, j)] =
                  in[index(src.blocked(), base, nb, k, i, j)];
      }
    }
  }
  INERTIA_PETSC(MatAssemblyBegin(to, MAT_FINAL_ASSEMBLY));
  INERTIA_PETSC(MatAssemblyEnd(to, MAT_FINAL_ASSEMBLY));
  PetscLogEventEnd(event, 0, 0, 0, 0);
}

MatrixPattern::Block MatrixPattern::owned_block(std::int32_t r, std::int32_t f) const {
  // The diagonal and off-diagonal parts of row r start at the same offsets in both formats.
  const std::int32_t left = owned_left_[r], nd = owned_diag_[r];
  const bool in_diag = f >= left && f < left + nd;
  const std::int64_t k = in_diag ? f - left : f < left ? f : f - nd;
  const auto& ptr = in_diag ? diag_ptr_ : off_ptr_;
  PetscScalar* base = (in_diag ? target_.diag : target_.off) + ptr[3 * r];
  if (target_.blocked) return {base + 9 * k, 1, 3};  // BAIJ: each block column by column
  return {base + 3 * k, ptr[3 * r + 1] - ptr[3 * r], 1};
}

void MatrixPattern::set_matrix_values(Mat A, const std::function<void()>& fill) {
  static const PetscLogEvent event = petsc::log_event("InertiaSetValues");
  int size = 1;
  INERTIA_MPI(MPI_Comm_size(comm_, &size));
  {
    const MatrixValues mv(A, size > 1);
    const std::int32_t no = mesh_.num_owned;
    std::fill(mv.diag(), mv.diag() + diag_ptr_[3 * no], 0.0);
    if (mv.off()) std::fill(mv.off(), mv.off() + off_ptr_[3 * no], 0.0);
    std::ranges::fill(ghost_values_, 0.0);
    struct Reset {  // target_ points into A only while its arrays are borrowed
      Target& target;
      ~Reset() { target = {}; }
    } reset{target_};
    target_ = {mv.diag(), mv.off(), mv.blocked()};
    fill();
    PetscLogEventBegin(event, 0, 0, 0, 0);
    std::vector<MPI_Request> requests(receives_.size() + sends_.size());
    for (std::size_t m = 0; m < receives_.size(); ++m)
      INERTIA_MPI(MPI_Irecv(received_values_.data() + receives_[m].begin,
                            static_cast<int>(receives_[m].count), MPI_DOUBLE, receives_[m].rank,
                            values_tag, comm_, &requests[m]));
    for (std::size_t m = 0; m < sends_.size(); ++m)
      INERTIA_MPI(MPI_Isend(ghost_values_.data() + sends_[m].begin,
                            static_cast<int>(sends_[m].count), MPI_DOUBLE, sends_[m].rank,
                            values_tag, comm_, &requests[receives_.size() + m]));
    INERTIA_MPI(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    const PetscScalar* src = received_values_.data();
    for (std::size_t q = 0; q < received_rows_.size(); ++q) {
      const std::int32_t r = received_rows_[q];
      const std::int64_t nb = received_ptr_[q + 1] - received_ptr_[q];
      for (std::int64_t k = 0; k < nb; ++k) {
        const Block d = owned_block(r, received_index_[received_ptr_[q] + k]);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) d.p[i * d.si + j * d.sj] += src[3 * nb * i + 3 * k + j];
      }
      src += 9 * nb;
    }
  }
  INERTIA_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  INERTIA_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscLogEventEnd(event, 0, 0, 0, 0);
}

void MatrixPattern::add_cell_matrix(std::int64_t c, const double* Ke) {
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

void MatrixPattern::add_node_matrix(std::int32_t n, const double* k33) {
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

}  // namespace inertia
