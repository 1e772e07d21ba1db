#pragma once
/// \file contact.hpp
/// Contact with rigid walls (the case file's `contact:` section): analytic rigid surfaces (a
/// plane, a sphere, a cylinder) that the nodes of a region of boundary faces may not pass,
/// enforced by a penalty. Each wall is a force term (force_term.hpp) whose internal force at u is
/// k_i g_i n_i at every node i of the region with a negative gap g_i (the signed distance to the
/// wall along its outward normal n_i), whose stiffness is its derivative and whose energy is
/// 1/2 k_i g_i^2: the schemes, Newton, the energy balance and the reactions see it as they see
/// any nonlinear term.
///
/// Penalty rule: k_i = penalty_scale x the largest diagonal entry of node i's 3x3 block of the
/// model's stiffness (the elements next to the wall, any material), penalty_scale 0.1 unless the
/// section says otherwise (LS-DYNA's default scale factor); a wall's `penalty` (Pa/m, contact
/// pressure per metre of penetration) replaces it by penalty x A_i, A_i the node's share of the
/// region's face area. Explicit schemes' stable step sees the largest k_i / m_i (the highest
/// frequency of the model with every wall node in contact is at most sqrt(omega_max^2 +
/// max k_i / m_i)).

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "inertia/system/force_term.hpp"

namespace inertia {

class ContactTerm : public ForceTerm {
 public:
  /// What contact.csv records of a wall at one state, the same on every rank.
  struct Reading {
    std::array<double, 3> force{0, 0, 0};  ///< the force the wall exerts on the body
    double normal = 0;        ///< the sum of the nodes' normal force magnitudes (self-contact too)
    std::int64_t active = 0;  ///< nodes with a negative gap
    double penetration = 0;   ///< the largest -g over the nodes
  };
  /// The wall's name (its contact.csv columns).
  virtual const std::string& name() const = 0;
  /// Collective. The reading at displacement u (owned entries only are read) and time t.
  virtual Reading read(Vec u, double t) const = 0;
  /// Collective. The contact pressure k_i (-g_i) / A_i at this rank's contact nodes at
  /// displacement u and time t, into the owned entries of `pressure` (one value per owned node; a
  /// node in two contacts gets their sum).
  virtual void add_pressure(Vec u, double t, std::span<double> pressure) const = 0;
};

}  // namespace inertia
