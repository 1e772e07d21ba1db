// The pairs' search and projection (contact_pair.hpp; contact_pairs.cpp's module comment: the
// faces exchanged between the ranks by their boxes, each slave node's candidates in a grid).
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "contact_pair.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia::contact_input {

namespace {

/// In the face's parametric coordinates: `within` a face, and `inside` its band, which counts
/// where no face has the point within (the gap above a kink of a faceted convex surface, which a
/// node would otherwise slip through: Newton then cycles).
constexpr double inside_tolerance = 1e-6, band = 0.05;

/// The received faces of pass p: their nodes, the scatter, their displacement at u.
void receive_faces(const SearchSpace& space, Pass& p, const std::vector<double>& recv, Vec u) {
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
                    r[1] == 0 ? 1.0 : r[1],
                    {-1, -1, -1, -1},
                    {-1, -1, -1, -1},
                    {0, 0, 0},
                    std::min(space.depth, depth_share * r[18]),
                    r[1] == 0,
                    r[19]};
    for (int a = 0; a < face.kind; ++a) {
      const auto g = static_cast<std::int64_t>(r[2 + a]);
      const auto at = std::lower_bound(p.gids.begin(), p.gids.end(), g) - p.gids.begin();
      face.node[a] = static_cast<std::int32_t>(at);
      face.key[a] = g;
      p.X[at] = {r[6 + 3 * a], r[7 + 3 * a], r[8 + 3 * a]};
    }
    std::sort(face.key.begin(), face.key.end());
    for (int a = 0; a < face.kind; ++a)
      for (int i = 0; i < 3; ++i) face.centre[i] += r[6 + 3 * a + i] / face.kind;
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
  INERTIA_PETSC(VecScatterBegin(p.scatter, u, p.ug, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecScatterEnd(p.scatter, u, p.ug, INSERT_VALUES, SCATTER_FORWARD));
  p.fm.assign(3 * ng, 0.0);
  {
    petsc::ConstArray g(p.ug);
    p.ug_at_search.assign(g.span().begin(), g.span().end());
  }
}

/// Each slave node's candidate faces: those whose box, grown by the margin, holds it at the
/// search (not its own faces).
void find_candidates(const SearchSpace& space, const Side& slave, Pass& p,
                     const std::vector<double>& u_at_search) {
  const std::size_t nf = p.faces.size();
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
        fb[6 * f + i] = std::min(fb[6 * f + i], x - space.margin);
        fb[6 * f + 3 + i] = std::max(fb[6 * f + 3 + i], x + space.margin);
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
          std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor((x[i] - lo[i]) / cell)), 0,
                                   2097151);
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
  p.candidate_ptr.assign(1, 0);
  p.candidates.clear();
  p.gap.assign(slave.nodes.size(), 0.0);
  std::vector<std::int64_t> star;
  const bool thick_faces =
      std::any_of(p.faces.begin(), p.faces.end(), [](const Pass::Face& f) { return f.half > 0; });
  for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
    const std::int32_t n = slave.nodes[j];
    const std::int64_t gid = space.mesh.global_node(n);
    double x[3];
    for (int i = 0; i < 3; ++i) x[i] = space.mesh.coords[3 * n + i] + u_at_search[3 * n + i];
    if (nf > 0)
      if (const auto it = grid.find(key(x)); it != grid.end()) {
        // With thickness, the node's star too: the nodes of its own faces. A face with one of
        // them is next to the node on its own surface (a fold's cell is a thickness across its
        // diagonal): not a face it can touch.
        auto has = [](const std::array<std::int64_t, 4>& k, std::int64_t g) {
          return std::find(k.begin(), k.end(), g) != k.end();
        };
        star.clear();
        if (thick_faces || slave.half[j] > 0)  // solids alone: no star to look at
          for (const std::int32_t f : it->second)
            if (has(p.faces[f].key, gid))
              for (const auto g : p.faces[f].key)
                if (g >= 0) star.push_back(g);
        for (const std::int32_t f : it->second) {
          bool inside = true;
          for (int i = 0; i < 3 && inside; ++i)
            inside = x[i] >= fb[6 * f + i] && x[i] <= fb[6 * f + 3 + i];
          const auto& k = p.faces[f].key;
          bool near = has(k, gid);
          if (!near && (p.faces[f].half > 0 || slave.half[j] > 0))
            for (const auto g : star) near = near || has(k, g);
          if (inside && !near) p.candidates.push_back(f);
        }
      }
    p.candidate_ptr.push_back(static_cast<std::int64_t>(p.candidates.size()));
  }
}

}  // namespace

