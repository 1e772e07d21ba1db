#pragma once
/// \file sections.hpp
/// Section forces (examples/guide/sections.md): the resultant force and moment that one part of
/// the model transmits to the other through a cut. Side A is the solid and beam cells whose
/// centroid is on the side a plane's normal points to (or the cells of one volume region); side
/// B the others (or another region). The cut's nodes are those A shares with B, and for a plane
/// also A's nodes on the plane (so a plane through the supports cuts there). The force on A through
/// the cut is the sum over the cut's nodes of A's own cells' residual:
///   F = sum_cut [K_A u + M_A a + alpha_M M_A v + alpha_K K_A v - f_A],
/// f_A the gravity of A's cells (other loads on the cut's nodes are counted on neither side). Away
/// from the cut A's residual is zero, so F is the inertia of A less its loads: a storey shear in
/// dynamics, the load above the cut in statics, and on a plane through the supports the support
/// reaction. The moment is about the plane's point (a region cut: the cut nodes' centroid), plus
/// the beams' rotation rows (their nodal moments) at the cut's beam nodes.
/// A corotational or plastic shell (MITC4 or Belytschko-Tsay) or beam (corotational, fiber) at
/// the cut counts its internal force at u (from its committed state) in place of K u; the
/// corotational ones' nodes' lever arms are taken where the nodes are now and their rotation rows
/// turned into moments about the nodes (large motions: a crash box's cut); with them the damping
/// may not have a stiffness part. Plastic and hyperelastic solids likewise count their own force
/// (ForceTerm::nonlinear_solid_force), the finite-strain ones with current lever arms. Point
/// masses, springs and loads away from the cut are in their side's balance, so in F; on the cut's
/// nodes (and springs crossing it) they count on neither side.

#include <array>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "inertia/app/case_file.hpp"
#include "inertia/system/mechanical_system.hpp"

namespace inertia {

class SectionCuts {
 public:
  /// Collective. Throws InputError (naming the case file and the section's line) for a cut
  /// with no node, an unknown region, and nonlinear cells at the cut with a stiffness-
  /// proportional damping.
  SectionCuts(const MechanicalSystem& system, const CaseFile& c);
  std::size_t size() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  /// Per section, its number of cut nodes (all ranks) and the moment's point.
  const std::vector<std::int64_t>& cut_nodes() const { return cut_nodes_; }
  const std::vector<std::array<double, 3>>& centres() const { return centres_; }
  /// Whether corotational or plastic shells or beams are at a cut (all ranks): their force is not
  /// linear in u, so superposed responses (a response spectrum's) cannot use it.
  bool nonlinear_cells() const { return nonlinear_cells_; }
  /// Collective. 6 values per section (fx, fy, fz, mx, my, mz) into `out`: K u + M a + C v -
  /// gravity_factor g rho on A at the cut (a may be null: zero); ghosts of u, v, a are updated.
  void compute(Vec u, Vec v, Vec a, double alpha_m, double alpha_k, double gravity_factor,
               std::vector<double>& out) const;

 private:
  /// Collective. The cells of side A (side > 0) with nodes on the cut: their entries, with the
  /// rows of the cut nodes and the lever arms from the section's centre p. Throws InputError
  /// (after `where`) if one of them is not linear-elastic.
  void add_cut_cells(const MechanicalSystem& system, int section, const std::vector<int>& side,
                     const std::vector<char>& cut, const std::array<double, 3>& p,
                     const std::string& where);
  MPI_Comm comm_;
  std::vector<std::string> names_;
  std::vector<std::int64_t> cut_nodes_;
  std::vector<std::array<double, 3>> centres_;
  std::array<double, 3> gravity_{0, 0, 0};
  /// One cell of A with cut nodes: the rows of those nodes (3 each) of its K, M and gravity
  /// force per unit g, its local DOFs, and each row's lever arm from the section's centre.
  struct Entry {
    int section = 0;
    std::vector<PetscInt> dofs;  ///< the cell's local DOFs (3 per node)
    std::vector<int> rows;       ///< row indices (in the cell's DOFs) on cut nodes
    std::vector<double> k, m;    ///< rows.size() x dofs.size(), row-major
    std::vector<double> g;       ///< per row: the cell's gravity force at it, per unit factor
    std::vector<std::array<double, 3>> lever;  ///< per row: its node minus the centre
    std::vector<char> moment;  ///< per row: a beam's rotation DOF (its value is a moment)
    /// A corotational or plastic shell or beam: its force at u (it replaces k's rows; k is
    /// empty), and whether its nodes move and turn large (CellMatrices in sections.cpp).
    std::function<void(std::span<const PetscScalar>, double*)> force;
    bool large = false, turns = false;
  };
  bool nonlinear_cells_ = false;
  std::vector<Entry> entries_;
};

}  // namespace inertia
