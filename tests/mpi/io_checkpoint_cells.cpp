// Cell arrays in checkpoints (CellArray): rows keyed by the natural order of synthetic cell tags,
// written with the cells spread over the ranks one way and read back spread another way (in the
// same Checkpointer, in a fresh one, and through restore()), compared exactly; an array with no
// rows on some ranks and one with no rows at all; and damage: a flipped byte of an array's values
// (caught by the whole-file hash, and by the array's checksum once the hash is made to match), an
// array absent from the file, an array of another shape. Contract violations are InternalError on
// every rank.

#include <gtest/gtest.h>
#include <hdf5.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../support/temp_directory.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/io/checkpoint.hpp"
#include "inertia/parallel/natural_order.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;
namespace fs = std::filesystem;

namespace {

const MPI_Comm comm = MPI_COMM_WORLD;
int rank() { return rank_of(comm); }
int ranks() { return size_of(comm); }

/// A node layout for the Checkpointer (2 + r nodes on rank r, natural = global index) and a
/// displacement-like vector on it.
struct Nodes {
  petsc::Vector layout;
  std::vector<std::int64_t> ids;
  std::int64_t num_global = 0;

  Nodes() {
    const PetscInt n = 2 + rank();
    INERTIA_PETSC(VecCreateMPI(comm, 3 * n, PETSC_DECIDE, layout.out()));
    INERTIA_PETSC(VecSetBlockSize(layout, 3));
    PetscInt begin = 0, end = 0, size = 0;
    INERTIA_PETSC(VecGetOwnershipRange(layout, &begin, &end));
    INERTIA_PETSC(VecGetSize(layout, &size));
    for (PetscInt i = begin / 3; i < end / 3; ++i) ids.push_back(i);
    num_global = size / 3;
    petsc::Array a(layout);
    for (PetscInt i = 0; i < a.size(); ++i) a[i] = 0.5 * (begin + i);
  }
  io::Checkpointer checkpointer() { return io::Checkpointer(comm, ids, num_global, layout); }
};

/// Cell c's tag: unique, neither contiguous nor increasing with c.
std::int64_t tag_of(std::int64_t c) { return 1000003 * (c % 5) + 7 * c + 11; }
/// Value j of the row of tag t: distinct bit patterns (not round numbers).
double value_of(std::int64_t t, int j) { return std::sqrt(static_cast<double>(t)) + j / 3.0; }

/// This rank's rows of an array: its cells (in this order), their natural rows, and values.
struct Rows {
  int stride = 1;
  std::vector<std::int64_t> tags, natural;
  std::int64_t num_global = 0;
  std::vector<double> values;

  /// The cells c of [0, cells) with owner(c) == this rank, listed in the order of `cells_order`
  /// (increasing or decreasing); values from the tags, or NaN (to be read into).
  Rows(std::int64_t cells, int stride_, const std::function<int(std::int64_t)>& owner,
       bool decreasing, bool filled)
      : stride(stride_) {
    for (std::int64_t k = 0; k < cells; ++k) {
      const std::int64_t c = decreasing ? cells - 1 - k : k;
      if (owner(c) == rank()) tags.push_back(tag_of(c));
    }
    natural = natural_order(comm, tags, num_global, "cell");
    for (const std::int64_t t : tags)
      for (int j = 0; j < stride; ++j) values.push_back(filled ? value_of(t, j) : NAN);
  }
  io::CellArray array(const std::string& name) {
    return {name, stride, num_global, natural, values};
  }
  /// True on every rank iff every value is the one of its tag, bit for bit.
  bool exact() const {
    bool ok = values.size() == tags.size() * static_cast<std::size_t>(stride);
    for (std::size_t i = 0; ok && i < tags.size(); ++i)
      for (int j = 0; j < stride; ++j) {
        const double v = values[i * static_cast<std::size_t>(stride) + static_cast<std::size_t>(j)];
        EXPECT_EQ(std::bit_cast<std::uint64_t>(v),
                  std::bit_cast<std::uint64_t>(value_of(tags[i], j)))
            << "tag " << tags[i] << " value " << j;
        ok = ok && v == value_of(tags[i], j);
      }
    return all_true(comm, ok);
  }
};

// Writing: cell c on rank c mod P (increasing order); "b" only on rank 0. Reading: in blocks,
// rotated by one rank (decreasing order); "b" only on the last rank.
int written_owner(std::int64_t c) { return static_cast<int>(c % ranks()); }
int read_owner(std::int64_t c) { return static_cast<int>((c * ranks() / 23 + 1) % ranks()); }
int first_rank(std::int64_t) { return 0; }
int last_rank(std::int64_t) { return ranks() - 1; }

/// A temporary directory of rank 0's, the same path on every rank.
struct SharedDirectory {
  std::optional<inertia::testing::TempDirectory> made;
  fs::path path;
  SharedDirectory() {
    std::string p;
    if (rank() == 0) p = made.emplace().path().string();
    path = broadcast_string(comm, p);
  }
  ~SharedDirectory() { MPI_Barrier(comm); }  // before rank 0 removes it
};

/// What `f` throws on this rank as "<kind>: <message>" (kind: damaged, input, internal, error),
/// "" if nothing.
std::string outcome(const std::function<void()>& f) {
  try {
    f();
  } catch (const io::DamagedCheckpoint& e) {
    return std::string("damaged: ") + e.what();
  } catch (const InternalError& e) {
    return std::string("internal: ") + e.what();
  } catch (const InputError& e) {
    return std::string("input: ") + e.what();
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
  return "";
}

/// True on every rank iff `text` is the same on every rank and contains every one of `parts`.
bool everywhere(const std::string& text, const std::vector<std::string>& parts) {
  bool ok = broadcast_string(comm, text) == text;
  for (const auto& p : parts) ok = ok && text.find(p) != std::string::npos;
  EXPECT_TRUE(ok) << text;
  return all_true(comm, ok);
}

/// The byte offset of dataset `name` in `file` (rank 0).
std::uint64_t dataset_offset(const fs::path& file, const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, name.c_str(), H5P_DEFAULT);
  const haddr_t offset = H5Dget_offset(d);
  H5Dclose(d);
  H5Fclose(f);
  return offset;
}

/// Rank 0 flips the bits of byte `at` of `file`.
void flip_byte(const fs::path& file, std::uint64_t at) {
  if (rank() == 0) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(at));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(~c);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(&c, 1);
  }
  MPI_Barrier(comm);
}

