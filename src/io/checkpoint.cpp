#include "inertia/io/checkpoint.hpp"

#include <hdf5.h>
#include <petscviewerhdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>

#include "checkpoint_format.hpp"
#include "hdf5_file.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "io_common.hpp"

namespace inertia::io {

namespace fs = std::filesystem;

using detail::as_damage;
using detail::checkpoints_in;
using detail::checksum;
using detail::Hdf5File;
using detail::QuietHdf5;
using detail::require_attribute;
using detail::require_free_space;
using detail::SliceWriter;
using detail::step_of;
using detail::unless_failed;
using detail::user_block;

namespace {

/// Rank 0: the file `tmp` with the datasets of `vectors` (num_global_nodes x 3) and `cells` and
/// the case's attributes; returns the datasets' byte offsets (the vectors', then the cell
/// arrays'), on every rank.
std::vector<std::uint64_t> create_datasets(MPI_Comm comm, const fs::path& tmp,
                                           std::int64_t num_global_nodes,
                                           const CheckpointAttributes& attributes,
                                           const NamedVectors& vectors, const CellArrays& cells) {
  std::vector<std::uint64_t> offsets(vectors.size() + cells.size());
  run_on_root(comm, [&] {
    Hdf5File h5(tmp, Hdf5File::Mode::create, user_block);
    const auto rows = static_cast<hsize_t>(num_global_nodes);
    for (std::size_t k = 0; k < vectors.size(); ++k)
      offsets[k] = h5.create_dataset("/" + vectors[k].first, {rows, 3}, H5T_NATIVE_DOUBLE);
    for (std::size_t k = 0; k < cells.size(); ++k)
      offsets[vectors.size() + k] = h5.create_dataset(
          "/" + cells[k].name,
          {static_cast<hsize_t>(cells[k].num_global_rows), static_cast<hsize_t>(cells[k].stride)},
          H5T_NATIVE_DOUBLE);
    h5.write_attribute("num_global_nodes", static_cast<long>(num_global_nodes));
    for (const auto& [name, x] : attributes.reals) h5.write_attribute(name, x);
    for (const auto& [name, x] : attributes.integers)
      h5.write_attribute(name, static_cast<long>(x));
    for (const auto& [name, x] : attributes.strings) h5.write_attribute(name, x);
    h5.close();
  });
  INERTIA_MPI(MPI_Bcast(offsets.data(), static_cast<int>(offsets.size()), MPI_UINT64_T, 0, comm));
  return offsets;
}

/// Collective: every rank writes its share of each vector (scattered to `natural`, the natural
/// order: one contiguous range of each dataset) and of each cell array at `offsets`, and closes
/// its descriptor, the data made durable; returns the checksums. A rank whose write fails keeps
/// taking part in the scatters and checksums (collective) and says so after the last array.
std::vector<long> write_values(MPI_Comm comm, const fs::path& tmp,
                               const std::vector<std::uint64_t>& offsets, Vec natural,
                               VecScatter scatter, const NamedVectors& vectors,
                               const CellArrays& cells,
                               const std::vector<CellLayouts::Layout*>& layouts) {
  std::vector<long> sums(vectors.size() + cells.size());
  std::exception_ptr failure;
  std::optional<SliceWriter> out;
  unless_failed(failure, [&] { out.emplace(tmp); });
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(natural, &begin, &end));
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    INERTIA_PETSC(
        VecScatterBegin(scatter, vectors[k].second, natural, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(
        VecScatterEnd(scatter, vectors[k].second, natural, INSERT_VALUES, SCATTER_FORWARD));
    sums[k] = checksum(comm, natural);
    unless_failed(failure, [&] {
      petsc::ConstArray a(natural);
      out->write({offsets[k] + 8 * static_cast<std::uint64_t>(begin), std::as_bytes(a.span())});
    });
  }
  for (std::size_t k = 0; k < cells.size(); ++k) {
    CellLayouts::Layout& l = *layouts[k];
    l.to_natural(cells[k].values);
    const std::size_t at = vectors.size() + k;
    sums[at] = checksum(comm, l.natural);
    PetscInt first = 0, last = 0;
    INERTIA_PETSC(VecGetOwnershipRange(l.natural, &first, &last));
    unless_failed(failure, [&] {
      petsc::ConstArray a(l.natural);
      if (a.size() > 0)
        out->write({offsets[at] + 8 * static_cast<std::uint64_t>(first), std::as_bytes(a.span())});
    });
  }
  unless_failed(failure, [&] { out->close(true); });
  rethrow_collectively(comm, failure);
  return sums;
}

/// Rank 0: the checksums and the completion attribute added to `tmp`.
void complete(MPI_Comm comm, const fs::path& tmp, const NamedVectors& vectors,
              const CellArrays& cells, const std::vector<long>& sums) {
  run_on_root(comm, [&] {
    Hdf5File h5(tmp, Hdf5File::Mode::append);
    for (std::size_t k = 0; k < vectors.size(); ++k)
      h5.write_attribute("checksum." + vectors[k].first, sums[k]);
    for (std::size_t k = 0; k < cells.size(); ++k)
      h5.write_attribute("checksum." + cells[k].name, sums[vectors.size() + k]);
    h5.write_attribute(detail::complete_attribute, 1L);
    h5.close();
  });
}

/// The checksum attribute of dataset `name` (Error if it or the dataset is missing).
long expected_checksum(PetscViewer viewer, const std::string& name) {
  PetscBool has = PETSC_FALSE;
  INERTIA_PETSC(PetscViewerHDF5HasDataset(viewer, cat("/", name).c_str(), &has));
  INERTIA_CHECK(has, Error, "no dataset '", name, "'");
  require_attribute(viewer, "checksum." + name);
  long expected = 0;
  INERTIA_PETSC(PetscViewerHDF5ReadAttribute(viewer, "/", ("checksum." + name).c_str(), PETSC_LONG,
                                             nullptr, &expected));
  return expected;
}

/// Collective: the vectors read through `natural` (checked against their checksums) and
/// scattered into this run's layout.
void read_vectors(MPI_Comm comm, PetscViewer viewer, Vec natural, VecScatter scatter,
                  const NamedVectors& vectors) {
  for (const auto& [name, v] : vectors) {
    const long expected = expected_checksum(viewer, name);
    INERTIA_PETSC(PetscObjectSetName(reinterpret_cast<PetscObject>(natural), name.c_str()));
    INERTIA_PETSC(VecLoad(natural, viewer));
    INERTIA_CHECK(checksum(comm, natural) == expected, Error, "the values of '", name,
                  "' do not match their checksum");
    INERTIA_PETSC(VecScatterBegin(scatter, natural, v, INSERT_VALUES, SCATTER_REVERSE));
    INERTIA_PETSC(VecScatterEnd(scatter, natural, v, INSERT_VALUES, SCATTER_REVERSE));
  }
}

/// Collective: the cell arrays read in natural order (their shapes and checksums checked) and
/// scattered into this run's rows.
void read_cells(MPI_Comm comm, PetscViewer viewer, const CellArrays& cells,
                const std::vector<CellLayouts::Layout*>& layouts) {
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const CellArray& c = cells[k];
    CellLayouts::Layout& l = *layouts[k];
    PetscBool has = PETSC_FALSE;
    INERTIA_PETSC(PetscViewerHDF5HasDataset(viewer, cat("/", c.name).c_str(), &has));
    INERTIA_CHECK(has, Error, "no dataset '", c.name, "'");
    const std::vector<hsize_t> dims = detail::dataset_dims(viewer, c.name);
    INERTIA_CHECK(dims.size() == 2 && dims[0] == static_cast<hsize_t>(c.num_global_rows) &&
                      dims[1] == static_cast<hsize_t>(c.stride),
                  Error, "the dataset '", c.name, "' is not ", c.num_global_rows, " rows of ",
                  c.stride, " values");
    const long expected = expected_checksum(viewer, c.name);
    if (c.num_global_rows > 0) {  // HDF5 reads nothing from an empty dataset
      INERTIA_PETSC(
          PetscObjectSetName(reinterpret_cast<PetscObject>(l.natural.get()), c.name.c_str()));
      INERTIA_PETSC(VecLoad(l.natural, viewer));
    }
    INERTIA_CHECK(checksum(comm, l.natural) == expected, Error, "the values of '", c.name,
                  "' do not match their checksum");
    l.from_natural(c.values);
  }
}

}  // namespace

