// The contact nodes' history that rigid walls and pairs share (src/system/contact_state.hpp):
// multipliers are committed, rejected and updated as the augmented Lagrangian needs; a stick
// dissipates nothing and a slip its Coulomb work; the checkpoint vectors hold the committed
// friction force and the committed multiplier at each node's three entries, and read back.

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "../../src/system/contact_state.hpp"

namespace inertia::contact_input {
namespace {

TEST(NodeContactState, RejectedUpdatesReturnToTheCommittedMultipliers) {
  NodeContactState s({0, 1}, false, true);
  EXPECT_EQ(s.multiplier(0), 0.0);
  EXPECT_DOUBLE_EQ(s.update_multiplier(0, 3.0, 2.0, false), 1.5);  // metres: |3 - 0| / 2
  EXPECT_EQ(s.multiplier(0), 0.0);                                 // not taken
  EXPECT_DOUBLE_EQ(s.update_multiplier(0, 3.0, 2.0, true), 1.5);
  s.count_update();
  EXPECT_EQ(s.multiplier(0), 3.0);
  EXPECT_EQ(s.updates(), 1);
  s.reject_multipliers();
  EXPECT_EQ(s.multiplier(0), 0.0);
  s.update_multiplier(0, 3.0, 2.0, true);
  s.commit_multipliers();
  s.update_multiplier(0, 5.0, 2.0, true);
  s.commit_multipliers();
  EXPECT_EQ(s.multiplier(0), 5.0);
  EXPECT_EQ(s.multiplier_before(0), 3.0);  // the step's start (a moving wall's work)
  s.reject_multipliers();
  EXPECT_EQ(s.multiplier(0), 5.0);
}

TEST(NodeContactState, WithoutMultipliersEveryMultiplierIsZero) {
  NodeContactState s({4}, true, false);
  EXPECT_EQ(s.multiplier(0), 0.0);
  EXPECT_EQ(s.multiplier_before(0), 0.0);
  s.commit_multipliers();
  s.reject_multipliers();
  EXPECT_EQ(s.names(), std::vector<std::string>{"friction"});
}

TEST(NodeContactState, AStickDissipatesNothingAndASlipItsCoulombWork) {
  const double k = 1e6, limit = 30;  // N/m; mu f_n, N
  NodeContactState s({0, 1}, true, false);
  // Entry 0 sticks: the spring's force -k d. Entry 1 slips 1e-4 m at the limit (the spring would
  // give 100 N).
  const double d = 2e-5, slip = 1e-4;
  s.slip(0)[0] = d, s.trial_force(0)[0] = -k * d;
  s.slip(1)[1] = slip, s.trial_force(1)[1] = -limit;
  const std::vector<double> stiffness{k, k};
  s.commit_friction(0, stiffness);
  // The slip's work less the spring's energy at the limit: limit (slip - limit / k) / 2.
  EXPECT_NEAR(s.take_dissipation(), 0.5 * limit * (slip - limit / k), 1e-12);
  EXPECT_EQ(s.take_dissipation(), 0.0);  // taken
  EXPECT_EQ(s.committed_force(0)[0], -k * d);
  EXPECT_EQ(s.committed_force(1)[1], -limit);
  EXPECT_TRUE(s.has_committed_force(1));
  // The next step stays put: the committed forces do no work and stay.
  s.clear_trial(0, 2);
  for (int i = 0; i < 3; ++i) s.trial_force(0)[i] = s.committed_force(0)[i];
  for (int i = 0; i < 3; ++i) s.trial_force(1)[i] = s.committed_force(1)[i];
  s.commit_friction(0, stiffness);
  EXPECT_EQ(s.take_dissipation(), 0.0);
}

TEST(NodeContactState, CommitsARangeOfEntriesIntoOneSum) {
  NodeContactState s({0, 1, 2}, true, false);
  s.slip(2)[0] = 1e-3, s.trial_force(2)[0] = -1;  // a slip at 1 N: 1e-3 / 2 less 1 / (2 k)
  const std::vector<double> k{1e4};
  s.commit_friction(2, k);
  EXPECT_NEAR(s.take_dissipation(), 0.5 * (1e-3 - 1e-4), 1e-15);
  EXPECT_FALSE(s.has_committed_force(0));
  EXPECT_FALSE(s.has_committed_force(1));
}

TEST(NodeContactState, CheckpointsHoldTheCommittedStateAtTheNodesEntries) {
  // Nodes 2 and 0, then node 2 again (a node of both sides of a pair): the last entry's value.
  NodeContactState s({2, 0, 2}, true, true);
  for (std::size_t j = 0; j < 3; ++j) {
    for (int i = 0; i < 3; ++i) s.trial_force(j)[i] = 10.0 * j + i + 1;
    s.update_multiplier(j, 100.0 + j, 1.0, true);
  }
  s.commit_friction(0, std::vector<double>{1, 1, 1});
  s.commit_multipliers();
  s.update_multiplier(0, 7.0, 1.0, true);  // trial, not committed: not saved
  EXPECT_EQ(s.names(), (std::vector<std::string>{"friction", "multipliers"}));
  std::vector<PetscScalar> friction(9, -1.0), multipliers(9, -1.0);
  s.save("friction", friction);
  s.save("multipliers", multipliers);
  EXPECT_EQ(friction, (std::vector<PetscScalar>{11, 12, 13, -1, -1, -1, 21, 22, 23}));
  EXPECT_EQ(multipliers, (std::vector<PetscScalar>{101, 0, 0, -1, -1, -1, 102, 0, 0}));

  NodeContactState r({2, 0, 2}, true, true);
  r.load("friction", friction, 0.25);
  r.load("multipliers", multipliers, 0.25);
  EXPECT_EQ(r.committed_time(), 0.25);
  EXPECT_EQ(r.committed_force(0)[0], 21.0);  // node 2's entries: the last one saved
  EXPECT_EQ(r.committed_force(1)[2], 13.0);
  EXPECT_EQ(r.multiplier(1), 101.0);
  EXPECT_EQ(r.multiplier_before(1), 101.0);
  EXPECT_EQ(r.multiplier(2), 102.0);
  r.reject_multipliers();
  EXPECT_EQ(r.multiplier(1), 101.0);
}

}  // namespace
}  // namespace inertia::contact_input
