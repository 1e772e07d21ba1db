// The implicit solvers' choice (system/solver_cache.cpp, system/direct_solver.hpp): a
// linear model's constant operator is factored once by MUMPS or solved by CG + GAMG, chosen from
// MUMPS's estimate of the factorisation against the run's steps, forced by time.linear_solver,
// overridden by -ksp_type / -pc_type; every path gives the same answer (to the iterative solve's
// tolerance), on any rank count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/simulation.hpp"
#include "inertia/system/direct_solver.hpp"
#include "inertia/system/spectrum.hpp"

using namespace inertia;
using namespace inertia::test;

namespace {

/// A steel cantilever (hex8, clamped at x = 0) under a sudden tip load, Newmark at 20x its
/// stable step: stiffness-dominated, so neither Jacobi nor the mass solve applies.
std::string cantilever(const std::string& linear_solver,
                       const std::string& integrator = "newmark") {
  return "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [20, 3, 3], element: "
         "hex8}}\n"
         "materials: [{region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}]\n"
         "boundary_conditions:\n"
         "  - {region: xmin, type: fixed}\n"
         "  - {region: xmax, type: traction, value: [0, 0, -1.0e6]}\n"
         "time: {integrator: " +
         integrator + ", dt: 2.0e-5, steps: 10, mass: consistent" +
         (linear_solver.empty() ? "" : ", linear_solver: " + linear_solver) + "}\n";
}

struct Outcome {
  std::vector<std::string> notes;
  double tip = 0;  // sum of u over all DOFs after the steps (a fingerprint of the solution)
  PetscInt iterations = 0;
};

Outcome run(const std::string& yaml, int steps = 10) {
  Simulation r = start(yaml);
  MechanicalSystem& s = r.system();
  s.set_expected_solves(steps);
  Outcome o;
  for (int n = 0; n < steps; ++n)
    o.iterations += r.integrator->step(s, r.state, 2.0e-5).linear_iterations;
  o.notes = s.take_solver_notes();
  PetscScalar sum = 0;
  VecSum(r.state.u, &sum);
  o.tip = PetscRealPart(sum);
  return o;
}

bool mentions(const std::vector<std::string>& notes, const std::string& what) {
  for (const auto& n : notes)
    if (n.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_F(TightSolves, LinearSolverPathsAgree) {
  const Outcome automatic = run(cantilever(""));
  const Outcome direct = run(cantilever("direct"));
  const Outcome iterative = run(cantilever("iterative"));
  // A small stiff beam for many steps: the factorisation wins, and the log says why.
  ASSERT_EQ(automatic.notes.size(), 1u);
  EXPECT_TRUE(mentions(automatic.notes, "MUMPS Cholesky, factored once")) << automatic.notes[0];
  EXPECT_TRUE(mentions(automatic.notes, "s direct against")) << automatic.notes[0];
  EXPECT_TRUE(mentions(direct.notes, "time.linear_solver: direct")) << direct.notes[0];
  EXPECT_TRUE(mentions(iterative.notes, "CG + GAMG (time.linear_solver: iterative)"))
      << iterative.notes[0];
  // One application of the factorisation per solve; CG takes many iterations.
  EXPECT_EQ(direct.iterations, 10);
  EXPECT_GT(iterative.iterations, 50);
  // The same factorisation (to round-off: MUMPS's parallel reductions are not ordered).
  EXPECT_NEAR(automatic.tip / direct.tip, 1.0, 1e-12);
  EXPECT_NEAR(iterative.tip / direct.tip, 1.0, 1e-9);
  EXPECT_NE(direct.tip, 0.0);
}

TEST_F(TightSolves, CommandLineSolverOverridesTheChoice) {
  PetscOptionsSetValue(nullptr, "-pc_type", "jacobi");
  const Outcome given = run(cantilever("direct"));
  PetscOptionsClearValue(nullptr, "-pc_type");
  EXPECT_TRUE(mentions(given.notes, "as -ksp_type/-pc_type say")) << given.notes[0];
  EXPECT_GT(given.iterations, 10);  // Jacobi-CG, not a factorisation
  const Outcome direct = run(cantilever("direct"));
  EXPECT_NEAR(given.tip / direct.tip, 1.0, 1e-9);
}

TEST_F(TightSolves, EverySchemeSolvesAlikeDirectAndIterative) {
  for (const char* scheme : {"hht", "generalized_alpha", "euler_implicit", "static"}) {
    const Outcome direct = run(cantilever("direct", scheme), 3);
    const Outcome iterative = run(cantilever("iterative", scheme), 3);
    EXPECT_NE(direct.tip, 0.0) << scheme;
    EXPECT_NEAR(iterative.tip / direct.tip, 1.0, 1e-9) << scheme;
  }
}

TEST(DirectSolver, EstimateScalesWithTheProblem) {
  // MUMPS's analysis: a longer beam has more factor entries and flops, and some memory.
  std::vector<FactorEstimate> e;
  for (int cells : {10, 40}) {
    const std::string yaml =
        "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [" + std::to_string(cells) +
        ", 3, 3], element: hex8}}\n"
        "materials: [{region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}]\n"
        "boundary_conditions: [{region: xmin, type: fixed}]\n"
        "time: {integrator: static, dt: 1, steps: 1}\n";
    Simulation r = start(yaml);
    petsc::Matrix A = r.system().create_operator();
    r.system().fill_operator(0, 1, 0, A);
    MatSetOption(A, MAT_SPD, PETSC_TRUE);
    e.push_back(estimate_cholesky(A));
    ASSERT_TRUE(e.back().available) << e.back().why_not;
  }
  EXPECT_GT(e[1].factor_entries, 3 * e[0].factor_entries);
  EXPECT_GT(e[1].flops, 3 * e[0].flops);
  EXPECT_GT(e[0].memory_per_rank, 0);
  EXPECT_GT(available_memory_per_rank(MPI_COMM_WORLD), 0);
}

TEST(DirectSolver, SingularOperatorIsAnErrorNotAWrongAnswer) {
  // A static beam with no support: K is singular. CG + GAMG fails on it; a factorisation would
  // return a finite, wrong displacement, so the first solve's residual is checked.
  const std::string yaml =
      "mesh: {box: {lower: [0, 0, 0], upper: [1, 0.1, 0.1], cells: [10, 2, 2], element: hex8}}\n"
      "materials: [{region: all, density: 7800, youngs_modulus: 2.1e11, poissons_ratio: 0.3}]\n"
      "boundary_conditions: [{region: xmax, type: traction, value: [0, 0, -1.0e6]}]\n"
      "time: {integrator: static, dt: 1, steps: 1, linear_solver: direct}\n";
  Simulation r = start(yaml);
  try {
    r.integrator->step(r.system(), r.state, 1.0);
    FAIL() << "no error for a singular operator";
  } catch (const SolverError& e) {
    EXPECT_NE(std::string(e.what()).find("is singular"), std::string::npos) << e.what();
  }
  // With supports the same check passes (the residual of a factorisation is round-off).
  std::string supported = yaml;
  supported.replace(supported.find("[{region: xmax"), 1, "[{region: xmin, type: fixed}, ");
  Simulation held = start(supported);
  EXPECT_NO_THROW(held.integrator->step(held.system(), held.state, 1.0));
}

TEST_F(TightSolves, ModeratelyStiffStepsTakePlainAggregation) {
  // GAMG by plain aggregation up to k omega_max^2 / m = 250 (Newmark: 15.8x the stable step),
  // smoothed beyond; the log line says which, and both give the factorisation's answer.
  auto steps_at = [](double times_stable, const std::string& linear_solver) {
    Simulation r = start(cantilever(linear_solver));
    MechanicalSystem& s = r.system();
    const double omega = estimate_highest_frequency(s, 50, true).power;
    s.set_highest_frequency(omega);  // as the driver does
    const double dt = times_stable * 2 / omega;
    Outcome o;
    for (int n = 0; n < 5; ++n)
      o.iterations += r.integrator->step(s, r.state, dt).linear_iterations;
    o.notes = s.take_solver_notes();
    PetscScalar sum = 0;
    VecSum(r.state.u, &sum);
    o.tip = PetscRealPart(sum);
    return o;
  };
  for (double times : {10.0, 20.0}) {
    const Outcome iterative = steps_at(times, "iterative");
    const Outcome direct = steps_at(times, "direct");
    ASSERT_EQ(iterative.notes.size(), 1u);
    const bool plain = times * times <= MechanicalSystem::plain_aggregation_limit;
    EXPECT_EQ(mentions(iterative.notes, "plain aggregation (k omega_max^2 / m = "), plain)
        << iterative.notes[0];
    EXPECT_NE(direct.tip, 0.0);
    EXPECT_NEAR(iterative.tip / direct.tip, 1.0, 1e-9) << times;
  }
}
