#pragma once
// Small helpers the element unit tests share (fe_shell*, fe_beam_corotational): a rotation
// matrix from an axis and an angle, the largest entry and difference of two arrays, and a fixed
// pseudo-random vector, and a plastic shell section.
#include <algorithm>
#include <array>
#include <cmath>

#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/shell_section.hpp"

namespace inertia::testing {

/// The rotation by angle t about the axis a (normalized here), row-major 3 x 3 (Rodrigues).
inline std::array<double, 9> rotation(std::array<double, 3> a, double t) {
  const double n = std::hypot(a[0], a[1], a[2]);
  for (double& v : a) v /= n;
  const double c = std::cos(t), s = std::sin(t), C = 1 - c;
  return {c + a[0] * a[0] * C,        a[0] * a[1] * C - a[2] * s, a[0] * a[2] * C + a[1] * s,
          a[1] * a[0] * C + a[2] * s, c + a[1] * a[1] * C,        a[1] * a[2] * C - a[0] * s,
          a[2] * a[0] * C - a[1] * s, a[2] * a[1] * C + a[0] * s, c + a[2] * a[2] * C};
}

/// max |a_i| over n values.
inline double max_abs(const double* a, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::abs(a[i]));
  return m;
}

/// max |a_i - b_i| over n values.
inline double max_diff(const double* a, const double* b, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

/// A fixed pseudo-random vector of 24 values in [-1, 1] (a quadrilateral shell's DOFs).
inline std::array<double, 24> pattern(int seed) {
  std::array<double, 24> v{};
  unsigned s = 12345u + 977u * static_cast<unsigned>(seed);
  for (double& x : v) {
    s = s * 1103515245u + 12345u;
    x = static_cast<double>((s >> 8) % 20001) / 10000.0 - 1.0;
  }
  return v;
}

/// Section s made plastic: J2 at 5 Simpson points through the thickness, sigma_y 200 MPa, linear
/// isotropic hardening 1 GPa, with the elastic constants of s.
inline fe::ShellLayers simpson_j2(fe::ShellLayers s) {
  s.plastic = true;
  s.rule = fe::ShellLayers::Rule::simpson;
  s.points = 5;
  s.j2.yield_stress = 2e8;
  s.j2.isotropic_modulus = 1e9;
  s.j2.lame = fe::lame_from_young_poisson(s.elastic.youngs_modulus, s.elastic.poissons_ratio);
  return s;
}

}  // namespace inertia::testing
