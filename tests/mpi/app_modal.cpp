// Modal analysis (modal/modal.hpp) on any rank count: a clamped beam's bending frequencies
// converge under refinement to just below Euler-Bernoulli (shear and rotary inertia), a free body
// has six rigid-body modes at 0 Hz whose effective masses add up to its mass, and the frequencies
// do not depend on the rank count.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/modal/modal.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

std::string beam(int cells, const std::string& bc, const std::string& element = "tet10") {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1.0, 0.05, 0.05], cells: [" +
         std::to_string(cells) + ", 2, 2], element: " + element +
         "}}\n"
         "materials: [{region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0}]\n" +
         bc + "modal: {modes: 8, mass: consistent}\n";
}

ModalResult modes_of(MPI_Comm comm, const std::string& yaml) {
  const CaseFile c = parse_case(yaml, "modal_case.yaml");
  Model model = build_model(comm, c);
  return compute_modes(*model.system, c.modal_modes);
}

/// Euler-Bernoulli bending frequency (Hz) of mode k of a 1 m steel beam of 0.05 m square
/// section: clamped-free (beta L = 1.8751, 4.6941) or free-free (4.7300).
double euler_bernoulli(double beta_l) {
  return beta_l * beta_l * std::sqrt(2.1e11 * 0.05 * 0.05 / (12 * 7800)) / (2 * std::numbers::pi);
}

}  // namespace

TEST(ModalAnalysis, ClampedBeamConvergesNearEulerBernoulli) {
  // tet10 under refinement along the beam: the changes shrink fast (high order), and the limit
  // lies just below Euler-Bernoulli, by the shear deformation and rotary inertia that a solid
  // model has and the beam theory leaves out (Timoshenko: 0.16 % for mode 1, 1.1 % for mode 2
  // at L/h = 20).
  const std::string clamp = "boundary_conditions: [{region: xmin, type: fixed}]\n";
  std::vector<double> f1, f2;
  for (int cells : {8, 16, 32}) {
    const ModalResult r = modes_of(MPI_COMM_WORLD, beam(cells, clamp));
    ASSERT_EQ(r.modes.size(), 8u);
    // Modes 1-2 and 3-4: the first and second bending modes in y and z (a square section; the
    // box's tetrahedra are not symmetric under y <-> z, which splits each pair by < 0.1 %).
    EXPECT_NEAR(r.modes[1].frequency / r.modes[0].frequency, 1.0, 1e-3);
    EXPECT_NEAR(r.modes[3].frequency / r.modes[2].frequency, 1.0, 1e-3);
    f1.push_back(r.modes[0].frequency);
    f2.push_back(r.modes[2].frequency);
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("  %2d cells: f1 %.4f Hz (EB %+.3f %%), f2 %.4f Hz (EB %+.3f %%)\n", cells,
                  f1.back(), 100 * (f1.back() / euler_bernoulli(1.8751040687) - 1), f2.back(),
                  100 * (f2.back() / euler_bernoulli(4.6940911330) - 1));
    for (const Mode& m : r.modes) {
      EXPECT_FALSE(m.rigid);
      EXPECT_NEAR(m.generalized_mass, 1.0, 1e-10);
    }
  }
  // Each refinement shrinks the change at least fourfold.
  EXPECT_LT(std::abs(f1[2] - f1[1]), std::abs(f1[1] - f1[0]) / 4);
  EXPECT_LT(std::abs(f2[2] - f2[1]), std::abs(f2[1] - f2[0]) / 4);
  // The limit: below Euler-Bernoulli, by less than 0.3 % (mode 1) and 1.5 % (mode 2).
  const double e1 = f1[2] / euler_bernoulli(1.8751040687) - 1;
  const double e2 = f2[2] / euler_bernoulli(4.6940911330) - 1;
  EXPECT_LT(e1, 0.0);
  EXPECT_GT(e1, -0.003);
  EXPECT_LT(e2, 0.0);
  EXPECT_GT(e2, -0.015);
}

TEST(ModalAnalysis, FreeBodyHasSixRigidModesCarryingItsWholeMass) {
  const ModalResult r = modes_of(MPI_COMM_WORLD, beam(16, ""));
  ASSERT_EQ(r.modes.size(), 8u);
  std::array<double, 3> rigid_mass{};
  for (int i = 0; i < 6; ++i) {
    EXPECT_TRUE(r.modes[i].rigid) << i;
    EXPECT_EQ(r.modes[i].frequency, 0.0);
    for (int d = 0; d < 3; ++d) rigid_mass[d] += r.modes[i].effective_mass[d];
  }
  const double mass = 7800 * 1.0 * 0.05 * 0.05;
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(r.free_mass[d] / mass, 1.0, 1e-12);
    EXPECT_NEAR(rigid_mass[d] / mass, 1.0, 1e-8);  // translations live in the rigid modes
  }
  EXPECT_FALSE(r.modes[6].rigid);
  EXPECT_NEAR(r.modes[6].frequency / euler_bernoulli(4.7300407449), 1.0, 0.02);
}

TEST(ModalAnalysis, FrequenciesDoNotDependOnTheRankCount) {
  const std::string clamp = "boundary_conditions: [{region: xmin, type: fixed}]\n";
  const ModalResult parallel = modes_of(MPI_COMM_WORLD, beam(16, clamp, "hex8"));
  const ModalResult serial = modes_of(MPI_COMM_SELF, beam(16, clamp, "hex8"));
  for (std::size_t i = 0; i < serial.modes.size(); ++i)
    EXPECT_NEAR(parallel.modes[i].frequency / serial.modes[i].frequency, 1.0, 1e-10) << i;
}
