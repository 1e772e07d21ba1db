// Modal analysis (modal/modal.hpp) on any rank count: a clamped beam's bending frequencies
// converge under refinement to just below Euler-Bernoulli (shear and rotary inertia); a thick
// simply supported plate's converge at fourth order to the exact 3D elasticity solution; NAFEMS
// FV52 on its own coarse mesh; a free body has six rigid-body modes at 0 Hz whose effective masses
// add up to its mass, and the frequencies do not depend on the rank count.
#include <gtest/gtest.h>

#include <array>
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

/// The 10 x 10 x 1 m steel plate of NAFEMS FV52 (E 200 GPa, nu 0.3, rho 8000) with the sides
/// simply supported the way a 3D elasticity solution separates: on x = 0 and 10, u_y = u_z = 0;
/// on y = 0 and 10, u_x = u_z = 0 (normal displacement free). tet10 from the box generator,
/// n x n x n/4 cubes.
std::string simply_supported_plate(int n) {
  return "mesh: {box: {lower: [0, 0, 0], upper: [10, 10, 1], cells: [" + std::to_string(n) + ", " +
         std::to_string(n) + ", " + std::to_string(n / 4) +
         "], element: tet10}}\n"
         "materials: [{region: all, density: 8000, youngs_modulus: 2.0e11, poissons_ratio: 0.3}]\n"
         "boundary_conditions:\n"
         "  - {region: xmin, type: fixed, components: [y, z]}\n"
         "  - {region: xmax, type: fixed, components: [y, z]}\n"
         "  - {region: ymin, type: fixed, components: [x, z]}\n"
         "  - {region: ymax, type: fixed, components: [x, z]}\n"
         "modal: {modes: 6, mass: consistent}\n";
}

TEST(ModalAnalysis, ThickPlateConvergesToThreeDimensionalElasticity) {
  // Exact 3D elasticity frequencies (Hz) of that plate: each mode is sin/cos in x and y times a
  // function of z, found by a Legendre Rayleigh-Ritz in z converged to 1e-9
  // (examples/plate_modes/exact.py). (m, n) half-waves: (1,1) bending, (1,2) = (2,1) bending,
  // (0,1) = (1,0) in-plane shear, (2,2) bending. Mindlin plate theory, NAFEMS's thick-plate
  // reference, gives 45.897, 109.44, 167.89 Hz for the bending ones: 0.16-0.55 % lower.
  const double exact[6] = {45.971212, 109.856862, 109.856862, 155.043418, 155.043418, 168.819294};
  std::vector<std::array<double, 6>> error;
  for (int n : {4, 8, 12}) {
    const ModalResult r = modes_of(MPI_COMM_WORLD, simply_supported_plate(n));
    ASSERT_EQ(r.modes.size(), 6u);
    std::array<double, 6> e{};
    for (int i = 0; i < 6; ++i) {
      EXPECT_FALSE(r.modes[i].rigid);
      e[i] = r.modes[i].frequency / exact[i] - 1;
      // A conforming Rayleigh-Ritz approximation with the consistent mass: from above.
      EXPECT_GT(e[i], -1e-9) << "n " << n << " mode " << i + 1;
    }
    if (rank_of(MPI_COMM_WORLD) == 0)
      std::printf(
          "  %2dx%2dx%d tet10: (1,1) %+.4f %%, (1,2) %+.4f %%, (2,1) %+.4f %%, (0,1) %+.1e, "
          "(2,2) %+.4f %%\n",
          n, n, n / 4, 100 * e[0], 100 * e[1], 100 * e[2], e[3], 100 * e[5]);
    error.push_back(e);
  }
  // Quadratic elements: eigenvalue errors O(h^4). Observed order from 8 to 12 cells (3.7-3.8).
  for (int i : {0, 1, 2, 5}) {
    const double order = std::log(error[1][i] / error[2][i]) / std::log(12.0 / 8.0);
    EXPECT_GT(order, 3.4) << "mode " << i + 1;
    EXPECT_LT(order, 4.6) << "mode " << i + 1;
  }
  // On 12 x 12 x 3: 0.11 % (1,1), 0.21-0.32 % (1,2), 0.46 % (2,2); the in-plane shear mode, linear
  // in x and y, is exact up to the element's sine interpolation error.
  EXPECT_LT(error[2][0], 0.002);
  EXPECT_LT(error[2][1], 0.005);
  EXPECT_LT(error[2][2], 0.005);
  EXPECT_LT(error[2][3], 1e-5);
  EXPECT_LT(error[2][5], 0.006);
}

