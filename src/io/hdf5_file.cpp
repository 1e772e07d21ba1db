#include "hdf5_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "inertia/core/files.hpp"
#include "inertia/core/text.hpp"

namespace inertia::io::detail {

namespace fs = std::filesystem;

Hdf5Failure hdf5_failure() {
  Hdf5Failure found;
  auto visit = [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
    auto& f = *static_cast<Hdf5Failure*>(data);
    if (e->desc) {
      if (const char* at = std::strstr(e->desc, "errno = "); at && !f.error_number)
        f.error_number = std::atoi(at + 8);
      if (f.innermost.empty())
        f.innermost = std::string(e->func_name ? e->func_name : "?") + ": " + e->desc;
    }
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, visit, &found);
  return found;
}

namespace {

/// A property list, closed at the end of the scope.
class PropertyList {
 public:
  explicit PropertyList(hid_t cls) : id_(H5Pcreate(cls)) {}
  PropertyList(const PropertyList&) = delete;
  PropertyList& operator=(const PropertyList&) = delete;
  ~PropertyList() {
    if (id_ >= 0) H5Pclose(id_);
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_;
};

/// Any other HDF5 object (dataspace, dataset, group, attribute, datatype), closed at the end of
/// the scope.
class Object {
 public:
  explicit Object(hid_t id) : id_(id) {}
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  ~Object() {
    if (id_ >= 0) H5Idec_ref(id_);
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_;
};

/// HDF5's POSIX I/O as its default driver does it, except that a failed write, truncation or
/// close is recorded (the first errno, in `first_error`) and reported to HDF5 as a success. HDF5
/// 1.10.8 cannot recover from a failed write: after a failed flush its metadata cache refuses the
/// next one ("slist already enabled?"), H5Fclose fails, the file's ID stays behind half freed,
/// and HDF5 closes it again at MPI_Finalize: a segmentation fault (seen through the shim). With
/// this driver HDF5 always closes cleanly and Hdf5File throws the recorded errno instead; once a
/// write has failed, the driver writes nothing more. Reads fail normally. One file at a time per
/// process (rank 0), as this module uses it.
namespace driver {

int first_error = 0;
int open_error = 0;  ///< errno of the last failed open (HDF5 tries opens that may fail first)

void record(int error) {
  if (!first_error) first_error = error ? error : EIO;
}

struct File {
  H5FD_t public_part;  // first: HDF5 casts between the two
  int fd = -1;
  haddr_t eoa = 0, eof = 0;
  dev_t device = 0;
  ino_t inode = 0;
};

File* of(H5FD_t* f) { return reinterpret_cast<File*>(f); }
const File* of(const H5FD_t* f) { return reinterpret_cast<const File*>(f); }

H5FD_t* open(const char* name, unsigned flags, hid_t, haddr_t) {
  int mode = (flags & H5F_ACC_RDWR) ? O_RDWR : O_RDONLY;
  if (flags & H5F_ACC_TRUNC) mode |= O_TRUNC;
  if (flags & H5F_ACC_CREAT) mode |= O_CREAT;
  if (flags & H5F_ACC_EXCL) mode |= O_EXCL;
  const int fd = ::open(name, mode | O_CLOEXEC, 0666);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    open_error = errno;
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  auto* f = new File{};
  f->fd = fd;
  f->eof = static_cast<haddr_t>(st.st_size);
  f->device = st.st_dev;
  f->inode = st.st_ino;
  return &f->public_part;
}

herr_t close(H5FD_t* h) {
  File* f = of(h);
  if (::close(f->fd) != 0 && errno != EINTR) record(errno);
  delete f;
  return 0;
}

int compare(const H5FD_t* a, const H5FD_t* b) {
  const File *x = of(a), *y = of(b);
  if (x->device != y->device) return x->device < y->device ? -1 : 1;
  if (x->inode != y->inode) return x->inode < y->inode ? -1 : 1;
  return 0;
}

herr_t query(const H5FD_t*, unsigned long* flags) {
  *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
           H5FD_FEAT_AGGREGATE_SMALLDATA | H5FD_FEAT_POSIX_COMPAT_HANDLE;
  return 0;
}

haddr_t get_eoa(const H5FD_t* h, H5FD_mem_t) { return of(h)->eoa; }

herr_t set_eoa(H5FD_t* h, H5FD_mem_t, haddr_t addr) {
  of(h)->eoa = addr;
  return 0;
}

haddr_t get_eof(const H5FD_t* h, H5FD_mem_t) { return of(h)->eof; }

herr_t get_handle(H5FD_t* h, hid_t, void** handle) {
  *handle = &of(h)->fd;
  return 0;
}

herr_t read(H5FD_t* h, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
  File* f = of(h);
  auto* at = static_cast<char*>(buffer);
  while (size > 0) {
    const ssize_t n = ::pread(f->fd, at, size, static_cast<off_t>(addr));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) {  // past the end of the file: zeros, as HDF5's own drivers read
      std::memset(at, 0, size);
      break;
    }
    at += n, addr += static_cast<haddr_t>(n), size -= static_cast<size_t>(n);
  }
  return 0;
}

herr_t write(H5FD_t* h, H5FD_mem_t, hid_t, haddr_t addr, size_t size, const void* buffer) {
  File* f = of(h);
  const auto* at = static_cast<const char*>(buffer);
  const haddr_t end = addr + size;
  while (size > 0 && !first_error) {
    const ssize_t n = ::pwrite(f->fd, at, size, static_cast<off_t>(addr));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      record(n < 0 ? errno : EIO);
      break;
    }
    at += n, addr += static_cast<haddr_t>(n), size -= static_cast<size_t>(n);
  }
  if (end > f->eof) f->eof = end;
  return 0;
}

herr_t truncate(H5FD_t* h, hid_t, hbool_t) {
  File* f = of(h);
  if (f->eoa != f->eof && !first_error && ::ftruncate(f->fd, static_cast<off_t>(f->eoa)) != 0)
    record(errno);
  f->eof = f->eoa;
  return 0;
}

/// The driver's ID, registered with HDF5 on first use.
hid_t id() {
  static const hid_t registered = [] {
    static H5FD_class_t c{};
#if H5_VERSION_GE(1, 13, 2)
    c.version = H5FD_CLASS_VERSION;
    c.value = 599;  // in the range HDF5 leaves to applications' own drivers (512 to 1023)
#endif
    c.name = "inertia_checked_posix";
    c.maxaddr = (static_cast<haddr_t>(1) << (8 * sizeof(off_t) - 1)) - 1;
    c.fc_degree = H5F_CLOSE_WEAK;
    c.open = open;
    c.close = close;
    c.cmp = compare;
    c.query = query;
    c.get_eoa = get_eoa;
    c.set_eoa = set_eoa;
    c.get_eof = get_eof;
    c.get_handle = get_handle;
    c.read = read;
    c.write = write;
    c.truncate = truncate;
    const H5FD_mem_t dichotomy[H5FD_MEM_NTYPES] = H5FD_FLMAP_DICHOTOMY;
    std::copy(dichotomy, dichotomy + H5FD_MEM_NTYPES, c.fl_map);
    return H5FDregister(&c);
  }();
  return registered;
}

}  // namespace driver

}  // namespace

Hdf5File::Hdf5File(fs::path path, Mode mode, hsize_t user_block) : path_(std::move(path)) {
  driver::first_error = driver::open_error = 0;
  PropertyList creation(H5P_FILE_CREATE);
  if (creation.get() < 0 || (user_block && H5Pset_userblock(creation.get(), user_block) < 0))
    fail("HDF5 cannot set up the file");
  PropertyList access(H5P_FILE_ACCESS);
  // No file lock (the driver takes none): ParaView may read the series while the run appends.
  if (access.get() < 0 || driver::id() < 0 ||
      H5Pset_driver(access.get(), driver::id(), nullptr) < 0)
    fail("HDF5 cannot set up its file driver");
  file_ = mode == Mode::create
              ? H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, creation.get(), access.get())
              : H5Fopen(path_.c_str(), H5F_ACC_RDWR, access.get());
  if (file_ < 0) {
    if (driver::open_error) driver::record(driver::open_error);
    fail(mode == Mode::create ? "HDF5 cannot create it" : "HDF5 cannot open it");
  }
}

