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
                    r[1],
                    {-1, -1, -1, -1},
                    {-1, -1, -1, -1},
                    std::min(space.depth, depth_share * r[18])};
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
  for (std::size_t j = 0; j < slave.nodes.size(); ++j) {
    const std::int32_t n = slave.nodes[j];
    const std::int64_t gid = space.mesh.global_node(n);
    double x[3];
    for (int i = 0; i < 3; ++i) x[i] = space.mesh.coords[3 * n + i] + u_at_search[3 * n + i];
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
                       std::span<const PetscScalar> ug, double o, double depth, bool leaving) {
  // Locals, not the result's fields: stores through the result would make the compiler reload
  // the pass's arrays at every candidate (the loop is the pairs' hot path).
  Projection best, exit;
  const Pass::Face* chosen = nullptr;
  const Pass::Face* left = nullptr;
  for (auto c = p.candidate_ptr[j], end = p.candidate_ptr[j + 1]; c < end; ++c) {
    const Pass::Face& face = p.faces[p.candidates[c]];
    Vec3 pts[4];
    for (int a = 0; a < face.kind; ++a)
      for (int i = 0; i < 3; ++i) pts[a][i] = p.X[face.node[a]][i] + ug[3 * face.node[a] + i];
    // A node whose closest point is inside the face at a distance d <= depth is inside the
    // face's box grown by depth: the projections are only computed there.
    bool near = true;
    for (int i = 0; i < 3 && near; ++i) {
      double lo = pts[0][i], hi = pts[0][i];
      for (int a = 1; a < face.kind; ++a)
        lo = std::min(lo, pts[a][i]), hi = std::max(hi, pts[a][i]);
      near = x[i] >= lo - depth + o && x[i] <= hi + depth - o;
    }
    if (!near) continue;
    const Projection pr = project(face.kind, pts, face.sign, x);
    // A node leaving contact with a friction force: the nearest facing face, where it left (its
    // slip over the step).
    if (leaving && dot(pr.n, outward) < 0 &&
        (!left || std::abs(pr.g) < std::abs(exit.g) ||
         (std::abs(pr.g) == std::abs(exit.g) && face.key < left->key)))
      exit = pr, left = &face;
    // Inside the face, facing it, not deeper than its limit beyond the initial gap (the far side
    // of a body or of the face's cell), not farther in front than `depth`.
    if (!pr.inside || dot(pr.n, outward) >= 0 || pr.g > depth || pr.g < o - face.limit) continue;
    // A face that has the point within it before one whose band has it; then the nearest; ties
    // broken by the faces' nodes (the same on any ranks).
    if (!chosen || (pr.within && !best.within) ||
        (pr.within == best.within &&
         (std::abs(pr.g) < std::abs(best.g) ||
          (std::abs(pr.g) == std::abs(best.g) && face.key < chosen->key))))
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
