// The corotational four-node shell (shell_nonlinear.hpp).
#include "inertia/fe/shell_nonlinear.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "rotation_jet.hpp"
#include "shell_detail.hpp"

namespace inertia::fe {

namespace {

using namespace rotation_jet;  // Jet, exp_rotation, log_rotation (rotation_jet.hpp)

// ---------------------------------------------------------------------------------------------
// The corotational kinematics.

/// The reference: shell4_frame of X, the nodes relative to its centre and their heights.
struct Reference {
  Shell4Frame f;
  double g1[3], g2[3];  // (X1 + X2 - X0 - X3) / 2, (X2 + X3 - X0 - X1) / 2
  double D[4][3];       // X_a - C
  double x0[4][3];      // R0 (X_a - C): f.x, f.y and the height (non-zero when warped)
};

Reference reference(const double X[12]) {
  Reference r{shell4_frame(X), {}, {}, {}, {}};
  for (int i = 0; i < 3; ++i) {
    r.g1[i] = 0.5 * (X[3 + i] + X[6 + i] - X[i] - X[9 + i]);
    r.g2[i] = 0.5 * (X[6 + i] + X[9 + i] - X[i] - X[3 + i]);
  }
  for (int a = 0; a < 4; ++a) {
    for (int i = 0; i < 3; ++i) r.D[a][i] = X[3 * a + i] - r.f.center[i];
    for (int i = 0; i < 3; ++i)
      r.x0[a][i] =
          r.f.R[3 * i] * r.D[a][0] + r.f.R[3 * i + 1] * r.D[a][1] + r.f.R[3 * i + 2] * r.D[a][2];
  }
  return r;
}

/// The corotated frame e (rows e1, e2, e3) of the current nodes X + u (shell4_frame's
/// construction).
template <class S>
void corotated_frame(const Reference& ref, const S u[12], S e[3][3]) {
  S g1[3], g2[3];
  for (int i = 0; i < 3; ++i) {
    g1[i] = (u[3 + i] + u[6 + i] - u[i] - u[9 + i]) * 0.5 + ref.g1[i];
    g2[i] = (u[6 + i] + u[9 + i] - u[i] - u[3 + i]) * 0.5 + ref.g2[i];
  }
  S n[3];
  cross3(g1, g2, n);
  const double a3 = value(dot3(n, n)), a1 = value(dot3(g1, g1)), a2 = value(dot3(g2, g2));
  if (!(a3 > 1e-24 * a1 * a2) || !std::isfinite(a3))
    throw SolverError(
        "a corotational shell element has collapsed (its current nodes are collinear or "
        "coincident, or its state is not finite)");
  const S l3 = sqrt_(dot3(n, n)), l1 = sqrt_(dot3(g1, g1));
  for (int i = 0; i < 3; ++i) {
    e[2][i] = n[i] / l3;
    e[0][i] = g1[i] / l1;
  }
  cross3(e[2], e[0], e[1]);
}

/// The local deformational displacements u'_a = e (x_a - c) - x0_a (12, node-major).
template <class S>
void local_displacements(const Reference& ref, const S u[12], const S e[3][3], S out[12]) {
  S mean[3];
  for (int i = 0; i < 3; ++i) mean[i] = (u[i] + u[3 + i] + u[6 + i] + u[9 + i]) * 0.25;
  for (int a = 0; a < 4; ++a) {
    S r[3];
    for (int i = 0; i < 3; ++i) r[i] = (u[3 * a + i] - mean[i]) + ref.D[a][i];
    for (int i = 0; i < 3; ++i) out[3 * a + i] = dot3(e[i], r) - ref.x0[a][i];
  }
}

/// Node a's deformational rotation theta = log(Rr exp(psi) R0^T): (Rr exp(psi) R0^T)_ij =
/// e_i . (exp(psi) e0_j).
template <class S>
void local_rotation(const Reference& ref, const S e[3][3], const S psi[3], S theta[3]) {
  S Q[9];
  exp_rotation(psi, Q);
  S t[3][3];
  for (int j = 0; j < 3; ++j) {
    const double* e0 = ref.f.R + 3 * j;
    for (int i = 0; i < 3; ++i)
      t[j][i] = Q[3 * i] * e0[0] + Q[3 * i + 1] * e0[1] + Q[3 * i + 2] * e0[2];
  }
  S P[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) P[3 * i + j] = dot3(e[i], t[j]);
  log_rotation(P, theta);
}

/// The translations as variables 0..11.
template <int N, bool H>
void translation_jets(const double d[24], Jet<N, H> u[12]) {
  for (int i = 0; i < 12; ++i) {
    u[i].v = d[i];
    u[i].g[i] = 1;
  }
}

/// Node a's rotation vector as variables `first`..`first` + 2.
template <int N, bool H>
void rotation_jets(const double d[24], int a, int first, Jet<N, H> psi[3]) {
  for (int j = 0; j < 3; ++j) {
    psi[j].v = d[12 + 3 * a + j];
    psi[j].g[first + j] = 1;
  }
}

/// The element DOF of node a's variable v (0..11 the translations, 12..14 psi_a).
constexpr int dof_of(int a, int v) { return v < 12 ? v : 12 + 3 * a + (v - 12); }

/// Packed upper-triangle index of (i, j), i <= j, among n variables.
constexpr int packed(int i, int j, int n) { return i * n - i * (i - 1) / 2 + (j - i); }

/// dl and B = d dl / dd (24 x 24, row-major) by first-order jets; e the corotated frame.
void first_order(const Reference& ref, const double d[24], double dl[24], double B[576],
                 double e[9]) {
  using S = Jet<15, false>;
  S u[12], E[3][3], ul[12];
  translation_jets(d, u);
  corotated_frame(ref, u, E);
  local_displacements(ref, u, E, ul);
  std::fill(B, B + 576, 0.0);
  for (int r = 0; r < 12; ++r) {
    dl[r] = ul[r].v;
    for (int c = 0; c < 12; ++c) B[24 * r + c] = ul[r].g[c];
  }
  for (int a = 0; a < 4; ++a) {
    S psi[3], th[3];
    rotation_jets(d, a, 12, psi);
    local_rotation(ref, E, psi, th);
    for (int i = 0; i < 3; ++i) {
      const int r = 12 + 3 * a + i;
      dl[r] = th[i].v;
      for (int v = 0; v < 15; ++v) B[24 * r + dof_of(a, v)] = th[i].g[v];
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e[3 * i + j] = E[i][j].v;
}

/// K += the Hessian of m . theta_a (node a's part of the geometric stiffness), theta_a =
/// log(P), P_ij = e_i . t_j, t_j = exp(psi_a) e0_j, by the chain rule: with G, H the gradient
/// and Hessian of m . log(P) in P's 9 entries and J = dP / d(u, psi_a),
///   Hess = J^T H J + sum_ij G_ij Hess(P_ij),
/// Hess(P_ij): e_i's Hessian (u) against t_j, t_j's (psi) against e_i, and grad e_i x grad t_j.
void rotation_geometric_stiffness(const Reference& ref, const Jet<12, true> E[3][3],
                                  const double d[24], int a, const double m[3], double K[576]) {
  using T = Jet<3, true>;
  T psi[3], Q[9], t[3][3];
  rotation_jets(d, a, 0, psi);
  exp_rotation(psi, Q);
  for (int j = 0; j < 3; ++j) {
    const double* e0 = ref.f.R + 3 * j;
    for (int i = 0; i < 3; ++i)
      t[j][i] = combine(combine(Q[3 * i], e0[0], Q[3 * i + 1], e0[1]), 1.0, Q[3 * i + 2], e0[2]);
  }
  using L = Jet<9, true>;
  L P[9], theta[3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double v = 0;
      for (int k = 0; k < 3; ++k) v += E[i][k].v * t[j][k].v;
      P[3 * i + j].v = v;
      P[3 * i + j].g[3 * i + j] = 1;
    }
  log_rotation(P, theta);
  const L g = combine(combine(theta[0], m[0], theta[1], m[1]), 1.0, theta[2], m[2]);
  // J (9 x 15): dP_ij / du = sum_k t_jk grad e_ik, dP_ij / dpsi = sum_k e_ik grad t_jk.
  double J[9][15];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double* row = J[3 * i + j];
      for (int v = 0; v < 12; ++v)
        row[v] = E[i][0].g[v] * t[j][0].v + E[i][1].g[v] * t[j][1].v + E[i][2].g[v] * t[j][2].v;
      for (int v = 0; v < 3; ++v)
        row[12 + v] =
            E[i][0].v * t[j][0].g[v] + E[i][1].v * t[j][1].g[v] + E[i][2].v * t[j][2].g[v];
    }
  double Hs[9][9];  // H unpacked
  for (int p = 0; p < 9; ++p)
    for (int q = p; q < 9; ++q) Hs[p][q] = Hs[q][p] = g.h[packed(p, q, 9)];
  double HJ[9][15];
  for (int p = 0; p < 9; ++p)
    for (int v = 0; v < 15; ++v) {
      double x = 0;
      for (int q = 0; q < 9; ++q) x += Hs[p][q] * J[q][v];
      HJ[p][v] = x;
    }
  double Hphi[15][15];
  for (int v = 0; v < 15; ++v)
    for (int w = v; w < 15; ++w) {
      double x = 0;
      for (int p = 0; p < 9; ++p) x += J[p][v] * HJ[p][w];
      Hphi[v][w] = x;
    }
  // sum_ij G_ij Hess(P_ij): W_ik = sum_j G_ij t_jk weighs e_ik's Hessian, V_jk = sum_i G_ij e_ik
  // t_jk's, and the mixed block sum_ik grad e_ik x (sum_j G_ij grad t_jk).
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      double W = 0, Gt[3] = {0, 0, 0};
      for (int j = 0; j < 3; ++j) {
        const double G = g.g[3 * i + j];
        W += G * t[j][k].v;
        for (int v = 0; v < 3; ++v) Gt[v] += G * t[j][k].g[v];
      }
      const Jet<12, true>& e = E[i][k];
      for (int v = 0, n = 0; v < 12; ++v)
        for (int w = v; w < 12; ++w, ++n) Hphi[v][w] += W * e.h[n];
      for (int v = 0; v < 12; ++v)
        for (int w = 0; w < 3; ++w) Hphi[v][12 + w] += e.g[v] * Gt[w];
    }
  for (int j = 0; j < 3; ++j)
    for (int k = 0; k < 3; ++k) {
      double V = 0;
      for (int i = 0; i < 3; ++i) V += g.g[3 * i + j] * E[i][k].v;
      for (int v = 0, n = 0; v < 3; ++v)
        for (int w = v; w < 3; ++w, ++n) Hphi[12 + v][12 + w] += V * t[j][k].h[n];
    }
  for (int v = 0; v < 15; ++v)
    for (int w = v; w < 15; ++w) {
      const int p = dof_of(a, v), q = dof_of(a, w);
      K[24 * p + q] += Hphi[v][w];
      if (v != w) K[24 * q + p] += Hphi[v][w];
    }
}

/// K += sum_k fl_k d2 dl_k / dd2 (the geometric stiffness): the Hessian of fl . dl, the
/// translations' part by second-order jets of the frame, the rotations' by the chain rule.
void geometric_stiffness(const Reference& ref, const double d[24], const double fl[24],
                         double K[576]) {
  using S = Jet<12, true>;
  S u[12], E[3][3];
  translation_jets(d, u);
  corotated_frame(ref, u, E);
  {
    // sum_a fl_a . (E (x_a - c) - x0_a) = sum_i e_i . w_i + const, w_i = sum_a fl_ai (x_a - c)
    // (x_a - c = D_a + u_a - mean u).
    S mean[3];
    for (int i = 0; i < 3; ++i) mean[i] = (u[i] + u[3 + i] + u[6 + i] + u[9 + i]) * 0.25;
    S phi;
    for (int i = 0; i < 3; ++i) {
      S w[3];
      for (int k = 0; k < 3; ++k) {
        S acc;
        double constant = 0;
        for (int a = 0; a < 4; ++a) {
          acc = combine(acc, 1.0, u[3 * a + k] - mean[k], fl[3 * a + i]);
          constant += fl[3 * a + i] * ref.D[a][k];
        }
        w[k] = acc + constant;
      }
      phi = phi + dot3(E[i], w);
    }
    for (int v = 0, n = 0; v < 12; ++v)
      for (int w = v; w < 12; ++w, ++n) {
        K[24 * v + w] += phi.h[n];
        if (v != w) K[24 * w + v] += phi.h[n];
      }
  }
  for (int a = 0; a < 4; ++a) rotation_geometric_stiffness(ref, E, d, a, fl + 12 + 3 * a, K);
}

// ---------------------------------------------------------------------------------------------
// The local small-strain MITC4 element (the formulas of shell.cpp, local DOFs [u'_a, theta_a]).

constexpr double gauss = 0.57735026918962576451;  // 1 / sqrt(3)
using shell_detail::covariant_shear;
using shell_detail::Jacobian;
using shell_detail::rot;
using shell_detail::Shape;
using shell_detail::tr;

/// The strain rows at the 4 Gauss points: membrane (with the condensed incompatible modes),
/// bending, MITC4 shear, drilling; w the weights (det J).
struct LocalRows {
  double m[4][3][24]{}, b[4][3][24]{}, s[4][2][24]{}, d[4][24]{};
  double w[4]{};
  double d0[24]{};  // the drilling row at the centre
  double area = 0;  // 4 det J(0, 0), the centre point's weight
};

/// The part of the drilling penalty integrated by the 2 x 2 points, the rest by the centre point
/// (shell.hpp's rule).
constexpr double drilling_stabilization = 0.01;

/// Gauss point q = 2 i + j at (xi_i, eta_j), xi, eta in {-g, g}.
double gauss_xi(int q) { return q < 2 ? -gauss : gauss; }
double gauss_eta(int q) { return q % 2 == 0 ? -gauss : gauss; }

/// The rows without the incompatible modes.
void compatible_rows(const Shell4Frame& f, int q, LocalRows& r) {
  const double xi = gauss_xi(q), eta = gauss_eta(q);
  const Shape sh(xi, eta);
  const Jacobian jac(f, sh);
  r.w[q] = jac.det;
  for (int a = 0; a < 4; ++a) {
    const double Nx = jac.inv[0][0] * sh.dxi[a] + jac.inv[0][1] * sh.deta[a];
    const double Ny = jac.inv[1][0] * sh.dxi[a] + jac.inv[1][1] * sh.deta[a];
    r.m[q][0][tr(a, 0)] = Nx;
    r.m[q][1][tr(a, 1)] = Ny;
    r.m[q][2][tr(a, 0)] = Ny;
    r.m[q][2][tr(a, 1)] = Nx;
    r.b[q][0][rot(a, 1)] = Nx;
    r.b[q][1][rot(a, 0)] = -Ny;
    r.b[q][2][rot(a, 1)] = Ny;
    r.b[q][2][rot(a, 0)] = -Nx;
    r.d[q][rot(a, 2)] = sh.N[a];
    r.d[q][tr(a, 1)] = -0.5 * Nx;
    r.d[q][tr(a, 0)] = 0.5 * Ny;
  }
  double A[24]{}, C[24]{}, D[24]{}, B[24]{};
  covariant_shear(f, 0, -1, 0, A);
  covariant_shear(f, 0, 1, 0, C);
  covariant_shear(f, -1, 0, 1, D);
  covariant_shear(f, 1, 0, 1, B);
  for (int k = 0; k < 24; ++k) {
    const double g_xi = 0.5 * (1 - eta) * A[k] + 0.5 * (1 + eta) * C[k];
    const double g_eta = 0.5 * (1 - xi) * D[k] + 0.5 * (1 + xi) * B[k];
    r.s[q][0][k] = jac.inv[0][0] * g_xi + jac.inv[0][1] * g_eta;
    r.s[q][1][k] = jac.inv[1][0] * g_xi + jac.inv[1][1] * g_eta;
  }
}

/// Inverts the 4 x 4 symmetric positive definite A in place (Gauss-Jordan).
void invert4(double A[4][4]) {
  double M[4][8]{};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) M[a][b] = A[a][b];
    M[a][4 + a] = 1;
  }
  for (int k = 0; k < 4; ++k) {
    const double pivot = M[k][k];
    for (int j = 0; j < 8; ++j) M[k][j] /= pivot;
    for (int i = 0; i < 4; ++i) {
      if (i == k) continue;
      const double m = M[i][k];
      for (int j = 0; j < 8; ++j) M[i][j] -= m * M[k][j];
    }
  }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) A[a][b] = M[a][4 + b];
}

