#include "inertia/assembly/matrix_free.hpp"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "hex_simd.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

using namespace simd;  // W (must match MatrixFreeElasticity::lanes), v8d, the hex8 blocks
constexpr int hex_stride = 9 * hex_points + 1;               // G per point, then lambda / mu
constexpr int tet_nodes = 4, tet_stride = 9 + 1;             // G_1..G_3, then lambda / mu
constexpr int pair_nodes = 5, pair_stride = 2 * tet_stride;  // two tets sharing a face
// A reduced hex8 (fe/hex8_technology.hpp): sqrt(V mu) b (24), lambda / mu, sqrt(C) gamma (32).
constexpr int reduced_nodes = 8, reduced_stride = 24 + 1 + 32;

/// The quadrature points of one batch. g: [point][9][W] G = J^-1 sqrt(w detJ mu) / 8, then
/// [W] lambda / mu. H = R G (R = 8 grad_xi u), S = (lambda/mu) tr(H) I + H + H^T, P = S G^T,
/// summed over the points that share a derivative value (the transposes of hex_gradient's).
/// pf: the data to prefetch (into L2) meanwhile, one cache line per stored row.
INERTIA_MF_INLINE void hex_quadrature(const double* g, const v8d (*Dx)[4], const v8d (*Dy)[4],
                                      const v8d (*Dz)[4], v8d (*Px)[4], v8d (*Py)[4], v8d (*Pz)[4],
                                      const double* pf) {
  const v8d ratio = *reinterpret_cast<const v8du*>(g + 9 * hex_points * W);
  __builtin_prefetch(pf + 9 * hex_points * W, 0, 2);
  for (int r = 0; r < 2; ++r)
    for (int q = 0; q < 2; ++q)
      for (int p = 0; p < 2; ++p) {
        const int point = p + 2 * q + 4 * r;
        const v8du* G = reinterpret_cast<const v8du*>(g + 9 * point * W);
        for (int k = 0; k < 9; ++k) __builtin_prefetch(pf + (9 * point + k) * W, 0, 2);
        v8d H[3][3];
        for (int i = 0; i < 3; ++i) {
          const v8d r0 = Dx[i][q + 2 * r], r1 = Dy[i][p + 2 * r], r2 = Dz[i][p + 2 * q];
          for (int j = 0; j < 3; ++j) H[i][j] = r0 * G[j] + r1 * G[3 + j] + r2 * G[6 + j];
        }
        const v8d tr = ratio * (H[0][0] + H[1][1] + H[2][2]);
        v8d S[3][3];
        for (int i = 0; i < 3; ++i) S[i][i] = (H[i][i] + H[i][i]) + tr;
        S[0][1] = S[1][0] = H[0][1] + H[1][0];
        S[0][2] = S[2][0] = H[0][2] + H[2][0];
        S[1][2] = S[2][1] = H[1][2] + H[2][1];
        // P accumulated in place (one multiply-add per term).
        for (int i = 0; i < 3; ++i) {
          v8d& ax = Px[i][q + 2 * r];
          v8d& ay = Py[i][p + 2 * r];
          v8d& az = Pz[i][p + 2 * q];
          if (p == 0)
            ax = S[i][0] * G[0];
          else
            ax += S[i][0] * G[0];
          ax += S[i][1] * G[1];
          ax += S[i][2] * G[2];
          if (q == 0)
            ay = S[i][0] * G[3];
          else
            ay += S[i][0] * G[3];
          ay += S[i][1] * G[4];
          ay += S[i][2] * G[5];
          if (r == 0)
            az = S[i][0] * G[6];
          else
            az += S[i][0] * G[6];
          az += S[i][1] * G[7];
          az += S[i][2] * G[8];
        }
      }
}

