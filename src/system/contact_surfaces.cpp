// Contact surfaces (contact_section.hpp): the faces of a region named as a wall's region or a
// pair's surface. A region of faces gives its own faces; a volume region (part-based contact, as
// LS-DYNA's part sets) gives its skin: the faces of its cells that no other solid cell shares.
//
// Whether a face is shared is decided without gathering the mesh: every rank sends each face of
// its solid cells whose corners all belong to the surface's region to a home rank (the smallest
// corner's global number modulo the number of ranks), keyed by its sorted corner numbers; the
// home counts the distinct cells per face and answers. The same exchange gives each face the
// height of its solid cell over it (the largest distance of the cell's corners to the face's
// plane), which the pairs use as the cell's thickness behind the face.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "contact_section.hpp"
#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/shells.hpp"

namespace inertia {

using namespace contact_input;

namespace {

using Key = std::array<std::int64_t, 4>;  ///< sorted corner numbers, -1 padded at the end

/// The tet10 node on the edge between corners a and b (VTK order: edges (0,1), (1,2), (2,0),
/// (0,3), (1,3), (2,3) are nodes 4 to 9).
int tet10_edge_node(int a, int b) {
  static constexpr int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  for (int e = 0; e < 6; ++e)
    if ((edges[e][0] == a && edges[e][1] == b) || (edges[e][0] == b && edges[e][1] == a))
      return 4 + e;
  return -1;
}

/// The nodes of a region's 2D cell that make a face: all of a tri3, quad4 or tri6; a shell's
/// translational ones (not its rotation nodes).
std::span<const std::int64_t> face_nodes(const LocalMesh& mesh, std::int64_t c) {
  const auto nodes = mesh.nodes_of(c);
  const int shell = rotation_nodes_from(mesh.cell_types[c]);
  return shell > 0 ? nodes.first(static_cast<std::size_t>(shell)) : nodes;
}

}  // namespace

namespace contact_input {

const ShellInput* shell_input(const ProblemSpec& spec, const std::string& region) {
  const auto it = spec.term_sections.find("shells");
  if (it == spec.term_sections.end()) return nullptr;
  for (const ShellInput& s : dynamic_cast<const ShellSectionList&>(*it->second).shells)
    if (s.region == region) return &s;
  return nullptr;
}

}  // namespace contact_input

namespace {

/// The unit normal of a face through its corners (right-hand rule; quadrilateral: the diagonals').
std::array<double, 3> face_normal(const LocalMesh& mesh, const std::int32_t* corner, int n) {
  auto x = [&](int a, int i) { return mesh.coords[3 * corner[a] + i]; };
  double u[3], v[3];
  for (int i = 0; i < 3; ++i) {
    u[i] = x(n == 4 ? 2 : 1, i) - x(0, i);
    v[i] = n == 4 ? x(3, i) - x(1, i) : x(2, i) - x(0, i);
  }
  std::array<double, 3> w{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                          u[0] * v[1] - u[1] * v[0]};
  const double l = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (l > 0)
    for (auto& c : w) c /= l;
  return w;
}

Key key_of(const LocalMesh& mesh, const std::int32_t* corner, int n) {
  Key k{-1, -1, -1, -1};
  for (int a = 0; a < n; ++a) {  // insertion sort (std::sort on a prefix: -Warray-bounds)
    const std::int64_t g = mesh.global_node(corner[a]);
    int b = a;
    for (; b > 0 && k[b - 1] > g; --b) k[b] = k[b - 1];
    k[b] = g;
  }
  return k;
}

/// A face of a solid cell of this rank whose corners are all on the region.
struct SolidFace {
  std::int64_t cell;
  int face;  ///< in the cell type's face table
  Key key;
  std::int64_t other;  ///< the cell's smallest corner off the face: tells two cells apart
  double height;       ///< the cell's height over the face
};

/// What the home ranks say: per solid face, the number of distinct cells that have it; per
/// query, the smallest height of a solid cell over that face (-1: none has it).
struct Answers {
  std::vector<std::int64_t> cells;
  std::vector<double> heights;
};

constexpr int record = 7;  // kind (0: a solid's face, 1: a query), key, other, height

/// Collective. Sends the solid faces and the queries to their home ranks and returns the answers.
Answers ask_homes(MPI_Comm comm, const std::vector<SolidFace>& solid,
                  const std::vector<Key>& queries) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<std::vector<double>> out(static_cast<std::size_t>(size));
  std::vector<int> home_of;  // per record in order (solid faces, then queries)
  auto send = [&](double kind, const Key& k, std::int64_t other, double height) {
    const int home = static_cast<int>(k[0] % size);
    home_of.push_back(home);
    auto& o = out[static_cast<std::size_t>(home)];
    o.push_back(kind);
    for (auto g : k) o.push_back(static_cast<double>(g));
    o.push_back(static_cast<double>(other));
    o.push_back(height);
  };
  for (const auto& f : solid) send(0, f.key, f.other, f.height);
  for (const auto& k : queries) send(1, k, -1, 0);
  std::vector<int> counts(size), at(size), rcounts(size), rat(size);
  std::vector<double> buffer;
  for (int q = 0; q < size; ++q) {
    at[q] = static_cast<int>(buffer.size());
    counts[q] = static_cast<int>(out[q].size());
    buffer.insert(buffer.end(), out[q].begin(), out[q].end());
  }
  INERTIA_MPI(MPI_Alltoall(counts.data(), 1, MPI_INT, rcounts.data(), 1, MPI_INT, comm));
  int total = 0;
  for (int q = 0; q < size; ++q) rat[q] = total, total += rcounts[q];
  std::vector<double> in(static_cast<std::size_t>(total));
  INERTIA_MPI(MPI_Alltoallv(buffer.data(), counts.data(), at.data(), MPI_DOUBLE, in.data(),
                            rcounts.data(), rat.data(), MPI_DOUBLE, comm));
  // At home: per key, its cells (distinct `other`) and their smallest height.
  struct Entry {
    std::vector<std::int64_t> others;
    double height = -1;
  };
  std::map<Key, Entry> table;
  auto key_at = [&](std::size_t r) {
    return Key{static_cast<std::int64_t>(in[r + 1]), static_cast<std::int64_t>(in[r + 2]),
               static_cast<std::int64_t>(in[r + 3]), static_cast<std::int64_t>(in[r + 4])};
  };
  for (std::size_t r = 0; r < in.size(); r += record) {
    if (in[r] != 0) continue;
    Entry& e = table[key_at(r)];
    const auto other = static_cast<std::int64_t>(in[r + 5]);
    if (std::find(e.others.begin(), e.others.end(), other) == e.others.end())
      e.others.push_back(other);
    e.height = e.height < 0 ? in[r + 6] : std::min(e.height, in[r + 6]);
  }
  std::vector<double> reply(in.size() / record);
  for (std::size_t r = 0; r < in.size(); r += record) {
    const auto it = table.find(key_at(r));
    reply[r / record] = in[r] == 0          ? static_cast<double>(it->second.others.size())
                        : it == table.end() ? -1.0
                                            : it->second.height;
  }
  for (int q = 0; q < size; ++q) rcounts[q] /= record, rat[q] /= record;
  for (int q = 0; q < size; ++q) counts[q] /= record, at[q] /= record;
  std::vector<double> back(buffer.size() / record);
  INERTIA_MPI(MPI_Alltoallv(reply.data(), rcounts.data(), rat.data(), MPI_DOUBLE, back.data(),
                            counts.data(), at.data(), MPI_DOUBLE, comm));
  // back is ordered by home rank; put it back in the records' order.
  Answers a;
  std::vector<int> next(at.begin(), at.end());
  for (std::size_t r = 0; r < home_of.size(); ++r) {
    const double v = back[static_cast<std::size_t>(next[home_of[r]]++)];
    if (r < solid.size())
      a.cells.push_back(static_cast<std::int64_t>(v));
    else
      a.heights.push_back(v);
  }
  return a;
}

/// The solid faces of this rank whose corners are all marked.
/// Erosion: the cells `eroded` marks (per local cell; null: none) are left out.
std::vector<SolidFace> marked_solid_faces(const LocalMesh& mesh, const std::vector<char>& marked,
                                          const std::vector<std::uint8_t>* eroded) {
  std::vector<SolidFace> out;
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
    const CellType t = mesh.cell_types[c];
    if (!mesh.cell_is_element[c] || info(t).dim != 3) continue;
    if (eroded && (*eroded)[static_cast<std::size_t>(c)]) continue;
    const auto nodes = mesh.nodes_of(c);
    const FaceTable& table = face_table(t);
    const int corners = info(t).num_corners;
    for (int f = 0; f < table.num_faces; ++f) {
      const int n = table.corners[f][3] < 0 ? 3 : 4;
      std::int32_t corner[4];
      bool all = true;
      for (int a = 0; a < n; ++a) {
        corner[a] = static_cast<std::int32_t>(nodes[table.corners[f][a]]);
        all = all && marked[static_cast<std::size_t>(corner[a])];
      }
      if (!all) continue;
      SolidFace s{c, f, key_of(mesh, corner, n), std::numeric_limits<std::int64_t>::max(), 0};
      const auto normal = face_normal(mesh, corner, n);
      for (int a = 0; a < corners; ++a) {
        const auto m = static_cast<std::int32_t>(nodes[a]);
        const std::int64_t g = mesh.global_node(m);
        double d = 0;
        for (int i = 0; i < 3; ++i)
          d += (mesh.coords[3 * m + i] - mesh.coords[3 * corner[0] + i]) * normal[i];
        s.height = std::max(s.height, std::abs(d));
        if (std::find(s.key.begin(), s.key.end(), g) == s.key.end()) s.other = std::min(s.other, g);
      }
      out.push_back(s);
    }
  }
  return out;
}