namespace {

/// The closest point of x on the closed triangle a b c: its barycentric weights (Ericson,
/// Real-Time Collision Detection, 5.1.5).
std::array<double, 3> closest_on_triangle(const Vec3& a, const Vec3& b, const Vec3& c,
                                          const Vec3& x) {
  const Vec3 ab{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ac{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Vec3 ap{x[0] - a[0], x[1] - a[1], x[2] - a[2]};
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
  const Vec3 bp{x[0] - b[0], x[1] - b[1], x[2] - b[2]};
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const Vec3 cp{x[0] - c[0], x[1] - c[1], x[2] - c[2]};
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double denom = 1 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  return {1 - v - w, v, w};
}

/// A quadrilateral too warped for the bilinear projection (Gauss-Newton does not converge, as on a
/// cell folded through itself): the closest point on its four triangles about the centre, exact,
/// and the signed distance to it (the sign from the triangle's normal), so that the force stays
/// the gradient of the penalty's energy. Before, the unconverged point's gap and normal were
/// taken as they were, and such a face made energy.
Projection project_faceted(const Vec3* p, double sign, const Vec3& x) {
  Projection out;
  Vec3 c{0, 0, 0};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) c[i] += 0.25 * p[a][i];
  double best = INFINITY;
  for (int a = 0; a < 4; ++a) {
    const int b = (a + 1) % 4;
    const auto l = closest_on_triangle(c, p[a], p[b], x);
    Vec3 r;
    for (int i = 0; i < 3; ++i) r[i] = x[i] - (l[0] * c[i] + l[1] * p[a][i] + l[2] * p[b][i]);
    const double d = std::sqrt(dot(r, r));
    if (!(d < best)) continue;
    best = d;
    Vec3 n = cross({p[a][0] - c[0], p[a][1] - c[1], p[a][2] - c[2]},
                   {p[b][0] - c[0], p[b][1] - c[1], p[b][2] - c[2]});
    const double ln = std::sqrt(dot(n, n));
    if (!(ln > 0)) continue;
    for (auto& v : n) v *= sign / ln;
    const double side = dot(r, n) < 0 ? -1.0 : 1.0;
    out.N = {0.25 * l[0], 0.25 * l[0], 0.25 * l[0], 0.25 * l[0]};
    out.N[a] += l[1];
    out.N[b] += l[2];
    out.within = out.inside = l[0] > 1e-12;  // not on the quadrilateral's outer edge
    out.g = side * d;
    if (d > 0)
      for (int i = 0; i < 3; ++i) out.n[i] = side * r[i] / d;
    else
      out.n = n;
  }
  return out;
}

}  // namespace

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
  bool converged = false;
  for (int it = 0; it < 8 && !converged; ++it) {
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
    if (!(det > 0)) return project_faceted(p, sign, x);
    const double b1 = dot(r, tx), b2 = dot(r, ty);
    const double dxi = (a22 * b1 - a12 * b2) / det, deta = (a11 * b2 - a12 * b1) / det;
    xi += dxi, eta += deta;
    converged = std::abs(dxi) + std::abs(deta) < 1e-10;
  }
  if (!converged) return project_faceted(p, sign, x);
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

namespace {

/// The closest point of x on the face's boundary edges (straight, for the bilinear face too): the
/// distance to it, the direction from it to x and the shape functions there.
Projection closest_on_edges(int kind, const Vec3* p, const Vec3& x) {
  Projection out;
  double best = INFINITY;
  for (int a = 0; a < kind; ++a) {
    const int b = (a + 1) % kind;
    const Vec3 e{p[b][0] - p[a][0], p[b][1] - p[a][1], p[b][2] - p[a][2]};
    const Vec3 d{x[0] - p[a][0], x[1] - p[a][1], x[2] - p[a][2]};
    const double ee = dot(e, e);
    const double s = ee > 0 ? std::clamp(dot(d, e) / ee, 0.0, 1.0) : 0.0;
    const Vec3 r{d[0] - s * e[0], d[1] - s * e[1], d[2] - s * e[2]};
    const double l = std::sqrt(dot(r, r));
    if (!(l < best)) continue;
    best = l;
    out.g = l;
    out.N = {0, 0, 0, 0};
    out.N[a] = 1 - s;
    out.N[b] += s;
    if (l > 0) out.n = {r[0] / l, r[1] / l, r[2] / l};
  }
  return out;
}

}  // namespace

Projection project_on(const Pass::Face& face, const Vec3* pts, const Vec3& x, double half,
                      const Vec3& side) {
  Projection pr = project(face.kind, pts, face.sign, x);
  // With thickness (a shell's face, or a shell's node): the contact surface wraps around the
  // face's edges with the radius of the half thicknesses (as LS-DYNA's automatic contacts do at a
  // shell's free edge), so that the gap is the distance to the closest point of the closed face
  // less both half thicknesses, continuous from face to face. Without it a node coming round a
  // fold (or over a free edge) met the next face already as deep as the thicknesses, and the
  // penalty's energy appeared from nothing. A one-sided face rounds its edges in front only.
  if (half + face.half > 0 && !pr.within) {
    const Projection edge = closest_on_edges(face.kind, pts, x);
    const double front = dot(edge.n, pr.n);  // pr.n: the face's normal (sign applied)
    if (edge.g > 0 && (face.two_sided || front > 0)) {
      pr = edge;
      pr.within = pr.inside = true;
    }
  }
  // The side kept is the normal of the face the node last pressed: it decides for a face within
  // 60 degrees of that one (the same face, or its neighbour on a smooth sheet); a face at a
  // sharper angle (the next face round a fold) is taken from the side the node is on. Before,
  // its sign came from a near-zero product, and a node was pulled into the fold's other face.
  const double along = dot(pr.n, side);
  const bool kept = std::abs(along) >= 0.5;
  if (face.two_sided && (kept ? along < 0 : pr.g < 0)) {
    pr.g = -pr.g;
    for (auto& c : pr.n) c = -c;
  }
  pr.g -= half + face.half;
  return pr;
}

void search_faces(const SearchSpace& space, const std::vector<Side>& sides,
                  std::vector<Pass>& passes, Vec u, std::vector<double>& u_at_search) {
  const int size = space.size;
  // Current positions of this rank's faces and nodes; the boxes of each side's nodes.
  std::vector<double> boxes(static_cast<std::size_t>(12 * size), 0.0);
  std::vector<std::vector<double>> face_boxes(sides.size());
  {
    petsc::GhostedRead ul(u);
    u_at_search.assign(ul.span().begin(), ul.span().begin() + 3 * space.mesh.num_owned);
    for (std::size_t s = 0; s < sides.size(); ++s) {
      const Side& side = sides[s];
      double* box = &boxes[12 * space.rank + 6 * s];
      for (int i = 0; i < 3; ++i) box[i] = INFINITY, box[3 + i] = -INFINITY;
      for (auto n : side.nodes)
        for (int i = 0; i < 3; ++i) {
          const double x = space.mesh.coords[3 * n + i] + ul[3 * n + i];
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
            const double x = space.mesh.coords[3 * n + i] + ul[3 * n + i];
            fb[6 * f + i] = std::min(fb[6 * f + i], x);
            fb[6 * f + 3 + i] = std::max(fb[6 * f + 3 + i], x);
          }
        }
      }
    }
  }
  INERTIA_MPI(
      MPI_Allgather(MPI_IN_PLACE, 12, MPI_DOUBLE, boxes.data(), 12, MPI_DOUBLE, space.comm));
  for (Pass& p : passes) {
    // To each rank, the master faces whose grown box meets its slave nodes' box.
    const Side& master = sides[p.master];
    const auto& fb = face_boxes[p.master];
    const std::size_t nf = master.face_local.size() / 4;
    std::vector<std::vector<std::size_t>> to(static_cast<std::size_t>(size));
    for (int q = 0; q < size; ++q) {
      const double* box = &boxes[12 * q + 6 * p.slave];
      if (!(box[0] <= box[3])) continue;  // no slave node there
      for (std::size_t f = 0; f < nf; ++f) {
        bool meets = true;
        for (int i = 0; i < 3 && meets; ++i)
          meets = fb[6 * f + i] - space.margin <= box[3 + i] &&
                  fb[6 * f + 3 + i] + space.margin >= box[i];
        if (meets) to[q].push_back(f);
      }
    }
    std::vector<int> send_counts(size), recv_counts(size), send_at(size), recv_at(size);
    std::vector<double> send;
    for (int q = 0; q < size; ++q) {
      send_at[q] = static_cast<int>(send.size());
      for (auto f : to[q])
        send.insert(send.end(), master.faces.begin() + record_size * f,
                    master.faces.begin() + record_size * (f + 1));
      send_counts[q] = static_cast<int>(send.size()) - send_at[q];
    }
    INERTIA_MPI(
        MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, space.comm));
    int total = 0;
    for (int q = 0; q < size; ++q) recv_at[q] = total, total += recv_counts[q];
    std::vector<double> recv(static_cast<std::size_t>(total));
    INERTIA_MPI(MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_DOUBLE,
                              recv.data(), recv_counts.data(), recv_at.data(), MPI_DOUBLE,
                              space.comm));
    receive_faces(space, p, recv, u);
    find_candidates(space, sides[p.slave], p, u_at_search);
  }
}