Hdf5File::~Hdf5File() {
  if (file_ >= 0) H5Fclose(file_);  // cannot fail on I/O (see the driver)
}

void Hdf5File::fail(const std::string& what) {
  const Hdf5Failure failure = hdf5_failure();
  H5Eclear2(H5E_DEFAULT);
  if (file_ >= 0) H5Fclose(std::exchange(file_, H5I_INVALID_HID));
  // The system's reason, recorded by the driver or in HDF5's error stack, if there is one.
  const int error = driver::first_error ? driver::first_error : failure.error_number;
  if (error) throw_io_error(path_, error);
  throw IoError(cat(path_.string(), ": ", what,
                    failure.innermost.empty() ? "" : cat(" (HDF5 ", failure.innermost, ")")));
}

void Hdf5File::create_group(const std::string& path) {
  Object group(H5Gcreate2(file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!group.valid()) fail(cat("HDF5 cannot create the group ", path));
}

std::uint64_t Hdf5File::create_dataset(const std::string& path, const std::vector<hsize_t>& dims,
                                       hid_t type) {
  Object space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr));
  PropertyList create(H5P_DATASET_CREATE);
  if (!space.valid() || create.get() < 0 || H5Pset_layout(create.get(), H5D_CONTIGUOUS) < 0 ||
      H5Pset_alloc_time(create.get(), H5D_ALLOC_TIME_EARLY) < 0 ||
      H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER) < 0)
    fail(cat("HDF5 cannot describe the dataset ", path));
  Object dataset(
      H5Dcreate2(file_, path.c_str(), type, space.get(), H5P_DEFAULT, create.get(), H5P_DEFAULT));
  if (!dataset.valid()) fail(cat("HDF5 cannot create the dataset ", path));
  const haddr_t offset = H5Dget_offset(dataset.get());
  if (offset == HADDR_UNDEF) {
    for (hsize_t d : dims)
      if (d == 0) return 0;  // nothing to write
    fail(cat("HDF5 did not allocate the dataset ", path));
  }
  return static_cast<std::uint64_t>(offset);
}