/// One tet4 per lane: the forces f of its face nodes (f_face[k], k < 3; assigned, or added to if
/// `add`) and of its apex (f_apex), from their displacements. G: [9][W] the physical gradients
/// of the face nodes times sqrt(V mu) (the apex's is minus their sum); ratio: lambda / mu.
INERTIA_MF_INLINE void tet_forces(const v8du* G, const v8d& ratio, const v8d (*u_face)[3],
                                  const v8d* u_apex, v8d (*f_face)[3], v8d* f_apex, bool add) {
  v8d d[3][3];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) d[k][i] = u_face[k][i] - u_apex[i];
  v8d H[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) H[i][j] = d[0][i] * G[j] + d[1][i] * G[3 + j] + d[2][i] * G[6 + j];
  const v8d tr = ratio * (H[0][0] + H[1][1] + H[2][2]);
  v8d S[3][3];
  for (int i = 0; i < 3; ++i) S[i][i] = (H[i][i] + H[i][i]) + tr;
  S[0][1] = S[1][0] = H[0][1] + H[1][0];
  S[0][2] = S[2][0] = H[0][2] + H[2][0];
  S[1][2] = S[2][1] = H[1][2] + H[2][1];
  v8d g[3][3];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i)
      g[k][i] = S[i][0] * G[3 * k] + S[i][1] * G[3 * k + 1] + S[i][2] * G[3 * k + 2];
  for (int i = 0; i < 3; ++i) f_apex[i] = -(g[0][i] + g[1][i] + g[2][i]);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) f_face[k][i] = add ? f_face[k][i] + g[k][i] : g[k][i];
}

/// A tet4 batch: u, f [node][component]; g: [9][W] G_1..G_3, [W] lambda / mu (node 0: apex).
INERTIA_MF_INLINE void tet_element(const double* g, const v8d (*u)[3], v8d (*f)[3]) {
  const v8du* G = reinterpret_cast<const v8du*>(g);
  tet_forces(G, G[9], u + 1, u[0], f + 1, f[0], false);
}

/// A batch of tet4 pairs sharing a face: nodes (c1, c2, c3, apex A, apex B); g: tet A's then
/// tet B's data as for one tet (G of c1, c2, c3).
INERTIA_MF_INLINE void tet_pair_element(const double* g, const v8d (*u)[3], v8d (*f)[3]) {
  const v8du* G = reinterpret_cast<const v8du*>(g);
  tet_forces(G, G[9], u, u[3], f, f[3], false);
  tet_forces(G + tet_stride, G[tet_stride + 9], u, u[4], f, f[4], true);
}

/// A batch of reduced hex8 (one point, mean gradients b, Flanagan-Belytschko hourglass forces),
/// nodes in mesh order; g as reduced_stride says. With G = sqrt(V mu) b: H = sum_a u_a G_a^T,
/// S = (lambda / mu) tr(H) I + H + H^T, f_a = S G_a = V sigma b_a; then for each hourglass mode
/// f_a,i += g_alpha,a (g_alpha . u_i), g_alpha = sqrt(C) gamma_alpha.
INERTIA_MF_INLINE void reduced_hex_element(const double* g, const v8d (*u)[3], v8d (*f)[3]) {
  const v8du* G = reinterpret_cast<const v8du*>(g);
  v8d H[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      H[i][j] = u[0][i] * G[j];
      for (int a = 1; a < reduced_nodes; ++a) H[i][j] += u[a][i] * G[3 * a + j];
    }
  const v8d tr = (H[0][0] + H[1][1] + H[2][2]) * G[24];
  v8d S[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) S[i][j] = H[i][j] + H[j][i];
  for (int i = 0; i < 3; ++i) S[i][i] += tr;
  for (int a = 0; a < reduced_nodes; ++a)
    for (int i = 0; i < 3; ++i)
      f[a][i] = S[i][0] * G[3 * a] + S[i][1] * G[3 * a + 1] + S[i][2] * G[3 * a + 2];
  for (int alpha = 0; alpha < 4; ++alpha) {
    const v8du* h = G + 25 + 8 * alpha;
    for (int i = 0; i < 3; ++i) {
      v8d q = h[0] * u[0][i];
      for (int a = 1; a < reduced_nodes; ++a) q += h[a] * u[a][i];
      for (int a = 0; a < reduced_nodes; ++a) f[a][i] += h[a] * q;
    }
  }
}

/// The data of batch b + ahead to prefetch, or batch b's own near the end.
INERTIA_MF_INLINE const double* prefetch_target(const double* g, std::int64_t b, std::int64_t count,
                                                int ahead, int stride) {
  return b + ahead < count ? g + ahead * stride * W : g;
}

