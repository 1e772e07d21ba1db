// The Lagrangian logarithmic strain and its conjugate stresses: see log_strain.hpp.
#include "inertia/fe/log_strain.hpp"

#include <cmath>

#include "inertia/fe/hyperelastic.hpp"

namespace inertia::fe {

namespace {

constexpr int I6[6] = {0, 1, 2, 0, 1, 0};
constexpr int J6[6] = {0, 1, 2, 1, 2, 2};

void full(const double* v, double* m) {
  for (int c = 0; c < 6; ++c) m[3 * I6[c] + J6[c]] = m[3 * J6[c] + I6[c]] = v[c];
}

/// (ln a - ln b) / (a - b), 1 / b at a = b; smooth through a = b (a, b > 0).
double ln_divided(double a, double b) {
  const double x = (a - b) / b;
  return x == 0 ? 1 / b : std::log1p(x) / (x * b);
}

/// Y = A B (3x3, row-major; transposed where ta, tb say).
void multiply(const double* A, bool ta, const double* B, bool tb, double* Y) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k)
        s += (ta ? A[3 * k + i] : A[3 * i + k]) * (tb ? B[3 * j + k] : B[3 * k + j]);
      Y[3 * i + j] = s;
    }
}

/// PP : X for symmetric X (full 3x3 in and out): Q (theta o (Q^T X Q)) Q^T with the weights
/// theta_ij = ln_divided(c_i, c_j).
void apply_pp(const double* Q, const double* c, const double* X, double* Y) {
  double QX[9], Xt[9];
  multiply(Q, true, X, false, QX);
  multiply(QX, false, Q, false, Xt);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Xt[3 * i + j] *= ln_divided(c[i], c[j]);
  multiply(Q, false, Xt, false, QX);
  multiply(QX, false, Q, true, Y);
}

/// PP(C) : T for a symmetric C (full 3x3), T full 3x3.
void pp_of(const double* C, const double* T, double* Y) {
  double w[3], Q[9];
  symmetric_eigen(C, w, Q);
  apply_pp(Q, w, T, Y);
}

}  // namespace

void symmetric_eigen(const double* A, double* w, double* Q) {
  double a[9];
  for (int k = 0; k < 9; ++k) a[k] = A[k], Q[k] = (k % 4 == 0);
  double scale = 0;
  for (int k = 0; k < 9; ++k) scale += a[k] * a[k];
  for (int sweep = 0; sweep < 50; ++sweep) {
    const double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    if (!(off > 1e-34 * scale)) break;  // also stops on NaN
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a[3 * p + q];
        if (apq == 0) continue;
        const double theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double cs = 1 / std::sqrt(t * t + 1), sn = t * cs;
        // a <- G^T a G, Q <- Q G with G the rotation in the (p, q) plane.
        for (int k = 0; k < 3; ++k) {
          const double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = cs * akp - sn * akq;
          a[3 * k + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = cs * apk - sn * aqk;
          a[3 * q + k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const double qkp = Q[3 * k + p], qkq = Q[3 * k + q];
          Q[3 * k + p] = cs * qkp - sn * qkq;
          Q[3 * k + q] = sn * qkp + cs * qkq;
        }
      }
  }
  for (int i = 0; i < 3; ++i) w[i] = a[4 * i];
  for (int i = 0; i < 2; ++i)  // ascending
    for (int j = i + 1; j < 3; ++j)
      if (w[j] < w[i]) {
        std::swap(w[i], w[j]);
        for (int k = 0; k < 3; ++k) std::swap(Q[3 * k + i], Q[3 * k + j]);
      }
}

void log_strain(const double* F, LogStrain& k) {
  for (int i = 0; i < 9; ++i) k.F[i] = F[i];
  k.J = F[0] * (F[4] * F[8] - F[5] * F[7]) - F[1] * (F[3] * F[8] - F[5] * F[6]) +
        F[2] * (F[3] * F[7] - F[4] * F[6]);
  if (!(k.J > 0)) throw InvertedElement(k.J);
  multiply(F, true, F, false, k.C);
  symmetric_eigen(k.C, k.c, k.Q);
  double E[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int m = 0; m < 3; ++m) s += k.Q[3 * i + m] * 0.5 * std::log(k.c[m]) * k.Q[3 * j + m];
      E[3 * i + j] = s;
    }
  for (int c = 0; c < 6; ++c) k.E[c] = E[3 * I6[c] + J6[c]];
}

