#include "inertia/io/checkpoint.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <petscviewerhdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <regex>

#include "hdf5_file.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "io_common.hpp"

namespace inertia::io {

namespace fs = std::filesystem;

using detail::Hdf5File;
using detail::QuietHdf5;
using detail::require_free_space;
using detail::SliceWriter;
using detail::unless_failed;

namespace {

using Viewer = petsc::Handle<PetscViewer, PetscViewerDestroy>;

/// Step of a checkpoint file name, or -1.
std::int64_t step_of(const fs::path& p) {
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::smatch m;
  const std::string name = p.filename().string();
  if (!std::regex_match(name, m, pattern)) return -1;
  return std::stoll(m[1]);
}

/// Complete checkpoints in a directory, oldest first.
std::vector<std::pair<std::int64_t, fs::path>> checkpoints_in(const fs::path& dir) {
  std::vector<std::pair<std::int64_t, fs::path>> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (const auto s = step_of(it->path()); s >= 0 && it->is_regular_file())
      out.emplace_back(s, it->path());
  std::sort(out.begin(), out.end());
  return out;
}

/// Collective. A checksum of a vector's values that does not depend on how it is distributed:
/// sum over entries (mod 2^64) of the value's bit pattern times (2 i + 1), i its global index.
std::int64_t checksum(MPI_Comm comm, Vec x) {
  PetscInt begin = 0, end = 0;
  INERTIA_PETSC(VecGetOwnershipRange(x, &begin, &end));
  std::uint64_t local = 0, global = 0;
  {
    petsc::ConstArray a(x);
    for (PetscInt i = 0; i < a.size(); ++i)
      local += std::bit_cast<std::uint64_t>(a[i]) * (2 * static_cast<std::uint64_t>(begin + i) + 1);
  }
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_UINT64_T, MPI_SUM, comm));
  return std::bit_cast<std::int64_t>(global);
}

constexpr const char* complete_attribute = "checkpoint_complete";

// The whole file's hash, in the HDF5 user block (the first 512 bytes, which HDF5 leaves to us),
// is checked before HDF5 reads anything: a damaged file never reaches HDF5's parser, whose
// reaction to damaged metadata is not ours to promise, and a changed attribute (time, dt, the
// energy sums: no vector checksum covers them) is refused. A file without the header (written
// before it existed) is read as before.
constexpr hsize_t user_block = 512;
constexpr std::string_view header_signature = "inertia checkpoint: xxh3-64 ";
constexpr std::uint64_t hash_chunk = std::uint64_t{64} << 20;

/// Collective. XXH3-64 of the bytes of `file` from the user block's end to `size`, in chunks of
/// 64 MiB hashed by the ranks in turn (each reads its own from the file), the chunks' hashes then
/// hashed in order: the same on any rank count. IoError on every rank if a rank cannot read.
std::uint64_t content_hash(MPI_Comm comm, const fs::path& file, std::uint64_t size) {
  const std::uint64_t body = size > user_block ? size - user_block : 0;
  const std::uint64_t chunks = (body + hash_chunk - 1) / hash_chunk;
  std::vector<std::uint64_t> hashes(chunks, 0);
  std::exception_ptr failure;
  try {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw_io_error(file, errno);
    std::vector<char> buffer(std::size_t{1} << 20);
    try {
      const auto rank = static_cast<std::uint64_t>(rank_of(comm));
      const auto ranks = static_cast<std::uint64_t>(size_of(comm));
      for (std::uint64_t k = rank; k < chunks; k += ranks) {
        Hasher h;
        std::uint64_t at = user_block + k * hash_chunk;
        const std::uint64_t end = std::min(at + hash_chunk, size);
        while (at < end) {
          const ssize_t n =
              ::pread(fd, buffer.data(), std::min<std::uint64_t>(buffer.size(), end - at),
                      static_cast<off_t>(at));
          if (n < 0 && errno == EINTR) continue;
          if (n < 0) throw_io_error(file, errno);
          if (n == 0) throw IoError(cat(file.string(), ": shorter than it was"));
          h.add_bytes(buffer.data(), static_cast<std::size_t>(n));
          at += static_cast<std::uint64_t>(n);
        }
        hashes[k] = h.digest();
      }
    } catch (...) {
      ::close(fd);
      throw;
    }
    ::close(fd);
  } catch (...) {
    failure = std::current_exception();
  }
  rethrow_collectively(comm, failure);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, hashes.data(), static_cast<int>(chunks), MPI_UINT64_T,
                            MPI_SUM, comm));  // each chunk's slot is set by one rank
  Hasher h;
  h.add(size).add(std::span<const std::uint64_t>(hashes));
  return h.digest();
}

