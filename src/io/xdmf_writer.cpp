#include "inertia/io/xdmf_writer.hpp"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>

#include "hdf5_file.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/parallel/session.hpp"
#include "io_common.hpp"
#include "series_index.hpp"

namespace inertia::io {

namespace fs = std::filesystem;

using detail::check_series_name;
using detail::create_output_directory;
using detail::format_time;
using detail::Hdf5File;
using detail::QuietHdf5;
using detail::require_free_space;
using detail::Slice;
using detail::SliceWriter;
using detail::unless_failed;
using detail::xml_comment_text;
using detail::xml_escape;
using detail::zero_padded;

namespace {

/// Collective. The position of each of this rank's items in the order of all ranks' items sorted
/// by (key, tiebreak), the pairs being unique: a bucket sort over the key range, each rank
/// sorting one bucket, so that every rank holds about its share of the items.
std::vector<std::int64_t> sorted_positions(MPI_Comm comm,
                                           const std::vector<std::array<std::int64_t, 2>>& items) {
  const int size = size_of(comm);
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  std::int64_t highest = std::numeric_limits<std::int64_t>::min();
  for (const auto& it : items) {
    lowest = std::min(lowest, it[0]);
    highest = std::max(highest, it[0]);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT64_T, MPI_MIN, comm));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_INT64_T, MPI_MAX, comm));
  const long double low = static_cast<long double>(lowest);
  const long double span = static_cast<long double>(highest) - low + 1;
  const auto bucket = [&](std::int64_t key) {
    const auto b = static_cast<int>((static_cast<long double>(key) - low) * size / span);
    return std::clamp(b, 0, size - 1);
  };
  // Out: (key, tiebreak, index here) to the bucket's rank.
  std::vector<int> send_counts(size, 0), recv_counts(size), send_displs(size + 1, 0),
      recv_displs(size + 1, 0);
  for (const auto& it : items) send_counts[bucket(it[0])] += 3;
  for (int r = 0; r < size; ++r) send_displs[r + 1] = send_displs[r] + send_counts[r];
  std::vector<std::int64_t> out(static_cast<std::size_t>(send_displs[size]));
  {
    std::vector<int> at(send_displs.begin(), send_displs.end() - 1);
    for (std::size_t i = 0; i < items.size(); ++i) {
      int& k = at[bucket(items[i][0])];
      out[k++] = items[i][0];
      out[k++] = items[i][1];
      out[k++] = static_cast<std::int64_t>(i);
    }
  }
  INERTIA_MPI(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm));
  for (int r = 0; r < size; ++r) recv_displs[r + 1] = recv_displs[r] + recv_counts[r];
  std::vector<std::int64_t> in(static_cast<std::size_t>(recv_displs[size]));
  INERTIA_MPI(MPI_Alltoallv(out.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            in.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T, comm));
  // This bucket, sorted; its first position is the number of items in the buckets below.
  const std::size_t n = in.size() / 3;
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(in[3 * a], in[3 * a + 1]) < std::tie(in[3 * b], in[3 * b + 1]);
  });
  std::int64_t first = 0, mine = static_cast<std::int64_t>(n);
  INERTIA_MPI(MPI_Exscan(&mine, &first, 1, MPI_INT64_T, MPI_SUM, comm));
  if (rank_of(comm) == 0) first = 0;  // MPI_Exscan leaves rank 0's result undefined
  // Back: (index there, position) in the order the items came, to where they came from.
  std::vector<std::int64_t> back(2 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t j = order[k];
    back[2 * j] = in[3 * j + 2];
    back[2 * j + 1] = first + static_cast<std::int64_t>(k);
  }
  for (int r = 0; r <= size; ++r) {
    send_displs[r] = send_displs[r] / 3 * 2;
    recv_displs[r] = recv_displs[r] / 3 * 2;
  }
  for (int r = 0; r < size; ++r) {
    send_counts[r] = send_counts[r] / 3 * 2;
    recv_counts[r] = recv_counts[r] / 3 * 2;
  }
  std::vector<std::int64_t> returned(2 * items.size());
  INERTIA_MPI(MPI_Alltoallv(back.data(), recv_counts.data(), recv_displs.data(), MPI_INT64_T,
                            returned.data(), send_counts.data(), send_displs.data(), MPI_INT64_T,
                            comm));
  std::vector<std::int64_t> position(items.size());
  for (std::size_t k = 0; k < items.size(); ++k) position[returned[2 * k]] = returned[2 * k + 1];
  return position;
}

