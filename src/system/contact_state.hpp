#pragma once
// The history of a contact's nodes (contact.hpp), the same for rigid walls and pairs: the
// augmented Lagrangian's multipliers and the committed friction forces, with their commit,
// rejection, update and checkpoint layout. Private to src/system.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/system/force_term.hpp"

namespace inertia::contact_input {

/// Per contact node j (a wall's node, or a pair's slave node of one pass: the passes' nodes one
/// after the other), the state a contact carries from one accepted step to the next:
///
/// - with `multipliers`, the augmented Lagrangian's normal force multiplier lambda_j (N): the
///   trial one (updated between Newton solves), the committed one (the last accepted step's) and
///   the committed one before the last commit (the step's start, for a moving wall's work);
/// - with `friction`, the committed friction force T_c,j (the force on the node at the end of the
///   last accepted step), the last evaluation's trial force T_j and the relative slip d_j since
///   the commit, and the commit's time; at each commit the work the friction did over the step
///   (the trapezoidal rule: 1/2 (T_c + T) . d) less the change of the stick spring's energy
///   (|T|^2 - |T_c|^2) / (2 k) is dissipated, into one sum until it is taken.
///
/// Checkpoints (ContactTerm::states): "friction" is T_c, "multipliers" lambda_c in the first
/// component, each at its node's three entries of a vector laid out as u; a node in two entries
/// gets the last one's.
class NodeContactState {
 public:
  NodeContactState() = default;
  /// `nodes`: each entry's owned local node.
  NodeContactState(std::vector<std::int32_t> nodes, bool friction, bool multipliers);

  std::size_t size() const { return nodes_.size(); }
  bool friction() const { return friction_; }
  bool multipliers() const { return multipliers_; }

  /// The trial multiplier of entry j (0 without multipliers).
  double multiplier(std::size_t j) const { return lambda_.empty() ? 0.0 : lambda_[j]; }
  /// The committed multiplier before the last commit (0 without multipliers).
  double multiplier_before(std::size_t j) const {
    return lambda_before_.empty() ? 0.0 : lambda_before_[j];
  }
  /// The trial multipliers, or (`before`) the committed ones before the last commit; empty
  /// without multipliers.
  std::span<const double> multipliers(bool before) const {
    return before ? lambda_before_ : lambda_;
  }
  /// One multiplier update of entry j to `next` (>= 0) under the update's stiffness rho: the
  /// change in metres, |next - lambda_j| / rho; with `update` the entry takes it.
  double update_multiplier(std::size_t j, double next, double rho, bool update);
  /// Counts an update of every multiplier (augmentations()).
  void count_update() { ++updates_; }
  std::int64_t updates() const { return updates_; }

  /// The committed friction force of entry j (3 components).
  const double* committed_force(std::size_t j) const { return &tc_[3 * j]; }
  /// Any committed friction force on entry j.
  bool has_committed_force(std::size_t j) const {
    return tc_[3 * j] != 0 || tc_[3 * j + 1] != 0 || tc_[3 * j + 2] != 0;
  }
  /// The last evaluation's trial friction force and slip of entry j (3 components each),
  /// written by the contact's evaluation.
  double* trial_force(std::size_t j) { return &trial_[3 * j]; }
  double* slip(std::size_t j) { return &slip_[3 * j]; }
  /// Zeroes the trial forces and slips of entries first .. first + count - 1.
  void clear_trial(std::size_t first, std::size_t count);
  /// The commit's time (the time the friction's slip rate is measured from).
  double committed_time() const { return committed_time_; }

  /// The accepted step's multipliers become the committed ones.
  void commit_multipliers();
  /// A rejected step's: the trial multipliers return to the committed ones.
  void reject_multipliers();
  /// The accepted step's friction forces of entries first .. first + k.size() - 1 (k: their
  /// penalties) become the committed ones; their dissipation is added (class comment).
  void commit_friction(std::size_t first, std::span<const double> k);
  /// The commit's time t (after commit_friction of every entry).
  void set_committed_time(double t) { committed_time_ = t; }
  /// The dissipation since the last take.
  double take_dissipation();

  /// The checkpoint's names of the state (ContactTerm::states).
  std::vector<std::string> names() const;
  /// Into / from the owned entries of a vector laid out as u (class comment); load reads the
  /// commit's time t with the friction.
  void save(std::string_view which, std::span<PetscScalar> owned) const;
  void load(std::string_view which, std::span<const PetscScalar> owned, double t);

 private:
  std::vector<std::int32_t> nodes_;
  bool friction_ = false, multipliers_ = false;
  std::vector<double> lambda_, lambda_c_, lambda_before_;
  std::int64_t updates_ = 0;
  std::vector<double> tc_, trial_, slip_;
  double committed_time_ = 0;
  double dissipated_ = 0;
};

}  // namespace inertia::contact_input