/// A caller's array in a Vec made without one (VecCreateMPIWithArray with no array) for the scope
/// of the object: VecPlaceArray, then VecResetArray (never throws).
class Placed {
 public:
  Placed(Vec v, double* values) : v_(v) {
    static double none = 0;  // an empty span may have no storage
    INERTIA_PETSC(VecPlaceArray(v_, values ? values : &none));
  }
  Placed(const Placed&) = delete;
  Placed& operator=(const Placed&) = delete;
  ~Placed() { (void)VecResetArray(v_); }

 private:
  Vec v_;
};

/// The dimensions of dataset `name` of the file open in `viewer` (every rank, alike).
std::vector<hsize_t> dataset_dims(PetscViewer viewer, const std::string& name) {
  hid_t file = H5I_INVALID_HID;
  INERTIA_PETSC(PetscViewerHDF5GetFileId(viewer, &file));
  const hid_t dataset = H5Dopen2(file, ("/" + name).c_str(), H5P_DEFAULT);
  INERTIA_CHECK(dataset >= 0, Error, "HDF5 cannot open the dataset '", name, "'");
  const hid_t space = H5Dget_space(dataset);
  const int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  const bool ok = rank >= 0 && H5Sget_simple_extent_dims(space, dims.data(), nullptr) == rank;
  if (space >= 0) H5Sclose(space);
  H5Dclose(dataset);
  INERTIA_CHECK(ok, Error, "HDF5 cannot read the shape of the dataset '", name, "'");
  return dims;
}

/// The user block's text: the signature, the hash and the size the file has.
std::string header_text(std::uint64_t hash, std::uint64_t size) {
  char text[128];
  std::snprintf(text, sizeof text, "%.*s%016llx size %llu\n",
                static_cast<int>(header_signature.size()), header_signature.data(),
                static_cast<unsigned long long>(hash), static_cast<unsigned long long>(size));
  return text;
}

}  // namespace

std::string checkpoint_name(std::int64_t step) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "checkpoint_%09lld.h5", static_cast<long long>(step));
  return buf;
}