/// The face f of solid cell c as a surface face, its nodes ordered so that its normal points out
/// of the cell (tet10: a tri6 with the edges' nodes).
SurfaceFace skin_face(const LocalMesh& mesh, std::int64_t c, int f, double height) {
  const CellType t = mesh.cell_types[c];
  const auto nodes = mesh.nodes_of(c);
  const FaceTable& table = face_table(t);
  int local[4];
  const int n = table.corners[f][3] < 0 ? 3 : 4;
  for (int a = 0; a < n; ++a) local[a] = table.corners[f][a];
  std::int32_t corner[4];
  for (int a = 0; a < n; ++a) corner[a] = static_cast<std::int32_t>(nodes[local[a]]);
  // Out of the cell: away from its centre (a negatively oriented cell reverses the table's).
  const auto normal = face_normal(mesh, corner, n);
  double side = 0;
  for (int a = 0; a < info(t).num_corners; ++a)
    for (int i = 0; i < 3; ++i)
      side += (mesh.coords[3 * nodes[a] + i] - mesh.coords[3 * corner[0] + i]) * normal[i];
  if (side > 0) std::reverse(local + 1, local + n);
  SurfaceFace out;
  out.type = info(t).face_type == CellType::tri6 ? CellType::tri6
             : n == 4                            ? CellType::quad4
                                                 : CellType::tri3;
  out.height = height;
  out.oriented = true;
  for (int a = 0; a < n; ++a) out.node[a] = static_cast<std::int32_t>(nodes[local[a]]);
  out.count = n;
  if (out.type == CellType::tri6) {
    for (int a = 0; a < 3; ++a)
      out.node[3 + a] =
          static_cast<std::int32_t>(nodes[tet10_edge_node(local[a], local[(a + 1) % 3])]);
    out.count = 6;
  }
  return out;
}

