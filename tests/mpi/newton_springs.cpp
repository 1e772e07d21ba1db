// Newton through SNES on geometrically nonlinear spring systems: quadratic convergence to the
// exact large-deflection equilibrium of a pre-stretched V of springs, the same on every rank
// count; the implicit variational scheme's Hamiltonian on a swinging spring pendulum.
#include <gtest/gtest.h>

#include <cmath>

#include "../support/test_model.hpp"
#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"
#include "inertia/time/newton.hpp"

using namespace inertia;
using test::dof_near;
using test::global_value;
using test::number;

namespace {}  // namespace

TEST(Newton, ConvergesQuadraticallyToTheLargeDeflectionOfASpringVee) {
  // Springs of rest length 0.8 between anchors 2 apart hold a 5 kg bob at the middle; gravity
  // pulls it down to d where 2 k (l - l0) d / l = m g, l = sqrt(1 + d^2).
  const double k = 200, l0 = 0.8, m = 5, g = 9.81;
  const CaseFile c = parse_case("mesh: {file: " INERTIA_SOURCE_DIR
                                "/tests/data/springs/vee.msh}\n"
                                "springs: [{region: springs, stiffness: 200, rest_length: 0.8}]\n"
                                "point_masses: [{region: bob, mass: 5}]\n"
                                "boundary_conditions: [{region: anchors, type: fixed}, "
                                "{region: bob, type: fixed, components: [z]}]\n"
                                "gravity: [0, -9.81, 0]\n"
                                "time: {integrator: static, dt: 1, steps: 1}\n",
                                "vee.yaml");
  Model model = build_model(MPI_COMM_WORLD, c);
  MechanicalSystem& s = *model.system;
  PetscOptionsSetValue(nullptr, "-snes_linesearch_type", "basic");  // full Newton steps
  NewtonSolver newton(s);
  PetscOptionsClearValue(nullptr, "-snes_linesearch_type");
  petsc::Vector u = s.create_vector(), zero = s.create_vector();
  NewtonSolver::Problem problem;
  problem.configuration = [](Vec y, Vec x) { VecCopy(y, x); };
  problem.residual = [&](Vec y, Vec r) {
    s.force(1.0, y, zero, r);  // full load (the static ramp is at 1 at t = 1)
    VecScale(r, -1.0);
  };
  problem.k = 1.0;
  const NewtonReport report = newton.solve(problem, u);
  double d = 0.5;  // scalar Newton on the exact equilibrium
  for (int i = 0; i < 50; ++i) {
    const double l = std::sqrt(1 + d * d);
    const double F = 2 * k * (l - l0) * d / l - m * g;
    const double dF = 2 * k * ((d / l) * (d / l) + (l - l0) / l * (1 - (d / l) * (d / l)));
    d -= F / dF;
  }
  const double sag = -global_value(u, dof_near(s, {0, 0, 0}, 1));
  if (rank_of(MPI_COMM_WORLD) == 0) {
    std::printf("  sag %.12f (exact %.12f), residual history:", sag, d);
    for (double r : report.residuals) std::printf(" %.2e", r);
    std::printf("\n");
  }
  EXPECT_NEAR(sag, d, 1e-10 * d);
  EXPECT_GT(d, 0.3);  // a large deflection: the springs turn by more than 15 degrees
  // Quadratic convergence: once in the asymptotic range, log r_{k+1} ~ 2 log r_k (relative).
  const auto& r = report.residuals;
  ASSERT_GE(r.size(), 3u);
  int quadratic_steps = 0;
  for (std::size_t i = 1; i + 1 < r.size(); ++i) {
    const double a = r[i] / r[0], b = r[i + 1] / r[0];
    if (a < 1e-2 && b > 1e-14) {
      EXPECT_GT(std::log(b) / std::log(a), 1.8) << "iteration " << i;
      ++quadratic_steps;
    }
  }
  EXPECT_GE(quadratic_steps, 1);
}

namespace {

/// Max |H - H0| / |H0| over 5 s of the swinging spring pendulum with step h, and the drift
/// measure (max over the last tenth against max over the first tenth).
std::array<double, 3> pendulum_hamiltonian(double h) {
  const int steps = static_cast<int>(std::lround(5.0 / h));
  auto c = parse_case("mesh: {file: " INERTIA_SOURCE_DIR
                      "/tests/data/springs/hanging.msh}\n"
                      "springs: [{region: spring, stiffness: 100}]\n"
                      "point_masses: [{region: bob, mass: 2}]\n"
                      "boundary_conditions: [{region: anchor, type: fixed}, "
                      "{region: bob, type: fixed, components: [z]}]\n"
                      "gravity: [0, -9.81, 0]\n"
                      "time: {integrator: variational_symplectic, dt: 0.005, steps: 1000}\n",
                      "pendulum.yaml");
  Model model = build_model(MPI_COMM_WORLD, c);
  MechanicalSystem& s = *model.system;
  State state{0.0, 0, s.create_vector(), s.create_vector()};
  const PetscInt dof = dof_near(s, {0, -1, 0}, 0);
  {
    PetscInt lo, hi;
    VecGetOwnershipRange(state.v, &lo, &hi);
    if (dof >= lo && dof < hi) VecSetValue(state.v, dof, 2.0, INSERT_VALUES);  // sideways push
    VecAssemblyBegin(state.v);
    VecAssemblyEnd(state.v);
  }
  s.apply_constraints(0.0, state.u, state.v, nullptr);
  auto integrator = c.scheme.create();
  integrator->initialize(s, state);
  const double h0 = integrator->hamiltonian(s, state);
  double worst = 0, first = 0, last = 0, swing = 0;
  for (int n = 0; n < steps; ++n) {
    integrator->step(s, state, h);
    const double dh = std::abs(integrator->hamiltonian(s, state) - h0) / std::abs(h0);
    worst = std::max(worst, dh);
    if (n < steps / 10) first = std::max(first, dh);
    if (n >= steps - steps / 10) last = std::max(last, dh);
    swing = std::max(swing, std::abs(global_value(state.u, dof)));
  }
  EXPECT_GT(swing, 0.2);  // it really swings (and stretches: the system is nonlinear)
  return {worst, first, last};
}

}  // namespace

// A nonlinear conservative system: the hanging mass pushed sideways swings and stretches. The
// midpoint variational integrator conserves a modified Hamiltonian, so the discrete H oscillates
// at O(h^2) around H_0 without drift (exactly constant only for linear systems, see
// implicit_schemes.cpp): halving h divides the oscillation by 4.
TEST(VariationalImplicit, HamiltonianOfASwingingSpringPendulumOscillatesAtSecondOrderWithoutDrift) {
  const auto coarse = pendulum_hamiltonian(0.005), fine = pendulum_hamiltonian(0.0025);
  if (rank_of(MPI_COMM_WORLD) == 0)
    std::printf("  max |H - H0|/|H0|: %.3e at h = 0.005, %.3e at h = 0.0025 (ratio %.2f)\n",
                coarse[0], fine[0], coarse[0] / fine[0]);
  EXPECT_NEAR(coarse[0] / fine[0], 4.0, 0.6);
  EXPECT_LT(coarse[0], 2e-4);
  EXPECT_LT(coarse[2], 1.5 * coarse[1]);  // no drift: the last tenth is no worse than the first
  EXPECT_LT(fine[2], 1.5 * fine[1]);
}
