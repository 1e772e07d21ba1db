// The one-point Belytschko-Lin-Tsay shell with hourglass control (fe/shell_bt.hpp).
#include "inertia/fe/shell_bt.hpp"

#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/shell.hpp"
#include "rotation_jet.hpp"

namespace inertia::fe {

namespace {

// The series threshold and the rotation vector of a rotation (rotation_jet.hpp).
using rotation_jet::log_rotation;
using rotation_jet::series_below;

/// The part of the drilling penalty on each node's theta_z against the element's mean.
constexpr double drilling_stabilization = 0.01;

/// Node a's local DOF indices: translation i, rotation i.
constexpr int tr(int a, int i) { return 3 * a + i; }
constexpr int rot(int a, int i) { return 12 + 3 * a + i; }

/// The frame (rows e1 e2 e3 into R) and the mean c of the nodes x (4 x 3); false without one.
/// g (if not null): |g1|, g2 . e1, g2 . e2 (the frame's spin from the nodes' motion).
bool frame(const double x[12], double R[9], double c[3], double* g = nullptr) {
  double g1[3], g2[3];
  for (int i = 0; i < 3; ++i) {
    g1[i] = 0.5 * (x[3 + i] + x[6 + i] - x[i] - x[9 + i]);
    g2[i] = 0.5 * (x[6 + i] + x[9 + i] - x[i] - x[3 + i]);
    c[i] = 0.25 * (x[i] + x[3 + i] + x[6 + i] + x[9 + i]);
  }
  const double n[3] = {g1[1] * g2[2] - g1[2] * g2[1], g1[2] * g2[0] - g1[0] * g2[2],
                       g1[0] * g2[1] - g1[1] * g2[0]};
  const double a3 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  const double a1 = g1[0] * g1[0] + g1[1] * g1[1] + g1[2] * g1[2];
  const double a2 = g2[0] * g2[0] + g2[1] * g2[1] + g2[2] * g2[2];
  if (!(a3 > 1e-24 * a1 * a2) || !std::isfinite(a3)) return false;
  const double l3 = 1 / std::sqrt(a3), l1 = 1 / std::sqrt(a1);
  for (int i = 0; i < 3; ++i) {
    R[6 + i] = n[i] * l3;
    R[i] = g1[i] * l1;
  }
  R[3] = R[7] * R[2] - R[8] * R[1];
  R[4] = R[8] * R[0] - R[6] * R[2];
  R[5] = R[6] * R[1] - R[7] * R[0];
  if (g) {
    g[0] = 1 / l1;
    g[1] = g2[0] * R[0] + g2[1] * R[1] + g2[2] * R[2];
    g[2] = g2[0] * R[3] + g2[1] * R[4] + g2[2] * R[5];
  }
  return true;
}

/// Q = exp(psi) (Rodrigues) and T, its left tangent: exp(psi + dpsi) = exp([T dpsi]x) exp(psi)
/// to first order, T = I + c2 [psi]x + c3 [psi]x^2, c2 = (1 - cos a) / a^2, c3 = (a - sin a) /
/// a^3 (both with [psi]x^2 = psi psi^T - a^2 I).
void exp_and_tangent(const double psi[3], double Q[9], double T[9]) {
  const double a2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  double c1, c2, c3;
  if (a2 < series_below) {
    c1 = 1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42));
    c2 = 0.5 - a2 / 24 * (1 - a2 / 30 * (1 - a2 / 56));
    c3 = 1.0 / 6 - a2 / 120 * (1 - a2 / 42 * (1 - a2 / 72));
  } else {
    const double a = std::sqrt(a2);
    c1 = std::sin(a) / a;
    c2 = (1 - std::cos(a)) / a2;
    c3 = (1 - c1) / a2;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Q[3 * i + j] = c2 * psi[i] * psi[j];
      T[3 * i + j] = c3 * psi[i] * psi[j];
    }
  for (int i = 0; i < 3; ++i) {
    Q[4 * i] += 1 - c2 * a2;
    T[4 * i] += 1 - c3 * a2;
  }
  const double w[3] = {c1 * psi[0], c1 * psi[1], c1 * psi[2]};
  const double v[3] = {c2 * psi[0], c2 * psi[1], c2 * psi[2]};
  Q[7] += w[0], Q[5] -= w[0], Q[2] += w[1], Q[6] -= w[1], Q[3] += w[2], Q[1] -= w[2];
  T[7] += v[0], T[5] -= v[0], T[2] += v[1], T[6] -= v[1], T[3] += v[2], T[1] -= v[2];
}

