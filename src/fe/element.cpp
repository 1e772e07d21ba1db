/// \file element.cpp
/// Shape functions and element kernels of small-strain linear elasticity (see fe/element.hpp).
///
/// Shape functions and their reference gradients at the stiffness and mass rules' points are
/// tabulated once, on first use (one thread-safe function-local static), so that a kernel call
/// only maps gradients to the physical cell. The volume kernels are templates on the node and
/// point counts so the compiler sees fixed loop bounds (unrolled, vectorised).

#include "inertia/fe/element.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "inertia/core/error.hpp"

namespace inertia::fe {
namespace {

// ---- shape functions -------------------------------------------------------------------------

/// Reference corner signs of quad4 and hex8 in VTK order.
constexpr double hex_sign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                   {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
/// VTK tet10 edge nodes 4..9 sit on these corner pairs; the first three are also tri6's 3..5.
constexpr int tet10_edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
/// Reference gradients of the barycentric coordinates (l0 = 1 - xi - eta - zeta, l1 = xi, ...).
constexpr double simplex_dl[4][3] = {{-1, -1, -1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

/// Quadratic Lagrange values (corners l(2l-1), edge midpoints 4 l_p l_r) and reference gradients
/// of the simplex with `corners` vertices (3: tri6, 4: tet10), from the barycentric coordinates.
void quadratic_simplex(int corners, const double* l, double* N, double* dN) {
  const int dim = corners - 1;
  const int edges = corners == 3 ? 3 : 6;
  for (int a = 0; a < corners; ++a) {
    if (N) N[a] = l[a] * (2.0 * l[a] - 1.0);
    if (dN)
      for (int j = 0; j < dim; ++j) dN[3 * a + j] = (4.0 * l[a] - 1.0) * simplex_dl[a][j];
  }
  for (int e = 0; e < edges; ++e) {
    const int p = tet10_edge[e][0], r = tet10_edge[e][1];
    if (N) N[corners + e] = 4.0 * l[p] * l[r];
    if (dN)
      for (int j = 0; j < dim; ++j)
        dN[3 * (corners + e) + j] = 4.0 * (l[r] * simplex_dl[p][j] + l[p] * simplex_dl[r][j]);
  }
}

/// The quad8 (serendipity) shape functions and their reference gradients (3 per node) at xi:
/// corners (VTK order), then the midpoints of edges (0,1), (1,2), (2,3), (3,0).
void serendipity(const double* xi, double* N, double* dN) {
  static constexpr double sx[8] = {-1, 1, 1, -1, 0, 1, 0, -1}, sy[8] = {-1, -1, 1, 1, -1, 0, 1, 0};
  const double x = xi[0], y = xi[1];
  for (int a = 0; a < 8; ++a) {
    const double s = sx[a], t = sy[a];
    double n, dx, dy;
    if (a < 4) {
      n = 0.25 * (1 + s * x) * (1 + t * y) * (s * x + t * y - 1);
      dx = 0.25 * s * (1 + t * y) * (2 * s * x + t * y);
      dy = 0.25 * t * (1 + s * x) * (s * x + 2 * t * y);
    } else if (s == 0) {
      n = 0.5 * (1 - x * x) * (1 + t * y);
      dx = -x * (1 + t * y);
      dy = 0.5 * t * (1 - x * x);
    } else {
      n = 0.5 * (1 + s * x) * (1 - y * y);
      dx = 0.5 * s * (1 - y * y);
      dy = -y * (1 + s * x);
    }
    if (N) N[a] = n;
    if (dN) {
      dN[3 * a] = dx;
      dN[3 * a + 1] = dy;
      dN[3 * a + 2] = 0;
    }
  }
}

/// Barycentric coordinates of the dim-simplex (dim + 1 values; xi beyond dim is ignored).
void barycentric(int dim, const double* xi, double* l) {
  l[0] = 1.0;
  for (int j = 0; j < dim; ++j) {
    l[j + 1] = xi[j];
    l[0] -= xi[j];
  }
}

/// Reference cell measure: |[-1,1]^d| or the unit simplex's 1/d! (the cell-type table's shape).
double reference_measure(CellType t) { return inertia::reference_measure(info(t).shape); }

/// Reference coordinates of node a (used to evaluate the Jacobian at the nodes).
void reference_node(CellType t, int a, double* xi) {
  xi[0] = xi[1] = xi[2] = 0.0;
  switch (t) {
    case CellType::hex8:
      for (int j = 0; j < 3; ++j) xi[j] = hex_sign[a][j];
      return;
    case CellType::tet4:
    case CellType::tet10:
      if (a < 4) {
        if (a > 0) xi[a - 1] = 1.0;
      } else {
        for (int c : tet10_edge[a - 4])
          if (c > 0) xi[c - 1] += 0.5;
      }
      return;
    default:
      throw InternalError(cat("reference_node: unsupported cell type ", info(t).name));
  }
}

/// Cell types with shape functions here (the table in mesh/cell_type.hpp may list more).
bool has_shape_functions(CellType t) {
  switch (t) {
    case CellType::point1:
    case CellType::line2:
    case CellType::tri3:
    case CellType::tri6:
    case CellType::quad4:
    case CellType::quad8:
    case CellType::tet4:
    case CellType::tet10:
    case CellType::hex8:
      return true;
    case CellType::beam2:   // fe/beam.hpp's element, not isoparametric
    case CellType::shell4:  // fe/shell.hpp's element
    case CellType::shell3:  // fe/shell3.hpp's element
    case CellType::shell8:  // fe/shell8.hpp's element
      return false;
  }
  return false;
}

[[noreturn]] void unsupported(const char* what, CellType t) {
  throw InternalError(cat(what, ": unsupported cell type ", info(t).name));
}

// ---- tabulation at the kernels' quadrature points ---------------------------------------------

/// Shape values N[q*n + a] and reference gradients dN[3*(q*n + a) + j] at a rule's points.
struct Tabulation {
  QuadratureRule rule;
  int num_nodes = 0;
  std::array<double, max_qpoints * max_nodes> N{};
  std::array<double, 3 * max_qpoints * max_nodes> dN{};
};

enum class RuleKind { stiffness = 0, mass = 1 };

const Tabulation& tabulation(CellType t, RuleKind kind) {
  static const auto tables = [] {
    std::array<Tabulation, 2 * num_cell_types> all{};
    for (const auto& cell : cell_type_table) {
      if (cell.type == CellType::point1 || !has_shape_functions(cell.type)) continue;
      for (RuleKind k : {RuleKind::stiffness, RuleKind::mass}) {
        Tabulation& tab = all[2 * static_cast<int>(cell.type) + static_cast<int>(k)];
        tab.rule = k == RuleKind::stiffness ? stiffness_rule(cell.type) : mass_rule(cell.type);
        tab.num_nodes = cell.num_nodes;
        for (int q = 0; q < tab.rule.num_points; ++q) {
          shape_values(cell.type, tab.rule.points + 3 * q, &tab.N[q * cell.num_nodes]);
          shape_gradients(cell.type, tab.rule.points + 3 * q, &tab.dN[3 * q * cell.num_nodes]);
        }
      }
    }
    return all;
  }();
  const Tabulation& tab = tables[2 * static_cast<int>(t) + static_cast<int>(kind)];
  if (tab.num_nodes == 0) unsupported("fe kernels", t);
  return tab;
}

// ---- geometry ----------------------------------------------------------------------------------

/// Jacobian J[3*i + j] = dx_i / dxi_j = sum_a x[3a+i] dN[3a+j] (all three columns; unused
/// reference directions give zero columns). Inlined with a constant n in the stiffness kernel.
inline void jacobian(int n, const double* x, const double* dN, double* J) {
  for (int k = 0; k < 9; ++k) J[k] = 0.0;
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J[3 * i + j] += x[3 * a + i] * dN[3 * a + j];
}

double det3(const double* J) {
  return J[0] * (J[4] * J[8] - J[5] * J[7]) - J[1] * (J[3] * J[8] - J[5] * J[6]) +
         J[2] * (J[3] * J[7] - J[4] * J[6]);
}

void cross(const double* u, const double* v, double* w) {
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

/// Surface-area element n dA / (dxi deta) = (dx/dxi) x (dx/deta) of a face Jacobian.
void area_vector(const double* J, double* n) {
  const double t0[3] = {J[0], J[3], J[6]};
  const double t1[3] = {J[1], J[4], J[7]};
  cross(t0, t1, n);
}

/// The measure density of the map at a point: det J (signed) for 3D cells, |dx/dxi x dx/deta| for
/// faces, |dx/dxi| for edges.
double jacobian_measure(int dim, const double* J) {
  if (dim == 3) return det3(J);
  if (dim == 2) {
    double n[3];
    area_vector(J, n);
    return std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  }
  return std::sqrt(J[0] * J[0] + J[3] * J[3] + J[6] * J[6]);
}

/// int N_a dV (or dA, dL) over the cell with the mass rule: the shared core of the lumped masses,
/// body forces and face tractions.
void integrate_shape(CellType t, const double* x, double* integral) {
  const Tabulation& tab = tabulation(t, RuleKind::mass);
  const int n = tab.num_nodes;
  const int dim = info(t).dim;
  for (int a = 0; a < n; ++a) integral[a] = 0.0;
  for (int q = 0; q < tab.rule.num_points; ++q) {
    double J[9];
    jacobian(n, x, &tab.dN[3 * q * n], J);
    const double s = tab.rule.weights[q] * jacobian_measure(dim, J);
    for (int a = 0; a < n; ++a) integral[a] += s * tab.N[q * n + a];
  }
}

/// Scalar consistent mass m[a*n + b] = rho int N_a N_b dV with the mass rule.
void scalar_mass(CellType t, const double* x, double rho, double* m) {
  const Tabulation& tab = tabulation(t, RuleKind::mass);
  const int n = tab.num_nodes;
  const int dim = info(t).dim;
  for (int k = 0; k < n * n; ++k) m[k] = 0.0;
  for (int q = 0; q < tab.rule.num_points; ++q) {
    double J[9];
    jacobian(n, x, &tab.dN[3 * q * n], J);
    const double s = rho * tab.rule.weights[q] * jacobian_measure(dim, J);
    const double* N = &tab.N[q * n];
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) m[a * n + b] += s * N[a] * N[b];
  }
}

void require_3d(const char* what, CellType t) {
  if (t != CellType::tet4 && t != CellType::tet10 && t != CellType::hex8) unsupported(what, t);
}

void require_size(const char* what, std::size_t have, std::size_t need) {
  INERTIA_CHECK(have >= need, InternalError, what, ": span of ", have, " values, need ", need);
}

// ---- stiffness ---------------------------------------------------------------------------------

/// Ke for lambda/mu isotropic elasticity. With physical gradients g_a at point q,
///   K_ab[i][j] = sum_q w detJ (lambda g_ai g_bj + mu g_aj g_bi + mu (g_a . g_b) delta_ij),
/// so the one symmetric matrix H = sum_q w detJ v v^T of the gradient vectors v (v[3a+i] = g_ai)
/// gives the whole of Ke: K_ab = lambda H_ab + mu H_ab^T + mu tr(H_ab) I. Only the block upper
/// triangle of H (a <= b) is formed: 324 entries x 8 points multiply-adds for hex8, against
/// 3n x 6 x (6 + 3n) for B^T D B. (Measured, -O3 -march=x86-64-v2: about 0.85 us per hex8.)
template <int NN, int NQ>
void stiffness_kernel(const Tabulation& tab, const double* x, double lambda, double mu,
                      double* Ke) {
  constexpr int nd = 3 * NN;
  INERTIA_ASSERT(tab.rule.num_points == NQ && tab.num_nodes == NN);
  // V[q] = physical gradients at point q, W[q] = w_q detJ_q V[q].
  alignas(16) double V[NQ][nd];
  alignas(16) double W[NQ][nd];
  for (int q = 0; q < NQ; ++q) {
    const double* dN = &tab.dN[3 * q * NN];
    double J[9], Ji[9];
    jacobian(NN, x, dN, J);
    const double s = tab.rule.weights[q] * inverse3(J, Ji);
    for (int a = 0; a < NN; ++a)
      for (int i = 0; i < 3; ++i) {
        V[q][3 * a + i] = dN[3 * a] * Ji[i] + dN[3 * a + 1] * Ji[3 + i] + dN[3 * a + 2] * Ji[6 + i];
        W[q][3 * a + i] = s * V[q][3 * a + i];
      }
  }
  // H = W^T V on the block upper triangle: each entry is one dot product over the points, so H
  // is stored once. Block row A starts at column 3A: unrolled over A (constant loop bounds).
  alignas(16) double H[nd * nd];
  [&]<int... A>(std::integer_sequence<int, A...>) {
    (
        [&] {
          for (int i = 0; i < 3; ++i) {
            const int r = 3 * A + i;
            double w[NQ];
            for (int q = 0; q < NQ; ++q) w[q] = W[q][r];
            for (int c = 3 * A; c < nd; ++c) {
              double h = 0.0;
              for (int q = 0; q < NQ; ++q) h += w[q] * V[q][c];
              H[r * nd + c] = h;
            }
          }
        }(),
        ...);
  }
  (std::make_integer_sequence<int, NN>{});
  for (int a = 0; a < NN; ++a)
    for (int b = a; b < NN; ++b) {
      double h[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) h[i][j] = H[(3 * a + i) * nd + 3 * b + j];
      const double tr = mu * (h[0][0] + h[1][1] + h[2][2]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const double k = lambda * h[i][j] + mu * h[j][i] + (i == j ? tr : 0.0);
          Ke[(3 * a + i) * nd + 3 * b + j] = k;
          Ke[(3 * b + j) * nd + 3 * a + i] = k;
        }
    }
}

}  // namespace

// ---- shape functions ---------------------------------------------------------------------------

void shape_values(CellType t, const double* xi, double* N) {
  switch (t) {
    case CellType::point1:
      N[0] = 1.0;
      return;
    case CellType::line2:
      N[0] = 0.5 * (1.0 - xi[0]);
      N[1] = 0.5 * (1.0 + xi[0]);
      return;
    case CellType::quad4:
      for (int a = 0; a < 4; ++a)
        N[a] = 0.25 * (1.0 + hex_sign[a][0] * xi[0]) * (1.0 + hex_sign[a][1] * xi[1]);
      return;
    case CellType::quad8:
      serendipity(xi, N, nullptr);
      return;
    case CellType::tri3:
    case CellType::tet4:
      barycentric(info(t).dim, xi, N);
      return;
    case CellType::tri6:
    case CellType::tet10: {
      double l[4];
      barycentric(info(t).dim, xi, l);
      quadratic_simplex(info(t).num_corners, l, N, nullptr);
      return;
    }
    case CellType::hex8:
      for (int a = 0; a < 8; ++a)
        N[a] = 0.125 * (1.0 + hex_sign[a][0] * xi[0]) * (1.0 + hex_sign[a][1] * xi[1]) *
               (1.0 + hex_sign[a][2] * xi[2]);
      return;
    case CellType::beam2:
    case CellType::shell4:
    case CellType::shell3:
    case CellType::shell8:
      break;
  }
  unsupported("shape_values", t);
}

void shape_gradients(CellType t, const double* xi, double* dN) {
  const int n = info(t).num_nodes;
  for (int k = 0; k < 3 * n; ++k) dN[k] = 0.0;
  switch (t) {
    case CellType::point1:
      return;
    case CellType::line2:
      dN[0] = -0.5;
      dN[3] = 0.5;
      return;
    case CellType::tri3:
    case CellType::tet4:
      for (int a = 0; a < n; ++a)
        for (int j = 0; j < info(t).dim; ++j) dN[3 * a + j] = simplex_dl[a][j];
      return;
    case CellType::quad4:
      for (int a = 0; a < 4; ++a) {
        const double* s = hex_sign[a];
        dN[3 * a + 0] = 0.25 * s[0] * (1.0 + s[1] * xi[1]);
        dN[3 * a + 1] = 0.25 * s[1] * (1.0 + s[0] * xi[0]);
      }
      return;
    case CellType::quad8:
      serendipity(xi, nullptr, dN);
      return;
    case CellType::tri6:
    case CellType::tet10: {
      double l[4];
      barycentric(info(t).dim, xi, l);
      quadratic_simplex(info(t).num_corners, l, nullptr, dN);
      return;
    }
    case CellType::hex8:
      for (int a = 0; a < 8; ++a) {
        const double* s = hex_sign[a];
        const double fx = 1.0 + s[0] * xi[0], fy = 1.0 + s[1] * xi[1], fz = 1.0 + s[2] * xi[2];
        dN[3 * a + 0] = 0.125 * s[0] * fy * fz;
        dN[3 * a + 1] = 0.125 * s[1] * fx * fz;
        dN[3 * a + 2] = 0.125 * s[2] * fx * fy;
      }
      return;
    case CellType::beam2:
    case CellType::shell4:
    case CellType::shell3:
    case CellType::shell8:
      break;
  }
  unsupported("shape_gradients", t);
}

// ---- geometry ----------------------------------------------------------------------------------

double measure(CellType t, std::span<const double> x) {
  if (t == CellType::point1) unsupported("measure", t);
  const int n = info(t).num_nodes;
  require_size("measure: x", x.size(), 3 * n);
  double integral[max_nodes];
  integrate_shape(t, x.data(), integral);
  double sum = 0.0;  // sum_a N_a = 1
  for (int a = 0; a < n; ++a) sum += integral[a];
  return sum;
}

double min_scaled_jacobian(CellType t, std::span<const double> x) {
  require_3d("min_scaled_jacobian", t);
  const int n = info(t).num_nodes;
  require_size("min_scaled_jacobian: x", x.size(), 3 * n);
  double smallest = std::numeric_limits<double>::infinity();
  double dN[3 * max_nodes], J[9];
  for (int a = 0; a < n; ++a) {
    double xi[3];
    reference_node(t, a, xi);
    shape_gradients(t, xi, dN);
    jacobian(n, x.data(), dN, J);
    smallest = std::min(smallest, det3(J));
  }
  const Tabulation& tab = tabulation(t, RuleKind::stiffness);
  for (int q = 0; q < tab.rule.num_points; ++q) {
    jacobian(n, x.data(), &tab.dN[3 * q * n], J);
    smallest = std::min(smallest, det3(J));
  }
  // The mean is taken by magnitude so that a fully inverted cell (negative volume) stays negative.
  const double mean = std::abs(measure(t, x)) / reference_measure(t);
  if (mean == 0.0) return smallest < 0.0 ? -std::numeric_limits<double>::infinity() : 0.0;
  return smallest / mean;
}

// ---- kernels -----------------------------------------------------------------------------------

void stiffness_linear_elastic(CellType t, std::span<const double> x, double lambda, double mu,
                              std::span<double> Ke) {
  const int n = info(t).num_nodes;
  require_size("stiffness_linear_elastic: x", x.size(), 3 * n);
  require_size("stiffness_linear_elastic: Ke", Ke.size(), 9 * n * n);
  const Tabulation& tab = tabulation(t, RuleKind::stiffness);
  switch (t) {
    case CellType::tet4:
      return stiffness_kernel<4, 1>(tab, x.data(), lambda, mu, Ke.data());
    case CellType::tet10:
      return stiffness_kernel<10, 4>(tab, x.data(), lambda, mu, Ke.data());
    case CellType::hex8:
      return stiffness_kernel<8, 8>(tab, x.data(), lambda, mu, Ke.data());
    default:
      unsupported("stiffness_linear_elastic", t);
  }
}

void mass_consistent(CellType t, std::span<const double> x, double rho, std::span<double> Me) {
  if (t == CellType::point1) unsupported("mass_consistent", t);
  const int n = info(t).num_nodes;
  const int nd = 3 * n;
  require_size("mass_consistent: x", x.size(), 3 * n);
  require_size("mass_consistent: Me", Me.size(), nd * nd);
  double m[max_nodes * max_nodes];
  scalar_mass(t, x.data(), rho, m);
  for (int k = 0; k < nd * nd; ++k) Me[k] = 0.0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < 3; ++i) Me[(3 * a + i) * nd + 3 * b + i] = m[a * n + b];
}

void mass_lumped(CellType t, std::span<const double> x, double rho, std::span<double> m) {
  if (t == CellType::point1) unsupported("mass_lumped", t);
  const int n = info(t).num_nodes;
  require_size("mass_lumped: x", x.size(), 3 * n);
  require_size("mass_lumped: m", m.size(), n);
  if (t != CellType::tet10 && t != CellType::tri6 && t != CellType::quad8) {
    // Row sums of rho int N_a N_b = rho int N_a (partition of unity).
    integrate_shape(t, x.data(), m.data());
    for (int a = 0; a < n; ++a) m[a] *= rho;
    return;
  }
  // HRZ (Hinton, Rock & Zienkiewicz 1976) for the quadratic types, whose corner row sums are
  // negative (tet10, quad8) or zero (tri6): the consistent diagonal, scaled to the total mass.
  double mc[max_nodes * max_nodes];
  scalar_mass(t, x.data(), rho, mc);
  double total = 0.0, diagonal = 0.0;
  for (int a = 0; a < n; ++a) {
    diagonal += mc[a * n + a];
    for (int b = 0; b < n; ++b) total += mc[a * n + b];
  }
  for (int a = 0; a < n; ++a) m[a] = mc[a * n + a] * (total / diagonal);
}

void body_force(CellType t, std::span<const double> x, const double* b, std::span<double> f) {
  require_3d("body_force", t);
  const int n = info(t).num_nodes;
  require_size("body_force: x", x.size(), 3 * n);
  require_size("body_force: f", f.size(), 3 * n);
  double integral[max_nodes];
  integrate_shape(t, x.data(), integral);
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i) f[3 * a + i] = integral[a] * b[i];
}

void face_traction(CellType t, std::span<const double> x, const double* traction,
                   std::span<double> f) {
  if (t != CellType::tri3 && t != CellType::tri6 && t != CellType::quad4 && t != CellType::quad8 &&
      t != CellType::line2)
    unsupported("face_traction", t);
  const int n = info(t).num_nodes;
  require_size("face_traction: x", x.size(), 3 * n);
  require_size("face_traction: f", f.size(), 3 * n);
  double integral[max_nodes];
  integrate_shape(t, x.data(), integral);
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i) f[3 * a + i] = integral[a] * traction[i];
}

void face_pressure(CellType t, std::span<const double> x, double p, std::span<double> f) {
  if (t != CellType::tri3 && t != CellType::tri6 && t != CellType::quad4 && t != CellType::quad8)
    unsupported("face_pressure", t);
  const int n = info(t).num_nodes;
  require_size("face_pressure: x", x.size(), 3 * n);
  require_size("face_pressure: f", f.size(), 3 * n);
  // f_a = -p int N_a n dA = -p sum_q w N_a (dx/dxi x dx/deta): the unnormalised area vector
  // carries both n and dA, so the mass rule makes this exact for tri3, bilinear (even warped)
  // quad4 and (even curved) tri6 faces.
  const Tabulation& tab = tabulation(t, RuleKind::mass);
  for (int k = 0; k < 3 * n; ++k) f[k] = 0.0;
  for (int q = 0; q < tab.rule.num_points; ++q) {
    double J[9], area[3];
    jacobian(n, x.data(), &tab.dN[3 * q * n], J);
    area_vector(J, area);
    const double s = -p * tab.rule.weights[q];
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) f[3 * a + i] += s * tab.N[q * n + a] * area[i];
  }
}

