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
    const material::SolidMaterial& e = m.material;
    const double E = e.elastic().youngs_modulus;
    const std::string where =
        cat(file, ":", m.origin.line, ": materials: region '", printable(m.region), "': ");
    const double speed = std::sqrt(E / e.density);
    if (speed < min_wave_speed || speed > max_wave_speed)
      out.push_back(cat(where, "the wave speed sqrt(E / density) is ", g3(speed), " m/s (E ", E,
                        ", density ", e.density, "), outside what solids have (", min_wave_speed,
                        " m/s to ", g3(max_wave_speed),
                        " m/s): check the units (SI: E in Pa, density in "
                        "kg/m^3, steel 2.1e11 and 7850; mm-t-s: MPa and t/mm^3, 2.1e5 and "
                        "7.85e-9)"));
    e.model->warnings(where, out);  // the model's own parameters (a yield stress in MPa)
  }
  return out;
}

}  // namespace inertia