/// XDMF's "Mixed" topology code of a cell type, and whether a node count follows it (the
/// cell-type table's).
std::pair<int, bool> xdmf_code(CellType t) { return {info(t).xdmf_id, info(t).xdmf_node_count}; }

std::string attribute_type(int components) {
  switch (components) {
    case 1:
      return "Scalar";
    case 3:
      return "Vector";
    default:
      return "Matrix";  // passed through as given (VTK order: checked against the .vtu)
  }
}

std::string dimensions(std::int64_t count, int components) {
  return components == 1 ? std::to_string(count) : cat(count, " ", components);
}

std::string data_item(std::int64_t count, int components, const char* type, int precision,
                      const std::string& h5, const std::string& dataset) {
  return cat("<DataItem Dimensions=\"", dimensions(count, components), "\" NumberType=\"", type,
             "\" Precision=\"", precision, "\" Format=\"HDF\">", xml_escape(h5), ":", dataset,
             "</DataItem>");
}

/// Signature of the field lists (names and components), identical on every rank.
std::string signature(std::span<const Field> point_data, std::span<const Field> cell_data) {
  std::string s;
  for (const auto& f : point_data) s += cat("p:", f.name, ":", f.components, ";");
  for (const auto& f : cell_data) s += cat("c:", f.name, ":", f.components, ";");
  return s;
}

bool same_on_all_ranks(MPI_Comm comm, std::string text) {
  return all_true(comm, broadcast_string(comm, text) == text);
}

/// The HDF5 type of PetscInt, as PETSc's ISView stored the topology.
hid_t petsc_int_type() { return sizeof(PetscInt) == 8 ? H5T_NATIVE_LLONG : H5T_NATIVE_INT; }

/// The dataset's dimensions as PETSc's VecView wrote them: [n] for scalars, [n, components].
std::vector<hsize_t> field_dims(std::int64_t count, int components) {
  if (components == 1) return {static_cast<hsize_t>(count)};
  return {static_cast<hsize_t>(count), static_cast<hsize_t>(components)};
}

/// This rank's share of a natural-order vector: its values, at the byte of the dataset (which
/// starts at `dataset_offset`) where they go.
Slice share_of(Vec natural, std::uint64_t dataset_offset, const petsc::ConstArray& values) {
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(natural, &begin, &end));
  return {dataset_offset + sizeof(PetscScalar) * static_cast<std::uint64_t>(begin),
          std::as_bytes(values.span())};
}

/// The .xdmf around its step grids.
detail::SeriesIndex::Layout xdmf_layout() {
  return {
      "<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n"
      "    <Grid Name=\"Temporal\" GridType=\"Collection\" CollectionType=\"Temporal\">\n",
      "      ", "", "    </Grid>\n  </Domain>\n</Xdmf>\n"};
}

/// The step grids of an .xdmf's text, as write() wrote them: from <Grid Name="step_N" to its
/// </Grid>.
std::vector<detail::SeriesEntry> xdmf_entries(const std::string& text) {
  std::vector<detail::SeriesEntry> entries;
  const std::string open = "      <Grid Name=\"step_", close = "      </Grid>\n";
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
    const std::size_t end = text.find(close, at);
    if (end == std::string::npos) break;
    std::string grid = text.substr(at, end + close.size() - at);
    at = end + close.size();
    const int step = std::atoi(grid.c_str() + open.size());
    const std::size_t t = grid.find("<Time Value=\"");
    if (t == std::string::npos) continue;
    const double time = std::strtod(grid.c_str() + t + 13, nullptr);
    entries.push_back({time, step, std::move(grid)});
  }
  return entries;
}

}  // namespace

XdmfSeriesWriter::XdmfSeriesWriter(MPI_Comm comm, std::filesystem::path directory, std::string name,
                                   const NaturalPieceMesh& mesh, std::optional<double> resume_up_to)
    : comm_(comm),
      directory_(std::move(directory)),
      name_(std::move(name)),
      num_owned_(mesh.num_owned),
      num_global_nodes_(mesh.num_global_nodes) {
  check_series_name(comm_, directory_, name_);
  xdmf_ = directory_ / (name_ + ".xdmf");
  run_on_root(comm_, [&] {
    index_ = std::make_unique<detail::SeriesIndex>(xdmf_, xdmf_layout());
    index_->start(directory_, resume_up_to, xdmf_entries);
    counter_ = index_->next_step();
    // The HDF5 file of this run: <name>.h5, or after a restart the first <name>-rK.h5 that no
    // kept step references (an older file that a kept step needs is never reopened for writing:
    // a run killed mid-write may have left it as only HDF5's reader still accepts).
    for (int k = 0;; ++k) {
      h5_name_ = k == 0 ? name_ + ".h5" : cat(name_, "-r", k, ".h5");
      const std::string reference = xml_escape(h5_name_) + ":/";
      const auto& entries = index_->entries();
      if (std::none_of(entries.begin(), entries.end(), [&](const auto& e) {
            return e.text.find(">" + reference) != std::string::npos;
          }))
        break;
    }
  });
  int counter = counter_;
  INERTIA_MPI(MPI_Bcast(&counter, 1, MPI_INT, 0, comm_));
  counter_ = counter;
  h5_name_ = broadcast_string(comm_, h5_name_);
  h5_ = directory_ / h5_name_;
  write_mesh(mesh);
}

