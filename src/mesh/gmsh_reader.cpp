/// \file gmsh_reader.cpp
/// Gmsh MSH 2.2 and 4.1 reader (ASCII and binary).
///
/// Design:
/// - The whole file is read into memory once and parsed with a hand-written cursor:
///   std::from_chars for ASCII numbers, memcpy for binary ones. No iostreams per token: a 10^7-cell
///   file is parsed at a few hundred MB/s.
/// - Nothing read from the file is trusted. Every count is checked against the bytes left in the
///   file before anything is reserved (an ASCII number takes at least two bytes with its separator;
///   binary items have exact sizes), every tag is looked up through NodeIndex (a dense array for
///   the usual near-contiguous tags with a hash map behind it, never an unchecked array index), and
///   every failure is an InputError "<file>: <what> (line N)" (ASCII) or "(byte N)" (binary).
/// - Counts must agree with the data that follows. ASCII is read line by line (see open_line):
///   every line holds exactly the fields of its kind (an element line: tag, type, tag count, the
///   tags, the type's nodes), so a number too many or too few is an error naming its line instead
///   of shifting the numbers after it into other elements. Section end markers must be alone on
///   their line, where the counts say; after binary data, right after its line break (no byte the
///   counts do not cover is skipped, white space included).
/// - Cells keep file node indices while parsing; at the end cells outside any physical group are
///   dropped (when the file has groups), unused nodes are dropped and indices compacted.
/// - Element types: those of cell_type_table are stored (in VTK order; tet10 faces are tri6).
///   Second-order lines (line3, Gmsh type 8), which Gmsh writes for the physical curves of a
///   second-order mesh, are kept as two line2 cells (end, middle) and (middle, end) when they are
///   lower-dimensional than the mesh (boundary edges, spring lines), so that a condition on the
///   curve holds its middle nodes too (a quad8 shell's edge); as the cells of a 1D mesh they are
///   rejected.
///   Other unsupported types are rejected if they are in a physical group or of the mesh's
///   dimension, and skipped otherwise (an unsupported 2D element in no group of a 3D mesh).

#include "inertia/mesh/gmsh_reader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gmsh_cursor.hpp"
#include "gmsh_groups.hpp"
#include "gmsh_nodes.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

using gmsh::EntityKey;
using gmsh::GmshCursor;
using gmsh::GmshGroups;
using gmsh::GmshNodes;
using gmsh::Index;

// ------------------------------------------------------------------------------------------------
// Gmsh element types (all fixed-size types of the Gmsh documentation up to 31, plus 92, 93): needed
// to know how many node tags to read, or skip, for types inertia does not store.

struct GmshType {
  int id;
  int dim;
  int num_nodes;
  std::string_view name;
};

inline constexpr std::array<GmshType, 33> gmsh_types{{
    {1, 1, 2, "line2"},       {2, 2, 3, "tri3"},        {3, 2, 4, "quad4"},
    {4, 3, 4, "tet4"},        {5, 3, 8, "hex8"},        {6, 3, 6, "prism6"},
    {7, 3, 5, "pyramid5"},    {8, 1, 3, "line3"},       {9, 2, 6, "tri6"},
    {10, 2, 9, "quad9"},      {11, 3, 10, "tet10"},     {12, 3, 27, "hex27"},
    {13, 3, 18, "prism18"},   {14, 3, 14, "pyramid14"}, {15, 0, 1, "point"},
    {16, 2, 8, "quad8"},      {17, 3, 20, "hex20"},     {18, 3, 15, "prism15"},
    {19, 3, 13, "pyramid13"}, {20, 2, 9, "tri9"},       {21, 2, 10, "tri10"},
    {22, 2, 12, "tri12"},     {23, 2, 15, "tri15"},     {24, 2, 15, "tri15i"},
    {25, 2, 21, "tri21"},     {26, 1, 4, "line4"},      {27, 1, 5, "line5"},
    {28, 1, 6, "line6"},      {29, 3, 20, "tet20"},     {30, 3, 35, "tet35"},
    {31, 3, 56, "tet56"},     {92, 3, 64, "hex64"},     {93, 3, 125, "hex125"},
}};

inline constexpr int max_gmsh_nodes = 125;