void strain_stress_linear_elastic(CellType t, std::span<const double> x, std::span<const double> u,
                                  double lambda, double mu, double* strain, double* stress) {
  require_3d("strain_stress_linear_elastic", t);
  const int n = info(t).num_nodes;
  require_size("strain_stress_linear_elastic: x", x.size(), 3 * n);
  require_size("strain_stress_linear_elastic: u", u.size(), 3 * n);
  const Tabulation& tab = tabulation(t, RuleKind::stiffness);
  const int nq = tab.rule.num_points;
  double grad[9] = {};  // sum over points of du_i/dx_j, row-major
  for (int q = 0; q < nq; ++q) {
    const double* dN = &tab.dN[3 * q * n];
    double J[9], Ji[9];
    jacobian(n, x.data(), dN, J);
    inverse3(J, Ji);
    for (int a = 0; a < n; ++a) {
      double g[3];
      for (int j = 0; j < 3; ++j)
        g[j] = dN[3 * a] * Ji[j] + dN[3 * a + 1] * Ji[3 + j] + dN[3 * a + 2] * Ji[6 + j];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) grad[3 * i + j] += u[3 * a + i] * g[j];
    }
  }
  // Plain (unweighted) mean over the points, as documented; linear in u, so averaging the
  // displacement gradient first is the same as averaging strains and stresses.
  for (double& v : grad) v /= nq;
  small_strain_stress(grad, lambda, mu, strain, stress);
}