/// The rows of shell.cpp at the 4 points, the membrane's as B~ = Bm - Ba Kaa^-1 Kam with Kaa,
/// Kam of the elastic plane-stress matrix (the same modes as shell.cpp: u += a0 (1 - xi^2) +
/// a1 (1 - eta^2), v += a2 (1 - xi^2) + a3 (1 - eta^2), derivatives from the centre's Jacobian
/// times det0 / det).
/// With an offset o the modes act on the mid-surface's strain (as shell.cpp's): Kam from
/// Bm - o Bb; the rows stay the reference surface's, which the section takes.
void local_rows(const Shell4Frame& f, double nu, double offset, LocalRows& r) {
  const double C[3][3] = {{1, nu, 0}, {nu, 1, 0}, {0, 0, (1 - nu) / 2}};
  const Shape centre_shape(0, 0);
  const Jacobian centre(f, centre_shape);
  r.area = 4 * centre.det;
  for (int a = 0; a < 4; ++a) {
    r.d0[rot(a, 2)] = centre_shape.N[a];
    r.d0[tr(a, 1)] =
        -0.5 * (centre.inv[0][0] * centre_shape.dxi[a] + centre.inv[0][1] * centre_shape.deta[a]);
    r.d0[tr(a, 0)] =
        0.5 * (centre.inv[1][0] * centre_shape.dxi[a] + centre.inv[1][1] * centre_shape.deta[a]);
  }
  double Ba[4][3][4]{}, Kaa[4][4]{}, Kam[4][24]{};
  for (int q = 0; q < 4; ++q) {
    compatible_rows(f, q, r);
    const double xi = gauss_xi(q), eta = gauss_eta(q);
    const double scale = centre.det / r.w[q];
    const double dq[2][2] = {
        {centre.inv[0][0] * -2 * xi * scale, centre.inv[1][0] * -2 * xi * scale},
        {centre.inv[0][1] * -2 * eta * scale, centre.inv[1][1] * -2 * eta * scale}};
    for (int m = 0; m < 2; ++m) {
      Ba[q][0][m] = dq[m][0];
      Ba[q][2][m] = dq[m][1];
      Ba[q][1][2 + m] = dq[m][1];
      Ba[q][2][2 + m] = dq[m][0];
    }
    for (int i = 0; i < 3; ++i) {
      double CBa[4], CBm[24];
      for (int k = 0; k < 4; ++k)
        CBa[k] = r.w[q] * (C[i][0] * Ba[q][0][k] + C[i][1] * Ba[q][1][k] + C[i][2] * Ba[q][2][k]);
      for (int k = 0; k < 24; ++k)
        CBm[k] = r.w[q] * (C[i][0] * (r.m[q][0][k] - offset * r.b[q][0][k]) +
                           C[i][1] * (r.m[q][1][k] - offset * r.b[q][1][k]) +
                           C[i][2] * (r.m[q][2][k] - offset * r.b[q][2][k]));
      for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) Kaa[a][b] += Ba[q][i][a] * CBa[b];
        for (int k = 0; k < 24; ++k) Kam[a][k] += Ba[q][i][a] * CBm[k];
      }
    }
  }
  invert4(Kaa);
  double X[4][24];  // Kaa^-1 Kam
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 24; ++k) {
      double v = 0;
      for (int b = 0; b < 4; ++b) v += Kaa[a][b] * Kam[b][k];
      X[a][k] = v;
    }
  for (int q = 0; q < 4; ++q)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 24; ++k) {
        double v = 0;
        for (int a = 0; a < 4; ++a) v += Ba[q][i][a] * X[a][k];
        r.m[q][i][k] -= v;
      }
}

