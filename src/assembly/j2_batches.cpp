// J2 hexahedra in batches of 8 cells: see j2_batches.hpp.
#include "inertia/assembly/j2_batches.hpp"

#include <algorithm>
#include <cmath>

#include "hex_simd.hpp"
#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"
#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/log_strain.hpp"

namespace inertia {

namespace {

using namespace simd;

constexpr int NC = fe::J2State::with_history;  // values per point
constexpr int full_values = 10 * hex_points;   // per point: J^-1 / 8, w det J
constexpr int bbar_values = full_values + 24;  // and the mean gradients
constexpr int reduced_values = 24 + 1 + 32;    // b, V, sqrt(C) gamma

/// What one call of a batch loop reads and writes.
struct Run {
  std::int64_t batches = 0, cells = 0;
  const std::int32_t* nodes = nullptr;
  const double* data = nullptr;
  const std::uint8_t* point_of = nullptr;
  const double* u = nullptr;
  double* f = nullptr;
  const double* committed = nullptr;
  double* trial = nullptr;
  int stride = 0;
  fe::J2Parameters p;
  double s = 0, s2 = 0;                ///< the Gauss coordinate and its square
  const std::uint8_t* gone = nullptr;  ///< per row: eroded (null: none)
  std::int64_t failed = -1;
  std::string why;
};

/// The lanes of the batch being evaluated that failed (inverted): they add no force.
struct Dropped {
  bool lane[8] = {};
};

/// r = the lanes' square roots of x (out-parameters: no 64-byte vector crosses a call).
INERTIA_MF_INLINE void vsqrt(const v8d& x, v8d& r) {
  for (int l = 0; l < W; ++l) r[l] = __builtin_sqrt(x[l]);
}

typedef long long v8di __attribute__((vector_size(64)));

/// out[k][l] = in[l][k]: an 8 x 8 transpose in three rounds of two-register shuffles (AVX-512:
/// one vpermt2pd each).
INERTIA_MF_INLINE void transpose8(const v8d* in, v8d* out) {
  constexpr v8di lo1 = {0, 8, 2, 10, 4, 12, 6, 14}, hi1 = {1, 9, 3, 11, 5, 13, 7, 15};
  constexpr v8di lo2 = {0, 1, 8, 9, 4, 5, 12, 13}, hi2 = {2, 3, 10, 11, 6, 7, 14, 15};
  constexpr v8di lo4 = {0, 1, 2, 3, 8, 9, 10, 11}, hi4 = {4, 5, 6, 7, 12, 13, 14, 15};
  v8d a[8], b[8];
  for (int k = 0; k < 4; ++k) {
    a[2 * k] = __builtin_shuffle(in[2 * k], in[2 * k + 1], lo1);
    a[2 * k + 1] = __builtin_shuffle(in[2 * k], in[2 * k + 1], hi1);
  }
  for (int h = 0; h < 2; ++h)
    for (int k = 0; k < 2; ++k) {
      b[4 * h + k] = __builtin_shuffle(a[4 * h + k], a[4 * h + k + 2], lo2);
      b[4 * h + k + 2] = __builtin_shuffle(a[4 * h + k], a[4 * h + k + 2], hi2);
    }
  for (int k = 0; k < 4; ++k) {
    out[k] = __builtin_shuffle(b[k], b[k + 4], lo4);
    out[k + 4] = __builtin_shuffle(b[k], b[k + 4], hi4);
  }
}

/// The free energy j2_free_energy(p, eps, state) of linear hardening on all lanes.
INERTIA_MF_INLINE void free_energy(const v8d* eps, const v8d* ep, const v8d& alpha, const v8d* beta,
                                   double mu, double kappa, double H, double Hk, v8d& energy) {
  const v8d tr = eps[0] + eps[1] + eps[2];
  v8d e[6];
  for (int c = 0; c < 6; ++c) e[c] = eps[c] - (c < 3 ? tr / 3.0 : v8d{}) - ep[c];
  v8d ee =
      e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + 2.0 * (e[3] * e[3] + e[4] * e[4] + e[5] * e[5]);
  energy = 0.5 * kappa * tr * tr + mu * ee + 0.5 * H * alpha * alpha;
  if (Hk > 0)
    energy += 0.75 / Hk *
              (beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2] +
               2.0 * (beta[3] * beta[3] + beta[4] * beta[4] + beta[5] * beta[5]));
}

/// The small-strain material point with linear hardening and no rate factor on all lanes:
/// fe::j2_point_update's radial return and history (J2State) from committed c into t, the
/// stress into sigma.
INERTIA_MF_INLINE void point_simd(const fe::J2Parameters& p, const v8d* eps, const v8d* c, v8d* t,
                                  v8d* sigma) {
  using S = fe::J2State;
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double H = p.isotropic_modulus, Hk = p.kinematic_modulus, sy = p.yield_stress;
  const double r23 = std::sqrt(2.0 / 3.0);
  const v8d tr = eps[0] + eps[1] + eps[2];
  const v8d* ep = c + S::plastic_strain;
  const v8d* beta = c + S::back_stress;
  const v8d alpha = c[S::equivalent_plastic_strain];
  v8d s[6], xi[6];
  for (int k = 0; k < 6; ++k) {
    s[k] = 2.0 * mu * (eps[k] - (k < 3 ? tr / 3.0 : v8d{}) - ep[k]);
    xi[k] = s[k] - beta[k];
  }
  v8d norm;
  vsqrt(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2] +
            2.0 * (xi[3] * xi[3] + xi[4] * xi[4] + xi[5] * xi[5]),
        norm);
  const v8d f = norm - r23 * (sy + H * alpha);
  const v8d zero{};
  const v8d dgamma = f > zero ? f / (2.0 * mu + 2.0 / 3.0 * (H + Hk)) : zero;
  const v8d scale = dgamma > zero ? dgamma / norm : zero;  // dgamma n = scale xi
  for (int k = 0; k < 6; ++k) {
    const v8d dn = scale * xi[k];
    s[k] -= 2.0 * mu * dn;
    t[S::plastic_strain + k] = ep[k] + dn;
    t[S::back_stress + k] = beta[k] + 2.0 / 3.0 * Hk * dn;
    sigma[k] = s[k] + (k < 3 ? kappa * tr : zero);
  }
  const v8d alpha1 = alpha + r23 * dgamma;
  t[S::equivalent_plastic_strain] = alpha1;
  // History: the state's strain and stress, time and rate, dissipation and work error.
  v8d psi, psi0;
  free_energy(eps, t + S::plastic_strain, alpha1, t + S::back_stress, mu, kappa, H, Hk, psi);
  const v8d* e0 = c + S::strain;
  free_energy(e0, ep, alpha, beta, mu, kappa, H, Hk, psi0);
  const v8d tr0 = e0[0] + e0[1] + e0[2];
  v8d work = zero;
  for (int k = 0; k < 6; ++k) {
    const v8d s0 =
        2.0 * mu * (e0[k] - (k < 3 ? tr0 / 3.0 : zero) - ep[k]) + (k < 3 ? kappa * tr0 : zero);
    work += (k < 3 ? 0.5 : 1.0) * (s0 + sigma[k]) * (eps[k] - e0[k]);
  }
  const v8d d_alpha = alpha1 - alpha;
  const v8d dissipated = d_alpha > zero ? d_alpha * sy : zero;
  t[S::dissipation] = c[S::dissipation] + dissipated;
  t[S::work_error] = c[S::work_error] + work - (psi - psi0) - dissipated;
  for (int k = 0; k < 6; ++k) t[S::strain + k] = eps[k], t[S::stress + k] = sigma[k];
  const v8d dt = p.time - c[S::time];
  t[S::time] = v8d{} + p.time;
  t[S::rate] = dt > zero ? d_alpha / dt : c[S::rate];
}

