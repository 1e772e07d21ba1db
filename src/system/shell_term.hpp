#pragma once
// The shells' force terms (term_shells.cpp: linear elastic; term_shells_nonlinear.cpp:
// corotational and plastic MITC4; term_shells_bt.cpp: one-point Belytschko-Tsay; term_shells8.cpp:
// plastic quad8): what they share,
// their cells' areas and masses, the log's summary.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "inertia/core/text.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/fe/shell.hpp"
#include "inertia/fe/shell_section.hpp"
#include "inertia/system/point_state.hpp"
#include "inertia/system/shells.hpp"

namespace inertia::shell_detail {

/// `section` evaluated at `time` (a rate factor's step ends there; fe::ShellRateState).
inline fe::ShellLayers at_time(const fe::ShellLayers& section, double time) {
  fe::ShellLayers out = section;
  out.j2.time = time;
  return out;
}

/// A shell region's cells on this rank: their areas, masses, weight and the log's summary.
class ShellTermBase : public ShellTermInfo {
 public:
  /// `cells`: the region's local shell4 and shell3 cells (increasing), each with a frame.
  ShellTermBase(const TermInputs& in, ShellInput input, fe::ShellLayers layers,
                std::vector<std::int64_t> cells, bool scale_rotary_inertia);

  std::string describe() const override { return cat("shells of region '", input_.region, "'"); }
  void add_lumped_mass(VectorSum& m) const override;
  /// The lumped mass on the diagonal (no consistent shell mass is built: the lumped one with its
  /// rotary inertia, as the explicit codes use for both).
  void add_consistent_mass(MatrixSum& M) const override;
  bool consistent_mass_is_lumped() const override { return true; }
  double mass() const override;
  /// rho t A / n g at each of the n nodes.
  void add_body_force(const std::array<double, 3>& g, VectorSum& f) const override;
  std::string summary() const override;
  /// Per cell: cell_resultants.
  void resultants(std::span<const PetscScalar> u, std::span<double> out) const override;
  void resultants_of(std::span<const PetscScalar> u, std::int64_t c, double out[8]) const override {
    cell_resultants(u,
                    static_cast<std::size_t>(std::lower_bound(cells_.begin(), cells_.end(), c) -
                                             cells_.begin()),
                    out);
  }
  /// Per cell: cell_surface_stresses.
  void surface_stresses(std::span<const PetscScalar> u, std::span<double> out) const override;
  void thickness(std::span<double> out) const override;
  /// The area of a shell4 or shell3 cell's flat projection (std::invalid_argument without a
  /// frame).
  static double area(CellType t, const double* x);
  bool holds(std::int64_t c) const override {
    return std::binary_search(cells_.begin(), cells_.end(), c);
  }

 protected:
  /// "linear" for the summary.
  virtual std::string kind() const = 0;
  /// Row k's resultants at its centre (ShellTermInfo::resultants' 8 values).
  virtual void cell_resultants(std::span<const PetscScalar> u, std::size_t k,
                               double out[8]) const = 0;
  /// Row k's surface stresses (9 values): N / t -+ 6 M / t^2 of cell_resultants (an elastic
  /// section; plastic ones override it).
  virtual void cell_surface_stresses(std::span<const PetscScalar> u, std::size_t k,
                                     double out[9]) const;
  /// Cell c's reference coordinates (its 4 or 3 nodes) and DOF values [u0.., th0..].
  void coordinates(std::int64_t c, double* x) const;
  void gather(std::span<const PetscScalar> u, std::int64_t c, double* d) const;
  /// The same as a quadrilateral's (12 and 24 values): a triangle (shell3) as the degenerate
  /// quadrilateral [n0, n1, n2, n2], the way LS-DYNA runs triangles in a part of quadrilateral
  /// shells (the corotational and plastic kernels are quadrilaterals').
  void quad_coordinates(std::int64_t c, double x[12]) const;
  void quad_gather(std::span<const PetscScalar> u, std::int64_t c, double d[24]) const;
  /// A quadrilateral's force (24) or matrix (24 x 24) as cell c's: a triangle's node 3 onto
  /// node 2 (the transpose of quad_gather's map), into out (18 or 18 x 18 values; overwritten).
  void fold_force(std::int64_t c, const double f[24], double* out) const;
  void fold_matrix(std::int64_t c, const double K[576], double* out) const;
  /// fe::shell4_lumped_mass or shell3's for a cell of `type`, its rotary inertia raised for
  /// explicit runs (the comment in term_shells.cpp).
  void lumped(CellType type, const double* x, double* m) const;
  /// The section for evaluations of the committed state without time passing (the outputs): a
  /// rate factor takes each point's own rate (fe::ShellRateState).
  fe::ShellLayers frozen() const { return at_time(layers_, -HUGE_VAL); }

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  ShellInput input_;
  fe::ShellLayers layers_;
  std::vector<std::int64_t> cells_;  ///< local shell4 and shell3 cells, increasing
  std::vector<double> areas_;        ///< per cell
  bool scaled_ = false;
};

/// ShellTermInfo::layer_plastic_strain of a term whose PointState (null: elastic) holds, per
/// in-plane point, the J2 state of each of the section's points through the thickness.
inline void layer_plastic_strain(const PointState* state, const fe::ShellLayers& section,
                                 std::span<const std::int64_t> cells, int layers,
                                 std::span<double> out) {
  if (!state) return;
  const int through = section.points, in_plane = state->layout().points / through;
  const int stride = fe::shell_layers_point_stride(section);
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const auto s = state->committed(r);
    double* cell = &out[static_cast<std::size_t>(layers) * static_cast<std::size_t>(cells[r])];
    for (int g = 0; g < in_plane; ++g)
      for (int q = 0; q < through; ++q)
        cell[q] += s[static_cast<std::size_t>((g * through + q) * stride +
                                              fe::J2State::equivalent_plastic_strain)] /
                   in_plane;
  }
}