/// Rank 0 rewrites the user block's whole-file hash of `file` (< 64 MiB) to match its content, as
/// checkpoint.cpp computes it: what damage only an array's checksum can then reveal.
void refresh_header(const fs::path& file) {
  if (rank() == 0) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    const std::uint64_t size = bytes.size();
    Hasher chunk;
    chunk.add_bytes(bytes.data() + 512, size - 512);
    const std::vector<std::uint64_t> chunks{chunk.digest()};
    Hasher whole;
    whole.add(size).add(std::span<const std::uint64_t>(chunks));
    char header[128];
    std::snprintf(header, sizeof header, "inertia checkpoint: xxh3-64 %016llx size %llu\n",
                  static_cast<unsigned long long>(whole.digest()),
                  static_cast<unsigned long long>(size));
    std::fstream out(file, std::ios::in | std::ios::out | std::ios::binary);
    out.write(header, static_cast<std::streamsize>(std::strlen(header)));
  }
  MPI_Barrier(comm);
}

io::CheckpointAttributes attributes() {
  io::CheckpointAttributes a;
  a.reals["time"] = 0.25;
  return a;
}

/// Writes step 1 of arrays "a" (23 rows of 4, spread), "b" (5 rows of 1, all on rank 0) and
/// "none" (no rows, stride 2) into `dir`; returns the file.
fs::path write_three(io::Checkpointer& ckpt, Nodes& nodes, const fs::path& dir) {
  Rows a(23, 4, written_owner, false, true), b(5, 1, first_rank, false, true),
      none(0, 2, written_owner, false, true);
  return ckpt
      .write(dir, 1, attributes(), {{"displacement", nodes.layout}}, 3, -1,
             {a.array("state.a"), b.array("state.b"), none.array("state.none")})
      .first;
}

}  // namespace

TEST(CheckpointCells, ReadBackWithTheRowsSpreadAnotherWay) {
  const SharedDirectory dir;
  Nodes nodes;
  io::Checkpointer ckpt = nodes.checkpointer();
  const fs::path file = write_three(ckpt, nodes, dir.path);
  auto read_all = [&](io::Checkpointer& reader, bool through_restore) {
    Rows a(23, 4, read_owner, true, false), b(5, 1, last_rank, true, false),
        none(0, 2, read_owner, true, false);
    petsc::Vector u;
    INERTIA_PETSC(VecDuplicate(nodes.layout, u.out()));
    auto attrs = attributes();
    const io::CellArrays cells{a.array("state.a"), b.array("state.b"), none.array("state.none")};
    if (through_restore)
      EXPECT_EQ(reader.restore(dir.path, {{"displacement", u}}, attrs, {}, cells).file, file);
    else
      reader.read(file, {{"displacement", u}}, attrs, {}, cells);
    PetscBool equal = PETSC_FALSE;
    INERTIA_PETSC(VecEqual(u, nodes.layout, &equal));
    EXPECT_TRUE(equal);
    EXPECT_TRUE(a.exact());
    EXPECT_TRUE(b.exact());
    EXPECT_TRUE(none.exact());
  };
  read_all(ckpt, false);  // the same Checkpointer: its layouts of the arrays made anew
  io::Checkpointer fresh = nodes.checkpointer();
  read_all(fresh, false);
  read_all(fresh, true);
  // Written again from the read distribution: the same bytes' meaning, the same checksums.
  Rows a(23, 4, read_owner, true, true);
  ckpt.write(dir.path, 2, attributes(), {}, 3, -1, {a.array("state.a")});
  Rows back(23, 4, written_owner, false, false);
  auto attrs = attributes();
  ckpt.read(dir.path / io::checkpoint_name(2), {}, attrs, {}, {back.array("state.a")});
  EXPECT_TRUE(back.exact());
}

