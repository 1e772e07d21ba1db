// A contact pair's reference configuration (contact_pair.hpp): initial penetrations, refused,
// kept (`ignore`) or moved onto the faces (`move`), and surfaces that do not face each other.
#include <algorithm>
#include <cmath>
#include <utility>

#include "contact_pair.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::contact_input {

namespace {

/// A node that starts behind a face may be moved onto it up to this share of its own cells'
/// height over its surface (`initial_penetration: move`): a longer move would crush them.
constexpr double move_share = 0.5;

/// A slave node in the reference configuration (pass p searched at u = 0).
struct Start {
  double depth = 0;                   ///< its deepest penetration behind a face it faces (0: none)
  Vec3 n{0, 0, 0};                    ///< that face's normal
  bool facing = false, near = false;  ///< a face in front of it within the margin; any face
};
Start start_of(const SearchSpace& space, const Side& slave, const Pass& p, std::size_t j) {
  const LocalMesh& mesh = space.mesh;
  const std::int32_t n = slave.nodes[j];
  const Vec3 x{mesh.coords[3 * n], mesh.coords[3 * n + 1], mesh.coords[3 * n + 2]};
  const double round_off = 1e-6 * space.margin;
  Start out;
  for (auto c = p.candidate_ptr[j]; c < p.candidate_ptr[j + 1]; ++c) {
    const Pass::Face& face = p.faces[p.candidates[c]];
    Vec3 pts[4];
    for (int a = 0; a < face.kind; ++a) pts[a] = p.X[face.node[a]];
    const Projection pr = project_on(face, pts, x, slave.half[j]);
    if (!pr.within || std::abs(pr.g) > space.margin) continue;
    out.near = true;
    if (!facing(pr.n, slave.outward[j])) continue;
    out.facing = true;
    if (std::abs(pr.g) <= face.limit && -pr.g > std::max(out.depth, round_off))
      out.depth = -pr.g, out.n = pr.n;
  }
  return out;
}

}  // namespace

StartCheck check_pair_start(const SearchSpace& space, const PairInput& pair,
                            const std::vector<Side>& sides, std::vector<Pass>& passes) {
  std::int64_t counts[3] = {0, 0, 0};  // nodes penetrating, facing a face, near only back faces
  struct {
    double depth;
    int rank;
  } mine{0, space.rank}, worst{};
  std::int64_t tag = -1;
  const bool ignore = pair.initial == InitialPenetration::ignore;
  for (Pass& p : passes) {
    const Side& slave = sides[p.slave];
    if (ignore) p.offset.assign(slave.nodes.size(), 0.0);
    for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
      const Start start = start_of(space, slave, p, j);
      counts[1] += start.facing ? 1 : 0;
      counts[2] += start.near && !start.facing ? 1 : 0;
      if (start.depth > 0) {
        ++counts[0];
        if (ignore) p.offset[j] = -start.depth;
        if (start.depth > mine.depth)
          mine.depth = start.depth, tag = space.mesh.node_tags[slave.nodes[j]];
      }
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_INT64_T, MPI_SUM, space.comm));
  INERTIA_MPI(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, space.comm));
  INERTIA_MPI(MPI_Bcast(&tag, 1, MPI_INT64_T, worst.rank, space.comm));
  const std::string surfaces =
      sides.size() == 1 ? cat("surface '", sides[0].region, "'")
                        : cat("surfaces '", sides[0].region, "' and '", sides[1].region, "'");
  INERTIA_CHECK(ignore || counts[0] == 0, InputError, pair.where, ": pair '", pair.name,
                "' starts interpenetrated: ", counts[0], " node(s) of its ", surfaces,
                " behind a face they face, the deepest (node ", tag, ") by ", worst.depth, " m",
                pair.initial == InitialPenetration::move
                    ? cat(" after moving ", pair.moved,
                          " node(s) (the surfaces interlock: move the bodies apart)")
                    : std::string("; move the bodies apart or to touching, or give the pair "
                                  "initial_penetration: move or ignore (the penalty would push "
                                  "them out with the energy of that penetration)"));
  StartCheck out;
  out.initial = counts[0], out.initial_depth = worst.depth;
  if (sides.size() == 2 && counts[1] == 0 && counts[2] > 0)
    out.warnings.push_back(cat(pair.where, ": pair '", pair.name, "': its ", surfaces,
                               " do not face each other: ", counts[2],
                               " of their nodes are within the search distance (", space.margin,
                               " m) of the other surface, all behind its faces or turned away; "
                               "give each body's face toward the other"));
  return out;
}

