#pragma once
/// \file gmsh_cursor.hpp
/// The Gmsh reader's cursor over the file in memory (internal: not part of include/): positions
/// and messages, ASCII lines and their fields, binary values. See gmsh_reader.cpp for the design;
/// everything here is inline, on the reader's hot path.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia::gmsh {

using Index = std::int64_t;

inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\v';
}
/// White space inside a line.
inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/// "a node line", "an element line".
inline std::string with_article(std::string_view what) {
  const bool vowel =
      !what.empty() && std::string_view("aeiou").find(what[0]) != std::string_view::npos;
  return cat(vowel ? "an " : "a ", what);
}

/// A position in a Gmsh file's text, with the reads of its fields. Every failure is an
/// InputError "<file>: <what> (line N)" (ASCII) or "(byte N)" (binary).
class GmshCursor {
 public:
  GmshCursor(std::string file_name, std::string_view text)
      : name_(std::move(file_name)),
        begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        line_begin_(text.data()) {}

  const std::string& file_name() const { return name_; }
  bool binary() const { return binary_; }
  /// The size of a binary size_t field (4 or 8).
  int size_bytes() const { return size_bytes_; }
  /// Binary from here on, with size_t fields of `size_bytes`.
  void set_binary(int size_bytes) {
    size_bytes_ = size_bytes;
    binary_ = true;
  }
  /// Skips `bytes` bytes (binary; the caller has checked need()).
  void skip(std::uint64_t bytes) { p_ += bytes; }
  /// Copies `bytes` bytes from here into `out` without moving (the caller has checked need()).
  void peek_bytes(void* out, std::size_t bytes) const { std::memcpy(out, p_, bytes); }
  /// Starts the current line as one of `what` with `fields` fields (its first field read).
  void name_line(std::string_view what, std::uint64_t fields) {
    line_what_ = what;
    line_fields_ = fields;
  }
  /// A quoted string on the current line (the field `field`, a `what`), without its quotes (it
  /// may hold spaces); the cursor stays on the closing quote (skip(1) passes it).
  std::string quoted(std::string_view field, std::string_view what) {
    if (!skip_blanks()) fail_fields(field);
    if (*p_ != '"') fail(cat("expected a quoted ", what));
    const char* s = ++p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\n') ++p_;
    if (p_ >= end_ || *p_ != '"') fail(cat(what, " without closing quote"));
    return std::string(s, p_);
  }

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

 protected:
  std::string name_;
  const char* begin_;
  const char* p_;
  const char* end_;
  std::int64_t line_ = 1;
  const char* line_begin_;                // the current ASCII line: its first field
  std::string_view line_what_ = "first";  // what the current line is, for messages
  std::uint64_t line_fields_ = 0;         // how many fields it has (0: not known yet)
  bool binary_ = false;
  int size_bytes_ = 8;
};

}  // namespace inertia::gmsh
