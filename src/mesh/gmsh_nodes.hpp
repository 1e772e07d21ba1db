#pragma once
/// \file gmsh_nodes.hpp
/// The Gmsh reader's nodes (internal: not part of include/): $Nodes of MSH 2.2 and 4.1, and the
/// index from node tags to the file's nodes.

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gmsh_cursor.hpp"

namespace inertia::gmsh {

/// splitmix64: tags are file data, so hash them well enough that crafted tags cannot pile up in
/// one bucket as they could with the identity hash of std::hash.
struct TagHash {
  std::size_t operator()(std::uint64_t x) const {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(x ^ (x >> 31));
  }
};

/// Maps node tags (any non-negative 64-bit value) to node indices. Near-contiguous tags (the usual
/// case) go to a dense array whose size is bounded by twice the declared node count; other tags go
/// to a hash map. No tag is ever used as an unchecked index.
class NodeIndex {
 public:
  void reset(std::uint64_t declared_count) {
    dense_limit_ = 2 * declared_count + 1024;
    dense_.clear();
    sparse_.clear();
  }
  /// False if the tag is already present.
  bool insert(std::uint64_t tag, Index index) {
    if (tag < dense_limit_) {
      if (tag >= dense_.size()) {
        const std::uint64_t grown = std::max<std::uint64_t>(tag + 1, 2 * dense_.size());
        dense_.resize(std::min(dense_limit_, grown), -1);
      }
      if (dense_[tag] >= 0) return false;
      dense_[tag] = index;
      return true;
    }
    return sparse_.emplace(tag, index).second;
  }
  /// The index of a tag, or -1.
  Index find(std::uint64_t tag) const {
    if (tag < dense_.size()) return dense_[tag];
    if (tag < dense_limit_ || sparse_.empty()) return -1;
    const auto it = sparse_.find(tag);
    return it == sparse_.end() ? -1 : it->second;
  }

 private:
  std::uint64_t dense_limit_ = 1024;
  std::vector<Index> dense_;
  std::unordered_map<std::uint64_t, Index, TagHash> sparse_;
};

/// Every node of the file, in file order: coordinates, tags, and the index of the tags.
class GmshNodes {
 public:
  /// $Nodes of MSH 2.2 (after its header line).
  void read_v2(GmshCursor& in);
  /// $Nodes of MSH 4.1 (after its header line).
  void read_v4(GmshCursor& in);

  /// The index of node `tag`, or -1.
  Index find(std::int64_t tag) const {
    return tag < 0 ? -1 : index_.find(static_cast<std::uint64_t>(tag));
  }
  Index size() const { return static_cast<Index>(tags_.size()); }
  const std::vector<double>& coords() const { return coords_; }
  const std::vector<std::int64_t>& tags() const { return tags_; }

 private:
  void add(const GmshCursor& in, std::int64_t tag, const double* xyz);
  void reserve(std::uint64_t n);

  std::vector<double> coords_;  // every node of the file
  std::vector<std::int64_t> tags_;
  NodeIndex index_;
};

}  // namespace inertia::gmsh
