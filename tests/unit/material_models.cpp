// The constitutive models (material/constitutive.hpp): every registry row's example parses to its
// model, the elastic models are their fe/hyperelastic.hpp laws, J2's point stress is the return
// map's (perfect plasticity in shear: the stress stays on the yield surface, exactly), and a new
// law is one row.

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "inertia/core/case_node.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/material/constitutive.hpp"

namespace inertia::material {
namespace {

const std::string file = "case.yaml";

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

TEST(MaterialModels, EveryRowsExampleParsesToItsModel) {
  ASSERT_GE(model_entries().size(), 6u);
  for (const auto& e : model_entries()) {
    SCOPED_TRACE(std::string(e.name));
    EXPECT_FALSE(e.summary.empty());
    const SolidMaterial s = parse(e.example);
    EXPECT_EQ(s.model->name(), e.name);
    EXPECT_GT(s.density, 0);
    EXPECT_GT(s.elastic().youngs_modulus, 0);
  }
  for (const char* law : {"linear_elastic", "corotational", "saint_venant_kirchhoff", "neo_hookean",
                          "hencky", "j2"}) {
    bool found = false;
    for (const auto& e : model_entries()) found = found || e.name == law;
    EXPECT_TRUE(found) << law;
  }
}

TEST(MaterialModels, ElasticModelsAreTheirLaws) {
  const double F[9] = {1.02, 0.01, -0.003, 0.004, 0.99, 0.002, -0.001, 0.005, 1.01};
  for (const auto& law : fe::material_laws()) {
    SCOPED_TRACE(std::string(law.name));
    const SolidMaterial s = parse(std::string("{region: all, model: ") + std::string(law.name) +
                                  ", density: 1000, youngs_modulus: 1.0e7, poissons_ratio: 0.3}");
    EXPECT_EQ(&s.law(), &law);
    EXPECT_EQ(s.model->hyperelastic_law(), &law);
    EXPECT_EQ(s.model->j2(), nullptr);
    EXPECT_EQ(s.model->state_size(), 0);
    EXPECT_EQ(s.is_linear(), law.linear);
    double P[9], A[81], Pr[9], Ar[81];
    const double W = s.model->point_stress(F, nullptr, nullptr, P, A);
    const double Wr = fe::material_response(law, s.lame(), F, Pr, Ar);
    EXPECT_EQ(W, Wr);
    for (int k = 0; k < 9; ++k) EXPECT_EQ(P[k], Pr[k]);
    for (int k = 0; k < 81; ++k) EXPECT_EQ(A[k], Ar[k]);
  }
}

TEST(MaterialModels, J2InShearStaysOnTheYieldSurface) {
  const SolidMaterial s = parse(
      "{region: all, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3, "
      "plasticity: {yield_stress: 2.5e8}}");
  ASSERT_NE(s.model->j2(), nullptr);
  EXPECT_EQ(s.model->hyperelastic_law(), nullptr);
  EXPECT_FALSE(s.is_linear());
  EXPECT_TRUE(s.plastic());
  EXPECT_EQ(s.model->describe(), "linear_elastic + J2 plasticity");
  const double mu = s.mu(), sy = 2.5e8;
  // Simple shear eps_xy = g, ten times the strain at first yield (sqrt(3) 2 mu g = sigma_y).
  const double g = 10 * sy / (2 * std::sqrt(3.0) * mu);
  const double F[9] = {1, g, 0, g, 1, 0, 0, 0, 1};
  std::vector<double> committed(s.model->state_size(), 0.0), trial(committed.size());
  double P[9];
  s.model->point_stress(F, committed.data(), trial.data(), P);
  EXPECT_NEAR(P[1], sy / std::sqrt(3.0), 1e-9 * sy);  // perfect plasticity: tau = sigma_y / sqrt 3
  EXPECT_NEAR(P[3], P[1], 1e-9 * sy);
  const double alpha = trial[fe::J2State::equivalent_plastic_strain];
  // The plastic shear strain is what the elastic one lost: eps_p,xy = g - tau / (2 mu), and
  // alpha = sqrt(2/3) |eps_p| = sqrt(2/3) sqrt(2) eps_p,xy.
  EXPECT_NEAR(alpha, 2 / std::sqrt(3.0) * (g - sy / std::sqrt(3.0) / (2 * mu)), 1e-9 * alpha);
  // Linear hardening dissipates sigma_y per unit of alpha, exactly.
  EXPECT_NEAR(s.model->dissipation(committed.data(), trial.data()), sy * alpha, 1e-9 * sy * alpha);
}

TEST(MaterialModels, FiniteJ2IsHenckyBelowYield) {
  const SolidMaterial plastic = parse(
      "{region: all, model: hencky, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3, "
      "plasticity: {yield_stress: 2.5e8}}");
  const SolidMaterial elastic = parse(
      "{region: all, model: hencky, density: 7850, youngs_modulus: 2.0e11, poissons_ratio: 0.3}");
  const double F[9] = {1.0004, 0.0002, 0, 0.0001, 0.9999, 0, 0, 0.0001, 1.0002};
  std::vector<double> committed(plastic.model->state_size(), 0.0), trial(committed.size());
  double P[9], Pe[9];
  plastic.model->point_stress(F, committed.data(), trial.data(), P);
  elastic.model->point_stress(F, nullptr, nullptr, Pe);
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(P[k], Pe[k], 1e-9 * 2.5e8) << k;
  EXPECT_EQ(trial[fe::J2State::equivalent_plastic_strain], 0.0);
}

TEST(MaterialModels, TheModelsReadTheirOwnKeys) {
  // Messages are the case file's, with the key path of the model's key.
  EXPECT_NE(error_of("{region: all, model: neo_hookean, density: 1, youngs_modulus: 1, "
                     "poissons_ratio: 0.3, plasticity: {yield_stress: 1}}")
                .find("materials[0].plasticity: J2 plasticity takes model linear_elastic"),
            std::string::npos);
  EXPECT_NE(error_of("{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3, "
                     "plasticity: {yield_stress: 1, voce: {saturation: 1}}}")
                .find("materials[0].plasticity.voce: missing key 'rate'"),
            std::string::npos);
  EXPECT_NE(error_of("{region: all, density: 1, youngs_modulus: 1, poissons_ratio: 0.3, "
                     "formulation: fbar}")
                .find("fbar takes model hencky with plasticity (not linear_elastic without"),
            std::string::npos);
  EXPECT_EQ(error_of("{region: all, model: hencky, density: 1, youngs_modulus: 1, "
                     "poissons_ratio: 0.3, formulation: fbar, plasticity: {yield_stress: 1e-3}}"),
            "");
  // The fingerprint: E and nu, then the hardening's keys for a plastic model only.
  Hasher a, b, c;
  parse("{region: all, density: 1, youngs_modulus: 2, poissons_ratio: 0.3}").model->fingerprint(a);
  b.add(2.0).add(0.3);
  EXPECT_EQ(a.digest(), b.digest());
  parse(
      "{region: all, density: 1, youngs_modulus: 2, poissons_ratio: 0.3, plasticity: "
      "{yield_stress: 1e-3}}")
      .model->fingerprint(c);
  b.add(1e-3).add(0.0).add(0.0);
  EXPECT_EQ(c.digest(), b.digest());
}

// A law of one file and one row: linear elasticity with E times a factor of its own key (a
// stand-in for a law with parameters of its own).
class Stiffer final : public ConstitutiveModel {
 public:
  using ConstitutiveModel::ConstitutiveModel;
  std::string_view name() const override { return "stiffer"; }
  const fe::MaterialLaw& elastic_law() const override { return fe::material_law("linear_elastic"); }
  double point_stress(const double* F, const double*, double*, double* P, double* A,
                      double) const override {
    return fe::material_response(elastic_law(), elastic_.lame(), F, P, A);
  }
};

std::shared_ptr<const ConstitutiveModel> parse_stiffer(const case_yaml::Node& m,
                                                       std::shared_ptr<const ConstitutiveModel>) {
  ElasticModuli e = parse_elastic_moduli(m);
  m["stiffer"].expect_map({"factor"});
  e.youngs_modulus *= m["stiffer"]["factor"].positive();
  return std::make_shared<Stiffer>(e);
}

TEST(MaterialModels, ANewLawIsOneRow) {
  register_model({"stiffer", "linear elasticity with E times a factor",
                  "{region: all, model: stiffer, density: 1, youngs_modulus: 3, poissons_ratio: "
                  "0.25, stiffer: {factor: 2}}",
                  "stiffer", false, parse_stiffer});
  const SolidMaterial s = parse(
      "{region: all, model: stiffer, density: 1, youngs_modulus: 3, poissons_ratio: 0.25, "
      "stiffer: {factor: 2}}");
  EXPECT_EQ(s.model->name(), "stiffer");
  EXPECT_EQ(s.elastic().youngs_modulus, 6);
  EXPECT_TRUE(s.is_linear());
  EXPECT_NE(error_of("{region: all, model: neo_hookean, density: 1, youngs_modulus: 3, "
                     "poissons_ratio: 0.25, stiffer: {factor: 2}}")
                .find("materials[0].stiffer: belongs to model stiffer"),
            std::string::npos);
  EXPECT_THROW(register_model({"stiffer", "", "", nullptr, false, parse_stiffer}), Error);
}

}  // namespace
}  // namespace inertia::material