void small_strain_stress(const double* grad, double lambda, double mu, double* strain,
                         double* stress) {
  strain[0] = grad[0];
  strain[1] = grad[4];
  strain[2] = grad[8];
  strain[3] = 0.5 * (grad[1] + grad[3]);
  strain[4] = 0.5 * (grad[5] + grad[7]);
  strain[5] = 0.5 * (grad[2] + grad[6]);
  const double tr = lambda * (strain[0] + strain[1] + strain[2]);
  for (int k = 0; k < 6; ++k) stress[k] = 2.0 * mu * strain[k] + (k < 3 ? tr : 0.0);
}

double von_mises(const double* s) {
  const double dxy = s[0] - s[1], dyz = s[1] - s[2], dzx = s[2] - s[0];
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) +
                   3.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

// ---- points inside a 3D cell -------------------------------------------------------------------

void physical_point(CellType t, std::span<const double> x, const double* xi, double* p) {
  require_3d("physical_point", t);
  const int n = info(t).num_nodes;
  require_size("physical_point: x", x.size(), 3 * n);
  double N[max_nodes];
  shape_values(t, xi, N);
  for (int i = 0; i < 3; ++i) p[i] = 0.0;
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < 3; ++i) p[i] += N[a] * x[3 * a + i];
}

double physical_gradients(CellType t, std::span<const double> x, const double* xi, double* g) {
  require_3d("physical_gradients", t);
  const int n = info(t).num_nodes;
  require_size("physical_gradients: x", x.size(), 3 * n);
  double dN[3 * max_nodes], J[9], Ji[9];
  shape_gradients(t, xi, dN);
  jacobian(n, x.data(), dN, J);
  const double det = inverse3(J, Ji);
  for (int a = 0; a < n; ++a)
    for (int j = 0; j < 3; ++j)
      g[3 * a + j] = dN[3 * a] * Ji[j] + dN[3 * a + 1] * Ji[3 + j] + dN[3 * a + 2] * Ji[6 + j];
  return det;
}