TEST(CheckpointCells, FlippedValueIsDamage) {
  const SharedDirectory dir;
  Nodes nodes;
  io::Checkpointer ckpt = nodes.checkpointer();
  const fs::path file = write_three(ckpt, nodes, dir.path);
  std::uint64_t at = 0;
  if (rank() == 0) at = dataset_offset(file, "/state.a") + 8 * 37 + 3;  // row 9, value 1
  flip_byte(file, at);
  auto read_a = [&] {
    Rows a(23, 4, read_owner, true, false);
    auto attrs = attributes();
    ckpt.read(file, {}, attrs, {}, {a.array("state.a")});
  };
  // The whole file's hash sees it first; with the hash made to match, the array's checksum.
  EXPECT_TRUE(everywhere(outcome(read_a), {"damaged: ", file.string(), "does not match its hash"}));
  refresh_header(file);
  EXPECT_TRUE(everywhere(outcome(read_a), {"damaged: ", file.string(),
                                           "the values of 'state.a' do not match their checksum"}));
  // And restore() from the directory refuses it (the only checkpoint).
  Rows a(23, 4, read_owner, true, false);
  auto attrs = attributes();
  EXPECT_TRUE(
      everywhere(outcome([&] { ckpt.restore(dir.path, {}, attrs, {}, {a.array("state.a")}); }),
                 {"input: ", "'state.a' do not match their checksum"}));
}

TEST(CheckpointCells, MissingOrReshapedArrayIsDamage) {
  const SharedDirectory dir;
  Nodes nodes;
  io::Checkpointer ckpt = nodes.checkpointer();
  const fs::path file = write_three(ckpt, nodes, dir.path);
  auto read_one = [&](Rows& rows, const std::string& name) {
    return outcome([&] {
      auto attrs = attributes();
      ckpt.read(file, {}, attrs, {}, {rows.array(name)});
    });
  };
  Rows absent(6, 2, read_owner, false, false);
  EXPECT_TRUE(everywhere(read_one(absent, "state.c"),
                         {"damaged: ", file.string(), "no dataset 'state.c'"}));
  Rows stride(23, 3, read_owner, false, false);
  EXPECT_TRUE(everywhere(read_one(stride, "state.a"),
                         {"damaged: ", "the dataset 'state.a' is not 23 rows of 3 values"}));
  Rows rows(22, 4, read_owner, false, false);
  EXPECT_TRUE(everywhere(read_one(rows, "state.a"),
                         {"damaged: ", "the dataset 'state.a' is not 22 rows of 4 values"}));
  Rows empty(0, 2, read_owner, false, false);  // "none" has no rows but is there
  EXPECT_TRUE(everywhere(read_one(empty, "state.none"), {}));
  // A vector where a cell array is expected has another shape too.
  Rows nodal(nodes.num_global, 1, read_owner, false, false);
  EXPECT_TRUE(everywhere(read_one(nodal, "displacement"), {"damaged: ", "'displacement' is not"}));
}

TEST(CheckpointCells, BrokenContractIsInternalErrorOnEveryRank) {
  const SharedDirectory dir;
  Nodes nodes;
  io::Checkpointer ckpt = nodes.checkpointer();
  Rows a(23, 4, written_owner, false, true);
  auto write = [&](io::CellArray c) {
    return outcome([&] { ckpt.write(dir.path, 1, attributes(), {}, 3, -1, {c}); });
  };
  // Values not rows x stride on the last rank only.
  io::CellArray short_values = a.array("state.a");
  if (rank() == ranks() - 1) short_values.values = short_values.values.subspan(1);
  EXPECT_TRUE(everywhere(write(short_values), {"internal: ", "cell array 'state.a': "}));
  // A row twice (and another missing): every rank holds natural rows 0 .. 23 / P - 1.
  std::vector<std::int64_t> rows(static_cast<std::size_t>(23 / ranks()));
  std::iota(rows.begin(), rows.end(), std::int64_t{0});
  std::vector<double> values(rows.size() * 4, 1.0);
  io::CellArray c{"state.a", 4, 23, rows, values};
  if (ranks() > 1) {
    EXPECT_TRUE(everywhere(write(c), {"internal: ", "do not cover [0, 23) once each"}));
  }
  // A row out of range, and the ranks disagreeing on the stride.
  io::CellArray out = a.array("state.a");
  out.num_global_rows = 20;
  EXPECT_TRUE(everywhere(write(out), {"internal: ", "is not in [0, 20)"}));
  Rows odd(23, rank() == 0 ? 4 : 2, written_owner, false, true);
  if (ranks() > 1) {
    EXPECT_TRUE(everywhere(write(odd.array("state.a")), {"internal: ", "the same cell arrays"}));
  }
  // And after all that, a good write still works.
  EXPECT_TRUE(everywhere(write(a.array("state.a")), {}));
}
