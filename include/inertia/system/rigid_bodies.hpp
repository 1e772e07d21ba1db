#pragma once
/// \file rigid_bodies.hpp
/// Rigid bodies (the case file's `rigid_bodies:`): a volume region whose cells do not deform. Its
/// nodes, with the nodes it shares with deformable cells (welded to it), move with the six degrees
/// of freedom of a RigidBody (rigid_body.hpp): x = c + R (X - C0). Each is a force term
/// (term_rigid.cpp) that adds its cells' lumped mass and weight and no stiffness; the explicit
/// scheme (central difference, lumped mass) asks the system for the bodies' steps:
///
/// - the force on a body is the sum over its nodes of m_a a_a, the acceleration of the lumped
///   system there (a = M^{-1} f: every force at those nodes, contact, loads, the welded cells'),
///   the moment that of the same forces about its centre of mass;
/// - the body's mass, centre and inertia: the lumped masses at its nodes (those of its cells,
///   of welded cells and point masses there), the inertia tensor corrected from its cells'
///   lumped to their exact second moments (Gauss quadrature), so that a coarse mesh's body has
///   the exact inertia of its cells; its kinetic energy 1/2 m V^2 + 1/2 w.L replaces the nodes'
///   1/2 v.M v (body_kinetic_energy adds the difference);
/// - every step writes the nodes' u, their half-step velocity (x_{n+1} - x_n) / h, the
///   whole-step velocity V + w x r and acceleration.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "inertia/system/force_term.hpp"
#include "inertia/system/rigid_body.hpp"

namespace inertia {

class RigidBodyTerm : public ForceTerm {
 public:
  virtual const std::string& name() const = 0;
  /// The body (after start()).
  virtual const RigidBody& body() const = 0;
  virtual RigidBody& body() = 0;
  /// Collective. The mass properties from the lumped masses m (owned entries, 3 per node) and
  /// the cells; with `fresh`, the nodes' velocities in v (owned entries) from the initial ones.
  /// Once: later calls only rewrite v.
  virtual void start(std::span<const PetscScalar> m, std::span<PetscScalar> v, bool fresh) = 0;
  /// Collective. The force and moment on the body from the lumped masses and accelerations
  /// (owned entries), as the body's load at the current step.
  virtual void load(std::span<const PetscScalar> m, std::span<const PetscScalar> a) = 0;
  /// The step from t by h with the current load (kick: RigidBody::advance): the nodes' u and
  /// half-step velocity (owned entries).
  virtual void advance(double t, double h, double kick, std::span<PetscScalar> u,
                       std::span<PetscScalar> v_half) = 0;
  /// Collective. After advance() and the force evaluation at t1: the body's whole-step
  /// velocities from the load there (m, a), then the nodes' v and a (owned entries).
  virtual void finish(double t1, double h, std::span<const PetscScalar> m, std::span<PetscScalar> a,
                      std::span<PetscScalar> v) = 0;
};

/// The volume regions of the case's rigid bodies (indices into mesh.regions): their cells are
/// not solids (no material assignment), whatever `materials:` says about them.
std::vector<int> rigid_regions(const LocalMesh& mesh, const ProblemSpec& spec);

void build_rigid_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);
std::shared_ptr<TermSection> parse_rigid_section(const case_yaml::Node& section);

}  // namespace inertia
