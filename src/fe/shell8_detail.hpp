#pragma once
// The eight-node degenerated-continuum shell's geometry and strain rows (fe/shell8.hpp), shared by
// the elastic element (shell8.cpp) and the plastic one (shell8_plastic.cpp): the serendipity
// shape, the nodes' directors, a point's lamina axes and local derivatives, the strain rows and
// the elastic moduli.
#include <cmath>
#include <stdexcept>

#include "inertia/fe/element.hpp"
#include "inertia/fe/shell.hpp"

namespace inertia::fe::shell8_detail {

inline constexpr int nodes = 8, dofs = 48;
/// The nodes' natural coordinates (quad8's order: the corners, then the edges' midpoints).
inline constexpr double node_xi[8] = {-1, 1, 1, -1, 0, 1, 0, -1};
inline constexpr double node_eta[8] = {-1, -1, 1, 1, -1, 0, 1, 0};
inline constexpr double gauss = 0.57735026918962576451;  // 1 / sqrt(3)
/// The 3-point Gauss rule (area, mass and loads: 3 x 3 points).
inline constexpr double g3[3] = {-0.77459666924148337704, 0, 0.77459666924148337704};
inline constexpr double w3[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};

constexpr int tr(int a, int i) { return 3 * a + i; }
constexpr int rot(int a, int i) { return 24 + 3 * a + i; }

/// The serendipity quad's shape functions and their natural derivatives at (xi, eta) (element.hpp's
/// quad8).
struct Shape {
  double N[8], dxi[8], deta[8];
  Shape(double xi, double eta) {
    const double at[3] = {xi, eta, 0};
    double dN[24];
    shape_values(CellType::quad8, at, N);
    shape_gradients(CellType::quad8, at, dN);
    for (int a = 0; a < nodes; ++a) {
      dxi[a] = dN[3 * a];
      deta[a] = dN[3 * a + 1];
    }
  }
};

inline void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
inline double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// The element's nodes and their directors.
struct Geometry {
  double x[8][3], V[8][3];
  double half = 0, offset = 0;  ///< t / 2, o
  Geometry(const double xyz[24], const ShellSection& s)
      : half(0.5 * s.thickness), offset(s.offset) {
    for (int a = 0; a < nodes; ++a)
      for (int i = 0; i < 3; ++i) x[a][i] = xyz[3 * a + i];
    for (int a = 0; a < nodes; ++a) {
      const Shape sh(node_xi[a], node_eta[a]);
      double gx[3]{}, ge[3]{};
      for (int b = 0; b < nodes; ++b)
        for (int i = 0; i < 3; ++i) {
          gx[i] += sh.dxi[b] * x[b][i];
          ge[i] += sh.deta[b] * x[b][i];
        }
      cross(gx, ge, V[a]);
      const double n = std::hypot(V[a][0], V[a][1], V[a][2]);
      if (!(n > 1e-12 * std::hypot(gx[0], gx[1], gx[2]) * std::hypot(ge[0], ge[1], ge[2])))
        throw std::invalid_argument("degenerate quad8 shell (a corner or edge folded flat)");
      for (int i = 0; i < 3; ++i) V[a][i] /= n;
    }
  }
  /// The mid-surface's tangents at (xi, eta) and the area element |X,xi x X,eta|.
  double tangents(const Shape& sh, double gx[3], double ge[3]) const {
    for (int i = 0; i < 3; ++i) gx[i] = ge[i] = 0;
    for (int a = 0; a < nodes; ++a)
      for (int i = 0; i < 3; ++i) {
        const double p = x[a][i] - offset * V[a][i];
        gx[i] += sh.dxi[a] * p;
        ge[i] += sh.deta[a] * p;
      }
    double n[3];
    cross(gx, ge, n);
    return std::hypot(n[0], n[1], n[2]);
  }
};

/// A point (xi, eta, zeta): its shape, the lamina axes of the mid-surface at (xi, eta) (rows e1,
/// e2, e3), det J and, per node, the local derivatives of N_a (g) and of z N_a (h: the
/// rotations' field), z = zeta t / 2 - o.
struct Point {
  Shape sh;
  double e[3][3]{}, det = 0, area = 0;
  double g[8][3]{}, h[8][3]{};
  double z = 0;
  Point(const Geometry& geo, double xi, double eta, double zeta) : sh(xi, eta) {
    z = zeta * geo.half - geo.offset;
    double gx[3], ge[3];
    area = geo.tangents(sh, gx, ge);
    cross(gx, ge, e[2]);
    const double n3 = std::hypot(e[2][0], e[2][1], e[2][2]);
    const double n1 = std::hypot(gx[0], gx[1], gx[2]);
    if (!(area > 0) || !(n1 > 0)) throw std::invalid_argument("degenerate quad8 shell");
    for (int i = 0; i < 3; ++i) {
      e[2][i] /= n3;
      e[0][i] = gx[i] / n1;
    }
    cross(e[2], e[0], e[1]);
    // J rows: X,xi, X,eta, X,zeta at the point.
    double J[3][3]{};
    for (int a = 0; a < nodes; ++a)
      for (int i = 0; i < 3; ++i) {
        const double p = geo.x[a][i] + z * geo.V[a][i];
        J[0][i] += sh.dxi[a] * p;
        J[1][i] += sh.deta[a] * p;
        J[2][i] += sh.N[a] * geo.half * geo.V[a][i];
      }
    det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
          J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
          J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    if (!(det > 0))
      throw std::invalid_argument("quad8 shell with a non-positive Jacobian (distorted or thick)");
    // inv[p][r] = d xi_r / d X_p
    double inv[3][3];
    inv[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) / det;
    inv[0][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
    inv[0][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
    inv[1][0] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) / det;
    inv[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
    inv[1][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
    inv[2][0] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) / det;
    inv[2][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
    inv[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
    // J (the rows above) maps d/dX to d/dxi: d/dxi_r = J[r][p] d/dX_p, so d/dX_p = Jinv[p][r]
    // d/dxi_r with Jinv = J^-1 (inv above is J^-1: inv[p][r]).
    for (int a = 0; a < nodes; ++a) {
      double gg[3], hh[3];
      for (int p = 0; p < 3; ++p) {
        gg[p] = inv[p][0] * sh.dxi[a] + inv[p][1] * sh.deta[a];
        hh[p] = z * gg[p] + inv[p][2] * sh.N[a] * geo.half;
      }
      for (int i = 0; i < 3; ++i) {
        g[a][i] = dot(e[i], gg);
        h[a][i] = dot(e[i], hh);
      }
    }
  }
};

/// The local displacement gradient's rows L[i][k] = d u_k / d x_i (lamina axes) per DOF: the
/// strains [e11, e22, g12, g13, g23] (B) and the mid-surface's in-plane rotation
/// omega = (L01 - L10) / 2.
inline void strain_rows(const Geometry& geo, const Point& p, double B[5][dofs],
                        double omega[dofs]) {
  // DOF c moves the points by s N_a v (local axes): L[i][k] = s_i v_k, s the node's local
  // derivatives (g: a translation, h: a rotation), v its direction.
  const auto column = [&](int c, const double* s, const double* v) {
    B[0][c] = s[0] * v[0];
    B[1][c] = s[1] * v[1];
    B[2][c] = s[0] * v[1] + s[1] * v[0];
    B[3][c] = s[0] * v[2] + s[2] * v[0];
    B[4][c] = s[1] * v[2] + s[2] * v[1];
    if (omega) omega[c] = 0.5 * (s[0] * v[1] - s[1] * v[0]);
  };
  for (int a = 0; a < nodes; ++a)
    for (int j = 0; j < 3; ++j) {
      // translation j: v = the local components of e_j; rotation j: of e_j x V_a (U = z N_a
      // (e_j x V_a))
      const double ej[3] = {j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0, j == 2 ? 1.0 : 0.0};
      double w[3], v[3], vr[3];
      cross(ej, geo.V[a], w);
      for (int k = 0; k < 3; ++k) {
        v[k] = p.e[k][j];
        vr[k] = dot(p.e[k], w);
      }
      column(tr(a, j), p.g[a], v);
      column(rot(a, j), p.h[a], vr);
    }
}

/// The material's moduli per volume: plane stress (3 x 3) and the transverse shear k G.
struct Material {
  double m[3][3]{}, shear = 0, G = 0;
  explicit Material(const ShellSection& s) {
    const double E = s.youngs_modulus, nu = s.poissons_ratio;
    G = E / (2 * (1 + nu));
    const double c = E / (1 - nu * nu);
    m[0][0] = m[1][1] = c;
    m[0][1] = m[1][0] = c * nu;
    m[2][2] = G;
    shear = s.shear_factor * G;
  }
  /// The stresses [s11, s22, s12, s13, s23] of the strains.
  void stress(const double eps[5], double sig[5]) const {
    for (int i = 0; i < 3; ++i) sig[i] = m[i][0] * eps[0] + m[i][1] * eps[1] + m[i][2] * eps[2];
    sig[3] = shear * eps[3];
    sig[4] = shear * eps[4];
  }
};

}  // namespace inertia::fe::shell8_detail
