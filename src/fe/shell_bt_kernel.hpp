#pragma once
// The Belytschko-Tsay shell's force (fe/shell_bt.hpp), written once for one element (T = double:
// shell_bt.cpp) and for a batch of elements, one per lane of a GCC vector of doubles
// (shell_bt_batch.cpp). Geo: the reference geometry, its fields of type T (ShellBtReference for
// doubles). Branches that depend on a lane's values (the series of the rotations' maps near zero
// and their closed forms) take the series in every lane and redo, one lane at a time, the lanes
// outside its range. Every function is inlined into its caller, so that a batch's arithmetic is
// compiled for the caller's instruction set. Internal to src/fe.
#include <array>
#include <cmath>
#include <type_traits>

#include "inertia/fe/shell_section.hpp"
#include "rotation_jet.hpp"
#include "shell_elastic_section.hpp"

namespace inertia::fe::shell_bt_kernel {

#define INERTIA_BT_INLINE inline __attribute__((always_inline))

using rotation_jet::series_below;

/// The number of lanes of T and one lane's value (a double is one lane).
template <class V>
constexpr int lanes = sizeof(V) / sizeof(double);
template <class V>
INERTIA_BT_INLINE auto get(const V& v, int l) {
  if constexpr (std::is_arithmetic_v<V>)
    return v;
  else
    return v[l];
}
template <class V>
INERTIA_BT_INLINE void set(V& v, int l, double x) {
  if constexpr (std::is_arithmetic_v<V>)
    v = x;
  else
    v[l] = x;
}
/// Whether every lane of a comparison's result is true.
template <class M>
INERTIA_BT_INLINE bool all_lanes(const M& m) {
  if constexpr (std::is_arithmetic_v<M>) {
    return m != 0;
  } else {
    bool all = true;
    for (int l = 0; l < lanes<M>; ++l) all = all && m[l] != 0;
    return all;
  }
}
template <class T>
INERTIA_BT_INLINE T sqrt_(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::sqrt(x);
  } else {
    T r;
    for (int l = 0; l < lanes<T>; ++l) r[l] = __builtin_sqrt(x[l]);
    return r;
  }
}

/// Node a's local DOF indices: translation i, rotation i.
constexpr int tr(int a, int i) { return 3 * a + i; }
constexpr int rot(int a, int i) { return 12 + 3 * a + i; }

/// The frame (rows e1 e2 e3 into R) and the mean c of the nodes x (4 x 3), and g: |g1|, g2 . e1,
/// g2 . e2 (the frame's spin from the nodes' motion). Returns where a frame exists (true, or a
/// lane mask); elsewhere R, c, g are not finite or meaningless.
template <class T>
INERTIA_BT_INLINE auto frame(const T x[12], T R[9], T c[3], T g[3]) {
  T g1[3], g2[3];
  for (int i = 0; i < 3; ++i) {
    g1[i] = 0.5 * (x[3 + i] + x[6 + i] - x[i] - x[9 + i]);
    g2[i] = 0.5 * (x[6 + i] + x[9 + i] - x[i] - x[3 + i]);
    c[i] = 0.25 * (x[i] + x[3 + i] + x[6 + i] + x[9 + i]);
  }
  const T n[3] = {g1[1] * g2[2] - g1[2] * g2[1], g1[2] * g2[0] - g1[0] * g2[2],
                  g1[0] * g2[1] - g1[1] * g2[0]};
  const T a3 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  const T a1 = g1[0] * g1[0] + g1[1] * g1[1] + g1[2] * g1[2];
  const T a2 = g2[0] * g2[0] + g2[1] * g2[1] + g2[2] * g2[2];
  const auto ok = (a3 > 1e-24 * a1 * a2) & (a3 - a3 == 0.0);  // a3 - a3: 0 where finite
  const T l3 = 1.0 / sqrt_(a3), l1 = 1.0 / sqrt_(a1);
  for (int i = 0; i < 3; ++i) {
    R[6 + i] = n[i] * l3;
    R[i] = g1[i] * l1;
  }
  R[3] = R[7] * R[2] - R[8] * R[1];
  R[4] = R[8] * R[0] - R[6] * R[2];
  R[5] = R[6] * R[1] - R[7] * R[0];
  g[0] = 1.0 / l1;
  g[1] = g2[0] * R[0] + g2[1] * R[1] + g2[2] * R[2];
  g[2] = g2[0] * R[3] + g2[1] * R[4] + g2[2] * R[5];
  return ok;
}