/// The area of a boundary face (straight-sided) and each node's share of it: equal shares for
/// tri3 and quad4; for tri6 the diagonal of the face's consistent mass scaled to the area (the
/// corners 1/19, the mid-side nodes 16/57: a row sum would give the corners none).
double face_shares(CellType t, const double* x, int n, double* share) {
  auto tri = [&](int a, int b, int c) {
    const double u[3] = {x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1],
                         x[3 * b + 2] - x[3 * a + 2]};
    const double v[3] = {x[3 * c] - x[3 * a], x[3 * c + 1] - x[3 * a + 1],
                         x[3 * c + 2] - x[3 * a + 2]};
    const double w[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                         u[0] * v[1] - u[1] * v[0]};
    return 0.5 * std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  };
  double area = 0;
  if (t == CellType::quad4) {
    area = tri(0, 1, 2) + tri(0, 2, 3);
    for (int a = 0; a < 4; ++a) share[a] = area / 4;
  } else if (t == CellType::tri6) {
    area = tri(0, 1, 2);
    for (int a = 0; a < 6; ++a) share[a] = area * (a < 3 ? 1.0 / 19 : 16.0 / 57);
  } else {
    area = tri(0, 1, 2);
    for (int a = 0; a < n; ++a) share[a] = area / n;
  }
  return area;
}

}  // namespace

