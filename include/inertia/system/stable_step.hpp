#pragma once
/// \file stable_step.hpp
/// The solid cells' wave transit times L / c at the current configuration X + u (and the beam
/// cells' own critical steps, beam_critical_step, when the kernel is given their sections): what an
/// explicit run's dt: auto follows as the mesh deforms (app/auto_step.hpp). L is the cell's
/// characteristic length (LS-DYNA's): hex8 volume / largest face area; tet4 (and tet10's corner
/// tetrahedron) its smallest altitude, 3 volume / largest face area; other cells the shortest
/// distance between two corners. c = sqrt((lambda + 2 mu) / rho) is the region material's
/// dilatational wave speed. Each cell's value depends only on its own nodes' coordinates and
/// displacements, so the minimum over ranks is the same bits on every rank count.

#include <mpi.h>
#include <petscvec.h>

#include <cstdint>
#include <span>
#include <vector>

#include "inertia/fe/beam.hpp"
#include "inertia/mesh/cell_type.hpp"
#include "inertia/partition/local_mesh.hpp"

namespace inertia {

/// Serial. The characteristic length of a cell of `type` from its corners' coordinates
/// (3 per node, in the cell's node order; only the corners are read).
double characteristic_length(CellType type, std::span<const double> x);

/// Serial. The volume of a hex8 (trilinear, exact) or of a tet4/tet10's corner tetrahedron
/// (signed: negative when inverted); 0 for other cells.
double cell_volume(CellType type, std::span<const double> x);

/// A beam region's section and material, what a beam cell's stable step needs.
struct BeamStepSection {
  bool beam = false;  ///< the region has a `sections:` entry
  fe::BeamSectionProperties section;
  fe::BeamMaterial material;
  bool shear_deformable = false;
};

/// A beam element's critical step and the mode that sets it.
struct BeamCriticalStep {
  double time = 0;        ///< 2 / omega_max (s); 0 for a zero-length element
  const char* mode = "";  ///< axial, torsion, bending or shear
  double wave_speed = 0;  ///< sqrt(E / rho), the bar speed (m/s)
};

/// Serial. 2 / omega_max of one beam element of `length` with its lumped (HRZ) mass
/// (fe::beam_lumped_mass: m / 2 = rho A L / 2 per translation, one rotary inertia I_r per
/// rotation, the same about every axis) and its stiffness (fe::beam_local_stiffness; a released
/// end only lowers omega_max). With that mass the element's modes separate exactly:
///   axial    omega^2 = 4 E A / (L m)                    (2 / omega = L / c, c = sqrt(E / rho))
///   torsion  omega^2 = 2 G J / (L I_r)
///   bending, per plane (I the plane's second moment, phi its shear parameter, 0 for
///            Euler-Bernoulli): the deflection mode (v0 = -v1, theta0 = theta1)
///            omega^2 = E I / ((1 + phi) L^3) (48 / m + 6 L^2 / I_r), and the end-rotation
///            mode (theta0 = -theta1) omega^2 = 2 E I / (L I_r).
/// The largest gives the step and names the mode (tests/unit/system_beam_stable_step.cpp:
/// against the eigenvalues of the element's 12 x 12 K and lumped M to 1e-12). Torsion never
/// limits (I_r >= rho (Iy + Iz) L / 2 and J <= Iy + Iz give omega^2 <= 4 G / (rho L^2), below
/// the axial 4 E / (rho L^2)); shear flexibility (phi) only lowers the deflection mode, so
/// short Timoshenko elements are axial-limited where Euler-Bernoulli ones are bending-limited.
BeamCriticalStep beam_critical_step(double length, const fe::BeamSectionProperties& s,
                                    const fe::BeamMaterial& m, bool shear_deformable);

/// The cell with the smallest transit time, the same on every rank (ties: the smallest tag).
struct ControllingCell {
  double time = 0;        ///< L / c (s); infinite without solid cells
  std::int64_t tag = -1;  ///< file tag
  int region = -1;        ///< index into LocalMesh::regions
  double length = 0;      ///< L (m)
  double wave_speed = 0;  ///< c (m/s; a beam's bar speed sqrt(E / rho))
  const char* mode = "";  ///< a beam cell's limiting mode (beam_critical_step); "" for a solid
};

struct ProblemSpec;

/// Per region of `mesh`: its beam section (`sections:`) and material, beam = false elsewhere.
std::vector<BeamStepSection> beam_step_sections(const ProblemSpec& spec, const LocalMesh& mesh);

class StableStepKernel {
 public:
  /// `wave_speed[r]`: region r's dilatational wave speed, 0 where it has no solid material;
  /// `cell_scale[k]` (empty: 1): local cell k's transit time multiplied by it (mass scaling:
  /// sqrt(scaled density / density)).
  StableStepKernel(const LocalMesh& mesh, std::vector<double> wave_speed,
                   std::vector<double> cell_scale = {});

  /// Local cell k's corners at X + u (u: the ghosted local entries, null: X), 3 per corner;
  /// valid until the next call.
  std::span<const double> corners(std::int64_t k, const PetscScalar* u) const;

  /// Collective (a ghost update of u). Every local cell's transit time L / c at X + u, infinite
  /// for cells without a solid material; u is the system's ghosted displacement (null: X).
  void transit_times(Vec u, std::vector<double>& out) const;
  /// Collective. The smallest of transit_times() over all ranks.
  double smallest(MPI_Comm comm, Vec u);
  /// Collective. The cell of the last smallest() (its times kept), with its L and c.
  ControllingCell controlling(MPI_Comm comm) const;
  /// Per local cell, 1 for a cell left out (an eroded one); empty: none. Read at every
  /// transit_times(), so it must outlive the kernel (the system's eroded_cells()).
  void skip(const std::vector<std::uint8_t>* cells) { skip_ = cells; }
  /// Per region (beam_step_sections): the beam cells of a region with a section get
  /// beam_critical_step at their current length instead of L / c.
  void beams(std::vector<BeamStepSection> sections) { beams_ = std::move(sections); }

 private:
  const LocalMesh& mesh_;
  std::vector<double> wave_speed_;
  std::vector<double> cell_scale_;
  std::vector<BeamStepSection> beams_;
  const std::vector<std::uint8_t>* skip_ = nullptr;
  std::vector<double> times_;
  double last_ = 0;
  mutable std::vector<double> corners_;
};

}  // namespace inertia
