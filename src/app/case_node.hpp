#pragma once
/// \file case_node.hpp
/// Internal to src/app: the case file's reader (inertia/core/case_node.hpp) and the helpers the
/// sections of src/app share.

#include "inertia/app/case_file.hpp"
#include "inertia/core/case_node.hpp"

namespace inertia::case_yaml {

/// A list of 1 to 3 of x, y, z, each at most once (a condition's `components`).
inline std::array<bool, 3> parse_components(const Node& n) {
  n.expect_sequence();
  if (n.size() == 0 || n.size() > 3) n.fail("expected a list of 1 to 3 of x, y, z");
  std::array<bool, 3> comps{false, false, false};
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string s = n.at(i).choice({"x", "y", "z"});
    const int k = s[0] - 'x';
    if (comps[k]) n.at(i).fail(cat("component ", s, " listed twice"));
    comps[k] = true;
  }
  return comps;
}

}  // namespace inertia::case_yaml
