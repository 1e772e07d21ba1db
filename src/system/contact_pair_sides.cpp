// A contact pair's sides from the mesh (contact_pair.hpp): each surface's owned nodes with their
// outward directions and surface normals, and its faces on this rank as the records the search
// sends between ranks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "contact_pair.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::contact_input {

namespace {

/// Collective. Each node's outward direction (not yet of unit length): the sum over its
/// elements of (node - element centre).
petsc::Vector outward_sums(const TermInputs& in) {
  const LocalMesh& mesh = in.mesh;
  petsc::Vector outward = in.assembler.create_vector();
  in.assembler.assemble(outward, [&](VectorSum& sum) {
    auto local = sum.local();
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
      if (!mesh.cell_is_element[c] || info(mesh.cell_types[c]).dim != 3) continue;
      const auto nodes = mesh.nodes_of(c);
      double centre[3] = {0, 0, 0};
      for (auto n : nodes)
        for (int i = 0; i < 3; ++i) centre[i] += mesh.coords[3 * n + i] / nodes.size();
      for (auto n : nodes)
        for (int i = 0; i < 3; ++i) local[3 * n + i] += mesh.coords[3 * n + i] - centre[i];
    }
  });
  return outward;
}

/// Per face node, its face's outward area vector.
using AreaVectors = std::vector<std::pair<std::int32_t, Vec3>>;

/// A face of a side's surface into side.faces (its records: tri6 as four flat triangles) and
/// side.face_local, oriented by its nodes' outward directions (`direction`); its area vector at
/// its nodes into `normals`, its edges' lengths summed and counted into edges[0] and edges[1].
template <typename Direction>
void add_face(const LocalMesh& mesh, const SurfaceFace& surface_face, Direction&& direction,
              Side& side, AreaVectors& normals, double* edges) {
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
    return;
  // Orientation: the face's normal (node order) against its nodes' outward directions.
  Vec3 sum{0, 0, 0};
  for (auto n : nodes) {
    const Vec3 d = direction(static_cast<std::int32_t>(n));
    for (int i = 0; i < 3; ++i) sum[i] += d[i];
  }
  auto x = [&](int a) {
    const double* p = &mesh.coords[3 * nodes[a]];
    return Vec3{p[0], p[1], p[2]};
  };
  const Vec3 x0 = x(0), x1 = x(1), x2 = x(2);
  const Vec3 normal = cross({x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]},
                            {x2[0] - x0[0], x2[1] - x0[1], x2[2] - x0[2]});
  // A shell's face: both sides (sign 0 in its record), its normal as its nodes give it.
  const double sign = surface_face.half > 0                            ? 1.0
                      : !surface_face.oriented && dot(normal, sum) < 0 ? -1.0
                                                                       : 1.0;
  {  // the face's outward area vector, shared by its nodes (the nodes' surface normals)
    Vec3 area = normal;
    if (t == CellType::quad4) {
      const Vec3 x3 = x(3);
      area = cross({x2[0] - x0[0], x2[1] - x0[1], x2[2] - x0[2]},
                   {x3[0] - x1[0], x3[1] - x1[1], x3[2] - x1[2]});
    }
    for (auto n : nodes)
      normals.emplace_back(static_cast<std::int32_t>(n),
                           Vec3{sign * area[0], sign * area[1], sign * area[2]});
  }
  for (const auto& part : parts) {
    const int kind = part[3] < 0 ? 3 : 4;
    double r[record_size];
    std::fill(r, r + record_size, 0.0);
    r[0] = kind;
    r[1] = surface_face.half > 0 ? 0.0 : sign;
    r[18] = surface_face.height;
    r[19] = surface_face.half;
    std::array<std::int32_t, 4> local{-1, -1, -1, -1};
    for (int a = 0; a < 4; ++a) {
      if (a >= kind) {
        r[2 + a] = -1;
        continue;
      }
      const auto n = static_cast<std::int32_t>(nodes[part[a]]);
      local[a] = n;
      r[2 + a] = static_cast<double>(mesh.global_node(n));
      for (int i = 0; i < 3; ++i) r[6 + 3 * a + i] = mesh.coords[3 * n + i];
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

/// Collective. side.height: per node, the smallest height of its cells over the surface's
/// faces at it.
void own_heights(const Assembler& assembler, const Surface& surface, Side& side) {
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

/// Collective. side.normal: each node's surface normal, the sum of its faces' outward area
/// vectors (over the ranks), of unit length.
void node_normals(const Assembler& assembler, const AreaVectors& face_normals, Side& side) {
  petsc::Vector normals = assembler.create_vector();
  assembler.assemble(normals, [&](VectorSum& sum) {
    auto local = sum.local();
    for (const auto& [n, a] : face_normals)
      for (int i = 0; i < 3; ++i) local[3 * n + i] += a[i];
  });
  petsc::ConstArray v(normals);
  for (auto n : side.nodes) {
    Vec3 d{v[3 * n], v[3 * n + 1], v[3 * n + 2]};
    const double l = std::sqrt(dot(d, d));
    if (l > 0)
      for (auto& c : d) c /= l;
    side.normal.push_back(d);
  }
}

}  // namespace

PairSides pair_sides(const TermInputs& in, const PairInput& pair,
                     const std::vector<std::uint8_t>* eroded) {
  PairSides out;
  const int sides = static_cast<int>(pair.surfaces.size());
  out.sides.resize(static_cast<std::size_t>(sides));
  std::vector<Surface> surfaces;
  for (int s = 0; s < sides; ++s) {
    Side& side = out.sides[s];
    side.region = pair.surfaces[s];
    surfaces.push_back(
        surface_faces(in, side.region, cat(pair.where, ".surfaces"), eroded, pair.eroding));
    SurfaceNodes surface = surface_nodes(in, surfaces.back());
    side.nodes = std::move(surface.nodes);
    side.areas = std::move(surface.areas);
    side.half = std::move(surface.half);
    side.k.assign(side.nodes.size(), 0.0);
  }
  petsc::Vector outward = outward_sums(in);
  double edges[2] = {0, 0};  // the faces' edge lengths summed, and their number
  AreaVectors face_normals[2];
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
      Side& side = out.sides[s];
      for (auto n : side.nodes) side.outward.push_back(direction(n));
      for (const SurfaceFace& surface_face : surfaces[s].faces)
        add_face(in.mesh, surface_face, direction, side, face_normals[s], edges);
    }
  }
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, edges, 2, MPI_DOUBLE, MPI_SUM, in.comm));
  if (pair.initial == InitialPenetration::move)
    for (int s = 0; s < sides; ++s) own_heights(in.assembler, surfaces[s], out.sides[s]);
  for (int s = 0; s < sides; ++s) node_normals(in.assembler, face_normals[s], out.sides[s]);
  // Half the mean edge: a few candidate faces per node where the faces are finest. The longest
  // edge made the large faces far from the contact set every node's search radius.
  out.half_edge = 0.5 * edges[0] / std::max(edges[1], 1.0);
  return out;
}