void log_strain_pullback(const LogStrain& k, const double* T, double* S) {
  double Tf[9], Sf[9];
  full(T, Tf);
  apply_pp(k.Q, k.c, Tf, Sf);
  for (int c = 0; c < 6; ++c) S[c] = Sf[3 * I6[c] + J6[c]];
}

void log_strain_stress(const LogStrain& k, const double* T, const double* dTdE, double* P,
                       double* A) {
  double Tf[9], S[9];
  full(T, Tf);
  apply_pp(k.Q, k.c, Tf, S);
  const double* F = k.F;
  multiply(F, false, S, false, P);
  if (!A) return;
  // The derivative of C -> PP(C) : T at fixed T along the six symmetric unit directions D_mn
  // (D_mm = e_m e_m^T; D_mn = e_m e_n^T + e_n e_m^T), by central differences.
  const double* C = k.C;
  const double h = 1e-5 * k.c[0];
  double dG[6][9];
  for (int d = 0; d < 6; ++d) {
    double Cp[9], Cm[9], Gp[9], Gm[9];
    for (int m = 0; m < 9; ++m) Cp[m] = Cm[m] = C[m];
    const int a = I6[d], b = J6[d];
    Cp[3 * a + b] += h, Cm[3 * a + b] -= h;
    if (a != b) Cp[3 * b + a] += h, Cm[3 * b + a] -= h;
    pp_of(Cp, Tf, Gp);
    pp_of(Cm, Tf, Gm);
    for (int m = 0; m < 9; ++m) dG[d][m] = (Gp[m] - Gm[m]) / (2 * h);
  }
  for (int kk = 0; kk < 3; ++kk)
    for (int L = 0; L < 3; ++L) {
      // dF = e_k e_L^T: dC_MN = d_ML F_kN + F_kM d_NL.
      double dC[9];
      for (int M = 0; M < 3; ++M)
        for (int N = 0; N < 3; ++N)
          dC[3 * M + N] = (M == L ? F[3 * kk + N] : 0.0) + (N == L ? F[3 * kk + M] : 0.0);
      double dE[9], half[9];
      for (int m = 0; m < 9; ++m) half[m] = 0.5 * dC[m];
      apply_pp(k.Q, k.c, half, dE);
      double dT[9];
      for (int ij = 0; ij < 9; ++ij) {
        double s = 0;
        for (int m = 0; m < 9; ++m) s += dTdE[ij * 9 + m] * dE[m];
        dT[ij] = s;
      }
      double dS[9];
      apply_pp(k.Q, k.c, dT, dS);
      for (int d = 0; d < 6; ++d) {
        const double coefficient = dC[3 * I6[d] + J6[d]];
        if (coefficient != 0)
          for (int m = 0; m < 9; ++m) dS[m] += coefficient * dG[d][m];
      }
      // dP = dF S + F dS
      for (int i = 0; i < 3; ++i)
        for (int J = 0; J < 3; ++J) {
          double s = i == kk ? S[3 * L + J] : 0.0;
          for (int M = 0; M < 3; ++M) s += F[3 * i + M] * dS[3 * M + J];
          A[(3 * i + J) * 9 + 3 * kk + L] = s;
        }
    }
}

void cauchy_from_pk1(const LogStrain& k, const double* P, double* sigma) {
  for (int c = 0; c < 6; ++c) {
    const int i = I6[c], j = J6[c];
    double s = 0;
    for (int M = 0; M < 3; ++M)
      s += 0.5 * (P[3 * i + M] * k.F[3 * j + M] + P[3 * j + M] * k.F[3 * i + M]);
    sigma[c] = s / k.J;
  }
}

}  // namespace inertia::fe
