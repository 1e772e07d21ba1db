#pragma once
/// \file drifts.hpp
/// Storey drifts (examples/guide/sections.md): along a vertical line at (x, y), the displacement of
/// the node nearest each level z_i (located as probes are), storey i's drift u(z_i) - u(z_i-1)
/// and its ratio to the storey height z_i - z_i-1, in x and y.

#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"

namespace inertia {

class DriftLines {
 public:
  /// Collective. Locates the levels' nodes (an InputError names a level outside the mesh).
  DriftLines(const MechanicalSystem& system, const CaseFile& c);
  /// The column names: <line>.s<i>.drift_x, drift_y, ratio_x, ratio_y per storey.
  std::vector<std::string> columns() const;
  /// The storeys, in column order: (line, storey) names as "<line>.s<i>" and heights.
  const std::vector<std::string>& storeys() const { return storeys_; }
  const std::vector<double>& heights() const { return heights_; }
  /// Collective. 4 values per storey from u (ghosts not needed).
  void compute(Vec u, std::vector<double>& out) const;
  /// Collective. The x, y, z displacement of every level's node (3 per level, in order).
  void levels(Vec u, std::vector<double>& out) const;

 private:
  MPI_Comm comm_;
  ProbeSites sites_;                ///< one site per level, lines one after the other
  std::vector<std::size_t> first_;  ///< per line, its first level's index
  std::vector<std::string> storeys_;
  std::vector<double> heights_;
  mutable std::vector<double> at_levels_;
};

}  // namespace inertia
