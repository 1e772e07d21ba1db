#pragma once
// The case file's `contact:` section as read (term_contact.cpp parses it; the walls' and the
// pairs' terms are built from it). Private to src/system.
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "inertia/system/force_term.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {
namespace case_yaml {
struct Node;
}
struct ShellInput;
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
/// time since the commit (the slip rate for mu: the tangential part of d over h).
struct Slip {
  std::array<double, 3> force{0, 0, 0};
  bool slipping = false;
  /// The return map's tangent: the derivative of the internal force (-force) in d, row i column
  /// l, with the normal force f_n = l - k g depending on d through g = n . d. Sticking, the
  /// tangential spring k (I - n n^T); slipping, mu f_n / |T_trial| times its part across the
  /// slip direction s, plus s (mu k n - f_n dmu/drate e / h)^T, e the unit tangential slip (not
  /// symmetric).
  std::array<double, 9> tangent{0, 0, 0, 0, 0, 0, 0, 0, 0};
  /// Its symmetric part without the normal force's and the slip rate's terms (the stick spring,
  /// or mu f_n / |T_trial| times its part across s): the pairs' (their tangent couples nodes,
  /// where an unsymmetric one defeats Newton's symmetric factorisation).
  std::array<double, 9> symmetric{0, 0, 0, 0, 0, 0, 0, 0, 0};
};
inline Slip coulomb(const Friction& f, const std::array<double, 3>& n, const double* tc,
                    const double* d, double k, double normal_force, double h) {
  Slip out;
  double dn = 0, tn = 0;
  for (int i = 0; i < 3; ++i) dn += d[i] * n[i], tn += tc[i] * n[i];
  double trial[3], dt[3], slip2 = 0;
  for (int i = 0; i < 3; ++i) {
    dt[i] = d[i] - dn * n[i];
    slip2 += dt[i] * dt[i];
    trial[i] = (tc[i] - tn * n[i]) - k * dt[i];
  }
  const double slip = std::sqrt(slip2), rate = h > 0 ? slip / h : 0.0;
  const double e = std::exp(-f.decay * rate);
  const double mu = f.mu_kinetic + (f.mu_static - f.mu_kinetic) * e;
  const double fn = std::max(normal_force, 0.0), limit = mu * fn;
  const double size = std::sqrt(trial[0] * trial[0] + trial[1] * trial[1] + trial[2] * trial[2]);
  for (int i = 0; i < 3; ++i)
    for (int l = 0; l < 3; ++l) out.tangent[3 * i + l] = k * ((i == l ? 1.0 : 0.0) - n[i] * n[l]);
  if (!(size > limit)) {
    for (int i = 0; i < 3; ++i) out.force[i] = trial[i];
    out.symmetric = out.tangent;
    return out;
  }
  out.slipping = true;
  const double ratio = limit / size;
  double s[3];
  for (int i = 0; i < 3; ++i) s[i] = trial[i] / size, out.force[i] = trial[i] * ratio;
  // T = mu(|d_t| / h) f_n s: d s = -(k / |T_trial|) (P - s s^T) dd, d f_n = -k n . dd,
  // d mu = dmu/drate (d_t / |d_t|) . dd / h.
  const double rate_term =
      slip > 0 && h > 0 ? -fn * f.decay * (f.mu_static - f.mu_kinetic) * e / h / slip : 0.0;
  for (int i = 0; i < 3; ++i)
    for (int l = 0; l < 3; ++l) {
      const double p = (i == l ? 1.0 : 0.0) - n[i] * n[l];
      out.symmetric[3 * i + l] = ratio * k * (p - s[i] * s[l]);
      out.tangent[3 * i + l] =
          out.symmetric[3 * i + l] + s[i] * (mu * k * n[l] - rate_term * dt[l]);
    }
  return out;
}

struct WallInput {
  std::string name, region;
  Shape shape = Shape::plane;
  std::array<double, 3> point{0, 0, 0};      ///< plane: a point; sphere: centre; cylinder: on axis
  std::array<double, 3> direction{0, 0, 1};  ///< plane: unit normal; cylinder: unit axis
  double radius = 0;
  double penalty = 0;  ///< Pa/m; 0: the section's penalty_scale rule
  double damping = 0;  ///< the normal dashpot, a fraction of the penalty's critical damping
  Friction friction;
  /// A moving wall: its translation D and amplitude (the wall at point + a(t) D).
  bool moving = false;
  std::array<double, 3> motion{0, 0, 0};
  std::string amplitude;  ///< empty: the case's default (constant; the ramp under static)
  int motion_line = 0;
  /// A drop weight (wall_body.hpp): a wall with a mass (kg) and an initial velocity, moved by the
  /// contact force instead of a prescribed motion; mass 0: a fixed or moving wall.
  double mass = 0;
  std::array<double, 3> initial_velocity{0, 0, 0};
  std::string where;  ///< "<file>:<line>: contact.walls[i]"
};

/// What a pair does with nodes that start behind a face they face (`initial_penetration`):
/// refuse the run, move them onto the face before it (the mesh changes), or keep them there (the
/// contact acts on the penetration beyond the initial one, LS-DYNA's IGNORE).
enum class InitialPenetration { error, move, ignore };
inline const char* initial_penetration_name(InitialPenetration i) {
  return i == InitialPenetration::error  ? "error"
         : i == InitialPenetration::move ? "move"
                                         : "ignore";
}