// ---- the Lagrangian log strain on all lanes (fe/log_strain.hpp's route, vectorised) --------

/// out = ln x for x > 0 (normal numbers): x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m =
/// 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, by its series to s^25 (relative error
/// below 1e-16), e ln 2 in two parts.
INERTIA_MF_INLINE void vlog(const v8d& x, v8d& out) {
  const v8di bits = (v8di)x;
  v8di e = ((bits >> 52) & 0x7ff) - 1023;
  v8d m = (v8d)((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);  // [1, 2)
  const v8di big = m > 1.4142135623730951;
  m = big ? 0.5 * m : m;
  e = big ? e + 1 : e;
  const v8d s = (m - 1.0) / (m + 1.0), s2 = s * s;
  v8d series = v8d{} + 1.0 / 25;
  for (int k = 11; k >= 0; --k) series = series * s2 + 1.0 / (2 * k + 1);
  const v8d ef = __builtin_convertvector(e, v8d);
  out = ef * 6.93147180369123816490e-01 + (ef * 1.90821492927058770002e-10 + 2.0 * s * series);
}

/// (ln a - ln b) / (a - b) for a, b > 0 (1 / a at a = b), without cancellation: with
/// s = (a - b) / (a + b) it is 2 / (a + b) (1 + s^2 / 3 + s^4 / 5 + ...), summed where
/// |s| < 0.2 (to s^22), the quotient of the logarithms elsewhere.
INERTIA_MF_INLINE void ln_divided(const v8d& a, const v8d& b, const v8d& la, const v8d& lb,
                                  v8d& out) {
  const v8d s = (a - b) / (a + b), s2 = s * s;
  v8d series = v8d{} + 1.0 / 23;
  for (int k = 10; k >= 0; --k) series = series * s2 + 1.0 / (2 * k + 1);
  const v8d near = 2.0 / (a + b) * series;
  const v8d far = (la - lb) / (a - b);
  out = s2 < 0.04 ? near : far;
}

/// out = e^t (|t| < 700): t = k ln 2 + x, |x| <= ln 2 / 2, e^x by its series to x^13 (relative
/// error below 1e-17), 2^k from its bits.
INERTIA_MF_INLINE void vexp(const v8d& t, v8d& out) {
  const v8d kf = t * 1.4426950408889634;
  const v8di k = __builtin_convertvector(kf + (kf >= 0.0 ? v8d{} + 0.5 : v8d{} - 0.5), v8di);
  const v8d kd = __builtin_convertvector(k, v8d);
  const v8d x = (t - kd * 6.93147180369123816490e-01) - kd * 1.90821492927058770002e-10;
  double factorial = 1;
  for (int n = 2; n <= 13; ++n) factorial *= n;
  v8d series = v8d{} + 1.0 / factorial;
  for (int n = 12; n >= 0; --n) {
    factorial /= (n + 1);
    series = series * x + 1.0 / factorial;
  }
  out = series * (v8d)((k + 1023) << 52);
}

/// det M and M^-T (the cofactors over det M) of 3x3 M.
INERTIA_MF_INLINE void inverse_transpose(const v8d (*M)[3], v8d& det, v8d (*out)[3]) {
  v8d cof[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      cof[i][j] = M[i1][j1] * M[i2][j2] - M[i1][j2] * M[i2][j1];
    }
  det = M[0][0] * cof[0][0] + M[0][1] * cof[0][1] + M[0][2] * cof[0][2];
  const v8d inv = 1.0 / det;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[i][j] = cof[i][j] * inv;
}

/// What the log strain of F keeps: F, det F, C's eigenvectors Q (columns) and eigenvalues c,
/// their logarithms, and E = 1/2 ln C (VTK order).
struct LogKinematics {
  v8d F[3][3], J, Q[3][3], c[3], lnc[3], E[6];
};

/// The eigenvalues and eigenvectors of the symmetric C (fe::symmetric_eigen's cyclic Jacobi
/// rotations, every lane taking the sweeps the slowest one needs).
INERTIA_MF_INLINE void eigen_simd(const v8d (*C)[3], v8d (*Q)[3], v8d* w) {
  v8d a[3][3];
  v8d scale{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      a[i][j] = C[i][j], Q[i][j] = v8d{} + (i == j ? 1.0 : 0.0), scale += C[i][j] * C[i][j];
  const v8d zero{};
  for (int sweep = 0; sweep < 50; ++sweep) {
    const v8d off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const v8di more = off > 1e-34 * scale;  // also false on NaN
    bool any = false;
    for (int l = 0; l < W; ++l) any = any || more[l];
    if (!any) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const v8d apq = a[p][q];
        const v8di nz = apq != zero;
        const v8d theta = nz ? (a[q][q] - a[p][p]) / (2.0 * apq) : zero;
        v8d root;
        vsqrt(theta * theta + 1.0, root);
        const v8d sign = theta >= zero ? v8d{} + 1.0 : v8d{} - 1.0;
        const v8d t = nz ? sign / ((theta >= zero ? theta : -theta) + root) : zero;
        v8d cs;
        vsqrt(t * t + 1.0, cs);
        cs = 1.0 / cs;
        const v8d sn = t * cs;
        for (int k = 0; k < 3; ++k) {
          const v8d akp = a[k][p], akq = a[k][q];
          a[k][p] = cs * akp - sn * akq;
          a[k][q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const v8d apk = a[p][k], aqk = a[q][k];
          a[p][k] = cs * apk - sn * aqk;
          a[q][k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const v8d qkp = Q[k][p], qkq = Q[k][q];
          Q[k][p] = cs * qkp - sn * qkq;
          Q[k][q] = sn * qkp + cs * qkq;
        }
      }
  }
  for (int i = 0; i < 3; ++i) w[i] = a[i][i];
}

/// F = I + H, J, C = F^T F, its eigen-decomposition and E = Q diag(1/2 ln c) Q^T (lanes with
/// J <= 0 carry NaN or nonsense: the caller drops them).
INERTIA_MF_INLINE void log_strain_simd(const v8d (*H)[3], LogKinematics& k) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) k.F[i][j] = H[i][j] + (i == j ? 1.0 : 0.0);
  const auto& F = k.F;
  k.J = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) -
        F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
        F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
  v8d C[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      C[i][j] = F[0][i] * F[0][j] + F[1][i] * F[1][j] + F[2][i] * F[2][j];
      C[j][i] = C[i][j];
    }
  eigen_simd(C, k.Q, k.c);
  for (int m = 0; m < 3; ++m) vlog(k.c[m], k.lnc[m]);
  constexpr int I6[6] = {0, 1, 2, 0, 1, 0}, J6[6] = {0, 1, 2, 1, 2, 2};
  for (int v = 0; v < 6; ++v) {
    const int i = I6[v], j = J6[v];
    k.E[v] = 0.5 * (k.Q[i][0] * k.lnc[0] * k.Q[j][0] + k.Q[i][1] * k.lnc[1] * k.Q[j][1] +
                    k.Q[i][2] * k.lnc[2] * k.Q[j][2]);
  }
}

