#pragma once
// The case file's `contact:` section as read (term_contact.cpp parses it; the walls' and the
// pairs' terms are built from it). Private to src/system.
#include <array>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "inertia/system/force_term.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {
namespace case_yaml {
struct Node;
}
}  // namespace inertia

namespace inertia::contact_input {

enum class Shape { plane, sphere, cylinder };
inline const char* shape_name(Shape s) {
  return s == Shape::plane ? "plane" : s == Shape::sphere ? "sphere" : "cylinder";
}

/// Coulomb friction: mu = kinetic + (static - kinetic) exp(-decay |slip rate|); none if both 0.
struct Friction {
  double mu_static = 0, mu_kinetic = 0, decay = 0;
  bool on() const { return mu_static > 0 || mu_kinetic > 0; }
};
/// Reads `friction: mu` or `friction: {static, kinetic, decay}` (InputError naming the key).
Friction parse_friction(const case_yaml::Node& f);

/// ", friction 0.3", ", friction 0.5 (static) / 0.3 (kinetic)" or ", frictionless", for the log.
std::string friction_text(const Friction& f);

/// The friction force on a node in contact (the force on it, tangential to the contact normal
/// n): the committed force tc (projected on the tangent plane) less k times the tangential part
/// of the relative slip d since the commit, returned onto the Coulomb cone mu f_n (the
/// regularised Coulomb law of penalty codes: an elastic stick of stiffness k, then slip). h: the
/// time since the commit (the slip rate for mu).
struct Slip {
  std::array<double, 3> force{0, 0, 0};
  bool slipping = false;
  double ratio = 1;                          ///< mu f_n / |T_trial| when slipping
  std::array<double, 3> direction{0, 0, 0};  ///< T_trial / |T_trial| when slipping
};
inline Slip coulomb(const Friction& f, const std::array<double, 3>& n, const double* tc,
                    const double* d, double k, double normal_force, double h) {
  Slip out;
  double dn = 0, tn = 0;
  for (int i = 0; i < 3; ++i) dn += d[i] * n[i], tn += tc[i] * n[i];
  double trial[3], slip2 = 0;
  for (int i = 0; i < 3; ++i) {
    const double dt = d[i] - dn * n[i];
    slip2 += dt * dt;
    trial[i] = (tc[i] - tn * n[i]) - k * dt;
  }
  const double rate = h > 0 ? std::sqrt(slip2) / h : 0.0;
  const double mu = f.mu_kinetic + (f.mu_static - f.mu_kinetic) * std::exp(-f.decay * rate);
  const double limit = mu * std::max(normal_force, 0.0);
  const double size = std::sqrt(trial[0] * trial[0] + trial[1] * trial[1] + trial[2] * trial[2]);
  if (size > limit) {
    out.slipping = true;
    out.ratio = limit / size;
    for (int i = 0; i < 3; ++i) out.direction[i] = trial[i] / size;
  }
  for (int i = 0; i < 3; ++i) out.force[i] = trial[i] * out.ratio;
  return out;
}

struct WallInput {
  std::string name, region;
  Shape shape = Shape::plane;
  std::array<double, 3> point{0, 0, 0};      ///< plane: a point; sphere: centre; cylinder: on axis
  std::array<double, 3> direction{0, 0, 1};  ///< plane: unit normal; cylinder: unit axis
  double radius = 0;
  double penalty = 0;  ///< Pa/m; 0: the section's penalty_scale rule
  Friction friction;
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
  Friction friction;
  std::string where;  ///< "<file>:<line>: contact.pairs[i]"
};

/// Augmented Lagrangian iterations (implicit schemes and static): per node a multiplier lambda,
/// the normal force max(0, lambda - k g); after each converged Newton solve lambda takes that
/// force until every node in contact is within `tolerance` of its surface.
struct Augmented {
  bool on = false;
  double tolerance = 0;  ///< m; 0: 1e-3 x the surface's characteristic length (contact.hpp)
  int iterations = 10;   ///< the largest number of multiplier updates per solve
  std::string where;     ///< "<file>:<line>: contact.augmented"
};

/// The energy of a node's normal force at fixed multiplier l: -l g + k g^2 / 2 while it presses
/// (p = l - k g > 0), -l^2 / (2 k) once it does not; its derivative in g is -max(0, p), and it
/// is 1/2 k g^2 for a plain penalty (l = 0).
inline double normal_energy(double l, double k, double g) {
  return l - k * g > 0 ? 0.5 * k * g * g - l * g : (l > 0 ? -0.5 * l * l / k : 0.0);
}

/// The share of a node's lumped mass the multiplier update counts as the inertia the constraint
/// sees (ForceTerm::augment): all of it with lumped mass (a diagonal mass adds at least that to
/// the constraint's stiffness), half with consistent mass (its Schur complement at a node can be
/// below the lumped share: an update that overshoots would not converge).
inline double augmented_mass_weight(const ProblemSpec& spec) {
  return spec.mass == MassTreatment::lumped ? 1.0 : 0.5;
}

struct ContactSection : TermSection {
  double penalty_scale = 0;  ///< 0: the scheme's default (contact.hpp)
  Augmented augmented;
  std::vector<WallInput> walls;
  std::vector<PairInput> pairs;
  /// The parsed values (friction 0.30 and 0.3 are the same section; term_contact.cpp).
  void fingerprint(Hasher& h) const override;
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
/// Collective. A surface's node spacing: the square root of its mean area share per node
/// (the augmented Lagrangian's default tolerance is 1e-3 of it).
double node_spacing(MPI_Comm comm, std::span<const double> areas);

/// Contact pairs' terms (contact_pairs.cpp).
void build_pair_terms(const TermInputs& in, const ContactSection& s,
                      std::vector<std::unique_ptr<ForceTerm>>& out);

}  // namespace inertia::contact_input
