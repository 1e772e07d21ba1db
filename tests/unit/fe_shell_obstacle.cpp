// The MITC4 flat shell (fe/shell.hpp) on MacNeal and Harder's shell obstacle course (Finite
// Elements in Analysis and Design 1, 1985, 3-20), assembled and solved here (a banded dense
// solve): the Scordelis-Lo roof, the pinched cylinder with diaphragms and the pinched hemisphere
// with an 18-degree hole converging to the published answers; the twisted beam (warped
// elements).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "../support/banded_solve.hpp"
#include "inertia/fe/shell.hpp"

namespace {

using inertia::fe::ShellSection;

/// A shell mesh: nodes, quads (4 node indices each), 6 DOFs per node (u v w, th x y z).
struct Mesh {
  std::vector<std::array<double, 3>> nodes;
  std::vector<std::array<int, 4>> quads;
  ShellSection section;
  int dofs() const { return 6 * static_cast<int>(nodes.size()); }
};

/// An (n + 1) x (m + 1) grid of nodes point(i, j) (node i (m + 1) + j) in n x m quads.
template <class Point>
Mesh grid(int n, int m, const ShellSection& s, Point point) {
  Mesh mesh;
  mesh.section = s;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= m; ++j) mesh.nodes.push_back(point(i, j));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      mesh.quads.push_back(
          {i * (m + 1) + j, (i + 1) * (m + 1) + j, (i + 1) * (m + 1) + j + 1, i * (m + 1) + j + 1});
  return mesh;
}

/// A cylindrical panel x in [0, length], phi in [0, angle] on radius R (axis along x, the point
/// (x, R sin phi, R cos phi)), n x n flat quads.
struct Panel {
  int n;
  double R, length, angle;
  ShellSection section;
  int node(int i, int j) const { return i * (n + 1) + j; }  // i along x, j along phi
  std::array<double, 3> point(int i, int j) const {
    const double x = length * i / n, phi = angle * j / n;
    return {x, R * std::sin(phi), R * std::cos(phi)};
  }
  int dofs() const { return 6 * (n + 1) * (n + 1); }
  Mesh mesh() const {
    return grid(n, n, section, [&](int i, int j) { return point(i, j); });
  }
};

/// Assembles the mesh's stiffness and the load `f` (6 per node), holds the DOFs `fixed`
/// (fixed(node, dof) -> bool), solves, returns the displacements.
template <class Fixed>
std::vector<double> solve_mesh(const Mesh& mesh, std::vector<double> f, Fixed fixed) {
  const int N = mesh.dofs();
  std::vector<double> K(static_cast<std::size_t>(N) * N, 0.0);
  int band = 0;
  for (const auto& q : mesh.quads) {
    std::array<double, 12> x{};
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) x[3 * a + c] = mesh.nodes[q[a]][c];
    double Ke[576];
    inertia::fe::shell4_stiffness(x.data(), mesh.section, Ke);
    const auto dof = [&](int k) {
      return k < 12 ? 6 * q[k / 3] + k % 3 : 6 * q[(k - 12) / 3] + 3 + k % 3;
    };
    for (int r = 0; r < 24; ++r)
      for (int c = 0; c < 24; ++c) {
        K[static_cast<std::size_t>(dof(r)) * N + dof(c)] += Ke[24 * r + c];
        band = std::max(band, std::abs(dof(r) - dof(c)));
      }
  }
  for (int node = 0; node < N / 6; ++node)
    for (int d = 0; d < 6; ++d) {
      if (!fixed(node, d)) continue;
      const int k = 6 * node + d;
      for (int m = 0; m < N; ++m) {
        K[static_cast<std::size_t>(k) * N + m] = 0;
        K[static_cast<std::size_t>(m) * N + k] = 0;
      }
      K[static_cast<std::size_t>(k) * N + k] = 1;
      f[k] = 0;
    }
  inertia::testing::banded_solve(K, f, N, band);
  return f;
}

