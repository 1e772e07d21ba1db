#pragma once
/// \file help.hpp
/// `inertia --help [<topic>]` and the keyword reference (examples/guide/reference.md). The pages
/// list the rows of the registries (core/registry.hpp: schemes, force-term kinds, condition types,
/// output fields, cell types), each with its summary and its minimal example; the keys that no
/// registry holds yet (the time: and output: blocks, the analyses) are written here by hand.
///
/// A topic is a section (`time`, `integrators`, `conditions`, `output`, ...) or one row of a
/// registry (a scheme `newmark`, a force-term kind `contact`, a condition type `traction`, a cell
/// type `tet10`).

#include <optional>
#include <string>
#include <string_view>

namespace inertia {

/// `inertia --help`: the command lines and the sections.
std::string help_overview();
/// The page of `topic`, or nullopt if there is no such section or registry row.
std::optional<std::string> help_page(std::string_view topic);
/// "unknown help section 'x' (did you mean ...) (expected run, mesh, ...)": one line.
std::string unknown_help_topic(std::string_view topic);
/// `inertia --help all`: the overview, then every section's page.
std::string help_all();
/// `inertia --help-reference`: every section's page as the markdown of
/// examples/guide/reference.md.
std::string help_reference();

}  // namespace inertia
