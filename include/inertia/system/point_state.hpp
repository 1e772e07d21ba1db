#pragma once
/// \file point_state.hpp
/// History variables at the quadrature points of a force term's cells (the plastic strain and
/// hardening variables of plasticity), with the life cycle of an implicit step:
///
/// - committed: the state at the end of the last accepted step (zero at the start of a run, a
///   checkpoint's after a restart);
/// - trial: the state at the configuration of the term's last evaluation, which the term computes
///   from the committed state (plasticity's return map) whenever it evaluates its force or
///   tangent, so that Newton iterates on it;
/// - commit(): when a step is accepted, the system evaluates every term with state at the accepted
///   configuration (ForceTerm::update_state) and the trial state becomes the committed one;
/// - restore(): when a step fails and is retried, its trial state is discarded.
///
/// Rows: one per cell of the term on this rank (in the order of cells()), stride() = points x
/// components values each, point-major. A term whose cell types have fewer quadrature points
/// than `points` leaves the rest of a row at zero. Checkpoints key the rows by the cells' file
/// tags, so a restart on another number of ranks finds each cell's state; outputs show the
/// average over a cell's points.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace inertia {

struct PointStateLayout {
  /// Output and checkpoint name, e.g. "equivalent_plastic_strain" (lower case, digits, '_').
  std::string name;
  /// Per point, e.g. {"xx", "yy", "zz", "yz", "xz", "xy"}; {""} for a scalar.
  std::vector<std::string> components;
  /// Per cell: the most quadrature points of the term's cell types (the same on every rank).
  int points = 1;
};

class PointState {
 public:
  /// `cells`: this rank's cells of the term (local indices), one row each; `points`: the number
  /// of quadrature points of each (empty: layout.points for all). The state is zero.
  PointState(PointStateLayout layout, std::vector<std::int64_t> cells,
             std::vector<std::uint8_t> points = {});

  const PointStateLayout& layout() const { return layout_; }
  int num_components() const { return static_cast<int>(layout_.components.size()); }
  int stride() const { return layout_.points * num_components(); }
  std::span<const std::int64_t> cells() const { return cells_; }
  std::size_t rows() const { return cells_.size(); }
  /// The quadrature points of row r's cell (at most layout().points).
  int points(std::size_t r) const { return points_.empty() ? layout_.points : points_[r]; }

  /// Row `r` of the committed state.
  std::span<const double> committed(std::size_t r) const {
    return {committed_.data() + r * stride(), static_cast<std::size_t>(stride())};
  }
  /// Row `r` of the trial state: written by the term's evaluations (which are const: evaluating
  /// the force at u is what sets the trial state at u).
  std::span<double> trial(std::size_t r) const {
    return {trial_.data() + r * stride(), static_cast<std::size_t>(stride())};
  }
  /// All rows of the trial state (the batched kernels write them in place).
  double* trial_values() const { return trial_.data(); }
  /// The accepted step's trial state becomes the committed state: the two are swapped (every
  /// evaluation writes every row's trial state; restore() copies).
  void commit() { committed_.swap(trial_), ++commits_; }
  /// The commits so far: a term that wrote the trial rows at some u knows from it whether they
  /// have become the committed rows since.
  std::uint64_t commits() const { return commits_; }
  /// A failed step's trial state is discarded: trial = committed.
  void restore() { trial_ = committed_; }

  /// All rows of the committed state (checkpoints write them; a restart reads into them and
  /// calls restore()).
  std::span<double> committed_values() { return committed_; }
  std::span<const double> committed_values() const { return committed_; }
  /// The average over the cell's points of component `k` of row `r` of the committed state.
  double cell_average(std::size_t r, int k) const;
  /// The index of the component called `name`, or -1.
  int component(std::string_view name) const {
    for (std::size_t k = 0; k < layout_.components.size(); ++k)
      if (layout_.components[k] == name) return static_cast<int>(k);
    return -1;
  }
  /// Terms whose state carries the stress (components stress_xx ... stress_xz: plasticity): the
  /// stress of row r, averaged over the cell's points, into s (6, VTK order). False otherwise.
  bool cell_stress(std::size_t r, double* s) const {
    const int k0 = component("stress_xx");
    if (k0 < 0) return false;
    for (int k = 0; k < 6; ++k) s[k] = cell_average(r, k0 + k);
    return true;
  }

 private:
  PointStateLayout layout_;
  std::vector<std::int64_t> cells_;
  std::vector<std::uint8_t> points_;
  std::vector<double> committed_;
  mutable std::vector<double> trial_;
  std::uint64_t commits_ = 0;
};

}  // namespace inertia
