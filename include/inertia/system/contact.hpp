#pragma once
/// \file contact.hpp
/// Contact (the case file's `contact:` section), enforced by penalties, as force terms
/// (force_term.hpp) that the schemes, Newton, the energy balance and the reactions see as they see
/// any nonlinear term:
///
/// - rigid walls (term_contact.cpp): analytic rigid surfaces (a plane, a sphere, a cylinder) that
///   the nodes of a region of boundary faces may not pass. Internal force k_i g_i n_i at every node
///   i of the region with a negative gap g_i (the signed distance to the wall along its outward
///   normal n_i), stiffness its derivative, energy 1/2 k_i g_i^2;
/// - pairs (contact_pairs.cpp): two regions of boundary faces (or one touching itself) that may
///   not pass each other, node-to-surface both ways, with a search distributed over the ranks.
///   Forces node by node (Traits::gathers); under implicit schemes and static their tangent
///   couples a node to the face it touches, outside the mesh's pattern (add_coupling).
///
/// Both take Coulomb friction (`friction`): an elastic stick of the normal penalty's stiffness,
/// then slip, returned from the force of the last accepted step (contact_section.hpp, coulomb());
/// the committed forces are history (commit_nodal, save_state/load_state for checkpoints).
///
/// Augmented Lagrangian iterations (`augmented`, implicit schemes and static): each contact node
/// carries a multiplier lambda; its normal force is max(0, lambda - k g), and after a converged
/// Newton solve lambda takes it and Newton runs again (NewtonSolver::solve, Traits::multipliers)
/// until no node in contact is more than the tolerance off its surface. Multipliers are
/// committed with an accepted step, restored for a retried one, and checkpointed.
///
/// Penalty rule: k_i = penalty_scale x the largest diagonal entry of node i's 3x3 block of the
/// model's stiffness (the elements next to the surface, any material), penalty_scale 1 for
/// explicit schemes (a sequence with an explicit analysis) and 10 for implicit ones and static
/// unless the section says otherwise; a
/// `penalty` (Pa/m, contact pressure per metre of penetration) replaces it by penalty x A_i, A_i
/// the node's share of the region's face area. A pair's passes take a quarter of it. Explicit
/// schemes' stable step sees the largest k_i / m_i (walls) or 4 k_i / m_i (pairs' passes).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/core/registry.hpp"
#include "inertia/system/force_term.hpp"

namespace inertia {

class ContactTerm : public ForceTerm {
 public:
  /// What contact.csv records of a wall at one state, the same on every rank.
  struct Reading {
    /// The force the wall exerts on the body; a pair's on its first surface.
    std::array<double, 3> force{0, 0, 0};
    double normal = 0;        ///< the sum of the nodes' normal force magnitudes (self-contact too)
    std::int64_t active = 0;  ///< nodes with a negative gap
    double penetration = 0;   ///< the largest -g over the nodes
  };
  /// The wall's or pair's name (its contact.csv columns).
  virtual const std::string& name() const = 0;
  /// Collective. The reading at displacement u (owned entries only are read) and time t.
  virtual Reading read(Vec u, double t) const = 0;
  /// Collective. The contact pressure at this rank's contact nodes at displacement u and time t
  /// (walls: k_i (-g_i) / A_i; pairs: the node's whole contact force against its surface normal
  /// over A_i), into the owned entries of `pressure` (one value per owned node; a node in two
  /// contacts gets their sum).
  virtual void add_pressure(Vec u, double t, std::span<double> pressure) const = 0;
  /// Collective. One line for the log: what the contact is, its nodes and penalties.
  virtual std::string summary() const { return describe(); }
  /// Collective. Set-ups that are legal but almost surely not meant, found in the reference
  /// configuration (a wall with the body behind it, pair surfaces that do not face each other):
  /// one line each for the log's warnings, naming the wall or pair (the same on every rank).
  virtual std::vector<std::string> start_warnings() const { return {}; }
  /// Collective. A warning line about the contact's motion at the run's steps of dt to t_end (a
  /// wall moving more than a fraction of a cell per step), or "".
  virtual std::string step_warning(double dt, double t_end) const {
    (void)dt, (void)t_end;
    return {};
  }
  /// Pairs: the distance within which an evaluation catches a node crossing a face (half the
  /// search margin): surfaces closing by more than this in one step pass through each other.
  /// Walls: 0 (a wall's gap is exact at every evaluation: nothing to miss).
  virtual double catch_distance() const { return 0; }
  /// Pairs: the searches so far (the same on every rank); walls: -1.
  virtual std::int64_t searches() const { return -1; }
  /// Contacts with augmented Lagrangian iterations: the multiplier updates so far (the same on
  /// every rank); others: -1.
  virtual std::int64_t augmentations() const { return -1; }
  /// Contacts with history: the names of their committed state vectors in checkpoints
  /// ("friction": the friction force per node; "multipliers": the normal force multiplier per
  /// node, in its first component), each laid out as u.
  virtual std::vector<std::string> states() const { return {}; }
  /// Into / from the owned entries of such a vector; load_state takes the committed
  /// displacement u (owned entries) and time t with it.
  virtual void save_state(std::string_view which, std::span<PetscScalar> owned) const {
    (void)which, (void)owned;
  }
  virtual void load_state(std::string_view which, std::span<const PetscScalar> owned,
                          std::span<const PetscScalar> u, double t) const {
    (void)which, (void)owned, (void)u, (void)t;
  }
  /// A wall with a mass (a drop weight) at the last accepted step, the same on every rank: its
  /// mass, translation, whole-step velocity and the force on it (the contact's reaction).
  struct Body {
    double mass = 0;
    std::array<double, 3> displacement{0, 0, 0}, velocity{0, 0, 0}, force{0, 0, 0};
  };
  virtual std::optional<Body> body() const { return std::nullopt; }
  /// Its state for a checkpoint (every value; empty without a body) and back.
  virtual std::vector<double> body_state() const { return {}; }
  virtual void load_body_state(std::span<const double> values) const { (void)values; }
};

/// The rigid walls' shapes (contact.walls[]: plane, sphere, cylinder), each row's name, summary
/// and example (for --help and unit.Examples.EveryWallShape).
std::vector<EntryInfo> wall_shape_rows();

}  // namespace inertia