namespace contact_input {

std::shared_ptr<const LocalMesh> offset_mesh(const TermInputs& in,
                                             const std::vector<std::string>& regions) {
  const LocalMesh& mesh = in.mesh;
  std::vector<double> offset(mesh.regions.size(), 0.0);  // per region index
  bool any = false;
  for (const std::string& name : regions)
    if (const ShellInput* shell = shell_input(in.spec, name); shell && shell->offset != 0)
      for (std::size_t r = 0; r < mesh.regions.size(); ++r)
        if (mesh.regions[r].name == name) offset[r] = shell->offset, any = true;
  if (!any) return nullptr;  // the same answer on every rank: the spec's
  // Per node: the sum of -o e3 and of e3 over its offset shells (4 entries: the first 3, then
  // |sum e3| computed after), over the ranks.
  petsc::Vector shifted = in.assembler.create_vector(), normals = in.assembler.create_vector();
  auto add = [&](petsc::Vector& v, bool scaled) {
    in.assembler.assemble(v, [&](VectorSum& sum) {
      auto local = sum.local();
      for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
        const int n = rotation_nodes_from(mesh.cell_types[c]);
        const double o = offset[static_cast<std::size_t>(mesh.cell_regions[c])];
        if (n < 3 || info(mesh.cell_types[c]).dim != 2 || o == 0) continue;
        const auto nodes = mesh.nodes_of(c);
        std::int32_t corner[4];
        for (int a = 0; a < n; ++a) corner[a] = static_cast<std::int32_t>(nodes[a]);
        const auto e = face_normal(mesh, corner, n);  // shell4_frame's e3
        for (int a = 0; a < n; ++a)
          for (int i = 0; i < 3; ++i) local[3 * corner[a] + i] += (scaled ? -o : 1.0) * e[i];
      }
    });
  };
  add(shifted, true);
  add(normals, false);
  auto out = std::make_shared<LocalMesh>(mesh);
  petsc::GhostedRead s(shifted), e(normals);
  for (std::int32_t n = 0; n < mesh.num_local_nodes(); ++n) {
    const double l =
        std::sqrt(e[3 * n] * e[3 * n] + e[3 * n + 1] * e[3 * n + 1] + e[3 * n + 2] * e[3 * n + 2]);
    if (l > 0)
      for (int i = 0; i < 3; ++i) out->coords[3 * n + i] += s[3 * n + i] / l;
  }
  return out;
}