/// The rotation vector of R (rotation_jet::log_rotation's expression and series).
template <class T>
INERTIA_BT_INLINE void log_rotation(const T R[9], T theta[3]) {
  const T v[3] = {(R[7] - R[5]) * 0.5, (R[2] - R[6]) * 0.5, (R[3] - R[1]) * 0.5};
  const T s2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  const T c = (R[0] + R[4] + R[8] - 1.0) * 0.5;
  // asin(s) / s = 1 + s^2/6 + 3 s^4/40 + 5 s^6/112 + 35 s^8/1152 + ...
  T factor = 1.0 + s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112 + s2 * (35.0 / 1152))));
  const auto series = (s2 < series_below) & (c > 0.0);
  if (!all_lanes(series))
    for (int l = 0; l < lanes<T>; ++l)
      if (!get(series, l)) {
        const double s = std::sqrt(get(s2, l));
        set(factor, l, std::atan2(s, get(c, l)) / s);
      }
  for (int i = 0; i < 3; ++i) theta[i] = factor * v[i];
}

/// 1 / (2 k + first)!, k < n.
template <int first, int n>
constexpr std::array<double, n> inverse_factorials() {
  std::array<double, n> out{};
  double f = 1;
  int next = 2;
  for (int k = 0; k < n; ++k) {
    while (next <= 2 * k + first) f *= next++;
    out[static_cast<std::size_t>(k)] = 1 / f;
  }
  return out;
}

/// sum_k (-a2)^k / (2 k + first)!, k < n, by Horner's rule.
template <int first, int n, class T>
INERTIA_BT_INLINE T even_series(const T& a2) {
  static constexpr std::array<double, n> term = inverse_factorials<first, n>();
  T c = T{} + term[n - 1];
  for (int k = n - 2; k >= 0; --k) c = term[static_cast<std::size_t>(k)] - a2 * c;
  return c;
}

/// The range of exp_and_tangent's series: |psi| < pi (their next terms below 1e-16 there).
constexpr double exp_series_below = 9.8696044010893586;  // pi^2

/// Q = exp(psi) (Rodrigues) and T, its left tangent: exp(psi + dpsi) = exp([T dpsi]x) exp(psi)
/// to first order, T = I + c2 [psi]x + c3 [psi]x^2, c2 = (1 - cos a) / a^2, c3 = (a - sin a) /
/// a^3 (both with [psi]x^2 = psi psi^T - a^2 I). c1 = sin a / a, c2 and c3 from their Taylor
/// series for |psi| < pi (so the lanes of a batch share one instruction stream wherever nodes
/// turn less than half a turn), from sin and cos beyond.
template <class T>
INERTIA_BT_INLINE void exp_and_tangent(const T psi[3], T Q[9], T Tn[9]) {
  const T a2 = psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2];
  T c1 = even_series<1, 14>(a2);
  T c2 = even_series<2, 13>(a2);
  T c3 = even_series<3, 13>(a2);
  const auto series = a2 < exp_series_below;
  if (!all_lanes(series))
    for (int l = 0; l < lanes<T>; ++l)
      if (!get(series, l)) {
        const double a2l = get(a2, l), a = std::sqrt(a2l), s1 = std::sin(a) / a;
        set(c1, l, s1);
        set(c2, l, (1 - std::cos(a)) / a2l);
        set(c3, l, (1 - s1) / a2l);
      }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Q[3 * i + j] = c2 * psi[i] * psi[j];
      Tn[3 * i + j] = c3 * psi[i] * psi[j];
    }
  for (int i = 0; i < 3; ++i) {
    Q[4 * i] += 1.0 - c2 * a2;
    Tn[4 * i] += 1.0 - c3 * a2;
  }
  const T w[3] = {c1 * psi[0], c1 * psi[1], c1 * psi[2]};
  const T v[3] = {c2 * psi[0], c2 * psi[1], c2 * psi[2]};
  Q[7] += w[0], Q[5] -= w[0], Q[2] += w[1], Q[6] -= w[1], Q[3] += w[2], Q[1] -= w[2];
  Tn[7] += v[0], Tn[5] -= v[0], Tn[2] += v[1], Tn[6] -= v[1], Tn[3] += v[2], Tn[1] -= v[2];
}

