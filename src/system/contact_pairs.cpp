// Contact between bodies (contact.hpp, "pairs"): node-to-surface penalty contact, both ways.
//
// A pair of surfaces A and B (regions of boundary faces; one region: a surface touching itself)
// makes two passes, A's nodes against B's faces and B's nodes against A's faces (one pass for
// self-contact), so that neither side passes the other. A node whose closest point on a face lies
// inside the face, behind it (gap g < 0, along the face's outward normal n) and facing it (the
// node's outward direction against n) gets the internal force k g n, the face's nodes -k g N_a n
// (N_a the face's shape functions at the closest point): momentum is exact, and the energy is
// 1/2 k g^2.
//
// The search never gathers a surface on one rank. Each rank holds the faces of its cells; at a
// search the ranks exchange the boxes of their contact nodes, and a rank sends each other rank
// the faces whose box (grown by the margin) meets that rank's nodes' box, as reference
// coordinates and global node numbers. The receiving rank reads the current displacement of
// those faces' nodes through one PETSc scatter per step and adds their forces back through the
// same scatter, reversed. The candidate faces of each node (boxes grown by the margin) hold until
// the surfaces have moved, relative to each other, by more than the margin since the search:
// then the search runs again.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "contact_section.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/contact.hpp"

namespace inertia {

using namespace contact_input;

namespace {

/// A face as sent between ranks: kind (3: triangle, 4: quadrilateral), orientation sign, four
/// global node numbers (the fourth -1 for a triangle), their reference coordinates, the height
/// of its solid cell over it.
constexpr int record_size = 19;

/// A node deeper behind a face than this share of the height of the face's cell is not in
/// contact with it (LS-DYNA's automatic contacts release a node beyond 0.4 x a solid segment's
/// thickness): it is on the far side of the cell, such as a thin wall's other side.
constexpr double depth_share = 0.4;

/// A node that starts behind a face may be moved onto it up to this share of its own cells'
/// height over its surface (`initial_penetration: move`): a longer move would crush them.
constexpr double move_share = 0.5;

using Vec3 = std::array<double, 3>;

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// The closest point of x on a face (triangle: exact; quadrilateral: bilinear, Gauss-Newton from
/// the centre), its shape functions, the outward unit normal there and the gap along it.
struct Projection {
  bool within = false, inside = false;  ///< in the face; in it or its band
  double g = 0;
  Vec3 n{0, 0, 0};
  std::array<double, 4> N{0, 0, 0, 0};
};

/// In the face's parametric coordinates: `within` a face, and `inside` its band, which counts
/// where no face has the point within (the gap above a kink of a faceted convex surface, which a
/// node would otherwise slip through: Newton then cycles).
constexpr double inside_tolerance = 1e-6, band = 0.05;

Projection project(int kind, const Vec3* p, double sign, const Vec3& x) {
  Projection out;
  if (kind == 3) {
    const Vec3 e1{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
    const Vec3 e2{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
    const Vec3 d{x[0] - p[0][0], x[1] - p[0][1], x[2] - p[0][2]};
    const double a11 = dot(e1, e1), a12 = dot(e1, e2), a22 = dot(e2, e2);
    const double det = a11 * a22 - a12 * a12;
    if (!(det > 0)) return out;
    const double b1 = dot(d, e1), b2 = dot(d, e2);
    const double xi = (a22 * b1 - a12 * b2) / det, eta = (a11 * b2 - a12 * b1) / det;
    Vec3 n = cross(e1, e2);
    const double l = std::sqrt(dot(n, n));
    for (auto& c : n) c *= sign / l;
    out.within =
        xi >= -inside_tolerance && eta >= -inside_tolerance && xi + eta <= 1 + inside_tolerance;
    out.inside = xi >= -band && eta >= -band && xi + eta <= 1 + band;
    out.N = {1 - xi - eta, xi, eta, 0};
    out.n = n;
    out.g = dot(d, n);
    return out;
  }
  static constexpr double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
  double xi = 0, eta = 0;
  Vec3 r{}, tx{}, ty{};
  for (int it = 0; it < 6; ++it) {
    r = x, tx = {0, 0, 0}, ty = {0, 0, 0};
    for (int a = 0; a < 4; ++a) {
      const double N = 0.25 * (1 + sx[a] * xi) * (1 + sy[a] * eta);
      const double dx = 0.25 * sx[a] * (1 + sy[a] * eta), dy = 0.25 * sy[a] * (1 + sx[a] * xi);
      for (int i = 0; i < 3; ++i) {
        r[i] -= N * p[a][i];
        tx[i] += dx * p[a][i];
        ty[i] += dy * p[a][i];
      }
    }
    const double a11 = dot(tx, tx), a12 = dot(tx, ty), a22 = dot(ty, ty);
    const double det = a11 * a22 - a12 * a12;
    if (!(det > 0)) return out;
    const double b1 = dot(r, tx), b2 = dot(r, ty);
    const double dxi = (a22 * b1 - a12 * b2) / det, deta = (a11 * b2 - a12 * b1) / det;
    xi += dxi, eta += deta;
    if (std::abs(dxi) + std::abs(deta) < 1e-12) break;
  }
  r = x, tx = {0, 0, 0}, ty = {0, 0, 0};
  for (int a = 0; a < 4; ++a) {
    out.N[a] = 0.25 * (1 + sx[a] * xi) * (1 + sy[a] * eta);
    const double dx = 0.25 * sx[a] * (1 + sy[a] * eta), dy = 0.25 * sy[a] * (1 + sx[a] * xi);
    for (int i = 0; i < 3; ++i) {
      r[i] -= out.N[a] * p[a][i];
      tx[i] += dx * p[a][i];
      ty[i] += dy * p[a][i];
    }
  }
  Vec3 n = cross(tx, ty);
  const double l = std::sqrt(dot(n, n));
  if (!(l > 0)) return out;
  for (auto& c : n) c *= sign / l;
  out.within = std::abs(xi) <= 1 + inside_tolerance && std::abs(eta) <= 1 + inside_tolerance;
  out.inside = std::abs(xi) <= 1 + band && std::abs(eta) <= 1 + band;
  out.n = n;
  out.g = dot(r, n);
  return out;
}

/// One side of a pair: its faces on this rank (as records) and its owned nodes.
struct Side {
  std::string region;
  std::vector<double> faces;             ///< records (record_size each)
  std::vector<std::int32_t> face_local;  ///< per record: its 4 local nodes (-1: none)
  std::vector<std::int32_t> nodes;       ///< owned local nodes of the region's faces
  std::vector<double> areas;             ///< their share of the faces' area
  std::vector<Vec3> outward;             ///< their outward unit direction (from the elements)
  std::vector<Vec3> normal;              ///< their unit surface normal (from the faces)
  std::vector<double> k;                 ///< their penalty (set_up)
  std::vector<double> m;                 ///< augmented: their mass share for the update (set_up)
  std::vector<double> height;  ///< their cells' smallest height over the surface (move only)
};

/// One pass: the nodes of side `slave` against the faces of side `master`, with the faces this
/// rank received at the last search.
struct Pass {
  int slave = 0, master = 1;
  std::vector<std::int64_t> gids;  ///< the received faces' nodes (sorted)
  std::vector<Vec3> X;             ///< their reference coordinates
  struct Face {
    int kind;
    double sign;
    std::array<std::int32_t, 4> node;  ///< indices into gids
    std::array<std::int64_t, 4> key;   ///< sorted global nodes: ties broken the same on any ranks
    double limit;                      ///< the deepest contact: depth_, or depth_share x height
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
  // Friction, per slave node: the committed force, and the last evaluation's force and relative
  // slip since the commit.
  std::vector<double> tc, T, d;
  // Augmented Lagrangian, per slave node: the trial and committed multipliers, and the last
  // evaluation's normal force (0 where the node does not press).
  std::vector<double> lambda, lambda_c, pressing;
  /// `initial_penetration: ignore`, per slave node: its initial gap (<= 0), below which it acts.
  std::vector<double> offset;
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

class ContactPairTerm final : public ContactTerm {
 public:
  ContactPairTerm(const TermInputs& in, const PairInput& pair, double scale,
                  const Augmented& augmented)
      : comm_(in.comm), mesh_(in.mesh), pair_(pair), scale_(scale), augmented_(augmented) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    implicit_ = !in.spec.explicit_scheme;
    const int sides = static_cast<int>(pair.surfaces.size());
    sides_.resize(static_cast<std::size_t>(sides));
    std::vector<Surface> surfaces;
    for (int s = 0; s < sides; ++s) {
      Side& side = sides_[s];
      side.region = pair.surfaces[s];
      surfaces.push_back(surface_faces(in, side.region, cat(pair.where, ".surfaces")));
      SurfaceNodes surface = surface_nodes(in, surfaces.back());
      side.nodes = std::move(surface.nodes);
      side.areas = std::move(surface.areas);
      side.k.assign(side.nodes.size(), 0.0);
    }
    // Each node's outward direction: the sum over its elements of (node - element centre).
    petsc::Vector outward = in.assembler.create_vector();
    in.assembler.assemble(outward, [&](VectorSum& sum) {
      auto local = sum.local();
      for (std::int64_t c = 0; c < mesh_.num_cells(); ++c) {
        if (!mesh_.cell_is_element[c] || info(mesh_.cell_types[c]).dim != 3) continue;
        const auto nodes = mesh_.nodes_of(c);
        double centre[3] = {0, 0, 0};
        for (auto n : nodes)
          for (int i = 0; i < 3; ++i) centre[i] += mesh_.coords[3 * n + i] / nodes.size();
        for (auto n : nodes)
          for (int i = 0; i < 3; ++i) local[3 * n + i] += mesh_.coords[3 * n + i] - centre[i];
      }
    });
    double edges[2] = {0, 0};  // the faces' edge lengths summed, and their number
    std::vector<std::pair<std::int32_t, Vec3>> face_normals[2];  // per side: node, area vector
    {
      petsc::GhostedRead o(outward);
      auto direction = [&](std::int32_t n) {
        Vec3 d{o[3 * n], o[3 * n + 1], o[3 * n + 2]};
        const double l = std::sqrt(dot(d, d));
        if (l > 0)
          for (auto& c : d) c /= l;
        return d;
      };
      for (int s = 0; s < sides; ++s) {
        Side& side = sides_[s];
        for (auto n : side.nodes) side.outward.push_back(direction(n));
        face_normals[s].clear();
        for (const SurfaceFace& surface_face : surfaces[s].faces) {
          const CellType t = surface_face.type;
          const std::span<const std::int32_t> nodes(surface_face.node.data(),
                                                    static_cast<std::size_t>(surface_face.count));
          // tri6 (tet10's faces): four flat triangles through the mid-side nodes.
          static constexpr int tri6[4][3] = {{0, 3, 5}, {3, 1, 4}, {5, 4, 2}, {3, 4, 5}};
          std::vector<std::array<int, 4>> parts;
          if (t == CellType::tri3)
            parts = {{0, 1, 2, -1}};
          else if (t == CellType::quad4)
            parts = {{0, 1, 2, 3}};
          else if (t == CellType::tri6)
            for (const auto& p : tri6) parts.push_back({p[0], p[1], p[2], -1});
          else
            continue;
          // Orientation: the face's normal (node order) against its nodes' outward directions.
          Vec3 sum{0, 0, 0};
          for (auto n : nodes) {
            const Vec3 d = direction(static_cast<std::int32_t>(n));
            for (int i = 0; i < 3; ++i) sum[i] += d[i];
          }
          auto x = [&](int a) {
            const double* p = &mesh_.coords[3 * nodes[a]];
            return Vec3{p[0], p[1], p[2]};
          };
          const Vec3 x0 = x(0), x1 = x(1), x2 = x(2);
          const Vec3 normal = cross({x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]},
                                    {x2[0] - x0[0], x2[1] - x0[1], x2[2] - x0[2]});
          const double sign = !surface_face.oriented && dot(normal, sum) < 0 ? -1.0 : 1.0;
          {  // the face's outward area vector, shared by its nodes (the nodes' surface normals)
            Vec3 area = normal;
            if (t == CellType::quad4) {
              const Vec3 x3 = x(3);
              area = cross({x2[0] - x0[0], x2[1] - x0[1], x2[2] - x0[2]},
                           {x3[0] - x1[0], x3[1] - x1[1], x3[2] - x1[2]});
            }
            for (auto n : nodes)
              face_normals[s].emplace_back(static_cast<std::int32_t>(n),
                                           Vec3{sign * area[0], sign * area[1], sign * area[2]});
          }
          for (const auto& part : parts) {
            const int kind = part[3] < 0 ? 3 : 4;
            double r[record_size];
            std::fill(r, r + record_size, 0.0);
            r[0] = kind;
            r[1] = sign;
            r[18] = surface_face.height;
            std::array<std::int32_t, 4> local{-1, -1, -1, -1};
            for (int a = 0; a < 4; ++a) {
              if (a >= kind) {
                r[2 + a] = -1;
                continue;
              }
              const auto n = static_cast<std::int32_t>(nodes[part[a]]);
              local[a] = n;
              r[2 + a] = static_cast<double>(mesh_.global_node(n));
              for (int i = 0; i < 3; ++i) r[6 + 3 * a + i] = mesh_.coords[3 * n + i];
            }
            for (int a = 0; a < kind; ++a) {
              const int b = (a + 1) % kind;
              double l2 = 0;
              for (int i = 0; i < 3; ++i) l2 += std::pow(r[6 + 3 * a + i] - r[6 + 3 * b + i], 2);
              edges[0] += std::sqrt(l2);
              edges[1] += 1;
            }
            side.faces.insert(side.faces.end(), r, r + record_size);
            side.face_local.insert(side.face_local.end(), local.begin(), local.end());
          }
        }
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, edges, 2, MPI_DOUBLE, MPI_SUM, comm_));
    if (pair.initial == InitialPenetration::move)
      for (int s = 0; s < sides; ++s) own_heights(in.assembler, surfaces[s], sides_[s]);
    // Each node's surface normal: the sum of its faces' outward area vectors (over the ranks).
    for (int s = 0; s < sides; ++s) {
      petsc::Vector normals = in.assembler.create_vector();
      in.assembler.assemble(normals, [&](VectorSum& sum) {
        auto local = sum.local();
        for (const auto& [n, a] : face_normals[s])
          for (int i = 0; i < 3; ++i) local[3 * n + i] += a[i];
      });
      petsc::ConstArray v(normals);
      Side& side = sides_[s];
      for (auto n : side.nodes) {
        Vec3 d{v[3 * n], v[3 * n + 1], v[3 * n + 2]};
        const double l = std::sqrt(dot(d, d));
        if (l > 0)
          for (auto& c : d) c /= l;
        side.normal.push_back(d);
      }
    }
    // Half the mean edge: a few candidate faces per node where the faces are finest. The longest
    // edge made the large faces far from the contact set every node's search radius.
    margin_ = pair.margin > 0 ? pair.margin : 0.5 * edges[0] / std::max(edges[1], 1.0);
    depth_ = 0.5 * margin_;
    if (sides == 1) {
      passes_.resize(1);
      passes_[0].slave = passes_[0].master = 0;
    } else {
      passes_.resize(2);
      passes_[1].slave = 1, passes_[1].master = 0;
    }
    if (augmented_.on) {
      std::vector<double> areas;
      for (Pass& p : passes_) {
        const Side& slave = sides_[p.slave];
        p.lambda.assign(slave.nodes.size(), 0.0);
        p.lambda_c = p.pressing = p.lambda;
        areas.insert(areas.end(), slave.areas.begin(), slave.areas.end());
      }
      if (!(augmented_.tolerance > 0)) augmented_.tolerance = 1e-3 * node_spacing(comm_, areas);
      // The gap's inertia with a face of nodes as heavy as the node: half its mass (sum N_a^2
      // <= 1); shared by the two passes, which update the same interface (a step of twice the
      // gap's stiffness would not converge).
      mass_weight_ = (passes_.size() == 2 ? 0.25 : 0.5) * augmented_mass_weight(in.spec);
      for (Side& side : sides_) side.m.assign(side.nodes.size(), 0.0);
    }
    // The owned nodes forces can reach: the sides' nodes.
    for (const Side& side : sides_)
      touched_.insert(touched_.end(), side.nodes.begin(), side.nodes.end());
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    force_.assign(3 * touched_.size(), 0.0);
    // Each touched node's area share and surface normal (for the pressure), from the first side
    // that has it.
    touched_area_.assign(touched_.size(), 0.0);
    touched_normal_.assign(touched_.size(), Vec3{0, 0, 0});
    for (const Side& side : sides_)
      for (std::size_t j = 0; j < side.nodes.size(); ++j) {
        const auto at = static_cast<std::size_t>(
            std::lower_bound(touched_.begin(), touched_.end(), side.nodes[j]) - touched_.begin());
        if (touched_area_[at] > 0) continue;
        touched_area_[at] = side.areas[j];
        touched_normal_[at] = side.normal[j];
      }
    fc_ = in.assembler.create_vector();
    friction_ = pair.friction.on();
    if (friction_) uc_ = in.assembler.create_vector();
  }

  /// Collective. The surfaces in the reference configuration, from one search at u = 0 (then
  /// forgotten: the run's first evaluation searches as before): nodes behind a face they face
  /// (initial penetrations: refused with their count and the deepest node, as the wall refuses
  /// them; with `ignore` each keeps its depth as its offset), and two surfaces within the search
  /// distance of each other that nowhere face each other (a body's far face given:
  /// start_warnings).
  void check_start(const Assembler& assembler) {
    petsc::Vector u0 = assembler.create_vector();
    search(u0);
    std::int64_t counts[3] = {0, 0, 0};  // nodes penetrating, facing a face, near only back faces
    struct {
      double depth;
      int rank;
    } mine{0, rank_}, worst{};
    std::int64_t tag = -1;
    const bool ignore = pair_.initial == InitialPenetration::ignore;
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      if (ignore) p.offset.assign(slave.nodes.size(), 0.0);
      for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
        const Start start = start_of(p, j);
        counts[1] += start.facing ? 1 : 0;
        counts[2] += start.near && !start.facing ? 1 : 0;
        if (start.depth > 0) {
          ++counts[0];
          if (ignore) p.offset[j] = -start.depth;
          if (start.depth > mine.depth)
            mine.depth = start.depth, tag = mesh_.node_tags[slave.nodes[j]];
        }
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_INT64_T, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_));
    INERTIA_MPI(MPI_Bcast(&tag, 1, MPI_INT64_T, worst.rank, comm_));
    searched_ = false, searches_ = 0;
    const std::string surfaces =
        sides_.size() == 1 ? cat("surface '", sides_[0].region, "'")
                           : cat("surfaces '", sides_[0].region, "' and '", sides_[1].region, "'");
    INERTIA_CHECK(ignore || counts[0] == 0, InputError, pair_.where, ": pair '", pair_.name,
                  "' starts interpenetrated: ", counts[0], " node(s) of its ", surfaces,
                  " behind a face they face, the deepest (node ", tag, ") by ", worst.depth, " m",
                  pair_.initial == InitialPenetration::move
                      ? cat(" after moving ", pair_.moved,
                            " node(s) (the surfaces interlock: move the bodies apart)")
                      : std::string("; move the bodies apart or to touching, or give the pair "
                                    "initial_penetration: move or ignore (the penalty would push "
                                    "them out with the energy of that penetration)"));
    initial_ = counts[0], initial_depth_ = worst.depth;
    if (sides_.size() == 2 && counts[1] == 0 && counts[2] > 0)
      warnings_.push_back(cat(pair_.where, ": pair '", pair_.name, "': its ", surfaces,
                              " do not face each other: ", counts[2],
                              " of their nodes are within the search distance (", margin_,
                              " m) of the other surface, all behind its faces or turned away; "
                              "give each body's face toward the other"));
  }

  /// Collective. `initial_penetration: move`: the moves of pass k's slave nodes (owned) that
  /// start behind a face they face onto that face (the deepest one), as a global vector; the
  /// number of nodes moved and the longest move. InputError naming the pair for a move longer
  /// than move_share x the node's own cells' height.
  std::tuple<petsc::Vector, std::int64_t, double> initial_moves(const Assembler& assembler,
                                                                std::size_t k) {
    petsc::Vector v = assembler.create_vector();
    search(v);
    Pass& p = passes_[k];
    const Side& slave = sides_[p.slave];
    struct {
      double ratio;
      int rank;
    } mine{0, rank_}, worst{};
    double longest = 0, info[2] = {0, 0};  // the worst node's tag and move
    std::int64_t moved = 0;
    {
      petsc::Array m(v);
      for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
        const Start start = start_of(p, j);
        if (!(start.depth > 0)) continue;
        const std::int32_t n = slave.nodes[j];
        for (int i = 0; i < 3; ++i) m[3 * n + i] = start.depth * start.n[i];
        ++moved;
        longest = std::max(longest, start.depth);
        const double ratio = start.depth / slave.height[j];
        if (ratio > mine.ratio)
          mine.ratio = ratio, info[0] = static_cast<double>(mesh_.node_tags[n]),
          info[1] = start.depth;
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT64_T, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_DOUBLE, MPI_MAX, comm_));
    INERTIA_MPI(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_));
    INERTIA_MPI(MPI_Bcast(info, 2, MPI_DOUBLE, worst.rank, comm_));
    INERTIA_CHECK(!(worst.ratio > move_share), InputError, pair_.where,
                  ".initial_penetration: pair '", pair_.name, "': node ",
                  static_cast<std::int64_t>(info[0]), " of surface '", slave.region,
                  "' would move ", info[1], " m onto the face it penetrates, ", worst.ratio,
                  " x the height of its own cells (at most ", move_share,
                  "): its cells would be crushed; move the bodies apart in the mesh");
    searched_ = false, searches_ = 0;
    return {std::move(v), moved, longest};
  }
  std::vector<std::string> start_warnings() const override { return warnings_; }
  double catch_distance() const override { return depth_; }