/// The plastic dissipation of a term's committed PointState (null: elastic): sum over its rows
/// and points of the point's dissipation per volume times its weight (`weights`, per row and
/// point): j2_dissipation(0, alpha) for the rate-independent laws (exact: it depends on alpha
/// alone), the dissipation the point's state keeps with a rate factor (fe::ShellRateState).
inline double plastic_dissipation(const PointState* state, const fe::ShellLayers& section,
                                  std::span<const double> weights) {
  if (!state) return 0;
  const auto points = static_cast<std::size_t>(state->layout().points);
  const auto stride = static_cast<std::size_t>(fe::shell_layers_point_stride(section));
  const bool rate = stride == static_cast<std::size_t>(fe::ShellRateState::size);
  double total = 0;
  for (std::size_t r = 0; r < state->rows(); ++r) {
    const auto s = state->committed(r);
    for (std::size_t q = 0; q < points; ++q) {
      const double* p = &s[q * stride];
      total +=
          (rate ? p[fe::ShellRateState::dissipation]
                : fe::j2_dissipation(section.j2, 0, p[fe::J2State::equivalent_plastic_strain])) *
          weights[r * points + q];
    }
  }
  return total;
}

/// The names of a shell's state per point through the thickness (PointStateLayout): the J2 state
/// and, with a rate factor, fe::ShellRateState's.
inline std::vector<std::string> shell_state_names(const fe::ShellLayers& section) {
  std::vector<std::string> names(std::begin(fe::J2State::names), std::end(fe::J2State::names));
  if (fe::shell_layers_point_stride(section) == fe::ShellRateState::size)
    for (const char* n : {"time", "equivalent_plastic_strain_rate", "dissipation"})
      names.emplace_back(n);
  return names;
}

/// What the corotational MITC4 and the Belytschko-Tsay terms share: a plastic section's point
/// state (`in_plane` points per cell, each with the section's points through the thickness),
/// each point's weight for the dissipation (its in-plane weight times its thickness weight), the
/// stored energy of the last force pass, and the summary's kind.
class LayeredShellTerm : public ShellTermBase {
 public:
  using ShellTermBase::ShellTermBase;
  PointState* point_state() const override { return state_.get(); }
  bool trial_from_force() const override { return true; }
  bool energy_from_force() const override { return true; }
  double force_energy(const TermPoint&) const override { return force_energy_; }
  void update_state(const TermPoint& at) const override {
    if (state_) (void)energy(at);
  }
  double plastic_dissipation() const override {
    return shell_detail::plastic_dissipation(state_.get(), layers_, weights_);
  }
  bool nonlinear_cell(std::int64_t c, LinearCell& out) const override {
    const auto it = std::lower_bound(cells_.begin(), cells_.end(), c);
    if (it == cells_.end() || *it != c) return false;
    const CellType t = mesh_.cell_types[c];
    double x[24];
    coordinates(c, x);
    out.K.clear();
    out.lumped.assign(static_cast<std::size_t>(6 * rotation_nodes_from(t)), 0.0);
    lumped(t, x, out.lumped.data());
    out.mass = layers_.elastic.density * layers_.elastic.thickness *
               areas_[static_cast<std::size_t>(it - cells_.begin())];
    return true;
  }
  void cell_force(std::span<const PetscScalar> u, std::int64_t c, double* f) const override {
    const auto k = static_cast<std::size_t>(std::lower_bound(cells_.begin(), cells_.end(), c) -
                                            cells_.begin());
    row_force(u, k, f);
  }
  void layer_plastic_strain(int layers, std::span<double> out) const override {
    shell_detail::layer_plastic_strain(state_.get(), layers_, cells_, layers, out);
  }

