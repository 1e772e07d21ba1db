#pragma once
/// \file j2_batches.hpp
/// The internal force of a region of J2 hexahedra (fe/plasticity.hpp) in batches of 8 cells, one
/// per SIMD lane, like the elastic matrix-free operator (matrix_free.hpp): what the explicit step
/// evaluates once per step, and Newton's residuals. No per-cell call, allocation or state copy:
/// a batch is 8 consecutive rows of the region's PointState, read from the committed rows and
/// written to the trial rows in place (the explicit step then commits by swapping the two,
/// PointState::commit).
///
/// Stored per cell, computed once from the reference geometry:
/// - full (2x2x2 Gauss points): at each point J^-1 / 8 (9 doubles) and w det J; the reference
///   gradients of u come from the sum factorisation of the elastic operator (three butterflies
///   and four bilinear evaluations per component), the force from its transpose. 80 doubles.
///   B-bar (small strain) adds the mean gradients (24 doubles): the volumetric strain of every
///   point is the cell's mean; the force needs no correction (the mean pressure is the same at
///   every point, and sum_q w_q det J_q (b_a - g_a,q) = 0).
/// - reduced (one point, Flanagan-Belytschko hourglass control, fe/hex8_technology.hpp): the mean
///   gradients (24), the volume, sqrt(C) times the 4 hourglass vectors (32): 57 doubles.
/// plus 8 node offsets (32 B). The point state is J2State::with_history (29) doubles per point,
/// read and written.
///
/// The material point: small strain with linear isotropic and kinematic hardening and no rate
/// factor (the explicit workhorse) is vectorised across the lanes (the radial return in closed
/// form, its history: dissipation, work error, rate); the other laws (Voce, a yield curve,
/// Johnson-Cook's rate factor) and finite strain (the log strain's eigen-decomposition,
/// fe/log_strain.hpp) call fe::j2_point_update lane by lane between the vectorised kinematics and
/// force. The arithmetic is j2_element's, in another order: the forces agree to round-off.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/partition/local_mesh.hpp"

namespace inertia {

class J2Batches {
 public:
  /// Whether the batches cover `cells` of technology `tech` (J2 `p`): all hex8, in formulation full
  /// (small or finite strain), bbar (small strain), reduced, or fbar (finite strain, with linear
  /// hardening and no rate factor; F-bar with the others is left to j2_element).
  static bool covers(const LocalMesh& mesh, std::span<const std::int64_t> cells,
                     const fe::Technology& tech, const fe::J2Parameters& p);
  /// The batches of `cells` (covers() must hold), whose point state has `stride` values per row
  /// (points x J2State::with_history).
  J2Batches(const LocalMesh& mesh, std::span<const std::int64_t> cells, const fe::Technology& tech,
            const fe::J2Parameters& p, int stride);

  /// f += the internal force at u (local forms: owned, then ghost DOFs; u's ghosts current) at
  /// time `time`; every row's trial state from its committed one. A cell that cannot be
  /// evaluated (inverted at finite strain) adds nothing; the first such row is returned (-1:
  /// none) with the reason in `why`. `gone` (null: none): per row, 1 for a cell that has left
  /// the model (erosion): it adds no force and its trial state is its committed one.
  std::int64_t add_force(std::span<const double> u, double time, const double* committed,
                         double* trial, std::span<double> f, std::string& why,
                         const std::uint8_t* gone = nullptr) const;

  /// Bytes per cell one evaluation moves (node offsets, cell data, the point state read and
  /// written; the nodal vectors, about 2 x 24 B per node, apart) and floating-point operations
  /// per cell (counted from the kernel's arithmetic, the vectorised material point) for cells of
  /// formulation f.
  static double bytes_per_cell(fe::Formulation f);
  static double flops_per_cell(fe::Formulation f, bool finite_strain);
  std::int64_t cells() const { return cells_; }

 private:
  enum class Kind { full, bbar, fbar, reduced };
  const LocalMesh& mesh_;
  Kind kind_;
  fe::J2Parameters p_;
  bool simd_point_;  ///< the material point vectorised (small strain, linear, no rate)
  int stride_;
  std::int64_t cells_ = 0, batches_ = 0;
  std::vector<std::int32_t> nodes_;     ///< [batch][node][lane] 3 x local node
  std::vector<double> data_;            ///< [batch][value][lane]
  std::vector<std::uint8_t> point_of_;  ///< full: the state's point of lexicographic point p
};

}  // namespace inertia
