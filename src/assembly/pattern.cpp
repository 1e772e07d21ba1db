/// The sparsity pattern of the assembled matrices and their storage.
///
/// Each rank builds the block pattern of its elements' rows (owned and ghost nodes) once. The
/// ghost rows' patterns go to their owners, which then know every block of their rows. Matrices
/// are created directly from CSR arrays of the owned rows (the diagonal and off-diagonal parts of
/// MPIAIJ, PETSc's own layout), so no preallocation pass or insertion sort runs; an assembly sums
/// the owned rows' values in place in the matrix's arrays (no second copy of the matrix: the peak
/// memory of an assembled run is the matrix, not the matrix and its values) and the ghost rows'
/// in a buffer it then sends to their owners, which add them.

#include <algorithm>
#include <memory>

#include "inertia/assembly/assembler.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr int pattern_tag = 7301, values_tag = 7302;

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

void Assembler::build_pattern() const {
  static const PetscLogEvent event = petsc::log_event("InertiaPattern");
  PetscLogEventBegin(event, 0, 0, 0, 0);
  const std::int32_t no = mesh_.num_owned;
  const std::size_t nl = static_cast<std::size_t>(mesh_.num_local_nodes());
  // Local nodes in global order: the ghosts below the owned range, the owned nodes, the ghosts
  // above it. ord maps a local node to its place in that order.
  const auto low = static_cast<std::int32_t>(
      std::lower_bound(mesh_.ghosts.begin(), mesh_.ghosts.end(), mesh_.node_begin) -
      mesh_.ghosts.begin());
  ghosts_below_ = low;
  const auto ord = [this](std::int32_t l) { return order(l); };
  const auto local_of = [no, low](std::int32_t o) {
    return o < low ? o + no : o < low + no ? o - low : o;
  };
  // Node adjacency of the local rows, sorted and unique: the 3x3 blocks.
  std::vector<std::int64_t> count(nl + 1, 0);
  for (auto c : pattern_cells_) {
    const auto nodes = mesh_.nodes_of(c);
    for (auto a : nodes) count[a + 1] += static_cast<std::int64_t>(nodes.size());
  }
  for (std::size_t r = 0; r < nl; ++r) count[r + 1] += count[r];
  std::vector<std::int32_t> all(static_cast<std::size_t>(count[nl]));
  {
    std::vector<std::int64_t> next(count.begin(), count.end() - 1);
    for (auto c : pattern_cells_) {
      const auto nodes = mesh_.nodes_of(c);
      for (auto a : nodes)
        for (auto b : nodes) all[next[a]++] = ord(static_cast<std::int32_t>(b));
    }
  }
  block_ptr_.assign(nl + 1, 0);
  block_cols_.clear();
  block_cols_.reserve(all.size() / 2);
  for (std::size_t r = 0; r < nl; ++r) {
    auto first = all.begin() + count[r], last = all.begin() + count[r + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    block_cols_.insert(block_cols_.end(), first, last);
    block_ptr_[r + 1] = static_cast<std::int64_t>(block_cols_.size());
  }
  all = {};
  count = {};
  // Each pattern cell's blocks' places in their rows (columns sorted by global order), once.
  cell_block_offset_.assign(pattern_cells_.size() + 1, 0);
  for (std::size_t e = 0; e < pattern_cells_.size(); ++e) {
    const auto n = static_cast<std::int64_t>(mesh_.nodes_of(pattern_cells_[e]).size());
    cell_block_offset_[e + 1] = cell_block_offset_[e] + n * n;
  }
  cell_block_.resize(static_cast<std::size_t>(cell_block_offset_.back()));
  for (std::size_t e = 0; e < pattern_cells_.size(); ++e) {
    const auto nodes = mesh_.nodes_of(pattern_cells_[e]);
    std::uint16_t* place = cell_block_.data() + cell_block_offset_[e];
    for (const auto a : nodes) {
      const auto first = block_cols_.begin() + block_ptr_[a],
                 last = block_cols_.begin() + block_ptr_[a + 1];
      INERTIA_CHECK(last - first <= 65536, InternalError, "node ", mesh_.node_tags[a], " has ",
                    last - first, " neighbours: more than the pattern's 65,536 per row");
      for (const auto b : nodes)
        *place++ = static_cast<std::uint16_t>(
            std::lower_bound(first, last, ord(static_cast<std::int32_t>(b))) - first);
    }
  }
  for (auto& b : block_cols_) b = local_of(b);
  ghost_values_.assign(static_cast<std::size_t>(9 * (block_ptr_[nl] - block_ptr_[no])), 0.0);
  PetscLogEventEnd(event, 0, 0, 0, 0);
  build_owned_rows();
}

namespace {

/// The ghost rows' patterns this rank receives: one message per sending rank (`from`), each a
/// list of (global row, block count, global block columns...).
struct ReceivedPatterns {
  std::vector<std::vector<std::int64_t>> in;
  std::vector<int> from;
};

/// Collective. Sends message out[m] to rank to[m] (one message per rank at most) and receives
/// the messages other ranks send here.
ReceivedPatterns exchange_patterns(MPI_Comm comm, int size,
                                   const std::vector<std::vector<std::int64_t>>& out,
                                   const std::vector<int>& to) {
  std::vector<std::int64_t> words(static_cast<std::size_t>(size), 0);
  for (std::size_t m = 0; m < out.size(); ++m)
    words[to[m]] = static_cast<std::int64_t>(out[m].size());
  std::vector<std::int64_t> incoming(static_cast<std::size_t>(size), 0);
  INERTIA_MPI(MPI_Alltoall(words.data(), 1, MPI_INT64_T, incoming.data(), 1, MPI_INT64_T, comm));
  ReceivedPatterns r;
  std::vector<MPI_Request> requests;
  for (int p = 0; p < size; ++p)
    if (incoming[p] > 0) {
      r.in.emplace_back(static_cast<std::size_t>(incoming[p]));
      r.from.push_back(p);
    }
  requests.resize(r.in.size() + out.size());
  for (std::size_t m = 0; m < r.in.size(); ++m)
    INERTIA_MPI(MPI_Irecv(r.in[m].data(), static_cast<int>(r.in[m].size()), MPI_INT64_T, r.from[m],
                          pattern_tag, comm, &requests[m]));
  for (std::size_t m = 0; m < out.size(); ++m)
    INERTIA_MPI(MPI_Isend(out[m].data(), static_cast<int>(out[m].size()), MPI_INT64_T, to[m],
                          pattern_tag, comm, &requests[r.in.size() + m]));
  INERTIA_MPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  return r;
}

/// The blocks other ranks add to this rank's owned rows (global rows from `first`, `no` of
/// them): (owned row, global column), sorted and unique.
std::vector<std::pair<std::int32_t, std::int64_t>> extra_blocks(
    const std::vector<std::vector<std::int64_t>>& in, std::int64_t first, std::int32_t no) {
  std::vector<std::pair<std::int32_t, std::int64_t>> extra;
  for (const auto& m : in)
    for (std::size_t k = 0; k < m.size();) {
      const auto r = static_cast<std::int32_t>(m[k] - first);
      INERTIA_CHECK(r >= 0 && r < no, InternalError, "a ghost row sent to the wrong owner");
      const std::int64_t nb = m[k + 1];
      for (std::int64_t b = 0; b < nb; ++b) extra.emplace_back(r, m[k + 2 + b]);
      k += 2 + static_cast<std::size_t>(nb);
    }
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  return extra;
}

}  // namespace

std::vector<std::vector<std::int64_t>> Assembler::ghost_row_messages(
    const std::vector<std::int64_t>& begins) const {
  const std::int32_t no = mesh_.num_owned;
  const std::int32_t nl = mesh_.num_local_nodes();
  sends_.clear();
  std::vector<std::vector<std::int64_t>> out;
  for (std::int32_t r = no; r < nl; ++r) {
    const std::int64_t g = mesh_.global_node(r);
    const int owner =
        static_cast<int>(std::upper_bound(begins.begin(), begins.end(), g) - begins.begin()) - 1;
    if (sends_.empty() || sends_.back().rank != owner) {
      sends_.push_back({owner, 9 * (block_ptr_[r] - block_ptr_[no]), 0});
      out.emplace_back();
    }
    const std::int64_t nb = block_ptr_[r + 1] - block_ptr_[r];
    sends_.back().count += 9 * nb;
    auto& o = out.back();
    o.push_back(g);
    o.push_back(nb);
    for (auto b = block_ptr_[r]; b < block_ptr_[r + 1]; ++b)
      o.push_back(mesh_.global_node(block_cols_[b]));
  }
  return out;
}

void Assembler::lay_out_owned_rows(
    const std::vector<std::pair<std::int32_t, std::int64_t>>& extra) const {
  const std::int32_t no = mesh_.num_owned;
  const std::int64_t first = mesh_.node_begin, last = first + no;
  owned_ptr_.assign(static_cast<std::size_t>(no) + 1, 0);
  owned_cols_.clear();
  owned_cols_.reserve(static_cast<std::size_t>(block_ptr_[no]));
  owned_left_.assign(static_cast<std::size_t>(no), 0);
  owned_diag_.assign(static_cast<std::size_t>(no), 0);
  owned_extended_.assign(static_cast<std::size_t>(no), 0);
  owned_index_.assign(static_cast<std::size_t>(block_ptr_[no]), 0);
  std::vector<PetscInt> row;
  auto e = extra.begin();
  for (std::int32_t r = 0; r < no; ++r) {
    row.clear();
    for (auto b = block_ptr_[r]; b < block_ptr_[r + 1]; ++b)
      row.push_back(static_cast<PetscInt>(mesh_.global_node(block_cols_[b])));
    const std::size_t local = row.size();
    for (; e != extra.end() && e->first == r; ++e) row.push_back(static_cast<PetscInt>(e->second));
    if (row.size() > local) {
      std::inplace_merge(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(local), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    if (row.size() > local) {
      owned_extended_[r] = 1;
      for (auto b = block_ptr_[r]; b < block_ptr_[r + 1]; ++b)
        owned_index_[b] = static_cast<std::int32_t>(
            std::lower_bound(row.begin(), row.end(), mesh_.global_node(block_cols_[b])) -
            row.begin());
    }
    const auto left = std::lower_bound(row.begin(), row.end(), static_cast<PetscInt>(first));
    const auto right = std::lower_bound(left, row.end(), static_cast<PetscInt>(last));
    owned_left_[r] = static_cast<std::int32_t>(left - row.begin());
    owned_diag_[r] = static_cast<std::int32_t>(right - left);
    owned_cols_.insert(owned_cols_.end(), row.begin(), row.end());
    owned_ptr_[r + 1] = static_cast<PetscInt>(owned_cols_.size());
  }
}

void Assembler::index_received_rows(const std::vector<std::vector<std::int64_t>>& in,
                                    const std::vector<int>& from) const {
  const std::int64_t first = mesh_.node_begin;
  receives_.clear();
  received_rows_.clear();
  received_ptr_.assign(1, 0);
  received_index_.clear();
  std::int64_t offset = 0;
  for (std::size_t m = 0; m < in.size(); ++m) {
    Message msg{from[m], offset, 0};
    for (std::size_t k = 0; k < in[m].size();) {
      const auto r = static_cast<std::int32_t>(in[m][k] - first);
      const std::int64_t nb = in[m][k + 1];
      const auto row_begin = owned_cols_.begin() + owned_ptr_[r];
      const auto row_end = owned_cols_.begin() + owned_ptr_[r + 1];
      received_rows_.push_back(r);
      for (std::int64_t b = 0; b < nb; ++b)
        received_index_.push_back(static_cast<std::int32_t>(
            std::lower_bound(row_begin, row_end, static_cast<PetscInt>(in[m][k + 2 + b])) -
            row_begin));
      received_ptr_.push_back(static_cast<std::int64_t>(received_index_.size()));
      msg.count += 9 * nb;
      k += 2 + static_cast<std::size_t>(nb);
    }
    offset += msg.count;
    receives_.push_back(msg);
  }
  received_values_.assign(static_cast<std::size_t>(offset), 0.0);
}

void Assembler::build_owned_rows() const {
  static const PetscLogEvent event = petsc::log_event("InertiaOwnedRows");
  PetscLogEventBegin(event, 0, 0, 0, 0);
  int size = 1, rank = 0;
  INERTIA_MPI(MPI_Comm_size(comm_, &size));
  INERTIA_MPI(MPI_Comm_rank(comm_, &rank));
  const std::int32_t no = mesh_.num_owned;
  const std::int64_t first = mesh_.node_begin;
  std::vector<std::int64_t> begins(static_cast<std::size_t>(size) + 1);
  INERTIA_MPI(MPI_Allgather(&first, 1, MPI_INT64_T, begins.data(), 1, MPI_INT64_T, comm_));
  begins[size] = mesh_.num_global_nodes;

  // Ghost rows, sorted by global node and so grouped by owner: (row, count, columns...) to each.
  ReceivedPatterns received;
  {
    const std::vector<std::vector<std::int64_t>> out = ghost_row_messages(begins);
    std::vector<int> to;
    for (const auto& s : sends_) to.push_back(s.rank);
    received = exchange_patterns(comm_, size, out, to);
  }
  // Owned rows: the local blocks (already in global order) merged with the extra ones.
  lay_out_owned_rows(extra_blocks(received.in, first, no));
  // Where the received ghost rows' values go.
  index_received_rows(received.in, received.from);

  // CSR row pointers of the DOF rows (the three rows of a node share their columns).
  diag_ptr_.assign(3 * static_cast<std::size_t>(no) + 1, 0);
  off_ptr_.assign(3 * static_cast<std::size_t>(no) + 1, 0);
  for (std::int32_t r = 0; r < no; ++r) {
    const PetscInt nd = 3 * owned_diag_[r];
    const PetscInt nf = 3 * (owned_ptr_[r + 1] - owned_ptr_[r]) - nd;
    for (int i = 0; i < 3; ++i) {
      diag_ptr_[3 * r + i + 1] = diag_ptr_[3 * r + i] + nd;
      off_ptr_[3 * r + i + 1] = off_ptr_[3 * r + i] + nf;
    }
  }
  PetscLogEventEnd(event, 0, 0, 0, 0);
}

namespace {

void finish_matrix(Mat A, ISLocalToGlobalMapping l2g, MatNullSpace modes) {
  INERTIA_PETSC(MatSetLocalToGlobalMapping(A, l2g, l2g));
  INERTIA_PETSC(MatSetOption(A, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  if (modes) INERTIA_PETSC(MatSetNearNullSpace(A, modes));
}

}  // namespace

petsc::Matrix Assembler::create_matrix(MatrixFormat format) const {
  ensure_pattern();
  static const PetscLogEvent event = petsc::log_event("InertiaCreateMatrix");
  PetscLogEventBegin(event, 0, 0, 0, 0);
  int size = 1;
  INERTIA_MPI(MPI_Comm_size(comm_, &size));
  if (format == MatrixFormat::blocked) {
    // BAIJ: PETSc allocates exactly from the block CSR pattern (global block columns).
    petsc::Matrix A;
    INERTIA_PETSC(MatCreate(comm_, A.out()));
    INERTIA_PETSC(
        MatSetSizes(A, num_owned_dofs(), num_owned_dofs(), num_global_dofs(), num_global_dofs()));
    INERTIA_PETSC(MatSetType(A, MATBAIJ));
    INERTIA_PETSC(MatSetBlockSize(A, 3));
    INERTIA_PETSC(
        MatSeqBAIJSetPreallocationCSR(A, 3, owned_ptr_.data(), owned_cols_.data(), nullptr));
    INERTIA_PETSC(
        MatMPIBAIJSetPreallocationCSR(A, 3, owned_ptr_.data(), owned_cols_.data(), nullptr));
    finish_matrix(A, l2g_, nullptr);  // products only: no near-null space
    PetscLogEventEnd(event, 0, 0, 0, 0);
    return A;
  }
  if (!rigid_body_modes_)
    INERTIA_PETSC(MatNullSpaceCreateRigidBody(coordinates_, rigid_body_modes_.out()));
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
  const PetscInt n = num_owned_dofs(), N = num_global_dofs();
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
  finish_matrix(A, l2g_, rigid_body_modes_);
  PetscLogEventEnd(event, 0, 0, 0, 0);
  return A;
}

void Assembler::copy_values(Mat from, Mat to) const {
  static const PetscLogEvent event = petsc::log_event("InertiaCopyValues");
  INERTIA_ASSERT(pattern_built_);  // from and to came from create_matrix
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

Assembler::Block Assembler::owned_block(std::int32_t r, std::int32_t f) const {
  // The diagonal and off-diagonal parts of row r start at the same offsets in both formats.
  const std::int32_t left = owned_left_[r], nd = owned_diag_[r];
  const bool in_diag = f >= left && f < left + nd;
  const std::int64_t k = in_diag ? f - left : f < left ? f : f - nd;
  const auto& ptr = in_diag ? diag_ptr_ : off_ptr_;
  PetscScalar* base = (in_diag ? target_.diag : target_.off) + ptr[3 * r];
  if (target_.blocked) return {base + 9 * k, 1, 3};  // BAIJ: each block column by column
  return {base + 3 * k, ptr[3 * r + 1] - ptr[3 * r], 1};
}

void Assembler::set_matrix_values(Mat A, const std::function<void()>& fill) const {
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

}  // namespace inertia
