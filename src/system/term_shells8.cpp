// Plastic curved shells: a `shells:` region of 8-node (quad8) cells on a material with
// `plasticity:` (J2) is one nonlinear term of fe/shell8.hpp's shell8_update (linear kinematics,
// the degenerated-continuum element with fe/shell_section.hpp's plane-stress J2 section at its
// 2 x 2 points), with its point state (per shell: 4 x points through the thickness, each the J2
// state of fe/plasticity.hpp). Static and implicit runs (build_shell_terms refuses the rest).
#include "inertia/core/error.hpp"
#include "inertia/fe/shell8.hpp"
#include "inertia/system/point_state.hpp"
#include "shell_term.hpp"

namespace inertia::shell_detail {

namespace {

class Shell8PlasticTerm final : public PointwiseShellTerm {
 public:
  Shell8PlasticTerm(const TermInputs& in, const ShellInput& b, const fe::ShellLayers& layers,
                    std::vector<std::int64_t> cells)
      : PointwiseShellTerm(in, b, layers, std::move(cells), false) {
    // Each point's weight: its 2 x 2 point's area element times the thickness point's weight.
    make_state(4, fe::shell8_state_size(layers), [&](std::size_t k, double* w) {
      double x[24];
      coordinates(cells_[k], x);
      fe::shell8_gauss_weights(x, layers_.elastic, w);
    });
  }

  Traits traits() const override { return {.linear = false}; }

  /// The stresses at the section's bottom, middle and top points from the committed state at the
  /// generalized strains at u, each 2 x 2 point's in its output axes, averaged.
  void cell_surface_stresses(std::span<const PetscScalar> u, std::size_t k,
                             double out[9]) const override {
    double x[24], d[48], ek[24], R[36];
    coordinates(cells_[k], x);
    gather(u, cells_[k], d);
    fe::shell8_strains(x, layers_, d, ek, R);
    const int n = layers_.points, ns = fe::shell_layers_state_size(layers_);
    const auto committed = state_->committed(k);
    std::fill(out, out + shell_stress_components, 0.0);
    for (int q = 0; q < 4; ++q) {
      double stress[3 * fe::ShellLayers::max_points];
      fe::shell_layers_stresses(
          layers_, ek + 6 * q,
          committed.subspan(static_cast<std::size_t>(q * ns), static_cast<std::size_t>(ns)),
          std::span<double>(stress, static_cast<std::size_t>(3 * n)));
      for (int s = 0; s < 3; ++s) {  // bottom, middle, top: the tensor to the output axes
        const int lo = s == 0 ? 0 : s == 2 ? n - 1 : (n - 1) / 2, hi = s == 1 ? n / 2 : lo;
        double local[8] = {}, o[8];
        for (int i = 0; i < 3; ++i) local[i] = 0.5 * (stress[3 * lo + i] + stress[3 * hi + i]);
        fe::shell_to_output_axes(R + 9 * q, local, o);
        for (int i = 0; i < 3; ++i) out[3 * s + i] += 0.25 * o[i];
      }
    }
  }

 private:
  const char* kinematics() const override { return "linear"; }
  /// Row k's update at u from its committed state into its trial state: the force f (48) and the
  /// tangent K (48 x 48) and the resultants (4 x 8) where asked; the stored energy.
  double update(const fe::ShellLayers& layers, std::span<const PetscScalar> u, std::int64_t c,
                std::size_t k, double* f, double* K, double* r) const override {
    double x[24], d[48];
    coordinates(c, x);
    gather(u, c, d);
    return fe::shell8_update(x, layers, d, state_->committed(k), state_->trial(k), f, K, r).stored;
  }
};

}  // namespace

std::unique_ptr<ForceTerm> make_shell8_plastic_term(const TermInputs& in, const ShellInput& b,
                                                    const fe::ShellLayers& layers,
                                                    std::vector<std::int64_t> cells) {
  INERTIA_CHECK(layers.plastic, InternalError, "make_shell8_plastic_term: an elastic section");
  return std::make_unique<Shell8PlasticTerm>(in, b, layers, std::move(cells));
}

}  // namespace inertia::shell_detail