// ---- gathers and scatters ----------------------------------------------------------------
//
// nodes: [batch][node][lane] = 3 x the local node (the offset of its x component). The lanes of
// a batch share no node (conflict_free_batches: no add waits for the one before it, about 15%
// faster than batches of consecutive cells), yet the scatters add lane by lane, which is what

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12: _mm512_undefined_pd

void hex_batches_avx512(std::int64_t count, const std::int32_t* nodes, const double* data, double s,
                        double s2, const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * hex_nodes * W;
    const double* g = data + b * hex_stride * W;
    v8d u[3][hex_nodes];
    for (int c = 0; c < hex_nodes; ++c) load3_avx512(nb + c * W, x, u[0][c], u[1][c], u[2][c]);
    v8d Dx[3][4], Dy[3][4], Dz[3][4];
    for (int i = 0; i < 3; ++i) hex_gradient(u[i], s, s2, Dx[i], Dy[i], Dz[i]);
    v8d Px[3][4], Py[3][4], Pz[3][4];
    hex_quadrature(g, Dx, Dy, Dz, Px, Py, Pz, prefetch_target(g, b, count, 2, hex_stride));
    v8d f[3][hex_nodes];
    for (int i = 0; i < 3; ++i) hex_gradient_transpose(Px[i], Py[i], Pz[i], s, s2, f[i]);
    for (int c = 0; c < hex_nodes; ++c) add3_avx512(nb + c * W, y, f[0][c], f[1][c], f[2][c]);
  }
}

/// tet4 batches: single tets (NN 4) or pairs (NN 5).
template <int NN, int Stride, void (*Element)(const double*, const v8d (*)[3], v8d (*)[3])>
void tet_batches_avx512(std::int64_t count, const std::int32_t* nodes, const double* data,
                        const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * NN * W;
    const double* g = data + b * Stride * W;
    const double* pf = prefetch_target(g, b, count, 4, Stride);
    for (int k = 0; k < Stride; ++k) __builtin_prefetch(pf + k * W, 0, 2);
    v8d u[NN][3], f[NN][3];
    for (int a = 0; a < NN; ++a) load3_avx512(nb + a * W, x, u[a][0], u[a][1], u[a][2]);
    Element(g, u, f);
    for (int a = 0; a < NN; ++a) add3_avx512(nb + a * W, y, f[a][0], f[a][1], f[a][2]);
  }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

/// The same without AVX-512: scalar gathers and scatters.
__attribute__((target_clones("avx2", "default"))) void hex_batches_generic(
    std::int64_t count, const std::int32_t* nodes, const double* data, double s, double s2,
    const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * hex_nodes * W;
    const double* g = data + b * hex_stride * W;
    v8d Dx[3][4], Dy[3][4], Dz[3][4];
    for (int i = 0; i < 3; ++i) {
      v8d u[hex_nodes];
      for (int c = 0; c < hex_nodes; ++c)
        for (int l = 0; l < W; ++l) u[c][l] = x[nb[c * W + l] + i];
      hex_gradient(u, s, s2, Dx[i], Dy[i], Dz[i]);
    }
    v8d Px[3][4], Py[3][4], Pz[3][4];
    hex_quadrature(g, Dx, Dy, Dz, Px, Py, Pz, prefetch_target(g, b, count, 2, hex_stride));
    v8d f[3][hex_nodes];
    for (int i = 0; i < 3; ++i) hex_gradient_transpose(Px[i], Py[i], Pz[i], s, s2, f[i]);
    for (int l = 0; l < W; ++l)
      for (int c = 0; c < hex_nodes; ++c)
        for (int i = 0; i < 3; ++i) y[nb[c * W + l] + i] += f[i][c][l];
  }
}

template <int NN, int Stride, void (*Element)(const double*, const v8d (*)[3], v8d (*)[3])>
INERTIA_MF_INLINE void tet_batches_scalar(std::int64_t count, const std::int32_t* nodes,
                                          const double* data, const double* x, double* y) {
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int32_t* nb = nodes + b * NN * W;
    const double* g = data + b * Stride * W;
    v8d u[NN][3], f[NN][3];
    for (int a = 0; a < NN; ++a)
      for (int i = 0; i < 3; ++i)
        for (int l = 0; l < W; ++l) u[a][i][l] = x[nb[a * W + l] + i];
    Element(g, u, f);
    for (int l = 0; l < W; ++l)
      for (int a = 0; a < NN; ++a)
        for (int i = 0; i < 3; ++i) y[nb[a * W + l] + i] += f[a][i][l];
  }
}

