// The three-node flat shell: Allman's membrane with a drilling penalty, MITC3 bending (shell3.hpp).
#include "inertia/fe/shell3.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "shell_detail.hpp"

namespace inertia::fe {

namespace {

using shell_detail::add_btdb;
using shell_detail::Moduli;

/// Local DOF indices: translation i of node a, rotation i of node a.
constexpr int tr(int a, int i) { return 3 * a + i; }
constexpr int rot(int a, int i) { return 9 + 3 * a + i; }

/// The edges (i, j), counter-clockwise.
constexpr int edge[3][2] = {{0, 1}, {1, 2}, {2, 0}};

/// The area coordinates' Cartesian derivatives: L_a,x = b[a], L_a,y = c[a].
struct Gradients {
  double b[3], c[3];
  explicit Gradients(const Shell3Frame& f) {
    for (int a = 0; a < 3; ++a) {
      const int p = (a + 1) % 3, q = (a + 2) % 3;
      b[a] = (f.y[p] - f.y[q]) / (2 * f.area);
      c[a] = (f.x[q] - f.x[p]) / (2 * f.area);
    }
  }
};

/// The membrane strain rows [e_xx, e_yy, g_xy] and the drilling row th_z - omega at the point of
/// area coordinates L, over the local DOFs.
struct MembraneRows {
  double m[3][18]{}, d[1][18]{};
};

MembraneRows membrane_rows(const Shell3Frame& f, const Gradients& g, const double L[3]) {
  // Derivatives of u and of v along x and y as rows over the DOFs.
  double ux[18]{}, uy[18]{}, vx[18]{}, vy[18]{};
  for (int a = 0; a < 3; ++a) {  // corner functions L_a (2 L_a - 1)
    const double k = 4 * L[a] - 1;
    ux[tr(a, 0)] += k * g.b[a];
    uy[tr(a, 0)] += k * g.c[a];
    vx[tr(a, 1)] += k * g.b[a];
    vy[tr(a, 1)] += k * g.c[a];
  }
  for (const auto& e : edge) {  // mid-side functions 4 L_i L_j times the mid-side values
    const int i = e[0], j = e[1];
    const double Mx = 4 * (g.b[i] * L[j] + L[i] * g.b[j]);
    const double My = 4 * (g.c[i] * L[j] + L[i] * g.c[j]);
    const double nx = (f.y[j] - f.y[i]) / 8, ny = (f.x[i] - f.x[j]) / 8;
    for (const int a : {i, j}) {
      ux[tr(a, 0)] += 0.5 * Mx;
      uy[tr(a, 0)] += 0.5 * My;
      vx[tr(a, 1)] += 0.5 * Mx;
      vy[tr(a, 1)] += 0.5 * My;
    }
    ux[rot(j, 2)] += Mx * nx;
    ux[rot(i, 2)] -= Mx * nx;
    uy[rot(j, 2)] += My * nx;
    uy[rot(i, 2)] -= My * nx;
    vx[rot(j, 2)] += Mx * ny;
    vx[rot(i, 2)] -= Mx * ny;
    vy[rot(j, 2)] += My * ny;
    vy[rot(i, 2)] -= My * ny;
  }
  MembraneRows r;
  for (int k = 0; k < 18; ++k) {
    r.m[0][k] = ux[k];
    r.m[1][k] = vy[k];
    r.m[2][k] = uy[k] + vx[k];
    r.d[0][k] = -0.5 * (vx[k] - uy[k]);
  }
  for (int a = 0; a < 3; ++a) r.d[0][rot(a, 2)] += L[a];
  return r;
}

/// The constant curvature rows [beta_x,x, beta_y,y, beta_x,y + beta_y,x].
void bending_rows(const Gradients& g, double b[3][18]) {
  for (int a = 0; a < 3; ++a) {
    b[0][rot(a, 1)] = g.b[a];   // beta_x = th_y
    b[1][rot(a, 0)] = -g.c[a];  // beta_y = -th_x
    b[2][rot(a, 1)] = g.c[a];
    b[2][rot(a, 0)] = -g.b[a];
  }
}

/// The covariant shear strain along r (dir 0) or s (dir 1) at (r, s) as a row: w,dir +
/// x_dir beta_x + y_dir beta_y, beta linear (N0 = 1 - r - s, N1 = r, N2 = s).
void covariant_shear(const Shell3Frame& f, double r, double s, int dir, double row[18]) {
  const double N[3] = {1 - r - s, r, s};
  const double dN[3] = {-1, dir == 0 ? 1.0 : 0.0, dir == 1 ? 1.0 : 0.0};
  const int other = dir == 0 ? 1 : 2;
  const double xd = f.x[other] - f.x[0], yd = f.y[other] - f.y[0];
  for (int a = 0; a < 3; ++a) {
    row[tr(a, 2)] += dN[a];
    row[rot(a, 1)] += xd * N[a];   // beta_x = th_y
    row[rot(a, 0)] += -yd * N[a];  // beta_y = -th_x
  }
}

/// The MITC3 transverse shear rows [g_xz, g_yz] at (r, s).
void shear_rows(const Shell3Frame& f, double r, double s, double out[2][18]) {
  double A[18]{}, B[18]{}, Cr[18]{}, Cs[18]{};
  covariant_shear(f, 0.5, 0, 0, A);
  covariant_shear(f, 0, 0.5, 1, B);
  covariant_shear(f, 0.5, 0.5, 0, Cr);
  covariant_shear(f, 0.5, 0.5, 1, Cs);
  // J = [[x_r, y_r], [x_s, y_s]], [e_rt, e_st] = J [g_xz, g_yz].
  const double xr = f.x[1] - f.x[0], yr = f.y[1] - f.y[0], xs = f.x[2] - f.x[0],
               ys = f.y[2] - f.y[0];
  const double det = xr * ys - yr * xs;
  for (int k = 0; k < 18; ++k) {
    const double c = B[k] - A[k] + Cr[k] - Cs[k];
    const double ert = A[k] + c * s, est = B[k] - c * r;
    out[0][k] = (ys * ert - yr * est) / det;
    out[1][k] = (-xs * ert + xr * est) / det;
  }
}

/// An offset o (shell3.hpp): the membrane rows become the mid-surface's, B_m - o B_b.
void mid_surface(MembraneRows& m, const double b[3][18], double offset) {
  if (offset == 0) return;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 18; ++k) m.m[i][k] -= offset * b[i][k];
}

/// The 3-point rule (exact for quadratics): area coordinates (2/3, 1/6, 1/6) and permutations.
constexpr double rule[3][3] = {
    {2.0 / 3, 1.0 / 6, 1.0 / 6}, {1.0 / 6, 2.0 / 3, 1.0 / 6}, {1.0 / 6, 1.0 / 6, 2.0 / 3}};

}  // namespace