XdmfSeriesWriter::~XdmfSeriesWriter() = default;

XdmfSeriesWriter::Transfer& XdmfSeriesWriter::transfer(bool cells, int bs) {
  auto& transfers = cells ? cell_transfers_ : point_transfers_;
  if (auto it = transfers.find(bs); it != transfers.end()) return it->second;
  Transfer& t = transfers[bs];
  const std::vector<std::int64_t>& natural = cells ? cell_natural_ : owned_natural_;
  const auto n = static_cast<PetscInt>(natural.size());
  PetscInt local = PETSC_DECIDE,
           global = static_cast<PetscInt>(cells ? num_global_cells_ : num_global_nodes_);
  INERTIA_PETSC(PetscSplitOwnership(comm_, &local, &global));
  INERTIA_PETSC(VecCreateMPI(comm_, bs * n, PETSC_DETERMINE, t.local.out()));
  INERTIA_PETSC(VecSetBlockSize(t.local, bs));
  INERTIA_PETSC(VecCreate(comm_, t.natural.out()));
  INERTIA_PETSC(VecSetSizes(t.natural, bs * local, bs * global));
  INERTIA_PETSC(VecSetBlockSize(t.natural, bs));
  INERTIA_PETSC(VecSetType(t.natural, VECMPI));
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(t.local, &begin, &end));
  std::vector<PetscInt> blocks(natural.begin(), natural.end());
  petsc::IndexSet from, to;
  INERTIA_PETSC(ISCreateStride(comm_, end - begin, begin, 1, from.out()));
  INERTIA_PETSC(ISCreateBlock(comm_, bs, n, blocks.data(), PETSC_COPY_VALUES, to.out()));
  INERTIA_PETSC(VecScatterCreate(t.local, from, t.natural, to, t.scatter.out()));
  return t;
}

void XdmfSeriesWriter::gather(Transfer& t, std::span<const double> values,
                              std::span<const std::int32_t> ints) {
  {
    petsc::Array a(t.local);
    if (!ints.empty())
      for (PetscInt i = 0; i < a.size(); ++i) a[i] = ints[i];
    else
      std::copy_n(values.begin(), a.size(), a.span().begin());
  }
  INERTIA_PETSC(VecScatterBegin(t.scatter, t.local, t.natural, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(t.scatter, t.local, t.natural, INSERT_VALUES, SCATTER_FORWARD));
}

void XdmfSeriesWriter::write_mesh(const NaturalPieceMesh& mesh) {
  const PieceMesh& p = mesh.piece;
  const auto num_cells = static_cast<std::int64_t>(p.cell_types.size());
  run_collectively(comm_, [&] {
    INERTIA_CHECK(p.coords.size() % 3 == 0 && mesh.num_owned >= 0 &&
                      3 * static_cast<std::size_t>(mesh.num_owned) <= p.coords.size() &&
                      mesh.natural_ids.size() == p.coords.size() / 3 &&
                      mesh.cell_keys.size() == p.cell_types.size() &&
                      p.cell_offsets.size() == p.cell_types.size() + 1,
                  InternalError, "XDMF output: inconsistent piece mesh");
  });
  owned_natural_.assign(mesh.natural_ids.begin(), mesh.natural_ids.begin() + mesh.num_owned);
  order_cells(mesh);

  // Coordinates, and at most 11 indices of 8 bytes per cell (a tet10 and its type code).
  ensure_room(24 * num_global_nodes_ + 88 * num_global_cells_, "the mesh");
  Transfer& geometry = transfer(false, 3);
  gather(geometry, p.coords, {});

  // Topology, XDMF "Mixed": per cell its code, [its node count,] its nodes' natural indices, in
  // natural cell order. Each cell's entries are placed at their offset in the whole array (the
  // lengths summed in natural order), then the array is written as integers.
  std::vector<double> length(static_cast<std::size_t>(num_cells));
  std::int64_t local_entries = 0;
  for (std::int64_t c = 0; c < num_cells; ++c) {
    const auto [code, counted] = xdmf_code(p.cell_types[c]);
    length[c] = static_cast<double>(1 + counted + (p.cell_offsets[c + 1] - p.cell_offsets[c]));
    local_entries += static_cast<std::int64_t>(length[c]);
  }
  const std::vector<std::int64_t> offset = topology_offsets(length);
  topology_size_ = local_entries;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &topology_size_, 1, MPI_INT64_T, MPI_SUM, comm_));
  PetscInt entries_begin = 0;
  const std::vector<PetscInt> entries =
      natural_topology(mesh, length, offset, local_entries, entries_begin);
  write_mesh_datasets(geometry.natural, entries, entries_begin);
}

