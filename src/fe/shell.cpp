// The four-node MITC4 flat shell (shell.hpp).
#include "inertia/fe/shell.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "shell_detail.hpp"

namespace inertia::fe {

namespace {

using shell_detail::add_btdb;
using shell_detail::covariant_shear;
using shell_detail::Jacobian;
using shell_detail::Moduli;
using shell_detail::rot;
using shell_detail::Shape;
using shell_detail::tr;

/// The strain-displacement rows at one Gauss point, local DOFs: membrane (3), bending (3),
/// transverse shear (2, MITC4) and drilling (1).
struct StrainRows {
  double m[3][24]{}, b[3][24]{}, s[2][24]{}, d[1][24]{};
  double det = 0;
};

/// MITC4's tied covariant shear rows: g_xi at A (0, -1) and C (0, 1), g_eta at D (-1, 0) and
/// B (1, 0); the same for every point of the element.
struct TiedShear {
  double A[24]{}, C[24]{}, D[24]{}, B[24]{};
  explicit TiedShear(const Shell4Frame& f) {
    covariant_shear(f, 0, -1, 0, A);
    covariant_shear(f, 0, 1, 0, C);
    covariant_shear(f, -1, 0, 1, D);
    covariant_shear(f, 1, 0, 1, B);
  }
};

/// An offset o (shell.hpp): the membrane rows become the mid-surface's, B_m - o B_b.
StrainRows strain_rows(const Shell4Frame& f, const TiedShear& tied, double xi, double eta,
                       double offset) {
  StrainRows r;
  const Shape sh(xi, eta);
  const Jacobian jac(f, sh);
  r.det = jac.det;
  for (int a = 0; a < 4; ++a) {
    const double Nx = jac.inv[0][0] * sh.dxi[a] + jac.inv[0][1] * sh.deta[a];
    const double Ny = jac.inv[1][0] * sh.dxi[a] + jac.inv[1][1] * sh.deta[a];
    r.m[0][tr(a, 0)] = Nx;
    r.m[1][tr(a, 1)] = Ny;
    r.m[2][tr(a, 0)] = Ny;
    r.m[2][tr(a, 1)] = Nx;
    r.b[0][rot(a, 1)] = Nx;   // beta_x,x
    r.b[1][rot(a, 0)] = -Ny;  // beta_y,y
    r.b[2][rot(a, 1)] = Ny;   // beta_x,y + beta_y,x
    r.b[2][rot(a, 0)] = -Nx;
    r.d[0][rot(a, 2)] = sh.N[a];  // th_z - (v,x - u,y) / 2
    r.d[0][tr(a, 1)] = -0.5 * Nx;
    r.d[0][tr(a, 0)] = 0.5 * Ny;
  }
  // MITC4: g_xi tied at A (0, -1) and C (0, 1), g_eta at D (-1, 0) and B (1, 0).
  const double *A = tied.A, *C = tied.C, *D = tied.D, *B = tied.B;
  for (int k = 0; k < 24; ++k) {
    const double g_xi = 0.5 * (1 - eta) * A[k] + 0.5 * (1 + eta) * C[k];
    const double g_eta = 0.5 * (1 - xi) * D[k] + 0.5 * (1 + xi) * B[k];
    // [g_xz, g_yz] = J^-1 [g_xi, g_eta]
    r.s[0][k] = jac.inv[0][0] * g_xi + jac.inv[0][1] * g_eta;
    r.s[1][k] = jac.inv[1][0] * g_xi + jac.inv[1][1] * g_eta;
  }
  if (offset != 0)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 24; ++k) r.m[i][k] -= offset * r.b[i][k];
  return r;
}

constexpr double gauss = 0.57735026918962576451;  // 1 / sqrt(3)

/// The part of the drilling penalty integrated by 2 x 2 points (shell.hpp).
constexpr double drilling_stabilization = 0.01;

/// The rigid links of a warped element (shell.hpp): d_projected = W d, W = I except
/// W[u_a][th_y,a] = -h_a and W[v_a][th_x,a] = h_a (local axes).
void to_projection(const Shell4Frame& f, double d[24]) {
  for (int a = 0; a < 4; ++a) {
    d[tr(a, 0)] -= f.z[a] * d[rot(a, 1)];
    d[tr(a, 1)] += f.z[a] * d[rot(a, 0)];
  }
}

/// K <- W^T K W: first the columns (K W), then the rows (W^T (K W)). Each updated column / row
/// (a rotation's) takes a translation's, which is itself never updated.
void warp_correct(const Shell4Frame& f, double K[576]) {
  for (int a = 0; a < 4; ++a) {
    const double h = f.z[a];
    if (h == 0) continue;
    for (int i = 0; i < 24; ++i) {
      K[24 * i + rot(a, 1)] -= h * K[24 * i + tr(a, 0)];
      K[24 * i + rot(a, 0)] += h * K[24 * i + tr(a, 1)];
    }
    for (int j = 0; j < 24; ++j) {
      K[24 * rot(a, 1) + j] -= h * K[24 * tr(a, 0) + j];
      K[24 * rot(a, 0) + j] += h * K[24 * tr(a, 1) + j];
    }
  }
}

}  // namespace

