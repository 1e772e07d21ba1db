// The eight-node degenerated-continuum shell (shell8.hpp).
#include "inertia/fe/shell8.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "inertia/fe/element.hpp"
#include "shell8_detail.hpp"
#include "shell_detail.hpp"

namespace inertia::fe {

using namespace shell8_detail;

void shell8_stiffness(const double xyz[24], const ShellSection& s, double K[2304]) {
  std::fill(K, K + dofs * dofs, 0.0);
  const Geometry geo(xyz, s);
  const Material mat(s);
  const double D[5][5] = {{mat.m[0][0], mat.m[0][1], 0, 0, 0},
                          {mat.m[1][0], mat.m[1][1], 0, 0, 0},
                          {0, 0, mat.m[2][2], 0, 0},
                          {0, 0, 0, mat.shear, 0},
                          {0, 0, 0, 0, mat.shear}};
  const double alpha[1][1] = {{s.drilling * mat.G * s.thickness}};
  double B[5][dofs], drill[1][dofs];
  for (const double xi : {-gauss, gauss})
    for (const double eta : {-gauss, gauss}) {
      for (const double zeta : {-gauss, gauss}) {
        const Point p(geo, xi, eta, zeta);
        strain_rows(geo, p, B, nullptr);
        shell_detail::add_btdb<5, dofs>(B, D, p.det, K);
      }
      const Point p(geo, xi, eta, 0);
      strain_rows(geo, p, B, drill[0]);
      for (int k = 0; k < dofs; ++k) drill[0][k] = -drill[0][k];
      for (int a = 0; a < nodes; ++a)
        for (int j = 0; j < 3; ++j) drill[0][rot(a, j)] += p.sh.N[a] * p.e[2][j];
      shell_detail::add_btdb<1, dofs>(drill, alpha, p.area, K);
    }
}

double shell8_area(const double xyz[24]) {
  ShellSection plain;
  plain.thickness = 1;
  const Geometry geo(xyz, plain);
  double area = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double gx[3], ge[3];
      area += w3[i] * w3[j] * geo.tangents(Shape(g3[i], g3[j]), gx, ge);
    }
  return area;
}

void shell8_lumped_mass(const double xyz[24], const ShellSection& s, double m[48]) {
  ShellSection plain = s;
  plain.offset = 0;  // the nodes' surface
  const Geometry geo(xyz, plain);
  double diag[8]{}, area = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Shape sh(g3[i], g3[j]);
      double gx[3], ge[3];
      const double w = w3[i] * w3[j] * geo.tangents(sh, gx, ge);
      area += w;
      for (int a = 0; a < nodes; ++a) diag[a] += w * sh.N[a] * sh.N[a];
    }
  double sum = 0;
  for (const double d : diag) sum += d;
  const double t = s.thickness;
  const double translation = s.density * t * area,
               rotation = translation * (t * t / 12 + s.offset * s.offset);
  for (int a = 0; a < nodes; ++a)
    for (int i = 0; i < 3; ++i) {
      m[tr(a, i)] = translation * diag[a] / sum;
      m[rot(a, i)] = rotation * diag[a] / sum;
    }
}

void shell8_surface_load(const double xyz[24], const double q[3], double f[24]) {
  ShellSection plain;
  plain.thickness = 1;
  const Geometry geo(xyz, plain);
  std::fill(f, f + 24, 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Shape sh(g3[i], g3[j]);
      double gx[3], ge[3];
      const double w = w3[i] * w3[j] * geo.tangents(sh, gx, ge);
      for (int a = 0; a < nodes; ++a)
        for (int c = 0; c < 3; ++c) f[3 * a + c] += w * sh.N[a] * q[c];
    }
}

void shell8_resultants(const double xyz[24], const ShellSection& s, const double d[48],
                       double out[8]) {
  const Geometry geo(xyz, s);
  const Material mat(s);
  double local[8]{}, R[9]{};
  double B[5][dofs];
  for (const double zeta : {-gauss, gauss}) {
    const Point p(geo, 0, 0, zeta);
    strain_rows(geo, p, B, nullptr);
    double eps[5]{}, sig[5];
    for (int i = 0; i < 5; ++i)
      for (int k = 0; k < dofs; ++k) eps[i] += B[i][k] * d[k];
    mat.stress(eps, sig);
    const double w = geo.half;  // the point's share of the thickness
    for (int i = 0; i < 3; ++i) {
      local[i] += w * sig[i];
      local[3 + i] += w * sig[i] * p.z;  // about the nodes' surface: z = zeta t / 2 - o
    }
    local[6] += w * sig[3];
    local[7] += w * sig[4];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R[3 * i + j] = p.e[i][j];
  }
  shell_to_output_axes(R, local, out);
}

}  // namespace inertia::fe