__attribute__((target_clones("avx2", "default"))) void tet_batches_generic(
    std::int64_t count, const std::int32_t* nodes, const double* data, const double* x, double* y) {
  tet_batches_scalar<tet_nodes, tet_stride, tet_element>(count, nodes, data, x, y);
}

__attribute__((target_clones("avx2", "default"))) void reduced_batches_generic(
    std::int64_t count, const std::int32_t* nodes, const double* data, const double* x, double* y) {
  tet_batches_scalar<reduced_nodes, reduced_stride, reduced_hex_element>(count, nodes, data, x, y);
}

__attribute__((target_clones("avx2", "default"))) void tet_pair_batches_generic(
    std::int64_t count, const std::int32_t* nodes, const double* data, const double* x, double* y) {
  tet_batches_scalar<pair_nodes, pair_stride, tet_pair_element>(count, nodes, data, x, y);
}

/// tet4 reference gradients (constant); node 0's is minus the sum of the others'.
const std::array<double, tet_nodes * 3>& tet_reference() {
  static const std::array<double, tet_nodes* 3> dN = [] {
    std::array<double, tet_nodes * 3> d{};
    constexpr double origin[3] = {0, 0, 0};
    fe::shape_gradients(CellType::tet4, origin, d.data());
    for (int k = 0; k < 3; ++k)
      INERTIA_CHECK(d[k] + d[3 + k] + d[6 + k] + d[9 + k] == 0.0, InternalError,
                    "tet4 gradients do not sum to zero");
    return d;
  }();
  return dN;
}

/// The items (cells, or pairs of cells) ordered into batches of W whose lanes share no node:
/// greedily, in the given order, over up to 32 batches being filled at once (so a batch holds
/// nearby items); -1 pads a batch that could not be filled. nodes_of(k, out) writes item k's
/// nodes and returns their count; node_count: local nodes.
template <class NodesOf>
std::vector<std::int64_t> conflict_free_batches(std::int64_t items, NodesOf&& nodes_of,
                                                std::int64_t node_count) {
  constexpr int slots = 32;
  std::vector<std::uint32_t> busy(static_cast<std::size_t>(node_count), 0);  // slot bits
  std::array<std::vector<std::int64_t>, slots> open;
  std::vector<std::int64_t> order;
  order.reserve(static_cast<std::size_t>(items + W));
  std::int64_t nodes[hex_nodes];
  auto flush = [&](int s) {
    for (const std::int64_t k : open[s]) {
      order.push_back(k);
      const int n = nodes_of(k, nodes);
      for (int a = 0; a < n; ++a) busy[nodes[a]] &= ~(1u << s);
    }
    for (std::size_t k = open[s].size(); k < W; ++k) order.push_back(-1);
    open[s].clear();
  };
  for (std::int64_t k = 0; k < items; ++k) {
    std::uint32_t taken = 0;
    int n = nodes_of(k, nodes);
    for (int a = 0; a < n; ++a) taken |= busy[nodes[a]];
    int s = 0;
    if (~taken) {
      while (taken >> s & 1) ++s;
    } else {  // every open batch conflicts: close the fullest
      for (int t = 1; t < slots; ++t)
        if (open[t].size() > open[s].size()) s = t;
      flush(s);
      n = nodes_of(k, nodes);
    }
    open[s].push_back(k);
    for (int a = 0; a < n; ++a) busy[nodes[a]] |= 1u << s;
    if (open[s].size() == W) flush(s);
  }
  for (int s = 0; s < slots; ++s)
    if (!open[s].empty()) flush(s);
  return order;
}

