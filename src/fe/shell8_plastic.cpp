// The eight-node shell with a section law (shell8.hpp: shell8_update), linear kinematics.
#include <algorithm>
#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/fe/shell8.hpp"
#include "shell8_detail.hpp"

namespace inertia::fe {

using namespace shell8_detail;

namespace {

/// One in-plane point's rows: the generalized strains G (6 x 48, lamina axes: membrane at the
/// nodes' surface, curvatures), the transverse shear rows at the two heights with their det J,
/// the drilling row, the mid-surface's area element and the lamina axes.
struct PointRows {
  double G[6][dofs]{};
  double S[2][2][dofs]{};
  double det[2]{};
  double drill[dofs]{};
  double area = 0;
  double R[9]{};

  PointRows(const Geometry& geo, double xi, double eta) {
    double B[2][5][dofs];
    double z[2];
    for (int h = 0; h < 2; ++h) {
      const Point p(geo, xi, eta, h ? gauss : -gauss);
      strain_rows(geo, p, B[h], nullptr);
      z[h] = p.z;
      det[h] = p.det;
      for (int r = 0; r < 2; ++r) std::copy_n(B[h][3 + r], dofs, S[h][r]);
    }
    const double dz = z[1] - z[0];
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < dofs; ++k) {
        const double curvature = (B[1][r][k] - B[0][r][k]) / dz;
        G[3 + r][k] = curvature;
        G[r][k] = B[0][r][k] - z[0] * curvature;
      }
    const Point p(geo, xi, eta, 0);
    double unused[5][dofs];
    strain_rows(geo, p, unused, drill);
    for (int k = 0; k < dofs; ++k) drill[k] = -drill[k];
    for (int a = 0; a < nodes; ++a)
      for (int j = 0; j < 3; ++j) drill[rot(a, j)] += p.sh.N[a] * p.e[2][j];
    area = p.area;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) R[3 * i + j] = p.e[i][j];
  }
};

double row_dot(const double* row, const double* d) {
  double s = 0;
  for (int k = 0; k < dofs; ++k) s += row[k] * d[k];
  return s;
}

/// f += w v a, K += w a a^T (a row of 48).
void add_rank_one(const double* a, double w, double v, double* f, double* K) {
  for (int i = 0; i < dofs; ++i) {
    f[i] += w * v * a[i];
    if (!K) continue;
    const double wa = w * a[i];
    if (wa == 0) continue;
    for (int j = 0; j < dofs; ++j) K[dofs * i + j] += wa * a[j];
  }
}

/// The section's share at one point: f += w G^T nm, K += w G^T D G.
void add_section(const PointRows& r, double w, const double nm[6], const double* D, double* f,
                 double* K) {
  for (int k = 0; k < dofs; ++k) {
    double s = 0;
    for (int i = 0; i < 6; ++i) s += r.G[i][k] * nm[i];
    f[k] += w * s;
  }
  if (!D) return;
  double DG[6][dofs];  // D G
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < dofs; ++k) {
      double s = 0;
      for (int j = 0; j < 6; ++j) s += D[6 * i + j] * r.G[j][k];
      DG[i][k] = w * s;
    }
  for (int a = 0; a < dofs; ++a)
    for (int i = 0; i < 6; ++i) {
      const double g = r.G[i][a];
      if (g == 0) continue;
      for (int b = 0; b < dofs; ++b) K[dofs * a + b] += g * DG[i][b];
    }
}

constexpr double point_xi[4] = {-gauss, -gauss, gauss, gauss};
constexpr double point_eta[4] = {-gauss, gauss, -gauss, gauss};

}  // namespace

int shell8_state_size(const ShellLayers& s) { return 4 * shell_layers_state_size(s); }

void shell8_gauss_weights(const double xyz[24], const ShellSection& s, double w[4]) {
  const Geometry geo(xyz, s);
  for (int q = 0; q < 4; ++q) {
    double gx[3], ge[3];
    w[q] = geo.tangents(Shape(point_xi[q], point_eta[q]), gx, ge);
  }
}

FiberEnergy shell8_update(const double xyz[24], const ShellLayers& s, const double d[48],
                          std::span<const double> committed, std::span<double> trial, double f[48],
                          double* K, double* resultants) {
  const Geometry geo(xyz, s.elastic);
  const Material mat(s.elastic);
  const double alpha = s.elastic.drilling * mat.G * s.elastic.thickness;
  const auto ns = static_cast<std::size_t>(shell_layers_state_size(s));
  INERTIA_CHECK(committed.size() >= 4 * ns && trial.size() >= 4 * ns, InternalError,
                "shell8_update: short spans (", committed.size(), ", ", trial.size(), " for ",
                4 * ns, ")");
  std::fill(f, f + dofs, 0.0);
  if (K) std::fill(K, K + dofs * dofs, 0.0);
  FiberEnergy energy;
  for (int q = 0; q < 4; ++q) {
    const PointRows r(geo, point_xi[q], point_eta[q]);
    double ek[6], nm[6], D[36];
    for (int i = 0; i < 6; ++i) ek[i] = row_dot(r.G[i], d);
    const auto at = static_cast<std::size_t>(q) * ns;
    const FiberEnergy e = shell_layers_update(s, ek, committed.subspan(at, ns),
                                              trial.subspan(at, ns), nm, K ? D : nullptr);
    energy.stored += r.area * e.stored;
    energy.dissipated += r.area * e.dissipated;
    add_section(r, r.area, nm, K ? D : nullptr, f, K);
    // The transverse shear (elastic, k G at the two heights) and the drilling penalty.
    double Q[2] = {};
    for (int h = 0; h < 2; ++h)
      for (int c = 0; c < 2; ++c) {
        const double gamma = row_dot(r.S[h][c], d);
        add_rank_one(r.S[h][c], r.det[h] * mat.shear, gamma, f, K);
        energy.stored += 0.5 * r.det[h] * mat.shear * gamma * gamma;
        Q[c] += geo.half * mat.shear * gamma;
      }
    const double drill = row_dot(r.drill, d);
    add_rank_one(r.drill, r.area * alpha, drill, f, K);
    energy.stored += 0.5 * r.area * alpha * drill * drill;
    if (resultants) {
      const double local[8] = {nm[0], nm[1], nm[2], nm[3], nm[4], nm[5], Q[0], Q[1]};
      shell_to_output_axes(r.R, local, resultants + 8 * q);
    }
  }
  return energy;
}

void shell8_strains(const double xyz[24], const ShellLayers& s, const double d[48], double ek[24],
                    double R[36]) {
  const Geometry geo(xyz, s.elastic);
  for (int q = 0; q < 4; ++q) {
    const PointRows r(geo, point_xi[q], point_eta[q]);
    for (int i = 0; i < 6; ++i) ek[6 * q + i] = row_dot(r.G[i], d);
    std::copy_n(r.R, 9, R + 9 * q);
  }
}

}  // namespace inertia::fe
