#pragma once
/// \file split_file.hpp
/// A split file (`inertia --split N`, examples/guide/large_runs.md): what distribute() would send
/// to N ranks, stored once, read and verified here without MPI (read_split in partition.hpp is the
/// collective reader built on this).
///
/// Layout, all in 8-byte little-endian words:
///   the index:  magic "INTSPLIT", version, parts P, facts words F, stamp words S, the index's
///               checksum; P + 1 offsets of the shares (in words, from the first share); P
///               share checksums; the common facts (F words); the stamp (S words).
///   the shares: each rank's share, rank after rank.
/// Checksums are XXH3-64 (core/hash.hpp): the index's over all its words but its own, a share's
/// over its words. A rank reads the index (a few words per rank) and its own share, never the
/// whole file. Reading checks, in this order, before anything is used or allocated beyond the
/// file's length: the sizes against the file's length, the index's checksum, the offsets, the
/// share's checksum, then every count and index of the facts and the share (so that even a file
/// with valid checksums but inconsistent content, a bug's or a hand-made one, is refused). Every
/// refusal is one InputError line naming the file and what is wrong.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "inertia/partition/local_mesh.hpp"

namespace inertia {

/// The version of the split format this program writes and reads (1: no checksums).
inline constexpr std::uint64_t split_format_version = 2;

/// Where a split's bytes come from: a file, or memory (tests, fuzzing).
class SplitSource {
 public:
  virtual ~SplitSource() = default;
  /// The length in bytes.
  virtual std::uint64_t size() const = 0;
  /// Reads out.size() bytes at `offset` (offset + out.size() <= size()); throws on failure.
  virtual void read(std::uint64_t offset, std::span<std::byte> out) const = 0;
};

/// A split file, opened for reading (pread); throws InputError naming it if it cannot be opened.
class SplitFile : public SplitSource {
 public:
  explicit SplitFile(const std::filesystem::path& path);
  ~SplitFile() override;
  SplitFile(const SplitFile&) = delete;
  SplitFile& operator=(const SplitFile&) = delete;
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

/// A split held in memory (not copied: `bytes` must outlive it).
class SplitBytes : public SplitSource {
 public:
  explicit SplitBytes(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, std::span<std::byte> out) const override;

 private:
  std::span<const std::byte> bytes_;
};

/// A split's index, verified: what every rank reads.
struct SplitIndex {
  int parts = 0;
  std::vector<std::uint64_t> share_offsets;    ///< parts + 1, in words from the first share
  std::vector<std::uint64_t> share_checksums;  ///< per rank
  std::uint64_t shares_begin = 0;              ///< the first share's first word
  // The common facts: what every rank's LocalMesh holds alike, and the partition summary.
  std::int64_t num_global_nodes = 0;
  std::vector<Region> regions;
  std::vector<std::int64_t> region_node_counts;
  PartitionSummary summary;
  std::string stamp;  ///< what the split was made from (the caller's text)
};

/// Serial. Reads and verifies a split's index (see the file comment). `name` starts every
/// message. Throws InputError: not a split, another version, truncated, index damaged (its
/// checksum) or inconsistent (its counts).
SplitIndex read_split_index(const SplitSource& source, const std::string& name);

/// Serial. Reads rank `rank`'s share of a split whose index was read by read_split_index,
/// verifies its checksum and every count and index against the index, and returns that rank's
/// LocalMesh. Throws InputError ("checksum of rank 1's share does not match", "rank 1's share is
/// inconsistent: ...").
LocalMesh read_split_share(const SplitSource& source, const SplitIndex& index, int rank,
                           const std::string& name);

/// Test support: rewrites the checksums of a split held in memory so that they match its
/// content, as far as its sizes and offsets fit in it (the rest is left alone). Used to make
/// files with valid checksums and inconsistent content (unit tests, fuzzing).
void reseal_split(std::span<std::byte> split);

}  // namespace inertia
