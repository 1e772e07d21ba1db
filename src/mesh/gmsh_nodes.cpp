/// \file gmsh_nodes.cpp
/// The Gmsh reader's $Nodes sections (gmsh_nodes.hpp).
#include "gmsh_nodes.hpp"

#include "inertia/core/interrupt.hpp"

namespace inertia::gmsh {

void GmshNodes::add(const GmshCursor& in, std::int64_t tag, const double* xyz) {
  if ((tags_.size() & 0xffff) == 0) [[unlikely]]
    throw_if_interrupted(cat("while reading ", printable(in.file_name())));
  if (tag < 0) in.fail(cat("negative node tag ", tag));
  const auto index = static_cast<Index>(tags_.size());
  if (!index_.insert(static_cast<std::uint64_t>(tag), index))
    in.fail(cat("duplicate node tag ", tag));
  tags_.push_back(tag);
  coords_.insert(coords_.end(), xyz, xyz + 3);
}

void GmshNodes::reserve(std::uint64_t n) {
  index_.reset(n);
  coords_.reserve(3 * n);
  tags_.reserve(n);
}

void GmshNodes::read_v2(GmshCursor& in) {
  const bool binary = in.binary();
  in.open_line("node count", 1);  // ASCII in binary files too
  const std::uint64_t n = in.count("number of nodes");
  in.close_line();
  in.check_fits(n, binary ? 28 : 8, "node");
  reserve(n);
  if (binary) in.begin_binary();
  std::array<double, 3> x{};
  for (std::uint64_t i = 0; i < n; ++i) {
    if (binary) {
      in.need(28, "a node");
      const auto tag = in.raw<std::int32_t>();
      in.peek_bytes(x.data(), 24);
      in.skip(24);
      for (double c : x)
        if (!std::isfinite(c)) in.fail(cat("node ", tag, " has a non-finite coordinate"));
      add(in, tag, x.data());
    } else {
      in.open_line("node", 4);  // tag x y z
      const std::int64_t tag = in.integer("node tag");
      for (auto& c : x) c = in.real("node coordinate");
      in.close_line();
      add(in, tag, x.data());
    }
  }
  in.expect_end("Nodes", binary);
}

void GmshNodes::read_v4(GmshCursor& in) {
  const bool binary = in.binary();
  const std::uint64_t size_bytes = static_cast<std::uint64_t>(in.size_bytes());
  if (binary)
    in.begin_binary();
  else
    in.open_line("$Nodes header", 4);
  const std::uint64_t num_blocks = in.size_field("number of node blocks");
  const std::uint64_t n = in.size_field("number of nodes");
  in.size_field("minimum node tag");
  in.size_field("maximum node tag");
  if (!binary) in.close_line();
  in.check_fits(n, binary ? size_bytes + 24 : 8, "node");
  in.check_fits(num_blocks, binary ? 12 + size_bytes : 8, "node block");
  reserve(n);
  std::uint64_t total = 0;
  std::array<double, 3> x{};
  for (std::uint64_t b = 0; b < num_blocks; ++b) {
    if (!binary) in.open_line("node block header", 4);
    const int dim = in.int_field("entity dimension");
    if (dim < 0 || dim > 3) in.fail(cat("bad entity dimension ", dim, " in a node block"));
    in.int_field("entity tag");
    const int parametric = in.int_field("parametric flag");
    if (parametric != 0 && parametric != 1) in.fail(cat("bad parametric flag ", parametric));
    const std::uint64_t in_block = in.size_field("number of nodes in block");
    if (in_block > n - total) in.fail(cat("node blocks hold more nodes than the declared ", n));
    if (!binary) in.close_line();
    const int values = 3 + (parametric ? dim : 0);  // x y z, then u (v (w))
    const std::size_t first = tags_.size();
    if (binary) {
      in.check_fits(in_block, static_cast<std::uint64_t>(size_bytes + 8 * values), "node");
      for (std::uint64_t i = 0; i < in_block; ++i) {
        const std::int64_t tag = in.tag_value(in.raw_size(), "node tag");
        add(in, tag, x.data());  // coordinates filled below
      }
      for (std::uint64_t i = 0; i < in_block; ++i) {
        in.peek_bytes(x.data(), 24);
        in.skip(8 * values);
        for (double c : x)
          if (!std::isfinite(c))
            in.fail(cat("node ", tags_[first + i], " has a non-finite coordinate"));
        std::copy(x.begin(), x.end(), coords_.begin() + 3 * (first + i));
      }
    } else {
      in.check_fits(in_block, 2 * (1 + values), "node");
      for (std::uint64_t i = 0; i < in_block; ++i) {
        in.open_line("node tag", 1);
        add(in, in.integer("node tag"), x.data());
        in.close_line();
      }
      for (std::uint64_t i = 0; i < in_block; ++i) {
        in.open_line("node coordinates", static_cast<std::uint64_t>(values));
        for (int k = 0; k < 3; ++k) coords_[3 * (first + i) + k] = in.real("node coordinate");
        for (int k = 3; k < values; ++k) in.real("parametric coordinate");
        in.close_line();
      }
    }
    total += in_block;
  }
  if (total != n) in.fail(cat("$Nodes declares ", n, " nodes but its blocks hold ", total));
  in.expect_end("Nodes", binary);
}

}  // namespace inertia::gmsh