bool reference_point(CellType t, std::span<const double> x, const double* p, double* xi) {
  require_3d("reference_point", t);
  const int n = info(t).num_nodes;
  require_size("reference_point: x", x.size(), 3 * n);
  const double centre = t == CellType::hex8 ? 0.0 : 0.25;
  for (int j = 0; j < 3; ++j) xi[j] = centre;
  // Newton converges quadratically: a step below 1e-13 (the reference cell is of size 1) leaves
  // the point at round-off. Affine cells converge in one step (the second one is round-off).
  constexpr int max_iterations = 50;
  constexpr double tolerance = 1e-13, far = 1e6;
  for (int it = 0; it < max_iterations; ++it) {
    double N[max_nodes], dN[3 * max_nodes], J[9], Ji[9];
    shape_values(t, xi, N);
    shape_gradients(t, xi, dN);
    double r[3] = {-p[0], -p[1], -p[2]};
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) r[i] += N[a] * x[3 * a + i];
    jacobian(n, x.data(), dN, J);
    const double det = inverse3(J, Ji);
    if (!std::isfinite(det) || det == 0.0) return false;
    double step = 0.0;
    for (int j = 0; j < 3; ++j) {
      const double d = Ji[3 * j] * r[0] + Ji[3 * j + 1] * r[1] + Ji[3 * j + 2] * r[2];
      xi[j] -= d;
      step = std::max(step, std::abs(d));
      if (!(std::abs(xi[j]) < far)) return false;  // diverging (or not a number)
    }
    if (step <= tolerance) return true;
  }
  return false;
}

