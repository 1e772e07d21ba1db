#pragma once
/// \file hex_simd.hpp
/// The SIMD building blocks of the batched element kernels (matrix_free.cpp, j2_batches.cpp):
/// batches of W elements, one per lane of a v8d; the hex8 sum factorisation at the 2x2x2 Gauss
/// points; AVX-512 gathers and scatters of nodal triples; the hex8 reference element. Internal
/// to src/assembly.

#include <immintrin.h>

#include <array>
#include <cmath>
#include <cstdint>

#include "inertia/core/error.hpp"
#include "inertia/fe/element.hpp"

namespace inertia::simd {

constexpr int W = 8;  // lanes per batch
constexpr int hex_nodes = 8, hex_points = 8;

/// Eight doubles, one per lane of a batch (AVX-512: one register; elsewhere the compiler splits
/// it). v8du: the same for loads that need not be 64-byte aligned.
typedef double v8d __attribute__((vector_size(64)));
typedef double v8du __attribute__((vector_size(64), aligned(8)));
#define INERTIA_MF_INLINE inline __attribute__((always_inline))

// ---- hex8: sum factorisation at the 2x2x2 Gauss points -------------------------------------
//
// Corners and points are numbered lexicographically here, c = i + 2j + 4k (bit 0: xi, bit 1:
// eta, bit 2: zeta; 0 the minus side), whatever the mesh's node order (hex_reference() maps it).
// Three butterflies (m = u0 + u1, d = u1 - u0 per direction) give the coefficients C[abc] of
// u = 1/8 sum C[abc] phi_a(xi) phi_b(eta) phi_c(zeta), phi_m = 1, phi_d = the coordinate, so
// du/dxi = 1/8 (C[dmm] + C[ddm] eta + C[dmd] zeta + C[ddd] eta zeta) does not depend on xi: its
// values at the 4 (eta, zeta) = (+-s, +-s) serve the 8 points. The 1/8 (and its transpose's) is
// folded into the stored G. Templates: T = v8d in the kernels, double in the self-check.

/// C[a + 2b + 4c] from the corner values u[8] (C[0] = 8 x the mean is not needed but formed).
template <class T>
INERTIA_MF_INLINE void butterfly3(const T* u, T* C) {
  T t[8], t2[8];
  for (int bc = 0; bc < 4; ++bc) {
    t[2 * bc] = u[2 * bc] + u[2 * bc + 1];
    t[2 * bc + 1] = u[2 * bc + 1] - u[2 * bc];
  }
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 2; ++c) {
      const T t0 = t[a + 4 * c], t1 = t[a + 2 + 4 * c];
      t2[a + 4 * c] = t0 + t1;
      t2[a + 2 + 4 * c] = t1 - t0;
    }
  for (int ab = 0; ab < 4; ++ab) {
    C[ab] = t2[ab] + t2[ab + 4];
    C[ab + 4] = t2[ab + 4] - t2[ab];
  }
}

/// Transpose of butterfly3 (Cb[0] taken as zero: nothing depends on the mean).
template <class T>
INERTIA_MF_INLINE void butterfly3_transpose(const T* Cb, T* f) {
  T t2[8], t[8];
  t2[0] = -Cb[4];
  t2[4] = Cb[4];
  for (int ab = 1; ab < 4; ++ab) {
    t2[ab] = Cb[ab] - Cb[ab + 4];
    t2[ab + 4] = Cb[ab] + Cb[ab + 4];
  }
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 2; ++c) {
      const T m = t2[a + 4 * c], d = t2[a + 2 + 4 * c];
      t[a + 4 * c] = m - d;
      t[a + 2 + 4 * c] = m + d;
    }
  for (int bc = 0; bc < 4; ++bc) {
    f[2 * bc] = t[2 * bc] - t[2 * bc + 1];
    f[2 * bc + 1] = t[2 * bc] + t[2 * bc + 1];
  }
}

/// out[i1 + 2 i2] = A + B t1 + C t2 + D t1 t2 at t1, t2 = -s (bit 0) or +s (bit 1); s2 = s^2.
template <class T>
INERTIA_MF_INLINE void bilinear4(const T& A, const T& B, const T& C, const T& D, double s,
                                 double s2, T* out) {
  const T X = A + s2 * D, Y = A - s2 * D, U = B + C, V = B - C;
  out[0] = X - s * U;
  out[3] = X + s * U;
  out[1] = Y + s * V;
  out[2] = Y - s * V;
}

