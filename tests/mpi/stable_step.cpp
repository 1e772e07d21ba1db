// dt: auto is the same on every rank count: the highest-frequency estimate made on all the ranks
// is the one a single rank makes of the same mesh (to round-off), it stops at the same iteration,
// and the stable step rounded down to 3 digits, from which dt: auto comes, has the same bits. On
// a Gmsh mesh (natural numbering: the file's) with lumped mass, and on a box (lexicographic) with
// consistent mass (a mass solve per iteration).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "../support/simulation.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/spectrum.hpp"

using namespace inertia;
using test::start;

namespace {

const std::string cantilever_lumped =
    "mesh: {file: " INERTIA_SOURCE_DIR
    "/meshes/cantilever.msh}\n"
    "materials: [{region: beam, density: 2700, youngs_modulus: 7.0e10, poissons_ratio: 0.33}]\n"
    "boundary_conditions: [{region: clamp, type: fixed}]\n"
    "time: {integrator: central_difference, mass: lumped, dt: auto, end_time: 0.006}\n";

const std::string box_consistent =
    "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [12, 3, 3], element: hex8}}\n"
    "materials: [{region: all, density: 1000, youngs_modulus: 1.0e6, poissons_ratio: 0.3}]\n"
    "boundary_conditions: [{region: xmin, type: fixed}]\n"
    "time: {integrator: central_difference, mass: consistent, dt: auto, end_time: 0.1}\n";

class StableStepOnEveryRankCount : public test::TightSolves,
                                   public testing::WithParamInterface<const std::string*> {};

TEST_P(StableStepOnEveryRankCount, IsTheOneRankEstimateToRoundOffAndTheSameAfterRounding) {
  const std::string& yaml = *GetParam();
  test::Simulation all = start(yaml);
  const FrequencyEstimate here = estimate_highest_frequency(all.system());
  // The same mesh on one rank: every rank builds the serial model for itself.
  test::Simulation alone = start(yaml, MPI_COMM_SELF);
  const FrequencyEstimate one = estimate_highest_frequency(alone.system());
  const double limit = 2;  // central difference: omega h <= 2
  const double step_here = round_down_to_digits(limit / here.power, 3);
  const double step_one = round_down_to_digits(limit / one.power, 3);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf(
        "  np %d: omega %.17g rad/s (%d iterations), 1 rank: %.17g (%d), relative "
        "difference %.2e; stable step rounded %.17g / %.17g s\n",
        size_of(MPI_COMM_WORLD), here.power, here.iterations, one.power, one.iterations,
        std::abs(here.power - one.power) / one.power, step_here, step_one);
  EXPECT_TRUE(here.converged);
  EXPECT_TRUE(one.converged);
  EXPECT_EQ(here.iterations, one.iterations);
  EXPECT_NEAR(here.power, one.power, 1e-12 * one.power);  // round-off only (50 random
                                                          // iterations differed by 1e-4)
  EXPECT_EQ(step_here, step_one);                         // the same bits
  EXPECT_LE(step_here, limit / here.power);
}

INSTANTIATE_TEST_SUITE_P(Meshes, StableStepOnEveryRankCount,
                         testing::Values(&cantilever_lumped, &box_consistent),
                         [](const auto& info) {
                           return std::string(info.param == &cantilever_lumped
                                                  ? "CantileverLumpedMass"
                                                  : "BoxConsistentMass");
                         });

}  // namespace
