#pragma once
/// \file messages.hpp
/// Internal to the partition module: the messages of the distribution (the broadcast of the
/// common facts, the scatter of the shares) and their serialisation, which a split file stores
/// as they are. No MPI.
///
/// Messages are lists of fields (std::tie of members) copied bytewise into buffers of 8-byte
/// words, the unit of the scatter and the broadcast. Vectors and strings are preceded by their
/// size; vectors of trivially copyable values are copied in one piece. Reading is bounds-checked:
/// a size larger than the bytes left is refused before anything is allocated, so words from a
/// file (a split) can be unpacked whatever they hold.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/partition/local_mesh.hpp"

namespace inertia::messages {

using Word = std::uint64_t;

template <typename T>
concept Bytewise = std::is_trivially_copyable_v<T>;

/// Counts the bytes that writing a message takes.
struct ByteCounter {
  std::size_t bytes = 0;
  void write(const void*, std::size_t n) { bytes += n; }
};

/// Writes a message into memory sized with a ByteCounter.
struct ByteWriter {
  std::byte* out;
  void write(const void* p, std::size_t n) {
    if (n) std::memcpy(out, p, n);
    out += n;
  }
};

/// Reads a message in the order it was written; throws InputError ("... ends before ...") when
/// a read goes past the end.
struct ByteReader {
  const std::byte* in;
  const std::byte* end;
  std::size_t left() const { return static_cast<std::size_t>(end - in); }
  void read(void* p, std::size_t n) {
    INERTIA_CHECK(n <= left(), InputError, "its data ends before its fields do");
    if (n) std::memcpy(p, in, n);
    in += n;
  }
  /// Reads a vector's or string's size, refused if `n` elements of at least `min_bytes` bytes
  /// each cannot fit in the bytes left (so that no allocation exceeds the message's size).
  std::size_t read_size(std::size_t min_bytes) {
    std::uint64_t n = 0;
    read(&n, sizeof n);
    INERTIA_CHECK(n <= left() / min_bytes, InputError, "a size of ", n,
                  " does not fit in the data left (", left(), " bytes)");
    return static_cast<std::size_t>(n);
  }
};

template <typename Sink, Bytewise T>
void put(Sink& s, const T& value) {
  s.write(&value, sizeof(T));
}
template <typename Sink>
void put(Sink& s, const std::string& text) {
  put(s, static_cast<std::uint64_t>(text.size()));
  s.write(text.data(), text.size());
}
template <typename Sink>
void put(Sink& s, const Region& r) {
  put(s, r.name);
  put(s, r.dim);
  put(s, r.tag);
}
template <typename Sink, typename T>
void put(Sink& s, const std::vector<T>& v) {
  put(s, static_cast<std::uint64_t>(v.size()));
  if constexpr (Bytewise<T>)
    s.write(v.data(), v.size() * sizeof(T));
  else
    for (const auto& x : v) put(s, x);
}

/// The fewest bytes a packed value of type T takes (a size word for strings and vectors).
template <typename T>
constexpr std::size_t min_packed_bytes() {
  if constexpr (std::is_same_v<T, Region>)
    return sizeof(std::uint64_t) + 2 * sizeof(int);
  else if constexpr (Bytewise<T>)
    return sizeof(T);
  else
    return sizeof(std::uint64_t);
}

template <Bytewise T>
void get(ByteReader& r, T& value) {
  r.read(&value, sizeof(T));
}
inline void get(ByteReader& r, std::string& text) {
  text.resize(r.read_size(1));
  r.read(text.data(), text.size());
}
inline void get(ByteReader& r, Region& region) {
  get(r, region.name);
  get(r, region.dim);
  get(r, region.tag);
}
template <typename T>
void get(ByteReader& r, std::vector<T>& v) {
  v.resize(r.read_size(min_packed_bytes<T>()));
  if constexpr (Bytewise<T>)
    r.read(v.data(), v.size() * sizeof(T));
  else
    for (auto& x : v) get(r, x);
}

/// Writes every field of a message (a tuple of references) to `s`.
template <typename Sink, typename Fields>
void pack(Sink& s, const Fields& fields) {
  std::apply([&](const auto&... f) { (put(s, f), ...); }, fields);
}

/// Reads every field of a message from words written by pack(); throws InputError if the words
/// end before the fields or more than the padding is left.
template <typename Fields>
void unpack(std::span<const Word> words, Fields fields) {
  const auto* begin = reinterpret_cast<const std::byte*>(words.data());
  ByteReader r{begin, begin + words.size_bytes()};
  std::apply([&](auto&... f) { (get(r, f), ...); }, fields);
  INERTIA_CHECK(r.left() < sizeof(Word), InputError, "its data goes on for ", r.left(),
                " bytes after its last field");
}

/// Number of words a message takes.
template <typename Fields>
std::size_t packed_words(const Fields& fields) {
  ByteCounter counter;
  pack(counter, fields);
  return (counter.bytes + sizeof(Word) - 1) / sizeof(Word);
}

/// Packs a message into `words` words at `out` (as counted by packed_words).
template <typename Fields>
void pack_into(Word* out, std::size_t words, const Fields& fields) {
  if (words > 0) out[words - 1] = 0;  // the padding
  ByteWriter writer{reinterpret_cast<std::byte*>(out)};
  pack(writer, fields);
}

// ---- The messages -----------------------------------------------------------------------------

/// A rank's share: the fields of its LocalMesh that differ between ranks (the scatter).
template <typename Mesh>
auto share_fields(Mesh& m) {
  return std::tie(m.node_begin, m.num_owned, m.ghosts, m.coords, m.node_tags, m.natural_ids,
                  m.cell_types, m.cell_offsets, m.cell_nodes, m.cell_regions, m.cell_tags,
                  m.cell_is_element, m.region_owned_nodes);
}

/// What every rank holds alike (the broadcast).
struct CommonFacts {
  std::int64_t num_global_nodes = 0;
  std::vector<Region> regions;
  std::vector<std::int64_t> region_node_counts;
  PartitionSummary summary;
};

template <typename Facts>
auto fact_fields(Facts& f) {
  auto& s = f.summary;
  return std::tie(f.num_global_nodes, f.regions, f.region_node_counts, s.method, s.quality,
                  s.elements_per_rank, s.owned_nodes_per_rank, s.ghost_nodes_per_rank,
                  s.dropped_cells);
}

/// Serial. Writes a split file (split_file.hpp): the index made of `facts` and `stamp`, then
/// the shares, `counts[p]` words of `shares` from `displs[p]` for rank p. Returns its bytes.
std::uint64_t write_split_file(const std::filesystem::path& file, const CommonFacts& facts,
                               const std::string& stamp, const Word* shares,
                               const std::vector<int>& counts, const std::vector<int>& displs);

}  // namespace inertia::messages
