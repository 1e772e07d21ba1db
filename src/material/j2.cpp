// J2 (von Mises) plasticity, on linear_elastic (small strain) or hencky (finite strain, in the
// logarithmic strain space), with its hardening laws: the `plasticity:` key of a `materials[]`
// entry. The return map and the element kernel are fe/plasticity.hpp's.
#include <cmath>

#include "entries.hpp"
#include "inertia/core/case_node.hpp"
#include "inertia/core/hash.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/log_strain.hpp"
#include "inertia/fe/plasticity.hpp"

namespace inertia::material {

namespace {

/// The plausible range of a yield stress over Young's modulus: soft annealed metals ~1e-4,
/// high-strength steels and titanium ~1e-2, polymers up to a few 1e-2.
constexpr double min_yield_ratio = 1e-5, max_yield_ratio = 5e-2;

/// The case's `plasticity:` keys: the parameters of fe::J2Parameters, and the storage of the
/// yield curve its spans point into.
struct Hardening {
  fe::J2Parameters params;
  std::vector<double> curve_strain, curve_stress;
};

class J2Model final : public ConstitutiveModel {
 public:
  J2Model(std::shared_ptr<const ConstitutiveModel> base, Hardening h)
      : ConstitutiveModel(base->elastic()), base_(std::move(base)), h_(std::move(h)) {
    p_ = h_.params;
    p_.lame = elastic_.lame();
    p_.curve_strain = h_.curve_strain;
    p_.curve_stress = h_.curve_stress;
    p_.finite_strain = finite_strain();
  }
  std::string_view name() const override { return "j2"; }
  const fe::MaterialLaw& elastic_law() const override { return base_->elastic_law(); }
  bool linear() const override { return false; }
  int state_size() const override { return fe::J2State::with_history; }
  const fe::MaterialLaw* hyperelastic_law() const override { return nullptr; }
  const fe::J2Parameters* j2() const override { return &p_; }
  std::string describe() const override { return cat(base_->describe(), " + J2 plasticity"); }

  double point_stress(const double* F, const double* committed, double* trial, double* P, double* A,
                      double dt) const override {
    fe::J2Parameters p = p_;
    p.dt = dt;
    if (!p.finite_strain) {  // eps = sym(F) - I; sigma (with both minor symmetries) is dP/dF
      const double eps[6] = {F[0] - 1,          F[4] - 1,          F[8] - 1,
                             (F[1] + F[3]) / 2, (F[5] + F[7]) / 2, (F[2] + F[6]) / 2};
      double s[6];
      fe::j2_return_map(p, eps, committed, trial, s, A);
      const double full[9] = {s[0], s[3], s[5], s[3], s[1], s[4], s[5], s[4], s[2]};
      std::copy(full, full + 9, P);
      return fe::j2_free_energy(p, eps, trial);
    }
    fe::LogStrain k;
    fe::log_strain(F, k);
    double T[6], dTdE[81];
    fe::j2_return_map(p, k.E, committed, trial, T, A ? dTdE : nullptr);
    fe::log_strain_stress(k, T, A ? dTdE : nullptr, P, A);
    return fe::j2_free_energy(p, k.E, trial);
  }
  double dissipation(const double* committed, const double* trial, double dt) const override {
    fe::J2Parameters p = p_;
    p.dt = dt;
    return fe::j2_dissipation(p, committed[fe::J2State::equivalent_plastic_strain],
                              trial[fe::J2State::equivalent_plastic_strain]);
  }

  std::string refuses(fe::Formulation f) const override {
    const std::string_view law = elastic_law().name;
    if (f == fe::Formulation::bbar && law != "linear_elastic")
      return cat("bbar is a small-strain formulation (model linear_elastic, not ", law,
                 "); its finite-strain form is fbar (model hencky with plasticity)");
    if (f == fe::Formulation::fbar && law != "hencky")
      return cat("fbar takes model hencky with plasticity (not ", law,
                 "); at small strain use bbar");
    return "";
  }

  // Elastic models keep the fingerprint they had: the hardening's keys follow E and nu, the
  // nonlinear hardening's only when given.
  void fingerprint(Hasher& h) const override {
    base_->fingerprint(h);
    h.add(p_.yield_stress).add(p_.isotropic_modulus).add(p_.kinematic_modulus);
    if (!p_.nonlinear()) return;
    h.add(p_.voce_saturation).add(p_.voce_rate);
    for (std::size_t i = 0; i < p_.curve_strain.size(); ++i)
      h.add(p_.curve_strain[i]).add(p_.curve_stress[i]);
    h.add(p_.rate_sensitivity).add(p_.reference_rate);
  }

  void warnings(const std::string& where, std::vector<std::string>& out) const override {
    const double E = elastic_.youngs_modulus;
    for (const auto& [modulus, key] : {std::pair{p_.isotropic_modulus, "isotropic_hardening"},
                                       std::pair{p_.kinematic_modulus, "kinematic_hardening"}})
      if (modulus > E)
        out.push_back(cat(where, key, " ", modulus, " is above E ", E,
                          ": a hardening modulus is a fraction of E (steels 1e-3 to 1e-1 of it); "
                          "check the value and its units"));
    const double ratio = p_.yield_stress / E;
    if (ratio < min_yield_ratio || ratio > max_yield_ratio)
      out.push_back(cat(where, "the yield stress ", p_.yield_stress, " is ", g3(ratio), " of E ", E,
                        ", outside what materials have (", min_yield_ratio, " to ", max_yield_ratio,
                        "): check the units (steel: 250e6 Pa and 2.1e11 Pa, or 250 MPa and "
                        "2.1e5 MPa)"));
  }

