#pragma once
/// \file origin.hpp
/// Where a value came from in the case file, for messages.

#include <string>

namespace inertia {

struct Origin {
  int line = 0;     ///< 1-based, 0 if unknown
  std::string key;  ///< e.g. "boundary_conditions[2].region"
};

}  // namespace inertia
