#pragma once
/// \file kinematics.hpp
/// The kinematics of a solid region (materials[].formulation): how a cell's points get their
/// strain or deformation gradient from the nodes' displacements, and how the stress goes back
/// to nodal forces. One row per formulation (core/registry.hpp): its name, a line for --help,
/// a minimal example (run by unit.Examples.EveryKinematics) and the kernel family it selects
/// (fe/hex8_technology.hpp). Which constitutive models a formulation takes is the model's to say
/// (ConstitutiveModel::refuses).

#include "inertia/core/registry.hpp"
#include "inertia/fe/hex8_technology.hpp"

namespace inertia::material {

struct KinematicsEntry : EntryInfo {
  fe::Formulation formulation;
};

/// Every formulation, `full` (the default) first.
Registry<KinematicsEntry> kinematics();

}  // namespace inertia::material
