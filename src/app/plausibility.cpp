// Unit plausibility of the case's materials (plausibility.hpp).
#include "inertia/app/plausibility.hpp"

#include <cmath>

#include "inertia/app/case_file.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

std::vector<std::string> material_warnings(const CaseFile& c) {
  std::vector<std::string> out;
  const std::string file = printable(c.path.string());
  for (const CaseMaterial& m : c.materials) {
    const ElasticMaterial& e = m.material;
    const std::string where =
        cat(file, ":", m.origin.line, ": materials: region '", printable(m.region), "': ");
    if (e.density > 0 && e.youngs_modulus > 0) {
      const double speed = std::sqrt(e.youngs_modulus / e.density);
      if (speed < min_wave_speed || speed > max_wave_speed)
        out.push_back(cat(where, "the wave speed sqrt(E / density) is ", g3(speed), " m/s (E ",
                          e.youngs_modulus, ", density ", e.density,
                          "), outside what solids have (", min_wave_speed, " m/s to ",
                          g3(max_wave_speed),
                          " m/s): check the units (SI: E in Pa, density in "
                          "kg/m^3, steel 2.1e11 and 7850; mm-t-s: MPa and t/mm^3, 2.1e5 and "
                          "7.85e-9)"));
    }
    for (const auto& [modulus, key] : {std::pair{e.isotropic_hardening, "isotropic_hardening"},
                                       std::pair{e.kinematic_hardening, "kinematic_hardening"}})
      if (e.youngs_modulus > 0 && modulus > e.youngs_modulus)
        out.push_back(cat(where, key, " ", modulus, " is above E ", e.youngs_modulus,
                          ": a hardening modulus is a fraction of E (steels 1e-3 to 1e-1 of it); "
                          "check the value and its units"));
    const double yield = e.yield_stress > 0        ? e.yield_stress
                         : !e.curve_stress.empty() ? e.curve_stress.front()
                                                   : 0.0;
    if (yield > 0 && e.youngs_modulus > 0) {
      const double ratio = yield / e.youngs_modulus;
      if (ratio < min_yield_ratio || ratio > max_yield_ratio)
        out.push_back(cat(where, "the yield stress ", yield, " is ", g3(ratio), " of E ",
                          e.youngs_modulus, ", outside what materials have (", min_yield_ratio,
                          " to ", max_yield_ratio,
                          "): check the units (steel: 250e6 Pa and 2.1e11 Pa, or 250 MPa and "
                          "2.1e5 MPa)"));
    }
  }
  return out;
}

}  // namespace inertia