/// The element's corotated state: the local DOFs dl (after the warped nodes' rigid links), the
/// current frame Rr, the exponentials' tangents T (4 x 9), the current nodes in the frame (r:
/// Rr (x_a - c)) and its g (frame()).
struct State {
  double dl[24];
  double Rr[9];
  const double* T[4];  // into QT (given) or own
  double own[4][18];   // exp(psi_a) and T_a where not given
  double r[4][3];
  double g[3];
};

/// QT: each node's exp(psi) and tangent (shell4_bt_node_rotation), or null: computed here.
void corotate(const ShellBtReference& ref, const double X[12], const double d[24],
              const double* const* QT, State& st) {
  const double* R0 = ref.R0;
  double xc[12], c[3];
  for (int i = 0; i < 12; ++i) xc[i] = X[i] + d[i];
  if (!frame(xc, st.Rr, c, st.g))
    throw SolverError(
        "a Belytschko-Tsay shell element has collapsed (its current nodes are collinear or "
        "coincident, or its state is not finite)");
  const double* Rr = st.Rr;
  for (int a = 0; a < 4; ++a) {
    double r[3];
    for (int i = 0; i < 3; ++i) r[i] = xc[3 * a + i] - c[i];
    const double x0[3] = {ref.x[a], ref.y[a], ref.h[a]};
    for (int i = 0; i < 3; ++i) {
      st.r[a][i] = Rr[3 * i] * r[0] + Rr[3 * i + 1] * r[1] + Rr[3 * i + 2] * r[2];
      st.dl[tr(a, i)] = st.r[a][i] - x0[i];
    }
    // theta = log(Rr Q R0^T)
    double M[9], P[9];
    const double* Q;
    if (QT) {
      Q = QT[a];
    } else {
      exp_and_tangent(d + 12 + 3 * a, st.own[a], st.own[a] + 9);
      Q = st.own[a];
    }
    st.T[a] = Q + 9;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        M[3 * i + j] = Rr[3 * i] * Q[j] + Rr[3 * i + 1] * Q[3 + j] + Rr[3 * i + 2] * Q[6 + j];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        P[3 * i + j] =
            M[3 * i] * R0[3 * j] + M[3 * i + 1] * R0[3 * j + 1] + M[3 * i + 2] * R0[3 * j + 2];
    log_rotation(P, st.dl + 12 + 3 * a);
  }
  for (int a = 0; a < 4; ++a) {  // rigid links of warped nodes (shell.hpp): u_p = u - h th_y ...
    st.dl[tr(a, 0)] -= ref.h[a] * st.dl[rot(a, 1)];
    st.dl[tr(a, 1)] += ref.h[a] * st.dl[rot(a, 0)];
  }
}

/// Membrane strains and curvatures at the centre (beta_x = theta_y, beta_y = -theta_x).
void strains(const ShellBtReference& g, const double* dl, double ek[6]) {
  for (int i = 0; i < 6; ++i) ek[i] = 0;
  for (int a = 0; a < 4; ++a) {
    const double u = dl[tr(a, 0)], v = dl[tr(a, 1)];
    const double tx = dl[rot(a, 0)], ty = dl[rot(a, 1)];
    ek[0] += g.Nx[a] * u;
    ek[1] += g.Ny[a] * v;
    ek[2] += g.Ny[a] * u + g.Nx[a] * v;
    ek[3] += g.Nx[a] * ty;
    ek[4] -= g.Ny[a] * tx;
    ek[5] += g.Ny[a] * ty - g.Nx[a] * tx;
  }
}

/// The edges of MITC4's tied shear: (node, node, direction) for A (0, -1) and C (0, 1) along xi,
/// D (-1, 0) and B (1, 0) along eta; each covariant strain is (w_2 - w_1) / 2 + (x_2 - x_1) / 2
/// . (beta_1 + beta_2) / 2.
constexpr int edge_nodes[4][2] = {{0, 1}, {3, 2}, {0, 3}, {1, 2}};