 protected:
  /// Set-up, plastic sections only: the state of `in_plane` points per cell (`stride` doubles a
  /// cell) and the weights; in_plane_weights(k, w) writes cell k's in-plane weights.
  template <class InPlaneWeights>
  void make_state(int in_plane, int stride, InPlaneWeights in_plane_weights) {
    if (!layers_.plastic) return;
    const fe::ShellThicknessPoints z = fe::shell_layers_points(layers_);
    state_ = std::make_unique<PointState>(
        PointStateLayout{"shell", shell_state_names(layers_), in_plane * z.points}, cells_);
    INERTIA_ASSERT(state_->stride() == stride);
    const auto points = static_cast<std::size_t>(in_plane * z.points);
    weights_.resize(cells_.size() * points);
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double w[4];
      in_plane_weights(k, w);
      for (int g = 0; g < in_plane; ++g)
        for (int q = 0; q < z.points; ++q)
          weights_[k * points + static_cast<std::size_t>(g * z.points + q)] = w[g] * z.weight[q];
    }
  }
  /// Row k's force at u from its committed state at the frozen time (its trial state written),
  /// in the cell's DOFs (a triangle's 18).
  virtual void row_force(std::span<const PetscScalar> u, std::size_t k, double* f) const = 0;
  /// The kinematics for the summary: "corotational" (the 4-node kernels) or "linear" (quad8).
  virtual const char* kinematics() const { return "corotational"; }
  std::string kind() const override {
    if (!layers_.plastic) return kinematics();
    const char* rule = layers_.rule == fe::ShellLayers::Rule::simpson   ? "Simpson"
                       : layers_.rule == fe::ShellLayers::Rule::lobatto ? "Gauss-Lobatto"
                                                                        : "Gauss";
    return cat(kinematics(), ", plane-stress J2 at ", layers_.points, " ", rule,
               " points through the thickness");
  }

  mutable double force_energy_ = NAN;  ///< the stored energy of the last add_internal_force
  std::unique_ptr<PointState> state_;  ///< plastic sections
  std::vector<double> weights_;        ///< per cell and point (plastic)
};

/// A layered term whose cells are evaluated one at a time by update() with the force, tangent and
/// resultants at its 2 x 2 in-plane points (the corotational and plastic 4-node shells, the plastic
/// quad8): the force pass, the tangent, the energy and the resultants written once for both.
class PointwiseShellTerm : public LayeredShellTerm {
 public:
  using LayeredShellTerm::LayeredShellTerm;
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
      double f[max_dofs];
      update(layers, at.u, c, k++, f, Ke.data(), nullptr);
    });
  }
  double energy(const TermPoint& at) const override {
    double total = 0;
    const fe::ShellLayers layers = at_time(layers_, at.time);
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      double f[max_dofs];
      try {
        total += update(layers, at.u, cells_[k], k, f, nullptr, nullptr);
      } catch (const SolverError&) {
        return NAN;  // a collapsed element, or a section point's iteration failed
      }
    }
    return total;
  }
  /// The mean of the resultants at the 2 x 2 points (each in update()'s output axes); writes
  /// the trial state at u (from the committed one).
  void cell_resultants(std::span<const PetscScalar> u, std::size_t k,
                       double out[8]) const override {
    double f[max_dofs], r[32];
    try {
      update(frozen(), u, cells_[k], k, f, nullptr, r);
    } catch (const SolverError&) {
      std::fill(out, out + shell_resultant_components, NAN);
      return;
    }
    for (int i = 0; i < shell_resultant_components; ++i)
      out[i] = 0.25 * (r[i] + r[8 + i] + r[16 + i] + r[24 + i]);
  }

 protected:
  static constexpr int max_dofs = 48;  ///< a quad8's (a quadrilateral: 24)
  /// Row k's update at u from its committed state into its trial state: the force f and the
  /// tangent K (the cell's DOFs) and the 2 x 2 points' resultants (4 x 8) where asked; the stored
  /// energy.
  virtual double update(const fe::ShellLayers& layers, std::span<const PetscScalar> u,
                        std::int64_t c, std::size_t k, double* f, double* K, double* r) const = 0;
  void row_force(std::span<const PetscScalar> u, std::size_t k, double* f) const override {
    update(frozen(), u, cells_[k], k, f, nullptr, nullptr);
  }
};

/// The term of a region whose shells are corotational or plastic (term_shells_nonlinear.cpp).
std::unique_ptr<ForceTerm> make_nonlinear_shell_term(const TermInputs& in, const ShellInput& b,
                                                     const fe::ShellLayers& layers,
                                                     std::vector<std::int64_t> cells, bool scale);

/// The term of a plastic region of 8-node shells (term_shells8.cpp: fe/shell8.hpp's shell8_update,
/// linear kinematics, static and implicit runs).
std::unique_ptr<ForceTerm> make_shell8_plastic_term(const TermInputs& in, const ShellInput& b,
                                                    const fe::ShellLayers& layers,
                                                    std::vector<std::int64_t> cells);

/// The term of a region whose shells are `formulation: belytschko_tsay` (term_shells_bt.cpp:
/// fe/shell_bt.hpp's one-point element, explicit runs only).
std::unique_ptr<ForceTerm> make_bt_shell_term(const TermInputs& in, const ShellInput& b,
                                              const fe::ShellLayers& layers,
                                              std::vector<std::int64_t> cells, bool scale);

}  // namespace inertia::shell_detail
