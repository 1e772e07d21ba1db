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
///   second-order mesh, are kept as line2 by their two end nodes when they are lower-dimensional
///   than the mesh (boundary edges, spring lines); as the cells of a 1D mesh they are rejected.
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

#include "inertia/core/error.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

namespace {

using Index = std::int64_t;

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
  std::array<std::uint8_t, 10> order{};
};

/// Gmsh types kept by their corner nodes when lower-dimensional than the mesh (see file comment).
std::optional<CellType> corner_type(int gmsh_id) {
  if (gmsh_id == 8) return CellType::line2;  // line3
  return std::nullopt;
}

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

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\v';
}
/// White space inside a line.
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/// "a node line", "an element line".
std::string with_article(std::string_view what) {
  const bool vowel =
      !what.empty() && std::string_view("aeiou").find(what[0]) != std::string_view::npos;
  return cat(vowel ? "an " : "a ", what);
}

using EntityKey = std::pair<int, int>;  // (dim, tag): physical groups and entities alike

// ------------------------------------------------------------------------------------------------

class GmshParser {
 public:
  GmshParser(std::string file_name, std::string_view text)
      : name_(std::move(file_name)),
        begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        line_begin_(text.data()) {}

  MeshData parse();

 private:
  // ---- positions and errors ----
  std::string where() const {
    if (binary_) return cat(" (byte ", p_ - begin_, ")");
    // at the end of the file, name its last line rather than the empty one after it
    const bool after_last_line = p_ == end_ && p_ > begin_ && p_[-1] == '\n';
    return cat(" (line ", after_last_line ? line_ - 1 : line_, ")");
  }
  std::string message(const std::string& what) const {
    return cat(printable(name_), ": ", what, where());
  }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(message(what)); }

  std::uint64_t remaining() const { return static_cast<std::uint64_t>(end_ - p_); }

  /// Fails unless `count` items of at least `min_bytes` each fit in the rest of the file.
  void check_fits(std::uint64_t count, std::uint64_t min_bytes, std::string_view what) const {
    if (count > remaining() / min_bytes)
      fail(cat("declared ", what, " count ", count, " is more than the rest of the file can hold"));
  }

  // ---- ASCII: one line at a time ----
  // The ASCII parts of a file are read line by line. open_line() moves to the next non-blank line
  // and says what kind of line it is and how many fields it has; the fields are read from it
  // (a field never runs on into the next line); close_line() checks that nothing is left on it. A
  // line with more or fewer fields than its kind has is an error naming the line, so one number
  // too many (or too few) cannot shift the lines after it into a file that still parses. The hot
  // path looks at each byte once: the line's end is the '\n' where the fields stop, never searched
  // for ahead (only error messages look at the whole line).

  /// Moves to the first character of the next non-blank line, counting lines; false at the end of
  /// the file. The current line must be closed (p_ at its end).
  bool next_line() {
    while (p_ < end_) {
      const char c = *p_;
      if (c == '\n') {
        ++line_;
      } else if (!is_space(c)) {
        line_begin_ = p_;
        return true;
      }
      ++p_;
    }
    line_begin_ = p_;
    return false;
  }
  /// Opens the next line, a line of `what` with `fields` fields (0 if its first fields tell, see
  /// expect_fields). A section marker there means the section ends before its counts say.
  void open_line(std::string_view what, std::uint64_t fields) {
    if (!next_line() || *p_ == '$') [[unlikely]]
      fail_open(what);
    line_what_ = what;
    line_fields_ = fields;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_open(std::string_view what) const {
    if (p_ == end_) fail(cat("unexpected end of file, expected ", with_article(what), " line"));
    fail(cat("expected ", with_article(what), " line, found '", excerpt(line_text()),
             "' (the section ends before its counts say)"));
  }
  /// Sets the number of fields of the current line, once its first fields have told it.
  void expect_fields(std::uint64_t fields) { line_fields_ = fields; }
  /// Fails unless the rest of the current line is blank.
  void close_line() {
    if (skip_blanks()) [[unlikely]]
      fail_fields("");
  }
  /// Skips blanks inside the current line; false at its end.
  bool skip_blanks() {
    while (p_ < end_ && is_blank(*p_)) ++p_;
    return p_ < end_ && *p_ != '\n';
  }
  /// The end of the current line (its '\n' or the end of the file), for messages.
  const char* line_end() const {
    const void* nl = std::memchr(line_begin_, '\n', static_cast<std::size_t>(end_ - line_begin_));
    return nl ? static_cast<const char*>(nl) : end_;
  }
  /// The current line from its first field, without trailing blanks.
  std::string_view line_text() const {
    const char* e = line_end();
    while (e > line_begin_ && is_space(e[-1])) --e;
    return {line_begin_, static_cast<std::size_t>(e - line_begin_)};
  }
  /// Fields on the current line, blank-separated; a quoted name (spaces and all) is one field.
  std::uint64_t fields_on_line() const {
    const char* e = line_end();
    std::uint64_t n = 0;
    for (const char* q = line_begin_; q < e;) {
      if (is_space(*q)) {
        ++q;
        continue;
      }
      ++n;
      if (*q == '"') {
        const char* close = std::find(q + 1, e, '"');
        q = close < e ? close + 1 : e;
      } else {
        while (q < e && !is_space(*q)) ++q;
      }
    }
    return n;
  }
  /// The current line has too many fields, or too few for reading `missing`.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_fields(std::string_view missing) const {
    const std::uint64_t have = fields_on_line();
    if (line_fields_ > 0 && have != line_fields_)
      fail(cat(line_what_, " line has ", have, have == 1 ? " field" : " fields", ", expected ",
               line_fields_));
    if (!missing.empty()) fail(cat(line_what_, " line ends before its ", missing));
    fail(cat("unexpected '", excerpt(peek_token()), "' at the end of the ", line_what_, " line"));
  }
  std::string_view peek_token() const {
    const char* q = p_;
    while (q < end_ && !is_space(*q)) ++q;
    return {p_, static_cast<std::size_t>(q - p_)};
  }
  std::string_view token(std::string_view what) {
    if (!skip_blanks()) fail_fields(what);
    const std::string_view t = peek_token();
    p_ += t.size();
    return t;
  }
  std::int64_t integer(std::string_view what) {
    if (!skip_blanks()) [[unlikely]]
      fail_fields(what);
    std::int64_t v = 0;
    const auto [q, ec] = std::from_chars(p_, end_, v);
    if (ec != std::errc{} || (q < end_ && !is_space(*q))) [[unlikely]]
      fail_integer(what, ec);
    p_ = q;
    return v;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_integer(std::string_view what,
                                                           std::errc ec) const {
    if (ec == std::errc::result_out_of_range)
      fail(cat(what, " '", excerpt(peek_token()), "' is out of range"));
    fail(cat("expected ", what, ", found '", excerpt(peek_token()), "'"));
  }
  /// An integer in [min, max].
  std::int64_t integer_in(std::string_view what, std::int64_t min, std::int64_t max) {
    const std::int64_t v = integer(what);
    if (v < min || v > max) fail(cat(what, " ", v, " is out of range [", min, ", ", max, "]"));
    return v;
  }
  std::uint64_t count(std::string_view what) {
    const std::int64_t v = integer(what);
    if (v < 0) fail(cat("negative ", what, " ", v));
    return static_cast<std::uint64_t>(v);
  }
  int int32(std::string_view what) {
    return static_cast<int>(
        integer_in(what, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
  }
  double real(std::string_view what) {
    if (!skip_blanks()) [[unlikely]]
      fail_fields(what);
    const char* s = p_;
    if (*s == '+' && s + 1 < end_ && s[1] != '-' && s[1] != '+') ++s;  // from_chars rejects '+'
    double v = 0;
    const auto [q, ec] = std::from_chars(s, end_, v);
    if (ec != std::errc{} || (q < end_ && !is_space(*q)) || !std::isfinite(v)) [[unlikely]]
      fail(cat("expected a finite ", what, ", found '", excerpt(peek_token()), "'"));
    p_ = q;
    return v;
  }
  /// The section's end marker, alone on its line. After binary data (`after_binary`) it must come
  /// right after the data's line break: bytes the counts do not account for are never skipped,
  /// not even blank ones. Otherwise it must be the next non-blank line.
  void expect_end(std::string_view section, bool after_binary) {
    const std::string wanted = cat("$End", section);
    if (after_binary) {
      const char* data_end = p_;
      if (remaining() < 2 || p_[0] != '\n' || p_[1] != '$' || !next_line() ||
          peek_token() != wanted) {
        p_ = data_end;
        fail(cat("expected ", wanted, " right after the binary data, found '",
                 excerpt(std::string_view(p_, remaining())), "'"));
      }
    } else {
      if (!next_line()) fail(cat("unexpected end of file, expected ", wanted));
      if (peek_token() != wanted)
        fail(cat("expected ", wanted, ", found '", excerpt(line_text()), "'",
                 *p_ == '$' ? "" : " (the section holds more than its counts say)"));
    }
    p_ += wanted.size();
    line_what_ = "section end";
    line_fields_ = 1;
    close_line();
  }
  /// Moves past the line break that ends an ASCII line before binary data (exactly that one, so
  /// that binary data starting with a white-space byte is not eaten).
  void begin_binary() {
    if (p_ >= end_ || *p_ != '\n') fail("expected a line break before binary data");
    ++p_;
    ++line_;
  }
  /// Skips an unknown section up to its $End line (the marker alone on a line).
  void skip_section(std::string_view name) {
    const std::string marker = cat("$End", name);
    const std::string_view rest(p_, static_cast<std::size_t>(end_ - p_));
    std::size_t at = 0;
    while (true) {
      at = rest.find(marker, at);
      if (at == std::string_view::npos)
        fail(cat("section $", excerpt(name), " has no ", excerpt(marker)));
      const bool line_start = at == 0 || rest[at - 1] == '\n';
      std::size_t after = at + marker.size();
      while (after < rest.size() && rest[after] != '\n' && is_space(rest[after])) ++after;
      if (line_start && (after == rest.size() || rest[after] == '\n')) break;
      at += 1;
    }
    if (!binary_) line_ += std::count(p_, p_ + at, '\n');
    p_ += at;
    next_line();  // the marker's line
    p_ += marker.size();
    line_what_ = "section end";
    line_fields_ = 1;
    close_line();
  }
  // ---- binary ----
  void need(std::uint64_t bytes, std::string_view what) const {
    if (bytes > remaining()) fail(cat("file ends inside ", what));
  }
  template <typename T>
  T raw() {  // caller has checked need()
    T v;
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return v;
  }
  std::uint64_t raw_size() {
    if (size_bytes_ == 4) return raw<std::uint32_t>();
    return raw<std::uint64_t>();
  }
  std::uint64_t size_field(std::string_view what) {  // a size_t of 4.1 (ASCII or binary)
    if (!binary_) return count(what);
    need(size_bytes_, what);
    return raw_size();
  }
  int int_field(std::string_view what) {  // an int of 4.1 (ASCII or binary)
    if (!binary_) return int32(what);
    need(4, what);
    return raw<std::int32_t>();
  }
  /// A tag as read from a size_t or int field, checked to fit the signed 64-bit tags we store.
  std::int64_t tag_value(std::uint64_t v, std::string_view what) const {
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(cat(what, " ", v, " is out of range"));
    return static_cast<std::int64_t>(v);
  }

  // ---- sections ----
  void read_mesh_format();
  void read_physical_names();
  void read_entities();
  void read_nodes_v2();
  void read_nodes_v4();
  void read_elements_v2();
  void read_elements_v4();
  [[gnu::noinline]] MeshData finish();  // (inlined into parse(), it runs 3% slower)

  // ---- shared element handling ----
  void add_node(std::int64_t tag, const double* xyz);
  int group_id(int dim, int physical_tag);
  std::string group_description(int group) const;
  Storage storage_for(const GmshType& type, std::int64_t element_tag, int group);
  Index node_index(std::int64_t tag, std::int64_t element_tag) const {
    const Index i = tag < 0 ? -1 : node_index_.find(static_cast<std::uint64_t>(tag));
    if (i < 0)
      fail(cat("element ", element_tag, " references node tag ", tag, ", which is not in $Nodes"));
    return i;
  }
  void add_element(const Storage& s, std::int64_t element_tag, const Index* nodes,
                   const std::vector<int>& groups, int dim);

  std::string name_;
  std::uint64_t elements_read_ = 0;  ///< for the interruption checks
  const char* begin_;
  const char* p_;
  const char* end_;
  std::int64_t line_ = 1;
  const char* line_begin_;                // the current ASCII line: its first field
  std::string_view line_what_ = "first";  // what the current line is, for messages
  std::uint64_t line_fields_ = 0;         // how many fields it has (0: not known yet)
  bool binary_ = false;
  int version_ = 0;  // 2 or 4
  int size_bytes_ = 8;

  bool seen_names_ = false, seen_entities_ = false, seen_nodes_ = false, seen_elements_ = false;
  std::vector<std::pair<EntityKey, std::string>> physical_names_;
  std::map<EntityKey, std::vector<int>> entity_physicals_;
  std::map<EntityKey, int> group_ids_;
  std::vector<EntityKey> groups_;  // group id -> (dim, physical tag)

  std::vector<double> coords_;  // every node of the file
  std::vector<std::int64_t> node_tags_;
  NodeIndex node_index_;

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
      read_physical_names();
      seen_names_ = true;
    } else if (section == "Entities" && version_ == 4) {
      if (seen_entities_) fail("second $Entities section");
      if (seen_elements_) fail("$Entities after $Elements");
      read_entities();
      seen_entities_ = true;
    } else if (section == "PartitionedEntities") {
      fail("partitioned MSH files are not supported (save the mesh unpartitioned)");
    } else if (section == "Nodes") {
      if (seen_nodes_) fail("second $Nodes section");
      version_ == 4 ? read_nodes_v4() : read_nodes_v2();
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
    size_bytes_ = static_cast<int>(data_size);
    begin_binary();
    binary_ = true;
    need(4, "the endianness marker");
    const auto one = raw<std::int32_t>();
    if (one == 0x01000000)
      fail("binary file written on a machine of the other byte order; save it on this one");
    if (one != 1) fail("bad binary endianness marker (not a valid binary MSH file)");
  }
  expect_end("MeshFormat", binary_);
}

void GmshParser::read_physical_names() {  // ASCII in binary files too
  open_line("physical name count", 1);
  const std::uint64_t n = count("number of physical names");
  close_line();
  check_fits(n, 6, "physical name");
  std::set<EntityKey> named;
  for (std::uint64_t i = 0; i < n; ++i) {
    open_line("physical name", 3);  // dim tag "name"
    const int dim = static_cast<int>(integer_in("physical group dimension", 0, 3));
    const int tag = int32("physical tag");
    if (!skip_blanks()) fail_fields("name");
    if (*p_ != '"') fail("expected a quoted physical name");
    const char* s = ++p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\n') ++p_;
    if (p_ >= end_ || *p_ != '"') fail("physical name without closing quote");
    const EntityKey key{dim, tag};
    if (!named.insert(key).second)
      fail(cat("second name for physical group (dim ", dim, ", tag ", tag, ")"));
    physical_names_.emplace_back(key, std::string(s, p_));
    ++p_;
    close_line();
  }
  expect_end("PhysicalNames", false);
}

void GmshParser::read_entities() {
  if (binary_)
    begin_binary();
  else
    open_line("entity count", 4);
  std::array<std::uint64_t, 4> n{};
  for (int d = 0; d < 4; ++d) n[d] = size_field("number of entities");
  if (!binary_) close_line();
  const std::uint64_t min_point = binary_ ? 4 + 24 + size_bytes_ : 10;
  const std::uint64_t min_other = binary_ ? 4 + 48 + 2 * size_bytes_ : 18;
  check_fits(n[0], min_point, "point entity");
  check_fits(n[1], min_other, "curve entity");
  check_fits(n[2], min_other, "surface entity");
  check_fits(n[3], min_other, "volume entity");
  for (int d = 0; d < 4; ++d) {
    // ASCII: tag x y z num-physicals physicals... (points), or tag min-x min-y min-z max-x max-y
    // max-z num-physicals physicals... num-bounding bounding-tags...
    const std::uint64_t fixed_fields = d == 0 ? 5 : 9;
    for (std::uint64_t i = 0; i < n[d]; ++i) {
      if (!binary_) open_line("entity", fixed_fields);
      const int tag = int_field("entity tag");
      const int num_coords = d == 0 ? 3 : 6;
      if (binary_) {
        need(8 * num_coords, "an entity");
        p_ += 8 * num_coords;
      } else {
        for (int k = 0; k < num_coords; ++k) real("entity coordinate");
      }
      const std::uint64_t num_physicals = size_field("number of physical tags");
      check_fits(num_physicals, binary_ ? 4 : 2, "physical tag");
      if (!binary_) expect_fields(fixed_fields + num_physicals);
      std::vector<int> physicals(num_physicals);
      for (auto& ph : physicals) ph = int_field("physical tag");
      if (d > 0) {
        const std::uint64_t num_bounding = size_field("number of bounding entities");
        check_fits(num_bounding, binary_ ? 4 : 2, "bounding entity");
        if (binary_) {
          p_ += 4 * num_bounding;
        } else {
          expect_fields(fixed_fields + num_physicals + num_bounding);
          for (std::uint64_t k = 0; k < num_bounding; ++k) int32("bounding entity tag");
        }
      }
      if (!binary_) close_line();
      if (!entity_physicals_.emplace(EntityKey{d, tag}, std::move(physicals)).second)
        fail(cat("duplicate entity (dim ", d, ", tag ", tag, ") in $Entities"));
    }
  }
  expect_end("Entities", binary_);
}

void GmshParser::add_node(std::int64_t tag, const double* xyz) {
  if ((node_tags_.size() & 0xffff) == 0) [[unlikely]]
    throw_if_interrupted(cat("while reading ", printable(name_)));
  if (tag < 0) fail(cat("negative node tag ", tag));
  const auto index = static_cast<Index>(node_tags_.size());
  if (!node_index_.insert(static_cast<std::uint64_t>(tag), index))
    fail(cat("duplicate node tag ", tag));
  node_tags_.push_back(tag);
  coords_.insert(coords_.end(), xyz, xyz + 3);
}

void GmshParser::read_nodes_v2() {
  open_line("node count", 1);  // ASCII in binary files too
  const std::uint64_t n = count("number of nodes");
  close_line();
  check_fits(n, binary_ ? 28 : 8, "node");
  node_index_.reset(n);
  coords_.reserve(3 * n);
  node_tags_.reserve(n);
  if (binary_) begin_binary();
  std::array<double, 3> x{};
  for (std::uint64_t i = 0; i < n; ++i) {
    if (binary_) {
      need(28, "a node");
      const auto tag = raw<std::int32_t>();
      std::memcpy(x.data(), p_, 24);
      p_ += 24;
      for (double c : x)
        if (!std::isfinite(c)) fail(cat("node ", tag, " has a non-finite coordinate"));
      add_node(tag, x.data());
    } else {
      open_line("node", 4);  // tag x y z
      const std::int64_t tag = integer("node tag");
      for (auto& c : x) c = real("node coordinate");
      close_line();
      add_node(tag, x.data());
    }
  }
  expect_end("Nodes", binary_);
}

void GmshParser::read_nodes_v4() {
  if (binary_)
    begin_binary();
  else
    open_line("$Nodes header", 4);
  const std::uint64_t num_blocks = size_field("number of node blocks");
  const std::uint64_t n = size_field("number of nodes");
  size_field("minimum node tag");
  size_field("maximum node tag");
  if (!binary_) close_line();
  check_fits(n, binary_ ? size_bytes_ + 24 : 8, "node");
  check_fits(num_blocks, binary_ ? 12 + size_bytes_ : 8, "node block");
  node_index_.reset(n);
  coords_.reserve(3 * n);
  node_tags_.reserve(n);
  std::uint64_t total = 0;
  std::array<double, 3> x{};
  for (std::uint64_t b = 0; b < num_blocks; ++b) {
    if (!binary_) open_line("node block header", 4);
    const int dim = int_field("entity dimension");
    if (dim < 0 || dim > 3) fail(cat("bad entity dimension ", dim, " in a node block"));
    int_field("entity tag");
    const int parametric = int_field("parametric flag");
    if (parametric != 0 && parametric != 1) fail(cat("bad parametric flag ", parametric));
    const std::uint64_t in_block = size_field("number of nodes in block");
    if (in_block > n - total) fail(cat("node blocks hold more nodes than the declared ", n));
    if (!binary_) close_line();
    const int values = 3 + (parametric ? dim : 0);  // x y z, then u (v (w))
    const std::size_t first = node_tags_.size();
    if (binary_) {
      check_fits(in_block, static_cast<std::uint64_t>(size_bytes_ + 8 * values), "node");
      for (std::uint64_t i = 0; i < in_block; ++i) {
        const std::int64_t tag = tag_value(raw_size(), "node tag");
        add_node(tag, x.data());  // coordinates filled below
      }
      for (std::uint64_t i = 0; i < in_block; ++i) {
        std::memcpy(x.data(), p_, 24);
        p_ += 8 * values;
        for (double c : x)
          if (!std::isfinite(c))
            fail(cat("node ", node_tags_[first + i], " has a non-finite coordinate"));
        std::copy(x.begin(), x.end(), coords_.begin() + 3 * (first + i));
      }
    } else {
      check_fits(in_block, 2 * (1 + values), "node");
      for (std::uint64_t i = 0; i < in_block; ++i) {
        open_line("node tag", 1);
        add_node(integer("node tag"), x.data());
        close_line();
      }
      for (std::uint64_t i = 0; i < in_block; ++i) {
        open_line("node coordinates", static_cast<std::uint64_t>(values));
        for (int k = 0; k < 3; ++k) coords_[3 * (first + i) + k] = real("node coordinate");
        for (int k = 3; k < values; ++k) real("parametric coordinate");
        close_line();
      }
    }
    total += in_block;
  }
  if (total != n) fail(cat("$Nodes declares ", n, " nodes but its blocks hold ", total));
  expect_end("Nodes", binary_);
}

int GmshParser::group_id(int dim, int physical_tag) {
  const auto [it, inserted] =
      group_ids_.emplace(EntityKey{dim, physical_tag}, static_cast<int>(groups_.size()));
  if (inserted) groups_.push_back({dim, physical_tag});
  return it->second;
}

std::string GmshParser::group_description(int group) const {
  const EntityKey key = groups_[group];
  for (const auto& [k, name] : physical_names_)
    if (k == key && !name.empty()) return cat("physical group \"", name, "\"");
  return cat("physical group (dim ", key.first, ", tag ", key.second, ")");
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
    auto& deferred = error_if_mesh_dim_[type.dim];
    if (!deferred)
      deferred =
          message(cat("Gmsh element type ", type.id, " (", type.name, ", element tag ", element_tag,
                      ") is supported only on boundaries, not as a ", type.dim, "D cell"));
    return s;
  }
  const std::string what = cat("unsupported Gmsh element type ", type.id, " (", type.name,
                               ") for element tag ", element_tag);
  if (group >= 0) fail(cat(what, " in ", group_description(group)));
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
  for (std::size_t g = 0; g < copies; ++g) {
    cells_.cell_types.push_back(*s.cell);
    for (int i = 0; i < s.num_kept; ++i) cells_.cell_nodes.push_back(nodes[s.order[i]]);
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
      if (physical != 0) groups.push_back(group_id(type->dim, static_cast<int>(physical)));
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
        if (physical != 0) groups.push_back(group_id(type->dim, static_cast<int>(physical)));
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
      const auto it = entity_physicals_.find({dim, entity});
      if (it == entity_physicals_.end())
        fail(cat("element block of entity (dim ", dim, ", tag ", entity,
                 "), which is not in $Entities"));
      for (int ph : it->second) groups.push_back(group_id(dim, ph));
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
  std::vector<int> final_region(groups_.size(), -1);
  for (const auto& [key, name] : physical_names_) {
    const auto it = group_ids_.find(key);
    const int r = static_cast<int>(mesh.regions.size());
    mesh.regions.push_back({name.empty() ? cat("physical_", key.first, "_", key.second) : name,
                            key.first, key.second});
    if (it != group_ids_.end()) final_region[it->second] = r;
  }
  for (const auto& [key, g] : group_ids_) {  // std::map: sorted by (dim, tag)
    if (final_region[g] >= 0) continue;
    final_region[g] = static_cast<int>(mesh.regions.size());
    mesh.regions.push_back({cat("physical_", key.first, "_", key.second), key.first, key.second});
  }
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
  const Index num_file_nodes = static_cast<Index>(node_tags_.size());
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
    mesh.coords.insert(mesh.coords.end(), coords_.begin() + 3 * i, coords_.begin() + 3 * i + 3);
    mesh.node_tags.push_back(node_tags_[i]);
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
