// The elastic models: one per law of fe/hyperelastic.hpp (linear_elastic, corotational,
// saint_venant_kirchhoff, neo_hookean, hencky), whose kernels stay there; their keys are E and nu.
#include "entries.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/text.hpp"

namespace inertia::material {

namespace {

class HyperelasticModel final : public ConstitutiveModel {
 public:
  HyperelasticModel(const fe::MaterialLaw& law, ElasticModuli elastic)
      : ConstitutiveModel(elastic), law_(law), lame_(elastic.lame()) {}
  std::string_view name() const override { return law_.name; }
  const fe::MaterialLaw& elastic_law() const override { return law_; }
  double point_stress(const double* F, const double*, double*, double* P, double* A,
                      double) const override {
    return fe::material_response(law_, lame_, F, P, A);
  }

 private:
  const fe::MaterialLaw& law_;
  fe::Lame lame_;
};

std::shared_ptr<const ConstitutiveModel> parse(const case_yaml::Node& m,
                                               std::shared_ptr<const ConstitutiveModel>) {
  const std::string name = m.has("model") ? m["model"].text() : "linear_elastic";
  return hyperelastic_model(fe::material_law(name), parse_elastic_moduli(m));
}

}  // namespace

std::shared_ptr<const ConstitutiveModel> hyperelastic_model(const fe::MaterialLaw& law,
                                                            ElasticModuli elastic) {
  return std::make_shared<HyperelasticModel>(law, elastic);
}

ModelEntry hyperelastic_entry(const fe::MaterialLaw& law) {
  return {law.name,
          law.summary,
          cat("{region: all, model: ", law.name,
              ", density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3}"),
          nullptr,
          false,
          parse};
}

}  // namespace inertia::material
