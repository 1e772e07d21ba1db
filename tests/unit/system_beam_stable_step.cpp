// A beam element's critical step (system/stable_step.hpp: beam_critical_step) against 2 /
// omega_max of its own 12 x 12 stiffness and lumped mass (fe/beam.hpp), omega_max from a Jacobi
// eigenvalue iteration of M^-1/2 K M^-1/2 written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../support/symmetric_eigenvalues.hpp"
#include "inertia/fe/beam.hpp"
#include "inertia/system/stable_step.hpp"

namespace inertia {
namespace {

/// 2 / omega_max of the element's local K and lumped M.
double element_step(double L, const fe::BeamSectionProperties& s, const fe::BeamMaterial& m,
                    bool shear_deformable) {
  std::array<double, 144> K{};
  fe::beam_local_stiffness(L, s, m, shear_deformable, K.data());
  const double x0[3] = {0, 0, 0}, x1[3] = {L, 0, 0};
  double lumped[12];
  fe::beam_lumped_mass(x0, x1, s, m, lumped);
  // Both in the cell's DOF order [u0, u1, theta0, theta1] (fe/beam.hpp).
  std::array<double, 144> A{};
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) A[12 * i + j] = K[12 * i + j] / std::sqrt(lumped[i] * lumped[j]);
  return 2 /
         std::sqrt(
             testing::symmetric_eigenvalues(std::vector<double>(A.begin(), A.end()), 12).back());
}

const fe::BeamMaterial steel{
    .youngs_modulus = 2.1e11, .shear_modulus = 2.1e11 / 2.6, .density = 7850};

TEST(BeamStableStep, EqualsTheElementsOwnOmegaMaxForEveryShape) {
  struct Case {
    const char* what;
    double L;
    fe::BeamSectionProperties s;
    bool timoshenko;
  };
  const fe::BeamSectionProperties rect = fe::rectangle_section(0.1, 0.2, 0.3);
  const fe::BeamSectionProperties ipe = fe::i_section(0.3, 0.15, 0.0107, 0.0071, 0.3);
  const Case cases[] = {{"long rectangle", 2.0, rect, false},
                        {"stocky rectangle", 0.05, rect, false},
                        {"stocky rectangle, Timoshenko", 0.05, rect, true},
                        {"medium I, Timoshenko", 0.4, ipe, true},
                        {"long I", 3.0, ipe, false},
                        {"one of beam_cantilever_16",
                         0.125,
                         {.area = 0.01, .iy = 8e-5, .iz = 2e-5, .torsion = 1e-5},
                         false}};
  for (const Case& c : cases) {
    const BeamCriticalStep got = beam_critical_step(c.L, c.s, steel, c.timoshenko);
    const double want = element_step(c.L, c.s, steel, c.timoshenko);
    EXPECT_NEAR(got.time, want, 1e-12 * want) << c.what << " (" << got.mode << ")";
    EXPECT_DOUBLE_EQ(got.wave_speed, std::sqrt(steel.youngs_modulus / steel.density));
  }
}

TEST(BeamStableStep, LongElementsAreAxialLimitedStockyOnesBending) {
  const fe::BeamSectionProperties rect = fe::rectangle_section(0.1, 0.2, 0.3);
  const double c = std::sqrt(steel.youngs_modulus / steel.density);
  // Long: the axial mode, 2 / omega = L / c exactly.
  const BeamCriticalStep axial = beam_critical_step(2.0, rect, steel, false);
  EXPECT_EQ(std::string(axial.mode), "axial");
  EXPECT_NEAR(axial.time, 2.0 / c, 1e-14 * axial.time);
  // Stocky (L / r = 0.87): the deflection mode, well below L / c.
  const BeamCriticalStep bending = beam_critical_step(0.05, rect, steel, false);
  EXPECT_EQ(std::string(bending.mode), "bending");
  EXPECT_LT(bending.time, 0.5 * 0.05 / c);
  // The same stocky element as Timoshenko: phi = 12 E I / (G As L^2) = 49 lowers the bending
  // modes below the axial one, which limits: L / c again.
  const BeamCriticalStep shear = beam_critical_step(0.05, rect, steel, true);
  EXPECT_EQ(std::string(shear.mode), "axial");
  EXPECT_NEAR(shear.time, 0.05 / c, 1e-14 * shear.time);
  // Torsion never limits: I_r >= rho (Iy + Iz) L / 2 and J <= Iy + Iz give omega_t^2 <= 4 G /
  // (rho L^2) < the axial 4 E / (rho L^2).
  EXPECT_EQ(beam_critical_step(0.0, rect, steel, false).time, 0.0);
}

}  // namespace
}  // namespace inertia
