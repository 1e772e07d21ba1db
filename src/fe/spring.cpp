#include "inertia/fe/spring.hpp"

#include <cmath>

#include "inertia/core/error.hpp"

namespace inertia::fe {

namespace {

/// Unit axis and length; throws for a collapsed spring.
double axis(const double* x0, const double* x1, double* n) {
  for (int i = 0; i < 3; ++i) n[i] = x1[i] - x0[i];
  const double l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(l > 0) || !std::isfinite(l))
    throw SolverError("a spring has collapsed to zero length (or its ends are not finite)");
  for (int i = 0; i < 3; ++i) n[i] /= l;
  return l;
}

/// Expands a 3x3 block D into [[D, -D], [-D, D]] (6x6 row-major).
void expand(const double D[3][3], double* K) {
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const double sign = a == b ? 1.0 : -1.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) K[(3 * a + i) * 6 + 3 * b + j] = sign * D[i][j];
    }
}

}  // namespace

double spring_length(const double* x0, const double* x1) {
  double s = 0;
  for (int i = 0; i < 3; ++i) s += (x1[i] - x0[i]) * (x1[i] - x0[i]);
  return std::sqrt(s);
}

void spring_force(const double* x0, const double* x1, double k, double l0, double* f) {
  double n[3];
  const double l = axis(x0, x1, n);
  for (int i = 0; i < 3; ++i) {
    f[3 + i] = k * (l - l0) * n[i];
    f[i] = -f[3 + i];
  }
}

void spring_tangent(const double* x0, const double* x1, double k, double l0, double* K) {
  double n[3];
  const double l = axis(x0, x1, n);
  const double geometric = k * (l - l0) / l;
  double D[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      D[i][j] = k * n[i] * n[j] + geometric * ((i == j ? 1.0 : 0.0) - n[i] * n[j]);
  expand(D, K);
}

void dashpot_force(const double* x0, const double* x1, const double* v0, const double* v1, double c,
                   double* g) {
  double n[3];
  axis(x0, x1, n);
  double rate = 0;
  for (int i = 0; i < 3; ++i) rate += (v1[i] - v0[i]) * n[i];
  for (int i = 0; i < 3; ++i) {
    g[3 + i] = c * rate * n[i];
    g[i] = -g[3 + i];
  }
}

void dashpot_matrix(const double* x0, const double* x1, double c, double* B) {
  double n[3];
  axis(x0, x1, n);
  double D[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) D[i][j] = c * n[i] * n[j];
  expand(D, B);
}

double spring_energy(const double* x0, const double* x1, double k, double l0) {
  const double e = spring_length(x0, x1) - l0;
  return 0.5 * k * e * e;
}

}  // namespace inertia::fe
