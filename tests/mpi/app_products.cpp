// Products per implicit step, counted as `-log_view` counts them (PETSc's MatMult, MatMultAdd and
// MatMultTranspose events): every implicit scheme on a linear tet10 tower with a consistent mass,
// Rayleigh damping and MUMPS factored once, its supports fixed or its base shaken (an acceleration
// record), the step alone and with reactions.csv and energy.csv as the run computes them. Exact
// counts: a product added back to a step, to the reactions or to the energy balance fails here
// (issue 26; examples/guide/time_integration.md, "Prescribed motion, base excitation and the energy
// balance").
#include <gtest/gtest.h>
#include <petsclog.h>

#include <memory>
#include <string>
#include <vector>

#include "../support/simulation.hpp"
#include "../support/test_model.hpp"
#include "inertia/app/histories.hpp"
#include "inertia/parallel/session.hpp"

namespace {

using namespace inertia;

/// This rank's product events so far (all stages).
double product_events() {
  double n = 0;
  for (const char* name : {"MatMult", "MatMultAdd", "MatMultTranspose"}) {
    PetscLogEvent id = -1;
    PetscLogEventGetId(name, &id);
    PetscEventPerfInfo info{};
    PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info);
    n += info.count;
  }
  return n;
}

std::string tower(const std::string& scheme, bool moving) {
  std::string y =
      "mesh: {box: {lower: [0, 0, 0], upper: [0.4, 0.4, 3.0], cells: [2, 2, 6], element: "
      "tet10}}\n"
      "materials: [{region: all, density: 2500, youngs_modulus: 1.0e9, poissons_ratio: 0.2}]\n"
      "boundary_conditions:\n";
  if (moving)
    y += "  - {region: zmin, type: fixed, components: [y, z]}\n"
         "  - {region: zmin, type: acceleration, components: [x], value: [9.81], amplitude: q}\n"
         "amplitudes: {q: {type: sine, frequency: 2}}\n";
  else
    y += "  - {region: zmin, type: fixed}\n"
         "  - {region: zmax, type: traction, value: [1.0e4, 0, 0]}\n";
  return y + "time: {integrator: " + scheme +
         ", mass: consistent, rayleigh: {mass: 0.5, stiffness: 1.0e-4}, dt: 0.005, steps: 100, "
         "linear_solver: direct}\noutput: {every: 0}\n";
}

struct Expected {
  const char* scheme;
  bool moving;
  int step;    ///< products per step, the step alone
  int output;  ///< with reactions.csv (moving base: the Newmark family) and energy.csv
};

/// Products per step, max over ranks, of `steps` steps after two.
double per_step(MPI_Comm comm, const std::function<void()>& step, int steps) {
  for (int k = 0; k < 2; ++k) step();
  const double before = product_events();
  for (int k = 0; k < steps; ++k) step();
  double local = (product_events() - before) / steps, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

TEST(ProductsPerStep, EveryImplicitSchemeWithAndWithoutTheEnergyBalance) {
  PetscLogDefaultBegin();
  // step: one product with K and one with M (the Newmark family, euler_implicit); the
  // variational scheme's momentum one more of each (its M r_c only with a moving base).
  // output: the reactions' two products with the constrained rows, K_c (u + alpha_K v) and
  // M_c (a + alpha_M v), shared with energy.csv; energy.csv's M v_{n+1} and K u_{n+1}, K vbar for
  // alpha_K (none for the trapezoidal rule with fixed supports), and the alpha schemes' M a_{n+1}.
  const std::vector<Expected> expected{
      {"newmark", false, 2, 2 + 2},
      {"newmark", true, 2, 2 + 2 + 3},
      {"hht", false, 2, 2 + 4},
      {"hht", true, 2, 2 + 2 + 4},
      {"generalized_alpha", false, 2, 2 + 4},
      {"generalized_alpha", true, 2, 2 + 2 + 4},
      {"euler_implicit", false, 2, 2 + 3},
      {"euler_implicit", true, 2, -1},           // its balance leaves the reactions' work out
      {"variational_symplectic", false, 3, -1},  // its Hamiltonian: an iterative mass solve
      {"variational_symplectic", true, 4, -1},
  };
  const MPI_Comm comm = MPI_COMM_WORLD;
  for (const auto& e : expected) {
    SCOPED_TRACE(std::string(e.scheme) + (e.moving ? ", base shaken" : ", fixed supports"));
    for (const bool output : {false, true}) {
      if (output && e.output < 0) continue;
      test::Simulation r = test::start(tower(e.scheme, e.moving), comm);
      MechanicalSystem& s = r.system();
      const auto dir = test::fresh_output_dir("products");
      std::unique_ptr<Reactions> reactions;
      std::unique_ptr<EnergyHistory> energy;
      if (output) {
        if (e.moving)
          reactions = std::make_unique<Reactions>(s, std::vector<std::string>{"zmin", "zmin"},
                                                  dir / "reactions.csv");
        energy = std::make_unique<EnergyHistory>(s, r.state, *r.integrator, dir / "energy.csv");
      }
      const double got = per_step(
          comm,
          [&] {
            if (energy) energy->before_step(s, r.state);
            r.integrator->step(s, r.state, 0.005);
            if (reactions) reactions->record(s, r.state, *r.integrator);
            if (energy) energy->after_step(s, r.state, 0.005, 0.0);
          },
          4);
      EXPECT_EQ(got, output ? e.output : e.step) << (output ? "with reactions and energy" : "");
      if (energy && r.integrator->newmark_weights()) {
        // The balance still closes (the Newmark family books its algorithmic dissipation):
        // the products were rearranged, not dropped.
        EXPECT_LT(std::abs(energy->balance()), (e.moving ? 1e-3 : 1e-9) * energy->largest_term());
      }
    }
  }
}

}  // namespace