/// Greedy matching of the tets `cells` that share a face, in their order: mate[k] = the index in
/// cells of k's partner, or -1.
std::vector<std::int64_t> face_mates(const std::vector<std::int64_t>& cells,
                                     const LocalMesh& mesh) {
  const std::int64_t n = static_cast<std::int64_t>(cells.size());
  // The tets of each node (indices into cells).
  std::vector<std::int64_t> start(static_cast<std::size_t>(mesh.num_local_nodes()) + 1, 0);
  for (const std::int64_t c : cells)
    for (const auto v : mesh.nodes_of(c)) ++start[v + 1];
  for (std::size_t v = 1; v < start.size(); ++v) start[v] += start[v - 1];
  std::vector<std::int32_t> tets(static_cast<std::size_t>(start.back()));
  {
    std::vector<std::int64_t> next(start.begin(), start.end() - 1);
    for (std::int64_t k = 0; k < n; ++k)
      for (const auto v : mesh.nodes_of(cells[k])) tets[next[v]++] = static_cast<std::int32_t>(k);
  }
  std::vector<std::int64_t> mate(static_cast<std::size_t>(n), -1);
  for (std::int64_t k = 0; k < n; ++k) {
    if (mate[k] >= 0) continue;
    const auto a = mesh.nodes_of(cells[k]);
    // A tet sharing a face with k contains node 0 or node 1 of k.
    for (int first = 0; first < 2 && mate[k] < 0; ++first)
      for (std::int64_t j = start[a[first]]; j < start[a[first] + 1]; ++j) {
        const std::int64_t m = tets[j];
        if (m == k || mate[m] >= 0) continue;
        const auto b = mesh.nodes_of(cells[m]);
        int shared = 0;
        for (const auto u : a) shared += std::count(b.begin(), b.end(), u) > 0;
        if (shared == 3) {
          mate[k] = m;
          mate[m] = k;
          break;
        }
      }
  }
  return mate;
}

/// Physical gradients G[3a + j] of the tet4 shape functions (constant) and the volume.
double tet_gradients(const double* x, const std::array<double, tet_nodes * 3>& dN, double* G) {
  double J[9] = {}, Ji[9];
  for (int a = 0; a < tet_nodes; ++a)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) J[3 * i + k] += x[3 * a + i] * dN[3 * a + k];
  const double volume = fe::inverse3(J, Ji) / 6.0;
  for (int a = 0; a < tet_nodes; ++a)
    for (int j = 0; j < 3; ++j)
      G[3 * a + j] = dN[3 * a] * Ji[j] + dN[3 * a + 1] * Ji[3 + j] + dN[3 * a + 2] * Ji[6 + j];
  return volume;
}