double reference_outside(CellType t, const double* xi) {
  require_3d("reference_outside", t);
  double outside = 0.0;
  if (t == CellType::hex8) {
    for (int j = 0; j < 3; ++j) outside = std::max(outside, std::abs(xi[j]) - 1.0);
  } else {
    for (int j = 0; j < 3; ++j) outside = std::max(outside, -xi[j]);
    outside = std::max(outside, xi[0] + xi[1] + xi[2] - 1.0);
  }
  return outside;
}

void clamp_to_reference(CellType t, double* xi) {
  require_3d("clamp_to_reference", t);
  if (t == CellType::hex8) {
    for (int j = 0; j < 3; ++j) xi[j] = std::clamp(xi[j], -1.0, 1.0);
    return;
  }
  // The unit simplex {xi >= 0, sum <= 1}: the nearest point of the positive octant if its sum is
  // at most 1; otherwise the sum constraint is active, and the point is the projection onto the
  // face sum = 1, xi >= 0: xi - theta, clipped at 0, with theta from the sorted coordinates.
  double y[3];
  for (int j = 0; j < 3; ++j) y[j] = std::max(xi[j], 0.0);
  if (y[0] + y[1] + y[2] <= 1.0) {
    for (int j = 0; j < 3; ++j) xi[j] = y[j];
    return;
  }
  double sorted[3] = {xi[0], xi[1], xi[2]};
  std::sort(sorted, sorted + 3, std::greater<>());
  double sum = 0.0, theta = 0.0;
  for (int k = 0; k < 3; ++k) {
    sum += sorted[k];
    const double candidate = (sum - 1.0) / (k + 1);
    if (sorted[k] - candidate > 0.0) theta = candidate;
  }
  for (int j = 0; j < 3; ++j) xi[j] = std::max(xi[j] - theta, 0.0);
}