/// solve_mesh on a panel, `fixed` given by the grid indices (i, j, dof).
template <class Fixed>
std::vector<double> solve_panel(const Panel& p, std::vector<double> f, Fixed fixed) {
  return solve_mesh(p.mesh(), std::move(f),
                    [&](int node, int d) { return fixed(node / (p.n + 1), node % (p.n + 1), d); });
}

ShellSection section(double t, double E, double nu) {
  ShellSection s;
  s.thickness = t;
  s.youngs_modulus = E;
  s.poissons_ratio = nu;
  s.density = 1;
  return s;
}

/// Scordelis-Lo roof: R 25, L 50, t 0.25, E 4.32e8, nu 0, 90 per area downwards, rigid
/// diaphragms at the ends; a quarter (midspan x = 0 and crown y = 0 are symmetry planes). The
/// vertical displacement at the midspan of the free edge: 0.3024.
double scordelis_lo(int n) {
  const double pi = 3.14159265358979323846;
  const Panel p{n, 25.0, 25.0, 40.0 * pi / 180, section(0.25, 4.32e8, 0.0)};
  std::vector<double> f(static_cast<std::size_t>(p.dofs()), 0.0);
  for (int i = 0; i < n; ++i)  // each flat element's weight, a quarter per node (rectangles)
    for (int j = 0; j < n; ++j) {
      const auto a = p.point(i, j), b = p.point(i + 1, j), c = p.point(i, j + 1);
      const double area = std::abs(b[0] - a[0]) * std::hypot(c[1] - a[1], c[2] - a[2]);
      for (const int node :
           {p.node(i, j), p.node(i + 1, j), p.node(i + 1, j + 1), p.node(i, j + 1)})
        f[6 * node + 2] -= 90.0 * area / 4;
    }
  const auto u = solve_panel(p, f, [&](int i, int j, int d) {
    if (i == n && (d == 1 || d == 2 || d == 3)) return true;  // diaphragm: v = w = th_x = 0
    if (i == 0 && (d == 0 || d == 4 || d == 5)) return true;  // midspan symmetry
    if (j == 0 && (d == 1 || d == 3 || d == 5)) return true;  // crown symmetry
    return false;
  });
  return -u[6 * p.node(0, n) + 2];
}

/// Pinched cylinder with diaphragms: R 300, L 600, t 3, E 3e6, nu 0.3, two opposite loads P = 1;
/// an octant (x = 0, y = 0 and z = 0 symmetry planes), P / 4 on it. The displacement under the
/// load: 1.8248e-5.
double pinched_cylinder(int n) {
  const double pi = 3.14159265358979323846;
  const Panel p{n, 300.0, 300.0, pi / 2, section(3.0, 3.0e6, 0.3)};
  std::vector<double> f(static_cast<std::size_t>(p.dofs()), 0.0);
  f[6 * p.node(0, 0) + 2] = -0.25;
  const auto u = solve_panel(p, f, [&](int i, int j, int d) {
    if (i == n && (d == 1 || d == 2 || d == 3)) return true;  // diaphragm
    if (i == 0 && (d == 0 || d == 4 || d == 5)) return true;  // x = 0 symmetry
    if (j == 0 && (d == 1 || d == 3 || d == 5)) return true;  // y = 0 symmetry
    if (j == n && (d == 2 || d == 3 || d == 4)) return true;  // z = 0 symmetry
    return false;
  });
  return -u[6 * p.node(0, 0) + 2];
}

