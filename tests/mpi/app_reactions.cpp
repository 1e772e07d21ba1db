// Support reactions (MechanicalSystem::support_reactions, reactions.csv) on any rank count: the
// constrained-row products equal the whole residual's constrained entries (assembled AIJ and
// BAIJ stiffness, consistent and lumped mass, nonlinear solids), a static block under gravity is
// held up by m g, the base shear of a shaken tower equals the rate of momentum minus the loads,
// a body carried rigidly by an accelerated base is pushed by m a_g and no damping force, and a DOF
// held by two conditions counts for the later one.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;
using test::start;
using test::TightSolves;

namespace {

std::string tower(const std::string& element, const std::string& model, const std::string& time) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [0.2, 0.2, 1.0], cells: [2, 2, 6], element: " +
         element +
         "}}\n"
         "materials: [{region: all, model: " +
         model +
         ", density: 1000, youngs_modulus: 5.0e6, poissons_ratio: 0.3}]\n"
         "boundary_conditions:\n"
         "  - {region: zmin, type: displacement, components: [x, y, z], value: [0.01, 0, 0.002], "
         "amplitude: shake}\n"
         "  - {region: zmax, type: traction, value: [1000, 0, -500]}\n"
         "amplitudes: {shake: {type: sine, frequency: 4.0}}\n"
         "gravity: [0, 0, -9.81]\n"
         "time: {" +
         time + "}\n";
}

/// Largest |support_reactions - reaction()| over the constrained DOFs, relative to the largest
/// reaction, after a few steps.
double rows_against_residual(const std::string& yaml, double dt) {
  auto r = start(yaml);
  MechanicalSystem& s = *r.model.system;
  for (int n = 0; n < 5; ++n) r.integrator->step(s, r.state, dt);
  std::vector<double> rows(s.constrained_dofs().size());
  s.support_reactions(r.state.time, r.state.u, r.state.v, r.integrator->acceleration(), rows);
  petsc::Vector full = s.create_vector();
  s.reaction(r.state.time, r.state.u, r.state.v, r.integrator->acceleration(), full);
  double worst = 0, scale = 0;
  {
    petsc::ConstArray x(full);
    const PetscInt first = static_cast<PetscInt>(3 * s.mesh().node_begin);
    const auto dofs = s.constrained_dofs();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      worst = std::max(worst, std::abs(rows[i] - x[dofs[i] - first]));
      scale = std::max(scale, std::abs(x[dofs[i] - first]));
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &scale, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_GT(scale, 0.0);
  return worst / scale;
}

}  // namespace

TEST(SupportReactions, ConstrainedRowsEqualTheWholeResidual) {
  const std::string rayleigh = ", rayleigh: {mass: 0.5, stiffness: 1.0e-3}";
  // Newmark, assembled AIJ K, consistent and lumped M, Rayleigh damping.
  EXPECT_LT(rows_against_residual(tower("hex8", "linear_elastic",
                                        "integrator: newmark, dt: 0.005, steps: 5, mass: "
                                        "consistent" +
                                            rayleigh),
                                  0.005),
            1e-13);
  EXPECT_LT(rows_against_residual(
                tower("tet10", "linear_elastic",
                      "integrator: newmark, dt: 0.005, steps: 5, mass: lumped" + rayleigh),
                0.005),
            1e-13);
  // Central difference: BAIJ K (cut through an AIJ copy).
  EXPECT_LT(rows_against_residual(tower("hex8", "linear_elastic",
                                        "integrator: central_difference, dt: 1.0e-4, steps: 5, "
                                        "mass: lumped"),
                                  1.0e-4),
            1e-13);
  // Nonlinear solid: the internal force itself.
  EXPECT_LT(rows_against_residual(tower("hex8", "neo_hookean",
                                        "integrator: newmark, dt: 0.005, steps: 5, mass: "
                                        "consistent"),
                                  0.005),
            1e-13);
}

TEST_F(TightSolves, AStaticBlockUnderGravityIsHeldUpByItsWeight) {
  auto r = start(
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.5, 0.3], cells: [6, 3, 2], element: tet10}}\n"
      "materials: [{region: all, density: 2500, youngs_modulus: 3.0e10, poissons_ratio: 0.2}]\n"
      "boundary_conditions: [{region: zmin, type: fixed}]\n"
      "gravity: [0, 0, -9.81]\n"
      "time: {integrator: static, dt: 1, steps: 1}\n");
  MechanicalSystem& s = *r.model.system;
  r.integrator->step(s, r.state, 1.0);
  const auto dir = test::fresh_output_dir("app_reactions");
  Reactions reactions(s, {"zmin"}, dir / "reactions.csv");
  reactions.record(s, r.state, *r.integrator);
  const double weight = s.total_mass() * 9.81;
  const auto& t = reactions.totals();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_NEAR(t[2] / weight, 1.0, 1e-10);
  EXPECT_NEAR(t[0] / weight, 0.0, 1e-10);
  EXPECT_NEAR(t[1] / weight, 0.0, 1e-10);
}

