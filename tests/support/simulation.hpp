#pragma once
// Helpers shared by the MPI tests that run a scheme on a model built from an inline case file:
// tight linear solves for a test's duration, the model with its state and integrator, and a fresh
// output directory per test and rank count.
#include <gtest/gtest.h>
#include <mpi.h>

#include <filesystem>
#include <memory>
#include <string>

#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

namespace inertia::test {

/// Tight linear solves (-ksp_rtol 1e-13) so that comparisons measure the scheme, not the solver
/// tolerance.
class TightSolves : public testing::Test {
 protected:
  void SetUp() override { PetscOptionsSetValue(nullptr, "-ksp_rtol", "1e-13"); }
  void TearDown() override { PetscOptionsClearValue(nullptr, "-ksp_rtol"); }
};

struct Simulation {
  Model model;
  State state;
  std::unique_ptr<Integrator> integrator;
  MechanicalSystem& system() { return *model.system; }
};

/// Collective. The case's model with u = 0, its initial velocity, the constraints at t = 0, and
/// its scheme initialised.
inline Simulation start(const std::string& yaml, MPI_Comm comm = MPI_COMM_WORLD) {
  const CaseFile c = parse_case(yaml, "test_case.yaml");
  Simulation r{build_model(comm, c), {}, nullptr};
  MechanicalSystem& s = *r.model.system;
  r.state.u = s.create_vector();
  r.state.v = s.create_vector();
  for (const auto& iv : s.spec().initial_velocity) {
    petsc::Array v(r.state.v);
    for (PetscInt i = 0; i < v.size(); ++i) v[i] = iv.value[i % 3];
  }
  s.apply_constraints(0.0, r.state.u, r.state.v, nullptr);
  r.integrator = c.scheme.create();
  r.integrator->initialize(s, r.state);
  return r;
}

/// Collective. An empty directory for the running test: <build>/test_output/<group>/np<N>/
/// <suite>.<test> (ctest runs np 1, 2 and 3 at once).
inline std::filesystem::path fresh_output_dir(const std::string& group) {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& ch : name)
    if (ch == '/') ch = '_';  // parameterised tests
  const auto dir = std::filesystem::path(INERTIA_BINARY_DIR) / "test_output" / group /
                   ("np" + std::to_string(size_of(MPI_COMM_WORLD))) / name;
  if (rank_of(MPI_COMM_WORLD) == 0) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return dir;
}

}  // namespace inertia::test