const GmshType* find_gmsh_type(std::int64_t id) {
  for (const auto& t : gmsh_types)
    if (t.id == id) return &t;
  return nullptr;
}

/// How elements of one Gmsh type are stored: as `cell` with `num_kept` nodes, stored node i being
/// the element's Gmsh node `order[i]`; or not at all (cell empty).
struct Storage {
  std::optional<CellType> cell;
  int num_kept = 0;
  std::array<std::uint8_t, 16> order{};
  bool halves = false;  ///< a line3 as the two line2 cells (0, 2) and (2, 1)
};

/// Gmsh types kept by their corner nodes when lower-dimensional than the mesh (see file comment).
std::optional<CellType> corner_type(int gmsh_id) {
  if (gmsh_id == 8) return CellType::line2;  // line3
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------------

/// The parser: the cursor (gmsh_cursor.hpp) moving through the sections, the nodes
/// (gmsh_nodes.hpp) and physical groups (gmsh_groups.hpp) they declare, and the cells.
class GmshParser : private GmshCursor {
 public:
  GmshParser(std::string file_name, std::string_view text)
      : GmshCursor(std::move(file_name), text) {}

  MeshData parse();

 private:
  // ---- sections ----
  void read_mesh_format();
  void read_elements_v2();
  void read_elements_v4();
  [[gnu::noinline]] MeshData finish();  // (inlined into parse(), it runs 3% slower)

  // ---- shared element handling ----
  Storage storage_for(const GmshType& type, std::int64_t element_tag, int group);
  Index node_index(std::int64_t tag, std::int64_t element_tag) const {
    const Index i = nodes_.find(tag);
    if (i < 0)
      fail(cat("element ", element_tag, " references node tag ", tag, ", which is not in $Nodes"));
    return i;
  }
  void add_element(const Storage& s, std::int64_t element_tag, const Index* nodes,
                   const std::vector<int>& groups, int dim);

  std::uint64_t elements_read_ = 0;  ///< for the interruption checks
  int version_ = 0;                  // 2 or 4
  bool seen_names_ = false, seen_entities_ = false, seen_nodes_ = false, seen_elements_ = false;
  GmshGroups groups_;
  GmshNodes nodes_;
  MeshData cells_;  // cells with file node indices; region = group id, or -1 - dim if in no group
  int max_dim_ = -1;
  std::array<std::optional<std::string>, 4> error_if_mesh_dim_;  // deferred, see storage_for
};

MeshData GmshParser::parse() {
  if (begin_ == end_) fail("empty file, not a Gmsh MSH file");
  if (!next_line() || peek_token() != "$MeshFormat")
    fail("not a Gmsh MSH file (it does not start with $MeshFormat)");
  line_what_ = "section header";
  line_fields_ = 1;
  p_ += std::string_view("$MeshFormat").size();
  close_line();
  read_mesh_format();
  while (next_line()) {
    line_what_ = "section header";
    line_fields_ = 1;
    const std::string_view t = peek_token();
    if (t.size() < 2 || t[0] != '$')
      fail(cat("expected a section header such as $Nodes, found '", excerpt(t), "'"));
    p_ += t.size();
    close_line();
    const std::string_view section = t.substr(1);
    if (section == "MeshFormat") {
      fail("second $MeshFormat section");
    } else if (section == "PhysicalNames") {
      if (seen_names_) fail("second $PhysicalNames section");
      groups_.read_physical_names(*this);
      seen_names_ = true;
    } else if (section == "Entities" && version_ == 4) {
      if (seen_entities_) fail("second $Entities section");
      if (seen_elements_) fail("$Entities after $Elements");
      groups_.read_entities(*this);
      seen_entities_ = true;
    } else if (section == "PartitionedEntities") {
      fail("partitioned MSH files are not supported (save the mesh unpartitioned)");
    } else if (section == "Nodes") {
      if (seen_nodes_) fail("second $Nodes section");
      version_ == 4 ? nodes_.read_v4(*this) : nodes_.read_v2(*this);
      seen_nodes_ = true;
    } else if (section == "Elements") {
      if (seen_elements_) fail("second $Elements section");
      if (!seen_nodes_) fail("$Elements before $Nodes");
      version_ == 4 ? read_elements_v4() : read_elements_v2();
      seen_elements_ = true;
    } else if (section.starts_with("End")) {
      fail(cat("unexpected ", excerpt(t)));
    } else {
      skip_section(section);  // $Periodic, $NodeData, $Comments, ...
    }
  }
  return finish();
}

void GmshParser::read_mesh_format() {
  open_line("format", 3);  // version file-type data-size
  const std::string_view version = token("MSH version");
  double v = 0;
  const auto [q, ec] = std::from_chars(version.data(), version.data() + version.size(), v);
  if (ec != std::errc{} || q != version.data() + version.size())
    fail(cat("bad MSH version '", excerpt(version), "'"));
  if (v >= 2.0 && v < 3.0) {
    version_ = 2;
  } else if (std::abs(v - 4.1) < 1e-9) {
    version_ = 4;
  } else if (v == 4.0) {
    fail("MSH 4.0 is not supported: save as 4.1 or 2.2 (gmsh -format msh41)");
  } else {
    fail(cat("unsupported MSH version ", excerpt(version), " (supported: 2.2 and 4.1)"));
  }
  const std::int64_t file_type = integer_in("file type", 0, 1);
  const std::int64_t data_size = integer("data size");
  close_line();
  if (file_type == 1) {
    if (version_ == 2 && data_size != 8)
      fail(cat("unsupported data size ", data_size, " (binary MSH 2.2 needs 8)"));
    if (version_ == 4 && data_size != 8 && data_size != 4)
      fail(cat("unsupported data size ", data_size, " (binary MSH 4.1 needs 4 or 8)"));
    begin_binary();
    set_binary(static_cast<int>(data_size));
    need(4, "the endianness marker");
    const auto one = raw<std::int32_t>();
    if (one == 0x01000000)
      fail("binary file written on a machine of the other byte order; save it on this one");
    if (one != 1) fail("bad binary endianness marker (not a valid binary MSH file)");
  }
  expect_end("MeshFormat", binary_);
}

/// Decides how elements of `type` are stored, applying the rules of the file comment. `group` is
/// one group of the element (or -1), `element_tag` names the element in messages. Errors that
/// depend on the mesh dimension (only known at the end) are recorded and raised by finish().
Storage GmshParser::storage_for(const GmshType& type, std::int64_t element_tag, int group) {
  max_dim_ = std::max(max_dim_, type.dim);
  Storage s;
  if (const auto cell = cell_type_from_gmsh(type.id)) {
    s.cell = cell;
    s.num_kept = info(*cell).num_nodes;
    s.order = info(*cell).gmsh_node;
    return s;
  }
  if (const auto corners = corner_type(type.id)) {
    s.cell = corners;
    s.num_kept = info(*corners).num_nodes;
    for (int i = 0; i < s.num_kept; ++i) s.order[i] = static_cast<std::uint8_t>(i);
    s.halves = type.id == 8;
    auto& deferred = error_if_mesh_dim_[type.dim];
    if (!deferred)
      deferred =
          message(cat("Gmsh element type ", type.id, " (", type.name, ", element tag ", element_tag,
                      ") is supported only on boundaries, not as a ", type.dim, "D cell"));
    return s;
  }
  const std::string what = cat("unsupported Gmsh element type ", type.id, " (", type.name,
                               ") for element tag ", element_tag);
  if (group >= 0) fail(cat(what, " in ", groups_.description(group)));
  auto& deferred = error_if_mesh_dim_[type.dim];
  if (!deferred) deferred = message(what);
  return s;
}

void GmshParser::add_element(const Storage& s, std::int64_t element_tag, const Index* nodes,
                             const std::vector<int>& groups, int dim) {
  if ((++elements_read_ & 0xffff) == 0) [[unlikely]]
    throw_if_interrupted(cat("while reading ", printable(name_)));
  if (!s.cell) return;
  const std::size_t copies = groups.empty() ? 1 : groups.size();
  for (std::size_t g = 0; g < copies; ++g)
    for (int half = 0; half < (s.halves ? 2 : 1); ++half) {
      cells_.cell_types.push_back(*s.cell);
      if (s.halves) {  // (0, 2), then (2, 1)
        cells_.cell_nodes.push_back(nodes[half == 0 ? 0 : 2]);
        cells_.cell_nodes.push_back(nodes[half == 0 ? 2 : 1]);
      } else {
        for (int i = 0; i < s.num_kept; ++i) cells_.cell_nodes.push_back(nodes[s.order[i]]);
      }
      cells_.cell_offsets.push_back(static_cast<Index>(cells_.cell_nodes.size()));
      cells_.cell_regions.push_back(groups.empty() ? -1 - dim : groups[g]);
      cells_.cell_tags.push_back(element_tag);
    }
}

void GmshParser::read_elements_v2() {
  open_line("element count", 1);  // ASCII in binary files too
  const std::uint64_t n = count("number of elements");
  close_line();
  check_fits(n, 8, "element");  // ASCII: 4 numbers; binary: a tag and a node at least
  cells_.cell_types.reserve(n);
  cells_.cell_tags.reserve(n);
  cells_.cell_regions.reserve(n);
  cells_.cell_offsets.reserve(n + 1);
  std::array<Index, max_gmsh_nodes> nodes{};
  std::vector<int> groups;
  int cached_type = -1;
  bool cached_grouped = false;
  Storage storage;
  // Storage decisions depend only on (type, grouped or not): recompute only when that changes.
  auto decide = [&](const GmshType& type, std::int64_t tag, int group) {
    if (type.id != cached_type || (group >= 0) != cached_grouped) {
      storage = storage_for(type, tag, group);
      cached_type = type.id;
      cached_grouped = group >= 0;
    }
  };
  if (!binary_) {
    for (std::uint64_t i = 0; i < n; ++i) {
      open_line("element", 0);  // tag type num-tags tags... nodes...
      const std::int64_t tag = integer("element tag");
      const std::int64_t type_id = integer("element type");
      const GmshType* type = find_gmsh_type(type_id);
      if (!type) fail(cat("unknown Gmsh element type ", type_id, " (element tag ", tag, ")"));
      const std::uint64_t num_tags = count("number of element tags");
      check_fits(num_tags, 2, "element tag");
      expect_fields(3 + num_tags + type->num_nodes);
      std::int64_t physical = 0;
      for (std::uint64_t k = 0; k < num_tags; ++k) {
        const int t = int32("element tag");
        if (k == 0) physical = t;
      }
      groups.clear();
      if (physical != 0) groups.push_back(groups_.group_id(type->dim, static_cast<int>(physical)));
      decide(*type, tag, groups.empty() ? -1 : groups[0]);
      for (int k = 0; k < type->num_nodes; ++k) nodes[k] = node_index(integer("node tag"), tag);
      close_line();
      add_element(storage, tag, nodes.data(), groups, type->dim);
    }
  } else {
    begin_binary();
    std::uint64_t total = 0;
    while (total < n) {
      need(12, "an element header");
      const auto type_id = raw<std::int32_t>();
      const auto following = raw<std::int32_t>();
      const auto num_tags = raw<std::int32_t>();
      if (following <= 0 || static_cast<std::uint64_t>(following) > n - total)
        fail(cat("bad element count ", following, " in an element header"));
      if (num_tags < 0 || num_tags > 1000) fail(cat("bad number of element tags ", num_tags));
      const GmshType* type = find_gmsh_type(type_id);
      if (!type) {
        const std::int64_t tag = remaining() >= 4 ? raw<std::int32_t>() : -1;
        fail(cat("unknown Gmsh element type ", type_id, " (element tag ", tag, ")"));
      }
      const std::uint64_t ints = 1 + num_tags + type->num_nodes;
      check_fits(following, 4 * ints, "element");
      for (std::int32_t e = 0; e < following; ++e) {
        const std::int64_t tag = raw<std::int32_t>();
        std::int64_t physical = 0;
        for (std::int32_t k = 0; k < num_tags; ++k) {
          const auto t = raw<std::int32_t>();
          if (k == 0) physical = t;
        }
        groups.clear();
        if (physical != 0)
          groups.push_back(groups_.group_id(type->dim, static_cast<int>(physical)));
        decide(*type, tag, groups.empty() ? -1 : groups[0]);
        for (int k = 0; k < type->num_nodes; ++k) nodes[k] = node_index(raw<std::int32_t>(), tag);
        add_element(storage, tag, nodes.data(), groups, type->dim);
      }
      total += following;
    }
  }
  expect_end("Elements", binary_);
}

void GmshParser::read_elements_v4() {
  if (binary_)
    begin_binary();
  else
    open_line("$Elements header", 4);
  const std::uint64_t num_blocks = size_field("number of element blocks");
  const std::uint64_t n = size_field("number of elements");
  size_field("minimum element tag");
  size_field("maximum element tag");
  if (!binary_) close_line();
  check_fits(n, binary_ ? 2 * size_bytes_ : 4, "element");
  check_fits(num_blocks, binary_ ? 12 + size_bytes_ : 8, "element block");
  cells_.cell_types.reserve(n);
  cells_.cell_tags.reserve(n);
  cells_.cell_regions.reserve(n);
  cells_.cell_offsets.reserve(n + 1);
  std::array<Index, max_gmsh_nodes> nodes{};
  std::vector<int> groups;
  std::uint64_t total = 0;
  for (std::uint64_t b = 0; b < num_blocks; ++b) {
    if (!binary_) open_line("element block header", 4);
    const int dim = int_field("entity dimension");
    if (dim < 0 || dim > 3) fail(cat("bad entity dimension ", dim, " in an element block"));
    const int entity = int_field("entity tag");
    const int type_id = int_field("element type");
    const std::uint64_t in_block = size_field("number of elements in block");
    if (in_block > n - total) fail(cat("element blocks hold more elements than the declared ", n));
    if (!binary_) close_line();
    const GmshType* type = find_gmsh_type(type_id);
    if (!type) {  // name the first element of the block (its tag starts the next line)
      std::int64_t tag = -1;
      if (in_block > 0 && binary_ && remaining() >= static_cast<std::uint64_t>(size_bytes_))
        tag = tag_value(raw_size(), "element tag");
      if (in_block > 0 && !binary_) {
        open_line("element", 0);
        tag = integer("element tag");
      }
      fail(cat("unknown Gmsh element type ", type_id, " (element tag ", tag, ")"));
    }
    if (type->dim != dim)
      fail(cat("element type ", type_id, " (", type->name, ") in a block of dimension ", dim));
    groups.clear();
    if (seen_entities_) {
      const std::vector<int>* physicals = groups_.entity_physicals(dim, entity);
      if (!physicals)
        fail(cat("element block of entity (dim ", dim, ", tag ", entity,
                 "), which is not in $Entities"));
      for (int ph : *physicals) groups.push_back(groups_.group_id(dim, ph));
    }
    const std::uint64_t fields = 1 + type->num_nodes;
    check_fits(in_block, binary_ ? fields * size_bytes_ : 2 * fields, "element");
    Storage storage;
    if (binary_) {
      for (std::uint64_t e = 0; e < in_block; ++e) {
        const std::int64_t tag = tag_value(raw_size(), "element tag");
        if (e == 0) storage = storage_for(*type, tag, groups.empty() ? -1 : groups[0]);
        for (int k = 0; k < type->num_nodes; ++k)
          nodes[k] = node_index(tag_value(raw_size(), "node tag"), tag);
        add_element(storage, tag, nodes.data(), groups, dim);
      }
    } else {
      for (std::uint64_t e = 0; e < in_block; ++e) {
        open_line("element", fields);  // tag nodes...
        const std::int64_t tag = integer("element tag");
        if (e == 0) storage = storage_for(*type, tag, groups.empty() ? -1 : groups[0]);
        for (int k = 0; k < type->num_nodes; ++k) nodes[k] = node_index(integer("node tag"), tag);
        close_line();
        add_element(storage, tag, nodes.data(), groups, dim);
      }
    }
    total += in_block;
  }
  if (total != n) fail(cat("$Elements declares ", n, " elements but its blocks hold ", total));
  expect_end("Elements", binary_);
}

MeshData GmshParser::finish() {
  if (!seen_nodes_) fail("no $Nodes section");
  if (!seen_elements_) fail("no $Elements section");
  if (max_dim_ < 0) fail("the file has no elements");
  if (const auto& deferred = error_if_mesh_dim_[max_dim_]) throw InputError(*deferred);
  MeshData& c = cells_;
  const Index num_cells = c.num_cells();

  // Regions: named groups in $PhysicalNames order, then unnamed used groups by (dim, tag).
  MeshData mesh;
  const std::vector<int> final_region = groups_.add_regions(mesh);
  const bool grouped = std::any_of(c.cell_regions.begin(), c.cell_regions.end(),
                                   [](std::int32_t r) { return r >= 0; });
  std::array<int, 4> all_region{-1, -1, -1, -1};  // files without groups: one region per dim
  if (!grouped) {
    static constexpr std::array<std::string_view, 4> all_names{"all_0d", "all_1d", "all_2d", "all"};
    std::array<bool, 4> present{};
    for (std::int32_t r : c.cell_regions) present[-1 - r] = true;
    for (int d = 3; d >= 0; --d) {
      if (!present[d]) continue;
      all_region[d] = static_cast<int>(mesh.regions.size());
      mesh.regions.push_back({std::string(all_names[d]), d, 0});
    }
  }

  // Keep cells (all of them, or only grouped ones), mark used nodes.
  const Index num_file_nodes = nodes_.size();
  const std::vector<double>& coords = nodes_.coords();
  const std::vector<std::int64_t>& node_tags = nodes_.tags();
  std::vector<Index> new_node(num_file_nodes, -1);
  mesh.cell_types.reserve(num_cells);
  mesh.cell_regions.reserve(num_cells);
  mesh.cell_tags.reserve(num_cells);
  mesh.cell_offsets.reserve(num_cells + 1);
  mesh.cell_nodes.reserve(c.cell_nodes.size());
  for (Index k = 0; k < num_cells; ++k) {
    const std::int32_t r = c.cell_regions[k];
    if (grouped && r < 0) continue;
    for (Index i = c.cell_offsets[k]; i < c.cell_offsets[k + 1]; ++i) {
      const Index node = c.cell_nodes[i];
      new_node[node] = 0;
      mesh.cell_nodes.push_back(node);
    }
    mesh.cell_offsets.push_back(static_cast<Index>(mesh.cell_nodes.size()));
    mesh.cell_types.push_back(c.cell_types[k]);
    mesh.cell_regions.push_back(r >= 0 ? final_region[r] : all_region[-1 - r]);
    mesh.cell_tags.push_back(c.cell_tags[k]);
  }
  cells_ = MeshData{};

  // Compact nodes, keeping file order.
  Index used = 0;
  for (Index i = 0; i < num_file_nodes; ++i)
    if (new_node[i] == 0) new_node[i] = used++;
  mesh.coords.reserve(3 * used);
  mesh.node_tags.reserve(used);
  for (Index i = 0; i < num_file_nodes; ++i) {
    if (new_node[i] < 0) continue;
    mesh.coords.insert(mesh.coords.end(), coords.begin() + 3 * i, coords.begin() + 3 * i + 3);
    mesh.node_tags.push_back(node_tags[i]);
  }
  for (Index& node : mesh.cell_nodes) node = new_node[node];
  return mesh;
}

/// The whole file in memory.
std::string read_whole_file(const std::filesystem::path& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status))
    throw InputError(cat(printable(file.string()), ": cannot open mesh file (",
                         ec ? ec.message() : std::string("no such file"), ")"));
  if (!std::filesystem::is_regular_file(status))
    throw InputError(cat(printable(file.string()), ": mesh file is not a regular file"));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(file.c_str(), "rb"), &std::fclose);
  if (!f)
    throw InputError(
        cat(printable(file.string()), ": cannot open mesh file (", std::strerror(errno), ")"));
  std::string text;
  const auto size = std::filesystem::file_size(file, ec);
  if (!ec) text.reserve(size);
  std::array<char, 1 << 16> chunk{};
  while (true) {
    throw_if_interrupted(cat("while reading ", printable(file.string())));
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), f.get());
    text.append(chunk.data(), got);
    if (got < chunk.size()) break;
  }
  if (std::ferror(f.get()))
    throw InputError(cat(printable(file.string()), ": error reading mesh file"));
  return text;
}

}  // namespace

MeshData read_gmsh(const std::filesystem::path& file) {
  const std::string text = read_whole_file(file);
  return parse_gmsh(text, file.string());
}

MeshData parse_gmsh(std::string_view text, const std::string& file_name) {
  GmshParser parser(file_name, text);
  return parser.parse();
}

}  // namespace inertia