TEST_F(TightSolves, BaseShearIsTheRateOfMomentumMinusTheLoads) {
  // Summed over every DOF, M a + C v + f_int - f_ext vanishes on the free DOFs (the equation of
  // motion) and is the reaction on the supports; the rigid translations r_d give
  // sum_d R = r_d.(M a + alpha_M M v - f_ext) (r_d.K = 0). The right side is computed from the
  // whole state, the left from the constrained rows alone.
  auto r = start(tower("hex8", "linear_elastic",
                       "integrator: newmark, dt: 0.005, steps: 40, mass: consistent, rayleigh: "
                       "{mass: 0.5, stiffness: 1.0e-3}"));
  MechanicalSystem& s = *r.model.system;
  const auto dir = test::fresh_output_dir("app_reactions");
  Reactions reactions(s, {"zmin"}, dir / "shear.csv");
  petsc::Vector rigid = s.create_vector(), w = s.create_vector(), f = s.create_vector();
  double worst = 0, scale = 0;
  for (int n = 0; n < 40; ++n) {
    r.integrator->step(s, r.state, 0.005);
    reactions.record(s, r.state, *r.integrator);
    // The state the scheme reached, its supports on the sine.
    const Vec v = r.state.v;
    INERTIA_PETSC(VecWAXPY(w, 0.5, v, r.integrator->acceleration()));
    s.mult_mass(w, f);
    s.external_force(r.state.time, w);
    INERTIA_PETSC(VecAXPY(f, -1.0, w));
    for (int d = 0; d < 3; ++d) {
      {
        petsc::Array x(rigid);
        for (PetscInt i = 0; i < x.size(); ++i) x[i] = i % 3 == d ? 1.0 : 0.0;
      }
      PetscScalar expected = 0;
      INERTIA_PETSC(VecDot(rigid, f, &expected));
      worst = std::max(worst, std::abs(reactions.totals()[d] - expected));
      scale = std::max(scale, std::abs(expected));
    }
  }
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  base shear against momentum rate - loads: %.3g of %.3g N\n", worst, scale);
  EXPECT_GT(scale, 1.0);
  EXPECT_LT(worst / scale, 1e-9);
}

TEST(SupportReactions, ADofHeldByTwoConditionsCountsForTheLaterOne) {
  // zmin fixed, then ymin fixed: the edge where they meet belongs to ymin. Under gravity the two
  // totals add up to the weight, and the edge's share appears under ymin.
  auto r = start(
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 1], cells: [2, 2, 2], element: hex8}}\n"
      "materials: [{region: all, density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: zmin, type: fixed}, {region: ymin, type: fixed}]\n"
      "gravity: [0, 0, -9.81]\n"
      "time: {integrator: static, dt: 1, steps: 1}\n");
  MechanicalSystem& s = *r.model.system;
  r.integrator->step(s, r.state, 1.0);
  const auto dofs = s.constrained_dofs();
  const auto conditions = s.constrained_conditions();
  long long edge = 0;
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    const PetscInt node = dofs[i] / 3 - static_cast<PetscInt>(s.mesh().node_begin);
    const double* x = &s.mesh().coords[3 * node];
    if (std::abs(x[1]) < 1e-12 && std::abs(x[2]) < 1e-12) {
      EXPECT_EQ(conditions[i], 1);
      ++edge;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &edge, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(edge, 3 * 3);  // three nodes on the edge, three DOFs each
  const auto dir = test::fresh_output_dir("app_reactions");
  Reactions reactions(s, {"zmin", "ymin"}, dir / "shared.csv");
  reactions.record(s, r.state, *r.integrator);
  const auto& t = reactions.totals();
  ASSERT_EQ(t.size(), 6u);
  EXPECT_NEAR((t[2] + t[5]) / (s.total_mass() * 9.81), 1.0, 1e-8);
  EXPECT_GT(t[5], 0.0);  // ymin carries its edge's share
}

TEST_F(TightSolves, ABodyCarriedByItsBaseFeelsNoMassDampingForce) {
  // Every node follows the base's acceleration record (the body moves rigidly with the ground):
  // with Rayleigh mass damping on the velocity relative to the ground, the supports push it with
  // M r a_g(t) and nothing more, in every scheme; the damping dissipates nothing.
  for (const char* scheme : {"newmark", "hht", "central_difference"}) {
    auto r = start(
        std::string(
            "mesh: {box: {lower: [0, 0, 0], upper: [1, 1, 2], cells: [2, 2, 4], element: hex8}}\n"
            "materials: [{region: all, density: 2000, youngs_modulus: 1.0e7, poissons_ratio: "
            "0.3}]\n"
            "boundary_conditions: [{region: all, type: acceleration, components: [x, y, z], "
            "value: [3.0, 0, 0], amplitude: quake}]\n"
            "amplitudes: {quake: {type: sine, frequency: 2.0}}\n"
            "time: {integrator: ") +
        scheme + ", dt: 0.001, steps: 50, mass: lumped, rayleigh: {mass: 0.8}}\n");
    MechanicalSystem& s = *r.model.system;
    ASSERT_EQ(s.ground_motion()[0], MechanicalSystem::GroundMotion::uniform);
    const auto dir = test::fresh_output_dir("app_reactions");
    Reactions reactions(s, {"all"}, dir / (std::string(scheme) + ".csv"));
    EnergyHistory energy(s, r.state, *r.integrator, dir / (std::string(scheme) + "_energy.csv"));
    const double mass = s.total_mass(), w = 2 * std::numbers::pi * 2.0;
    double worst = 0;
    for (int n = 0; n < 50; ++n) {
      energy.before_step(s, r.state);
      r.integrator->step(s, r.state, 0.001);
      energy.after_step(s, r.state, 0.001, 0.0);
      reactions.record(s, r.state, *r.integrator);
      const double push = mass * 3.0 * std::sin(w * r.state.time);
      const auto& t = reactions.totals();
      worst = std::max({worst, std::abs(t[0] - push), std::abs(t[1]), std::abs(t[2])});
    }
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf("  %s: base shear - M a_g up to %.3g N (M a_g up to %.3g N); damping %.3g J\n",
                  scheme, worst, mass * 3.0, energy.dissipation());
    EXPECT_LT(worst, 1e-9 * mass * 3.0) << scheme;
    EXPECT_LT(std::abs(energy.dissipation()), 1e-12 * energy.largest_term()) << scheme;
  }
}