namespace {

/// The misfit of a cell's point xi to a point p: f(xi) = |x(xi) - p|^2 / 2.
struct Misfit {
  CellType t;
  int n;  ///< the cell's nodes
  std::span<const double> x;
  const double* p;
  /// f at `at`, with r = x(at) - p and (J not null) the Jacobian dx/dxi (row-major).
  double operator()(const double* at, double* r, double* J) const {
    double N[max_nodes], dN[3 * max_nodes];
    shape_values(t, at, N);
    for (int i = 0; i < 3; ++i) r[i] = -p[i];
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i) r[i] += N[a] * x[3 * a + i];
    if (J) {
      shape_gradients(t, at, dN);
      jacobian(n, x.data(), dN, J);
    }
    return 0.5 * (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  }
};

/// Projected gradient descent of the misfit over the reference cell, from xi (inside it).
/// Returns f at the point reached, with its r and J.
double projected_descent(const Misfit& misfit, double* xi, double* r, double* J) {
  // f(xi) = |x(xi) - p|^2 / 2, gradient J^T r. A step alpha is accepted when f decreases by at
  // least |d|^2 / (4 alpha) (d the projected step; Armijo for projected gradients), halved
  // otherwise, and tried twice as long at the next iteration. Stops when a step moves xi by less
  // than 1e-15 (the reference cell has size 1).
  double f = misfit(xi, r, J);
  double JtJ = 0.0;  // |J|_F^2 >= the largest eigenvalue of J^T J: 1 / JtJ is a safe first step
  for (int k = 0; k < 9; ++k) JtJ += J[k] * J[k];
  double alpha = JtJ > 0 ? 1.0 / JtJ : 1.0;
  constexpr int max_iterations = 10000;  // the polish below finishes the job
  for (int it = 0; it < max_iterations && f > 0; ++it) {
    double g[3];
    for (int j = 0; j < 3; ++j) g[j] = J[j] * r[0] + J[3 + j] * r[1] + J[6 + j] * r[2];
    double trial[3], moved = 0.0, f_trial = f, r_trial[3];
    for (int halvings = 0; halvings < 60; ++halvings) {
      for (int j = 0; j < 3; ++j) trial[j] = xi[j] - alpha * g[j];
      clamp_to_reference(misfit.t, trial);
      moved = 0.0;
      for (int j = 0; j < 3; ++j) moved += (trial[j] - xi[j]) * (trial[j] - xi[j]);
      f_trial = misfit(trial, r_trial, nullptr);
      if (f_trial <= f - 0.25 * moved / alpha) break;
      alpha *= 0.5;
    }
    if (!(f_trial < f)) break;  // no decrease left: at the minimum to round-off
    for (int j = 0; j < 3; ++j) xi[j] = trial[j];
    f = misfit(xi, r, J);
    alpha *= 2.0;
    if (std::sqrt(moved) <= 1e-15) break;
  }
  return f;
}

/// An orthonormal basis (`basis`) of the directions along the face, edge or corner of the
/// reference cell that xi lies on (a constraint within `on` is active); returns their number:
/// 2 on a face, 1 on an edge, 0 at a corner or inside the cell (no constraint active).
int free_directions(CellType t, const double* xi, double on, double (*basis)[3]) {
  double normals[4][3];
  int active = 0;
  auto add_normal = [&](double a, double b, double c) {
    normals[active][0] = a, normals[active][1] = b, normals[active][2] = c;
    ++active;
  };
  if (t == CellType::hex8) {
    for (int j = 0; j < 3; ++j)
      if (std::abs(xi[j]) >= 1.0 - on) add_normal(j == 0, j == 1, j == 2);
  } else {
    for (int j = 0; j < 3; ++j)
      if (xi[j] <= on) add_normal(j == 0, j == 1, j == 2);
    if (xi[0] + xi[1] + xi[2] >= 1.0 - on) add_normal(1, 1, 1);
  }
  // e_1, e_2, e_3 with the normals' span removed.
  double q[3][3];
  int rank = 0, free = 0;
  auto orthogonalise = [](double* v, const double(*against)[3], int count) {
    for (int k = 0; k < count; ++k) {
      const double d = v[0] * against[k][0] + v[1] * against[k][1] + v[2] * against[k][2];
      for (int j = 0; j < 3; ++j) v[j] -= d * against[k][j];
    }
    return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  };
  for (int k = 0; k < active && rank < 3; ++k) {
    double v[3] = {normals[k][0], normals[k][1], normals[k][2]};
    const double norm = orthogonalise(v, q, rank);
    if (norm > 1e-6)
      for (int j = 0; j < 3; ++j) q[rank][j] = v[j] / norm;
    rank += norm > 1e-6;
  }
  for (int k = 0; k < 3 && rank > 0; ++k) {
    double v[3] = {static_cast<double>(k == 0), static_cast<double>(k == 1),
                   static_cast<double>(k == 2)};
    orthogonalise(v, q, rank);
    const double norm = orthogonalise(v, basis, free);
    if (norm > 1e-6)
      for (int j = 0; j < 3; ++j) basis[free][j] = v[j] / norm;
    free += norm > 1e-6;
  }
  return free;
}

/// Gauss-Newton steps of the misfit along `free` (1 or 2) orthonormal directions `basis` from
/// xi, while they stay in the cell (within `on`) and do not increase f beyond round-off;
/// returns f at the point kept, with its r and J.
double gauss_newton_along(const Misfit& misfit, const double (*basis)[3], int free, double on,
                          double* xi, double* r, double* J, double f) {
  for (int it = 0; it < 30 && (free == 1 || free == 2); ++it) {
    double JB[3][2] = {}, g[2] = {}, H[2][2] = {};
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < free; ++k)
        for (int j = 0; j < 3; ++j) JB[i][k] += J[3 * i + j] * basis[k][j];
    for (int k = 0; k < free; ++k)
      for (int i = 0; i < 3; ++i) {
        g[k] += JB[i][k] * r[i];
        for (int l = 0; l < free; ++l) H[k][l] += JB[i][k] * JB[i][l];
      }
    double step[2];
    if (free == 1) {
      if (!(H[0][0] > 0)) break;
      step[0] = -g[0] / H[0][0];
    } else {
      const double det = H[0][0] * H[1][1] - H[0][1] * H[1][0];
      if (!(det > 0)) break;
      step[0] = -(H[1][1] * g[0] - H[0][1] * g[1]) / det;
      step[1] = -(H[0][0] * g[1] - H[1][0] * g[0]) / det;
    }
    double trial[3], size = 0.0;
    for (int j = 0; j < 3; ++j) {
      trial[j] = xi[j];
      for (int k = 0; k < free; ++k) trial[j] += step[k] * basis[k][j];
    }
    for (int k = 0; k < free; ++k) size = std::max(size, std::abs(step[k]));
    double r_trial[3], J_trial[9];
    const double f_trial = misfit(trial, r_trial, J_trial);
    // Leaving the cell, or moving uphill by more than round-off: keep the descent's point.
    if (reference_outside(misfit.t, trial) > on || !(f_trial <= f * (1.0 + 1e-10))) break;
    for (int j = 0; j < 3; ++j) xi[j] = trial[j], r[j] = r_trial[j];
    for (int k = 0; k < 9; ++k) J[k] = J_trial[k];
    f = f_trial;
    if (size <= 1e-15) break;
  }
  return f;
}

}  // namespace

double nearest_reference_point(CellType t, std::span<const double> x, const double* p, double* xi) {
  require_3d("nearest_reference_point", t);
  const int n = info(t).num_nodes;
  require_size("nearest_reference_point: x", x.size(), 3 * n);
  if (!(std::isfinite(xi[0]) && std::isfinite(xi[1]) && std::isfinite(xi[2])))
    for (int j = 0; j < 3; ++j) xi[j] = t == CellType::hex8 ? 0.0 : 0.25;
  clamp_to_reference(t, xi);
  const Misfit misfit{t, n, x, p};
  double r[3], J[9];
  double f = projected_descent(misfit, xi, r, J);
  // The descent stops about sqrt(round-off) short of the minimum, where f is too flat for its
  // decrease to show. On the face, edge or corner where it stopped, Gauss-Newton along the free
  // directions then finds the stationary point to round-off (in one step for affine cells).
  constexpr double on = 1e-10;  // a constraint this close is active
  double basis[3][3];
  const int free = free_directions(t, xi, on, basis);
  f = gauss_newton_along(misfit, basis, free, on, xi, r, J, f);
  return std::sqrt(2.0 * f);
}

}  // namespace inertia::fe