/// A contact pair (contact_pairs.cpp): the nodes of each surface may not pass the other's faces.
struct PairInput {
  std::string name;
  std::vector<std::string> surfaces;  ///< two regions of faces or volumes, or one (self-contact)
  double penalty = 0;                 ///< Pa/m; 0: the section's penalty_scale rule
  double margin = 0;                  ///< m; 0: half the mean face edge of the pair
  Friction friction;
  InitialPenetration initial = InitialPenetration::error;
  /// Erosion: the faces that eroded cells uncover join the surfaces (LS-DYNA's eroding
  /// contacts); false: only the eroded cells' faces leave them.
  bool eroding = true;
  std::string where;  ///< "<file>:<line>: contact.pairs[i]"
  /// `move`: the nodes moved before the terms were built and the largest move (m), set by
  /// move_initial_penetrations (the mesh's preparation) for the pair's log line.
  mutable std::int64_t moved = 0;
  mutable double largest_move = 0;
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

/// The penalty scale of a section: its own, or the schemes' default (contact.hpp).
inline double penalty_scale(const ContactSection& s, const ProblemSpec& spec) {
  return s.penalty_scale > 0 ? s.penalty_scale : spec.explicit_steps ? 1.0 : 10.0;
}

/// A face of a contact surface on this rank: its type (tri3, quad4, tri6), local nodes, and the
/// height over it of the solid cell it belongs to (infinite where none has it). A shell's face
/// (its mid-surface: the shell4's quad4, the shell3's tri3) has both sides and half its
/// thickness: contact starts where another surface comes within that of its mid-surface.
struct SurfaceFace {
  CellType type = CellType::tri3;
  int count = 0;
  std::array<std::int32_t, 6> node{-1, -1, -1, -1, -1, -1};
  double height = INFINITY;
  bool oriented = false;  ///< nodes ordered so that the normal points out of the cell (volumes)
  double half = 0;        ///< a shell's half thickness (two-sided); 0: a solid's face
};
/// The `shells:` entry of a region (null: none).
const ShellInput* shell_input(const ProblemSpec& spec, const std::string& region);

/// Collective. Contact pairs on shells with an offset: a copy of the inputs' mesh whose nodes of
/// those shells (the pair's surfaces' regions) sit on their mid-surface, -o times their shells'
/// mean e3 from where they are (summed over the ranks); null where no surface has an offset.
/// The pair then sees the mid-surfaces, with half the thickness either side, as for shells
/// without one. The shift d_n is the reference's; the terms turn it with the nodes
/// (contact_offsets.hpp: the point X'_n + u_n + (R(psi_r) - I) d_n, and the force's moment over
/// the offset on the rotation node), so gaps are exact at any rotation and the forces are the
/// gradient of the penalty energy in u and psi. Walls and pairs alike; left out: the rotations'
/// share of the implicit tangent (Newton converges, not quadratically), a damped wall's dashpot
/// (refused) and `initial_penetration: move` (refused).
std::shared_ptr<const LocalMesh> offset_mesh(const TermInputs& in,
                                             const std::vector<std::string>& regions);

/// The faces of a region on this rank: a region of faces, its cells; a volume (dimension 3), its
/// skin: the faces of its solid cells that no other solid cell (of any region) shares, held by
/// the rank of their cell (contact_surfaces.cpp). Collective; InputError naming `where` for an
/// unknown region or one without faces.
struct Surface {
  int region = -1;
  bool volume = false;
  std::vector<SurfaceFace> faces;
};
/// Erosion: `eroded`, per local cell (null: none), 1 for a cell that has eroded; an eroded cell
/// is not there (its faces leave the skin, its neighbours' faces it covered join it).
/// With `uncovered` false, the faces an eroded cell covered stay off the skin (the skin of the
/// whole mesh less the eroded cells' faces).
Surface surface_faces(const TermInputs& in, const std::string& region, const std::string& where,
                      const std::vector<std::uint8_t>* eroded = nullptr, bool uncovered = true);

/// Collective. Per local node: 1 if it is a node of a solid cell whose material has a failure
/// criterion (erosion: the cell may leave the model), on any rank.
std::vector<char> erodible_nodes(const TermInputs& in);

/// The owned nodes of a surface's faces (surface_faces) and each one's share of the faces' area
/// (summed over the ranks). Collective; InputError as surface_faces.
/// A shell surface's nodes have their shells' half thickness (the largest of their faces'; 0 on
/// a solid's surface): a wall or a face holds them that far from their mid-surface.
struct SurfaceNodes {
  int region = -1;
  bool volume = false;
  std::vector<std::int32_t> nodes;
  std::vector<double> areas;
  std::vector<double> half;
};
SurfaceNodes surface_nodes(const TermInputs& in, const std::string& region,
                           const std::string& where);
SurfaceNodes surface_nodes(const TermInputs& in, const Surface& surface);
/// Collective. A surface's node spacing: the square root of its mean area share per node
/// (the augmented Lagrangian's default tolerance is 1e-3 of it).
double node_spacing(MPI_Comm comm, std::span<const double> areas);

/// Contact pairs' terms (contact_pairs.cpp).
void build_pair_terms(const TermInputs& in, const ContactSection& s,
                      std::vector<std::unique_ptr<ForceTerm>>& out);
/// Collective. The pairs with `initial_penetration: move`: their nodes that start behind a face
/// they face moved onto it, in `mesh` (the inputs' mesh), before any term is built
/// (contact_pairs.cpp). InputError naming the pair for a move above half the height of the
/// node's own cells.
void move_initial_penetrations(const TermInputs& in, const ContactSection& s, LocalMesh& mesh);

}  // namespace inertia::contact_input