  std::string describe() const override {
    return sides_.size() == 1 ? cat("contact pair '", pair_.name, "' of region '", sides_[0].region,
                                    "' with itself")
                              : cat("contact pair '", pair_.name, "' between regions '",
                                    sides_[0].region, "' and '", sides_[1].region, "'");
  }
  Traits traits() const override {
    return {.linear = false,
            .nodal = true,
            .gathers = true,
            .friction = friction_,
            .multipliers = augmented_.on};
  }
  const std::string& name() const override { return pair_.name; }
  std::int64_t searches() const override { return searches_; }
  std::string summary() const override {
    double v[5] = {0, 0, INFINITY, 0, 0};  // nodes of each side, min k, max k (per pass)
    for (std::size_t s = 0; s < sides_.size(); ++s) {
      v[s] = static_cast<double>(sides_[s].nodes.size());
      for (const double k : sides_[s].k) v[2] = std::min(v[2], k), v[3] = std::max(v[3], k);
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[2], 1, MPI_DOUBLE, MPI_MIN, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[3], 1, MPI_DOUBLE, MPI_MAX, comm_));
    return cat(describe(), ": ", static_cast<std::int64_t>(v[0]),
               sides_.size() > 1 ? cat(" + ", static_cast<std::int64_t>(v[1])) : std::string(),
               " nodes, penalty per pass ", v[2], " to ", v[3], " N/m, margin ", margin_, " m",
               friction_text(pair_.friction),
               pair_.initial == InitialPenetration::move && pair_.moved > 0
                   ? cat(", ", pair_.moved, " node(s) moved onto the faces they penetrated (",
                         "the longest move ", pair_.largest_move, " m)")
               : pair_.initial == InitialPenetration::ignore
                   ? cat(", ", initial_, " initial penetration(s) kept (the deepest ",
                         initial_depth_, " m)")
                   : std::string(),
               augmented_.on ? cat(", augmented Lagrangian to ", augmented_.tolerance, " m")
                             : std::string());
  }

  void set_up(std::span<const PetscScalar> diagonal, std::span<const PetscScalar> mass) override {
    bound_ = 0;
    for (Side& side : sides_)
      for (std::size_t j = 0; j < side.nodes.size(); ++j) {
        const std::int32_t n = side.nodes[j];
        // A quarter per pass: two passes between matching meshes put 2 k between two nodes of
        // mass m, whose frequency 4 k / m is then a wall's on one such node (contact.hpp).
        side.k[j] =
            0.25 *
            (pair_.penalty > 0
                 ? pair_.penalty * side.areas[j]
                 : scale_ * std::max({diagonal[3 * n], diagonal[3 * n + 1], diagonal[3 * n + 2]}));
        if (mass[3 * n] > 0) bound_ = std::max(bound_, 4 * side.k[j] / mass[3 * n]);
        if (augmented_.on) side.m[j] = mass_weight_ * mass[3 * n];
      }
  }
  double frequency_squared_bound() const override { return bound_; }

  void gather(Vec u, double t) const override {
    // The same u as the last evaluation (the energy after the step's force) on every rank: done.
    const PetscObjectState state = petsc::object_state(u);
    int same = searched_ && u == last_u_ && state == last_state_ && t == time_ ? 1 : 0;
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, comm_));
    if (same) return;
    last_u_ = u, last_state_ = state;
    time_ = t;
    if (!searched_) search(u);
    if (friction_ && committed_moved_) {  // the committed displacement of the faces' nodes
      for (Pass& p : passes_) {
        INERTIA_PETSC(VecScatterBegin(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
        INERTIA_PETSC(VecScatterEnd(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
      }
      committed_moved_ = false;
    }
    for (Pass& p : passes_) scatter_forward(p, u);
    // The largest motion of a contact node since the search, over all ranks.
    double moved = 0;
    {
      petsc::ConstArray ua(u);
      for (const Side& side : sides_)
        for (std::size_t j = 0; j < side.nodes.size(); ++j) {
          const std::int32_t n = side.nodes[j];
          double d2 = 0;
          for (int i = 0; i < 3; ++i) d2 += std::pow(ua[3 * n + i] - u_at_search_[3 * n + i], 2);
          moved = std::max(moved, d2);
        }
      for (const Pass& p : passes_) {
        petsc::ConstArray g(p.ug);
        for (std::size_t a = 0; a < p.gids.size(); ++a) {
          double d2 = 0;
          for (int i = 0; i < 3; ++i) d2 += std::pow(g[3 * a + i] - p.ug_at_search[3 * a + i], 2);
          moved = std::max(moved, d2);
        }
      }
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_DOUBLE, MPI_MAX, comm_));
    if (2 * std::sqrt(moved) > margin_) {
      search(u);
      for (Pass& p : passes_) scatter_forward(p, u);
    }
    evaluate(u);
  }

  void add_nodal_force(std::span<const PetscScalar> u, double t, double factor,
                       std::span<const PetscScalar> scale,
                       std::span<PetscScalar> f) const override {
    (void)u, (void)t;
    for (std::size_t j = 0; j < touched_.size(); ++j) {
      const std::int32_t n = touched_[j];
      for (int i = 0; i < 3; ++i) {
        const double s = scale.empty() ? 1.0 : scale[3 * n + i];
        f[3 * n + i] += factor * s * force_[3 * j + i];
      }
    }
  }
  double energy(const TermPoint& at) const override {
    (void)at;
    double e = 0;
    for (const Pass& p : passes_) e += p.energy;
    return e;
  }

  int augmentation_limit() const override { return augmented_.on ? augmented_.iterations : 0; }
  double augment(Vec u, double t, bool update, double inertia) const override {
    gather(u, t);
    double worst = 0;
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
        // lambda <- max(0, lambda - rho g), rho = k + inertia m; g = (lambda - pressing) / k
        // where the node presses. Where it does not, g >= lambda / k (or it has no face), so
        // lambda - rho g <= 0.
        const double l = p.lambda[j], k = slave.k[j], rho = k + inertia * slave.m[j];
        const double next =
            p.pressing[j] > 0 ? std::max(0.0, l - rho * (l - p.pressing[j]) / k) : 0;
        worst = std::max(worst, std::abs(next - l) / rho);
        if (update) p.lambda[j] = next;
      }
    }
    if (update) {
      ++updates_;
      last_u_ = nullptr;  // the forces at u change
    }
    return worst / augmented_.tolerance;
  }
  void reject_multipliers() const override {
    for (Pass& p : passes_) p.lambda = p.lambda_c;
    last_u_ = nullptr;
  }
  std::int64_t augmentations() const override { return augmented_.on ? updates_ : -1; }

  void commit_nodal(Vec u, double t) const override {
    for (Pass& p : passes_) p.lambda_c = p.lambda;
    if (!friction_) return;
    gather(u, t);  // the accepted configuration (usually the last evaluation's)
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
        double work = 0, before = 0, after = 0;
        for (int i = 0; i < 3; ++i) {
          work += 0.5 * (p.tc[3 * j + i] + p.T[3 * j + i]) * p.d[3 * j + i];
          before += p.tc[3 * j + i] * p.tc[3 * j + i];
          after += p.T[3 * j + i] * p.T[3 * j + i];
        }
        if (slave.k[j] > 0) dissipated_ += -work - 0.5 * (after - before) / slave.k[j];
      }
      p.tc = p.T;
    }
    {
      petsc::ConstArray ua(u);
      petsc::Array uc(uc_);
      for (auto n : touched_)
        for (int i = 0; i < 3; ++i) uc[3 * n + i] = ua[3 * n + i];
    }
    committed_time_ = t;
    committed_moved_ = true;
    last_u_ = nullptr;  // the next evaluation starts from the new committed state
  }
  void add_coupling(std::vector<CouplingBlock>& blocks) const override {
    // Node-to-surface with the normal, the face's point and the friction state of the
    // evaluation held fixed: the slave node's gap g = n . (x_s - sum_a N_a x_a) is linear in the
    // nodes' displacements with coefficients c = (1, -N_1, ..., -N_m), so the tangent between
    // nodes a and b is c_a c_b k (n n^T + friction part). The terms of n's and N's change (order
    // g, small under a stiff penalty) are left out: Newton converges, not quadratically.
    for (const Pass& p : passes_)
      for (const Pass::Link& l : p.links) {
        std::array<double, 9> B;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            const double nn = l.n[i] * l.n[j];
            // Friction: the return map's symmetric tangent (coulomb(); the stick spring where
            // the node only touches), in the same relative displacement as the gap.
            B[3 * i + j] = l.k * nn + (friction_ ? l.slip.symmetric[3 * i + j] : 0.0);
          }
        std::array<std::int64_t, 5> node{l.slave, -1, -1, -1, -1};
        std::array<double, 5> c{1, 0, 0, 0, 0};
        for (int a = 0; a < l.kind; ++a) node[1 + a] = l.master[a], c[1 + a] = -l.N[a];
        for (int a = 0; a <= l.kind; ++a)
          for (int b = 0; b <= l.kind; ++b) {
            CouplingBlock blk{node[a], node[b], {}};
            for (int e = 0; e < 9; ++e) blk.b[e] = c[a] * c[b] * B[e];
            blocks.push_back(blk);
          }
      }
  }
  double take_friction_dissipation() const override { return std::exchange(dissipated_, 0.0); }
  std::vector<std::string> states() const override {
    std::vector<std::string> out;
    if (friction_) out.emplace_back("friction");
    if (augmented_.on) out.emplace_back("multipliers");
    return out;
  }
  void save_state(std::string_view which, std::span<PetscScalar> owned) const override {
    const bool friction = which == "friction";
    for (const Pass& p : passes_)
      for (std::size_t j = 0; j < sides_[p.slave].nodes.size(); ++j)
        for (int i = 0; i < 3; ++i)
          owned[3 * sides_[p.slave].nodes[j] + i] =
              friction ? p.tc[3 * j + i] : (i == 0 ? p.lambda_c[j] : 0.0);
  }
  void load_state(std::string_view which, std::span<const PetscScalar> owned,
                  std::span<const PetscScalar> u, double t) const override {
    if (which == "multipliers") {
      for (Pass& p : passes_) {
        for (std::size_t j = 0; j < sides_[p.slave].nodes.size(); ++j)
          p.lambda_c[j] = owned[3 * sides_[p.slave].nodes[j]];
        p.lambda = p.lambda_c;
      }
      last_u_ = nullptr;
      return;
    }
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      p.tc.assign(3 * slave.nodes.size(), 0.0);
      p.T.assign(3 * slave.nodes.size(), 0.0);
      p.d.assign(3 * slave.nodes.size(), 0.0);
      for (std::size_t j = 0; j < slave.nodes.size(); ++j)
        for (int i = 0; i < 3; ++i) p.tc[3 * j + i] = owned[3 * slave.nodes[j] + i];
    }
    petsc::Array uc(uc_);
    for (auto n : touched_)
      for (int i = 0; i < 3; ++i) uc[3 * n + i] = u[3 * n + i];
    committed_time_ = t;
    committed_moved_ = true;
    last_u_ = nullptr;
  }

  Reading read(Vec u, double t) const override {
    gather(u, t);
    // The force on the first surface: by the second's faces on its nodes, and the reaction of
    // its faces on the second's nodes (self-contact: the force on the nodes in contact).
    double sums[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t k = 0; k < passes_.size(); ++k) {
      const double s = k == 0 ? 1.0 : -1.0;
      for (int i = 0; i < 3; ++i) sums[i] += s * passes_[k].force[i];
      sums[3] += passes_[k].normal;
      sums[4] += static_cast<double>(passes_[k].active);
      sums[5] = std::max(sums[5], passes_[k].deepest);
    }
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, sums, 5, MPI_DOUBLE, MPI_SUM, comm_));
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &sums[5], 1, MPI_DOUBLE, MPI_MAX, comm_));
    return {{sums[0], sums[1], sums[2]}, sums[3], static_cast<std::int64_t>(sums[4]), sums[5]};
  }
  void add_pressure(Vec u, double t, std::span<double> pressure) const override {
    gather(u, t);
    // The node's whole contact force (from its own pass and as a face node of the other), its
    // component against the node's surface normal, over its area: the pressure through the
    // interface on either side (sum of pressure x area on one side: the force between them).
    for (std::size_t j = 0; j < touched_.size(); ++j) {
      const double* f = &force_[3 * j];  // the internal force: the contact force's opposite
      const Vec3& o = touched_normal_[j];
      const double normal = f[0] * o[0] + f[1] * o[1] + f[2] * o[2];
      if (normal > 0 && touched_area_[j] > 0) pressure[touched_[j]] += normal / touched_area_[j];
    }
  }

 private:
  /// A slave node in the reference configuration (pass p searched at u = 0).
  struct Start {
    double depth = 0;  ///< its deepest penetration behind a face it faces (0: none)
    Vec3 n{0, 0, 0};   ///< that face's normal
    bool facing = false, near = false;  ///< a face in front of it within the margin; any face
  };
  Start start_of(const Pass& p, std::size_t j) const {
    const Side& slave = sides_[p.slave];
    const std::int32_t n = slave.nodes[j];
    const Vec3 x{mesh_.coords[3 * n], mesh_.coords[3 * n + 1], mesh_.coords[3 * n + 2]};
    const double round_off = 1e-6 * margin_;
    Start out;
    for (auto c = p.candidate_ptr[j]; c < p.candidate_ptr[j + 1]; ++c) {
      const Pass::Face& face = p.faces[p.candidates[c]];
      Vec3 pts[4];
      for (int a = 0; a < face.kind; ++a) pts[a] = p.X[face.node[a]];
      const Projection pr = project(face.kind, pts, face.sign, x);
      if (!pr.within || std::abs(pr.g) > margin_) continue;
      out.near = true;
      if (dot(pr.n, slave.outward[j]) >= 0) continue;
      out.facing = true;
      if (std::abs(pr.g) <= face.limit && -pr.g > std::max(out.depth, round_off))
        out.depth = -pr.g, out.n = pr.n;
    }
    return out;
  }

  /// Collective. side.height: per node, the smallest height of its cells over the surface's
  /// faces at it.
  static void own_heights(const Assembler& assembler, const Surface& surface, Side& side) {
    petsc::Vector v = assembler.create_vector();
    {
      petsc::GhostedArray h(v);
      std::fill(h.span().begin(), h.span().end(), std::numeric_limits<double>::max());
      for (const SurfaceFace& f : surface.faces)
        for (int a = 0; a < f.count; ++a)
          h[3 * f.node[a]] = std::min<double>(h[3 * f.node[a]], f.height);
    }
    INERTIA_PETSC(VecGhostUpdateBegin(v, MIN_VALUES, SCATTER_REVERSE));
    INERTIA_PETSC(VecGhostUpdateEnd(v, MIN_VALUES, SCATTER_REVERSE));
    petsc::ConstArray h(v);
    side.height.clear();
    for (auto n : side.nodes) side.height.push_back(h[3 * n]);
  }

  void scatter_forward(Pass& p, Vec u) const {
    INERTIA_PETSC(VecScatterBegin(p.scatter, u, p.ug, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecScatterEnd(p.scatter, u, p.ug, INSERT_VALUES, SCATTER_FORWARD));
  }

  /// Collective. Finds each pass's candidate faces at u (module comment).
  void search(Vec u) const {
    ++searches_;
    searched_ = true;
    // Current positions of this rank's faces and nodes; the boxes of each side's nodes.
    std::vector<double> boxes(static_cast<std::size_t>(12 * size_), 0.0);
    std::vector<std::vector<double>> face_boxes(sides_.size());
    {
      petsc::GhostedRead ul(u);
      u_at_search_.assign(ul.span().begin(), ul.span().begin() + 3 * mesh_.num_owned);
      for (std::size_t s = 0; s < sides_.size(); ++s) {
        const Side& side = sides_[s];
        double* box = &boxes[12 * rank_ + 6 * s];
        for (int i = 0; i < 3; ++i) box[i] = INFINITY, box[3 + i] = -INFINITY;
        for (auto n : side.nodes)
          for (int i = 0; i < 3; ++i) {
            const double x = mesh_.coords[3 * n + i] + ul[3 * n + i];
            box[i] = std::min(box[i], x), box[3 + i] = std::max(box[3 + i], x);
          }
        const std::size_t nf = side.face_local.size() / 4;
        auto& fb = face_boxes[s];
        fb.assign(6 * nf, 0.0);
        for (std::size_t f = 0; f < nf; ++f) {
          for (int i = 0; i < 3; ++i) fb[6 * f + i] = INFINITY, fb[6 * f + 3 + i] = -INFINITY;
          for (int a = 0; a < 4; ++a) {
            const std::int32_t n = side.face_local[4 * f + a];
            if (n < 0) continue;
            for (int i = 0; i < 3; ++i) {
              const double x = mesh_.coords[3 * n + i] + ul[3 * n + i];
              fb[6 * f + i] = std::min(fb[6 * f + i], x);
              fb[6 * f + 3 + i] = std::max(fb[6 * f + 3 + i], x);
            }
          }
        }
      }
    }
    INERTIA_MPI(MPI_Allgather(MPI_IN_PLACE, 12, MPI_DOUBLE, boxes.data(), 12, MPI_DOUBLE, comm_));
    for (Pass& p : passes_) {
      // To each rank, the master faces whose grown box meets its slave nodes' box.
      const Side& master = sides_[p.master];
      const auto& fb = face_boxes[p.master];
      const std::size_t nf = master.face_local.size() / 4;
      std::vector<std::vector<std::size_t>> to(static_cast<std::size_t>(size_));
      for (int q = 0; q < size_; ++q) {
        const double* box = &boxes[12 * q + 6 * p.slave];
        if (!(box[0] <= box[3])) continue;  // no slave node there
        for (std::size_t f = 0; f < nf; ++f) {
          bool meets = true;
          for (int i = 0; i < 3 && meets; ++i)
            meets = fb[6 * f + i] - margin_ <= box[3 + i] && fb[6 * f + 3 + i] + margin_ >= box[i];
          if (meets) to[q].push_back(f);
        }
      }
      std::vector<int> send_counts(size_), recv_counts(size_), send_at(size_), recv_at(size_);
      std::vector<double> send;
      for (int q = 0; q < size_; ++q) {
        send_at[q] = static_cast<int>(send.size());
        for (auto f : to[q])
          send.insert(send.end(), master.faces.begin() + record_size * f,
                      master.faces.begin() + record_size * (f + 1));
        send_counts[q] = static_cast<int>(send.size()) - send_at[q];
      }
      INERTIA_MPI(
          MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_));
      int total = 0;
      for (int q = 0; q < size_; ++q) recv_at[q] = total, total += recv_counts[q];
      std::vector<double> recv(static_cast<std::size_t>(total));
      INERTIA_MPI(MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_DOUBLE,
                                recv.data(), recv_counts.data(), recv_at.data(), MPI_DOUBLE,
                                comm_));
      receive(p, recv, u);
    }
  }

  /// The received faces of pass p: their nodes, the scatter, each slave node's candidates.
  void receive(Pass& p, const std::vector<double>& recv, Vec u) const {
    const std::size_t nf = recv.size() / record_size;
    p.gids.clear();
    for (std::size_t f = 0; f < nf; ++f)
      for (int a = 0; a < static_cast<int>(recv[record_size * f]); ++a)
        p.gids.push_back(static_cast<std::int64_t>(recv[record_size * f + 2 + a]));
    std::sort(p.gids.begin(), p.gids.end());
    p.gids.erase(std::unique(p.gids.begin(), p.gids.end()), p.gids.end());
    const std::size_t ng = p.gids.size();
    p.X.assign(ng, Vec3{0, 0, 0});
    p.faces.clear();
    for (std::size_t f = 0; f < nf; ++f) {
      const double* r = &recv[record_size * f];
      Pass::Face face{static_cast<int>(r[0]),
                      r[1],
                      {-1, -1, -1, -1},
                      {-1, -1, -1, -1},
                      std::min(depth_, depth_share * r[18])};
      for (int a = 0; a < face.kind; ++a) {
        const auto g = static_cast<std::int64_t>(r[2 + a]);
        const auto at = std::lower_bound(p.gids.begin(), p.gids.end(), g) - p.gids.begin();
        face.node[a] = static_cast<std::int32_t>(at);
        face.key[a] = g;
        p.X[at] = {r[6 + 3 * a], r[7 + 3 * a], r[8 + 3 * a]};
      }
      std::sort(face.key.begin(), face.key.end());
      p.faces.push_back(face);
    }
    // The scatter u -> ug of the faces' nodes (3 entries each).
    std::vector<PetscInt> blocks(p.gids.begin(), p.gids.end());
    petsc::IndexSet is;
    INERTIA_PETSC(ISCreateBlock(PETSC_COMM_SELF, 3, static_cast<PetscInt>(ng), blocks.data(),
                                PETSC_COPY_VALUES, is.out()));
    INERTIA_PETSC(VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(3 * ng), p.ug.out()));
    INERTIA_PETSC(VecScatterCreate(u, is, p.ug, nullptr, p.scatter.out()));
    INERTIA_PETSC(VecDuplicate(p.ug, p.fm_vec.out()));
    if (friction_) {
      INERTIA_PETSC(VecDuplicate(p.ug, p.ugc.out()));
      INERTIA_PETSC(VecScatterBegin(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
      INERTIA_PETSC(VecScatterEnd(p.scatter, uc_, p.ugc, INSERT_VALUES, SCATTER_FORWARD));
    }
    scatter_forward(p, u);
    p.fm.assign(3 * ng, 0.0);
    {
      petsc::ConstArray g(p.ug);
      p.ug_at_search.assign(g.span().begin(), g.span().end());
    }
    // Each face's grown box, in a grid of cells as large as the largest box: a node's candidate
    // faces are in its cell.
    std::vector<double> fb(6 * nf);
    double cell = 0;
    Vec3 lo{INFINITY, INFINITY, INFINITY};
    for (std::size_t f = 0; f < nf; ++f) {
      const Pass::Face& face = p.faces[f];
      for (int i = 0; i < 3; ++i) fb[6 * f + i] = INFINITY, fb[6 * f + 3 + i] = -INFINITY;
      for (int a = 0; a < face.kind; ++a)
        for (int i = 0; i < 3; ++i) {
          const double x = p.X[face.node[a]][i] + p.ug_at_search[3 * face.node[a] + i];
          fb[6 * f + i] = std::min(fb[6 * f + i], x - margin_);
          fb[6 * f + 3 + i] = std::max(fb[6 * f + 3 + i], x + margin_);
        }
      for (int i = 0; i < 3; ++i) {
        cell = std::max(cell, fb[6 * f + 3 + i] - fb[6 * f + i]);
        lo[i] = std::min(lo[i], fb[6 * f + i]);
      }
    }
    auto key = [&](const double* x) {
      std::int64_t k = 0;
      for (int i = 0; i < 3; ++i)
        k = k * 2097152 +
            std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((x[i] - lo[i]) / cell)),
                                     0, 2097151);
      return k;
    };
    std::unordered_map<std::int64_t, std::vector<std::int32_t>> grid;
    for (std::size_t f = 0; f < nf; ++f)
      for (int c = 0; c < 8; ++c) {  // the corners of the box: at most 8 cells
        const double corner[3] = {fb[6 * f + 3 * (c & 1)], fb[6 * f + 1 + 3 * ((c >> 1) & 1)],
                                  fb[6 * f + 2 + 3 * ((c >> 2) & 1)]};
        auto& list = grid[key(corner)];
        if (list.empty() || list.back() != static_cast<std::int32_t>(f))
          list.push_back(static_cast<std::int32_t>(f));
      }
    for (auto& [k, list] : grid) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    const Side& slave = sides_[p.slave];
    p.candidate_ptr.assign(1, 0);
    p.candidates.clear();
    p.gap.assign(slave.nodes.size(), 0.0);
    if (friction_ && p.tc.size() != 3 * slave.nodes.size()) {
      p.tc.assign(3 * slave.nodes.size(), 0.0);
      p.T.assign(3 * slave.nodes.size(), 0.0);
      p.d.assign(3 * slave.nodes.size(), 0.0);
    }
    for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
      const std::int32_t n = slave.nodes[j];
      const std::int64_t gid = mesh_.global_node(n);
      double x[3];
      for (int i = 0; i < 3; ++i) x[i] = mesh_.coords[3 * n + i] + u_at_search_[3 * n + i];
      if (nf > 0)
        if (const auto it = grid.find(key(x)); it != grid.end())
          for (const std::int32_t f : it->second) {
            bool inside = true;
            for (int i = 0; i < 3 && inside; ++i)
              inside = x[i] >= fb[6 * f + i] && x[i] <= fb[6 * f + 3 + i];
            const auto& k = p.faces[f].key;
            if (inside && std::find(k.begin(), k.end(), gid) == k.end()) p.candidates.push_back(f);
          }
      p.candidate_ptr.push_back(static_cast<std::int64_t>(p.candidates.size()));
    }
  }

  /// This rank's forces at u (the scatters done): each pass's slave nodes against their
  /// candidates, the faces' share sent back to the faces' owners.
  void evaluate(Vec u) const {
    {
      petsc::Array fc(fc_);
      for (auto n : touched_)
        for (int i = 0; i < 3; ++i) fc[3 * n + i] = 0;
    }
    for (Pass& p : passes_) {
      const Side& slave = sides_[p.slave];
      std::fill(p.fm.begin(), p.fm.end(), 0.0);
      p.force = {0, 0, 0}, p.normal = 0, p.active = 0, p.deepest = 0, p.energy = 0;
      p.links.clear();
      if (friction_) std::fill(p.T.begin(), p.T.end(), 0.0), std::fill(p.d.begin(), p.d.end(), 0.0);
      {
        petsc::ConstArray ua(u), g(p.ug);
        std::optional<petsc::ConstArray> uc, gc;
        if (friction_) uc.emplace(uc_), gc.emplace(p.ugc);
        petsc::Array fc(fc_);
        // Implicit schemes: the tangent's data of node n touching `face` (add_coupling).
        auto link = [&](std::int32_t n, const Pass::Face& face, const Projection& pr, double k) {
          Pass::Link l{mesh_.global_node(n), face.kind, {-1, -1, -1, -1}, pr.N, pr.n, k, {}};
          for (int i = 0; i < 3; ++i)  // the stick spring, until coulomb() says otherwise
            for (int m = 0; m < 3; ++m)
              l.slip.symmetric[3 * i + m] = k * ((i == m ? 1.0 : 0.0) - pr.n[i] * pr.n[m]);
          for (int a = 0; a < face.kind; ++a) l.master[a] = p.gids[face.node[a]];
          p.links.push_back(l);
        };
        // Friction: the slip of node n (slave j) relative to the point of `face` at shape
        // functions N since the commit, into p.d.
        auto slip = [&](std::size_t j, std::int32_t n, const Pass::Face& face,
                        const std::array<double, 4>& N) {
          double* d = &p.d[3 * j];
          for (int i = 0; i < 3; ++i) {
            d[i] = ua[3 * n + i] - (*uc)[3 * n + i];
            for (int a = 0; a < face.kind; ++a)
              d[i] -= N[a] * (g[3 * face.node[a] + i] - (*gc)[3 * face.node[a] + i]);
          }
          return d;
        };
        for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
          const std::int32_t n = slave.nodes[j];
          const Vec3 x{mesh_.coords[3 * n] + ua[3 * n], mesh_.coords[3 * n + 1] + ua[3 * n + 1],
                       mesh_.coords[3 * n + 2] + ua[3 * n + 2]};
          Projection best, exit;
          const Pass::Face* chosen = nullptr;
          const Pass::Face* left = nullptr;
          const bool leaving =
              friction_ && (p.tc[3 * j] != 0 || p.tc[3 * j + 1] != 0 || p.tc[3 * j + 2] != 0);
          const double o = p.offset.empty() ? 0.0 : p.offset[j];  // ignore: its initial gap
          for (auto c = p.candidate_ptr[j]; c < p.candidate_ptr[j + 1]; ++c) {
            const Pass::Face& face = p.faces[p.candidates[c]];
            Vec3 pts[4];
            for (int a = 0; a < face.kind; ++a)
              for (int i = 0; i < 3; ++i)
                pts[a][i] = p.X[face.node[a]][i] + g[3 * face.node[a] + i];
            // A node whose closest point is inside the face at a distance d <= depth is inside
            // the face's box grown by depth: the projections are only computed there.
            bool near = true;
            for (int i = 0; i < 3 && near; ++i) {
              double lo = pts[0][i], hi = pts[0][i];
              for (int a = 1; a < face.kind; ++a)
                lo = std::min(lo, pts[a][i]), hi = std::max(hi, pts[a][i]);
              near = x[i] >= lo - depth_ + o && x[i] <= hi + depth_ - o;
            }
            if (!near) continue;
            const Projection pr = project(face.kind, pts, face.sign, x);
            // A node leaving contact with a friction force: the nearest facing face, where it
            // left (its slip over the step, below).
            if (leaving && dot(pr.n, slave.outward[j]) < 0 &&
                (!left || std::abs(pr.g) < std::abs(exit.g) ||
                 (std::abs(pr.g) == std::abs(exit.g) && face.key < left->key)))
              exit = pr, left = &face;
            // Inside the face, facing it, not deeper than its limit beyond the initial gap (the
            // far side of a body or of the face's cell), not farther in front than `depth`.
            if (!pr.inside || dot(pr.n, slave.outward[j]) >= 0 || pr.g > depth_ ||
                pr.g < o - face.limit)
              continue;
            // A face that has the point within it before one whose band has it; then the
            // nearest; ties broken by the faces' nodes (the same on any ranks).
            if (!chosen || (pr.within && !best.within) ||
                (pr.within == best.within &&
                 (std::abs(pr.g) < std::abs(best.g) ||
                  (std::abs(pr.g) == std::abs(best.g) && face.key < chosen->key))))
              best = pr, chosen = &face;
          }
          p.gap[j] = 0;
          // Its normal force: k (-g) behind the face; with a multiplier l, l - k g.
          const double l = p.lambda.empty() ? 0.0 : p.lambda[j];
          if (!p.lambda.empty()) {
            p.pressing[j] = 0;
            if (l > 0) p.energy -= 0.5 * l * l / slave.k[j];  // where it does not press
          }
          const double g = best.g - o;  // the gap beyond the initial one
          const double pressing = chosen ? l - slave.k[j] * g : 0.0;
          // Its committed friction force did work over the step as it left: the slip relative
          // to the face it left (extrapolated past its edge: the shape functions still sum to 1),
          // so that the dissipation booked at the commit counts it.
          if ((!chosen || !(pressing > 0)) && left) slip(j, n, *left, exit.N);
          if (!chosen || !(pressing > 0 || g == 0)) continue;
          if (!(pressing > 0)) {
            // Touching (a body resting on another at the start): no force, but the tangent's
            // spring, so that Newton does not take the node through the face.
            if (implicit_) link(n, *chosen, best, slave.k[j]);
            continue;
          }
          const double k = slave.k[j], kg = -pressing;  // l = 0: k g
          p.gap[j] = g;
          if (!p.lambda.empty()) p.pressing[j] = pressing;
          for (int i = 0; i < 3; ++i) {
            fc[3 * n + i] += kg * best.n[i];  // internal force: the contact force's opposite
            p.force[i] -= kg * best.n[i];
            for (int a = 0; a < chosen->kind; ++a)
              p.fm[3 * chosen->node[a] + i] -= kg * best.N[a] * best.n[i];
          }
          p.normal -= kg;
          ++p.active;
          p.deepest = std::max(p.deepest, -g);
          // With a multiplier: its energy, less the -l^2 / (2 k) counted above.
          p.energy += l > 0 ? 0.5 * l * l / k + normal_energy(l, k, g) : 0.5 * kg * g;
          if (implicit_) link(n, *chosen, best, k);
          if (!friction_) continue;
          const double* d = slip(j, n, *chosen, best.N);
          const Slip T =
              coulomb(pair_.friction, best.n, &p.tc[3 * j], d, k, -kg, time_ - committed_time_);
          if (implicit_) p.links.back().slip = T;
          for (int i = 0; i < 3; ++i) {
            p.T[3 * j + i] = T.force[i];
            fc[3 * n + i] -= T.force[i];
            p.force[i] += T.force[i];
            for (int a = 0; a < chosen->kind; ++a)
              p.fm[3 * chosen->node[a] + i] += best.N[a] * T.force[i];
          }
          p.energy +=
              0.5 * (T.force[0] * T.force[0] + T.force[1] * T.force[1] + T.force[2] * T.force[2]) /
              k;
        }
      }
      {
        petsc::Array fm(p.fm_vec);
        std::copy(p.fm.begin(), p.fm.end(), fm.span().begin());
      }
      INERTIA_PETSC(VecScatterBegin(p.scatter, p.fm_vec, fc_, ADD_VALUES, SCATTER_REVERSE));
      INERTIA_PETSC(VecScatterEnd(p.scatter, p.fm_vec, fc_, ADD_VALUES, SCATTER_REVERSE));
    }
    petsc::ConstArray fc(fc_);
    for (std::size_t j = 0; j < touched_.size(); ++j)
      for (int i = 0; i < 3; ++i) force_[3 * j + i] = fc[3 * touched_[j] + i];
  }

  MPI_Comm comm_;
  const LocalMesh& mesh_;
  PairInput pair_;
  double scale_;
  int rank_ = 0, size_ = 1;
  std::vector<Side> sides_;
  double margin_ = 0;
  /// The largest distance of a node to the face it contacts (its penetration, or the gap to
  /// a face in front of the one it penetrates: a thin body's other side).
  double depth_ = 0;
  double bound_ = 0;
  std::vector<std::int32_t> touched_;  ///< owned nodes of either side
  // The evaluation's state (gather): mutable, as the system's evaluations are const.
  mutable std::vector<Pass> passes_;
  mutable bool searched_ = false;
  bool friction_ = false;
  bool implicit_ = false;     ///< implicit schemes and static: links for the tangent
  mutable petsc::Vector uc_;  ///< friction: the committed displacement (at touched_'s entries)
  mutable double committed_time_ = 0, time_ = 0;  ///< the commit's and the evaluation's time
  mutable bool committed_moved_ = true;           ///< uc_ changed since the faces read it
  mutable double dissipated_ = 0;
  mutable Vec last_u_ = nullptr;  ///< the last evaluation's u and its state
  mutable PetscObjectState last_state_ = 0;
  mutable std::int64_t searches_ = 0;
  mutable std::vector<double> u_at_search_;  ///< owned entries
  mutable petsc::Vector fc_;                 ///< the internal force (global vector)
  mutable std::vector<double> force_;        ///< its entries at touched_
  std::vector<double> touched_area_;         ///< per touched node: its area share
  std::vector<Vec3> touched_normal_;         ///< and its surface normal
  double mass_weight_ = 0;  ///< augmented: the share of a slave node's mass in the update
  Augmented augmented_;     ///< the section's (the tolerance resolved)
  mutable std::int64_t updates_ = 0;
  std::vector<std::string> warnings_;  ///< check_start's
  std::int64_t initial_ = 0;           ///< check_start: nodes starting behind a face they face
  double initial_depth_ = 0;           ///< and the deepest
};

}  // namespace