PetscErrorCode shell_mult(Mat A, Vec x, Vec y) {
  MatrixFreeElasticity* op = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(A, &op));
  try {
    op->mult(x, y);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "matrix-free product: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace

MatrixFreeElasticity::MatrixFreeElasticity(MPI_Comm comm, const LocalMesh& mesh,
                                           const ElementAssignment& elements, petsc::Vector layout)
    : comm_(comm), mesh_(mesh) {
  // [0] interior (owned nodes only), [1] boundary
  std::vector<std::int64_t> hex[2], tet[2], reduced[2];
  run_collectively(comm_, [&] {
    INERTIA_CHECK(mesh_.num_local_nodes() < std::numeric_limits<std::int32_t>::max() / 3,
                  InputError, "time.operator: matrix_free: too many nodes on one rank");
    for (std::int64_t c = 0; c < mesh_.num_cells(); ++c) {
      if (!mesh_.cell_is_element[c]) continue;
      const CellType t = mesh_.cell_types[c];
      const int m = c < static_cast<std::int64_t>(elements.cell_material.size())
                        ? elements.cell_material[c]
                        : -1;
      const fe::Formulation f =
          m >= 0 ? elements.materials[m].technology.formulation : fe::Formulation::full;
      const bool solid = m >= 0 && elements.materials[m].is_linear() &&
                         f != fe::Formulation::bbar && (t == CellType::hex8 || t == CellType::tet4);
      INERTIA_CHECK(
          solid && elements.cell_spring[c] < 0 && !elements.cell_point[c], InputError,
          "time.operator: matrix_free covers linear-elastic hex8 (full or reduced) and tet4 "
          "solids only; cell ",
          mesh_.cell_tags[c], " is a ", info(t).name,
          m >= 0 && !elements.materials[m].is_linear() ? std::string(" with a nonlinear material")
          : m >= 0 && f == fe::Formulation::bbar       ? std::string(" in formulation bbar")
          : m < 0 ? std::string(" without a linear-elastic material (a spring or point mass)")
                  : std::string(),
          "; use time.operator: assembled");
      const auto nodes = mesh_.nodes_of(c);
      const bool interior =
          std::all_of(nodes.begin(), nodes.end(), [&](auto n) { return n < mesh_.num_owned; });
      (f == fe::Formulation::reduced ? reduced
       : t == CellType::hex8         ? hex
                                     : tet)[interior ? 0 : 1]
          .push_back(c);
    }
    for (int k = 0; k < 2; ++k) {
      Batches* hb = k ? &hex_boundary_ : &hex_interior_;
      Batches* tb = k ? &tet_boundary_ : &tet_interior_;
      Batches* pb = k ? &tet_pair_boundary_ : &tet_pair_interior_;
      std::vector<std::array<std::int64_t, 2>> items;
      for (const std::int64_t c : hex[k]) items.push_back({c, -1});
      add_batches(items, elements, Kind::hex8, *hb);
      items.clear();
      for (const std::int64_t c : reduced[k]) items.push_back({c, -1});
      add_batches(items, elements, Kind::hex8_reduced, k ? reduced_boundary_ : reduced_interior_);
      // tet4: pairs that share a face (5 nodes to read and write for 2 tets), then the rest.
      const std::vector<std::int64_t> mate = face_mates(tet[k], mesh_);
      items.clear();
      for (std::size_t j = 0; j < tet[k].size(); ++j)
        if (mate[j] > static_cast<std::int64_t>(j)) items.push_back({tet[k][j], tet[k][mate[j]]});
      add_batches(items, elements, Kind::tet4_pair, *pb);
      items.clear();
      for (std::size_t j = 0; j < tet[k].size(); ++j)
        if (mate[j] < 0) items.push_back({tet[k][j], -1});
      add_batches(items, elements, Kind::tet4, *tb);
    }
  });
  x_ghosted_ = std::move(layout);
  INERTIA_PETSC(VecDuplicate(x_ghosted_, y_ghosted_.out()));
}

void MatrixFreeElasticity::add_batches(const std::vector<std::array<std::int64_t, 2>>& items,
                                       const ElementAssignment& elements, Kind kind,
                                       Batches& out) const {
  const int nn = kind == Kind::hex8           ? hex_nodes
                 : kind == Kind::hex8_reduced ? reduced_nodes
                 : kind == Kind::tet4         ? tet_nodes
                                              : pair_nodes;
  const int stride = kind == Kind::hex8           ? hex_stride
                     : kind == Kind::hex8_reduced ? reduced_stride
                     : kind == Kind::tet4         ? tet_stride
                                                  : pair_stride;
  const HexReference& ref = hex_reference();
  const auto& tet_dN = tet_reference();
  // An item's nodes in kernel order: hex8 corners lexicographic, tet4 as in the mesh, a pair
  // (c1, c2, c3, apex A, apex B) with c1..c3 their common face in A's order.
  auto nodes_of = [&](std::int64_t k, std::int64_t* out_nodes) {
    const auto a = mesh_.nodes_of(items[k][0]);
    if (kind == Kind::hex8) {
      for (int i = 0; i < hex_nodes; ++i) out_nodes[ref.corner[i]] = a[i];
    } else if (kind == Kind::tet4 || kind == Kind::hex8_reduced) {
      std::copy(a.begin(), a.end(), out_nodes);
    } else {
      const auto b = mesh_.nodes_of(items[k][1]);
      int face = 0;
      for (const auto v : a) {
        const bool shared = std::count(b.begin(), b.end(), v) > 0;
        out_nodes[shared ? face++ : 3] = v;
      }
      for (const auto v : b)
        if (!std::count(a.begin(), a.end(), v)) out_nodes[4] = v;
    }
    return nn;
  };
  const std::vector<std::int64_t> order = conflict_free_batches(
      static_cast<std::int64_t>(items.size()), nodes_of, mesh_.num_local_nodes());
  out.count = static_cast<std::int64_t>(order.size() / W);
  out.nodes.assign(static_cast<std::size_t>(out.count * nn * W), 0);
  out.data.assign(static_cast<std::size_t>(out.count * stride * W), 0.0);
  for (std::size_t e = 0; e < order.size(); ++e) {
    const std::int64_t b = static_cast<std::int64_t>(e / W);
    const int l = static_cast<int>(e % W);
    // Padding lanes: lane 0's nodes (never a padding lane) and zero data, so they add zeros.
    const std::int64_t k = order[e] >= 0 ? order[e] : order[static_cast<std::size_t>(b * W)];
    std::int64_t nodes[hex_nodes];
    nodes_of(k, nodes);
    for (int a = 0; a < nn; ++a)
      out.nodes[(b * nn + a) * W + l] = static_cast<std::int32_t>(3 * nodes[a]);
    if (order[e] < 0) continue;
    double* g = &out.data[static_cast<std::size_t>(b * stride * W)];
    for (int h = 0; h < (kind == Kind::tet4_pair ? 2 : 1); ++h) {
      const std::int64_t c = items[k][h];
      const auto cell_nodes = mesh_.nodes_of(c);
      double x[3 * hex_nodes];
      for (int a = 0; a < static_cast<int>(cell_nodes.size()); ++a)
        for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh_.coords[3 * cell_nodes[a] + i];
      const auto& mat = elements.materials[elements.cell_material[c]];
      if (kind == Kind::hex8_reduced) {
        double geometry[fe::hex8_reduced_values];
        fe::hex8_reduced_geometry(std::span<const double>(x, 3 * hex_nodes), geometry);
        const double V = geometry[24];
        INERTIA_CHECK(V > 0, InputError, "time.operator: matrix_free: cell ", mesh_.cell_tags[c],
                      " is inverted or degenerate (volume <= 0)");
        const double sg = std::sqrt(V * mat.mu());
        const double sh = std::sqrt(mat.technology.hourglass * mat.mu() * geometry[57]);
        for (int k = 0; k < 24; ++k) g[k * W + l] = sg * geometry[k];
        g[24 * W + l] = mat.lambda() / mat.mu();
        for (int k = 0; k < 32; ++k) g[(25 + k) * W + l] = sh * geometry[25 + k];
        continue;
      }
      if (kind == Kind::hex8) {
        g[(stride - 1) * W + l] = mat.lambda() / mat.mu();
        for (int q = 0; q < hex_points; ++q) {
          const double* d = &ref.dN[q * hex_nodes * 3];
          double J[9] = {}, Ji[9];
          for (int a = 0; a < hex_nodes; ++a)
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) J[3 * i + j] += x[3 * a + i] * d[3 * a + j];
          const double s = ref.weights[q] * fe::inverse3(J, Ji) * mat.mu();
          INERTIA_CHECK(s > 0, InputError, "time.operator: matrix_free: cell ", mesh_.cell_tags[c],
                        " is inverted or degenerate (det J <= 0 at a quadrature point)");
          const double scale = std::sqrt(s) / 8;
          for (int j = 0; j < 9; ++j) g[(9 * ref.point[q] + j) * W + l] = Ji[j] * scale;
        }
        continue;
      }
      double G[tet_nodes * 3];
      const double s = tet_gradients(x, tet_dN, G) * mat.mu();
      INERTIA_CHECK(s > 0, InputError, "time.operator: matrix_free: cell ", mesh_.cell_tags[c],
                    " is inverted or degenerate (det J <= 0)");
      const double scale = std::sqrt(s);
      double* gh = g + h * tet_stride * W;
      gh[(tet_stride - 1) * W + l] = mat.lambda() / mat.mu();
      // The face nodes: 1..3 for a single tet, c1..c3 for a pair.
      for (int f = 0; f < 3; ++f) {
        const std::int64_t node = kind == Kind::tet4 ? nodes[f + 1] : nodes[f];
        const int a = static_cast<int>(std::find(cell_nodes.begin(), cell_nodes.end(), node) -
                                       cell_nodes.begin());
        for (int j = 0; j < 3; ++j) gh[(3 * f + j) * W + l] = scale * G[3 * a + j];
      }
    }
  }
}

