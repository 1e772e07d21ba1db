// The matrix-free stiffness (time.operator: matrix_free) against the assembled K: the same
// products to 1e-12 relative for hex8 (a skewed block: no parallelepiped cells) and tet4 (an
// unstructured cube), with ghosted and plain vectors; the same explicit runs; clear errors where
// it does not apply.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "inertia/app/case_file.hpp"
#include "inertia/app/model.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/time/integrator.hpp"

using namespace inertia;

namespace {

/// hex8: a skewed, tapered block of hexahedra (no cell is a parallelepiped, so the quadrature
/// data differs per point); tet4: the unstructured unit cube; tet10: the box generator.
std::string box_case(const std::string& element, const std::string& op,
                     const std::string& integrator = "central_difference") {
  const std::string dir = INERTIA_SOURCE_DIR "/meshes/";
  std::string mesh, volume = "block", fixed = "fixed", loaded = "loaded", formulation;
  if (element == "hex8_reduced") formulation = ", formulation: reduced";
  if (element == "hex8" || element == "hex8_reduced") {
    mesh = "{file: " + dir + "skewed_block.msh}";
  } else if (element == "tet4") {
    mesh = "{file: " + dir + "unit_cube_tet.msh}";
    volume = "cube", fixed = "xmin", loaded = "xmax";
  } else {
    mesh =
        "{box: {lower: [0, 0, 0], upper: [1.0, 0.6, 0.4], cells: [3, 2, 2], element: " + element +
        "}}";
    volume = "all", fixed = "xmin", loaded = "xmax";
  }
  return "mesh: " + mesh + "\n" + "materials: [{region: " + volume +
         ", density: 7.5, youngs_modulus: 210.0, poissons_ratio: 0.3" + formulation +
         "}]\n"
         "boundary_conditions:\n"
         "  - {region: " +
         fixed +
         ", type: fixed}\n"
         "  - {region: " +
         loaded +
         ", type: traction, value: [0.1, -0.2, 0.3]}\n"
         "time: {integrator: " +
         integrator +
         ", dt: 1.0e-3, steps: 40, mass: lumped, "
         "rayleigh: {mass: 0.5, stiffness: 1.0e-3}, operator: " +
         op + "}\n";
}

Model model_of(MPI_Comm comm, const std::string& yaml) {
  return build_model(comm, parse_case(yaml, "matrix_free.yaml"));
}

double relative_difference(Vec a, Vec b) {
  petsc::Vector d = petsc::duplicate(a);
  VecWAXPY(d, -1.0, a, b);
  PetscReal nd = 0, na = 0;
  VecNorm(d, NORM_2, &nd);
  VecNorm(a, NORM_2, &na);
  return nd / na;
}

class MatrixFree : public ::testing::TestWithParam<std::string> {};

TEST_P(MatrixFree, ProductEqualsAssembledStiffness) {
  const MPI_Comm comm = PETSC_COMM_WORLD;
  Model assembled = model_of(comm, box_case(GetParam(), "assembled"));
  Model free = model_of(comm, box_case(GetParam(), "matrix_free"));
  ASSERT_EQ(assembled.system->matrix_free(), nullptr);
  ASSERT_NE(free.system->matrix_free(), nullptr);
  // A matrix-free model holds no sparsity pattern (about 1 KB per DOF on a hex8 grid).
  EXPECT_TRUE(assembled.system->assembler().has_pattern());
  EXPECT_FALSE(free.system->assembler().has_pattern());
  ASSERT_EQ(assembled.system->num_global_dofs(), free.system->num_global_dofs());
  // The same partition (deterministic METIS), so the same DOF numbering: compare entrywise.
  petsc::Vector x = assembled.system->create_vector();
  PetscRandom rng;
  PetscRandomCreate(comm, &rng);
  PetscRandomSetSeed(rng, 11);
  PetscRandomSeed(rng);
  VecSetRandom(x, rng);
  PetscRandomDestroy(&rng);
  petsc::Vector ya = assembled.system->create_vector(), yf = free.system->create_vector();
  assembled.system->mult_stiffness(x, ya);
  free.system->mult_stiffness(x, yf);
  const double ghosted = relative_difference(ya, yf);
  EXPECT_LT(ghosted, 1e-12) << GetParam();
  // A plain (not ghosted) vector goes through the operator's own ghosted copies.
  petsc::Vector plain, yp;
  PetscInt n = 0;
  VecGetLocalSize(x, &n);
  VecCreateMPI(comm, n, PETSC_DETERMINE, plain.out());
  VecDuplicate(plain, yp.out());
  VecCopy(x, plain);
  MatMult(free.system->stiffness(), plain, yp);
  EXPECT_LT(relative_difference(ya, yp), 1e-12) << GetParam();
  // The product is not trivially zero or the identity.
  PetscReal norm_y = 0, norm_x = 0;
  VecNorm(ya, NORM_2, &norm_y);
  VecNorm(x, NORM_2, &norm_x);
  EXPECT_GT(norm_y, 1e-3 * norm_x);
  // Rigid translations are in K's null space for both.
  VecSet(x, 1.0);
  free.system->mult_stiffness(x, yf);
  PetscReal rigid = 0;
  VecNorm(yf, NORM_INFINITY, &rigid);
  EXPECT_LT(rigid, 1e-12 * norm_y) << GetParam();
  if (rank_of(comm) == 0)
    std::printf("[ matrix-free %s ] |K x - K_mf x| / |K x| = %.3e, %zu bytes per product\n",
                GetParam().c_str(), ghosted, free.system->matrix_free()->bytes_per_product());
}

TEST_P(MatrixFree, ExplicitRunEqualsAssembled) {
  const MPI_Comm comm = PETSC_COMM_WORLD;
  double tip[2][3];
  for (int k = 0; k < 2; ++k) {
    CaseFile c = parse_case(box_case(GetParam(), k ? "matrix_free" : "assembled"), "mf.yaml");
    Model model = build_model(comm, c);
    MechanicalSystem& s = *model.system;
    State state;
    state.u = s.create_vector();
    state.v = s.create_vector();
    auto integrator = c.scheme.create();
    integrator->initialize(s, state);
    for (int n = 0; n < 40; ++n) integrator->step(s, state, c.dt);
    PetscReal norms[3];
    VecNorm(state.u, NORM_2, &norms[0]);
    VecNorm(state.v, NORM_2, &norms[1]);
    norms[2] = s.strain_energy(state.u);
    for (int i = 0; i < 3; ++i) tip[k][i] = norms[i];
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_GT(std::abs(tip[0][i]), 0.0);
    EXPECT_NEAR(tip[1][i], tip[0][i], 1e-12 * std::abs(tip[0][i])) << GetParam() << " " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Elements, MatrixFree, ::testing::Values("hex8", "tet4", "hex8_reduced"));

TEST(MatrixFreeErrors, RefusedWhereItDoesNotApply) {
  const MPI_Comm comm = PETSC_COMM_WORLD;
  // tet10 cells: not covered by the kernel.
  EXPECT_THROW(build_model(comm, parse_case(box_case("tet10", "matrix_free"), "mf.yaml")),
               InputError);
  // An implicit scheme needs the assembled stiffness: refused when the case is read.
  try {
    parse_case(box_case("hex8", "matrix_free", "newmark"), "mf.yaml");
    ADD_FAILURE() << "newmark with matrix_free was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("matrix_free needs an explicit scheme"), std::string::npos)
        << e.what();
  }
}

}  // namespace