 private:
  std::shared_ptr<const ConstitutiveModel> base_;
  Hardening h_;
  fe::J2Parameters p_;
};

/// A yield_curve's rows into h (curve_strain, curve_stress; yield_stress its first stress).
void parse_curve(const case_yaml::Node& p, Hardening& h) {
  for (const char* k : {"yield_stress", "isotropic_hardening", "voce"})
    if (p.has(k))
      p[k].fail(
          "yield_curve gives the whole isotropic hardening (its first row the yield "
          "stress): leave this key out");
  const case_yaml::Node curve = p["yield_curve"];
  if (!curve.node.IsSequence() || curve.size() < 1)
    curve.fail("expected rows [equivalent plastic strain, yield stress (Pa)]");
  for (std::size_t r = 0; r < curve.size(); ++r) {
    const case_yaml::Node row = curve.at(r);
    if (!row.node.IsSequence() || row.size() != 2)
      row.fail("expected [equivalent plastic strain, yield stress (Pa)]");
    const double strain = row.at(0).number(), stress = row.at(1).number();
    if (r == 0 && strain != 0)
      row.at(0).fail(cat("the first row is the initial yield stress, at plastic strain 0 (got ",
                         row.at(0).text(), ")"));
    if (r > 0 && !(strain > h.curve_strain.back()))
      row.at(0).fail(cat("plastic strains must increase from row to row (", row.at(0).text(),
                         " after ", h.curve_strain.back(), ")"));
    if (!(stress > 0)) row.at(1).fail(cat("must be > 0 (got ", row.at(1).text(), ")"));
    if (r > 0 && stress < h.curve_stress.back())
      row.at(1).fail(cat("the yield stress must not decrease (", row.at(1).text(), " after ",
                         h.curve_stress.back(), "): softening is not supported"));
    h.curve_strain.push_back(strain);
    h.curve_stress.push_back(stress);
  }
  h.params.yield_stress = h.curve_stress.front();
}

/// Checks that `sub` of `p` is a mapping of exactly the two keys a and b.
void require_keys(const case_yaml::Node& p, const char* sub, const char* a, const char* b) {
  const case_yaml::Node v = p[sub];
  v.expect_map({a, b});
  for (const char* k : {a, b})
    if (!v.has(k)) v.fail(cat("missing key '", k, "'"));
}

std::shared_ptr<const ConstitutiveModel> parse(const case_yaml::Node& m,
                                               std::shared_ptr<const ConstitutiveModel> base) {
  const case_yaml::Node p = m["plasticity"];
  p.expect_map({"yield_stress", "isotropic_hardening", "kinematic_hardening", "voce", "yield_curve",
                "johnson_cook"});
  const std::string_view law = base->elastic_law().name;
  if (law != "linear_elastic" && law != "hencky")
    p.fail(
        cat("J2 plasticity takes model linear_elastic (small strain) or hencky (finite "
            "strain), not ",
            law));
  Hardening h;
  if (p.has("yield_curve")) {
    parse_curve(p, h);
  } else {
    if (!p.has("yield_stress")) p.fail("missing key 'yield_stress' (Pa), or a yield_curve");
    h.params.yield_stress = p["yield_stress"].positive();
  }
  if (p.has("voce")) {
    require_keys(p, "voce", "saturation", "rate");
    h.params.voce_saturation = p["voce"]["saturation"].non_negative();
    h.params.voce_rate = p["voce"]["rate"].positive();
  }
  if (p.has("johnson_cook")) {
    require_keys(p, "johnson_cook", "c", "reference_rate");
    h.params.rate_sensitivity = p["johnson_cook"]["c"].non_negative();
    h.params.reference_rate = p["johnson_cook"]["reference_rate"].positive();
  }
  if (p.has("isotropic_hardening"))
    h.params.isotropic_modulus = p["isotropic_hardening"].non_negative();
  if (p.has("kinematic_hardening"))
    h.params.kinematic_modulus = p["kinematic_hardening"].non_negative();
  return std::make_shared<J2Model>(std::move(base), std::move(h));
}

}  // namespace

ModelEntry j2_entry() {
  return {"j2",
          "J2 (von Mises) plasticity on linear_elastic (small strain) or hencky (finite strain): "
          "plasticity: {yield_stress, isotropic_hardening, kinematic_hardening, voce: "
          "{saturation, rate}, yield_curve: [[alpha, stress], ...], johnson_cook: {c, "
          "reference_rate}}",
          "{region: all, model: linear_elastic, density: 7850, youngs_modulus: 2.1e11, "
          "poissons_ratio: 0.3, plasticity: {yield_stress: 2.5e8, isotropic_hardening: 1.0e9}}",
          "plasticity",
          true,
          parse};
}

}  // namespace inertia::material
