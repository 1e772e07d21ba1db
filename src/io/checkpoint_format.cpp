/// \file checkpoint_format.cpp
/// A checkpoint file's name, checksums, whole-file hash and attributes (checkpoint_format.hpp).
#include "checkpoint_format.hpp"

#include <fcntl.h>
#include <petscviewerhdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <exception>
#include <regex>

#include "hdf5_file.hpp"
#include "inertia/core/files.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::io::detail {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view header_signature = "inertia checkpoint: xxh3-64 ";
constexpr std::uint64_t hash_chunk = std::uint64_t{64} << 20;

/// The user block's text: the signature, the hash and the size the file has.
std::string header_text(std::uint64_t hash, std::uint64_t size) {
  char text[128];
  std::snprintf(text, sizeof text, "%.*s%016llx size %llu\n",
                static_cast<int>(header_signature.size()), header_signature.data(),
                static_cast<unsigned long long>(hash), static_cast<unsigned long long>(size));
  return text;
}

}  // namespace

std::int64_t step_of(const fs::path& p) {
  static const std::regex pattern(R"(checkpoint_(\d+)\.h5)");
  std::smatch m;
  const std::string name = p.filename().string();
  if (!std::regex_match(name, m, pattern)) return -1;
  return std::stoll(m[1]);
}

std::vector<std::pair<std::int64_t, fs::path>> checkpoints_in(const fs::path& dir) {
  std::vector<std::pair<std::int64_t, fs::path>> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (const auto s = step_of(it->path()); s >= 0 && it->is_regular_file())
      out.emplace_back(s, it->path());
  std::sort(out.begin(), out.end());
  return out;
}

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

void write_header(MPI_Comm comm, const fs::path& file) {
  std::uint64_t size = 0;
  run_on_root(comm, [&] { size = static_cast<std::uint64_t>(fs::file_size(file)); });
  INERTIA_MPI(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm));
  const std::uint64_t hash = content_hash(comm, file, size);
  run_on_root(comm, [&] {
    const std::string header = header_text(hash, size);
    SliceWriter out(file);
    out.write({0, std::as_bytes(std::span<const char>(header))});
    out.close(true);
  });
}

void verify_header(MPI_Comm comm, const fs::path& file) {
  // Rank 0 reads the user block; every rank decides alike.
  std::string head(128, '\0');
  std::uint64_t size = 0;
  run_on_root(comm, [&] {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0) throw_io_error(file, errno);
    size = static_cast<std::uint64_t>(st.st_size);
    const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
    ::close(fd);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  });
  head = broadcast_string(comm, head);
  INERTIA_MPI(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, comm));
  if (head.starts_with("\x89HDF\r\n\x1a\n")) return;  // written before the header existed
  unsigned long long hash = 0, written = 0;
  INERTIA_CHECK(
      head.starts_with(header_signature) && std::sscanf(head.c_str() + header_signature.size(),
                                                        "%16llx size %llu", &hash, &written) == 2,
      Error, "no checkpoint header");
  INERTIA_CHECK(written == size, Error, "it has ", size, " bytes, it was written with ", written);
  INERTIA_CHECK(content_hash(comm, file, size) == hash, Error,
                "its content does not match its hash");
}

void as_damage(MPI_Comm comm, const fs::path& file, const std::function<void()>& f) {
  // Every rank learns it (as an InputError, the kind that crosses run_collectively) and raises
  // DamagedCheckpoint.
  try {
    run_collectively(comm, [&] {
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
}

void require_attribute(PetscViewer viewer, const std::string& name) {
  PetscBool has = PETSC_FALSE;
  INERTIA_PETSC(PetscViewerHDF5HasAttribute(viewer, "/", name.c_str(), &has));
  INERTIA_CHECK(has, Error, "no attribute '", name, "'");
}

namespace {

/// A string attribute of the root group (present).
std::string read_string(PetscViewer viewer, const std::string& name) {
  char* value = nullptr;
  INERTIA_PETSC(
      PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_STRING, nullptr, &value));
  std::string out = value;
  INERTIA_PETSC(PetscFree(value));
  return out;
}

}  // namespace

long read_attributes(PetscViewer viewer, CheckpointAttributes& attributes) {
  long nodes = -1;
  require_attribute(viewer, complete_attribute);
  require_attribute(viewer, "num_global_nodes");
  INERTIA_PETSC(
      PetscViewerHDF5ReadAttribute(viewer, "/", "num_global_nodes", PETSC_LONG, nullptr, &nodes));
  for (auto& [name, x] : attributes.reals) {
    require_attribute(viewer, name);
    INERTIA_PETSC(
        PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_DOUBLE, nullptr, &x));
  }
  for (auto& [name, x] : attributes.integers) {
    require_attribute(viewer, name);
    long value = 0;
    INERTIA_PETSC(
        PetscViewerHDF5ReadAttribute(viewer, "/", name.c_str(), PETSC_LONG, nullptr, &value));
    x = value;
  }
  for (auto& [name, x] : attributes.optional_strings) {
    PetscBool has = PETSC_FALSE;
    INERTIA_PETSC(PetscViewerHDF5HasAttribute(viewer, "/", name.c_str(), &has));
    x.clear();
    if (has) x = read_string(viewer, name);
  }
  for (auto& [name, x] : attributes.strings) {
    require_attribute(viewer, name);
    x = read_string(viewer, name);
  }
  return nodes;
}

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

void prune_checkpoints(const fs::path& directory, int keep, std::int64_t keep_at_or_before) {
  auto all = checkpoints_in(directory);
  const auto excess = static_cast<std::ptrdiff_t>(all.size()) - std::max(keep, 1);
  // The newest checkpoint at or before keep_at_or_before stays (all is oldest first).
  std::ptrdiff_t trusted = -1;
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(all.size()); ++i)
    if (all[i].first <= keep_at_or_before) trusted = i;
  for (std::ptrdiff_t i = 0; i < excess; ++i)
    if (i != trusted) fs::remove(all[i].second);
}

}  // namespace inertia::io::detail