/// P = F (PP : T) for the stress T conjugate to E (VTK order; fe::log_strain_stress without
/// the tangent), and the Cauchy stress sym(P F^T) / J into cauchy (VTK order).
INERTIA_MF_INLINE void log_strain_stress_simd(const LogKinematics& k, const v8d* T, v8d (*P)[3],
                                              v8d* cauchy) {
  const int I[9] = {0, 3, 5, 3, 1, 4, 5, 4, 2};
  v8d X[3][3], Y[3][3];  // Q^T T Q, weighted, then back
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      v8d v{};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) v += k.Q[i][a] * T[I[3 * i + j]] * k.Q[j][b];
      X[a][b] = v;
    }
  for (int a = 0; a < 3; ++a) {
    X[a][a] = X[a][a] / k.c[a];
    for (int b = a + 1; b < 3; ++b) {
      v8d theta;
      ln_divided(k.c[a], k.c[b], k.lnc[a], k.lnc[b], theta);
      X[a][b] *= theta;
      X[b][a] *= theta;
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      v8d v{};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) v += k.Q[i][a] * X[a][b] * k.Q[j][b];
      Y[i][j] = v;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      P[i][j] = k.F[i][0] * Y[0][j] + k.F[i][1] * Y[1][j] + k.F[i][2] * Y[2][j];
  constexpr int I6[6] = {0, 1, 2, 0, 1, 0}, J6[6] = {0, 1, 2, 1, 2, 2};
  for (int v = 0; v < 6; ++v) {
    const int i = I6[v], j = J6[v];
    v8d s{};
    for (int M = 0; M < 3; ++M) s += 0.5 * (P[i][M] * k.F[j][M] + P[j][M] * k.F[i][M]);
    cauchy[v] = s / k.J;
  }
}