/// The transverse shear's energy and force (added to fl), the centre's shear g0 (2).
double shear(const State& st, const ShellBtReference& g, double kGt, double fl[24], double g0[2]) {
  double e[4];  // A, C, D, B
  for (int k = 0; k < 4; ++k) {
    const int a = edge_nodes[k][0], b = edge_nodes[k][1];
    const double dx = g.x[b] - g.x[a], dy = g.y[b] - g.y[a];
    const double bx = st.dl[rot(a, 1)] + st.dl[rot(b, 1)];
    const double by = -(st.dl[rot(a, 0)] + st.dl[rot(b, 0)]);
    e[k] = 0.5 * (st.dl[tr(b, 2)] - st.dl[tr(a, 2)]) + 0.25 * (dx * bx + dy * by);
  }
  const double m1 = 0.5 * (e[0] + e[1]), d1 = 0.5 * (e[1] - e[0]);
  const double m2 = 0.5 * (e[2] + e[3]), d2 = 0.5 * (e[3] - e[2]);
  const auto& inv = g.inv;
  g0[0] = inv[0][0] * m1 + inv[0][1] * m2;
  g0[1] = inv[1][0] * m1 + inv[1][1] * m2;
  const double c1 = inv[0][0] * inv[0][0] + inv[1][0] * inv[1][0];
  const double c2 = inv[0][1] * inv[0][1] + inv[1][1] * inv[1][1];
  const double kA = kGt * g.area;
  const double s1 = kA * (g0[0] * inv[0][0] + g0[1] * inv[1][0]);
  const double s2 = kA * (g0[0] * inv[0][1] + g0[1] * inv[1][1]);
  const double t1 = kA * c1 * d1 / 3, t2 = kA * c2 * d2 / 3;
  const double de[4] = {0.5 * (s1 - t1), 0.5 * (s1 + t1), 0.5 * (s2 - t2), 0.5 * (s2 + t2)};
  for (int k = 0; k < 4; ++k) {
    const int a = edge_nodes[k][0], b = edge_nodes[k][1];
    const double dx = g.x[b] - g.x[a], dy = g.y[b] - g.y[a];
    fl[tr(a, 2)] -= 0.5 * de[k];
    fl[tr(b, 2)] += 0.5 * de[k];
    for (const int n : {a, b}) {
      fl[rot(n, 1)] += 0.25 * dx * de[k];  // beta_x = theta_y
      fl[rot(n, 0)] -= 0.25 * dy * de[k];  // beta_y = -theta_x
    }
  }
  return 0.5 * kA * (g0[0] * g0[0] + g0[1] * g0[1] + (c1 * d1 * d1 + c2 * d2 * d2) / 3);
}

/// f = B^T fl, B = d dl / dd: the local force fl (conjugate to dl) to the global DOFs. With
/// r_a = Rr (x_a - c) and omega the frame's spin (in its axes), d u'_a = Rr (du_a - dc) - omega x
/// r_a and d theta_a = J(theta_a)^-1 (Rr T(psi_a) dpsi_a - omega), J the left tangent of exp at
/// theta (d exp(theta) = [J d theta]x exp(theta)); the spin from the nodes' motion in the frame's
/// axes, dg1 = sum s1_a dx_a, dg2 = sum s2_a dx_a: omega_1 = (|g1| dg2_z - (g2 . e1) dg1_z) /
/// (|g1| g2 . e2), omega_2 = -dg1_z / |g1|, omega_3 = dg1_y / |g1|. So f_u = Rr^T (fl_u - G^T M),
/// M = sum_a r_a x fl_u,a + m_a the local forces' moment about c, m_a = J^-T fl_theta,a, and
/// f_psi = T^T Rr^T m_a. Before: the warped nodes' links (fl <- W^T fl).
void to_global(const ShellBtReference& ref, const State& st, double fl[24], double f[24]) {
  double M[3] = {};
  for (int a = 0; a < 4; ++a) {
    fl[rot(a, 1)] -= ref.h[a] * fl[tr(a, 0)];
    fl[rot(a, 0)] += ref.h[a] * fl[tr(a, 1)];
    // m <- J^-T m, J^-T = I + [theta]x / 2 + c [theta]x^2, c = (1 - t / 2 cot(t / 2)) / t^2.
    const double* th = st.dl + rot(a, 0);
    double* m = fl + rot(a, 0);
    const double t2 = th[0] * th[0] + th[1] * th[1] + th[2] * th[2];
    double c;
    if (t2 < series_below)
      c = 1.0 / 12 + t2 * (1.0 / 720 + t2 * (1.0 / 30240));
    else {
      const double t = std::sqrt(t2);
      c = (1 - 0.5 * t / std::tan(0.5 * t)) / t2;
    }
    const double tm = th[0] * m[0] + th[1] * m[1] + th[2] * m[2];
    const double x[3] = {th[1] * m[2] - th[2] * m[1], th[2] * m[0] - th[0] * m[2],
                         th[0] * m[1] - th[1] * m[0]};
    for (int i = 0; i < 3; ++i) m[i] += 0.5 * x[i] + c * (th[i] * tm - t2 * m[i]);
    const double* r = st.r[a];
    const double* fu = fl + tr(a, 0);
    M[0] += r[1] * fu[2] - r[2] * fu[1] + m[0];
    M[1] += r[2] * fu[0] - r[0] * fu[2] + m[1];
    M[2] += r[0] * fu[1] - r[1] * fu[0] + m[2];
  }
  constexpr double s1[4] = {-0.5, 0.5, 0.5, -0.5}, s2[4] = {-0.5, -0.5, 0.5, 0.5};
  const double inv1 = 1 / st.g[0], a1 = st.g[1], b2 = st.g[2];
  const double* Rr = st.Rr;
  for (int a = 0; a < 4; ++a) {
    fl[tr(a, 2)] -= M[0] * (s2[a] / b2 - s1[a] * a1 * inv1 / b2) - M[1] * s1[a] * inv1;
    fl[tr(a, 1)] -= M[2] * s1[a] * inv1;
    double m[3];
    for (int i = 0; i < 3; ++i) {
      f[3 * a + i] = Rr[i] * fl[tr(a, 0)] + Rr[3 + i] * fl[tr(a, 1)] + Rr[6 + i] * fl[tr(a, 2)];
      m[i] = Rr[i] * fl[rot(a, 0)] + Rr[3 + i] * fl[rot(a, 1)] + Rr[6 + i] * fl[rot(a, 2)];
    }
    const double* T = st.T[a];
    for (int i = 0; i < 3; ++i) f[12 + 3 * a + i] = T[i] * m[0] + T[3 + i] * m[1] + T[6 + i] * m[2];
  }
}

}  // namespace

