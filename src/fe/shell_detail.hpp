#pragma once
// What the shell kernels share (shell.cpp, shell3.cpp, shell_nonlinear.cpp): the four-node
// quadrilateral's shape functions and Jacobian on the element's plane, MITC4's covariant shear
// rows, and the rotation of element vectors and matrices between the local and global axes.
#include <cmath>
#include <stdexcept>
#include <string>

#include "inertia/fe/shell.hpp"

namespace inertia::fe::shell_detail {

/// A flat shell's axes from its two in-plane directions: rows e1 = g1 / |g1|, e2 = e3 x e1, e3 =
/// g1 x g2 / |g1 x g2| into R; returns |g1 x g2|. std::invalid_argument "degenerate <what> shell"
/// where the directions are (nearly) parallel or vanish.
inline double plane_axes(const double g1[3], const double g2[3], double R[9], const char* what) {
  double e3[3] = {g1[1] * g2[2] - g1[2] * g2[1], g1[2] * g2[0] - g1[0] * g2[2],
                  g1[0] * g2[1] - g1[1] * g2[0]};
  const double n3 = std::hypot(e3[0], e3[1], e3[2]);
  const double n1 = std::hypot(g1[0], g1[1], g1[2]);
  const double n2 = std::hypot(g2[0], g2[1], g2[2]);
  if (!(n3 > 1e-12 * n1 * n2) || !(n1 > 0) || !(n2 > 0))
    throw std::invalid_argument(std::string("degenerate ") + what +
                                " shell (coincident or collinear nodes)");
  for (int i = 0; i < 3; ++i) {
    R[6 + i] = e3[i] / n3;
    R[i] = g1[i] / n1;
  }
  R[3] = R[7] * R[2] - R[8] * R[1];
  R[4] = R[8] * R[0] - R[6] * R[2];
  R[5] = R[6] * R[1] - R[7] * R[0];
  return n3;
}

inline constexpr double node_xi[4] = {-1, 1, 1, -1};
inline constexpr double node_eta[4] = {-1, -1, 1, 1};

/// A quad's local DOF indices: translation i of node a, rotation i of node a.
constexpr int tr(int a, int i) { return 3 * a + i; }
constexpr int rot(int a, int i) { return 12 + 3 * a + i; }

/// Shape functions and their natural derivatives at (xi, eta).
struct Shape {
  double N[4], dxi[4], deta[4];
  Shape(double xi, double eta) {
    for (int a = 0; a < 4; ++a) {
      N[a] = 0.25 * (1 + xi * node_xi[a]) * (1 + eta * node_eta[a]);
      dxi[a] = 0.25 * node_xi[a] * (1 + eta * node_eta[a]);
      deta[a] = 0.25 * node_eta[a] * (1 + xi * node_xi[a]);
    }
  }
};

/// The Jacobian [[x_xi, y_xi], [x_eta, y_eta]] of the local plane at a shape's point.
struct Jacobian {
  double J[2][2]{}, inv[2][2]{}, det = 0;
  Jacobian(const Shell4Frame& f, const Shape& s) {
    for (int a = 0; a < 4; ++a) {
      J[0][0] += s.dxi[a] * f.x[a];
      J[0][1] += s.dxi[a] * f.y[a];
      J[1][0] += s.deta[a] * f.x[a];
      J[1][1] += s.deta[a] * f.y[a];
    }
    det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    inv[0][0] = J[1][1] / det;
    inv[0][1] = -J[0][1] / det;
    inv[1][0] = -J[1][0] / det;
    inv[1][1] = J[0][0] / det;
  }
};

/// The covariant shear strain g . x_dir (dir 0: xi, 1: eta) at (xi, eta) as a row over the local
/// DOFs: w,dir + x_dir beta_x + y_dir beta_y, beta_x = th_y, beta_y = -th_x (added to `row`).
inline void covariant_shear(const Shell4Frame& f, double xi, double eta, int dir, double row[24]) {
  const Shape sh(xi, eta);
  const Jacobian jac(f, sh);
  const double* dN = dir == 0 ? sh.dxi : sh.deta;
  const double xd = jac.J[dir][0], yd = jac.J[dir][1];
  for (int a = 0; a < 4; ++a) {
    row[tr(a, 2)] += dN[a];
    row[rot(a, 1)] += xd * sh.N[a];   // beta_x = th_y
    row[rot(a, 0)] += -yd * sh.N[a];  // beta_y = -th_x
  }
}

/// a_local = R a_global for each of the `blocks` 3-blocks: out = T a, T = diag(R, ..., R).
inline void to_local(const double R[9], const double* a, double* out, int blocks) {
  for (int blk = 0; blk < blocks; ++blk)
    for (int i = 0; i < 3; ++i)
      out[3 * blk + i] =
          R[3 * i] * a[3 * blk] + R[3 * i + 1] * a[3 * blk + 1] + R[3 * i + 2] * a[3 * blk + 2];
}

/// K = T^T Kl T for an n x n matrix (n = 3 blocks), T = diag(R, ..., R): first KT = Kl T (rows),
/// then T^T (KT). `scratch` holds n x n values.
inline void to_global(const double R[9], const double* Kl, double* K, int n, double* scratch) {
  for (int i = 0; i < n; ++i)
    for (int blk = 0; blk < n / 3; ++blk)
      for (int c = 0; c < 3; ++c) {
        double v = 0;
        for (int k = 0; k < 3; ++k) v += Kl[n * i + 3 * blk + k] * R[3 * k + c];
        scratch[n * i + 3 * blk + c] = v;
      }
  for (int blk = 0; blk < n / 3; ++blk)
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < n; ++j) {
        double v = 0;
        for (int k = 0; k < 3; ++k) v += R[3 * k + r] * scratch[n * (3 * blk + k) + j];
        K[n * (3 * blk + r) + j] = v;
      }
}