/// The material point of batch b's lanes at state point qs from the displacement gradient H:
/// the first Piola-Kirchhoff stress into P (the Cauchy stress at small strain), the trial rows
/// written. Invalid lanes (past the last cell) and failed ones get P = 0.
template <bool Simd, bool Finite>
INERTIA_MF_INLINE void material_point(Run& run, std::int64_t b, int qs, const v8d (*H)[3],
                                      v8d (*P)[3], Dropped& dropped) {
  const double* cp[W];
  double* tp[W];
  int valid = 0;
  for (int l = 0; l < W; ++l) {
    const std::int64_t row = b * W + l;
    const std::int64_t r = row < run.cells ? row : b * W;
    valid += row < run.cells;
    cp[l] = run.committed + r * run.stride + qs * NC;
    tp[l] = run.trial + r * run.stride + qs * NC;
  }
  bool gone[W] = {};  // eroded lanes: no force, the committed state kept
  if (run.gone)
    for (int l = 0; l < valid; ++l)
      if (run.gone[b * W + l]) {
        gone[l] = dropped.lane[l] = true;
        std::copy(cp[l], cp[l] + NC, tp[l]);
      }
  v8d eps[6];
  eps[0] = H[0][0], eps[1] = H[1][1], eps[2] = H[2][2];
  eps[3] = 0.5 * (H[0][1] + H[1][0]), eps[4] = 0.5 * (H[1][2] + H[2][1]),
  eps[5] = 0.5 * (H[0][2] + H[2][0]);
  if constexpr (Simd) {
    // The lanes' rows in and out: 8 values of each row per register, transposed; the last 5
    // values one by one.
    constexpr int blocks = NC / W;
    v8d c[NC] = {}, t[NC], sigma[6], rows[W];
    for (int k0 = 0; k0 < blocks * W; k0 += W) {
      for (int l = 0; l < W; ++l) rows[l] = *reinterpret_cast<const v8du*>(cp[l] + k0);
      transpose8(rows, c + k0);
    }
    for (int k = blocks * W; k < NC; ++k)
      c[k] = v8d{cp[0][k], cp[1][k], cp[2][k], cp[3][k], cp[4][k], cp[5][k], cp[6][k], cp[7][k]};
    bool keep[W];  // the lanes whose trial rows are written
    for (int l = 0; l < W; ++l) keep[l] = l < valid && !gone[l];
    if constexpr (!Finite) {
      point_simd(run.p, eps, c, t, sigma);
      const int I[9] = {0, 3, 5, 3, 1, 4, 5, 4, 2};  // VTK order to full
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) P[i][j] = sigma[I[3 * i + j]];
    } else {
      LogKinematics k;
      log_strain_simd(H, k);
      point_simd(run.p, k.E, c, t, sigma);
      log_strain_stress_simd(k, sigma, P, t + fe::J2State::stress);
      const v8di inverted = !(k.J > 0.0);
      for (int l = 0; l < valid; ++l)
        if (inverted[l] && !gone[l]) {
          keep[l] = false;
          dropped.lane[l] = true;
          if (run.failed < 0) run.failed = b * W + l, run.why = fe::InvertedElement(k.J[l]).what();
        }
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) P[i][j] = inverted ? v8d{} : P[i][j];
    }
    for (int k0 = 0; k0 < blocks * W; k0 += W) {
      transpose8(t + k0, rows);
      for (int l = 0; l < W; ++l)
        if (keep[l]) *reinterpret_cast<v8du*>(tp[l] + k0) = rows[l];
    }
    for (int l = 0; l < W; ++l)
      if (keep[l])
        for (int k = blocks * W; k < NC; ++k) tp[l][k] = t[k][l];
    return;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) P[i][j] = v8d{};
  for (int l = 0; l < valid; ++l) {
    if (gone[l]) continue;
    double sigma[6], Pl[9];
    if constexpr (!Finite) {
      const double e[6] = {eps[0][l], eps[1][l], eps[2][l], eps[3][l], eps[4][l], eps[5][l]};
      fe::j2_point_update(run.p, e, cp[l], tp[l], true, sigma, nullptr);
      const int I[9] = {0, 3, 5, 3, 1, 4, 5, 4, 2};
      for (int k = 0; k < 9; ++k) Pl[k] = sigma[I[k]];
    } else {
      double F[9];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) F[3 * i + j] = (i == j) + H[i][j][l];
      fe::LogStrain kin;
      try {
        fe::log_strain(F, kin);
      } catch (const SolverError& e) {
        if (run.failed < 0) run.failed = b * W + l, run.why = e.what();
        dropped.lane[l] = true;
        continue;
      }
      fe::j2_point_update(run.p, kin.E, cp[l], tp[l], true, sigma, nullptr);
      fe::log_strain_stress(kin, sigma, nullptr, Pl, nullptr);
      fe::cauchy_from_pk1(kin, Pl, tp[l] + fe::J2State::stress);
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) P[i][j][l] = Pl[3 * i + j];
  }
}

