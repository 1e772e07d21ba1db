#pragma once
/// \file registry.hpp
/// The one shape of the tables that grow (schemes, force-term kinds, condition types, output
/// fields, cell types; constitutive models, kinematics and analyses next): a row is a struct
/// deriving from EntryInfo (its name, a one-line summary and a minimal case-file example) plus
/// its own typed part (a parse or factory function, its traits), and the table is a
/// Registry<Row>, a view of the rows with lookup by name and the "unknown ..." message.
///
/// A Registry is a span and a noun, nothing else: a table of constexpr rows is constant-
/// initialized (no static-initialization order), and a table that grows at start-up (the force
/// terms' register_force_term) hands out a fresh Registry over its rows each time. `inertia
/// --help <section>`, the keyword reference (examples/guide/reference.md) and the test that runs
/// every example (tests/unit/app_registry_examples.cpp) read the EntryInfo of every row.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

/// What every row of every registry carries, as its first part (rows derive from it).
struct EntryInfo {
  std::string_view name;     ///< as the case file spells it: "newmark", "traction", "hex8"
  std::string_view summary;  ///< one line for --help and the reference
  /// A minimal case-file example: the top-level blocks that use the entry, as YAML
  /// ("time: {integrator: hht, dt: 1.0e-4, steps: 10, hht: {alpha: -0.1}}"); the rest of a
  /// runnable case comes from a small box case, whose blocks the example's replace. Empty where
  /// none makes sense (a cell type that only a mesh file brings).
  std::string_view example;
};

/// The rows of one registry: `Row` derives from EntryInfo.
template <typename Row>
class Registry {
 public:
  /// `noun`: what a row is, for messages ("integrator", "condition type").
  constexpr Registry(std::string_view noun, std::span<const Row> rows) : noun_(noun), rows_(rows) {}

  constexpr std::string_view noun() const { return noun_; }
  constexpr std::span<const Row> entries() const { return rows_; }
  constexpr auto begin() const { return rows_.begin(); }
  constexpr auto end() const { return rows_.end(); }
  constexpr std::size_t size() const { return rows_.size(); }
  constexpr const Row& operator[](std::size_t i) const { return rows_[i]; }

  /// The row called `name`, or null.
  constexpr const Row* find(std::string_view name) const {
    for (const Row& r : rows_)
      if (r.name == name) return &r;
    return nullptr;
  }
  /// The names, in registration order.
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> names;
    for (const Row& r : rows_) names.push_back(r.name);
    return names;
  }
  /// "unknown integrator 'newmak' (did you mean 'newmark'?) (expected newmark, hht, ...)".
  std::string unknown(std::string_view name) const {
    const auto all = names();
    return cat("unknown ", noun_, " '", excerpt(name), "'", did_you_mean(name, all), " (expected ",
               join(all), ")");
  }
  /// The row called `name`; throws InputError(unknown(name)) if there is none.
  const Row& at(std::string_view name) const {
    if (const Row* r = find(name)) return *r;
    throw InputError(unknown(name));
  }
  /// The position of `row`, one of this registry's rows.
  constexpr std::size_t index(const Row& row) const {
    return static_cast<std::size_t>(&row - rows_.data());
  }

 private:
  std::string_view noun_;
  std::span<const Row> rows_;
};

}  // namespace inertia
