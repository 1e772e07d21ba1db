#pragma once
// A contact pair's pieces (contact_pairs.cpp's module comment): its sides as set up from the
// mesh (contact_pair_sides.cpp), the search and the projection on the faces
// (contact_search.cpp). Private to src/system.
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "contact_section.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia::contact_input {

/// A face as sent between ranks: kind (3: triangle, 4: quadrilateral), orientation sign (0: a
/// shell's face, both sides), four global node numbers (the fourth -1 for a triangle), their
/// reference coordinates, the height of its solid cell over it, its shell's half thickness.
constexpr int record_size = 20;

/// A node deeper behind a face than this share of the height of the face's cell is not in
/// contact with it (LS-DYNA's automatic contacts release a node beyond 0.4 x a solid segment's
/// thickness): it is on the far side of the cell, such as a thin wall's other side.
constexpr double depth_share = 0.4;

using Vec3 = std::array<double, 3>;

inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// The closest point of x on a face (triangle: exact; quadrilateral: bilinear, Gauss-Newton from
/// the centre), its shape functions, the outward unit normal there and the gap along it.
struct Projection {
  bool within = false, inside = false;  ///< in the face; in it or its band
  double g = 0;
  Vec3 n{0, 0, 0};
  std::array<double, 4> N{0, 0, 0, 0};
};
/// kind 3 or 4 corners p, the face's orientation sign (contact_search.cpp).
Projection project(int kind, const Vec3* p, double sign, const Vec3& x);

/// Whether a node whose outward direction is `outward` faces a face of normal n: against it; a
/// shell's node (no outward direction: zero) faces any face with either of its sides.
inline bool facing(const Vec3& n, const Vec3& outward) {
  const double d = dot(n, outward);
  return d < 0 || (outward[0] == 0 && outward[1] == 0 && outward[2] == 0);
}

/// One side of a pair: its faces on this rank (as records) and its owned nodes.
struct Side {
  std::string region;
  std::vector<double> faces;             ///< records (record_size each)
  std::vector<std::int32_t> face_local;  ///< per record: its 4 local nodes (-1: none)
  std::vector<std::int32_t> nodes;       ///< owned local nodes of the region's faces
  std::vector<double> areas;             ///< their share of the faces' area
  std::vector<Vec3> outward;   ///< their outward unit direction (from the solids; shells: zero)
  std::vector<double> half;    ///< their shells' half thickness (0: a solid's node)
  std::vector<Vec3> normal;    ///< their unit surface normal (from the faces)
  std::vector<double> k;       ///< their penalty (set_up)
  std::vector<double> m;       ///< augmented: their mass share for the update (set_up)
  std::vector<double> height;  ///< their cells' smallest height over the surface (move only)
};

/// Collective. The sides of a pair (one per surface) from the mesh, and half the mean edge of
/// their faces (the default margin), contact_pair_sides.cpp. With `initial_penetration: move`
/// the sides' heights too.
struct PairSides {
  std::vector<Side> sides;
  double half_edge = 0;
};
/// Erosion: `eroded` per local cell (surface_faces), the sides' skins without those cells.
PairSides pair_sides(const TermInputs& in, const PairInput& pair,
                     const std::vector<std::uint8_t>* eroded = nullptr);

/// Collective. Element erosion and the pair (contact_pair_erosion.cpp): whether its sides change
/// as cells erode (a side whose region's cells have nodes of cells with a failure criterion).
/// InputError naming the pair for a region of faces on such cells, friction or
/// `initial_penetration: ignore` on such a pair.
bool check_erosion(const TermInputs& in, const PairInput& pair);

/// The penalties k of the sides' nodes (ForceTerm::set_up): a quarter per pass (two passes
/// between matching meshes put 2 k between two nodes of mass m, whose frequency 4 k / m is then a
/// wall's on one such node, contact.hpp) of the pair's penalty times the node's area, or of
/// `scale` times the largest entry of the node's stiffness diagonal; with augmented Lagrangian
/// iterations (mass_weight > 0) their mass shares. Returns the largest 4 k / m.
double pair_penalties(std::vector<Side>& sides, const PairInput& pair, double scale,
                      double mass_weight, std::span<const PetscScalar> diagonal,
                      std::span<const PetscScalar> mass);
/// The owned nodes forces can reach (the sides' nodes, sorted), with each one's area share,
/// surface normal and shells' half thickness (for the pressure), from the first side that has it.
void touched_nodes(const std::vector<Side>& sides, std::vector<std::int32_t>& nodes,
                   std::vector<double>& areas, std::vector<Vec3>& normals,
                   std::vector<double>& halves);