/// u[i][a] of batch b's lanes (nodes in the batch's order).
INERTIA_MF_INLINE void gather(const Run& run, std::int64_t b, v8d (*u)[hex_nodes]) {
  const std::int32_t* nb = run.nodes + b * hex_nodes * W;
  for (int a = 0; a < hex_nodes; ++a)
    for (int l = 0; l < W; ++l)
      for (int i = 0; i < 3; ++i) u[i][a][l] = run.u[nb[a * W + l] + i];
}

/// f[nodes] += fe[i][a] of batch b's valid lanes but the dropped ones.
INERTIA_MF_INLINE void scatter(const Run& run, std::int64_t b, const v8d (*fe)[hex_nodes],
                               const Dropped& dropped) {
  const std::int32_t* nb = run.nodes + b * hex_nodes * W;
  const int valid = static_cast<int>(std::min<std::int64_t>(W, run.cells - b * W));
  for (int l = 0; l < valid; ++l)
    if (!dropped.lane[l])
      for (int a = 0; a < hex_nodes; ++a)
        for (int i = 0; i < 3; ++i) run.f[nb[a * W + l] + i] += fe[i][a][l];
}

/// Prefetches (into L2) the part `part` of `parts` of batch b + ahead's cell data and state
/// rows (committed, read; trial, written), so that the next batches' data stream in while this
/// one computes.
INERTIA_MF_INLINE void prefetch_ahead(const Run& run, std::int64_t b, int ahead, int values,
                                      int part, int parts) {
  if (b + ahead >= run.batches) return;
  const std::int64_t next = b + ahead;
  const int data_lines = values, state_lines = run.stride;  // W doubles = one line per value
  const double* g = run.data + next * values * W;
  for (int k = part * data_lines / parts; k < (part + 1) * data_lines / parts; ++k)
    __builtin_prefetch(g + k * W, 0, 2);
  const double* c = run.committed + next * W * run.stride;
  double* t = run.trial + next * W * run.stride;
  for (int k = part * state_lines / parts; k < (part + 1) * state_lines / parts; ++k) {
    __builtin_prefetch(c + k * W, 0, 2);
    __builtin_prefetch(t + k * W, 1, 2);
  }
}