/// Transpose of bilinear4: A, B, C, D += its transpose applied to o[4].
template <class T>
INERTIA_MF_INLINE void bilinear4_transpose(const T* o, double s, double s2, T& A, T& B, T& C,
                                           T& D) {
  const T X = o[0] + o[3], Y = o[1] + o[2], a1 = o[3] - o[0], a2 = o[1] - o[2];
  A += X + Y;
  D += s2 * (X - Y);
  B += s * (a1 + a2);
  C += s * (a1 - a2);
}

/// 8 x the reference gradient of one displacement component u[8] (lexicographic corners):
/// Dx[q + 2r] = du/dxi at every point (p, q, r), Dy[p + 2r] = du/deta, Dz[p + 2q] = du/dzeta.
template <class T>
INERTIA_MF_INLINE void hex_gradient(const T* u, double s, double s2, T* Dx, T* Dy, T* Dz) {
  T C[8];
  butterfly3(u, C);
  bilinear4(C[1], C[3], C[5], C[7], s, s2, Dx);
  bilinear4(C[2], C[3], C[6], C[7], s, s2, Dy);
  bilinear4(C[4], C[5], C[6], C[7], s, s2, Dz);
}

/// Transpose of hex_gradient: f[8] = the corner values (overwritten).
template <class T>
INERTIA_MF_INLINE void hex_gradient_transpose(const T* Px, const T* Py, const T* Pz, double s,
                                              double s2, T* f) {
  T C[8] = {};
  bilinear4_transpose(Px, s, s2, C[1], C[3], C[5], C[7]);
  bilinear4_transpose(Py, s, s2, C[2], C[3], C[6], C[7]);
  bilinear4_transpose(Pz, s, s2, C[4], C[5], C[6], C[7]);
  butterfly3_transpose(C, f);
}

// the padding lanes (lane 0's nodes, zero data) need. Measured on Zen 4 and kept: masked loads
// and a transpose beat vgatherdpd; 2 + 1-wide adds beat vscatterdpd, masked stores, a 4-wide
// padded copy of y and scalar adds; prefetching into L2 (prefetcht1), spread over the
// quadrature points, hides the stream of element data, where prefetching into L1 or none
// leaves the kernel waiting on memory (about 1.7 times slower).

#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12: _mm512_undefined_pd

/// p + k doubles without pointer arithmetic outside the array (k may be negative: the lanes it
/// would reach are masked off).
INERTIA_MF_INLINE const double* shifted(const double* p, std::int64_t k) {
  return reinterpret_cast<const double*>(reinterpret_cast<std::uintptr_t>(p) + 8 * k);
}

/// ux, uy, uz[l] = x[nb[l] + 0, 1, 2]: two 3-wide masked loads per register, then a transpose.
INERTIA_MF_INLINE void load3_avx512(const std::int32_t* nb, const double* x, v8d& ux, v8d& uy,
                                    v8d& uz) {
  auto pair = [&](int a, int b) {  // lane a in elements 0..2, lane b in 4..6
    return _mm512_mask_loadu_pd(_mm512_maskz_loadu_pd(0x07, x + nb[a]), 0x70,
                                shifted(x, std::int64_t{nb[b]} - 4));
  };
  const __m512d z02 = pair(0, 2), z13 = pair(1, 3), z46 = pair(4, 6), z57 = pair(5, 7);
  const __m512d t0 = _mm512_unpacklo_pd(z02, z13), t1 = _mm512_unpackhi_pd(z02, z13);
  const __m512d t2 = _mm512_unpacklo_pd(z46, z57), t3 = _mm512_unpackhi_pd(z46, z57);
  ux = (v8d)_mm512_shuffle_f64x2(t0, t2, 0x88);
  uz = (v8d)_mm512_shuffle_f64x2(t0, t2, 0xdd);
  uy = (v8d)_mm512_shuffle_f64x2(t1, t3, 0x88);
}

