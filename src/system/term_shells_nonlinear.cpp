// Corotational and plastic shells: a `shells:` region with `kinematics: corotational` or a
// material with `plasticity:` (J2) is one nonlinear term of fe/shell_nonlinear.hpp's corotational
// MITC4 (large displacements and rotations, small strains) with fe/shell_section.hpp's section at
// its 2 x 2 points: elastic, or plane-stress J2 at the points through the thickness, with its
// point state (per shell: 4 x points, each the J2 state of fe/plasticity.hpp).
#include "inertia/core/error.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/fe/shell_nonlinear.hpp"
#include "inertia/system/point_state.hpp"
#include "shell_term.hpp"

namespace inertia::shell_detail {

namespace {

class NonlinearShellTerm final : public PointwiseShellTerm {
 public:
  NonlinearShellTerm(const TermInputs& in, const ShellInput& b, const fe::ShellLayers& layers,
                     std::vector<std::int64_t> cells, bool scale)
      : PointwiseShellTerm(in, b, layers, std::move(cells), scale) {
    // Each point's weight: its 2 x 2 Gauss point's det J times the thickness point's weight.
    make_state(4, fe::shell4_nonlinear_state_size(layers), [&](std::size_t k, double* det) {
      double x[12];
      quad_coordinates(cells_[k], x);
      fe::shell4_gauss_weights(x, det);
    });
  }

  Traits traits() const override { return {.linear = false}; }

  /// Plastic sections: the stresses at the section's bottom, middle and top points from the
  /// committed state at the generalized strains at u, averaged over the 2 x 2 points, in the
  /// output axes of the current element.
  void cell_surface_stresses(std::span<const PetscScalar> u, std::size_t k,
                             double out[9]) const override {
    if (!state_) return ShellTermBase::cell_surface_stresses(u, k, out);
    double x[12], d[24], ek[24], R[9];
    quad_coordinates(cells_[k], x);
    quad_gather(u, cells_[k], d);
    try {
      fe::shell4_nonlinear_strains(x, layers_, d, ek, R);
    } catch (const SolverError&) {
      std::fill(out, out + shell_stress_components, NAN);
      return;
    }
    const int n = layers_.points, ns = fe::shell_layers_state_size(layers_);
    const auto committed = state_->committed(k);
    double sums[9] = {};
    for (int q = 0; q < 4; ++q) {
      double stress[3 * fe::ShellLayers::max_points];
      fe::shell_layers_stresses(
          layers_, ek + 6 * q,
          committed.subspan(static_cast<std::size_t>(q * ns), static_cast<std::size_t>(ns)),
          std::span<double>(stress, static_cast<std::size_t>(3 * n)));
      for (int i = 0; i < 3; ++i) {
        const double middle = n % 2 ? stress[3 * (n / 2) + i]
                                    : 0.5 * (stress[3 * (n / 2 - 1) + i] + stress[3 * (n / 2) + i]);
        sums[i] += 0.25 * stress[i];
        sums[3 + i] += 0.25 * middle;
        sums[6 + i] += 0.25 * stress[3 * (n - 1) + i];
      }
    }
    for (int s = 0; s < 3; ++s) {  // each surface's tensor to the output axes
      double local[8] = {sums[3 * s], sums[3 * s + 1], sums[3 * s + 2], 0, 0, 0, 0, 0}, o[8];
      fe::shell_to_output_axes(R, local, o);
      std::copy_n(o, 3, out + 3 * s);
    }
  }

 private:
  /// Row k's update at u from its committed state into its trial state: the force f and the
  /// tangent K (the cell's DOFs: a triangle's 18) and the resultants where asked; the stored
  /// energy.
  double update(const fe::ShellLayers& layers, std::span<const PetscScalar> u, std::int64_t c,
                std::size_t k, double* f, double* K, double* r) const override {
    double x[12], d[24], f4[24], K4[576];
    quad_coordinates(c, x);
    quad_gather(u, c, d);
    const std::span<const double> committed =
        state_ ? state_->committed(k) : std::span<const double>();
    const std::span<double> trial = state_ ? state_->trial(k) : std::span<double>();
    const double stored =
        fe::shell4_nonlinear(x, layers, d, committed, trial, f4, K ? K4 : nullptr, r).stored;
    fold_force(c, f4, f);
    if (K) fold_matrix(c, K4, K);
    return stored;
  }
};

}  // namespace

std::unique_ptr<ForceTerm> make_nonlinear_shell_term(const TermInputs& in, const ShellInput& b,
                                                     const fe::ShellLayers& layers,
                                                     std::vector<std::int64_t> cells, bool scale) {
  return std::make_unique<NonlinearShellTerm>(in, b, layers, std::move(cells), scale);
}

}  // namespace inertia::shell_detail
