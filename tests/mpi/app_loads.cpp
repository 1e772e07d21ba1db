// Loads and constraints on a distributed mesh: resultant forces of gravity, traction, pressure and
// nodal forces; amplitudes; prescribed displacement followed exactly by the constrained DOFs.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;

namespace {

std::string block_case(const std::string& element, const std::string& loads,
                       const std::string& extra = "") {
  return "mesh: {box: {lower: [0, 0, 0], upper: [2.0, 0.5, 0.25], cells: [6, 3, 2], element: " +
         element +
         "}}\n"
         "materials: [{region: all, density: 4.0, youngs_modulus: 1000.0, poissons_ratio: 0.3}]\n"
         "boundary_conditions: [{region: xmin, type: fixed}" +
         loads + "]\n" + extra + "time: {integrator: newmark, dt: 0.01, steps: 5}\n";
}

std::array<double, 3> resultant(const MechanicalSystem& s, double t) {
  petsc::Vector f = s.create_vector();
  s.external_force(t, f);
  std::array<double, 3> sum{};
  for (int c = 0; c < 3; ++c) VecStrideSum(f, c, &sum[c]);
  return sum;
}

class Loads : public testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(Loads, ResultantsEqualTheAppliedTotals) {
  const std::string element = GetParam();
  const double area_xmax = 0.5 * 0.25, area_zmax = 2.0 * 0.5, volume = 2.0 * 0.5 * 0.25;
  struct Case {
    std::string loads, extra;
    std::array<double, 3> expected;
  } cases[] = {
      {", {region: xmax, type: traction, value: [1.0, -2.0, 3.0]}",
       "",
       {1.0 * area_xmax, -2.0 * area_xmax, 3.0 * area_xmax}},
      // pressure pushes along the inward normal: on zmax that is -z
      {", {region: zmax, type: pressure, value: 5.0}", "", {0, 0, -5.0 * area_zmax}},
      {", {region: xmin, type: pressure, value: 2.0}", "", {2.0 * area_xmax, 0, 0}},
      {", {region: ymax, type: force, value: [0, -10.0, 7.0]}", "", {0, -10.0, 7.0}},
      {"", "gravity: [0, 0, -9.81]\n", {0, 0, -9.81 * 4.0 * volume}},
  };
  for (const auto& c : cases) {
    Model model = build_model(MPI_COMM_WORLD,
                              parse_case(block_case(element, c.loads, c.extra), "loads.yaml"));
    const auto sum = resultant(*model.system, 0.0);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(sum[k], c.expected[k], 1e-12 * (1 + std::abs(c.expected[k])))
          << element << c.loads << c.extra << " component " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryElement, Loads, testing::Values("hex8", "tet4", "tet10"));

TEST(Loads, AmplitudesScaleTheirLoadsInTime) {
  const std::string yaml =
      block_case("hex8", ", {region: xmax, type: force, value: [0, 0, -4.0], amplitude: pulse}",
                 "amplitudes: {pulse: {type: table, points: [[0, 0], [0.1, 1], [0.2, 0]]}}\n"
                 "gravity: {value: [0, 0, -1.0], amplitude: shake}\n"
                 "amplitudes_unused: 0\n");
  // unknown key must be rejected (amplitudes_unused), so build the real case without it
  EXPECT_THROW(parse_case(yaml, "loads.yaml"), InputError);
  const std::string good =
      block_case("hex8", ", {region: xmax, type: force, value: [0, 0, -4.0], amplitude: pulse}",
                 "amplitudes: {pulse: {type: table, points: [[0, 0], [0.1, 1], [0.2, 0]]},\n"
                 "             shake: {type: sine, frequency: 2.0, phase: 0.5}}\n"
                 "gravity: {value: [0, 0, -1.0], amplitude: shake}\n");
  Model model = build_model(MPI_COMM_WORLD, parse_case(good, "loads.yaml"));
  const double weight = 4.0 * 2.0 * 0.5 * 0.25;
  for (double t : {0.0, 0.05, 0.1, 0.13, 0.2, 0.7}) {
    const double pulse = t <= 0.1 ? t / 0.1 : t <= 0.2 ? (0.2 - t) / 0.1 : 0.0;
    const double shake = std::sin(2 * std::numbers::pi * 2.0 * t + 0.5);
    const auto sum = resultant(*model.system, t);
    EXPECT_NEAR(sum[2], -4.0 * pulse - weight * shake, 1e-12) << "t = " << t;
  }
}

TEST(Constraints, PrescribedDisplacementIsFollowedExactlyAndFixedComponentsStayZero) {
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.2, 0.2], cells: [5, 1, 1], element: hex8}}\n"
      "materials: [{region: all, density: 1.0, youngs_modulus: 100.0, poissons_ratio: 0.25}]\n"
      "boundary_conditions:\n"
      "  - {region: xmin, type: displacement, components: [x, z], value: [0.01, -0.02], "
      "amplitude: shake}\n"
      "  - {region: xmin, type: fixed, components: [y]}\n"
      "amplitudes: {shake: {type: sine, frequency: 3.0}}\n"
      "time: {integrator: newmark, dt: 0.01, steps: 30}\n";
  const CaseFile c = parse_case(yaml, "constraints.yaml");
  Model model = build_model(MPI_COMM_WORLD, c);
  MechanicalSystem& s = *model.system;
  EXPECT_EQ(s.num_constrained_dofs(), 3 * 4);
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  s.apply_constraints(0.0, state.u, state.v, nullptr);
  auto integrator = c.scheme.create();
  integrator->initialize(s, state);
  const int xmin = [&] {
    for (std::size_t r = 0; r < s.mesh().regions.size(); ++r)
      if (s.mesh().regions[r].name == "xmin") return static_cast<int>(r);
    return -1;
  }();
  double worst = 0, moved = 0;
  const double w = 2 * std::numbers::pi * 3.0;
  for (int n = 0; n < 30; ++n) {
    integrator->step(s, state, 0.01);
    const double t = state.time;
    petsc::ConstArray u(state.u), v(state.v), a(integrator->acceleration());
    for (auto node : s.mesh().region_owned_nodes[xmin]) {
      const double expected_u[3] = {0.01 * std::sin(w * t), 0, -0.02 * std::sin(w * t)};
      const double expected_v[3] = {0.01 * w * std::cos(w * t), 0, -0.02 * w * std::cos(w * t)};
      const double expected_a[3] = {-0.01 * w * w * std::sin(w * t), 0,
                                    0.02 * w * w * std::sin(w * t)};
      for (int k = 0; k < 3; ++k) {
        worst = std::max(worst, std::abs(u[3 * node + k] - expected_u[k]));
        worst = std::max(worst, std::abs(v[3 * node + k] - expected_v[k]) * 0.01);
        worst = std::max(worst, std::abs(a[3 * node + k] - expected_a[k]) * 1e-4);
      }
    }
    PetscReal norm = 0;
    VecNorm(state.u, NORM_INFINITY, &norm);
    moved = std::max(moved, norm);
  }
  double global_worst = 0;
  MPI_Allreduce(&worst, &global_worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_LT(global_worst, 1e-15);
  EXPECT_GT(moved, 0.015);  // the free part of the bar moves too
}
