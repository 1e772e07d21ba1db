#pragma once
/// \file constitutive.hpp
/// A solid is kinematics x a constitutive model. The kinematics (fe/element.hpp,
/// fe/hex8_technology.hpp: full, bbar, fbar, reduced + hourglass, small or finite strain) give the
/// strain or F at the points and take back the stress; a constitutive model is one file of
/// src/material/ that reads its own keys of a `materials[]` entry, declares its point state and
/// gives the stress, tangent, energy and dissipation at a point, the elastic moduli (stable step,
/// hourglass, penalties), a line for the log and its restart fingerprint. The models are rows of
/// a registry (model_entries(): name, summary, a minimal example, the parse): adding a law is its
/// file and one row in src/material/models.cpp.
///
/// The module sits between `fe` (the pure kernels the models wrap: fe/hyperelastic.hpp,
/// fe/log_strain.hpp, fe/plasticity.hpp) and `assembly`: the models parse YAML (core/case_node.hpp)
/// and the kernels stay free of it.
///
/// The force term of a region (system/term_solids.cpp) asks its model once, at construction,
/// which element kernel to use (hyperelastic_law(), j2()): no call through the model per cell.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/material/failure.hpp"

namespace inertia {

class Hasher;
namespace case_yaml {
struct Node;
}
namespace fe {
struct J2Parameters;
}

namespace material {

/// Young's modulus and Poisson's ratio (-1 < nu < 1/2), and what follows from them.
struct ElasticModuli {
  double youngs_modulus = 0;
  double poissons_ratio = 0;
  double lambda() const {
    return youngs_modulus * poissons_ratio / ((1 + poissons_ratio) * (1 - 2 * poissons_ratio));
  }
  double mu() const { return youngs_modulus / (2 * (1 + poissons_ratio)); }
  fe::Lame lame() const { return {lambda(), mu()}; }
};

/// One constitutive model with its parameters (immutable once parsed; shared by the copies of
/// the material that hold it).
class ConstitutiveModel {
 public:
  explicit ConstitutiveModel(ElasticModuli elastic) : elastic_(elastic) {}
  virtual ~ConstitutiveModel() = default;

  /// Its registry row's name (model_entries()).
  virtual std::string_view name() const = 0;
  /// The elastic law of fe/hyperelastic.hpp it is built on (itself for the elastic models; a
  /// plastic model's elastic part), whose name the case's `model:` key gave.
  virtual const fe::MaterialLaw& elastic_law() const = 0;
  /// The small-strain linear law without state: a constant stiffness, f_int = K u.
  virtual bool linear() const { return elastic_law().linear; }
  /// Whether the law is written in F (finite strain) rather than in the small strain.
  bool finite_strain() const { return !elastic_law().linear; }
  /// The state it declares at each material point, in doubles (0: none).
  virtual int state_size() const { return 0; }
  /// The elastic moduli: the stable step's wave speed, the hourglass stiffness, penalties.
  const ElasticModuli& elastic() const { return elastic_; }

  /// At one material point of deformation gradient F (9, row-major; for a small-strain model
  /// its strain is sym(F) - I): the first Piola-Kirchhoff stress P (9) and, if A is not null,
  /// the tangent dP/dF (81), from the committed state (state_size() values; null if none),
  /// writing the updated state to `trial` (may alias `committed`); returns the free energy
  /// density. `dt` is the step (rate-dependent laws; 0: none).
  virtual double point_stress(const double* F, const double* committed, double* trial, double* P,
                              double* A = nullptr, double dt = 0) const = 0;
  /// The energy per volume dissipated from the committed to the trial state (0: elastic).
  virtual double dissipation(const double* /*committed*/, const double* /*trial*/,
                             double /*dt*/ = 0) const {
    return 0;
  }

  /// The hyperelastic element kernel's law (fe/hyperelastic.hpp) for a model without state,
  /// else null.
  virtual const fe::MaterialLaw* hyperelastic_law() const { return &elastic_law(); }
  /// J2 plasticity's kernel parameters (fe/plasticity.hpp's j2_element), else null.
  virtual const fe::J2Parameters* j2() const { return nullptr; }
  /// Why a hex8 formulation other than `full` is not for this model ("" if it is).
  virtual std::string refuses(fe::Formulation f) const;