Shell3Frame shell3_frame(const double xyz[9]) {
  Shell3Frame f;
  double g1[3], g2[3];
  for (int i = 0; i < 3; ++i) {
    f.center[i] = (xyz[i] + xyz[3 + i] + xyz[6 + i]) / 3;
    g1[i] = xyz[3 + i] - xyz[i];
    g2[i] = xyz[6 + i] - xyz[i];
  }
  const double n3 = shell_detail::plane_axes(g1, g2, f.R, "triangle");
  const double *e1 = f.R, *e2 = f.R + 3;
  for (int a = 0; a < 3; ++a) {
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = xyz[3 * a + i] - f.center[i];
    f.x[a] = d[0] * e1[0] + d[1] * e1[1] + d[2] * e1[2];
    f.y[a] = d[0] * e2[0] + d[1] * e2[1] + d[2] * e2[2];
  }
  f.area = 0.5 * n3;
  return f;
}

void shell3_local_stiffness(const Shell3Frame& f, const ShellSection& s, double K[324]) {
  std::fill(K, K + 324, 0.0);
  const Moduli D(s);
  const Gradients g(f);
  const double w = f.area / 3;
  double b[3][18]{};
  bending_rows(g, b);
  for (const auto& L : rule) {
    MembraneRows m = membrane_rows(f, g, L);
    mid_surface(m, b, s.offset);
    add_btdb<3>(m.m, D.m, w, K);
    double sh[2][18];
    shear_rows(f, L[1], L[2], sh);
    const double shear[2][2] = {{D.s, 0}, {0, D.s}};
    add_btdb<2>(sh, shear, w, K);
  }
  add_btdb<3>(b, D.b, f.area, K);
  const double centroid[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  const MembraneRows c = membrane_rows(f, g, centroid);
  const double drill[1][1] = {{D.d}};
  add_btdb<1>(c.d, drill, f.area, K);
}

void shell3_stiffness(const double xyz[9], const ShellSection& s, double K[324]) {
  const Shell3Frame f = shell3_frame(xyz);
  double Kl[324];
  shell3_local_stiffness(f, s, Kl);
  double scratch[324];
  shell_detail::to_global(f.R, Kl, K, 18, scratch);
}

void shell3_lumped_mass(const double xyz[9], const ShellSection& s, double m[18]) {
  shell_detail::lumped_mass(s, shell3_frame(xyz).area, 3, m);
}

void shell3_resultants(const double xyz[9], const ShellSection& s, const double d[18],
                       double out[8]) {
  const Shell3Frame f = shell3_frame(xyz);
  double dl[18];
  shell_detail::to_local(f.R, d, dl, 6);
  const Moduli D(s);
  const Gradients g(f);
  const double centroid[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
  MembraneRows m = membrane_rows(f, g, centroid);
  double b[3][18]{}, sh[2][18];
  bending_rows(g, b);
  mid_surface(m, b, s.offset);
  shear_rows(f, 1.0 / 3, 1.0 / 3, sh);
  double e[3] = {0, 0, 0}, k[3] = {0, 0, 0}, q[2] = {0, 0};
  for (int j = 0; j < 18; ++j) {
    for (int i = 0; i < 3; ++i) {
      e[i] += m.m[i][j] * dl[j];
      k[i] += b[i][j] * dl[j];
    }
    for (int i = 0; i < 2; ++i) q[i] += sh[i][j] * dl[j];
  }
  double local[8];
  for (int i = 0; i < 3; ++i) {
    local[i] = D.m[i][0] * e[0] + D.m[i][1] * e[1] + D.m[i][2] * e[2];
    // About the reference surface: M = D k - o N (e is the mid-surface's strain).
    local[3 + i] = D.b[i][0] * k[0] + D.b[i][1] * k[1] + D.b[i][2] * k[2] - s.offset * local[i];
  }
  local[6] = D.s * q[0];
  local[7] = D.s * q[1];
  shell_to_output_axes(f.R, local, out);
}

}  // namespace inertia::fe