std::string checkpoint_name(std::int64_t step) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "checkpoint_%09lld.h5", static_cast<long long>(step));
  return buf;
}

Checkpointer::Checkpointer(MPI_Comm comm, std::span<const std::int64_t> natural_ids,
                           std::int64_t num_global_nodes, Vec layout)
    : comm_(comm), num_global_nodes_(num_global_nodes), cell_layouts_(comm) {
  PetscInt local_nodes = PETSC_DECIDE, global_nodes = static_cast<PetscInt>(num_global_nodes);
  INERTIA_PETSC(PetscSplitOwnership(comm, &local_nodes, &global_nodes));
  INERTIA_PETSC(VecCreate(comm, natural_.out()));
  INERTIA_PETSC(VecSetSizes(natural_, 3 * local_nodes, 3 * global_nodes));
  INERTIA_PETSC(VecSetBlockSize(natural_, 3));
  INERTIA_PETSC(VecSetType(natural_, VECMPI));
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(layout, &begin, &end));
  INERTIA_CHECK(end - begin == 3 * static_cast<PetscInt>(natural_ids.size()), InternalError,
                "checkpoint: the layout does not match the owned nodes");
  std::vector<PetscInt> to(3 * natural_ids.size());
  for (std::size_t i = 0; i < natural_ids.size(); ++i)
    for (int c = 0; c < 3; ++c) to[3 * i + c] = static_cast<PetscInt>(3 * natural_ids[i] + c);
  petsc::IndexSet from_is, to_is;
  INERTIA_PETSC(ISCreateStride(comm, end - begin, begin, 1, from_is.out()));
  INERTIA_PETSC(ISCreateGeneral(comm, static_cast<PetscInt>(to.size()), to.data(),
                                PETSC_COPY_VALUES, to_is.out()));
  INERTIA_PETSC(VecScatterCreate(layout, from_is, natural_, to_is, scatter_.out()));
}

