#pragma once
/// \file options.hpp
/// A component's own section of options (a time integrator's `time.<scheme>:` mapping, say), as
/// the component parses it: typed values by key, each error one line naming where the value came
/// from. The case file implements it over YAML (errors "<file>:<line>: time.newmark.beta: ...");
/// OptionList implements it over plain strings, for code and tests. So a component parses and
/// validates its options in its own file, without knowing YAML (PETSc's PetscOptionsBegin per
/// object type, in C++).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inertia {

/// The value of `text` as a finite number, or nothing if it is not one (whole text; no spaces).
std::optional<double> parse_number(std::string_view text);
/// true/yes/on or false/no/off, or nothing.
std::optional<bool> parse_boolean(std::string_view text);

class OptionMap {
 public:
  virtual ~OptionMap() = default;

  /// True if `key` is given.
  virtual bool has(std::string_view key) const = 0;
  /// Fails on the first given key that is not in `allowed` (with a did-you-mean hint).
  virtual void expect_keys(std::initializer_list<std::string_view> allowed) const = 0;
  /// The value of a given key as a number / a boolean; fails if it is not one.
  virtual double number(std::string_view key) const = 0;
  virtual bool boolean(std::string_view key) const = 0;
  /// Throws InputError "<where>: <section>.<key>: <what>"; an empty key names the section.
  [[noreturn]] virtual void fail(std::string_view key, const std::string& what) const = 0;

  // Typed values with their defaults (used when the key is absent) and range checks.
  double number_or(std::string_view key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }
  bool boolean_or(std::string_view key, bool fallback) const {
    return has(key) ? boolean(key) : fallback;
  }
  /// A number in [low, high] (either bound may be open: `low_open`, `high_open`).
  double number_in(std::string_view key, double fallback, double low, double high,
                   bool low_open = false, bool high_open = false) const;
  /// An integer in [low, high].
  std::int64_t integer_in(std::string_view key, std::int64_t fallback, std::int64_t low,
                          std::int64_t high) const;
};

/// Options given as (key, value text) pairs, e.g. OptionList{{"beta", "0.3"}}. Errors name
/// `section` ("time.newmark").
class OptionList final : public OptionMap {
 public:
  OptionList() = default;
  OptionList(std::initializer_list<std::pair<std::string, std::string>> values,
             std::string section = "options")
      : values_(values), section_(std::move(section)) {}

  bool has(std::string_view key) const override;
  void expect_keys(std::initializer_list<std::string_view> allowed) const override;
  double number(std::string_view key) const override;
  bool boolean(std::string_view key) const override;
  [[noreturn]] void fail(std::string_view key, const std::string& what) const override;

 private:
  const std::string& text(std::string_view key) const;
  std::vector<std::pair<std::string, std::string>> values_;
  std::string section_ = "options";
};

}  // namespace inertia