/// One pass: the nodes of side `slave` against the faces of side `master`, with the faces this
/// rank received at the last search.
struct Pass {
  int slave = 0, master = 1;
  std::size_t first = 0;           ///< its slave nodes' first entry in the pair's NodeContactState
  std::vector<std::int64_t> gids;  ///< the received faces' nodes (sorted)
  std::vector<Vec3> X;             ///< their reference coordinates
  struct Face {
    int kind;
    double sign;
    std::array<std::int32_t, 4> node;  ///< indices into gids
    std::array<std::int64_t, 4> key;   ///< sorted global nodes (a node's own faces)
    Vec3 centre;                       ///< reference centre: ties broken alike on any ranks
    double limit;                      ///< the deepest contact: depth_, or depth_share x height
    bool two_sided;                    ///< a shell's face: either side faces out
    double half;                       ///< its shell's half thickness (0: a solid's face)
  };
  std::vector<Face> faces;
  std::vector<std::int64_t> candidate_ptr;  ///< per slave node: its candidate faces
  std::vector<std::int32_t> candidates;
  petsc::Vector ug;                  ///< the displacement of gids (sequential)
  petsc::VecScatterHandle scatter;   ///< u -> ug
  std::vector<double> ug_at_search;  ///< ug when the candidates were found
  std::vector<double> fm;            ///< forces on gids, summed back through the scatter
  petsc::Vector fm_vec;              ///< fm as the reverse scatter's source (sequential)
  petsc::Vector ugc;                 ///< the committed displacement of gids (friction)
  /// Augmented Lagrangian, per slave node: the last evaluation's normal force (0 where the node
  /// does not press).
  std::vector<double> pressing;
  /// `initial_penetration: ignore`, per slave node: its initial gap (<= 0), below which it acts.
  std::vector<double> offset;
  /// Two-sided (shell) faces, per slave node: the contact normal of its last evaluation in
  /// contact with such a face (zero: none, or it left contact). The side it pushes from while
  /// it stays in contact: a node driven past the shell's mid-surface is pushed back, not through.
  std::vector<Vec3> side;
  /// Implicit schemes: per slave node in contact, what its tangent needs (add_coupling).
  struct Link {
    std::int64_t slave;
    int kind;
    std::array<std::int64_t, 4> master;  ///< global nodes
    std::array<double, 4> N;
    Vec3 n;
    double k;
    Slip slip;  ///< friction: its tangents (the stick spring's where the node only touches)
  };
  std::vector<Link> links;
  // The evaluation's results.
  std::vector<double> gap;  ///< per slave node: its gap if in contact, else 0
  Vec3 force{0, 0, 0};      ///< on the slave nodes, by the master faces
  double normal = 0;        ///< the sum of k |g|
  std::int64_t active = 0;
  double deepest = 0;
  double energy = 0;
};

/// What the search works in: the pair's communicator and mesh, its margin and depth
/// (contact_pairs.cpp).
struct SearchSpace {
  MPI_Comm comm;
  int rank = 0, size = 1;
  const LocalMesh& mesh;
  double margin = 0, depth = 0;
};
/// Erosion: per owned node, the penalty energy a pair's rebuilt surfaces let go (the energy at
/// the erosion's u before the rebuild less after), since the start (contact_pair_erosion.cpp);
/// a pair that rebuilds has neither friction nor multipliers (check_erosion), so a slave node's
/// energy is 1/2 k g^2.
class ReleasedEnergy {
 public:
  void start(std::int32_t owned_nodes) { values_.assign(static_cast<std::size_t>(owned_nodes), 0); }
  bool on() const { return !values_.empty(); }
  /// Adds sign x each pass's slave nodes' energy at their last evaluation.
  void book(const std::vector<Pass>& passes, const std::vector<Side>& sides, double sign);
  /// This rank's sum.
  double total() const;
  /// Into / from the first component of the owned entries of a vector laid out as u.
  void save(std::span<PetscScalar> owned) const;
  void load(std::span<const PetscScalar> owned);

 private:
  std::vector<double> values_;
};

/// Collective. Each pass's faces (received from their ranks), their nodes' scatter and
/// displacement at u, and each slave node's candidate faces at u (contact_pairs.cpp's module
/// comment); u's owned entries into u_at_search.
void search_faces(const SearchSpace& space, const std::vector<Side>& sides,
                  std::vector<Pass>& passes, Vec u, std::vector<double>& u_at_search);

