// The formulations of solid regions: see kinematics.hpp (examples/guide/elements.md).
#include "inertia/material/kinematics.hpp"

#include <array>

namespace inertia::material {

namespace {

constexpr std::array<KinematicsEntry, 4> rows{{
    {{"full",
      "fully integrated (tet4 one point, tet10 four, hex8 2 x 2 x 2): every cell type and model "
      "(the default)",
      "materials:\n  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3, "
      "formulation: full}"},
     fe::Formulation::full},
    {{"bbar",
      "hex8, small strain: B-bar, each point's volumetric strain the cell's mean (no locking as "
      "nu -> 0.5 or under plastic flow)",
      "materials:\n  - {region: all, density: 1100, youngs_modulus: 5.0e6, poissons_ratio: 0.4999, "
      "formulation: bbar}"},
     fe::Formulation::bbar},
    {{"reduced",
      "hex8: one point at the mean strain (or F) with Flanagan-Belytschko hourglass control "
      "(hourglass: 0.05 by default)",
      "materials:\n  - {region: all, density: 7850, youngs_modulus: 2.1e11, poissons_ratio: 0.3, "
      "formulation: reduced, hourglass: 0.05}"},
     fe::Formulation::reduced},
    {{"fbar",
      "hex8, finite strain: F-bar, each point's F scaled to the cell's mean volume change (large "
      "plastic flow; model hencky with plasticity)",
      "materials:\n  - {region: all, model: hencky, density: 7850, youngs_modulus: 2.1e11, "
      "poissons_ratio: 0.3, formulation: fbar,\n     plasticity: {yield_stress: 2.5e8, "
      "isotropic_hardening: 1.0e9}}"},
     fe::Formulation::fbar},
}};

}  // namespace

Registry<KinematicsEntry> kinematics() { return {"formulation", rows}; }

}  // namespace inertia::material
