#pragma once
// Forward differentiation to second order (Jet) and the rotation maps written once for doubles
// and Jets: the Rodrigues exponential and its logarithm (with their series near zero). Shared by
// the corotational beam (beam_corotational.cpp) and shell (shell_nonlinear.cpp, shell_bt.cpp).
// Internal to src/fe.
#include <cmath>

namespace inertia::fe::rotation_jet {

// ---------------------------------------------------------------------------------------------
// Forward differentiation: a value with its gradient (and, when Hess, its Hessian, packed upper
// triangle i <= j) with respect to N variables (the corotational beam's 12 DOFs; the corotational
// shell's 15 of one node's kinematics, 12 of its frame, 3 of a rotation vector, 9 of a rotation
// matrix).

template <int N, bool Hess>
struct Jet {
  static constexpr int nh = Hess ? N * (N + 1) / 2 : 1;
  double v = 0;
  double g[N] = {};
  double h[nh] = {};
};

inline double value(double a) { return a; }
template <int N, bool H>
double value(const Jet<N, H>& a) {
  return a.v;
}

/// f(a) with f' = f1, f'' = f2.
template <int N, bool H>
Jet<N, H> unary(const Jet<N, H>& a, double f, double f1, double f2) {
  Jet<N, H> r;
  r.v = f;
  for (int i = 0; i < N; ++i) r.g[i] = f1 * a.g[i];
  if constexpr (H) {
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i; j < N; ++j, ++k) r.h[k] = f1 * a.h[k] + f2 * a.g[i] * a.g[j];
  }
  return r;
}

/// f(a, b) with its first (fa, fb) and second (faa, fab, fbb) partial derivatives.
template <int N, bool H>
Jet<N, H> binary(const Jet<N, H>& a, const Jet<N, H>& b, double f, double fa, double fb, double faa,
                 double fab, double fbb) {
  Jet<N, H> r;
  r.v = f;
  for (int i = 0; i < N; ++i) r.g[i] = fa * a.g[i] + fb * b.g[i];
  if constexpr (H) {
    int k = 0;
    for (int i = 0; i < N; ++i)
      for (int j = i; j < N; ++j, ++k)
        r.h[k] = fa * a.h[k] + fb * b.h[k] + faa * a.g[i] * a.g[j] + fbb * b.g[i] * b.g[j] +
                 fab * (a.g[i] * b.g[j] + a.g[j] * b.g[i]);
  }
  return r;
}

/// ca a + cb b (linear: no second-order products).
template <int N, bool H>
Jet<N, H> combine(const Jet<N, H>& a, double ca, const Jet<N, H>& b, double cb) {
  Jet<N, H> r;
  r.v = ca * a.v + cb * b.v;
  for (int i = 0; i < N; ++i) r.g[i] = ca * a.g[i] + cb * b.g[i];
  if constexpr (H)
    for (int k = 0; k < (Jet<N, H>::nh); ++k) r.h[k] = ca * a.h[k] + cb * b.h[k];
  return r;
}

template <int N, bool H>
Jet<N, H> operator+(const Jet<N, H>& a, const Jet<N, H>& b) {
  return combine(a, 1.0, b, 1.0);
}
template <int N, bool H>
Jet<N, H> operator-(const Jet<N, H>& a, const Jet<N, H>& b) {
  return combine(a, 1.0, b, -1.0);
}
template <int N, bool H>
Jet<N, H> operator*(const Jet<N, H>& a, const Jet<N, H>& b) {
  return binary(a, b, a.v * b.v, b.v, a.v, 0.0, 1.0, 0.0);
}
template <int N, bool H>
Jet<N, H> operator/(const Jet<N, H>& a, const Jet<N, H>& b) {
  const double ib = 1 / b.v;
  return binary(a, b, a.v * ib, ib, -a.v * ib * ib, 0.0, -ib * ib, 2 * a.v * ib * ib * ib);
}
template <int N, bool H>
Jet<N, H> operator*(const Jet<N, H>& a, double c) {
  return unary(a, a.v * c, c, 0.0);
}
template <int N, bool H>
Jet<N, H> operator*(double c, const Jet<N, H>& a) {
  return unary(a, a.v * c, c, 0.0);
}
template <int N, bool H>
Jet<N, H> operator+(const Jet<N, H>& a, double c) {
  Jet<N, H> r = a;
  r.v += c;
  return r;
}
template <int N, bool H>
Jet<N, H> operator+(double c, const Jet<N, H>& a) {
  return a + c;
}
template <int N, bool H>
Jet<N, H> operator-(double c, const Jet<N, H>& a) {
  return unary(a, c - a.v, -1.0, 0.0);
}
template <int N, bool H>
Jet<N, H> operator-(const Jet<N, H>& a, double c) {
  return a + (-c);
}

