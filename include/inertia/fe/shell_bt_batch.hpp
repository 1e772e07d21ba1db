#pragma once
/// \file shell_bt_batch.hpp
/// The explicit force pass of Belytschko-Tsay shells (fe/shell_bt.hpp) in batches of eight
/// elements, one per lane of a SIMD register (AVX-512, AVX2 or the baseline's SSE2, chosen at run
/// time). Each lane does shell4_bt's arithmetic: the two are one code (src/fe/shell_bt_kernel.hpp),
/// and a lane differs from shell4_bt only by the rounding of the instruction set's fused
/// multiply-adds. An elastic section is evaluated in the lanes; a plastic one lane by lane
/// (shell_layers_update, each element's state). The rotations' maps take their series in every
/// lane and redo the lanes outside its range with the closed forms. Allocation-free per pass.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/fe/shell_section.hpp"

namespace inertia::fe {

class ShellBtBatches {
 public:
  static constexpr int width = 8;  ///< elements per batch
  /// X: each element's 4 reference nodes (12 doubles; a triangle's third node twice). nodes: each
  /// element's 4 translation nodes, then its 4 rotation nodes (8 indices n of a pass's u and f,
  /// whose DOFs are 3 n .. 3 n + 2). Throws SolverError as shell4_bt_reference.
  ShellBtBatches(std::span<const double> X, std::span<const std::int32_t> nodes);
  std::size_t size() const { return count_; }

  /// QT: shell4_bt_node_rotation of each node n of `nodes` (its psi at u[3 n]), 18 values each,
  /// in the order of `nodes`, W nodes at a time: the exponentials and tangents add_forces
  /// computes in its lanes at each element's corners (from psi, not from a table).
  static void node_rotations(const double* u, std::span<const std::int64_t> nodes, double* QT);

  /// One evaluation.
  struct Pass {
    const ShellLayers* section = nullptr;
    double hourglass = 0;               ///< the coefficient r (shell4_bt)
    const double* u = nullptr;          ///< the DOFs (total translations and rotation vectors)
    const double* committed = nullptr;  ///< plastic sections: element k's state at k * stride
    double* trial = nullptr;            ///< written as committed
    std::size_t stride = 0;
    double* f = nullptr;  ///< the forces are added into it
  };
  /// The pass's stored energy and its hourglass part (summed in the elements' order).
  struct Totals {
    double stored = 0, hourglass = 0;
  };
  /// Adds every element's force at p.u into p.f. An element without a frame at u (collapsed, or
  /// a state not finite) or whose section throws SolverError is reported to failed(k, error) and
  /// adds nothing.
  Totals add_forces(const Pass& p,
                    const std::function<void(std::size_t, const SolverError&)>& failed) const;

 private:
  std::size_t count_ = 0;
  std::vector<double> geometry_;     ///< per batch: its fields, each `width` lanes
  std::vector<std::int32_t> nodes_;  ///< per batch: [8][width]
};

}  // namespace inertia::fe
