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

/// The index of a DOF name: x, y, z (0-2), rx, ry, rz (3-5: rotations of beam nodes).
inline int dof_index(const Node& n) {
  const std::string s = n.choice({"x", "y", "z", "rx", "ry", "rz"});
  return s.size() == 1 ? s[0] - 'x' : 3 + (s[1] - 'x');
}

/// A list of 1 to 6 of x, y, z, rx, ry, rz.
inline std::array<bool, 6> parse_dofs(const Node& n) {
  n.expect_sequence();
  if (n.size() == 0 || n.size() > 6) n.fail("expected a list of 1 to 6 of x, y, z, rx, ry, rz");
  std::array<bool, 6> dofs{};
  for (std::size_t i = 0; i < n.size(); ++i) {
    const int k = dof_index(n.at(i));
    if (dofs[k]) n.at(i).fail(cat("component ", n.at(i).text(), " listed twice"));
    dofs[k] = true;
  }
  return dofs;
}

/// Which `time:` keys a section must give: a single run's (dt and end_time or steps), the
/// defaults of a sequence's analyses (none required), or one analysis of `analyses:` (its span;
/// what the model is (mass, rayleigh, operator, linear_solver) refused; name and type allowed).
enum class TimeKeys { run, defaults, analysis };

/// Reads the time keys of `n` into c (src/app/case_file.cpp); an end_time is on the run's time
/// line and the span is measured from `start`.
void parse_time(const Node& n, CaseFile& c, TimeKeys which, double start = 0);

/// Reads `analyses:` into c.analyses, after time: (src/app/analysis_sequence.cpp).
void parse_analyses(const Node& n, CaseFile& c);

}  // namespace inertia::case_yaml