double pair_penalties(std::vector<Side>& sides, const PairInput& pair, double scale,
                      double mass_weight, std::span<const PetscScalar> diagonal,
                      std::span<const PetscScalar> mass) {
  double bound = 0;
  for (Side& side : sides)
    for (std::size_t j = 0; j < side.nodes.size(); ++j) {
      const std::int32_t n = side.nodes[j];
      side.k[j] = 0.25 * (pair.penalty > 0 ? pair.penalty * side.areas[j]
                                           : scale * std::max({diagonal[3 * n], diagonal[3 * n + 1],
                                                               diagonal[3 * n + 2]}));
      if (mass[3 * n] > 0) bound = std::max(bound, 4 * side.k[j] / mass[3 * n]);
      if (mass_weight > 0) side.m[j] = mass_weight * mass[3 * n];
    }
  return bound;
}

void touched_nodes(const std::vector<Side>& sides, std::vector<std::int32_t>& nodes,
                   std::vector<double>& areas, std::vector<Vec3>& normals,
                   std::vector<double>& halves) {
  nodes.clear();
  for (const Side& side : sides) nodes.insert(nodes.end(), side.nodes.begin(), side.nodes.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  areas.assign(nodes.size(), 0.0);
  normals.assign(nodes.size(), Vec3{0, 0, 0});
  halves.assign(nodes.size(), 0.0);
  for (const Side& side : sides)
    for (std::size_t j = 0; j < side.nodes.size(); ++j) {
      const auto at = static_cast<std::size_t>(
          std::lower_bound(nodes.begin(), nodes.end(), side.nodes[j]) - nodes.begin());
      if (areas[at] > 0) continue;
      areas[at] = side.areas[j];
      normals[at] = side.normal[j];
      halves[at] = side.half[j];
    }
}

}  // namespace inertia::contact_input