double row_dot(const double row[24], const double x[24]) {
  double v = 0;
  for (int k = 0; k < 24; ++k) v += row[k] * x[k];
  return v;
}

/// The local element's force fl, tangent Kl (when not null) and resultants (4 x 8, local axes,
/// when not null) at dl; the section's state per point from committed into trial.
FiberEnergy local_response(const LocalRows& r, const ShellLayers& s, const double dl[24],
                           std::span<const double> committed, std::span<double> trial,
                           double fl[24], double* Kl, double* res) {
  const int ns = shell_layers_state_size(s);
  const ShellSection& e = s.elastic;
  const double G = e.youngs_modulus / (2 * (1 + e.poissons_ratio));
  const double shear = e.shear_factor * G * e.thickness;
  const double drill = drilling_stabilization * e.drilling * G * e.thickness;
  const double drill0 = (1 - drilling_stabilization) * e.drilling * G * e.thickness * r.area;
  FiberEnergy energy;
  // The centre point's drilling.
  const double w0 = row_dot(r.d0, dl);
  energy.stored = 0.5 * drill0 * w0 * w0;
  for (int k = 0; k < 24; ++k) fl[k] = drill0 * r.d0[k] * w0;
  if (Kl)
    for (int k = 0; k < 24; ++k)
      for (int l = 0; l < 24; ++l) Kl[24 * k + l] = drill0 * r.d0[k] * r.d0[l];
  for (int q = 0; q < 4; ++q) {
    const double* rows[6] = {r.m[q][0], r.m[q][1], r.m[q][2], r.b[q][0], r.b[q][1], r.b[q][2]};
    double ek[6], nm[6], D[36];
    for (int i = 0; i < 6; ++i) ek[i] = row_dot(rows[i], dl);
    const FiberEnergy section =
        shell_layers_update(s, ek, committed.subspan(static_cast<size_t>(q) * ns, ns),
                            trial.subspan(static_cast<size_t>(q) * ns, ns), nm, Kl ? D : nullptr);
    const double g[2] = {row_dot(r.s[q][0], dl), row_dot(r.s[q][1], dl)};
    const double w_d = row_dot(r.d[q], dl);
    const double w = r.w[q];
    energy.stored +=
        w * (section.stored + 0.5 * shear * (g[0] * g[0] + g[1] * g[1]) + 0.5 * drill * w_d * w_d);
    energy.dissipated += w * section.dissipated;
    for (int k = 0; k < 24; ++k) {
      double v = shear * (r.s[q][0][k] * g[0] + r.s[q][1][k] * g[1]) + drill * r.d[q][k] * w_d;
      for (int i = 0; i < 6; ++i) v += rows[i][k] * nm[i];
      fl[k] += w * v;
    }
    if (res) {
      for (int i = 0; i < 6; ++i) res[8 * q + i] = nm[i];
      res[8 * q + 6] = shear * g[0];
      res[8 * q + 7] = shear * g[1];
    }
    if (!Kl) continue;
    double DB[6][24];
    for (int i = 0; i < 6; ++i)
      for (int k = 0; k < 24; ++k) {
        double v = 0;
        for (int j = 0; j < 6; ++j) v += D[6 * i + j] * rows[j][k];
        DB[i][k] = w * v;
      }
    for (int k = 0; k < 24; ++k)
      for (int l = 0; l < 24; ++l) {
        double v = w * (shear * (r.s[q][0][k] * r.s[q][0][l] + r.s[q][1][k] * r.s[q][1][l]) +
                        drill * r.d[q][k] * r.d[q][l]);
        for (int i = 0; i < 6; ++i) v += rows[i][k] * DB[i][l];
        Kl[24 * k + l] += v;
      }
  }
  return energy;
}