int shell4_bt_state_size(const ShellLayers& s) { return shell_layers_state_size(s); }

ShellBtReference shell4_bt_reference(const double X[12]) {
  ShellBtReference ref;
  double C[3];
  if (!frame(X, ref.R0, C))
    throw SolverError("a Belytschko-Tsay shell element has no frame (its nodes are collinear)");
  for (int a = 0; a < 4; ++a) {
    double D[3], x0[3];
    for (int i = 0; i < 3; ++i) D[i] = X[3 * a + i] - C[i];
    for (int i = 0; i < 3; ++i)
      x0[i] = ref.R0[3 * i] * D[0] + ref.R0[3 * i + 1] * D[1] + ref.R0[3 * i + 2] * D[2];
    ref.x[a] = x0[0], ref.y[a] = x0[1], ref.h[a] = x0[2];
  }
  // The flat reference's shape-function derivatives at the centre and its area.
  constexpr double dxi[4] = {-0.25, 0.25, 0.25, -0.25}, deta[4] = {-0.25, -0.25, 0.25, 0.25};
  double J[2][2] = {};
  for (int a = 0; a < 4; ++a) {
    J[0][0] += dxi[a] * ref.x[a], J[0][1] += dxi[a] * ref.y[a];
    J[1][0] += deta[a] * ref.x[a], J[1][1] += deta[a] * ref.y[a];
  }
  const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  ref.area = 4 * det;
  ref.inv[0][0] = J[1][1] / det, ref.inv[0][1] = -J[0][1] / det;
  ref.inv[1][0] = -J[1][0] / det, ref.inv[1][1] = J[0][0] / det;
  for (int a = 0; a < 4; ++a) {
    ref.Nx[a] = ref.inv[0][0] * dxi[a] + ref.inv[0][1] * deta[a];
    ref.Ny[a] = ref.inv[1][0] * dxi[a] + ref.inv[1][1] * deta[a];
  }
  // The hourglass vector, orthogonal to the linear fields, and b . b.
  constexpr double h[4] = {1, -1, 1, -1};
  double hx = 0, hy = 0;
  ref.bb = 0;
  for (int a = 0; a < 4; ++a) {
    hx += h[a] * ref.x[a], hy += h[a] * ref.y[a];
    ref.bb += ref.Nx[a] * ref.Nx[a] + ref.Ny[a] * ref.Ny[a];
  }
  for (int a = 0; a < 4; ++a) ref.gamma[a] = 0.25 * (h[a] - hx * ref.Nx[a] - hy * ref.Ny[a]);
  return ref;
}

void shell4_bt_node_rotation(const double psi[3], double QT[18]) {
  exp_and_tangent(psi, QT, QT + 9);
}