void Checkpointer::ensure_room(const fs::path& directory, const fs::path& file,
                               std::size_t num_vectors, std::uint64_t cell_bytes) const {
  // The previous checkpoint's size, or the data plus HDF5's metadata for the first one; a
  // quarter more for what the rest of the run writes meanwhile.
  const auto estimate = static_cast<std::uint64_t>(std::max<std::int64_t>(
      last_bytes_, 24 * num_global_nodes_ * static_cast<std::int64_t>(num_vectors) +
                       static_cast<std::int64_t>(cell_bytes) + (16 << 10)));
  require_free_space(comm_, directory, file, estimate + estimate / 4, "the checkpoint");
}

std::pair<fs::path, std::int64_t> Checkpointer::write(const fs::path& directory, std::int64_t step,
                                                      const CheckpointAttributes& attributes,
                                                      const NamedVectors& vectors, int keep,
                                                      std::int64_t keep_at_or_before,
                                                      const CellArrays& cells) {
  const std::vector<CellLayouts::Layout*> layouts = cell_layouts_.prepare(cells);
  for (const CellArray& c : cells)
    for (const auto& [name, x] : vectors)
      INERTIA_CHECK(name != c.name, InternalError, "checkpoint: '", name,
                    "' is both a vector and a cell array");  // the same on every rank
  std::uint64_t cell_bytes = 0;
  for (const CellArray& c : cells)
    cell_bytes +=
        8 * static_cast<std::uint64_t>(c.num_global_rows) * static_cast<std::uint64_t>(c.stride);
  const fs::path file = directory / checkpoint_name(step);
  const fs::path tmp = directory / (checkpoint_name(step) + ".tmp");
  run_on_root(comm_, [&] {
    std::error_code ec;
    fs::create_directories(directory, ec);
    INERTIA_CHECK(fs::is_directory(directory), InputError, directory.string(),
                  ": cannot create the checkpoint directory");
    fs::remove(tmp, ec);
  });
  ensure_room(directory, tmp, vectors.size(), cell_bytes);
  const QuietHdf5 quiet;
  // Three steps, each ended by an agreement of every rank (hdf5_file.hpp says why not parallel
  // HDF5): rank 0 creates the file, its datasets and the case's attributes; every rank writes its
  // share of each vector (natural order: one contiguous range of each dataset) and closes its
  // descriptor, the data made durable before the rename; rank 0 adds the checksums and the
  // completion attribute. A failure anywhere fails every rank with the system's reason, and the
  // temporary file never becomes a checkpoint.
  const auto offsets = create_datasets(comm_, tmp, num_global_nodes_, attributes, vectors, cells);
  const auto sums = write_values(comm_, tmp, offsets, natural_, scatter_, vectors, cells, layouts);
  complete(comm_, tmp, vectors, cells, sums);
  // The whole file's hash into its user block (read back by every rank, chunk by chunk).
  detail::write_header(comm_, tmp);
  std::int64_t bytes = 0;
  run_on_root(comm_, [&] {
    bytes = static_cast<std::int64_t>(fs::file_size(tmp));
    fs::rename(tmp, file);
    detail::prune_checkpoints(directory, keep, keep_at_or_before);
  });
  INERTIA_MPI(MPI_Bcast(&bytes, 1, MPI_INT64_T, 0, comm_));
  last_bytes_ = bytes;
  return {file, bytes};
}

