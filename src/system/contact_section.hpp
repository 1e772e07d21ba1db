#pragma once
// The case file's `contact:` section as read (term_contact.cpp parses it; the walls' and the
// pairs' terms are built from it). Private to src/system.
#include <array>
#include <string>
#include <vector>

#include "inertia/system/force_term.hpp"
#include "inertia/system/problem.hpp"

namespace inertia::contact_input {

enum class Shape { plane, sphere, cylinder };
inline const char* shape_name(Shape s) {
  return s == Shape::plane ? "plane" : s == Shape::sphere ? "sphere" : "cylinder";
}

struct WallInput {
  std::string name, region;
  Shape shape = Shape::plane;
  std::array<double, 3> point{0, 0, 0};      ///< plane: a point; sphere: centre; cylinder: on axis
  std::array<double, 3> direction{0, 0, 1};  ///< plane: unit normal; cylinder: unit axis
  double radius = 0;
  double penalty = 0;  ///< Pa/m; 0: the section's penalty_scale rule
  /// Coulomb friction: mu = kinetic + (static - kinetic) exp(-decay |slip rate|); 0: none.
  double mu_static = 0, mu_kinetic = 0, decay = 0;
  /// A moving wall: its translation D and amplitude (the wall at point + a(t) D).
  bool moving = false;
  std::array<double, 3> motion{0, 0, 0};
  std::string amplitude;  ///< empty: the case's default (constant; the ramp under static)
  int motion_line = 0;
  std::string where;  ///< "<file>:<line>: contact.walls[i]"
};

/// A contact pair (contact_pairs.cpp): the nodes of each surface may not pass the other's faces.
struct PairInput {
  std::string name;
  std::vector<std::string> surfaces;  ///< two regions of faces, or one (self-contact)
  double penalty = 0;                 ///< Pa/m; 0: the section's penalty_scale rule
  double margin = 0;                  ///< m; 0: half the mean face edge of the pair
  std::string where;                  ///< "<file>:<line>: contact.pairs[i]"
};

struct ContactSection : TermSection {
  double penalty_scale = 0;  ///< 0: the scheme's default (contact.hpp)
  std::vector<WallInput> walls;
  std::vector<PairInput> pairs;
};

/// The penalty scale of a section: its own, or the scheme's default (contact.hpp).
inline double penalty_scale(const ContactSection& s, const ProblemSpec& spec) {
  return s.penalty_scale > 0 ? s.penalty_scale : spec.explicit_scheme ? 1.0 : 10.0;
}

/// The owned nodes of a region's boundary faces and each one's share of the faces' area (summed
/// over the ranks). Collective; InputError naming `where` for an unknown region or one without
/// faces.
struct SurfaceNodes {
  int region = -1;
  std::vector<std::int32_t> nodes;
  std::vector<double> areas;
};
SurfaceNodes surface_nodes(const TermInputs& in, const std::string& region,
                           const std::string& where);

/// Contact pairs' terms (contact_pairs.cpp).
void build_pair_terms(const TermInputs& in, const ContactSection& s,
                      std::vector<std::unique_ptr<ForceTerm>>& out);

}  // namespace inertia::contact_input