Shell4Frame shell4_frame(const double xyz[12]) {
  Shell4Frame f;
  double g1[3], g2[3];
  for (int i = 0; i < 3; ++i) {
    f.center[i] = 0.25 * (xyz[i] + xyz[3 + i] + xyz[6 + i] + xyz[9 + i]);
    g1[i] = 0.5 * (xyz[3 + i] + xyz[6 + i] - xyz[i] - xyz[9 + i]);
    g2[i] = 0.5 * (xyz[6 + i] + xyz[9 + i] - xyz[i] - xyz[3 + i]);
  }
  shell_detail::plane_axes(g1, g2, f.R, "quad");
  const double *e1 = f.R, *e2 = f.R + 3, *e3 = f.R + 6;
  double warp = 0;
  for (int a = 0; a < 4; ++a) {
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = xyz[3 * a + i] - f.center[i];
    f.x[a] = d[0] * e1[0] + d[1] * e1[1] + d[2] * e1[2];
    f.y[a] = d[0] * e2[0] + d[1] * e2[1] + d[2] * e2[2];
    f.z[a] = d[0] * e3[0] + d[1] * e3[1] + d[2] * e3[2];
    warp = std::max(warp, std::abs(f.z[a]));
  }
  for (const double xi : {-gauss, gauss})
    for (const double eta : {-gauss, gauss}) {
      const Jacobian jac(f, Shape(xi, eta));
      if (!(jac.det > 0))
        throw std::invalid_argument("quad shell with a non-positive Jacobian (not convex)");
      f.area += jac.det;
    }
  f.warp = warp / std::sqrt(f.area);
  return f;
}

void shell4_local_stiffness(const Shell4Frame& f, const ShellSection& s, double K[576]) {
  std::fill(K, K + 576, 0.0);
  const Moduli D(s);
  const double shear[2][2] = {{D.s, 0}, {0, D.s}};
  // The drilling penalty: (1 - s) of it at the centre (one point, weight the area), s by 2 x 2
  // points (the stabilization of the drilling patterns the one-point rule leaves free).
  const double drill[1][1] = {{drilling_stabilization * D.d}};
  const Jacobian centre(f, Shape(0, 0));
  const TiedShear tied(f);
  {
    const StrainRows r0 = strain_rows(f, tied, 0, 0, s.offset);
    const double mean[1][1] = {{(1 - drilling_stabilization) * D.d}};
    add_btdb<1>(r0.d, mean, 4 * r0.det, K);  // 4 det(0, 0) is the area
  }
  double Kaa[4][4]{}, Kam[4][24]{};  // the incompatible modes' blocks
  for (const double xi : {-gauss, gauss})
    for (const double eta : {-gauss, gauss}) {
      const StrainRows r = strain_rows(f, tied, xi, eta, s.offset);
      add_btdb<3>(r.m, D.m, r.det, K);
      add_btdb<3>(r.b, D.b, r.det, K);
      add_btdb<2>(r.s, shear, r.det, K);
      add_btdb<1>(r.d, drill, r.det, K);
      // Incompatible membrane modes (Wilson; Taylor, Beresford and Wilson 1976):
      // u += a0 (1 - xi^2) + a1 (1 - eta^2), v += a2 (1 - xi^2) + a3 (1 - eta^2), their
      // Cartesian derivatives from the centre's Jacobian times det0 / det, so that they
      // integrate to zero over the element (the patch test holds).
      const double scale = centre.det / r.det;
      const double dq[2][2] = {
          // d(1 - xi^2)/d(x, y), d(1 - eta^2)/d(x, y)
          {centre.inv[0][0] * -2 * xi * scale, centre.inv[1][0] * -2 * xi * scale},
          {centre.inv[0][1] * -2 * eta * scale, centre.inv[1][1] * -2 * eta * scale}};
      double Ba[3][4]{};  // membrane strain rows over a0..a3
      for (int q = 0; q < 2; ++q) {
        Ba[0][q] = dq[q][0];      // u,x
        Ba[2][q] = dq[q][1];      // u,y
        Ba[1][2 + q] = dq[q][1];  // v,y
        Ba[2][2 + q] = dq[q][0];  // v,x
      }
      for (int i = 0; i < 3; ++i) {
        double DBa[4], DBm[24];
        for (int k = 0; k < 4; ++k)
          DBa[k] = r.det * (D.m[i][0] * Ba[0][k] + D.m[i][1] * Ba[1][k] + D.m[i][2] * Ba[2][k]);
        for (int k = 0; k < 24; ++k)
          DBm[k] = r.det * (D.m[i][0] * r.m[0][k] + D.m[i][1] * r.m[1][k] + D.m[i][2] * r.m[2][k]);
        for (int a = 0; a < 4; ++a) {
          for (int b = 0; b < 4; ++b) Kaa[a][b] += Ba[i][a] * DBa[b];
          for (int k = 0; k < 24; ++k) Kam[a][k] += Ba[i][a] * DBm[k];
        }
      }
    }
  // K -= Kam^T Kaa^-1 Kam (Kaa symmetric positive definite, 4 x 4: Gauss-Jordan).
  double inv[4][8]{};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) inv[a][b] = Kaa[a][b];
    inv[a][4 + a] = 1;
  }
  for (int k = 0; k < 4; ++k) {
    const double pivot = inv[k][k];
    for (int j = 0; j < 8; ++j) inv[k][j] /= pivot;
    for (int i = 0; i < 4; ++i) {
      if (i == k) continue;
      const double m = inv[i][k];
      for (int j = 0; j < 8; ++j) inv[i][j] -= m * inv[k][j];
    }
  }
  double X[4][24];  // Kaa^-1 Kam
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 24; ++k) {
      double v = 0;
      for (int b = 0; b < 4; ++b) v += inv[a][4 + b] * Kam[b][k];
      X[a][k] = v;
    }
  for (int k = 0; k < 24; ++k)
    for (int l = 0; l < 24; ++l) {
      double v = 0;
      for (int a = 0; a < 4; ++a) v += Kam[a][k] * X[a][l];
      K[24 * k + l] -= v;
    }
  warp_correct(f, K);
}