void XdmfSeriesWriter::order_cells(const NaturalPieceMesh& mesh) {
  // Natural cell order: the cells sorted by key (ties, which the meshes do not have, by their
  // first node's natural index), by a parallel bucket sort: no rank holds every cell's key.
  const PieceMesh& p = mesh.piece;
  const auto num_cells = static_cast<std::int64_t>(p.cell_types.size());
  std::vector<std::array<std::int64_t, 2>> keys(static_cast<std::size_t>(num_cells));
  for (std::int64_t c = 0; c < num_cells; ++c)
    keys[c] = {mesh.cell_keys[c], mesh.natural_ids[p.cell_nodes[p.cell_offsets[c]]]};
  cell_natural_ = sorted_positions(comm_, keys);
  num_global_cells_ = num_cells;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &num_global_cells_, 1, MPI_INT64_T, MPI_SUM, comm_));
}

std::vector<std::int64_t> XdmfSeriesWriter::topology_offsets(const std::vector<double>& length) {
  Transfer& lengths = transfer(true, 1);
  {
    petsc::Array a(lengths.local);
    std::copy(length.begin(), length.end(), a.span().begin());
  }
  INERTIA_PETSC(VecScatterBegin(lengths.scatter, lengths.local, lengths.natural, INSERT_VALUES,
                                SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(lengths.scatter, lengths.local, lengths.natural, INSERT_VALUES,
                              SCATTER_FORWARD));
  std::int64_t sum = 0, base = 0;
  {
    petsc::Array a(lengths.natural);
    for (PetscInt i = 0; i < a.size(); ++i) sum += static_cast<std::int64_t>(a[i]);
    INERTIA_MPI(MPI_Exscan(&sum, &base, 1, MPI_INT64_T, MPI_SUM, comm_));
    if (rank_of(comm_) == 0) base = 0;
    for (PetscInt i = 0; i < a.size(); ++i) {
      const auto l = static_cast<std::int64_t>(a[i]);
      a[i] = static_cast<double>(base);
      base += l;
    }
  }
  INERTIA_PETSC(VecScatterBegin(lengths.scatter, lengths.natural, lengths.local, INSERT_VALUES,
                                SCATTER_REVERSE));
  INERTIA_PETSC(VecScatterEnd(lengths.scatter, lengths.natural, lengths.local, INSERT_VALUES,
                              SCATTER_REVERSE));
  std::vector<std::int64_t> offset(length.size());
  petsc::ConstArray a(lengths.local);
  for (std::size_t c = 0; c < offset.size(); ++c)
    offset[c] = static_cast<std::int64_t>(a[static_cast<PetscInt>(c)]);
  return offset;
}

std::vector<PetscInt> XdmfSeriesWriter::natural_topology(const NaturalPieceMesh& mesh,
                                                         const std::vector<double>& length,
                                                         const std::vector<std::int64_t>& offset,
                                                         std::int64_t local_entries,
                                                         PetscInt& entries_begin) {
  const PieceMesh& p = mesh.piece;
  const auto num_cells = static_cast<std::int64_t>(p.cell_types.size());
  petsc::Vector local, natural;
  petsc::VecScatterHandle scatter;
  INERTIA_PETSC(
      VecCreateMPI(comm_, static_cast<PetscInt>(local_entries), PETSC_DETERMINE, local.out()));
  INERTIA_PETSC(
      VecCreateMPI(comm_, PETSC_DECIDE, static_cast<PetscInt>(topology_size_), natural.out()));
  std::vector<PetscInt> to;
  to.reserve(static_cast<std::size_t>(local_entries));
  {
    petsc::Array a(local);
    PetscInt i = 0;
    for (std::int64_t c = 0; c < num_cells; ++c) {
      const auto [code, counted] = xdmf_code(p.cell_types[c]);
      const std::int64_t nodes = p.cell_offsets[c + 1] - p.cell_offsets[c];
      a[i++] = code;
      if (counted) a[i++] = static_cast<double>(nodes);
      for (std::int64_t k = p.cell_offsets[c]; k < p.cell_offsets[c + 1]; ++k)
        a[i++] = static_cast<double>(mesh.natural_ids[p.cell_nodes[k]]);
      for (std::int64_t j = 0; j < static_cast<std::int64_t>(length[c]); ++j)
        to.push_back(static_cast<PetscInt>(offset[c] + j));
    }
  }
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(local, &begin, &end));
  petsc::IndexSet from_is, to_is;
  INERTIA_PETSC(ISCreateStride(comm_, end - begin, begin, 1, from_is.out()));
  INERTIA_PETSC(ISCreateGeneral(comm_, static_cast<PetscInt>(to.size()), to.data(),
                                PETSC_USE_POINTER, to_is.out()));
  INERTIA_PETSC(VecScatterCreate(local, from_is, natural, to_is, scatter.out()));
  INERTIA_PETSC(VecScatterBegin(scatter, local, natural, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(scatter, local, natural, INSERT_VALUES, SCATTER_FORWARD));
  std::vector<PetscInt> entries;
  {
    petsc::ConstArray a(natural);
    entries.reserve(static_cast<std::size_t>(a.size()));
    for (PetscInt i = 0; i < a.size(); ++i) entries.push_back(static_cast<PetscInt>(a[i]));
  }
  PetscInt entries_end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(natural, &entries_begin, &entries_end));
  return entries;
}