void MatrixFreeElasticity::apply(const double* x, double* y, bool interior) const {
  const Batches& h = interior ? hex_interior_ : hex_boundary_;
  const Batches& t = interior ? tet_interior_ : tet_boundary_;
  const Batches& p = interior ? tet_pair_interior_ : tet_pair_boundary_;
  const Batches& r = interior ? reduced_interior_ : reduced_boundary_;
  const HexReference& ref = hex_reference();
  const double s = ref.s, s2 = ref.s * ref.s;
  if (have_avx512()) {
    if (h.count) hex_batches_avx512(h.count, h.nodes.data(), h.data.data(), s, s2, x, y);
    if (p.count)
      tet_batches_avx512<pair_nodes, pair_stride, tet_pair_element>(p.count, p.nodes.data(),
                                                                    p.data.data(), x, y);
    if (t.count)
      tet_batches_avx512<tet_nodes, tet_stride, tet_element>(t.count, t.nodes.data(), t.data.data(),
                                                             x, y);
    if (r.count)
      tet_batches_avx512<reduced_nodes, reduced_stride, reduced_hex_element>(
          r.count, r.nodes.data(), r.data.data(), x, y);
  } else {
    if (h.count) hex_batches_generic(h.count, h.nodes.data(), h.data.data(), s, s2, x, y);
    if (p.count) tet_pair_batches_generic(p.count, p.nodes.data(), p.data.data(), x, y);
    if (t.count) tet_batches_generic(t.count, t.nodes.data(), t.data.data(), x, y);
    if (r.count) reduced_batches_generic(r.count, r.nodes.data(), r.data.data(), x, y);
  }
}

