#include "inertia/fe/beam_release.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"

namespace inertia::fe {

void beam_release_transform(const double K[144], unsigned released, double T[144]) {
  std::fill(T, T + 144, 0.0);
  for (int i = 0; i < 12; ++i) T[13 * i] = 1;
  int b[6], nb = 0;
  for (int r = 0; r < 6; ++r)
    if (released & (1u << static_cast<unsigned>(r))) b[nb++] = 6 + r;
  if (nb == 0) return;
  // G = K_bb^-1 K_b (nb x 12) by Cholesky of K_bb (symmetric positive definite).
  double L[36] = {}, G[72];
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j <= i; ++j) {
      double v = K[12 * b[i] + b[j]];
      for (int k = 0; k < j; ++k) v -= L[6 * i + k] * L[6 * j + k];
      if (i == j) {
        if (!(v > 1e-12 * std::abs(K[13 * b[i]])))
          throw SolverError(
              "a beam's released rotations leave a mechanism (its torsion released at both ends)");
        L[6 * i + i] = std::sqrt(v);
      } else {
        L[6 * i + j] = v / L[6 * j + j];
      }
    }
  for (int c = 0; c < 12; ++c) {
    double y[6];
    for (int i = 0; i < nb; ++i) {  // L y = K_bc
      double v = K[12 * b[i] + c];
      for (int k = 0; k < i; ++k) v -= L[6 * i + k] * y[k];
      y[i] = v / L[6 * i + i];
    }
    for (int i = nb - 1; i >= 0; --i) {  // L^T g = y
      double v = y[i];
      for (int k = i + 1; k < nb; ++k) v -= L[6 * k + i] * G[12 * k + c];
      G[12 * i + c] = v / L[6 * i + i];
    }
  }
  for (int i = 0; i < nb; ++i)
    for (int c = 0; c < 12; ++c) T[12 * b[i] + c] -= G[12 * i + c];
  for (int i = 0; i < nb; ++i)
    for (int j = 0; j < nb; ++j) T[12 * b[i] + b[j]] = 0;  // exactly (G_bb = I to rounding)
}

void beam_condense(const double T[144], const double A[144], double out[144]) {
  double AT[144];
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      double v = 0;
      for (int k = 0; k < 12; ++k) v += A[12 * i + k] * T[12 * k + j];
      AT[12 * i + j] = v;
    }
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) {
      double v = 0;
      for (int k = 0; k < 12; ++k) v += T[12 * k + i] * AT[12 * k + j];
      out[12 * i + j] = v;
    }
}

void beam_condense_vector(const double T[144], double f[12]) {
  double g[12];
  for (int i = 0; i < 12; ++i) {
    double v = 0;
    for (int k = 0; k < 12; ++k) v += T[12 * k + i] * f[k];
    g[i] = v;
  }
  std::copy(g, g + 12, f);
}

}  // namespace inertia::fe