void XdmfSeriesWriter::write_mesh_datasets(Vec geometry, const std::vector<PetscInt>& entries,
                                           PetscInt entries_begin) {
  // The file and its two datasets (rank 0), then each rank's share of them (hdf5_file.hpp).
  const QuietHdf5 quiet;
  std::uint64_t offsets[2] = {0, 0};
  run_on_root(comm_, [&] {
    Hdf5File h5(h5_, Hdf5File::Mode::create);
    h5.create_group("/mesh");
    offsets[0] =
        h5.create_dataset("/mesh/geometry", field_dims(num_global_nodes_, 3), H5T_NATIVE_DOUBLE);
    offsets[1] =
        h5.create_dataset("/mesh/topology", field_dims(topology_size_, 1), petsc_int_type());
    h5.close();
  });
  INERTIA_MPI(MPI_Bcast(offsets, 2, MPI_UINT64_T, 0, comm_));
  run_collectively(comm_, [&] {
    SliceWriter out(h5_);
    out.write(share_of(geometry, offsets[0], petsc::ConstArray(geometry)));
    out.write({offsets[1] + sizeof(PetscInt) * static_cast<std::uint64_t>(entries_begin),
               std::as_bytes(std::span<const PetscInt>(entries))});
    out.close(false);
  });
}

void XdmfSeriesWriter::ensure_room(std::int64_t data_bytes, const char* what) const {
  // Twice the data and HDF5's metadata, plus 1 MiB: each flush rewrites the metadata that
  // changed (the file's groups grow by one per step), which a file's growth does not show.
  const auto estimate = static_cast<std::uint64_t>(data_bytes + (16 << 10));
  require_free_space(comm_, directory_, h5_, 2 * estimate + (1 << 20), what);
}