/// Fully integrated (and B-bar, F-bar) batches: the sum factorisation of matrix_free.cpp, the
/// material point at each of the 8 Gauss points, the transposed factorisation. F-bar (de Souza
/// Neto et al. 1996, as fe::j2_element): F_bar = r F_q, r = (J0 / J_q)^(1/3), J0 = det F0,
/// F0 = I + sum_a u_a b_a^T; the force sum_q s_q r (P g_a + 1/3 (P : F_q) (F0^-T b_a -
/// F_q^-T g_a)) goes as the stress r (P - 1/3 (P : F_q) F_q^-T) with the point gradients, and
/// Z = sum_q s_q r / 3 (P : F_q) F0^-T with the mean ones (f_a += Z b_a).
template <bool Simd, bool Finite, bool Bbar, bool Fbar = false>
INERTIA_MF_INLINE void full_batches(Run& run) {
  constexpr int values = Bbar || Fbar ? bbar_values : full_values;
  for (std::int64_t b = 0; b < run.batches; ++b) {
    const double* g = run.data + b * values * W;
    v8d u[3][hex_nodes];
    gather(run, b, u);
    v8d Dx[3][4], Dy[3][4], Dz[3][4];
    for (int i = 0; i < 3; ++i) hex_gradient(u[i], run.s, run.s2, Dx[i], Dy[i], Dz[i]);
    v8d shift{};  // B-bar: tr(mean gradient) / 3, less each point's
    if constexpr (Bbar) {
      const v8du* bm = reinterpret_cast<const v8du*>(g + full_values * W);
      for (int a = 0; a < hex_nodes; ++a)
        shift += u[0][a] * bm[3 * a] + u[1][a] * bm[3 * a + 1] + u[2][a] * bm[3 * a + 2];
    }
    Dropped dropped;
    v8d F0invT[3][3], J0{}, Z[3][3] = {};
    if constexpr (Fbar) {
      const v8du* bm = reinterpret_cast<const v8du*>(g + full_values * W);
      v8d F0[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          v8d v = v8d{} + (i == j ? 1.0 : 0.0);
          for (int a = 0; a < hex_nodes; ++a) v += u[i][a] * bm[3 * a + j];
          F0[i][j] = v;
        }
      inverse_transpose(F0, J0, F0invT);
    }
    v8d Px[3][4] = {}, Py[3][4] = {}, Pz[3][4] = {};
    for (int r = 0; r < 2; ++r)
      for (int q = 0; q < 2; ++q)
        for (int p = 0; p < 2; ++p) {
          const int point = p + 2 * q + 4 * r;
          prefetch_ahead(run, b, 1, values, point, hex_points);
          const v8du* G = reinterpret_cast<const v8du*>(g + 10 * point * W);
          v8d H[3][3];
          for (int i = 0; i < 3; ++i) {
            const v8d r0 = Dx[i][q + 2 * r], r1 = Dy[i][p + 2 * r], r2 = Dz[i][p + 2 * q];
            for (int j = 0; j < 3; ++j) H[i][j] = r0 * G[j] + r1 * G[3 + j] + r2 * G[6 + j];
          }
          if constexpr (Bbar) {
            const v8d d = (shift - (H[0][0] + H[1][1] + H[2][2])) / 3.0;
            for (int i = 0; i < 3; ++i) H[i][i] += d;
          }
          v8d P[3][3], ratio{}, FinvT[3][3];
          if constexpr (Fbar) {
            v8d Fq[3][3], J;
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) Fq[i][j] = H[i][j] + (i == j ? 1.0 : 0.0);
            inverse_transpose(Fq, J, FinvT);
            v8d lnx;  // r = (J0 / J)^(1/3): e^(ln(J0 / J) / 3), then one Newton step on r^3
            const v8d x = J0 / J;
            vlog(x, lnx);
            vexp(lnx / 3.0, ratio);
            ratio -= (ratio * ratio * ratio - x) / (3.0 * ratio * ratio);
            // Lanes inverted at the point or in the mean: NaN, which the point reports.
            const v8di good = (J0 > 0.0) & (J > 0.0);  // false on NaN
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j)
                H[i][j] =
                    good ? ratio * Fq[i][j] - (i == j ? 1.0 : 0.0) : v8d{} + __builtin_nan("");
            material_point<Simd, Finite>(run, b, run.point_of[point], H, P, dropped);
            v8d PF{};
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) PF += P[i][j] * Fq[i][j];
            const v8d third = PF / 3.0;
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) {
                Z[i][j] += G[9] * ratio * third * F0invT[i][j];
                P[i][j] = ratio * (P[i][j] - third * FinvT[i][j]);
              }
          } else {
            material_point<Simd, Finite>(run, b, run.point_of[point], H, P, dropped);
          }
          const v8d w = G[9];
          for (int i = 0; i < 3; ++i) {
            const v8d s0 = w * P[i][0], s1 = w * P[i][1], s2 = w * P[i][2];
            Px[i][q + 2 * r] += s0 * G[0] + s1 * G[1] + s2 * G[2];
            Py[i][p + 2 * r] += s0 * G[3] + s1 * G[4] + s2 * G[5];
            Pz[i][p + 2 * q] += s0 * G[6] + s1 * G[7] + s2 * G[8];
          }
        }
    v8d fe[3][hex_nodes];
    for (int i = 0; i < 3; ++i) hex_gradient_transpose(Px[i], Py[i], Pz[i], run.s, run.s2, fe[i]);
    if constexpr (Fbar) {
      const v8du* bm = reinterpret_cast<const v8du*>(g + full_values * W);
      for (int i = 0; i < 3; ++i)
        for (int a = 0; a < hex_nodes; ++a)
          fe[i][a] += Z[i][0] * bm[3 * a] + Z[i][1] * bm[3 * a + 1] + Z[i][2] * bm[3 * a + 2];
    }
    scatter(run, b, fe, dropped);
  }
}

