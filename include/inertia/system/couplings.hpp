#pragma once
/// \file couplings.hpp
/// Couplings of a node to a region of nodes (the case file's `couplings:`), one force term each
/// (term_couplings.cpp). A beam end node shared with a solid face node transmits forces only: the
/// solid node has no rotational stiffness, the joint is a hinge. A rigid coupling makes it a
/// weld: every node a of the surface moves with the reference node n (a beam node: its
/// translations u_n and rotations theta_n), as Abaqus' *COUPLING, KINEMATIC does,
///
///   u_a = u_n + theta_n x (x_a - x_n)   (linearized: small rotations),
///
/// enforced by a penalty: a spring of stiffness k per surface node and direction on the gap
/// g_a = u_a - u_n - theta_n x d_a (d_a = x_a - x_n), energy 1/2 k sum_a |g_a|^2, k = `penalty`
/// (default 1000) times the largest diagonal entry of the stiffness at the surface's and the
/// reference node's translations (sized once, from the model). The gap the penalty leaves is the
/// coupling's error: of the order of 1/penalty relative to the deformation of what it joins.
///
/// The term gathers (ForceTerm::Traits::gathers): the surface's nodes may lie on any rank, so one
/// reduction of 12 numbers per evaluation gives every rank u_n, theta_n and the surface's sums
/// (sum u_a, sum d_a x u_a), from which the reference node's force and moment follow exactly. Its
/// tangent goes into implicit and static solves as coupling blocks; explicit runs add it node by
/// node and its stable-step bound (Gershgorin on M^-1 K of the coupling) limits the step.

#include <memory>
#include <string>
#include <vector>

#include "inertia/system/force_term.hpp"

namespace inertia {

struct CouplingInput {
  std::string where;  ///< "<file>:<line>: couplings[i]"
  std::string name, node, surface;
  /// Instead of `node`: a line region (a shell's edge, a beam line) whose nodes each lead the
  /// surface's nodes nearest to them (Abaqus' *SHELL TO SOLID COUPLING).
  std::string edge;
  double penalty = 1000;  ///< k over the largest stiffness diagonal at its nodes
};

struct CouplingSection final : TermSection {
  std::vector<CouplingInput> couplings;
  void fingerprint(Hasher& h) const override;
};

std::shared_ptr<TermSection> parse_coupling_section(const case_yaml::Node& section);
void build_coupling_terms(const TermInputs& in, std::vector<std::unique_ptr<ForceTerm>>& out);

}  // namespace inertia