/// The section's moduli: membrane (3 x 3 plane stress times t), bending (times t^3 / 12), shear
/// k G t, drilling alpha = drilling G t.
struct Moduli {
  double m[3][3]{}, b[3][3]{}, s = 0, d = 0;
  explicit Moduli(const ShellSection& s_) {
    const double E = s_.youngs_modulus, nu = s_.poissons_ratio, t = s_.thickness;
    const double G = E / (2 * (1 + nu));
    const double c = E / (1 - nu * nu);
    const double plane[3][3] = {{c, c * nu, 0}, {c * nu, c, 0}, {0, 0, G}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        m[i][j] = plane[i][j] * t;
        b[i][j] = plane[i][j] * t * t * t / 12;
      }
    s = s_.shear_factor * G * t;
    d = s_.drilling * G * t;
  }
};

/// K += w B^T D B for B (n x dofs) and D (n x n), K dofs x dofs.
template <int n, int dofs>
void add_btdb(const double (*B)[dofs], const double (*Dm)[n], double w, double* K) {
  double DB[n][dofs];
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < dofs; ++k) {
      double v = 0;
      for (int j = 0; j < n; ++j) v += Dm[i][j] * B[j][k];
      DB[i][k] = w * v;
    }
  for (int k = 0; k < dofs; ++k)
    for (int l = 0; l < dofs; ++l) {
      double v = 0;
      for (int i = 0; i < n; ++i) v += B[i][k] * DB[i][l];
      K[dofs * k + l] += v;
    }
}

/// The lumped mass of a shell of `nodes` nodes and area A (shell.hpp): rho t A / nodes per
/// translation, rho (t^3 / 12 + t o^2) A / nodes per rotation; m has 6 nodes values, the
/// translations first.
inline void lumped_mass(const ShellSection& s, double area, int nodes, double* m) {
  const double t = s.thickness;
  const double translation = s.density * t * area / nodes;
  const double rotation = s.density * t * (t * t / 12 + s.offset * s.offset) * area / nodes;
  for (int k = 0; k < 3 * nodes; ++k) m[k] = translation;
  for (int k = 3 * nodes; k < 6 * nodes; ++k) m[k] = rotation;
}

}  // namespace inertia::fe::shell_detail