/// y[nb[l] + 0, 1, 2] += fx, fy, fz[l], lane after lane: (x, y) of each lane interleaved and
/// stored with z, then per lane a 2-wide and a 1-wide read-modify-write.
INERTIA_MF_INLINE void add3_avx512(const std::int32_t* nb, double* y, const v8d& fx, const v8d& fy,
                                   const v8d& fz) {
  alignas(64) double xy[2 * W], z[W];
  _mm512_store_pd(xy, _mm512_unpacklo_pd((__m512d)fx, (__m512d)fy));      // lanes 0, 2, 4, 6
  _mm512_store_pd(xy + W, _mm512_unpackhi_pd((__m512d)fx, (__m512d)fy));  // lanes 1, 3, 5, 7
  _mm512_store_pd(z, (__m512d)fz);
  for (int l = 0; l < W; ++l) {
    double* p = y + nb[l];
    _mm_storeu_pd(p, _mm_add_pd(_mm_loadu_pd(p), _mm_load_pd(xy + (l & 1) * W + (l >> 1) * 2)));
    p[2] += z[l];
  }
}
#pragma GCC diagnostic pop
#pragma GCC pop_options

inline bool have_avx512() {
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
}

// ---- reference elements --------------------------------------------------------------------

/// hex8 node order and stiffness rule, checked against the sum factorisation.
struct HexReference {
  std::array<int, hex_nodes> corner{};                  ///< lexicographic corner of mesh node a
  std::array<int, hex_points> point{};                  ///< lexicographic index of rule point q
  std::array<double, hex_points * hex_nodes * 3> dN{};  ///< [q][a][k], rule order
  std::array<double, hex_points> weights{};
  double s = 0;  ///< the Gauss coordinate: points at +-s
};

inline const HexReference& hex_reference() {
  static const HexReference h = [] {
    HexReference h;
    const fe::QuadratureRule rule = fe::stiffness_rule(CellType::hex8);
    INERTIA_CHECK(rule.num_points == hex_points, InternalError, "hex8 stiffness rule");
    h.s = std::abs(rule.points[0]);
    int seen_points = 0, seen_corners = 0;
    for (int q = 0; q < hex_points; ++q) {
      fe::shape_gradients(CellType::hex8, rule.points + 3 * q, &h.dN[q * hex_nodes * 3]);
      h.weights[q] = rule.weights[q];
      int p = 0;
      for (int k = 0; k < 3; ++k) {
        INERTIA_CHECK(std::abs(std::abs(rule.points[3 * q + k]) - h.s) < 1e-15, InternalError,
                      "hex8 stiffness rule: not a 2x2x2 tensor rule");
        p |= (rule.points[3 * q + k] > 0) << k;
      }
      h.point[q] = p;
      seen_points |= 1 << p;
    }
    constexpr double centre[3] = {0, 0, 0};
    double d0[hex_nodes * 3];
    fe::shape_gradients(CellType::hex8, centre, d0);  // dN_a/dxi_k = sign_ak / 8
    for (int a = 0; a < hex_nodes; ++a) {
      int c = 0;
      for (int k = 0; k < 3; ++k) c |= (d0[3 * a + k] > 0) << k;
      h.corner[a] = c;
      seen_corners |= 1 << c;
    }
    INERTIA_CHECK(seen_points == 0xff && seen_corners == 0xff, InternalError,
                  "hex8: corners or points not a 2x2x2 tensor set");
    // The sum factorisation reproduces the tabulated gradients (x 8).
    for (int a = 0; a < hex_nodes; ++a) {
      double u[hex_nodes] = {}, Dx[4], Dy[4], Dz[4];
      u[h.corner[a]] = 1.0;
      hex_gradient(u, h.s, h.s * h.s, Dx, Dy, Dz);
      for (int q = 0; q < hex_points; ++q) {
        const int p = h.point[q], px = p & 1, py = p >> 1 & 1, pz = p >> 2 & 1;
        const double got[3] = {Dx[py + 2 * pz] / 8, Dy[px + 2 * pz] / 8, Dz[px + 2 * py] / 8};
        for (int k = 0; k < 3; ++k)
          INERTIA_CHECK(std::abs(got[k] - h.dN[(q * hex_nodes + a) * 3 + k]) < 1e-14, InternalError,
                        "hex8 sum factorisation disagrees with shape_gradients");
      }
    }
    return h;
  }();
  return h;
}

}  // namespace inertia::simd