inline double sqrt_(double a) { return std::sqrt(a); }
inline double sin_(double a) { return std::sin(a); }
inline double cos_(double a) { return std::cos(a); }
inline double atan2_(double y, double x) { return std::atan2(y, x); }
template <int N, bool H>
Jet<N, H> sqrt_(const Jet<N, H>& a) {
  const double s = std::sqrt(a.v);
  return unary(a, s, 0.5 / s, -0.25 / (s * a.v));
}
template <int N, bool H>
Jet<N, H> sin_(const Jet<N, H>& a) {
  const double s = std::sin(a.v);
  return unary(a, s, std::cos(a.v), -s);
}
template <int N, bool H>
Jet<N, H> cos_(const Jet<N, H>& a) {
  const double c = std::cos(a.v);
  return unary(a, c, -std::sin(a.v), -c);
}
template <int N, bool H>
Jet<N, H> atan2_(const Jet<N, H>& y, const Jet<N, H>& x) {
  const double r2 = x.v * x.v + y.v * y.v, r4 = r2 * r2;
  return binary(y, x, std::atan2(y.v, x.v), x.v / r2, -y.v / r2, -2 * x.v * y.v / r4,
                (y.v * y.v - x.v * x.v) / r4, 2 * x.v * y.v / r4);
}

template <class S>
S dot3(const S a[3], const S b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

template <class S>
void cross3(const S a[3], const S b[3], S c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/// Below this a^2 (a = |psi|) or s^2 (s = sin of the angle) the series are used (the first
/// omitted terms below 1e-20).
constexpr double series_below = 1e-4;

/// The Rodrigues exponential, R = (1 - c2 a^2) I + c1 [psi]x + c2 psi psi^T, c1 = sin a / a,
/// c2 = (1 - cos a) / a^2 (the same expression as rotation_from_vector's).
template <class S>
void exp_rotation(const S psi[3], S R[9]) {
  const S a2 = dot3(psi, psi);
  S c1, c2;
  if (value(a2) < series_below) {
    c1 = 1.0 - a2 * (1.0 / 6) * (1.0 - a2 * (1.0 / 20) * (1.0 - a2 * (1.0 / 42)));
    c2 = 0.5 - a2 * (1.0 / 24) * (1.0 - a2 * (1.0 / 30) * (1.0 - a2 * (1.0 / 56)));
  } else {
    const S a = sqrt_(a2);
    c1 = sin_(a) / a;
    c2 = (1.0 - cos_(a)) / a2;
  }
  const S diag = 1.0 - c2 * a2;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[3 * i + j] = c2 * (psi[i] * psi[j]);
  for (int i = 0; i < 3; ++i) R[4 * i] = R[4 * i] + diag;
  const S w[3] = {c1 * psi[0], c1 * psi[1], c1 * psi[2]};
  R[7] = R[7] + w[0];
  R[5] = R[5] - w[0];
  R[2] = R[2] + w[1];
  R[6] = R[6] - w[1];
  R[3] = R[3] + w[2];
  R[1] = R[1] - w[2];
}

/// The rotation vector of R (|theta| < pi): theta = t / sin t v, v the axial vector of
/// (R - R^T) / 2 (|v| = sin t), cos t = (tr R - 1) / 2.
template <class S>
void log_rotation(const S R[9], S theta[3]) {
  const S v[3] = {(R[7] - R[5]) * 0.5, (R[2] - R[6]) * 0.5, (R[3] - R[1]) * 0.5};
  const S s2 = dot3(v, v);
  const S c = (R[0] + R[4] + R[8] - 1.0) * 0.5;
  S factor;
  if (value(s2) < series_below && value(c) > 0) {
    // asin(s) / s = 1 + s^2/6 + 3 s^4/40 + 5 s^6/112 + 35 s^8/1152 + ...
    factor = 1.0 + s2 * (1.0 / 6 + s2 * (3.0 / 40 + s2 * (5.0 / 112 + s2 * (35.0 / 1152))));
  } else {
    const S s = sqrt_(s2);
    factor = atan2_(s, c) / s;
  }
  for (int i = 0; i < 3; ++i) theta[i] = factor * v[i];
}

}  // namespace inertia::fe::rotation_jet