Surface surface_faces(const TermInputs& in, const std::string& name, const std::string& where,
                      const std::vector<std::uint8_t>* eroded, bool uncovered) {
  const LocalMesh& mesh = in.mesh;
  Surface out;
  for (std::size_t r = 0; r < mesh.regions.size(); ++r)
    if (mesh.regions[r].name == name) out.region = static_cast<int>(r);
  INERTIA_CHECK(out.region >= 0, InputError, where, ": unknown region '", name, "'");
  const int dim = mesh.regions[static_cast<std::size_t>(out.region)].dim;
  out.volume = dim == 3;
  // A shell region's faces are its shells' mid-surfaces, with half their thickness.
  const ShellInput* shell = shell_input(in.spec, name);
  const double half = shell ? 0.5 * shell->thickness : 0.0;
  long long curved = 0;  // the 8-node shells and quadrilaterals: no contact faces
  for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
    curved += mesh.cell_regions[c] == out.region &&
              (mesh.cell_types[c] == CellType::shell8 || mesh.cell_types[c] == CellType::quad8);
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &curved, 1, MPI_LONG_LONG, MPI_SUM, in.comm));
  INERTIA_CHECK(curved == 0, InputError, where, ": region '", name, "' has ", curved,
                " 8-node quadrilaterals, which contact does not take: mesh contact surfaces with "
                "4-node quadrilaterals and triangles (gmsh -order 1)");
  // The region's cells on this rank: its faces, or its solid cells.
  auto ours = [&](std::int64_t c) {
    const CellType t = mesh.cell_types[c];
    if (mesh.cell_regions[c] != out.region || info(t).dim != dim) return false;
    if (eroded && (*eroded)[static_cast<std::size_t>(c)]) return false;
    if (dim == 2 && rotation_nodes_from(t) > 0) return half > 0;  // shell4, shell3
    return dim == 2 ? info(t).num_nodes <= 6 : dim == 3 && mesh.cell_is_element[c] != 0;
  };
  // The nodes of the region's cells, on every rank that has them.
  std::vector<char> marked(static_cast<std::size_t>(mesh.num_local_nodes()), 0);
  {
    petsc::Vector v = in.assembler.create_vector();
    in.assembler.assemble(v, [&](VectorSum& sum) {
      auto local = sum.local();
      for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
        if (ours(c))
          for (auto n : face_nodes(mesh, c)) local[3 * n] = 1;
    });
    petsc::GhostedRead g(v);
    for (std::size_t n = 0; n < marked.size(); ++n) marked[n] = g[3 * n] > 0 ? 1 : 0;
  }
  // Without `uncovered`, every cell counts in whether a face is shared (then ours() drops the
  // eroded cells' faces).
  const std::vector<SolidFace> solid =
      marked_solid_faces(mesh, marked, uncovered ? eroded : nullptr);
  std::vector<Key> queries;
  std::vector<std::int64_t> face_cells;
  if (dim == 2)
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c)
      if (ours(c)) {
        const auto nodes = face_nodes(mesh, c);
        const int n = info(shown_type(mesh.cell_types[c])).num_corners;
        std::int32_t corner[4];
        for (int a = 0; a < n; ++a) corner[a] = static_cast<std::int32_t>(nodes[a]);
        queries.push_back(key_of(mesh, corner, n));
        face_cells.push_back(c);
      }
  const Answers answers = ask_homes(in.comm, solid, queries);
  if (dim == 3) {
    for (std::size_t f = 0; f < solid.size(); ++f)
      if (answers.cells[f] == 1 && ours(solid[f].cell))
        out.faces.push_back(skin_face(mesh, solid[f].cell, solid[f].face, solid[f].height));
  } else {
    for (std::size_t q = 0; q < face_cells.size(); ++q) {
      const std::int64_t c = face_cells[q];
      SurfaceFace face;
      face.type = shown_type(mesh.cell_types[c]);
      const auto nodes = face_nodes(mesh, c);
      face.count = static_cast<int>(nodes.size());
      for (int a = 0; a < face.count; ++a) face.node[a] = static_cast<std::int32_t>(nodes[a]);
      face.height = answers.heights[q] > 0 ? answers.heights[q] : INFINITY;
      if (rotation_nodes_from(mesh.cell_types[c]) > 0) face.half = half;
      out.faces.push_back(face);
    }
  }
  std::int64_t faces = static_cast<std::int64_t>(out.faces.size());
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &faces, 1, MPI_INT64_T, MPI_SUM, in.comm));
  // Erosion may leave none (each rank is given the same flags: the same answer everywhere).
  INERTIA_CHECK(faces > 0 || eroded != nullptr, InputError, where, ": region '", name, "' ",
                dim == 3
                    ? "(a volume) has no solid cells with faces outside it (give it a material)"
                    : "has no boundary faces (contact needs a physical group of faces, such as "
                      "the box's xmin ... zmax, or of volumes: their skin)");
  return out;
}