/// The face a slave node at x (entry j of pass p: its outward direction, its shells' half
/// thickness, its initial gap o) contacts among its candidates, the faces' nodes at displacement
/// ug: inside it, facing it, not deeper than its limit beyond o, not farther in front than `depth`;
/// a face that has the point within it before one whose band has it, then the nearest, ties broken
/// by the faces' nodes. With `leaving` (a node with a committed friction force), also the nearest
/// face it faces (where it left). The projection of x (a node of shells with half thickness `half`,
/// 0 for a solid's) on a face at corners pts: a two-sided face's normal turned to x's side; the gap
/// less both half thicknesses (the shells' surfaces, not their mid-surfaces, touch).
/// `side` (or zero): the side of a two-sided face to take, the one whose normal points along it
/// (a node in contact keeps its side; then g < -h_s - h_f past the mid-surface).
Projection project_on(const Pass::Face& face, const Vec3* pts, const Vec3& x, double half,
                      const Vec3& side = {0, 0, 0});

struct FaceChoice {
  const Pass::Face* chosen = nullptr;
  Projection best;
  const Pass::Face* left = nullptr;
  Projection exit;
};
FaceChoice choose_face(const Pass& p, std::size_t j, const Vec3& x, const Vec3& outward,
                       double half, std::span<const PetscScalar> ug, double o, double depth,
                       bool leaving, const Vec3& side = {0, 0, 0});

/// The tangent blocks of a slave node in contact (implicit schemes, ForceTerm::add_coupling):
/// node-to-surface with the normal, the face's point and the friction state of the evaluation
/// held fixed, the node's gap g = n . (x_s - sum_a N_a x_a) is linear in the nodes'
/// displacements with coefficients c = (1, -N_1, ..., -N_m), so the tangent between nodes a and
/// b is c_a c_b (k n n^T + with `friction` the return map's symmetric tangent). The terms of n's
/// and N's change (order g, small under a stiff penalty) are left out: Newton converges, not
/// quadratically.
void add_link_blocks(const Pass::Link& l, bool friction,
                     std::vector<ForceTerm::CouplingBlock>& blocks);

/// Collective. A pair's surfaces in the reference configuration (its passes searched at u = 0,
/// contact_pair_start.cpp): nodes behind a face they face (initial penetrations: refused, an
/// InputError with their count and the deepest node, as a wall refuses them; with `ignore` each
/// keeps its depth as its pass's offset), and two surfaces within the search distance of each
/// other that nowhere face each other (a body's far face given: a warning line).
struct StartCheck {
  std::vector<std::string> warnings;
  std::int64_t initial = 0;  ///< nodes starting behind a face they face
  double initial_depth = 0;  ///< and the deepest
};
StartCheck check_pair_start(const SearchSpace& space, const PairInput& pair,
                            const std::vector<Side>& sides, std::vector<Pass>& passes);
/// Collective. `initial_penetration: move`: the moves of pass p's slave nodes (owned) that start
/// behind a face they face onto that face (the deepest one), into v (a zero global vector; p
/// searched at u = 0); the number of nodes moved and the longest move. InputError naming the
/// pair for a move longer than half the node's own cells' height.
struct InitialMoves {
  petsc::Vector moves;
  std::int64_t count = 0;
  double longest = 0;
};
InitialMoves initial_moves_of(const SearchSpace& space, const PairInput& pair, const Side& slave,
                              const Pass& p, petsc::Vector v);

/// A pair's figures for its log line (ForceTerm::summary; contact_pair_start.cpp).
struct PairFigures {
  double margin = 0, reach = 0;  ///< the search's margin; twice the largest half thickness
  std::int64_t initial = 0;      ///< `ignore`: the initial penetrations kept, and the deepest
  double initial_depth = 0;
  bool rebuilds = false;  ///< erosion changes its sides
  const Augmented& augmented;
};
/// Collective. The log line of the pair `what` (its description) with sides `sides`.
std::string pair_summary(MPI_Comm comm, const std::string& what, const PairInput& pair,
                         const std::vector<Side>& sides, const PairFigures& f);
/// The largest squared motion of the sides' (owned) nodes at u and of the passes' faces' nodes
/// (their ug) since the search (u_at_search, ug_at_search), on this rank.
double largest_motion_squared(const std::vector<Side>& sides, const std::vector<Pass>& passes,
                              Vec u, std::span<const double> u_at_search);

}  // namespace inertia::contact_input
