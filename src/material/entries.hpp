#pragma once
// The registry rows of the models of src/material/ (models.cpp lists them): one function per
// model file.
#include "inertia/material/constitutive.hpp"

namespace inertia::material {

/// The row of an elastic law of fe/hyperelastic.hpp (hyperelastic_model.cpp).
ModelEntry hyperelastic_entry(const fe::MaterialLaw& law);
/// J2 plasticity on linear_elastic or hencky (j2.cpp).
ModelEntry j2_entry();

}  // namespace inertia::material