  /// The model for the log and the model label ("neo_hookean", "hencky + J2 plasticity").
  virtual std::string describe() const { return std::string(elastic_law().name); }
  /// Adds its parameters to the restart fingerprint (after the region, the elastic law's name and
  /// the density): E and nu, and what else it reads.
  virtual void fingerprint(Hasher& h) const;
  /// Unit plausibility of its parameters (`where`: "<file>:<line>: materials: region 'r': "),
  /// one line each.
  virtual void warnings(const std::string& /*where*/, std::vector<std::string>& /*out*/) const {}

 protected:
  ElasticModuli elastic_;
};

/// A material region's solid as the assembler and the force terms see it: the density, the hex8
/// kinematics and the constitutive model.
struct SolidMaterial {
  double density = 0;
  /// The hex8 formulation (fe/hex8_technology.hpp): full, bbar, fbar or reduced with its
  /// hourglass coefficient; other cells are fully integrated.
  fe::Technology technology;
  std::shared_ptr<const ConstitutiveModel> model;
  /// The `failure:` criterion (failure.hpp): its cells erode when they meet it (null: none).
  std::shared_ptr<const FailureCriterion> failure;

  bool is_linear() const { return model->linear(); }
  /// Whether the model has a point state (J2 plasticity).
  bool plastic() const { return model->state_size() > 0; }
  const ElasticModuli& elastic() const { return model->elastic(); }
  double lambda() const { return elastic().lambda(); }
  double mu() const { return elastic().mu(); }
  fe::Lame lame() const { return elastic().lame(); }
  /// The elastic law (cell stresses of the elastic models, the fingerprint).
  const fe::MaterialLaw& law() const { return model->elastic_law(); }
};

/// One row of the model registry. A base row is chosen by the entry's `model:` value (its
/// name); a row `on_base` (J2) is applied when its key (`plasticity`) is present, on the base
/// model its parse receives.
struct ModelEntry {
  std::string_view name;
  std::string_view summary;
  /// A minimal `materials[]` entry using it (checked by a unit test).
  std::string example;
  /// The key of `materials[]` holding its own parameters (null: none beyond E and nu); a base
  /// row's key is refused with another model.
  const char* key = nullptr;
  /// Applied on a base model when its key is present (not chosen by `model:`).
  bool on_base = false;
  /// Reads its keys of the `materials[]` entry `m`; `base` is the base model for a row on_base,
  /// null for a base row. Errors are the case file's (case_yaml::Node::fail).
  std::shared_ptr<const ConstitutiveModel> (*parse)(
      const case_yaml::Node& m, std::shared_ptr<const ConstitutiveModel> base) = nullptr;
};

/// Every model, base models first, in the order --help and the guide list them.
std::span<const ModelEntry> model_entries();
/// Adds a row (tests, plug-ins); Error if the name is taken.
void register_model(const ModelEntry& entry);

/// The keys of a `materials[]` entry: the common ones and every keyed row's.
std::vector<std::string_view> material_keys();

/// Reads a `materials[]` entry's density, model (its base row, then the keyed rows present),
/// formulation and hourglass. `region` is the caller's; InputError on anything wrong.
SolidMaterial parse_solid_material(const case_yaml::Node& m);

/// E and nu of a `materials[]` entry (both required), for the models' parse functions.
ElasticModuli parse_elastic_moduli(const case_yaml::Node& m);

/// A model of an fe/hyperelastic.hpp law without state (the five elastic rows).
std::shared_ptr<const ConstitutiveModel> hyperelastic_model(const fe::MaterialLaw& law,
                                                            ElasticModuli elastic);

/// A linear elastic solid of these moduli (tests, benchmarks).
SolidMaterial linear_elastic_solid(double density, double youngs_modulus, double poissons_ratio);

}  // namespace material
}  // namespace inertia
