// Belytschko-Tsay shells: a `shells:` region with `formulation: belytschko_tsay` is one
// nonlinear term of fe/shell_bt.hpp's one-point corotational element with hourglass control, for
// explicit runs: elastic, or plane-stress J2 at the points through the thickness (fe/
// shell_section.hpp) with its point state (per shell: `integration_points` J2 states).
#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/fe/shell_bt.hpp"
#include "inertia/fe/shell_bt_batch.hpp"
#include "inertia/system/point_state.hpp"
#include "shell_term.hpp"

namespace inertia::shell_detail {

namespace {

class BtShellTerm final : public LayeredShellTerm {
 public:
  BtShellTerm(const TermInputs& in, const ShellInput& b, const fe::ShellLayers& layers,
              std::vector<std::int64_t> cells, bool scale)
      : LayeredShellTerm(in, b, layers, std::move(cells), scale),
        scratch_(static_cast<std::size_t>(fe::shell4_bt_state_size(layers))) {
    reference_.reserve(cells_.size());
    for (const std::int64_t c : cells_) {
      double x[12];
      quad_coordinates(c, x);
      reference_.push_back(fe::shell4_bt_reference(x));
    }
    // The force pass's batches: each cell's reference nodes, its 4 translation and 4 rotation
    // nodes (a triangle's third twice).
    std::vector<double> X(12 * cells_.size());
    std::vector<std::int32_t> nodes;
    nodes.reserve(8 * cells_.size());
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      quad_coordinates(cells_[k], X.data() + 12 * k);
      const auto cn = mesh_.nodes_of(cells_[k]);
      const std::size_t n = cn.size() / 2;
      for (std::size_t a = 0; a < 8; ++a)
        nodes.push_back(static_cast<std::int32_t>(cn[(a / 4) * n + std::min(a % 4, n - 1)]));
    }
    batches_ = std::make_unique<fe::ShellBtBatches>(X, nodes);
    // Each point's weight: the cell's area times the thickness point's weight.
    make_state(1, fe::shell4_bt_state_size(layers),
               [&](std::size_t k, double* area) { area[0] = areas_[k]; });
  }

  Traits traits() const override { return {.linear = false, .hourglass = true}; }
  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    force_energy_ = force_hourglass_ = NAN;  // until every cell is evaluated
    const fe::ShellLayers layers = at_time(layers_, at.time);
    fe::ShellBtBatches::Pass pass;
    pass.section = &layers;
    pass.hourglass = input_.hourglass;
    pass.u = at.u.data();
    pass.f = f.local().data();
    if (state_) {
      pass.committed = state_->committed(0).data();
      pass.trial = state_->trial_values();
      pass.stride = static_cast<std::size_t>(state_->stride());
    }
    const fe::ShellBtBatches::Totals totals = batches_->add_forces(
        pass, [&](std::size_t k, const SolverError& e) { f.fail(cells_[k], e); });
    force_energy_ = totals.stored;
    force_hourglass_ = totals.hourglass;
  }
  double force_hourglass_energy(const TermPoint&) const override { return force_hourglass_; }

