#pragma once
// The elastic shell section in closed form, written once for one point (T = double:
// shell_section.cpp) and for a batch of points, one per lane of a GCC vector of doubles
// (shell_bt_kernel.hpp). Internal to src/fe.
#include "inertia/fe/shell_section.hpp"

namespace inertia::fe::shell_section_detail {

/// The plane-stress matrix C (row-major) and the thickness integrals of 1, z and z^2 over
/// [-t/2 - o, t/2 - o]: a = {t, -t o, t^3 / 12 + t o^2} (A = C a0, B = C a1, D = C a2).
struct ElasticSectionMatrices {
  double C[9];
  double a[3];
};
inline ElasticSectionMatrices elastic_section_matrices(const ShellSection& e) {
  const double t = e.thickness, o = e.offset, nu = e.poissons_ratio;
  const double c = e.youngs_modulus / (1 - nu * nu);
  return {{c, c * nu, 0, c * nu, c, 0, 0, 0, c * (1 - nu) / 2},
          {t, -t * o, t * t * t / 12 + t * o * o}};
}

/// The resultants nm (membrane forces, moments) of the generalized strains ek (membrane strains,
/// curvatures), and the stored energy per area.
template <class T>
inline __attribute__((always_inline)) T elastic_resultants(const ShellSection& e, const T ek[6],
                                                           T nm[6]) {
  const ElasticSectionMatrices s = elastic_section_matrices(e);
  const double *C = s.C, a0 = s.a[0], a1 = s.a[1], a2 = s.a[2];
  for (int i = 0; i < 3; ++i) {
    T n{}, m{};
    for (int j = 0; j < 3; ++j) {
      n += C[3 * i + j] * (a0 * ek[j] + a1 * ek[3 + j]);
      m += C[3 * i + j] * (a1 * ek[j] + a2 * ek[3 + j]);
    }
    nm[i] = n;
    nm[3 + i] = m;
  }
  T stored{};
  for (int i = 0; i < 6; ++i) stored += 0.5 * nm[i] * ek[i];
  return stored;
}

}  // namespace inertia::fe::shell_section_detail
