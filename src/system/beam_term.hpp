#pragma once
// The beams' force terms (term_beams.cpp: elastic, linear or corotational; term_beams_fiber.cpp:
// plastic fiber sections): what they share, their cells' frames and masses, the log's summary.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/beams.hpp"

namespace inertia::beam_detail {

/// What one beam cell keeps: its frame, length and matrices in global axes (the cell's DOF
/// order); K only for the linear elastic beams. With end releases (fe/beam_release.hpp) K and M
/// are condensed and `transform` indexes its condensation T (global axes) in the term's list.
struct BeamCell {
  std::array<double, 144> K, M;
  std::array<double, 12> lumped;
  std::array<double, 9> frame;
  double length;
  unsigned released = 0;  ///< fe/beam_release.hpp's mask
  std::int32_t transform = -1;
};
using ReleaseTransform = std::array<double, 144>;

/// A section region's beams on this rank: their cells, masses, weight and the log's summary.
class BeamTermBase : public BeamTermInfo {
 public:
  BeamTermBase(const TermInputs& in, const BeamInput& b, const fe::BeamSectionProperties& p,
               const fe::BeamMaterial& m, std::vector<std::int64_t> cells,
               std::vector<BeamCell> data, std::vector<ReleaseTransform> transforms = {})
      : comm_(in.comm),
        mesh_(in.mesh),
        input_(b),
        section_(p),
        material_(m),
        cells_(std::move(cells)),
        data_(std::move(data)),
        transforms_(std::move(transforms)) {}

  std::string summary() const override;
  std::string describe() const override { return cat("beams of region '", input_.region, "'"); }
  void add_lumped_mass(VectorSum& m) const override;
  void add_consistent_mass(MatrixSum& M) const override;
  bool consistent_mass_is_lumped() const override { return false; }
  double mass() const override;
  bool holds(std::int64_t c) const override {
    return std::binary_search(cells_.begin(), cells_.end(), c);
  }
  /// The uniform load w = rho A g per length as its consistent nodal loads (end moments too:
  /// exact in statics).
  void add_body_force(const std::array<double, 3>& g, VectorSum& f) const override;
  bool has_releases() const override { return !input_.releases.empty(); }
  bool condense_load(std::int64_t c, std::span<double> fe) const override;

 protected:
  /// What summary() says of the kind ("euler_bernoulli, linear").
  virtual std::string kind() const = 0;
  /// The cell's DOF values [u0, u1, theta0, theta1] from a local form.
  void gather(std::span<const PetscScalar> u, std::int64_t c, double* d) const {
    const auto nodes = mesh_.nodes_of(c);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) d[3 * a + i] = u[3 * nodes[a] + i];
  }
  void coordinates(std::int64_t c, double* x) const {
    const auto nodes = mesh_.nodes_of(c);
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * nodes[a] + i];
  }
  /// Local cell c's row (c must be one of its cells).
  std::size_t row(std::int64_t c) const {
    return static_cast<std::size_t>(std::lower_bound(cells_.begin(), cells_.end(), c) -
                                    cells_.begin());
  }
  /// Local cell c's M, lumped mass and rho A into out (K: its linear K, not its force); false
  /// for a cell it does not hold.
  bool cell_mass(std::int64_t c, LinearCell& out) const {
    if (!holds(c)) return false;
    const BeamCell& d = data_[row(c)];
    out = {d.K, d.M, d.lumped, material_.density * section_.area};
    return true;
  }
  /// Cell k's orientation vector: its reference frame's local y (the frame it was built with).
  const double* orientation(std::size_t k) const { return &data_[k].frame[3]; }

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  BeamInput input_;
  fe::BeamSectionProperties section_;
  fe::BeamMaterial material_;
  std::vector<std::int64_t> cells_;           ///< local beam2 cells, increasing
  std::vector<BeamCell> data_;                ///< per cell
  std::vector<ReleaseTransform> transforms_;  ///< the released cells' T (BeamCell::transform)
};

/// End releases (beam_releases.cpp). The masks of the region's local beam cells `cells` from the
/// entry's releases. Collective: InputError (every rank) for a group the mesh lacks or that is
/// not a point group, an entry whose groups touch no end of the region's beams, or a beam with
/// its torsion released at both ends.
std::vector<unsigned> release_masks(const TermInputs& in, const BeamInput& b,
                                    std::span<const std::int64_t> cells);

/// What a beam cell gives its ends' rotations at the reference state: the 3 x 3 rotation blocks
/// of its (condensed) stiffness in global axes at end 0 and end 1, and those of the element
/// without releases' diagonal sums (the scale).
struct EndRotationStiffness {
  std::int64_t cell;
  std::array<double, 18> block;
  std::array<double, 2> scale;
};
/// Collective. InputError (every rank) when an owned beam node's rotation is held neither by a
/// beam (all of them release it there) nor by a condition or a coupling (its node): a singular
/// stiffness. `ends`: every
/// local beam cell of every section; `where`: the section's "<file>:<line>: sections".
void check_released_rotations(const TermInputs& in, std::span<const EndRotationStiffness> ends,
                              const std::string& where);

/// The fiber-section term of a region whose material is plastic (term_beams_fiber.cpp).
/// Collective: InputError (every rank) for a section without a shape or a law it cannot take.
std::unique_ptr<ForceTerm> make_fiber_beam_term(const TermInputs& in, const BeamInput& b,
                                                const fe::BeamSectionProperties& p,
                                                const fe::BeamMaterial& m,
                                                const fe::J2Parameters& law,
                                                std::vector<std::int64_t> cells,
                                                std::vector<BeamCell> data);

/// The fe shape of a section entry with a shape.
fe::BeamShape beam_shape(const BeamInput& b);

}  // namespace inertia::beam_detail