void Hdf5File::write_attribute(const std::string& name, hid_t type, const void* value) {
  Object space(H5Screate(H5S_SCALAR));
  Object attribute(
      space.valid() ? H5Acreate2(file_, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT)
                    : H5I_INVALID_HID);
  if (!attribute.valid() || H5Awrite(attribute.get(), type, value) < 0)
    fail(cat("HDF5 cannot write the attribute ", name));
}

void Hdf5File::write_attribute(const std::string& name, long value) {
  write_attribute(name, H5T_NATIVE_LONG, &value);
}

void Hdf5File::write_attribute(const std::string& name, double value) {
  write_attribute(name, H5T_NATIVE_DOUBLE, &value);
}

void Hdf5File::write_attribute(const std::string& name, const std::string& value) {
  Object type(H5Tcopy(H5T_C_S1));
  if (!type.valid() || H5Tset_size(type.get(), value.size() + 1) < 0)
    fail(cat("HDF5 cannot describe the attribute ", name));
  write_attribute(name, type.get(), value.c_str());
}

void Hdf5File::close() {
  // Everything HDF5 holds is written here; the driver has recorded any failure (its close(2)
  // included: a network file system may report a quota only then).
  const herr_t closed = H5Fclose(std::exchange(file_, H5I_INVALID_HID));
  if (closed < 0 || driver::first_error) fail("HDF5 cannot write it");
}

SliceWriter::SliceWriter(fs::path path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) throw_io_error(path_, errno);
}

SliceWriter::~SliceWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void SliceWriter::write(const Slice& slice) {
  const std::byte* at = slice.bytes.data();
  std::size_t left = slice.bytes.size();
  auto offset = static_cast<off_t>(slice.offset);
  while (left > 0) {
    const ssize_t n = ::pwrite(fd_, at, left, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io_error(path_, errno);
    }
    if (n == 0) throw_io_error(path_, EIO);
    at += n;
    left -= static_cast<std::size_t>(n);
    offset += n;
  }
}

void SliceWriter::close(bool durable) {
  // A quota on a network file system, or a write-back error, may show only now.
  if (durable && ::fdatasync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
    const int error = errno;
    ::close(std::exchange(fd_, -1));
    throw_io_error(path_, error);
  }
  if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) throw_io_error(path_, errno);
}

}  // namespace inertia::io::detail