TEST(ModalAnalysis, NafemsFv52OnItsOwnMesh) {
  // NAFEMS FV52 as specified: the out-of-plane displacement held along the four edges of the
  // bottom face, nothing else, so the three in-plane rigid-body modes come first. Its reference
  // is itself a finite element solution on 4 x 4 x 1 twenty-node bricks; here the same grid of
  // tet10 (six per cube), the support every node of the edges' 3-node lines (32 nodes: the
  // corners and the edges' midpoints, as the bricks' support holds them). A displacement held on
  // a line of a 3D body has no continuum limit (it softens under refinement), so the benchmark
  // is compared on its own mesh, and the convergence study above uses the side faces.
  const std::string yaml = "mesh: {file: " INERTIA_SOURCE_DIR
                           "/meshes/fv52.msh}\n"
                           "materials: [{region: plate, density: 8000, youngs_modulus: 2.0e11, "
                           "poissons_ratio: 0.3}]\n"
                           "boundary_conditions: [{region: supported, type: fixed, components: "
                           "[z]}]\n"
                           "modal: {modes: 10, mass: consistent}\n";
  const ModalResult r = modes_of(MPI_COMM_WORLD, yaml);
  ASSERT_EQ(r.modes.size(), 10u);
  const double mass = 8000 * 10 * 10 * 1;
  std::array<double, 3> rigid_mass{};
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(r.modes[i].rigid) << i;
    for (int d = 0; d < 3; ++d) rigid_mass[d] += r.modes[i].effective_mass[d];
  }
  EXPECT_NEAR(rigid_mass[0] / mass, 1.0, 1e-8);  // the in-plane translations
  EXPECT_NEAR(rigid_mass[1] / mass, 1.0, 1e-8);
  EXPECT_LT(rigid_mass[2] / mass, 1e-8);
  // Modes 4-10 against CalculiX 2.20's C3D10 on the same mesh and support (ccx, *FREQUENCY; the
  // nodes, the tet10 cells in CalculiX's order and the 32 supported nodes written from
  // meshes/fv52.msh): 0.07 % to 0.67 % below it (46.844 against 46.876 Hz for mode 4, 188.28
  // against 189.55 for mode 7), every mode below it; the same offset (-0.06 % to -0.62 %) holds
  // with the corners alone held (45.48 against 45.51), so it is the two programs' tet10 (their
  // mass integration, most likely), not the support; not traced further. Against NAFEMS' bricks
  // the tetrahedra are stiffer: +2.1, +5.8,
  // +10.8, +12.1, +0.28, +0.02, +0.28 %. (Until the 3-node edges' midpoints were read into
  // the support, only the corners were held: 45.48 Hz, within 1 % of NAFEMS by accident.)
  const double calculix[7] = {46.87638, 116.1095, 121.7809, 189.5523, 194.2566, 206.8307, 207.3460};
  for (int i = 3; i < 10; ++i) {
    EXPECT_FALSE(r.modes[i].rigid) << i;
    const double ratio = r.modes[i].frequency / calculix[i - 3];
    EXPECT_LT(ratio, 1.0) << "mode " << i + 1;
    EXPECT_GT(ratio, 0.992) << "mode " << i + 1;
  }
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
