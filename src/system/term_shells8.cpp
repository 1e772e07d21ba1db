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

class Shell8PlasticTerm final : public LayeredShellTerm {
 public:
  Shell8PlasticTerm(const TermInputs& in, const ShellInput& b, const fe::ShellLayers& layers,
                    std::vector<std::int64_t> cells)
      : LayeredShellTerm(in, b, layers, std::move(cells), false) {
    // Each point's weight: its 2 x 2 point's area element times the thickness point's weight.
    make_state(4, fe::shell8_state_size(layers), [&](std::size_t k, double* w) {
      double x[24];
      coordinates(cells_[k], x);
      fe::shell8_gauss_weights(x, layers_.elastic, w);
    });
  }

  Traits traits() const override { return {.linear = false}; }

  void add_internal_force(const TermPoint& at, VectorSum& f) const override {
    std::size_t k = 0;
    double stored = 0;
    force_energy_ = NAN;  // until every cell is evaluated
    const fe::ShellLayers layers = at_time(layers_, at.time);
    f.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto fe_vec) {
      stored += update(layers, at.u, c, k++, fe_vec.data(), nullptr, nullptr);
      return true;
    });
    force_energy_ = stored;
  }
  void add_stiffness(const TermPoint& at, MatrixSum& K) const override {
    std::size_t k = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    K.add_cells(cells_, [&](std::int64_t c, CellType, auto, auto Ke) {
      double f[48];
      update(layers, at.u, c, k++, f, Ke.data(), nullptr);
    });
  }
  double energy(const TermPoint& at) const override {
    double total = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double f[48];
      try {
        total += update(layers, at.u, cells_[k], k, f, nullptr, nullptr);
      } catch (const SolverError&) {
        return NAN;  // a section point's iteration failed
      }
    }
    return total;
  }
  /// The mean of the resultants at the 2 x 2 points (each in its point's output axes); writes
  /// the trial state at u (from the committed one).
  void cell_resultants(std::span<const PetscScalar> u, std::size_t k,
                       double out[8]) const override {
    double f[48], r[32];
    try {
      update(frozen(), u, cells_[k], k, f, nullptr, r);
    } catch (const SolverError&) {
      std::fill(out, out + shell_resultant_components, NAN);
      return;
    }
    for (int i = 0; i < shell_resultant_components; ++i)
      out[i] = 0.25 * (r[i] + r[8 + i] + r[16 + i] + r[24 + i]);
  }
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
  void row_force(std::span<const PetscScalar> u, std::size_t k, double* f) const override {
    update(frozen(), u, cells_[k], k, f, nullptr, nullptr);
  }
  /// Row k's update at u from its committed state into its trial state: the force f (48) and the
  /// tangent K (48 x 48) and the resultants (4 x 8) where asked; the stored energy.
  double update(const fe::ShellLayers& layers, std::span<const PetscScalar> u, std::int64_t c,
                std::size_t k, double* f, double* K, double* r) const {
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
