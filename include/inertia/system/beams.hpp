#pragma once
/// \file beams.hpp
/// Beams (the case file's `sections:`): the line2 cells of a 1D physical group become beam2
/// cells, whose nodes carry rotations through their rotation nodes (mesh/rotation_nodes.hpp),
/// before the mesh is partitioned. Each section region is one force term, linear or
/// corotational
/// (term_beams.cpp): the 12-DOF beam of fe/beam.hpp (Euler-Bernoulli or Timoshenko, its
/// section from a standard shape or given properties, its material from `materials:`), with
/// its consistent or lumped mass (rotary inertia included) and its weight as consistent nodal
/// loads.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "inertia/fe/beam.hpp"
#include "inertia/mesh/mesh_data.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

/// One entry of a section's `releases:`: the beam ends on the nodes of `nodes` (point physical
/// groups) transmit no moment in the listed local components (fe/beam_release.hpp).
struct BeamRelease {
  std::string where;               ///< "<file>:<line>: sections[i].releases[j]"
  std::vector<std::string> nodes;  ///< point (0D) physical groups
  unsigned components = 0;         ///< bit k: t (0), my (1), mz (2)
};

/// One entry of `sections:`.
struct BeamInput {
  std::string where;                   ///< "<file>:<line>: sections[i]"
  std::string region;                  ///< a 1D physical group
  std::string shape;                   ///< rectangle, circle, tube, i; empty: `properties` given
  std::array<double, 4> dimensions{};  ///< the shape's, in fe's order
  fe::BeamSectionProperties properties;
  std::array<double, 3> orientation{0, 0, 0};  ///< approximate local y
  bool oriented = false;                       ///< else fe::default_beam_orientation
  bool shear_deformable = true;                ///< Timoshenko; else Euler-Bernoulli
  /// kinematics: corotational (large displacements and rotations, fe/beam_corotational.hpp: a
  /// nonlinear term) or linear (small: the constant K assembled once).
  bool corotational = false;
  bool theory_given = false;  ///< `theory` was in the entry
  /// Plastic materials (materials[].plasticity): fiber sections (fe/beam_fiber.hpp): the
  /// shape's divisions (section_fibers) and the Gauss-Lobatto points along each beam.
  int fiber_divisions = 8;
  int integration_points = 5;
  /// End releases (hinges), elastic beams only; the ends' masks are the union of the entries'.
  std::vector<BeamRelease> releases;
};

struct BeamSection final : TermSection {
  std::vector<BeamInput> beams;
  void fingerprint(Hasher& h) const override;
};

/// A section region's beams, as the log and the outputs see them.
class BeamTermInfo : public ForceTerm {
 public:
  /// Collective. "region 'frame': 24 beams, length 28 m (0.5 to 1.5), timoshenko, A 0.01,
  /// Iy ..., Iz ..., J ..., shear areas ..., E ..., G ..., density ..."
  virtual std::string summary() const = 0;
  /// The section forces at both ends of each of its beams on this rank, from the local form of
  /// u (ghosts current): 12 values per local cell into forces[12 c ...] (N, Vy, Vz, T, My, Mz at
  /// end 0, then at end 1; local axes, fe::beam_section_forces' signs). `forces` has 12 values
  /// per local cell of the mesh.
  virtual void section_forces(std::span<const PetscScalar> u, std::span<double> forces) const = 0;
  /// Whether local cell c is one of this term's beams.
  virtual bool holds(std::int64_t c) const = 0;
  /// A linear elastic beam cell's constant matrices (output.sections: its nodal forces are
  /// K d + M a + C v less its weight): K and the consistent M in global axes, the cell's DOF
  /// order, the lumped diagonal, and its mass per length rho A.
  struct LinearCell {
    std::array<double, 144> K, M;
    std::array<double, 12> lumped;
    double mass_per_length;
  };
  /// Local cell c's LinearCell; false when c is not one of this term's cells or its force is
  /// not K d (corotational or fiber beams).
  virtual bool linear_cell(std::int64_t c, LinearCell& out) const {
    (void)c, (void)out;
    return false;
  }
  /// A corotational or fiber beam's mass (section cuts): out.M, out.lumped and
  /// out.mass_per_length as linear_cell's (out.K is not its force: cell_force is). False for a
  /// cell it does not hold, or a linear elastic beam.
  virtual bool nonlinear_cell(std::int64_t c, LinearCell& out) const {
    (void)c, (void)out;
    return false;
  }
  /// A corotational or fiber beam's internal force at u (the local form, ghosts current; a fiber
  /// beam's from its committed state, its trial state written as section_forces does): 12
  /// values in the cell's DOF order into f. c must be a cell nonlinear_cell accepts.
  virtual void cell_force(std::span<const PetscScalar> u, std::int64_t c, double f[12]) const {
    (void)u, (void)c, (void)f;
  }
  /// Whether its rotation DOFs are total rotation vectors of large rotations (corotational).
  virtual bool large_rotations() const { return false; }
  /// End releases: whether some beam of the term has one (the same on every rank).
  virtual bool has_releases() const { return false; }
  /// A span load's consistent nodal loads fe[12] (global axes, the cell's DOF order) of local
  /// cell c condensed for its releases (f = T^T f, fe/beam_release.hpp) when c is one of this
  /// term's beams with releases; false (fe untouched) otherwise.
  virtual bool condense_load(std::int64_t, std::span<double>) const { return false; }
};

std::shared_ptr<TermSection> parse_beam_section(const case_yaml::Node& section);
/// Serial, before partitioning: the section regions' line2 cells become beam2 cells with
/// rotation nodes. InputError for a section on a region that is not 1D.
void prepare_beam_mesh_data(const TermSection& section, MeshData& mesh);
void build_beam_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);

}  // namespace inertia
