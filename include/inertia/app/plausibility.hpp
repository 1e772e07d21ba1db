#pragma once
/// \file plausibility.hpp
/// Set-ups that are legal but almost surely not meant, mostly a unit mistake: a density in t/m^3
/// with E in Pa, a yield stress in MPa with E in Pa. One warning line each (never an error: an
/// engineer may model a foam or a gel on purpose), logged by the run and by --check.

#include <string>
#include <vector>

namespace inertia {

struct CaseFile;

/// The plausible range of a solid's bar wave speed sqrt(E / density) (m/s): gels and foams
/// above the lower end, diamond (18 km/s) below the upper one.
inline constexpr double min_wave_speed = 10, max_wave_speed = 20e3;

/// The case's materials against those ranges: one line each ("<file>:<line>: materials: ...").
std::vector<std::string> material_warnings(const CaseFile& c);

}  // namespace inertia
