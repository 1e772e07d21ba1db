#pragma once
/// \file case_node.hpp
/// A YAML node of the case file with its key path: the reader every section's parser uses (the
/// case file's own sections in src/app, and the force-term kinds with a section of their own,
/// force_term.hpp). Its messages are the case file's: "<file>:<line>: <key>: <what is wrong>",
/// one line.

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/options.hpp"
#include "inertia/core/origin.hpp"
#include "inertia/core/text.hpp"

namespace inertia::case_yaml {

/// Messages are one line: line breaks and other control characters inside echoed values (block
/// scalars, quoted "\n", a bad escape quoted by yaml-cpp) are escaped.
inline std::string one_line(const std::string& s) { return printable(s); }

/// A YAML node with its key path, for messages.
struct Node {
  YAML::Node node;
  std::string key;
  const std::string* file;

  int line() const { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(one_line(cat(*file, line() ? ":" + std::to_string(line()) : std::string(),
                                  ": ", key.empty() ? std::string() : key + ": ", what)));
  }
  bool has(const char* k) const { return node.IsMap() && node[k]; }
  Node operator[](const char* k) const {
    return {node[k], key.empty() ? std::string(k) : key + "." + k, file};
  }
  Node at(std::size_t i) const { return {node[i], cat(key, "[", i, "]"), file}; }
  std::size_t size() const { return node.size(); }
  Origin origin() const { return {line(), key}; }

  /// A key of this mapping: a plain name, given once (YAML parsers keep the first of duplicates,
  /// which would let a second, invalid value pass unvalidated).
  std::string key_name(const YAML::Node& k) const {
    const Node at_key{k, key, file};
    if (!k.IsScalar()) at_key.fail("expected a plain name as key");
    const auto name = k.as<std::string>();
    for (const auto& kv : node) {
      if (kv.first.is(k)) break;
      if (kv.first.IsScalar() && kv.first.as<std::string>() == name)
        at_key.fail(cat("key '", excerpt(name), "' is given more than once"));
    }
    return name;
  }
  void expect_map(std::initializer_list<std::string_view> allowed) const {
    expect_map(std::span<const std::string_view>(allowed.begin(), allowed.size()));
  }
  void expect_map(std::span<const std::string_view> keys) const {
    if (!node.IsMap()) fail("expected a mapping of keys");
    for (const auto& kv : node) {
      const auto k = key_name(kv.first);
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
        const int l = kv.first.Mark().line + 1;
        throw InputError(
            one_line(cat(*file, ":", l, ": ", key.empty() ? "" : key + ": ", "unknown key '",
                         excerpt(k), "'", did_you_mean(k, keys), "; allowed: ", join(keys))));
      }
    }
  }
  void expect_sequence() const {
    if (!node.IsSequence()) fail("expected a list");
  }
  std::string text() const {
    if (!node.IsScalar()) fail("expected a single value");
    return node.as<std::string>();
  }
  double number() const {
    const std::string s = text();
    const auto v = parse_number(s);
    if (!v) fail(cat("expected a finite number, got '", excerpt(s), "'"));
    return *v;
  }
  double positive() const {
    const double v = number();
    if (!(v > 0)) fail(cat("must be > 0 (got ", v, ")"));
    return v;
  }
  double non_negative() const {
    const double v = number();
    if (!(v >= 0)) fail(cat("must be >= 0 (got ", v, ")"));
    return v;
  }
  std::int64_t integer() const {
    const double v = number();
    if (v != std::floor(v) || std::abs(v) > 9e15)
      fail(cat("expected an integer, got '", excerpt(text()), "'"));
    return static_cast<std::int64_t>(v);
  }
  /// An integer in [min, max]; anything else (3000000000 for an int, 2.5, 1e20) is refused
  /// with the range (and `note`, "0: none").
  std::int64_t integer_in(std::int64_t min, std::int64_t max, const char* note = nullptr) const {
    const double v = number();
    if (!(v == std::floor(v) && v >= static_cast<double>(min) && v <= static_cast<double>(max)))
      fail(cat("must be an integer in [", min, ", ", max, "]", note ? cat(" (", note, ")") : "",
               ", got '", excerpt(text()), "'"));
    return static_cast<std::int64_t>(v);
  }
  bool boolean() const {
    const std::string s = text();
    const auto v = parse_boolean(s);
    if (!v) fail(cat("expected true or false, got '", excerpt(s), "'"));
    return *v;
  }
  std::string choice(std::initializer_list<std::string_view> options) const {
    return choice(std::vector<std::string_view>(options));
  }
  std::string choice(const std::vector<std::string_view>& list) const {
    const std::string s = text();
    if (std::find(list.begin(), list.end(), s) == list.end())
      fail(cat("unknown value '", excerpt(s), "'", did_you_mean(s, list),
               "; expected one of: ", join(list)));
    return s;
  }
  std::vector<double> numbers(std::size_t min_size, std::size_t max_size) const {
    if (!node.IsSequence() || node.size() < min_size || node.size() > max_size)
      fail(min_size == max_size
               ? cat("expected a list of ", min_size, " numbers")
               : cat("expected a list of ", min_size, " to ", max_size, " numbers"));
    std::vector<double> out;
    for (std::size_t i = 0; i < node.size(); ++i) out.push_back(at(i).number());
    return out;
  }
  std::array<double, 3> vec3() const {
    const auto v = numbers(3, 3);
    return {v[0], v[1], v[2]};
  }
};

}  // namespace inertia::case_yaml
