#pragma once
// Gauss-Legendre and Gauss-Lobatto points on [-1, 1], computed for any count (the fiber beam's
// rule along its axis, beam_fiber.cpp; the shell section's through the thickness,
// shell_section.cpp). Internal to src/fe; set-up, not per step.
#include <cmath>

namespace inertia::fe::gauss_points {

/// Legendre's P_n(x) and its derivative.
inline void legendre(int n, double x, double& p, double& dp) {
  double p0 = 1, p1 = x;
  if (n == 0) {
    p = 1, dp = 0;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1, p1 = p2;
  }
  p = p1;
  dp = n * (x * p1 - p0) / (x * x - 1);
}

/// The weight of point x of an n-point rule: Lobatto 2 / (n (n - 1) P_{n-1}(x)^2) (the ends
/// too), Legendre 2 / ((1 - x^2) P_n'(x)^2).
inline double weight(bool lobatto, int n, double x) {
  double p, dp;
  legendre(lobatto ? n - 1 : n, x, p, dp);
  return lobatto ? 2.0 / (n * (n - 1) * p * p) : 2.0 / ((1 - x * x) * dp * dp);
}

/// Point i (increasing) of the n-point Gauss-Lobatto (lobatto, n >= 2) or Gauss-Legendre rule on
/// [-1, 1] and its weight: the roots of P'_{n-1} between the ends, or of P_n, by Newton from
/// Chebyshev guesses.
inline void point(bool lobatto, int n, int i, double& x, double& w) {
  const double pi = 3.14159265358979323846;
  if (lobatto && (i == 0 || i == n - 1)) {
    x = i == 0 ? -1 : 1;
    w = 2.0 / (n * (n - 1));
    return;
  }
  const int m = lobatto ? n - 1 : n;
  x = lobatto ? -std::cos(pi * i / (n - 1)) : -std::cos(pi * (i + 0.75) / (n + 0.5));
  for (int it = 0; it < 100; ++it) {
    double p, dp;
    legendre(m, x, p, dp);
    double step;
    if (lobatto) {
      // (1 - x^2) P'' = 2 x P' - m (m + 1) P.
      const double ddp = (2 * x * dp - m * (m + 1) * p) / (1 - x * x);
      step = dp / ddp;
    } else {
      step = p / dp;
    }
    x -= step;
    if (std::abs(step) < 1e-16) break;
  }
  w = weight(lobatto, n, x);
}

}  // namespace inertia::fe::gauss_points