void shell4_stiffness(const double xyz[12], const ShellSection& s, double K[576]) {
  const Shell4Frame f = shell4_frame(xyz);
  double Kl[576];
  shell4_local_stiffness(f, s, Kl);
  double scratch[576];
  shell_detail::to_global(f.R, Kl, K, 24, scratch);
}

void shell4_lumped_mass(const double xyz[12], const ShellSection& s, double m[24]) {
  shell_detail::lumped_mass(s, shell4_frame(xyz).area, 4, m);
}

void shell4_gauss_weights(const double xyz[12], double w[4]) {
  const Shell4Frame f = shell4_frame(xyz);
  const double g = 1 / std::sqrt(3.0);
  for (int q = 0; q < 4; ++q) w[q] = Jacobian(f, Shape(q < 2 ? -g : g, q % 2 ? g : -g)).det;
}

void shell4_resultants(const double xyz[12], const ShellSection& s, const double d[24],
                       double out[8]) {
  const Shell4Frame f = shell4_frame(xyz);
  double dl[24];
  shell_detail::to_local(f.R, d, dl, 8);
  to_projection(f, dl);
  const Moduli D(s);
  const StrainRows r = strain_rows(f, TiedShear(f), 0, 0, s.offset);
  double e[3] = {0, 0, 0}, k[3] = {0, 0, 0}, g[2] = {0, 0};
  for (int j = 0; j < 24; ++j) {
    for (int i = 0; i < 3; ++i) {
      e[i] += r.m[i][j] * dl[j];
      k[i] += r.b[i][j] * dl[j];
    }
    for (int i = 0; i < 2; ++i) g[i] += r.s[i][j] * dl[j];
  }
  double local[8];
  for (int i = 0; i < 3; ++i) {
    local[i] = D.m[i][0] * e[0] + D.m[i][1] * e[1] + D.m[i][2] * e[2];
    // About the reference surface: M = D k - o N (e is the mid-surface's strain).
    local[3 + i] = D.b[i][0] * k[0] + D.b[i][1] * k[1] + D.b[i][2] * k[2] - s.offset * local[i];
  }
  local[6] = D.s * g[0];
  local[7] = D.s * g[1];
  shell_to_output_axes(f.R, local, out);
}

void shell_to_output_axes(const double R[9], const double local[8], double out[8]) {
  // a1 = global X projected on the plane (Z when X is within 0.1 degree of the normal), a2 = e3
  // x a1; c, s: a1's components along e1, e2.
  const double* e3 = R + 6;
  const double X[3] = {1, 0, 0}, Z[3] = {0, 0, 1};
  const double* ref = std::abs(e3[0]) < std::cos(0.1 * 3.14159265358979323846 / 180) ? X : Z;
  double c = ref[0] * R[0] + ref[1] * R[1] + ref[2] * R[2];
  double sn = ref[0] * R[3] + ref[1] * R[4] + ref[2] * R[5];
  const double n = std::hypot(c, sn);
  c /= n;
  sn /= n;
  for (int base : {0, 3}) {  // symmetric tensors [xx, yy, xy]: T' = Q T Q^T, Q = [c s; -s c]
    const double xx = local[base], yy = local[base + 1], xy = local[base + 2];
    out[base] = c * c * xx + 2 * c * sn * xy + sn * sn * yy;
    out[base + 1] = sn * sn * xx - 2 * c * sn * xy + c * c * yy;
    out[base + 2] = (c * c - sn * sn) * xy + c * sn * (yy - xx);
  }
  out[6] = c * local[6] + sn * local[7];
  out[7] = -sn * local[6] + c * local[7];
}

}  // namespace inertia::fe