FaceChoice choose_face(const Pass& p, std::size_t j, const Vec3& x, const Vec3& outward,
                       double half, std::span<const PetscScalar> ug, double o, double depth,
                       bool leaving, const Vec3& side) {
  // Locals, not the result's fields: stores through the result would make the compiler reload
  // the pass's arrays at every candidate (the loop is the pairs' hot path).
  Projection best, exit;
  // Whether projection a (on face fa) is nearer than b (on fb). Gaps within rounding of each other
  // (a node over the edge two faces share: the same closest point) are a tie, broken by the
  // faces' reference centres: the same choice on any number of ranks (the displacements' last
  // bits, and the nodes' numbers, depend on it).
  // The distances compared are to the faces' mid-surfaces (the gaps plus both half thicknesses):
  // the nearest face of a shell's, not the one it is least deep in.
  const double tie = 1e-9 * depth;
  auto nearer = [tie, half](const Projection& a, const Pass::Face& fa, const Projection& b,
                            const Pass::Face& fb) {
    const double d = std::abs(a.g + half + fa.half) - std::abs(b.g + half + fb.half);
    return d < -tie || (!(d > tie) && fa.centre < fb.centre);
  };
  const Pass::Face* chosen = nullptr;
  const Pass::Face* left = nullptr;
  for (auto c = p.candidate_ptr[j], end = p.candidate_ptr[j + 1]; c < end; ++c) {
    const Pass::Face& face = p.faces[p.candidates[c]];
    Vec3 pts[4];
    for (int a = 0; a < face.kind; ++a)
      for (int i = 0; i < 3; ++i) pts[a][i] = p.X[face.node[a]][i] + ug[3 * face.node[a] + i];
    // A node whose closest point is inside the face at a distance d <= depth (beyond the
    // shells' half thicknesses) is inside the face's box grown by that: the projections are only
    // computed there.
    const double reach = depth + half + face.half - o;
    bool near = true;
    for (int i = 0; i < 3 && near; ++i) {
      double lo = pts[0][i], hi = pts[0][i];
      for (int a = 1; a < face.kind; ++a)
        lo = std::min(lo, pts[a][i]), hi = std::max(hi, pts[a][i]);
      near = x[i] >= lo - reach && x[i] <= hi + reach;
    }
    if (!near) continue;
    const Projection pr = project_on(face, pts, x, half, side);
    // A node leaving contact with a friction force: the nearest facing face, where it left (its
    // slip over the step).
    if (leaving && facing(pr.n, outward) && (!left || nearer(pr, face, exit, *left)))
      exit = pr, left = &face;
    // Inside the face, facing it, not deeper than its limit beyond the initial gap (the far side
    // of a body or of the face's cell), not farther in front than `depth`.
    // A node keeping its side of a shell may be past the mid-surface: as deep as both shells'
    // half thicknesses more.
    const double limit = face.two_sided ? face.limit + half + face.half : face.limit;
    if (!pr.inside || !facing(pr.n, outward) || pr.g > depth || pr.g < o - limit) continue;
    // A face that has the point within it before one whose band has it; then the nearest.
    if (!chosen || (pr.within && !best.within) ||
        (pr.within == best.within && nearer(pr, face, best, *chosen)))
      best = pr, chosen = &face;
  }
  return {chosen, best, left, exit};
}

void add_link_blocks(const Pass::Link& l, bool friction,
                     std::vector<ForceTerm::CouplingBlock>& blocks) {
  std::array<double, 9> B;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double nn = l.n[i] * l.n[j];
      // Friction: the return map's symmetric tangent (coulomb(); the stick spring where the node
      // only touches), in the same relative displacement as the gap.
      B[3 * i + j] = l.k * nn + (friction ? l.slip.symmetric[3 * i + j] : 0.0);
    }
  std::array<std::int64_t, 5> node{l.slave, -1, -1, -1, -1};
  std::array<double, 5> c{1, 0, 0, 0, 0};
  for (int a = 0; a < l.kind; ++a) node[1 + a] = l.master[a], c[1 + a] = -l.N[a];
  for (int a = 0; a <= l.kind; ++a)
    for (int b = 0; b <= l.kind; ++b) {
      ForceTerm::CouplingBlock blk{node[a], node[b], {}};
      for (int e = 0; e < 9; ++e) blk.b[e] = c[a] * c[b] * B[e];
      blocks.push_back(blk);
    }
}

}  // namespace inertia::contact_input