/// One-point batches: H from the mean gradients, f_a = V P b_a, the hourglass forces.
template <bool Simd, bool Finite>
INERTIA_MF_INLINE void reduced_batches(Run& run) {
  for (std::int64_t b = 0; b < run.batches; ++b) {
    const v8du* g = reinterpret_cast<const v8du*>(run.data + b * reduced_values * W);
    prefetch_ahead(run, b, 2, reduced_values, 0, 1);
    v8d u[3][hex_nodes];
    gather(run, b, u);
    v8d H[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        H[i][j] = u[i][0] * g[j];
        for (int a = 1; a < hex_nodes; ++a) H[i][j] += u[i][a] * g[3 * a + j];
      }
    v8d P[3][3];
    Dropped dropped;
    material_point<Simd, Finite>(run, b, 0, H, P, dropped);
    const v8d V = g[24];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) P[i][j] *= V;
    v8d fe[3][hex_nodes];
    for (int a = 0; a < hex_nodes; ++a)
      for (int i = 0; i < 3; ++i)
        fe[i][a] = P[i][0] * g[3 * a] + P[i][1] * g[3 * a + 1] + P[i][2] * g[3 * a + 2];
    for (int alpha = 0; alpha < 4; ++alpha) {
      const v8du* h = g + 25 + 8 * alpha;
      for (int i = 0; i < 3; ++i) {
        v8d m = h[0] * u[i][0];
        for (int a = 1; a < hex_nodes; ++a) m += h[a] * u[i][a];
        for (int a = 0; a < hex_nodes; ++a) fe[i][a] += h[a] * m;
      }
    }
    scatter(run, b, fe, dropped);
  }
}

// One function per kind x material point, compiled for AVX-512, AVX2 and baseline x86-64 (the
// lanes' arithmetic in 512-, 256- or 128-bit registers), chosen at run time.
#define INERTIA_J2_VARIANT(name, call) \
  __attribute__((target_clones("avx512f", "avx2", "default"))) void name(Run& run) { call(run); }
INERTIA_J2_VARIANT(full_simd, (full_batches<true, false, false>))
INERTIA_J2_VARIANT(full_small, (full_batches<false, false, false>))
INERTIA_J2_VARIANT(full_finite, (full_batches<false, true, false>))
INERTIA_J2_VARIANT(full_finite_simd, (full_batches<true, true, false>))
INERTIA_J2_VARIANT(bbar_simd, (full_batches<true, false, true>))
INERTIA_J2_VARIANT(fbar_simd, (full_batches<true, true, false, true>))
INERTIA_J2_VARIANT(bbar_small, (full_batches<false, false, true>))
INERTIA_J2_VARIANT(reduced_simd, (reduced_batches<true, false>))
INERTIA_J2_VARIANT(reduced_small, (reduced_batches<false, false>))
INERTIA_J2_VARIANT(reduced_finite, (reduced_batches<false, true>))
INERTIA_J2_VARIANT(reduced_finite_simd, (reduced_batches<true, true>))
#undef INERTIA_J2_VARIANT

}  // namespace

bool J2Batches::covers(const LocalMesh& mesh, std::span<const std::int64_t> cells,
                       const fe::Technology& tech, const fe::J2Parameters& p) {
  const fe::Formulation f = tech.formulation;
  // F-bar with the vectorised material point only (linear hardening, no rate factor).
  if ((f == fe::Formulation::fbar && (!p.finite_strain || p.nonlinear())) ||
      (f == fe::Formulation::bbar && p.finite_strain))
    return false;
  return std::all_of(cells.begin(), cells.end(),
                     [&](std::int64_t c) { return mesh.cell_types[c] == CellType::hex8; });
}

J2Batches::J2Batches(const LocalMesh& mesh, std::span<const std::int64_t> cells,
                     const fe::Technology& tech, const fe::J2Parameters& p, int stride)
    : mesh_(mesh), p_(p), stride_(stride) {
  INERTIA_CHECK(covers(mesh, cells, tech, p), InternalError, "J2Batches: cells not covered");
  const fe::Formulation f = tech.formulation;
  kind_ = f == fe::Formulation::reduced ? Kind::reduced
          : f == fe::Formulation::bbar  ? Kind::bbar
          : f == fe::Formulation::fbar  ? Kind::fbar
                                        : Kind::full;
  simd_point_ = !p.nonlinear();
  const int points = kind_ == Kind::reduced ? 1 : hex_points;
  INERTIA_CHECK(stride >= points * NC, InternalError, "J2Batches: state stride ", stride);
  const int values = kind_ == Kind::reduced                       ? reduced_values
                     : kind_ == Kind::bbar || kind_ == Kind::fbar ? bbar_values
                                                                  : full_values;
  cells_ = static_cast<std::int64_t>(cells.size());
  batches_ = (cells_ + W - 1) / W;
  nodes_.assign(static_cast<std::size_t>(batches_ * hex_nodes * W), 0);
  data_.assign(static_cast<std::size_t>(batches_ * values * W), 0.0);
  const HexReference& ref = hex_reference();
  point_of_.assign(hex_points, 0);
  for (int q = 0; q < hex_points; ++q) point_of_[ref.point[q]] = static_cast<std::uint8_t>(q);
  for (std::int64_t k = 0; k < batches_ * W; ++k) {
    const std::int64_t b = k / W;
    const int l = static_cast<int>(k % W);
    // Lanes past the last cell: the first lane's nodes and zero data (they add nothing).
    const std::int64_t c = cells[static_cast<std::size_t>(k < cells_ ? k : b * W)];
    const auto cn = mesh.nodes_of(c);
    for (int a = 0; a < hex_nodes; ++a) {
      const int slot = kind_ == Kind::reduced ? a : ref.corner[a];
      nodes_[(b * hex_nodes + slot) * W + l] = static_cast<std::int32_t>(3 * cn[a]);
    }
    if (k >= cells_) continue;
    double x[3 * hex_nodes];
    for (int a = 0; a < hex_nodes; ++a)
      for (int i = 0; i < 3; ++i) x[3 * a + i] = mesh.coords[3 * cn[a] + i];
    const std::span<const double> xs(x, 3 * hex_nodes);
    double* g = &data_[static_cast<std::size_t>(b * values * W)];
    if (kind_ == Kind::reduced) {
      double geometry[fe::hex8_reduced_values];
      fe::hex8_reduced_geometry(xs, geometry);
      const double sh = std::sqrt(tech.hourglass * p.lame.mu * geometry[57]);
      for (int v = 0; v < 25; ++v) g[v * W + l] = geometry[v];
      for (int v = 0; v < 32; ++v) g[(25 + v) * W + l] = sh * geometry[25 + v];
      continue;
    }
    for (int q = 0; q < hex_points; ++q) {
      const double* d = &ref.dN[q * hex_nodes * 3];
      double J[9] = {}, Ji[9];
      for (int a = 0; a < hex_nodes; ++a)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) J[3 * i + j] += x[3 * a + i] * d[3 * a + j];
      const double w = ref.weights[q] * fe::inverse3(J, Ji);
      double* gp = g + 10 * ref.point[q] * W;
      for (int j = 0; j < 9; ++j) gp[j * W + l] = Ji[j] / 8;
      gp[9 * W + l] = w;
    }
    if (kind_ == Kind::bbar || kind_ == Kind::fbar) {
      double bm[24];
      fe::hex8_mean_gradients(xs, bm);
      for (int a = 0; a < hex_nodes; ++a)
        for (int j = 0; j < 3; ++j)
          g[(full_values + 3 * ref.corner[a] + j) * W + l] = bm[3 * a + j];
    }
  }
}

