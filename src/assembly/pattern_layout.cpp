/// \file pattern_layout.cpp
/// The sparsity pattern's layout (matrix_pattern.hpp, PatternLayout).
///
/// Each rank builds the block pattern of its elements' rows (owned and ghost nodes) once. The
/// ghost rows' patterns go to their owners, which then know every block of their rows: the owned
/// rows' CSR arrays (the diagonal and off-diagonal parts of MPIAIJ, PETSc's own layout), on which
/// MatrixPattern makes matrices without a preallocation pass or an insertion sort.

#include <algorithm>

#include "inertia/assembly/matrix_pattern.hpp"
#include "inertia/core/error.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

constexpr int pattern_tag = 7301;

}  // namespace

PatternLayout::PatternLayout(MPI_Comm comm, const LocalMesh& mesh, std::vector<std::int64_t> cells)
    : comm_(comm), mesh_(mesh), cells_(std::move(cells)) {
  pattern_index_.assign(static_cast<std::size_t>(mesh_.num_cells()), -1);
  for (std::size_t e = 0; e < cells_.size(); ++e)
    pattern_index_[static_cast<std::size_t>(cells_[e])] = static_cast<std::int64_t>(e);
}

void PatternLayout::build() {
  if (built_) return;
  build_blocks();
  built_ = true;
}

void PatternLayout::build_blocks() {
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
  for (auto c : cells_) {
    const auto nodes = mesh_.nodes_of(c);
    for (auto a : nodes) count[a + 1] += static_cast<std::int64_t>(nodes.size());
  }
  for (std::size_t r = 0; r < nl; ++r) count[r + 1] += count[r];
  std::vector<std::int32_t> all(static_cast<std::size_t>(count[nl]));
  {
    std::vector<std::int64_t> next(count.begin(), count.end() - 1);
    for (auto c : cells_) {
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
  cell_block_offset_.assign(cells_.size() + 1, 0);
  for (std::size_t e = 0; e < cells_.size(); ++e) {
    const auto n = static_cast<std::int64_t>(mesh_.nodes_of(cells_[e]).size());
    cell_block_offset_[e + 1] = cell_block_offset_[e] + n * n;
  }
  cell_block_.resize(static_cast<std::size_t>(cell_block_offset_.back()));
  for (std::size_t e = 0; e < cells_.size(); ++e) {
    const auto nodes = mesh_.nodes_of(cells_[e]);
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

std::vector<std::vector<std::int64_t>> PatternLayout::ghost_row_messages(
    const std::vector<std::int64_t>& begins) {
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

void PatternLayout::lay_out_owned_rows(
    const std::vector<std::pair<std::int32_t, std::int64_t>>& extra) {
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

void PatternLayout::index_received_rows(const std::vector<std::vector<std::int64_t>>& in,
                                        const std::vector<int>& from) {
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

void PatternLayout::build_owned_rows() {
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

}  // namespace inertia