void MatrixFreeElasticity::mult(Vec x, Vec y) const {
  // x: its ghosted local form (ghosts updated while the interior elements run), or a copy; y: its
  // local form, or y_ghosted_'s. A plain (not ghosted) vector has no local form (get() is null).
  Vec yg = y;
  {
    petsc::LocalForm xl(x);
    if (!xl) {
      INERTIA_PETSC(VecCopy(x, x_ghosted_));
      xl = petsc::LocalForm(x_ghosted_);
    }
    petsc::LocalForm yl(y);
    if (!yl) yl = petsc::LocalForm(y_ghosted_);
    const Vec xg = xl.global();
    yg = yl.global();
    INERTIA_PETSC(VecZeroEntries(yl.get()));
    INERTIA_PETSC(VecGhostUpdateBegin(xg, INSERT_VALUES, SCATTER_FORWARD));
    {
      petsc::ConstArray xa(xl.get());
      petsc::Array ya(yl.get());
      apply(xa.data(), ya.data(), true);  // owned nodes only: the ghosts of x are not needed yet
    }
    INERTIA_PETSC(VecGhostUpdateEnd(xg, INSERT_VALUES, SCATTER_FORWARD));
    {
      petsc::ConstArray xa(xl.get());
      petsc::Array ya(yl.get());
      apply(xa.data(), ya.data(), false);
    }
  }  // local forms restored before the reverse update
  INERTIA_PETSC(VecGhostUpdateBegin(yg, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(yg, ADD_VALUES, SCATTER_REVERSE));
  if (yg != y) INERTIA_PETSC(VecCopy(yg, y));
}

petsc::Matrix MatrixFreeElasticity::create_shell() const {
  PetscInt n = 0, N = 0;
  INERTIA_PETSC(VecGetLocalSize(x_ghosted_, &n));
  INERTIA_PETSC(VecGetSize(x_ghosted_, &N));
  petsc::Matrix A;
  INERTIA_PETSC(
      MatCreateShell(comm_, n, n, N, N, const_cast<MatrixFreeElasticity*>(this), A.out()));
  INERTIA_PETSC(MatShellSetOperation(A, MATOP_MULT, reinterpret_cast<void (*)(void)>(shell_mult)));
  INERTIA_PETSC(MatSetBlockSize(A, 3));
  return A;
}

std::size_t MatrixFreeElasticity::bytes_per_product() const {
  std::size_t bytes = 0;
  for (const Batches* b :
       {&hex_interior_, &hex_boundary_, &tet_interior_, &tet_boundary_, &tet_pair_interior_,
        &tet_pair_boundary_, &reduced_interior_, &reduced_boundary_})
    bytes += b->nodes.size() * sizeof(std::int32_t) + b->data.size() * sizeof(double);
  // x read and y written once per local DOF (cached across elements at best).
  bytes += 2 * 3 * static_cast<std::size_t>(mesh_.num_local_nodes()) * sizeof(double);
  return bytes;
}

}  // namespace inertia