std::int64_t XdmfSeriesWriter::write(double time, std::span<const Field> point_data,
                                     std::span<const Field> cell_data) {
  const std::size_t cells = cell_natural_.size();
  run_collectively(comm_, [&] {
    for (const auto* fields : {&point_data, &cell_data})
      for (const Field& f : *fields) {
        const bool is_cell = fields == &cell_data;
        const std::size_t have = f.values.empty() ? f.int_values.size() : f.values.size();
        const std::size_t need = static_cast<std::size_t>(f.components) *
                                 (is_cell ? cells : static_cast<std::size_t>(num_owned_));
        INERTIA_CHECK(f.components >= 1 && !f.name.empty() &&
                          (f.values.empty() || f.int_values.empty()) &&
                          (is_cell ? have == need : have >= need),
                      InternalError, "XDMF output: ", is_cell ? "cell" : "point", " field '",
                      f.name, "' has ", have, " values, expected ", need);
      }
  });
  INERTIA_CHECK(same_on_all_ranks(comm_, signature(point_data, cell_data)), InternalError,
                "XDMF output: the point and cell fields differ between ranks");
  const std::string step = cat("step_", zero_padded(counter_, 6));
  const std::string group = "/" + step;
  {
    std::int64_t data = 0;
    for (const Field& f : point_data) data += 8 * f.components * num_global_nodes_;
    for (const Field& f : cell_data) data += 8 * f.components * num_global_cells_;
    ensure_room(std::max(data, last_frame_bytes_), "the frame");
  }
  // The step's group and datasets (rank 0), then each rank's share of them (hdf5_file.hpp): a
  // rank whose write fails goes on with the scatters (collective) and says so at the end.
  const QuietHdf5 quiet;
  std::vector<std::uint64_t> offsets(point_data.size() + cell_data.size());
  run_on_root(comm_, [&] {
    Hdf5File h5(h5_, Hdf5File::Mode::append);
    h5.create_group(group);
    std::size_t k = 0;
    for (const Field& f : point_data)
      offsets[k++] = h5.create_dataset(
          cat(group, "/", f.name), field_dims(num_global_nodes_, f.components), H5T_NATIVE_DOUBLE);
    for (const Field& f : cell_data)
      offsets[k++] = h5.create_dataset(
          cat(group, "/", f.name), field_dims(num_global_cells_, f.components), H5T_NATIVE_DOUBLE);
    h5.close();
  });
  INERTIA_MPI(MPI_Bcast(offsets.data(), static_cast<int>(offsets.size()), MPI_UINT64_T, 0, comm_));
  {
    std::exception_ptr failure;
    std::optional<SliceWriter> out;
    unless_failed(failure, [&] { out.emplace(h5_); });
    std::size_t k = 0;
    for (const auto* fields : {&point_data, &cell_data})
      for (const Field& f : *fields) {
        Transfer& t = transfer(fields == &cell_data, f.components);
        gather(t, f.values, f.int_values);
        const std::uint64_t offset = offsets[k++];
        unless_failed(failure, [&] {
          out->write(share_of(t.natural, offset, petsc::ConstArray(t.natural)));
        });
      }
    unless_failed(failure, [&] { out->close(false); });
    rethrow_collectively(comm_, failure);
  }

  std::int64_t bytes = 0;
  run_on_root(comm_, [&] {
    std::error_code ec;
    const auto size = static_cast<std::int64_t>(fs::file_size(h5_, ec));
    if (ec) throw_io_error(h5_, ec.value());
    bytes = size - h5_bytes_;
    h5_bytes_ = size;
    const int int_precision = static_cast<int>(sizeof(PetscInt));
    std::string grid = cat(
        "      <Grid Name=\"", step, "\" GridType=\"Uniform\">\n", "        <Time Value=\"",
        format_time(time), "\"/>\n", "        <Topology TopologyType=\"Mixed\" NumberOfElements=\"",
        num_global_cells_, "\">\n          ",
        data_item(topology_size_, 1, "Int", int_precision, h5_name_, "/mesh/topology"),
        "\n        </Topology>\n        <Geometry GeometryType=\"XYZ\">\n"
        "          ",
        data_item(num_global_nodes_, 3, "Float", 8, h5_name_, "/mesh/geometry"),
        "\n        </Geometry>\n");
    auto attribute = [&](const Field& f, bool is_cell) {
      grid += cat("        <Attribute Name=\"", xml_escape(f.name), "\" AttributeType=\"",
                  attribute_type(f.components), "\" Center=\"", is_cell ? "Cell" : "Node",
                  "\">\n          ",
                  data_item(is_cell ? num_global_cells_ : num_global_nodes_, f.components, "Float",
                            8, h5_name_, cat(group, "/", f.name)),
                  "\n        </Attribute>\n");
    };
    for (const Field& f : point_data) attribute(f, false);
    for (const Field& f : cell_data) attribute(f, true);
    grid += "      </Grid>\n";
    index_->add(time, std::move(grid));
  });
  ++counter_;
  INERTIA_MPI(MPI_Bcast(&bytes, 1, MPI_INT64_T, 0, comm_));
  last_frame_bytes_ = bytes;
  return bytes;
}

void XdmfSeriesWriter::mark_failed(const std::string& reason) {
  if (index_) index_->mark_failed(reason);
}

}  // namespace inertia::io
