#include "inertia/system/external_loads.hpp"

namespace inertia {

ExternalLoads::ExternalLoads(const ProblemSpec& spec,
                             std::vector<std::pair<int, petsc::Vector>> loads)
    : spec_(spec), loads_(std::move(loads)) {
  // Sized once here (and with each ground component) so that the explicit steps allocate none.
  amplitudes_.assign(loads_.size(), 0.0);
  arrays_.reserve(loads_.size());
}

void ExternalLoads::add_ground(int component, int amplitude, double value,
                               petsc::Vector mass_translation, petsc::Vector translation) {
  ground_.push_back(
      {component, amplitude, value, std::move(mass_translation), std::move(translation)});
  amplitudes_.assign(loads_.size() + ground_.size(), 0.0);
  arrays_.reserve(loads_.size() + ground_.size());
}

std::size_t ExternalLoads::factors(double t) const {
  for (std::size_t j = 0; j < loads_.size(); ++j)
    amplitudes_[j] = spec_.amplitudes[loads_[j].first].value(t);
  if (spec_.rayleigh.mass == 0) return loads_.size();
  for (std::size_t k = 0; k < ground_.size(); ++k)
    amplitudes_[loads_.size() + k] =
        spec_.rayleigh.mass * ground_[k].value * spec_.amplitudes[ground_[k].amplitude].rate(t);
  return loads_.size() + ground_.size();
}

void ExternalLoads::external_force(double t, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  const std::size_t n = factors(t);
  for (std::size_t j = 0; j < n; ++j)
    INERTIA_PETSC(VecAXPY(f, amplitudes_[j],
                          j < loads_.size() ? loads_[j].second.get()
                                            : ground_[j - loads_.size()].mass_translation.get()));
}

void ExternalLoads::ground_damping_force(double t, Vec f) const {
  INERTIA_PETSC(VecZeroEntries(f));
  if (spec_.rayleigh.mass == 0) return;
  for (const auto& g : ground_)
    INERTIA_PETSC(VecAXPY(f, spec_.rayleigh.mass * g.value * spec_.amplitudes[g.amplitude].rate(t),
                          g.mass_translation));
}

void ExternalLoads::ground_velocity(double t, Vec w) const {
  INERTIA_PETSC(VecZeroEntries(w));
  for (const auto& g : ground_)  // v_g r_d: the translations (a beam node's rotations: none)
    INERTIA_PETSC(VecAXPY(w, g.value * spec_.amplitudes[g.amplitude].rate(t), g.translation));
}

void ExternalLoads::subtract_from_external(double t, Vec ku, Vec f, Vec scale) const {
  // f = (sum of amplitude x load - K u) [x scale] in one pass. Each step: no allocation (the
  // loads' views go into arrays_, reserved beforehand), and every view is given back when this
  // function returns or throws.
  const std::size_t nterms = factors(t);
  struct Release {
    std::vector<petsc::ConstArray>& arrays;
    ~Release() { arrays.clear(); }  // restores the loads' arrays; keeps the capacity
  } release{arrays_};
  for (const auto& load : loads_) arrays_.emplace_back(load.second);
  for (std::size_t k = loads_.size(); k < nterms; ++k)
    arrays_.emplace_back(ground_[k - loads_.size()].mass_translation);
  petsc::ConstArray kua(ku);
  petsc::Array fa(f);
  const PetscInt n = fa.size();
  double* __restrict out = fa.data();
  const double* __restrict k = kua.data();
  const std::size_t nloads = arrays_.size();
  const double a0 = nloads == 0 ? 0.0 : amplitudes_[0];
  const double* __restrict l0 = nloads == 0 ? k : arrays_[0].data();
  // The first load with K u (vectorised), then any further loads.
  for (PetscInt i = 0; i < n; ++i) out[i] = a0 * l0[i] - k[i];
  for (std::size_t j = 1; j < nloads; ++j) {
    const double a = amplitudes_[j];
    const double* __restrict l = arrays_[j].data();
    for (PetscInt i = 0; i < n; ++i) out[i] += a * l[i];
  }
  if (scale) {
    petsc::ConstArray sa(scale);
    const double* __restrict s = sa.data();
    for (PetscInt i = 0; i < n; ++i) out[i] *= s[i];
  }
}

}  // namespace inertia