Checkpointer::Checkpointer(MPI_Comm comm, std::span<const std::int64_t> natural_ids,
                           std::int64_t num_global_nodes, Vec layout)
    : comm_(comm), num_global_nodes_(num_global_nodes) {
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

std::vector<Checkpointer::CellLayout*> Checkpointer::cell_layouts(const CellArrays& cells) {
  // The contract (CellArray), on every rank; the lowest failing rank's reason on every rank.
  std::string description;  // what every rank must agree on
  try {
    run_collectively(comm_, [&] {
      for (std::size_t k = 0; k < cells.size(); ++k) {
        const CellArray& c = cells[k];
        INERTIA_CHECK(c.stride >= 1 && c.num_global_rows >= 0, InternalError, "cell array '",
                      c.name, "': stride ", c.stride, ", ", c.num_global_rows, " rows");
        INERTIA_CHECK(c.num_global_rows <= PETSC_MAX_INT / c.stride, InternalError, "cell array '",
                      c.name, "': ", c.num_global_rows, " rows of ", c.stride,
                      " values exceed PETSc's index range (", PETSC_MAX_INT, ")");
        INERTIA_CHECK(c.values.size() == c.natural_rows.size() * static_cast<std::size_t>(c.stride),
                      InternalError, "cell array '", c.name, "': ", c.values.size(), " values for ",
                      c.natural_rows.size(), " rows of ", c.stride);
        for (const std::int64_t row : c.natural_rows)
          INERTIA_CHECK(row >= 0 && row < c.num_global_rows, InternalError, "cell array '", c.name,
                        "': natural row ", row, " is not in [0, ", c.num_global_rows, ")");
        for (std::size_t j = 0; j < k; ++j)
          INERTIA_CHECK(cells[j].name != c.name, InternalError, "cell array '", c.name,
                        "' is given twice");
        description += cat(c.name, ' ', c.stride, ' ', c.num_global_rows, '\n');
      }
    });
  } catch (const InternalError&) {
    throw;
  } catch (const Error& e) {
    throw InternalError(e.what());  // the type on the ranks that did not fail
  }
  INERTIA_CHECK(all_true(comm_, broadcast_string(comm_, description) == description), InternalError,
                "checkpoint: the ranks do not pass the same cell arrays");
  std::vector<CellLayout*> layouts;
  for (const CellArray& c : cells) {
    CellLayout& l = cell_layouts_[c.name];
    const bool same = l.ready && l.stride == c.stride && l.num_global_rows == c.num_global_rows &&
                      std::ranges::equal(l.natural_rows, c.natural_rows);
    layouts.push_back(&l);
    if (all_true(comm_, same)) continue;
    // Made anew: this rank's rows as a block vector, the natural order split by PETSc.
    l.ready = false;  // until it is complete and checked
    l.stride = c.stride;
    l.num_global_rows = c.num_global_rows;
    l.natural_rows.assign(c.natural_rows.begin(), c.natural_rows.end());
    const auto rows = static_cast<PetscInt>(c.natural_rows.size());
    PetscInt local_rows = PETSC_DECIDE, global_rows = static_cast<PetscInt>(c.num_global_rows);
    INERTIA_PETSC(PetscSplitOwnership(comm_, &local_rows, &global_rows));
    INERTIA_PETSC(VecCreateMPIWithArray(comm_, c.stride, rows * c.stride, PETSC_DECIDE, nullptr,
                                        l.local.out()));
    INERTIA_PETSC(VecCreate(comm_, l.natural.out()));
    INERTIA_PETSC(VecSetSizes(l.natural, c.stride * local_rows, c.stride * global_rows));
    INERTIA_PETSC(VecSetBlockSize(l.natural, c.stride));
    INERTIA_PETSC(VecSetType(l.natural, VECMPI));
    PetscInt begin = 0, end = 0;
    INERTIA_PETSC(VecGetOwnershipRange(l.local, &begin, &end));
    const std::vector<PetscInt> to(c.natural_rows.begin(), c.natural_rows.end());
    petsc::IndexSet from_is, to_is;
    INERTIA_PETSC(ISCreateStride(comm_, end - begin, begin, 1, from_is.out()));
    INERTIA_PETSC(ISCreateBlock(comm_, c.stride, rows, to.data(), PETSC_COPY_VALUES, to_is.out()));
    INERTIA_PETSC(VecScatterCreate(l.local, from_is, l.natural, to_is, l.scatter.out()));
    // Every natural row on exactly one rank: each entry of the natural vector gets one 1.
    std::vector<double> ones(c.values.size(), 1.0);
    {
      const Placed placed(l.local, ones.data());
      INERTIA_PETSC(VecSet(l.natural, 0.0));
      INERTIA_PETSC(VecScatterBegin(l.scatter, l.local, l.natural, ADD_VALUES, SCATTER_FORWARD));
      INERTIA_PETSC(VecScatterEnd(l.scatter, l.local, l.natural, ADD_VALUES, SCATTER_FORWARD));
    }
    PetscReal low = 1, high = 1;
    if (c.num_global_rows > 0) {
      INERTIA_PETSC(VecMin(l.natural, nullptr, &low));
      INERTIA_PETSC(VecMax(l.natural, nullptr, &high));
    }
    INERTIA_CHECK(low == 1 && high == 1, InternalError, "cell array '", c.name,
                  "': the ranks' natural rows do not cover [0, ", c.num_global_rows, ") once each");
    l.ready = true;
  }
  return layouts;
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
  const std::vector<CellLayout*> layouts = cell_layouts(cells);
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
  // Offsets: the vectors', then the cell arrays'.
  std::vector<std::uint64_t> offsets(vectors.size() + cells.size());
  run_on_root(comm_, [&] {
    Hdf5File h5(tmp, Hdf5File::Mode::create, user_block);
    const auto rows = static_cast<hsize_t>(num_global_nodes_);
    for (std::size_t k = 0; k < vectors.size(); ++k)
      offsets[k] = h5.create_dataset("/" + vectors[k].first, {rows, 3}, H5T_NATIVE_DOUBLE);
    for (std::size_t k = 0; k < cells.size(); ++k)
      offsets[vectors.size() + k] = h5.create_dataset(
          "/" + cells[k].name,
          {static_cast<hsize_t>(cells[k].num_global_rows), static_cast<hsize_t>(cells[k].stride)},
          H5T_NATIVE_DOUBLE);
    h5.write_attribute("num_global_nodes", static_cast<long>(num_global_nodes_));
    for (const auto& [name, x] : attributes.reals) h5.write_attribute(name, x);
    for (const auto& [name, x] : attributes.integers)
      h5.write_attribute(name, static_cast<long>(x));
    for (const auto& [name, x] : attributes.strings) h5.write_attribute(name, x);
    h5.close();
  });
  INERTIA_MPI(MPI_Bcast(offsets.data(), static_cast<int>(offsets.size()), MPI_UINT64_T, 0, comm_));
  std::vector<long> sums(vectors.size() + cells.size());
  {
    // A rank whose write fails keeps taking part in the scatters and checksums (collective) and
    // says so after the last vector.
    std::exception_ptr failure;
    std::optional<SliceWriter> out;
    unless_failed(failure, [&] { out.emplace(tmp); });
    PetscInt begin = 0, end = 0;
    INERTIA_PETSC(VecGetOwnershipRange(natural_, &begin, &end));
    for (std::size_t k = 0; k < vectors.size(); ++k) {
      INERTIA_PETSC(
          VecScatterBegin(scatter_, vectors[k].second, natural_, INSERT_VALUES, SCATTER_FORWARD));
      INERTIA_PETSC(
          VecScatterEnd(scatter_, vectors[k].second, natural_, INSERT_VALUES, SCATTER_FORWARD));
      sums[k] = checksum(comm_, natural_);
      unless_failed(failure, [&] {
        petsc::ConstArray a(natural_);
        out->write({offsets[k] + 8 * static_cast<std::uint64_t>(begin), std::as_bytes(a.span())});
      });
    }
    for (std::size_t k = 0; k < cells.size(); ++k) {
      CellLayout& l = *layouts[k];
      {
        const Placed placed(l.local, cells[k].values.data());
        INERTIA_PETSC(
            VecScatterBegin(l.scatter, l.local, l.natural, INSERT_VALUES, SCATTER_FORWARD));
        INERTIA_PETSC(VecScatterEnd(l.scatter, l.local, l.natural, INSERT_VALUES, SCATTER_FORWARD));
      }
      const std::size_t at = vectors.size() + k;
      sums[at] = checksum(comm_, l.natural);
      PetscInt first = 0, last = 0;
      INERTIA_PETSC(VecGetOwnershipRange(l.natural, &first, &last));
      unless_failed(failure, [&] {
        petsc::ConstArray a(l.natural);
        if (a.size() > 0)
          out->write(
              {offsets[at] + 8 * static_cast<std::uint64_t>(first), std::as_bytes(a.span())});
      });
    }
    unless_failed(failure, [&] { out->close(true); });
    rethrow_collectively(comm_, failure);
  }
  run_on_root(comm_, [&] {
    Hdf5File h5(tmp, Hdf5File::Mode::append);
    for (std::size_t k = 0; k < vectors.size(); ++k)
      h5.write_attribute("checksum." + vectors[k].first, sums[k]);
    for (std::size_t k = 0; k < cells.size(); ++k)
      h5.write_attribute("checksum." + cells[k].name, sums[vectors.size() + k]);
    h5.write_attribute(complete_attribute, 1L);
    h5.close();
  });
  // The whole file's hash into its user block (read back by every rank, chunk by chunk).
  std::uint64_t size = 0;
  run_on_root(comm_, [&] { size = static_cast<std::uint64_t>(fs::file_size(tmp)); });
  INERTIA_MPI(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm_));
  const std::uint64_t hash = content_hash(comm_, tmp, size);
  run_on_root(comm_, [&] {
    const std::string header = header_text(hash, size);
    SliceWriter out(tmp);
    out.write({0, std::as_bytes(std::span<const char>(header))});
    out.close(true);
  });
  std::int64_t bytes = 0;
  run_on_root(comm_, [&] {
    bytes = static_cast<std::int64_t>(fs::file_size(tmp));
    fs::rename(tmp, file);
    auto all = checkpoints_in(directory);
    const auto excess = static_cast<std::ptrdiff_t>(all.size()) - std::max(keep, 1);
    // The newest checkpoint at or before keep_at_or_before stays (all is oldest first).
    std::ptrdiff_t trusted = -1;
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(all.size()); ++i)
      if (all[i].first <= keep_at_or_before) trusted = i;
    for (std::ptrdiff_t i = 0; i < excess; ++i)
      if (i != trusted) fs::remove(all[i].second);
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
  const std::vector<CellLayout*> layouts = cell_layouts(cells);
  const QuietHdf5 quiet;
  Viewer viewer;
  // Damage: the file cannot be opened, or lacks what a complete checkpoint has, or its data do
  // not match their checksums. Every rank learns it (as an InputError, the kind that crosses
  // run_collectively) and raises DamagedCheckpoint.
  auto damaged = [&](auto&& f) {
    try {
      run_collectively(comm_, [&] {
        try {
          f();
        } catch (const Error& e) {
          throw InputError(cat(file.string(),
                               ": cannot restart from this checkpoint: it is damaged (", e.what(),
                               ")"));
        }
      });
    } catch (const InputError& e) {
      throw DamagedCheckpoint(e.what());
    }
  };
  auto require = [&](const std::string& name) {
    PetscBool has = PETSC_FALSE;
    INERTIA_PETSC(PetscViewerHDF5HasAttribute(viewer, "/", name.c_str(), &has));
    INERTIA_CHECK(has, Error, "no attribute '", name, "'");
  };
  // The whole file's hash first (rank 0 reads the user block; every rank decides alike).
  damaged([&] {
    std::string head(128, '\0');
    std::uint64_t size = 0;
    run_on_root(comm_, [&] {
      const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
      struct stat st {};
      if (fd < 0 || ::fstat(fd, &st) != 0) throw_io_error(file, errno);
      size = static_cast<std::uint64_t>(st.st_size);
      const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
      ::close(fd);
      head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    });
    head = broadcast_string(comm_, head);
    INERTIA_MPI(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm_));
    if (head.starts_with("\x89HDF\r\n\x1a\n")) return;  // written before the header existed
    unsigned long long hash = 0, written = 0;
    INERTIA_CHECK(
        head.starts_with(header_signature) && std::sscanf(head.c_str() + header_signature.size(),
                                                          "%16llx size %llu", &hash, &written) == 2,
        Error, "no checkpoint header");
    INERTIA_CHECK(written == size, Error, "it has ", size, " bytes, it was written with ", written);
    INERTIA_CHECK(content_hash(comm_, file, size) == hash, Error,
                  "its content does not match its hash");
  });
  long nodes = -1;
  damaged([&] {
    try {
      INERTIA_PETSC(PetscViewerHDF5Open(comm_, file.c_str(), FILE_MODE_READ, viewer.out()));
    } catch (const SolverError&) {
      throw Error("HDF5 cannot open it: truncated, overwritten or not an HDF5 file");
    }
    require(complete_attribute);
    require("num_global_nodes");
    INERTIA_PETSC(
        PetscViewerHDF5ReadAttribute(viewer, "/", "num_global_nodes", PETSC_LONG, nullptr, &nodes));
    for (auto& [name, x] : attributes.reals) {
      require(name);
      INERTIA_PETSC(
          PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_DOUBLE, nullptr, &x));
    }
    for (auto& [name, x] : attributes.integers) {
      require(name);
      long value = 0;
      INERTIA_PETSC(
          PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_LONG, nullptr, &value));
      x = value;
    }
    for (auto& [name, x] : attributes.optional_strings) {
      PetscBool has = PETSC_FALSE;
      INERTIA_PETSC(PetscViewerHDF5HasAttribute(viewer, "/", name.c_str(), &has));
      x.clear();
      if (!has) continue;
      char* value = nullptr;
      INERTIA_PETSC(
          PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_STRING, nullptr, &value));
      x = value;
      INERTIA_PETSC(PetscFree(value));
    }
    for (auto& [name, x] : attributes.strings) {
      require(name);
      char* value = nullptr;
      INERTIA_PETSC(
          PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_STRING, nullptr, &value));
      x = value;
      INERTIA_PETSC(PetscFree(value));
    }
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
  damaged([&] {
    for (const auto& [name, v] : vectors) {
      PetscBool has = PETSC_FALSE;
      INERTIA_PETSC(PetscViewerHDF5HasDataset(viewer, cat("/", name).c_str(), &has));
      INERTIA_CHECK(has, Error, "no dataset '", name, "'");
      require("checksum." + name);
      long expected = 0;
      INERTIA_PETSC(PetscViewerHDF5ReadAttribute(viewer, "/", ("checksum." + name).c_str(),
                                                 PETSC_LONG, nullptr, &expected));
      INERTIA_PETSC(
          PetscObjectSetName(reinterpret_cast<PetscObject>(natural_.get()), name.c_str()));
      INERTIA_PETSC(VecLoad(natural_, viewer));
      INERTIA_CHECK(checksum(comm_, natural_) == expected, Error, "the values of '", name,
                    "' do not match their checksum");
      INERTIA_PETSC(VecScatterBegin(scatter_, natural_, v, INSERT_VALUES, SCATTER_REVERSE));
      INERTIA_PETSC(VecScatterEnd(scatter_, natural_, v, INSERT_VALUES, SCATTER_REVERSE));
    }
    for (std::size_t k = 0; k < cells.size(); ++k) {
      const CellArray& c = cells[k];
      CellLayout& l = *layouts[k];
      PetscBool has = PETSC_FALSE;
      INERTIA_PETSC(PetscViewerHDF5HasDataset(viewer, cat("/", c.name).c_str(), &has));
      INERTIA_CHECK(has, Error, "no dataset '", c.name, "'");
      const std::vector<hsize_t> dims = dataset_dims(viewer, c.name);
      INERTIA_CHECK(dims.size() == 2 && dims[0] == static_cast<hsize_t>(c.num_global_rows) &&
                        dims[1] == static_cast<hsize_t>(c.stride),
                    Error, "the dataset '", c.name, "' is not ", c.num_global_rows, " rows of ",
                    c.stride, " values");
      require("checksum." + c.name);
      long expected = 0;
      INERTIA_PETSC(PetscViewerHDF5ReadAttribute(viewer, "/", ("checksum." + c.name).c_str(),
                                                 PETSC_LONG, nullptr, &expected));
      if (c.num_global_rows > 0) {  // HDF5 reads nothing from an empty dataset
        INERTIA_PETSC(
            PetscObjectSetName(reinterpret_cast<PetscObject>(l.natural.get()), c.name.c_str()));
        INERTIA_PETSC(VecLoad(l.natural, viewer));
      }
      INERTIA_CHECK(checksum(comm_, l.natural) == expected, Error, "the values of '", c.name,
                    "' do not match their checksum");
      const Placed placed(l.local, c.values.data());
      INERTIA_PETSC(VecScatterBegin(l.scatter, l.natural, l.local, INSERT_VALUES, SCATTER_REVERSE));
      INERTIA_PETSC(VecScatterEnd(l.scatter, l.natural, l.local, INSERT_VALUES, SCATTER_REVERSE));
    }
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