/// The warping correction of shell.hpp (rigid links from the warped nodes to their projection on
/// the element's plane, h_a = x0_a's height): dl <- W dl, B <- W B, W = I except W[u_a][th_y,a] =
/// -h_a and W[v_a][th_x,a] = h_a. Nothing for a flat element.
void project(const Reference& ref, double dl[24], double B[576]) {
  for (int a = 0; a < 4; ++a) {
    const double h = ref.x0[a][2];
    if (h == 0) continue;
    dl[tr(a, 0)] -= h * dl[rot(a, 1)];
    dl[tr(a, 1)] += h * dl[rot(a, 0)];
    for (int c = 0; c < 24; ++c) {
      B[24 * tr(a, 0) + c] -= h * B[24 * rot(a, 1) + c];
      B[24 * tr(a, 1) + c] += h * B[24 * rot(a, 0) + c];
    }
  }
}

}  // namespace

int shell4_nonlinear_state_size(const ShellLayers& s) { return 4 * shell_layers_state_size(s); }

FiberEnergy shell4_nonlinear(const double X[12], const ShellLayers& s, const double d[24],
                             std::span<const double> committed, std::span<double> trial,
                             double f[24], double* K, double* resultants) {
  const size_t need = static_cast<size_t>(shell4_nonlinear_state_size(s));
  if (committed.size() < need || trial.size() < need)
    throw InternalError(cat("shell4_nonlinear: state spans of ", committed.size(), " and ",
                            trial.size(), " doubles, need ", need));
  const Reference ref = reference(X);
  LocalRows rows;
  local_rows(ref.f, s.elastic.poissons_ratio, s.elastic.offset, rows);
  double dl[24], B[576], e[9], fl[24], Kl[576];
  first_order(ref, d, dl, B, e);
  project(ref, dl, B);
  const FiberEnergy energy =
      local_response(rows, s, dl, committed, trial, fl, K ? Kl : nullptr, resultants);
  // f = B^T fl
  for (int c = 0; c < 24; ++c) {
    double v = 0;
    for (int r = 0; r < 24; ++r) v += B[24 * r + c] * fl[r];
    f[c] = v;
  }
  if (resultants)  // to the output axes of the current element (e: its frame's rows)
    for (int q = 0; q < 4; ++q) {
      double local[8];
      std::copy_n(resultants + 8 * q, 8, local);
      shell_to_output_axes(e, local, resultants + 8 * q);
    }
  if (!K) return energy;
  // K = B^T Kl B + the geometric part.
  double KB[576];
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 24; ++c) {
      double v = 0;
      for (int k = 0; k < 24; ++k) v += Kl[24 * r + k] * B[24 * k + c];
      KB[24 * r + c] = v;
    }
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 24; ++c) {
      double v = 0;
      for (int k = 0; k < 24; ++k) v += B[24 * k + r] * KB[24 * k + c];
      K[24 * r + c] = v;
    }
  // fl . W dl = (W^T fl) . dl
  for (int a = 0; a < 4; ++a) {
    const double h = ref.x0[a][2];
    fl[rot(a, 1)] -= h * fl[tr(a, 0)];
    fl[rot(a, 0)] += h * fl[tr(a, 1)];
  }
  geometric_stiffness(ref, d, fl, K);
  return energy;
}

void shell4_corotated_state(const double X[12], const double d[24], double dl[24], double Rr[9]) {
  const Reference ref = reference(X);
  double u[12], E[3][3];
  std::copy(d, d + 12, u);
  corotated_frame(ref, u, E);
  local_displacements(ref, u, E, dl);
  for (int a = 0; a < 4; ++a) local_rotation(ref, E, d + 12 + 3 * a, dl + 12 + 3 * a);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Rr[3 * i + j] = E[i][j];
}

void shell4_nonlinear_strains(const double X[12], const ShellLayers& s, const double d[24],
                              double ek[24], double R[9]) {
  const Reference ref = reference(X);
  LocalRows rows;
  local_rows(ref.f, s.elastic.poissons_ratio, s.elastic.offset, rows);
  double dl[24], B[576];
  first_order(ref, d, dl, B, R);
  project(ref, dl, B);
  for (int q = 0; q < 4; ++q) {
    const double* r[6] = {rows.m[q][0], rows.m[q][1], rows.m[q][2],
                          rows.b[q][0], rows.b[q][1], rows.b[q][2]};
    for (int i = 0; i < 6; ++i) ek[6 * q + i] = row_dot(r[i], dl);
  }
}

}  // namespace inertia::fe