/// The element's corotated state: the local DOFs dl (after the warped nodes' rigid links), the
/// current frame Rr, the exponentials' tangents T (4 x 9), the current nodes in the frame (r:
/// Rr (x_a - c)) and its g (frame()).
template <class T>
struct State {
  T dl[24];
  T Rr[9];
  const T* T_[4];  // into QT
  T r[4][3];
  T g[3];
};

/// The corotated state at d from the reference G (ref, X) and each node's exp(psi) and tangent
/// (QT[a]: 18 values, shell4_bt_node_rotation's). Returns frame()'s mask.
template <class T, class Geo>
INERTIA_BT_INLINE auto corotate(const Geo& ref, const T X[12], const T d[24], const T* const QT[4],
                                State<T>& st) {
  const auto* R0 = ref.R0;  // auto: a batch's fields may be unaligned
  T xc[12], c[3];
  for (int i = 0; i < 12; ++i) xc[i] = X[i] + d[i];
  const auto ok = frame(xc, st.Rr, c, st.g);
  const T* Rr = st.Rr;
  for (int a = 0; a < 4; ++a) {
    T r[3];
    for (int i = 0; i < 3; ++i) r[i] = xc[3 * a + i] - c[i];
    const T x0[3] = {ref.x[a], ref.y[a], ref.h[a]};
    for (int i = 0; i < 3; ++i) {
      st.r[a][i] = Rr[3 * i] * r[0] + Rr[3 * i + 1] * r[1] + Rr[3 * i + 2] * r[2];
      st.dl[tr(a, i)] = st.r[a][i] - x0[i];
    }
    // theta = log(Rr Q R0^T)
    T M[9], P[9];
    const T* Q = QT[a];
    st.T_[a] = Q + 9;
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
  return ok;
}

/// Membrane strains and curvatures at the centre (beta_x = theta_y, beta_y = -theta_x).
template <class T, class Geo>
INERTIA_BT_INLINE void strains(const Geo& g, const T* dl, T ek[6]) {
  for (int i = 0; i < 6; ++i) ek[i] = T{};
  for (int a = 0; a < 4; ++a) {
    const T u = dl[tr(a, 0)], v = dl[tr(a, 1)];
    const T tx = dl[rot(a, 0)], ty = dl[rot(a, 1)];
    ek[0] += g.Nx[a] * u;
    ek[1] += g.Ny[a] * v;
    ek[2] += g.Ny[a] * u + g.Nx[a] * v;
    ek[3] += g.Nx[a] * ty;
    ek[4] -= g.Ny[a] * tx;
    ek[5] += g.Ny[a] * ty - g.Nx[a] * tx;
  }
}

/// The elastic section (shell_elastic_section.hpp): the resultants nm of the generalized strains
/// ek, and the stored energy per area.
template <class T>
INERTIA_BT_INLINE T elastic_section(const ShellSection& e, const T ek[6], T nm[6]) {
  return shell_section_detail::elastic_resultants(e, ek, nm);
}

/// The edges of MITC4's tied shear: (node, node, direction) for A (0, -1) and C (0, 1) along xi,
/// D (-1, 0) and B (1, 0) along eta; each covariant strain is (w_2 - w_1) / 2 + (x_2 - x_1) / 2
/// . (beta_1 + beta_2) / 2.
constexpr int edge_nodes[4][2] = {{0, 1}, {3, 2}, {0, 3}, {1, 2}};

/// The transverse shear's energy and force (added to fl), the centre's shear g0 (2).
template <class T, class Geo>
INERTIA_BT_INLINE T shear(const State<T>& st, const Geo& g, double kGt, T fl[24], T g0[2]) {
  T e[4];  // A, C, D, B
  for (int k = 0; k < 4; ++k) {
    const int a = edge_nodes[k][0], b = edge_nodes[k][1];
    const T dx = g.x[b] - g.x[a], dy = g.y[b] - g.y[a];
    const T bx = st.dl[rot(a, 1)] + st.dl[rot(b, 1)];
    const T by = -(st.dl[rot(a, 0)] + st.dl[rot(b, 0)]);
    e[k] = 0.5 * (st.dl[tr(b, 2)] - st.dl[tr(a, 2)]) + 0.25 * (dx * bx + dy * by);
  }
  const T m1 = 0.5 * (e[0] + e[1]), d1 = 0.5 * (e[1] - e[0]);
  const T m2 = 0.5 * (e[2] + e[3]), d2 = 0.5 * (e[3] - e[2]);
  const auto& inv = g.inv;
  g0[0] = inv[0][0] * m1 + inv[0][1] * m2;
  g0[1] = inv[1][0] * m1 + inv[1][1] * m2;
  const T c1 = inv[0][0] * inv[0][0] + inv[1][0] * inv[1][0];
  const T c2 = inv[0][1] * inv[0][1] + inv[1][1] * inv[1][1];
  const T kA = kGt * g.area;
  const T s1 = kA * (g0[0] * inv[0][0] + g0[1] * inv[1][0]);
  const T s2 = kA * (g0[0] * inv[0][1] + g0[1] * inv[1][1]);
  const T t1 = kA * c1 * d1 / 3, t2 = kA * c2 * d2 / 3;
  const T de[4] = {0.5 * (s1 - t1), 0.5 * (s1 + t1), 0.5 * (s2 - t2), 0.5 * (s2 + t2)};
  for (int k = 0; k < 4; ++k) {
    const int a = edge_nodes[k][0], b = edge_nodes[k][1];
    const T dx = g.x[b] - g.x[a], dy = g.y[b] - g.y[a];
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
template <class T, class Geo>
INERTIA_BT_INLINE void to_global(const Geo& ref, const State<T>& st, T fl[24], T f[24]) {
  T M[3] = {};
  for (int a = 0; a < 4; ++a) {
    fl[rot(a, 1)] -= ref.h[a] * fl[tr(a, 0)];
    fl[rot(a, 0)] += ref.h[a] * fl[tr(a, 1)];
    // m <- J^-T m, J^-T = I + [theta]x / 2 + c [theta]x^2, c = (1 - t / 2 cot(t / 2)) / t^2.
    const T* th = st.dl + rot(a, 0);
    T* m = fl + rot(a, 0);
    const T t2 = th[0] * th[0] + th[1] * th[1] + th[2] * th[2];
    T c = 1.0 / 12 + t2 * (1.0 / 720 + t2 * (1.0 / 30240));
    const auto series = t2 < series_below;
    if (!all_lanes(series))
      for (int l = 0; l < lanes<T>; ++l)
        if (!get(series, l)) {
          const double t2l = get(t2, l), t = std::sqrt(t2l);
          set(c, l, (1 - 0.5 * t / std::tan(0.5 * t)) / t2l);
        }
    const T tm = th[0] * m[0] + th[1] * m[1] + th[2] * m[2];
    const T x[3] = {th[1] * m[2] - th[2] * m[1], th[2] * m[0] - th[0] * m[2],
                    th[0] * m[1] - th[1] * m[0]};
    for (int i = 0; i < 3; ++i) m[i] += 0.5 * x[i] + c * (th[i] * tm - t2 * m[i]);
    const T* r = st.r[a];
    const T* fu = fl + tr(a, 0);
    M[0] += r[1] * fu[2] - r[2] * fu[1] + m[0];
    M[1] += r[2] * fu[0] - r[0] * fu[2] + m[1];
    M[2] += r[0] * fu[1] - r[1] * fu[0] + m[2];
  }
  constexpr double s1[4] = {-0.5, 0.5, 0.5, -0.5}, s2[4] = {-0.5, -0.5, 0.5, 0.5};
  const T inv1 = 1.0 / st.g[0], a1 = st.g[1], b2 = st.g[2];
  const T* Rr = st.Rr;
  for (int a = 0; a < 4; ++a) {
    fl[tr(a, 2)] -= M[0] * (s2[a] / b2 - s1[a] * a1 * inv1 / b2) - M[1] * s1[a] * inv1;
    fl[tr(a, 1)] -= M[2] * s1[a] * inv1;
    T m[3];
    for (int i = 0; i < 3; ++i) {
      f[3 * a + i] = Rr[i] * fl[tr(a, 0)] + Rr[3 + i] * fl[tr(a, 1)] + Rr[6 + i] * fl[tr(a, 2)];
      m[i] = Rr[i] * fl[rot(a, 0)] + Rr[3 + i] * fl[rot(a, 1)] + Rr[6 + i] * fl[rot(a, 2)];
    }
    const T* Tn = st.T_[a];
    for (int i = 0; i < 3; ++i)
      f[12 + 3 * a + i] = Tn[i] * m[0] + Tn[3 + i] * m[1] + Tn[6 + i] * m[2];
  }
}

/// The part of the drilling penalty on each node's theta_z against the element's mean.
constexpr double drilling_stabilization = 0.01;

/// The energies of one evaluation besides the section's.
template <class T>
struct Energies {
  T shear{}, drilling{}, hourglass{};
};

/// The element's force f (global) from its corotated state st and the section's resultants nm
/// at the point (the membrane and bending part, shear, drilling, hourglass); g0: the centre's
/// transverse shear strain (for the resultants).
template <class T, class Geo>
INERTIA_BT_INLINE Energies<T> force(const Geo& g, const State<T>& st, const ShellSection& e,
                                    double hourglass, const T nm[6], T f[24], T g0[2]) {
  const T* dl = st.dl;
  const double t = e.thickness, E = e.youngs_modulus;
  const double G = E / (2 * (1 + e.poissons_ratio));
  const T A = g.area;
  Energies<T> out;
  T fl[24] = {};
  // Membrane and bending: the section at the point.
  for (int a = 0; a < 4; ++a) {
    const T Nx = g.Nx[a] * A, Ny = g.Ny[a] * A;
    fl[tr(a, 0)] += Nx * nm[0] + Ny * nm[2];
    fl[tr(a, 1)] += Ny * nm[1] + Nx * nm[2];
    fl[rot(a, 1)] += Nx * nm[3] + Ny * nm[5];
    fl[rot(a, 0)] -= Ny * nm[4] + Nx * nm[5];
  }
  // Transverse shear.
  const double kGt = e.shear_factor * G * t;
  out.shear = shear(st, g, kGt, fl, g0);
  // Drilling: the centre's theta_z - omega, and 1 % on each theta_z's deviation from the mean.
  const T alpha = e.drilling * G * t * A;
  T omega{}, mean{};
  for (int a = 0; a < 4; ++a) {
    omega += 0.5 * (g.Nx[a] * dl[tr(a, 1)] - g.Ny[a] * dl[tr(a, 0)]);
    mean += 0.25 * dl[rot(a, 2)];
  }
  const T r0 = mean - omega;
  out.drilling = 0.5 * alpha * r0 * r0;
  const T ad = drilling_stabilization * alpha / 4;
  for (int a = 0; a < 4; ++a) {
    const T dev = dl[rot(a, 2)] - mean;
    out.drilling += 0.5 * ad * dev * dev;
    fl[rot(a, 2)] += 0.25 * alpha * r0 + ad * dev;
    fl[tr(a, 0)] += 0.5 * alpha * r0 * g.Ny[a];
    fl[tr(a, 1)] -= 0.5 * alpha * r0 * g.Nx[a];
  }
  // Hourglass: membrane (u', v') and bending (theta_x, theta_y).
  if (hourglass > 0) {
    const auto* gamma = g.gamma;
    T q[4] = {};  // u', v', theta_x, theta_y
    for (int a = 0; a < 4; ++a) {
      q[0] += gamma[a] * dl[tr(a, 0)], q[1] += gamma[a] * dl[tr(a, 1)];
      q[2] += gamma[a] * dl[rot(a, 0)], q[3] += gamma[a] * dl[rot(a, 1)];
    }
    const T km = hourglass * E * t * A * g.bb / 8;
    const T kb = hourglass * E * t * t * t * A * g.bb / 192;
    const T Q[4] = {km * q[0], km * q[1], kb * q[2], kb * q[3]};
    out.hourglass = 0.5 * (Q[0] * q[0] + Q[1] * q[1] + Q[2] * q[2] + Q[3] * q[3]);
    for (int a = 0; a < 4; ++a) {
      fl[tr(a, 0)] += Q[0] * gamma[a], fl[tr(a, 1)] += Q[1] * gamma[a];
      fl[rot(a, 0)] += Q[2] * gamma[a], fl[rot(a, 1)] += Q[3] * gamma[a];
    }
  }
  to_global(g, st, fl, f);
  return out;
}

#undef INERTIA_BT_INLINE

}  // namespace inertia::fe::shell_bt_kernel