/// Pinched hemisphere with an 18-degree hole: R 10, t 0.04, E 6.825e7, nu 0.3; a quarter
/// (longitude phi in [0, 90] degrees, latitude in [0, 72] degrees, n x n quads), the equator's
/// two points loaded by F = 1 outwards at (R, 0, 0) and inwards at (0, R, 0); the y = 0 and
/// x = 0 planes are symmetry planes, w held at one node of the hole. The displacement under the
/// load along it: 0.094.
double pinched_hemisphere(int n) {
  const ShellSection s = section(0.04, 6.825e7, 0.3);
  const double pi = 3.14159265358979323846, R = 10;
  const Mesh mesh = grid(n, n, s, [&](int i, int j) {
    const double phi = pi / 2 * i / n, lat = 0.4 * pi * j / n;  // 72 degrees = 0.4 pi
    return std::array<double, 3>{R * std::cos(lat) * std::cos(phi),
                                 R * std::cos(lat) * std::sin(phi), R * std::sin(lat)};
  });
  const auto node = [&](int i, int j) { return i * (n + 1) + j; };
  std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
  f[6 * node(0, 0) + 0] = 1;   // outwards at (R, 0, 0)
  f[6 * node(n, 0) + 1] = -1;  // inwards at (0, R, 0)
  const auto u = solve_mesh(mesh, f, [&](int k, int d) {
    const int i = k / (n + 1), j = k % (n + 1);
    if (i == 0 && (d == 1 || d == 3 || d == 5)) return true;  // y = 0: v = th_x = th_z = 0
    if (i == n && (d == 0 || d == 4 || d == 5)) return true;  // x = 0: u = th_y = th_z = 0
    return i == 0 && j == n && d == 2;                        // w at one point of the hole
  });
  return u[6 * node(0, 0) + 0];
}

/// MacNeal and Harder's twisted beam: L 12, width 1.1, t 0.32, E 29e6, nu 0.22, twisted by 90
/// degrees from the root (width along y) to the tip (width along z), 12 x 2 quads (each warped
/// by the 7.5 degree twist), clamped at the root; a unit tip load (1/4, 1/2, 1/4 on the tip's
/// three nodes) along the tip's width (z: 5.424e-3) or across it (y: 1.754e-3). Returns the
/// displacement of the tip's middle node along the load.
double twisted_beam(int dir) {
  const ShellSection s = section(0.32, 29.0e6, 0.22);
  const double pi = 3.14159265358979323846;
  const int n = 12, m = 2;
  const Mesh mesh = grid(n, m, s, [&](int i, int j) {
    const double x = 12.0 * i / n, w = 1.1 * (j - 1) / m, twist = pi / 2 * i / n;
    return std::array<double, 3>{x, w * std::cos(twist), w * std::sin(twist)};
  });
  std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
  const int tip = n * (m + 1);
  f[6 * tip + dir] = 0.25;
  f[6 * (tip + 1) + dir] = 0.5;
  f[6 * (tip + 2) + dir] = 0.25;
  const auto u = solve_mesh(mesh, f, [&](int k, int) { return k < m + 1; });
  return u[6 * (tip + 1) + dir];
}

TEST(ShellObstacle, ScordelisLoRoofConverges) {
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(scordelis_lo(n) / 0.3024);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  // 1.0445, 1.0045, 0.9972 (1.0147, 0.9958, 0.9949 with the drilling penalty fully 2 x 2
  // integrated): within 2 % from 8 x 8 on (the converged shell answers of most elements lie a
  // little below 0.3024, MacNeal and Harder's theoretical value).
  EXPECT_NEAR(ratio[1], 1.0, 0.02);
  EXPECT_NEAR(ratio[2], 1.0, 0.01);
}

TEST(ShellObstacle, PinchedCylinderConverges) {
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(pinched_cylinder(n) / 1.8248e-5);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  // 0.3860, 0.7533, 0.9318 (and 0.9894 at 32 x 32): MITC4's known slow convergence on this
  // bending-dominated case with a point load (published four-node values at 16 x 16: 0.93 to
  // 0.94). NOT within the 5 % at 16 x 16 one may ask of a shell element: 6.8 % short (the curved
  // eight-node shell is: 1.0031, fe_shell8.cpp). Neither the
  // drilling penalty (factor 1 to 0.001, or fully 2 x 2 integrated: 0.9285 to 0.9322) nor the
  // incompatible membrane modes (0.9284 without them) is the cause: it is the bilinear bending
  // field's discretization error, of second order (errors 0.247, 0.068, 0.0106 at 8, 16, 32;
  // the 16 / 32 Richardson extrapolation 1.009).
  EXPECT_LT(ratio[0], ratio[1]);
  EXPECT_LT(ratio[1], ratio[2]);
  EXPECT_NEAR(ratio[2], 0.93, 0.01);
}