std::int64_t J2Batches::add_force(std::span<const double> u, double time, const double* committed,
                                  double* trial, std::span<double> f, std::string& why,
                                  const std::uint8_t* gone) const {
  if (cells_ == 0) return -1;
  Run run;
  run.batches = batches_;
  run.cells = cells_;
  run.nodes = nodes_.data();
  run.data = data_.data();
  run.point_of = point_of_.data();
  run.u = u.data();
  run.f = f.data();
  run.committed = committed;
  run.trial = trial;
  run.stride = stride_;
  run.p = p_;
  run.p.time = time;
  run.gone = gone;
  const HexReference& ref = hex_reference();
  run.s = ref.s, run.s2 = ref.s * ref.s;
  const bool finite = p_.finite_strain;
  switch (kind_) {
    case Kind::full:
      if (finite)
        simd_point_ ? full_finite_simd(run) : full_finite(run);
      else
        simd_point_ ? full_simd(run) : full_small(run);
      break;
    case Kind::fbar:
      fbar_simd(run);
      break;
    case Kind::bbar:
      simd_point_ ? bbar_simd(run) : bbar_small(run);
      break;
    case Kind::reduced:
      if (finite)
        simd_point_ ? reduced_finite_simd(run) : reduced_finite(run);
      else
        simd_point_ ? reduced_simd(run) : reduced_small(run);
      break;
  }
  why = run.why;
  return run.failed;
}

double J2Batches::bytes_per_cell(fe::Formulation f) {
  const int points = f == fe::Formulation::reduced ? 1 : hex_points;
  const int values = f == fe::Formulation::reduced ? reduced_values
                     : f == fe::Formulation::full  ? full_values
                                                   : bbar_values;
  // Node offsets, cell data, the point state read (committed) and written (trial).
  return hex_nodes * 4.0 + values * 8.0 + 2.0 * points * NC * 8;
}

double J2Batches::flops_per_cell(fe::Formulation f, bool finite_strain) {
  // The vectorised small-strain point (point_simd, counted from its arithmetic): the strain 6,
  // the trial stress and its distance 36, the norm and the yield function 16, the return 42, the
  // stress 9, the two free energies 2 x 30, the work 40, dissipation and history 12: about 220.
  // At finite strain the log strain adds about 1,600: C 30, four Jacobi sweeps of three
  // rotations 720, three logarithms 90, E 54, PP : T 620, P 45, the Cauchy stress 60; F-bar
  // another 120 (F^-T, r, the mean-gradient term).
  const double point = 220 + (finite_strain ? 1600 : 0) + (f == fe::Formulation::fbar ? 120 : 0);
  if (f == fe::Formulation::reduced)
    // H 9 x 15, the force 8 x 3 x 6 + 9, the hourglass modes 4 x 3 x 31.
    return 135 + 153 + 372 + point;
  // The factorisation and its transpose 3 x (47 + 66), per point H 45 and the force 9 + 54
  // (B-bar and F-bar: the mean gradient 48 more).
  return 3 * (47 + 66) + hex_points * (45 + 63 + point) + (f != fe::Formulation::full ? 48 : 0);
}

}  // namespace inertia
