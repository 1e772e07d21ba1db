// The registry of constitutive models (constitutive.hpp) and the reading of a `materials[]`
// entry: the common keys here, each model's own keys in its file. Adding a model is its file
// and one row below.
#include <algorithm>

#include "entries.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/error.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/material/constitutive.hpp"
#include "inertia/material/kinematics.hpp"

namespace inertia::material {

namespace {

std::vector<ModelEntry>& all_entries() {
  static std::vector<ModelEntry> all = [] {
    std::vector<ModelEntry> rows;
    for (const auto& law : fe::material_laws()) rows.push_back(hyperelastic_entry(law));
    rows.push_back(j2_entry());
    return rows;
  }();
  return all;
}

const ModelEntry* base_entry(std::string_view name) {
  for (const auto& e : all_entries())
    if (!e.on_base && e.name == name) return &e;
  return nullptr;
}

}  // namespace

std::span<const ModelEntry> model_entries() { return all_entries(); }

void register_model(const ModelEntry& entry) {
  for (const auto& e : all_entries())
    INERTIA_CHECK(e.name != entry.name, Error, "constitutive model '", entry.name,
                  "' is registered twice");
  INERTIA_CHECK(entry.parse, Error, "constitutive model '", entry.name, "' has no parse");
  auto& all = all_entries();
  // Base models stay before the keyed ones (the order --help lists them).
  const auto at = entry.on_base ? all.end()
                                : std::find_if(all.begin(), all.end(),
                                               [](const ModelEntry& e) { return e.on_base; });
  all.insert(at, entry);
}

std::string ConstitutiveModel::refuses(fe::Formulation f) const {
  const std::string_view law = elastic_law().name;
  if (f == fe::Formulation::bbar && law != "linear_elastic")
    return cat("bbar is a small-strain formulation (model linear_elastic, not ", law,
               "); its finite-strain form is fbar (model hencky with plasticity)");
  if (f == fe::Formulation::fbar)
    return cat("fbar takes model hencky with plasticity (not ", law, " without plasticity",
               "); at small strain use bbar");
  if (f == fe::Formulation::reduced && law != "linear_elastic")
    return cat("reduced takes model linear_elastic, or hencky with plasticity (not ", law,
               " without plasticity)");
  return "";
}

void ConstitutiveModel::fingerprint(Hasher& h) const {
  h.add(elastic_.youngs_modulus).add(elastic_.poissons_ratio);
}

std::vector<std::string_view> material_keys() {
  std::vector<std::string_view> keys{"region",         "model",       "density",   "youngs_modulus",
                                     "poissons_ratio", "formulation", "hourglass", "failure"};
  for (const auto& e : all_entries())
    if (e.key) keys.insert(keys.end() - 3, e.key);
  return keys;
}

ElasticModuli parse_elastic_moduli(const case_yaml::Node& m) {
  for (const char* k : {"youngs_modulus", "poissons_ratio"})
    if (!m.has(k)) m.fail(cat("missing key '", k, "'"));
  ElasticModuli e;
  e.youngs_modulus = m["youngs_modulus"].positive();
  const double nu = m["poissons_ratio"].number();
  if (!(nu > -1 && nu < 0.5))
    m["poissons_ratio"].fail(cat("must satisfy -1 < nu < 0.5 (got ", nu, ")"));
  e.poissons_ratio = nu;
  return e;
}

SolidMaterial parse_solid_material(const case_yaml::Node& m) {
  m.expect_map(material_keys());
  for (const char* k : {"region", "density", "youngs_modulus", "poissons_ratio"})
    if (!m.has(k)) m.fail(cat("missing key '", k, "'"));
  const ModelEntry* base = base_entry("linear_elastic");
  if (m.has("model")) {
    std::vector<std::string_view> names;
    for (const auto& e : all_entries())
      if (!e.on_base) names.push_back(e.name);
    base = base_entry(m["model"].choice(names));
  }
  for (const auto& e : all_entries())  // another base model's parameters
    if (!e.on_base && e.key && &e != base && m.has(e.key))
      m[e.key].fail(cat("belongs to model ", e.name, " (this entry's model is ", base->name, ")"));
  SolidMaterial s;
  s.density = m["density"].positive();
  s.model = base->parse(m, nullptr);
  for (const auto& e : all_entries())
    if (e.on_base && m.has(e.key)) s.model = e.parse(m, std::move(s.model));
  if (m.has("formulation")) {
    const case_yaml::Node f = m["formulation"];
    const auto rows = kinematics();
    s.technology.formulation = rows.at(f.choice(rows.names())).formulation;
    if (const std::string why = s.model->refuses(s.technology.formulation); !why.empty())
      f.fail(why);
  }
  if (m.has("hourglass")) {
    const case_yaml::Node h = m["hourglass"];
    if (s.technology.formulation != fe::Formulation::reduced)
      h.fail("the hourglass coefficient belongs to formulation: reduced");
    const double v = h.number();
    if (!(v > 0 && v <= 1)) h.fail(cat("must lie in (0, 1] (got ", h.text(), ")"));
    s.technology.hourglass = v;
  }
  if (m.has("failure")) {
    const case_yaml::Node f = m["failure"];
    s.failure = std::make_shared<const FailureCriterion>(parse_failure(f));
    if (s.failure->needs_plasticity() && !s.plastic())
      f.fail(cat("the ", s.failure->describe(),
                 " criterion reads the plastic state: give the material plasticity, or use "
                 "principal_strain"));
    if (s.is_linear())
      f.fail(
          "erosion takes a nonlinear model (plasticity, or a finite-strain law such as hencky): "
          "a linear model's stiffness is assembled once, before any cell erodes");
  }
  return s;
}

SolidMaterial linear_elastic_solid(double density, double youngs_modulus, double poissons_ratio) {
  return {density,
          {},
          hyperelastic_model(fe::material_law("linear_elastic"), {youngs_modulus, poissons_ratio})};
}

}  // namespace inertia::material