TEST(ShellObstacle, PinchedHemisphereConverges) {
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(pinched_hemisphere(n) / 0.094);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  // 0.9237, 0.9835, 0.9901 (0.9935 at 32 x 32; the converged shell answer lies a little below
  // MacNeal and Harder's 0.094). With the drilling penalty fully 2 x 2 integrated: 0.136, 0.674,
  // 0.962 (see shell.hpp).
  EXPECT_LT(ratio[0], ratio[1]);
  EXPECT_LT(ratio[1], ratio[2]);
  EXPECT_NEAR(ratio[1], 1.0, 0.02);
  EXPECT_NEAR(ratio[2], 1.0, 0.02);
}

TEST(ShellObstacle, TwistedBeamOnMacNealAndHardersMesh) {
  // Warped elements: without the warping correction (the plain flat projection) 0.418 and
  // 0.562, far too stiff. With it 0.9967 and 1.0012 (MacNeal and Harder's QUAD4 and the MITC4 /
  // S4 class are reported within about 2 % on this 12 x 2 mesh).
  const double in_plane = twisted_beam(2) / 5.424e-3, out_of_plane = twisted_beam(1) / 1.754e-3;
  RecordProperty("in_plane_ratio", std::to_string(in_plane));
  RecordProperty("out_of_plane_ratio", std::to_string(out_of_plane));
  EXPECT_NEAR(in_plane, 1.0, 0.01);
  EXPECT_NEAR(out_of_plane, 1.0, 0.01);
}

}  // namespace

TEST(ShellOffset, EccentricTensionBendsTheStripAsBeamTheorySays) {
  // A cantilever strip L x b x t (nu = 0: a beam) on 20 x 1 quads whose nodes lie o above the
  // mid-surface, pulled along by P at its tip's nodes: a tension P and a moment P o on the
  // section. The tip moves along by P L / (E A) + P o^2 L / (E I), down by P o L^2 / (2 E I) and
  // turns by P o L / (E I) (constant curvature: exact on any mesh). The resultants about the
  // nodes' surface: N11 = P / b, M11 = 0 (the load's own line).
  const double L = 10, b = 1, t = 0.1, E = 1.0e7, P = 1, A = b * t, I = b * t * t * t / 12;
  for (const double o : {0.5 * t, -0.5 * t, 0.3 * t}) {
    ShellSection s = section(t, E, 0.0);
    s.offset = o;
    const int n = 20;
    const Mesh mesh = grid(n, 1, s, [&](int i, int j) {
      return std::array<double, 3>{L * i / n, b * j, 0.0};
    });
    std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
    f[6 * (2 * n)] = f[6 * (2 * n + 1)] = P / 2;
    const auto u = solve_mesh(mesh, f, [&](int node, int) { return node < 2; });
    const double kappa = P * o / (E * I);
    const double tip_u = 0.5 * (u[6 * (2 * n)] + u[6 * (2 * n + 1)]);
    const double tip_w = 0.5 * (u[6 * (2 * n) + 2] + u[6 * (2 * n + 1) + 2]);
    const double tip_ry = 0.5 * (u[6 * (2 * n) + 4] + u[6 * (2 * n + 1) + 4]);
    EXPECT_NEAR(tip_u, P * L / (E * A) + kappa * o * L, 1e-8 * std::abs(kappa * o * L)) << o;
    EXPECT_NEAR(tip_w, -kappa * L * L / 2, 1e-8 * std::abs(kappa * L * L / 2)) << o;
    EXPECT_NEAR(tip_ry, kappa * L, 1e-8 * std::abs(kappa * L)) << o;
    // The middle element's resultants.
    const auto& q = mesh.quads[n / 2];
    double x[12], d[24], r[8];
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) {
        x[3 * a + c] = mesh.nodes[q[a]][c];
        d[3 * a + c] = u[6 * q[a] + c];
        d[12 + 3 * a + c] = u[6 * q[a] + 3 + c];
      }
    inertia::fe::shell4_resultants(x, s, d, r);
    EXPECT_NEAR(r[0], P / b, 1e-8 * P / b) << o;
    EXPECT_NEAR(r[3], 0, 1e-8 * P * std::abs(o) / b) << o;
  }
}
