#pragma once
/// \file shells.hpp
/// Shells (the case file's `shells:`): the quad4 cells of a 2D physical group become shell4
/// cells, whose nodes carry rotations through their rotation nodes (mesh/rotation_nodes.hpp;
/// shared with the beams' where beams meet the shell), before the mesh is partitioned. Each
/// entry's region is one force term: linear (term_shells.cpp: fe/shell.hpp's MITC4, its K
/// assembled once) or, for `kinematics: corotational` or a plastic material, nonlinear
/// (term_shells_nonlinear.cpp: fe/shell_nonlinear.hpp's corotational MITC4 with the plane-stress
/// J2 section of fe/shell_section.hpp integrated through the thickness), with the region's
/// `materials:` entry (E, nu, density, plasticity) and the entry's thickness, its lumped mass with
/// rotary inertia, and its weight at the nodes. `formulation: belytschko_tsay` makes a region
/// term_shells_bt.cpp's term instead: fe/shell_bt.hpp's one-point element with hourglass
/// control (explicit runs only).

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "inertia/fe/shell.hpp"
#include "inertia/mesh/mesh_data.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

/// One entry of `shells:`.
struct ShellInput {
  std::string where;      ///< "<file>:<line>: shells[i]"
  std::string region;     ///< a 2D physical group of quad4 cells
  double thickness = 0;   ///< t > 0
  double drilling = 1.0;  ///< the drilling penalty alpha / (G t) (fe/shell.hpp)
  double shear_factor = 5.0 / 6.0;
  /// The nodes' (reference) surface's height above the mid-surface along the shells' normal
  /// (fe::ShellSection::offset): `offset: top` is t / 2, `bottom` -t / 2, or any length.
  double offset = 0;
  /// kinematics: corotational (large displacements and rotations, fe/shell_nonlinear.hpp: a
  /// nonlinear term) or linear (small: the constant K assembled once). Plastic shells are
  /// corotational unless `kinematics` says otherwise (then refused).
  bool corotational = false;
  bool kinematics_given = false;
  /// Plastic materials: the rule through the thickness (simpson, lobatto, gauss) and its points.
  std::string integration = "simpson";
  int integration_points = 5;
  /// formulation: mitc4 (fe/shell.hpp, shell_nonlinear.hpp) or belytschko_tsay (fe/shell_bt.hpp:
  /// one point with hourglass control, corotational, explicit schemes only).
  bool belytschko_tsay = false;
  double hourglass = 0.1;  ///< belytschko_tsay: the hourglass coefficient r (fe/shell_bt.hpp)
  bool hourglass_given = false;
};

struct ShellSectionList final : TermSection {
  std::vector<ShellInput> shells;
  void fingerprint(Hasher& h) const override;
};

/// The number of values per cell of ShellTermInfo::resultants and surface_stresses.
inline constexpr int shell_resultant_components = 8;
inline constexpr int shell_stress_components = 9;

/// A shell region, as the log and the outputs see it.
class ShellTermInfo : public ForceTerm {
 public:
  /// Collective. "region 'roof': 256 shells, area 1.2e3, thickness 0.25, MITC4 linear; E ...,
  /// nu ..., density ...; rotary inertia ..."
  virtual std::string summary() const = 0;
  /// The stress resultants at each of its cells' centres on this rank (fe::shell4_resultants:
  /// N11 N22 N12 M11 M22 M12 Q1 Q2 in the shell's output axes) from the local form of u (ghosts
  /// current), 8 values per local cell into out[8 c ...] (out has 8 per local cell of the mesh).
  virtual void resultants(std::span<const PetscScalar> u, std::span<double> out) const = 0;
  /// The stresses s11, s22, s12 at the bottom, middle and top surfaces (z = -t/2, 0, t/2 from
  /// the mid-surface, the normal pointing to the top) at each of its cells' centres, in the
  /// axes of the resultants: 9 values per local cell into out[9 c ...]. Elastic sections: N / t
  /// -+ 6 M / t^2 (exact: the stress is linear through the thickness); plastic ones: the section's
  /// outermost and middle points through the thickness (at the surfaces for Simpson's and the
  /// Lobatto rule, the mean of the two middle points for an even Gauss rule), from the committed
  /// state, averaged over the 2 x 2 points.
  virtual void surface_stresses(std::span<const PetscScalar> u, std::span<double> out) const = 0;
  /// Its thickness into out[c] for its local cells (out has one per local cell of the mesh).
  virtual void thickness(std::span<double> out) const = 0;
  /// Local cell c's resultants (8 values, as `resultants`); c must be one of its cells.
  virtual void resultants_of(std::span<const PetscScalar> u, std::int64_t c,
                             double out[8]) const = 0;
  /// Whether local cell c is one of this term's shells.
  virtual bool holds(std::int64_t c) const = 0;
  /// Plastic shells: the equivalent plastic strain at each point through the thickness (bottom to
  /// top), from the committed state, averaged over the cell's in-plane points, into
  /// out[layers c + q] for its local cells (out has `layers` per local cell of the mesh, at least
  /// its points through the thickness). Nothing for elastic shells (the default).
  virtual void layer_plastic_strain(int layers, std::span<double> out) const {
    (void)layers, (void)out;
  }
  /// A linear elastic shell's matrices (section cuts, app/sections.cpp): K (nd x nd, row-major,
  /// nd = 24 for a shell4 and 18 for a shell3, the cell's DOF order: its nodes' translations,
  /// then their rotations), the lumped mass diagonal (nd; the consistent mass is the same) and the
  /// cell's mass. False for a cell it does not hold, or corotational and plastic shells (their
  /// force is not K u).
  struct LinearCell {
    std::vector<double> K, lumped;
    double mass = 0;
  };
  virtual bool linear_cell(std::int64_t c, LinearCell& out) const {
    (void)c, (void)out;
    return false;
  }
  /// A corotational or plastic shell's mass (section cuts): out.lumped and out.mass as
  /// linear_cell's, out.K left empty (its force is cell_force's). False for a cell it does not
  /// hold, or a linear shell.
  virtual bool nonlinear_cell(std::int64_t c, LinearCell& out) const {
    (void)c, (void)out;
    return false;
  }
  /// A corotational or plastic shell's internal force at u (the local form, ghosts current)
  /// from its committed state, the outputs' evaluation without time passing (its trial state is
  /// written, as the resultants' is): nd values (nonlinear_cell's) into f. c must be one of the
  /// cells nonlinear_cell accepts.
  virtual void cell_force(std::span<const PetscScalar> u, std::int64_t c, double* f) const {
    (void)u, (void)c, (void)f;
  }
};

std::shared_ptr<TermSection> parse_shell_section(const case_yaml::Node& section);
/// Serial, before partitioning: the shell regions' quad4 cells become shell4 cells with rotation
/// nodes. InputError for a region that is not 2D or has cells other than quad4.
void prepare_shell_mesh_data(const TermSection& section, MeshData& mesh);
void build_shell_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);

}  // namespace inertia