ShellBtResult shell4_bt(const ShellBtReference& g, const double X[12], const ShellLayers& s,
                        double hourglass, const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24], bool resultants,
                        const double* const* QT) {
  const auto need = static_cast<std::size_t>(shell4_bt_state_size(s));
  if (committed.size() < need || trial.size() < need)
    throw InternalError(cat("shell4_bt: state spans of ", committed.size(), " and ", trial.size(),
                            " doubles, need ", need));
  State st;
  corotate(g, X, d, QT, st);
  const double* dl = st.dl;
  const ShellSection& e = s.elastic;
  const double t = e.thickness, E = e.youngs_modulus;
  const double G = E / (2 * (1 + e.poissons_ratio));
  const double A = g.area;
  ShellBtResult out;
  double fl[24] = {};
  // Membrane and bending: the section at the point.
  double ek[6], nm[6];
  strains(g, dl, ek);
  const FiberEnergy section = shell_layers_update(s, ek, committed, trial, nm, nullptr);
  for (int a = 0; a < 4; ++a) {
    const double Nx = g.Nx[a] * A, Ny = g.Ny[a] * A;
    fl[tr(a, 0)] += Nx * nm[0] + Ny * nm[2];
    fl[tr(a, 1)] += Ny * nm[1] + Nx * nm[2];
    fl[rot(a, 1)] += Nx * nm[3] + Ny * nm[5];
    fl[rot(a, 0)] -= Ny * nm[4] + Nx * nm[5];
  }
  // Transverse shear.
  double g0[2];
  const double kGt = e.shear_factor * G * t;
  const double shear_energy = shear(st, g, kGt, fl, g0);
  // Drilling: the centre's theta_z - omega, and 1 % on each theta_z's deviation from the mean.
  const double alpha = e.drilling * G * t * A;
  double omega = 0, mean = 0;
  for (int a = 0; a < 4; ++a) {
    omega += 0.5 * (g.Nx[a] * dl[tr(a, 1)] - g.Ny[a] * dl[tr(a, 0)]);
    mean += 0.25 * dl[rot(a, 2)];
  }
  const double r0 = mean - omega;
  double drilling_energy = 0.5 * alpha * r0 * r0;
  const double ad = drilling_stabilization * alpha / 4;
  for (int a = 0; a < 4; ++a) {
    const double dev = dl[rot(a, 2)] - mean;
    drilling_energy += 0.5 * ad * dev * dev;
    fl[rot(a, 2)] += 0.25 * alpha * r0 + ad * dev;
    fl[tr(a, 0)] += 0.5 * alpha * r0 * g.Ny[a];
    fl[tr(a, 1)] -= 0.5 * alpha * r0 * g.Nx[a];
  }
  // Hourglass: membrane (u', v') and bending (theta_x, theta_y).
  if (hourglass > 0) {
    const double* gamma = g.gamma;
    double q[4] = {};  // u', v', theta_x, theta_y
    for (int a = 0; a < 4; ++a) {
      q[0] += gamma[a] * dl[tr(a, 0)], q[1] += gamma[a] * dl[tr(a, 1)];
      q[2] += gamma[a] * dl[rot(a, 0)], q[3] += gamma[a] * dl[rot(a, 1)];
    }
    const double km = hourglass * E * t * A * g.bb / 8;
    const double kb = hourglass * E * t * t * t * A * g.bb / 192;
    const double Q[4] = {km * q[0], km * q[1], kb * q[2], kb * q[3]};
    out.hourglass = 0.5 * (Q[0] * q[0] + Q[1] * q[1] + Q[2] * q[2] + Q[3] * q[3]);
    for (int a = 0; a < 4; ++a) {
      fl[tr(a, 0)] += Q[0] * gamma[a], fl[tr(a, 1)] += Q[1] * gamma[a];
      fl[rot(a, 0)] += Q[2] * gamma[a], fl[rot(a, 1)] += Q[3] * gamma[a];
    }
  }
  out.energy.stored = A * section.stored + shear_energy + drilling_energy + out.hourglass;
  out.energy.dissipated = A * section.dissipated;
  to_global(g, st, fl, f);
  if (resultants) {
    const double local[8] = {nm[0], nm[1], nm[2], nm[3], nm[4], nm[5], kGt * g0[0], kGt * g0[1]};
    shell_to_output_axes(st.Rr, local, out.resultants);
  }
  return out;
}

ShellBtResult shell4_bt(const double X[12], const ShellLayers& s, double hourglass,
                        const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24]) {
  return shell4_bt(shell4_bt_reference(X), X, s, hourglass, d, committed, trial, f);
}

void shell4_bt_strains(const ShellBtReference& ref, const double X[12], const double d[24],
                       double ek[6], double R[9]) {
  State st;
  corotate(ref, X, d, nullptr, st);
  strains(ref, st.dl, ek);
  for (int i = 0; i < 9; ++i) R[i] = st.Rr[i];
}

}  // namespace inertia::fe
