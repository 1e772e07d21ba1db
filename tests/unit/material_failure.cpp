// The failure criteria of element erosion (material/failure.hpp): the `failure:` key's reading
// and refusals, the principal strains against closed forms, the triaxiality of the standard
// stress states and Johnson-Cook's failure strain against its formula.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "inertia/core/case_node.hpp"
#include "inertia/core/error.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/material/failure.hpp"

namespace inertia::material {
namespace {

const std::string file = "case.yaml";
const std::string steel =
    "{region: all, density: 7800, youngs_modulus: 2.0e11, poissons_ratio: 0.3, ";

SolidMaterial parse(const std::string& yaml) {
  return parse_solid_material(case_yaml::Node{YAML::Load(yaml), "materials[0]", &file});
}

std::string error_of(const std::string& yaml) {
  try {
    parse(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MaterialFailure, ReadsEachCriterion) {
  const SolidMaterial none = parse(steel + "plasticity: {yield_stress: 2.5e8}}");
  EXPECT_FALSE(none.failure);
  const SolidMaterial ep = parse(steel +
                                 "plasticity: {yield_stress: 2.5e8}, failure: "
                                 "{equivalent_plastic_strain: 0.3}}");
  ASSERT_TRUE(ep.failure);
  EXPECT_EQ(ep.failure->kind, FailureCriterion::Kind::equivalent_plastic_strain);
  EXPECT_EQ(ep.failure->limit, 0.3);
  const SolidMaterial e1 = parse(steel + "model: hencky, failure: {principal_strain: 0.1}}");
  ASSERT_TRUE(e1.failure);
  EXPECT_EQ(e1.failure->kind, FailureCriterion::Kind::principal_strain);
  EXPECT_EQ(e1.failure->limit, 0.1);
  const SolidMaterial jc = parse(steel +
                                 "plasticity: {yield_stress: 2.5e8}, failure: {johnson_cook: "
                                 "{d1: 0.05, d2: 3.44, d3: -2.12, d4: 0.002, reference_rate: 1}}}");
  ASSERT_TRUE(jc.failure);
  EXPECT_EQ(jc.failure->kind, FailureCriterion::Kind::johnson_cook);
  EXPECT_EQ(jc.failure->d2, 3.44);
  EXPECT_EQ(jc.failure->d4, 0.002);
}

TEST(MaterialFailure, RefusesWhatCannotErode) {
  EXPECT_NE(error_of(steel + "failure: {principal_strain: 0.1}}").find("nonlinear model"),
            std::string::npos);
  EXPECT_NE(error_of(steel + "model: hencky, failure: {equivalent_plastic_strain: 0.3}}")
                .find("reads the plastic state"),
            std::string::npos);
  EXPECT_NE(error_of(steel + "model: hencky, failure: {principal_strain: 0.1, "
                             "equivalent_plastic_strain: 0.3}}")
                .find("exactly one criterion"),
            std::string::npos);
  EXPECT_NE(error_of(steel + "model: hencky, failure: {principal_strain: -0.1}}").find("> 0"),
            std::string::npos);
  EXPECT_NE(
      error_of(steel + "plasticity: {yield_stress: 2.5e8}, failure: {johnson_cook: {d1: -1, d2: "
                       "0.1, d3: 1}}}")
          .find("must be > 0"),
      std::string::npos);
}

TEST(MaterialFailure, PrincipalStrainsOfKnownGradients) {
  // Uniaxial stretch 0.02 along y: small strain 0.02, log strain ln 1.02.
  const double stretch[9] = {0, 0, 0, 0, 0.02, 0, 0, 0, 0};
  EXPECT_NEAR(largest_principal_strain(stretch, false), 0.02, 1e-15);
  EXPECT_NEAR(largest_principal_strain(stretch, true), std::log(1.02), 1e-14);
  // Simple shear gamma: small-strain principal gamma / 2; finite: the largest stretch of
  // F = [[1, g], [0, 1]] is g / 2 + sqrt(1 + g^2 / 4).
  const double g = 0.1;
  const double shear[9] = {0, g, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_NEAR(largest_principal_strain(shear, false), g / 2, 1e-15);
  EXPECT_NEAR(largest_principal_strain(shear, true), std::log(g / 2 + std::sqrt(1 + g * g / 4)),
              1e-14);
  // A rigid rotation by 30 degrees: no strain at finite strain.
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  const double rotation[9] = {c - 1, -s, 0, s, c - 1, 0, 0, 0, 0};
  EXPECT_NEAR(largest_principal_strain(rotation, true), 0.0, 1e-14);
}

TEST(MaterialFailure, TriaxialityAndJohnsonCookStrain) {
  const double uniaxial[6] = {3e8, 0, 0, 0, 0, 0};
  const double shear[6] = {0, 0, 0, 2e8, 0, 0};
  const double biaxial[6] = {3e8, 3e8, 0, 0, 0, 0};
  EXPECT_NEAR(triaxiality(uniaxial), 1.0 / 3, 1e-15);
  EXPECT_NEAR(triaxiality(shear), 0.0, 1e-15);
  EXPECT_NEAR(triaxiality(biaxial), 2.0 / 3, 1e-15);
  const double zero[6] = {0, 0, 0, 0, 0, 0};
  EXPECT_EQ(triaxiality(zero), 0.0);
  FailureCriterion jc;
  jc.kind = FailureCriterion::Kind::johnson_cook;
  jc.d1 = 0.05, jc.d2 = 3.44, jc.d3 = -2.12, jc.d4 = 0.002, jc.reference_rate = 1;
  EXPECT_NEAR(jc.johnson_cook_strain(1.0 / 3, 1), 0.05 + 3.44 * std::exp(-2.12 / 3), 1e-15);
  EXPECT_NEAR(jc.johnson_cook_strain(0, 1000), (0.05 + 3.44) * (1 + 0.002 * std::log(1000.0)),
              1e-14);
  // Below the reference rate the rate term is 1.
  EXPECT_EQ(jc.johnson_cook_strain(0, 0.5), jc.johnson_cook_strain(0, 1));
}

}  // namespace
}  // namespace inertia::material