std::vector<char> erodible_nodes(const TermInputs& in) {
  const LocalMesh& mesh = in.mesh;
  const ElementAssignment& e = in.elements;
  petsc::Vector v = in.assembler.create_vector();
  in.assembler.assemble(v, [&](VectorSum& sum) {
    auto local = sum.local();
    for (std::int64_t c = 0; c < mesh.num_cells(); ++c) {
      const int m = e.cell_material[static_cast<std::size_t>(c)];
      if (m < 0 || !e.materials[static_cast<std::size_t>(m)].failure) continue;
      for (auto n : mesh.nodes_of(c)) local[3 * n] = 1;
    }
  });
  petsc::GhostedRead g(v);
  std::vector<char> out(static_cast<std::size_t>(mesh.num_local_nodes()), 0);
  for (std::size_t n = 0; n < out.size(); ++n) out[n] = g[3 * n] > 0 ? 1 : 0;
  return out;
}

double node_spacing(MPI_Comm comm, std::span<const double> areas) {
  double v[2] = {0, static_cast<double>(areas.size())};
  for (const double a : areas) v[0] += a;
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, comm));
  return v[1] > 0 ? std::sqrt(v[0] / v[1]) : 0.0;
}

SurfaceNodes surface_nodes(const TermInputs& in, const std::string& name,
                           const std::string& where) {
  return surface_nodes(in, surface_faces(in, name, where));
}

SurfaceNodes surface_nodes(const TermInputs& in, const Surface& surface) {
  const LocalMesh& mesh = in.mesh;
  SurfaceNodes out;
  out.region = surface.region;
  out.volume = surface.volume;
  // Each node's share of the surface's area, summed over the ranks' faces.
  petsc::Vector area = in.assembler.create_vector();
  in.assembler.assemble(area, [&](VectorSum& sum) {
    auto local = sum.local();
    double x[3 * 6], share[6];
    for (const SurfaceFace& f : surface.faces) {
      for (int a = 0; a < f.count; ++a)
        for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh.coords[3 * f.node[a] + i];
      face_shares(f.type, x, f.count, share);
      for (int a = 0; a < f.count; ++a) local[3 * f.node[a]] += share[a];
    }
  });
  // Each node's half thickness: the largest of its shell faces' (over the ranks).
  petsc::Vector half = in.assembler.create_vector();
  {
    petsc::GhostedArray h(half);
    std::fill(h.span().begin(), h.span().end(), 0.0);
    for (const SurfaceFace& f : surface.faces)
      for (int a = 0; a < f.count; ++a)
        h[3 * f.node[a]] = std::max<double>(h[3 * f.node[a]], f.half);
  }
  INERTIA_PETSC(VecGhostUpdateBegin(half, MAX_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(half, MAX_VALUES, SCATTER_REVERSE));
  petsc::ConstArray a(area), h(half);
  for (std::int32_t n = 0; n < mesh.num_owned; ++n)
    if (a[3 * n] > 0) {
      out.nodes.push_back(n);
      out.areas.push_back(a[3 * n]);
      out.half.push_back(h[3 * n]);
    }
  return out;
}

}  // namespace contact_input

}  // namespace inertia
