// The contact nodes' history, shared by walls and pairs (contact_state.hpp).
#include "contact_state.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace inertia::contact_input {

NodeContactState::NodeContactState(std::vector<std::int32_t> nodes, bool friction, bool multipliers)
    : nodes_(std::move(nodes)), friction_(friction), multipliers_(multipliers) {
  if (friction_) tc_ = trial_ = slip_ = std::vector<double>(3 * nodes_.size(), 0.0);
  if (multipliers_) lambda_ = lambda_c_ = lambda_before_ = std::vector<double>(nodes_.size(), 0.0);
}

double NodeContactState::update_multiplier(std::size_t j, double next, double rho, bool update) {
  const double change = std::abs(next - lambda_[j]) / rho;
  if (update) lambda_[j] = next;
  return change;
}

void NodeContactState::clear_trial(std::size_t first, std::size_t count) {
  std::fill(trial_.begin() + 3 * first, trial_.begin() + 3 * (first + count), 0.0);
  std::fill(slip_.begin() + 3 * first, slip_.begin() + 3 * (first + count), 0.0);
}

void NodeContactState::commit_multipliers() {
  lambda_before_ = lambda_c_;
  lambda_c_ = lambda_;
}

void NodeContactState::reject_multipliers() { lambda_ = lambda_c_; }

void NodeContactState::commit_friction(std::size_t first, std::span<const double> k) {
  for (std::size_t e = 0; e < k.size(); ++e) {
    const std::size_t j = first + e;
    double work = 0, before = 0, after = 0;
    for (int i = 0; i < 3; ++i) {
      work += 0.5 * (tc_[3 * j + i] + trial_[3 * j + i]) * slip_[3 * j + i];
      before += tc_[3 * j + i] * tc_[3 * j + i];
      after += trial_[3 * j + i] * trial_[3 * j + i];
    }
    if (k[e] > 0) dissipated_ += -work - 0.5 * (after - before) / k[e];
    for (int i = 0; i < 3; ++i) tc_[3 * j + i] = trial_[3 * j + i];
  }
}

double NodeContactState::take_dissipation() { return std::exchange(dissipated_, 0.0); }

std::vector<std::string> NodeContactState::names() const {
  std::vector<std::string> out;
  if (friction_) out.emplace_back("friction");
  if (multipliers_) out.emplace_back("multipliers");
  return out;
}

void NodeContactState::save(std::string_view which, std::span<PetscScalar> owned) const {
  const bool friction = which == "friction";
  for (std::size_t j = 0; j < nodes_.size(); ++j)
    for (int i = 0; i < 3; ++i)
      owned[3 * nodes_[j] + i] = friction ? tc_[3 * j + i] : (i == 0 ? lambda_c_[j] : 0.0);
}

void NodeContactState::load(std::string_view which, std::span<const PetscScalar> owned, double t) {
  if (which == "multipliers") {
    for (std::size_t j = 0; j < nodes_.size(); ++j) lambda_c_[j] = owned[3 * nodes_[j]];
    lambda_ = lambda_before_ = lambda_c_;
    return;
  }
  for (std::size_t j = 0; j < nodes_.size(); ++j)
    for (int i = 0; i < 3; ++i) tc_[3 * j + i] = owned[3 * nodes_[j] + i];
  std::fill(trial_.begin(), trial_.end(), 0.0);
  std::fill(slip_.begin(), slip_.end(), 0.0);
  committed_time_ = t;
}

}  // namespace inertia::contact_input