int Checkpointer::set_aside_from(const fs::path& directory, std::int64_t step) {
  int count = 0;
  run_on_root(comm_, [&] {
    for (const auto& [s, file] : checkpoints_in(directory))
      if (s >= step) {
        fs::path aside = file;
        aside += ".unstable";
        fs::rename(file, aside);
        ++count;
      }
  });
  INERTIA_MPI(MPI_Bcast(&count, 1, MPI_INT, 0, comm_));
  return count;
}

void Checkpointer::read(const fs::path& file, const NamedVectors& vectors,
                        CheckpointAttributes& attributes,
                        const std::function<void(const CheckpointAttributes&)>& check,
                        const CellArrays& cells) {
  const std::vector<CellLayouts::Layout*> layouts = cell_layouts_.prepare(cells);
  const QuietHdf5 quiet;
  detail::Viewer viewer;
  // Damage: the file cannot be opened, or lacks what a complete checkpoint has, or its data do
  // not match their checksums (as_damage: DamagedCheckpoint on every rank). The whole file's hash
  // first.
  as_damage(comm_, file, [&] { detail::verify_header(comm_, file); });
  long nodes = -1;
  as_damage(comm_, file, [&] {
    try {
      INERTIA_PETSC(PetscViewerHDF5Open(comm_, file.c_str(), FILE_MODE_READ, viewer.out()));
    } catch (const SolverError&) {
      throw Error("HDF5 cannot open it: truncated, overwritten or not an HDF5 file");
    }
    nodes = detail::read_attributes(viewer, attributes);
  });
  // Another case: not damage, and no older checkpoint of the same directory would do.
  run_collectively(comm_, [&] {
    try {
      INERTIA_CHECK(nodes == num_global_nodes_, InputError, "it holds ", nodes,
                    " nodes but this case's mesh has ", num_global_nodes_);
      if (check) check(attributes);
    } catch (const InputError& e) {
      throw InputError(cat(file.string(), ": cannot restart from this checkpoint: ", e.what()));
    }
  });
  as_damage(comm_, file, [&] {
    read_vectors(comm_, viewer, natural_, scatter_, vectors);
    read_cells(comm_, viewer, cells, layouts);
  });
}

Restored Checkpointer::restore(const fs::path& path, const NamedVectors& vectors,
                               CheckpointAttributes& attributes,
                               const std::function<void(const CheckpointAttributes&)>& check,
                               const CellArrays& cells) {
  // Candidates, newest first (rank 0 looks; every rank gets the list).
  std::string list;
  run_on_root(comm_, [&] {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      INERTIA_CHECK(step_of(path) >= 0, InputError, path.string(),
                    ": not a checkpoint file (expected checkpoint_NNNNNNNNN.h5)");
      list = path.string() + '\n';
      return;
    }
    INERTIA_CHECK(fs::is_directory(path, ec), InputError, path.string(),
                  ": no such checkpoint file or directory");
    auto all = checkpoints_in(path);
    if (all.empty()) all = checkpoints_in(path / "checkpoints");
    INERTIA_CHECK(
        !all.empty(), InputError, path.string(),
        ": no complete checkpoint (checkpoint_NNNNNNNNN.h5) in it or in its checkpoints/");
    for (auto it = all.rbegin(); it != all.rend(); ++it) list += it->second.string() + '\n';
  });
  list = broadcast_string(comm_, list);
  Restored restored;
  for (std::size_t start = 0, end; (end = list.find('\n', start)) != std::string::npos;
       start = end + 1) {
    const fs::path file = list.substr(start, end - start);
    try {
      read(file, vectors, attributes, check, cells);
      restored.file = file;
      return restored;
    } catch (const DamagedCheckpoint& e) {
      if (list.find('\n', end + 1) == std::string::npos)  // the last candidate
        throw InputError(restored.skipped.empty()
                             ? std::string(e.what())
                             : cat(e.what(), "; and every newer checkpoint of ", path.string(),
                                   " is damaged too"));
      restored.skipped.push_back(e.what());
    }
  }
  throw InternalError("Checkpointer::restore: no candidate");
}

}  // namespace inertia::io