  /// The one-point element's tangent by central differences of its force (from the committed
  /// state, into scratch): explicit runs ask for it once, at the start, to size contact
  /// penalties from its diagonal. Implicit runs are refused (term_shells.cpp).
  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    std::size_t k = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    K.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto Ke) {
      double x[12], d[24], fp[24], fm[24], K4[576];
      quad_coordinates(c, x);
      quad_gather(at.u, c, d);
      const double step[2] = {1e-7 * std::sqrt(areas_[k]), 1e-7};
      for (int j = 0; j < 24; ++j) {  // a triangle's repeated node: its half of the column
        const double h = step[j / 12], dj = d[j];
        d[j] = dj + h;
        kernel(layers, x, d, k, scratch_, fp);
        d[j] = dj - h;
        kernel(layers, x, d, k, scratch_, fm);
        d[j] = dj;
        for (int i = 0; i < 24; ++i) K4[24 * i + j] = (fp[i] - fm[i]) / (2 * h);
      }
      fold_matrix(c, K4, Ke.data());
      ++k;
    });
  }
  double energy(const TermPoint& at) const override {
    double total = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double f[24];
      try {
        total += update(layers, at.u, cells_[k], k, trial(k), f, false).energy.stored;
      } catch (const SolverError&) {
        return NAN;  // a collapsed element
      }
    }
    return total;
  }
  /// The hourglass modes' part of the stored energy at `at` (from the committed states, into
  /// scratch: the trial states are not touched).
  double hourglass_energy(const TermPoint& at) const override {
    double total = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double f[24];
      try {
        total += update(layers, at.u, cells_[k], k, scratch_, f, false).hourglass;
      } catch (const SolverError&) {
        return NAN;
      }
    }
    return total;
  }
  /// The point's resultants (current element's output axes); writes the trial state at u.
  void cell_resultants(std::span<const PetscScalar> u, std::size_t k,
                       double out[8]) const override {
    double f[24];
    try {
      const fe::ShellBtResult r = update(frozen(), u, cells_[k], k, trial(k), f);
      std::copy_n(r.resultants, shell_resultant_components, out);
    } catch (const SolverError&) {
      std::fill(out, out + shell_resultant_components, NAN);
    }
  }
  /// Plastic sections: the stresses at the section's bottom, middle and top points from the
  /// committed state at the point's strains at u, in the current element's output axes.
  void cell_surface_stresses(std::span<const PetscScalar> u, std::size_t k,
                             double out[9]) const override {
    if (!state_) return ShellTermBase::cell_surface_stresses(u, k, out);
    double x[12], d[24], ek[6], R[9];
    quad_coordinates(cells_[k], x);
    quad_gather(u, cells_[k], d);
    try {
      fe::shell4_bt_strains(reference_[k], x, d, ek, R);
    } catch (const SolverError&) {
      std::fill(out, out + shell_stress_components, NAN);
      return;
    }
    const int n = layers_.points;
    double stress[3 * fe::ShellLayers::max_points];
    fe::shell_layers_stresses(layers_, ek, state_->committed(k),
                              std::span<double>(stress, static_cast<std::size_t>(3 * n)));
    for (int s = 0; s < 3; ++s) {  // bottom, middle, top to the output axes
      const int q = s == 0 ? 0 : s == 2 ? n - 1 : n / 2;
      double local[8] = {}, o[8];
      for (int i = 0; i < 3; ++i)
        local[i] = s == 1 && n % 2 == 0 ? 0.5 * (stress[3 * (n / 2 - 1) + i] + stress[3 * q + i])
                                        : stress[3 * q + i];
      fe::shell_to_output_axes(R, local, o);
      std::copy_n(o, 3, out + 3 * s);
    }
  }

 private:
  void row_force(std::span<const PetscScalar> u, std::size_t k, double* f) const override {
    update(frozen(), u, cells_[k], k, trial(k), f, false);
  }
  std::span<double> trial(std::size_t k) const {
    return state_ ? state_->trial(k) : std::span<double>();
  }
  /// The section at an evaluation's time (`layers`: at_time), for a rate factor's step.
  fe::ShellBtResult kernel(const fe::ShellLayers& layers, const double* x, const double* d,
                           std::size_t k, std::span<double> into, double* f,
                           bool resultants = true) const {
    const std::span<const double> committed =
        state_ ? state_->committed(k) : std::span<const double>();
    return fe::shell4_bt(reference_[k], x, layers, input_.hourglass, d, committed, into, f,
                         resultants);
  }
  /// Row k's update at u from its committed state into `into` (its trial state or scratch), its
  /// force f in the cell's DOFs (a triangle's 18); the resultants only if asked.
  fe::ShellBtResult update(const fe::ShellLayers& layers, std::span<const PetscScalar> u,
                           std::int64_t c, std::size_t k, std::span<double> into, double* f,
                           bool resultants = true) const {
    double x[12], d[24], f4[24];
    quad_coordinates(c, x);
    quad_gather(u, c, d);
    const fe::ShellBtResult r = kernel(layers, x, d, k, into, f4, resultants);
    fold_force(c, f4, f);
    return r;
  }

  mutable std::vector<double> scratch_;   ///< one row's state, for evaluations that keep none
  mutable double force_hourglass_ = NAN;  ///< the hourglass energy of the last force pass
  std::vector<fe::ShellBtReference> reference_;  ///< per cell, its reference geometry (set-up)
  std::unique_ptr<fe::ShellBtBatches> batches_;  ///< the cells in batches, for the force pass
};

}  // namespace

std::unique_ptr<ForceTerm> make_bt_shell_term(const TermInputs& in, const ShellInput& b,
                                              const fe::ShellLayers& layers,
                                              std::vector<std::int64_t> cells, bool scale) {
  return std::make_unique<BtShellTerm>(in, b, layers, std::move(cells), scale);
}

}  // namespace inertia::shell_detail