InitialMoves initial_moves_of(const SearchSpace& space, const PairInput& pair, const Side& slave,
                              const Pass& p, petsc::Vector v) {
  struct {
    double ratio;
    int rank;
  } mine{0, space.rank}, worst{};
  double longest = 0, info[2] = {0, 0};  // the worst node's tag and move
  std::int64_t moved = 0;
  {
    petsc::Array m(v);
    for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
      const Start start = start_of(space, slave, p, j);
      if (!(start.depth > 0)) continue;
      const std::int32_t n = slave.nodes[j];
      for (int i = 0; i < 3; ++i) m[3 * n + i] = start.depth * start.n[i];
      ++moved;
      longest = std::max(longest, start.depth);
      const double ratio = start.depth / slave.height[j];
      if (ratio > mine.ratio)
        mine.ratio = ratio, info[0] = static_cast<double>(space.mesh.node_tags[n]),
        info[1] = start.depth;
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT64_T, MPI_SUM, space.comm));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_DOUBLE, MPI_MAX, space.comm));
  INERTIA_MPI(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE_INT, MPI_MAXLOC, space.comm));
  INERTIA_MPI(MPI_Bcast(info, 2, MPI_DOUBLE, worst.rank, space.comm));
  INERTIA_CHECK(!(worst.ratio > move_share), InputError, pair.where, ".initial_penetration: pair '",
                pair.name, "': node ", static_cast<std::int64_t>(info[0]), " of surface '",
                slave.region, "' would move ", info[1], " m onto the face it penetrates, ",
                worst.ratio, " x the height of its own cells (at most ", move_share,
                "): its cells would be crushed; move the bodies apart in the mesh");
  return {std::move(v), moved, longest};
}

std::string pair_summary(MPI_Comm comm, const std::string& what, const PairInput& pair,
                         const std::vector<Side>& sides, const PairFigures& f) {
  double v[5] = {0, 0, INFINITY, 0, 0};  // nodes of each side, min k, max k (per pass)
  for (std::size_t s = 0; s < sides.size(); ++s) {
    v[s] = static_cast<double>(sides[s].nodes.size());
    for (const double k : sides[s].k) v[2] = std::min(v[2], k), v[3] = std::max(v[3], k);
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, comm));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[2], 1, MPI_DOUBLE, MPI_MIN, comm));
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &v[3], 1, MPI_DOUBLE, MPI_MAX, comm));
  return cat(what, ": ", static_cast<std::int64_t>(v[0]),
             sides.size() > 1 ? cat(" + ", static_cast<std::int64_t>(v[1])) : std::string(),
             " nodes, penalty per pass ", v[2], " to ", v[3], " N/m, margin ", f.margin, " m",
             f.reach > 0 ? cat(" (with the shells' thicknesses: their mid-surfaces touch ", f.reach,
                               " m apart at most)")
                         : std::string(),
             friction_text(pair.friction),
             pair.initial == InitialPenetration::move && pair.moved > 0
                 ? cat(", ", pair.moved, " node(s) moved onto the faces they penetrated (",
                       "the longest move ", pair.largest_move, " m)")
             : pair.initial == InitialPenetration::ignore
                 ? cat(", ", f.initial, " initial penetration(s) kept (the deepest ",
                       f.initial_depth, " m)")
                 : std::string(),
             f.augmented.on ? cat(", augmented Lagrangian to ", f.augmented.tolerance, " m")
                            : std::string(),
             !f.rebuilds    ? std::string()
             : pair.eroding ? ", its surfaces follow the erosion (the faces eroded cells uncover "
                              "join them)"
                            : ", the eroded cells' faces leave its surfaces (eroding: false)");
}

double largest_motion_squared(const std::vector<Side>& sides, const std::vector<Pass>& passes,
                              Vec u, std::span<const double> u_at_search) {
  double moved = 0;
  {
    petsc::ConstArray ua(u);
    for (const Side& side : sides)
      for (std::size_t j = 0; j < side.nodes.size(); ++j) {
        const std::int32_t n = side.nodes[j];
        double d2 = 0;
        for (int i = 0; i < 3; ++i) d2 += std::pow(ua[3 * n + i] - u_at_search[3 * n + i], 2);
        moved = std::max(moved, d2);
      }
    for (const Pass& p : passes) {
      petsc::ConstArray g(p.ug);
      for (std::size_t a = 0; a < p.gids.size(); ++a) {
        double d2 = 0;
        for (int i = 0; i < 3; ++i) d2 += std::pow(g[3 * a + i] - p.ug_at_search[3 * a + i], 2);
        moved = std::max(moved, d2);
      }
    }
  }
  return moved;
}

}  // namespace inertia::contact_input