namespace contact_input {

void move_initial_penetrations(const TermInputs& in, const ContactSection& s, LocalMesh& mesh) {
  for (const PairInput& pair : s.pairs) {
    if (pair.initial != InitialPenetration::move) continue;
    pair.moved = 0, pair.largest_move = 0;  // a system built again starts from its own mesh
    // One pass at a time on the mesh as the last one left it: the first side's nodes onto the
    // second's faces, then what remains of the second's on the first's (none where the first
    // moved onto matching faces).
    for (std::size_t k = 0; k < pair.surfaces.size(); ++k) {
      ContactPairTerm term(in, pair, penalty_scale(s, in.spec), Augmented{});
      auto [moves, count, longest] = term.initial_moves(in.assembler, k);
      petsc::GhostedRead m(moves);
      for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n)
        for (int i = 0; i < 3; ++i) mesh.coords[3 * n + i] += m[3 * n + i];
      pair.moved += count;
      pair.largest_move = std::max(pair.largest_move, longest);
    }
  }
}

void build_pair_terms(const TermInputs& in, const ContactSection& s,
                      std::vector<std::unique_ptr<ForceTerm>>& out) {
  for (const PairInput& p : s.pairs) {
    auto term = std::make_unique<ContactPairTerm>(in, p, penalty_scale(s, in.spec), s.augmented);
    term->check_start(in.assembler);
    out.push_back(std::move(term));
  }
}

}  // namespace contact_input

}  // namespace inertia
