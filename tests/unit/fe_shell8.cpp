// The eight-node curved shell (fe/shell8.hpp): rigid motions, the membrane and bending patch
// tests on a distorted mesh, and MacNeal and Harder's shell obstacle course (Finite Elements in
// Analysis and Design 1, 1985, 3-20) assembled and solved here: the pinched cylinder, the
// Scordelis-Lo roof and the pinched hemisphere converging to the published answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../support/banded_solve.hpp"
#include "inertia/fe/shell8.hpp"

namespace {

using inertia::fe::ShellSection;
constexpr double pi = 3.14159265358979323846;

ShellSection section(double t, double E, double nu) {
  ShellSection s;
  s.thickness = t;
  s.youngs_modulus = E;
  s.poissons_ratio = nu;
  s.density = 1;
  return s;
}

/// A quad8 mesh: nodes, cells (8 node indices, Gmsh's order), 6 DOFs per node.
struct Mesh {
  std::vector<std::array<double, 3>> nodes;
  std::vector<std::array<int, 8>> cells;
  std::vector<bool> used;
  ShellSection section;
  int dofs() const { return 6 * static_cast<int>(nodes.size()); }
};

/// An n x m grid of quad8 cells on the (2n + 1) x (2m + 1) lattice point(i, j) (i in [0, 2n],
/// j in [0, 2m]; node i (2m + 1) + j; the cells' centres are not nodes).
template <class Point>
Mesh grid(int n, int m, const ShellSection& s, Point point) {
  Mesh mesh;
  mesh.section = s;
  for (int i = 0; i <= 2 * n; ++i)
    for (int j = 0; j <= 2 * m; ++j) mesh.nodes.push_back(point(i, j));
  const auto id = [&](int i, int j) { return i * (2 * m + 1) + j; };
  mesh.used.assign(mesh.nodes.size(), false);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      const int I = 2 * i, J = 2 * j;
      mesh.cells.push_back({id(I, J), id(I + 2, J), id(I + 2, J + 2), id(I, J + 2), id(I + 1, J),
                            id(I + 2, J + 1), id(I + 1, J + 2), id(I, J + 1)});
      for (const int k : mesh.cells.back()) mesh.used[static_cast<std::size_t>(k)] = true;
    }
  return mesh;
}

std::array<double, 24> coordinates(const Mesh& mesh, const std::array<int, 8>& c) {
  std::array<double, 24> x{};
  for (int a = 0; a < 8; ++a)
    for (int k = 0; k < 3; ++k) x[3 * a + k] = mesh.nodes[c[a]][k];
  return x;
}

int dof(const std::array<int, 8>& c, int k) {
  return k < 24 ? 6 * c[k / 3] + k % 3 : 6 * c[(k - 24) / 3] + 3 + k % 3;
}

/// Assembles, holds the DOFs `fixed(node, dof)` (and every DOF of the unused lattice nodes),
/// solves K u = f.
template <class Fixed>
std::vector<double> solve_mesh(const Mesh& mesh, std::vector<double> f, Fixed fixed) {
  const int N = mesh.dofs();
  std::vector<double> K(static_cast<std::size_t>(N) * N, 0.0);
  int band = 0;
  for (const auto& c : mesh.cells) {
    const auto x = coordinates(mesh, c);
    std::vector<double> Ke(2304);
    inertia::fe::shell8_stiffness(x.data(), mesh.section, Ke.data());
    for (int r = 0; r < 48; ++r)
      for (int k = 0; k < 48; ++k) {
        K[static_cast<std::size_t>(dof(c, r)) * N + dof(c, k)] += Ke[48 * r + k];
        band = std::max(band, std::abs(dof(c, r) - dof(c, k)));
      }
  }
  for (int node = 0; node < N / 6; ++node)
    for (int d = 0; d < 6; ++d) {
      if (mesh.used[static_cast<std::size_t>(node)] && !fixed(node, d)) continue;
      const int k = 6 * node + d;
      for (int m = std::max(0, k - band); m < std::min(N, k + band + 1); ++m) {
        K[static_cast<std::size_t>(k) * N + m] = 0;
        K[static_cast<std::size_t>(m) * N + k] = 0;
      }
      K[static_cast<std::size_t>(k) * N + k] = 1;
      f[k] = 0;
    }
  inertia::testing::banded_solve(K, f, N, band);
  return f;
}

/// A cylindrical panel (axis along x, the point (x, R sin phi, R cos phi)), x in [0, length], phi
/// in [0, angle], n x n quad8 cells.
Mesh panel(int n, double R, double length, double angle, const ShellSection& s) {
  return grid(n, n, s, [&](int i, int j) {
    const double x = length * i / (2 * n), phi = angle * j / (2 * n);
    return std::array<double, 3>{x, R * std::sin(phi), R * std::cos(phi)};
  });
}

/// Pinched cylinder with diaphragms (R 300, L 600, t 3, E 3e6, nu 0.3, P 1): an octant, P / 4
/// on it. The displacement under the load: 1.8248e-5.
double pinched_cylinder(int n) {
  const Mesh mesh = panel(n, 300.0, 300.0, pi / 2, section(3.0, 3.0e6, 0.3));
  const int side = 2 * n;
  std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
  f[2] = -0.25;  // node (0, 0)
  const auto u = solve_mesh(mesh, f, [&](int k, int d) {
    const int i = k / (side + 1), j = k % (side + 1);
    if (i == side && (d == 1 || d == 2 || d == 3)) return true;  // diaphragm
    if (i == 0 && (d == 0 || d == 4 || d == 5)) return true;     // x = 0 symmetry
    if (j == 0 && (d == 1 || d == 3 || d == 5)) return true;     // y = 0 symmetry
    if (j == side && (d == 2 || d == 3 || d == 4)) return true;  // z = 0 symmetry
    return false;
  });
  return -u[2];
}

/// Scordelis-Lo roof (R 25, L 50, t 0.25, E 4.32e8, nu 0, 90 per area downwards, diaphragm
/// ends): a quarter; the vertical displacement at the free edge's midspan: 0.3024.
double scordelis_lo(int n) {
  const Mesh mesh = panel(n, 25.0, 25.0, 40.0 * pi / 180, section(0.25, 4.32e8, 0.0));
  const int side = 2 * n;
  std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
  const double q[3] = {0, 0, -90.0};
  for (const auto& c : mesh.cells) {
    const auto x = coordinates(mesh, c);
    double fe[24];
    inertia::fe::shell8_surface_load(x.data(), q, fe);
    for (int a = 0; a < 8; ++a)
      for (int k = 0; k < 3; ++k) f[static_cast<std::size_t>(6 * c[a] + k)] += fe[3 * a + k];
  }
  const auto u = solve_mesh(mesh, f, [&](int k, int d) {
    const int i = k / (side + 1), j = k % (side + 1);
    if (i == side && (d == 1 || d == 2 || d == 3)) return true;  // diaphragm
    if (i == 0 && (d == 0 || d == 4 || d == 5)) return true;     // midspan symmetry
    if (j == 0 && (d == 1 || d == 3 || d == 5)) return true;     // crown symmetry
    return false;
  });
  return -u[static_cast<std::size_t>(6 * side + 2)];  // node (0, side)
}

/// Pinched hemisphere with an 18-degree hole (R 10, t 0.04, E 6.825e7, nu 0.3, F 1): a quarter;
/// the displacement under the load along it: 0.094.
double pinched_hemisphere(int n) {
  const double R = 10;
  const Mesh mesh = grid(n, n, section(0.04, 6.825e7, 0.3), [&](int i, int j) {
    const double phi = pi / 2 * i / (2 * n), lat = 0.4 * pi * j / (2 * n);
    return std::array<double, 3>{R * std::cos(lat) * std::cos(phi),
                                 R * std::cos(lat) * std::sin(phi), R * std::sin(lat)};
  });
  const int side = 2 * n;
  const auto node = [&](int i, int j) { return i * (side + 1) + j; };
  std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
  f[static_cast<std::size_t>(6 * node(0, 0))] = 1;
  f[static_cast<std::size_t>(6 * node(side, 0) + 1)] = -1;
  const auto u = solve_mesh(mesh, f, [&](int k, int d) {
    const int i = k / (side + 1), j = k % (side + 1);
    if (i == 0 && (d == 1 || d == 3 || d == 5)) return true;
    if (i == side && (d == 0 || d == 4 || d == 5)) return true;
    return i == 0 && j == side && d == 2;
  });
  return u[static_cast<std::size_t>(6 * node(0, 0))];
}

/// Solves with every DOF of the nodes `boundary(node)` prescribed to exact(node) (6 values) and
/// the others free; returns the solution (6 per node).
template <class Boundary, class Exact>
std::vector<double> solve_prescribed(const Mesh& mesh, Boundary boundary, Exact exact) {
  const int N = mesh.dofs();
  std::vector<double> K(static_cast<std::size_t>(N) * N, 0.0), u(static_cast<std::size_t>(N), 0.0);
  for (const auto& c : mesh.cells) {
    const auto x = coordinates(mesh, c);
    std::vector<double> Ke(2304);
    inertia::fe::shell8_stiffness(x.data(), mesh.section, Ke.data());
    for (int r = 0; r < 48; ++r)
      for (int k = 0; k < 48; ++k)
        K[static_cast<std::size_t>(dof(c, r)) * N + dof(c, k)] += Ke[48 * r + k];
  }
  std::vector<bool> fixed(static_cast<std::size_t>(N), false);
  for (int node = 0; node < N / 6; ++node) {
    if (mesh.used[static_cast<std::size_t>(node)] && !boundary(node)) continue;
    const std::array<double, 6> e = exact(node);
    for (int d = 0; d < 6; ++d) {
      fixed[static_cast<std::size_t>(6 * node + d)] = true;
      u[static_cast<std::size_t>(6 * node + d)] =
          mesh.used[static_cast<std::size_t>(node)] ? e[d] : 0;
    }
  }
  std::vector<double> f(static_cast<std::size_t>(N), 0.0);
  for (int r = 0; r < N; ++r) {
    if (fixed[static_cast<std::size_t>(r)]) {
      f[static_cast<std::size_t>(r)] = u[static_cast<std::size_t>(r)];
      continue;
    }
    for (int k = 0; k < N; ++k)
      if (fixed[static_cast<std::size_t>(k)])
        f[static_cast<std::size_t>(r)] -=
            K[static_cast<std::size_t>(r) * N + k] * u[static_cast<std::size_t>(k)];
  }
  for (int k = 0; k < N; ++k)
    if (fixed[static_cast<std::size_t>(k)]) {
      for (int m = 0; m < N; ++m) {
        K[static_cast<std::size_t>(k) * N + m] = 0;
        K[static_cast<std::size_t>(m) * N + k] = 0;
      }
      K[static_cast<std::size_t>(k) * N + k] = 1;
    }
  inertia::testing::banded_solve(K, f, N, N - 1);
  return f;
}

/// A 2 x 2 patch of straight-sided quad8 cells on [0, 2]^2 (z = 0), the inner corner moved to
/// (1.1, 0.85) (distorted) or every corner sheared to (I + 0.3 J, 0.9 J) (skewed: parallelograms);
/// the mid-side nodes at the edges' midpoints.
Mesh distorted_patch(const ShellSection& s, bool skewed = false) {
  const auto corner = [&](int I, int J) {
    if (skewed) return std::array<double, 3>{I + 0.3 * J, 0.9 * J, 0};
    if (I == 1 && J == 1) return std::array<double, 3>{1.1, 0.85, 0};
    return std::array<double, 3>{1.0 * I, 1.0 * J, 0};
  };
  return grid(2, 2, s, [&](int i, int j) {
    const auto a = corner(i / 2, j / 2), b = corner((i + 1) / 2, (j + 1) / 2);
    return std::array<double, 3>{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, 0};
  });
}

bool on_patch_boundary(int node) {
  const int i = node / 5, j = node % 5;
  return i == 0 || i == 4 || j == 0 || j == 4;
}

TEST(Shell8, RigidMotionsHaveNoEnergy) {
  // A curved, distorted element on a sphere of radius 5, thick and thin.
  for (const double t : {0.5, 0.01}) {
    std::array<double, 24> x{};
    const double xi[8] = {-1, 1, 1, -1, 0, 1, 0, -1}, eta[8] = {-1, -1, 1, 1, -1, 0, 1, 0};
    for (int a = 0; a < 8; ++a) {
      const double th = 0.3 * xi[a] + 0.05 * eta[a] * xi[a], ph = 0.25 * eta[a] + 0.02 * xi[a];
      x[3 * a] = 5 * std::cos(ph) * std::cos(th);
      x[3 * a + 1] = 5 * std::cos(ph) * std::sin(th);
      x[3 * a + 2] = 5 * std::sin(ph);
    }
    ShellSection s = section(t, 2.0e11, 0.3);
    s.offset = 0.3 * t;
    std::vector<double> K(2304);
    inertia::fe::shell8_stiffness(x.data(), s, K.data());
    double largest = 0;
    for (int k = 0; k < 48; ++k) largest = std::max(largest, std::abs(K[49 * k]));
    for (int mode = 0; mode < 6; ++mode) {
      // translation e_mode, or the rotation w = e_(mode - 3): u_a = w x x_a, th_a = w
      double d[48]{};
      for (int a = 0; a < 8; ++a) {
        if (mode < 3) {
          d[3 * a + mode] = 1;
          continue;
        }
        const double w[3] = {mode == 3 ? 1.0 : 0.0, mode == 4 ? 1.0 : 0.0, mode == 5 ? 1.0 : 0.0};
        const double* p = &x[3 * a];
        d[3 * a] = w[1] * p[2] - w[2] * p[1];
        d[3 * a + 1] = w[2] * p[0] - w[0] * p[2];
        d[3 * a + 2] = w[0] * p[1] - w[1] * p[0];
        for (int i = 0; i < 3; ++i) d[24 + 3 * a + i] = w[i];
      }
      for (int r = 0; r < 48; ++r) {
        double f = 0;
        for (int k = 0; k < 48; ++k) f += K[48 * r + k] * d[k];
        EXPECT_LT(std::abs(f), 1e-9 * largest * 5) << "t " << t << " mode " << mode << " row " << r;
      }
    }
  }
}

TEST(Shell8, MembranePatchTestOnADistortedMesh) {
  // u = 1e-3 (x + 2 y), v = 1e-3 (-0.5 x + 3 y), th_z their rotation (v,x - u,y) / 2: exact at
  // the inner nodes, and the resultants N = E t / (1 - nu^2) [e11 + nu e22, ...].
  const ShellSection s = section(0.1, 2.0e11, 0.3);
  const Mesh mesh = distorted_patch(s);
  const auto exact = [&](int node) {
    const auto& p = mesh.nodes[static_cast<std::size_t>(node)];
    return std::array<double, 6>{1e-3 * (p[0] + 2 * p[1]), 1e-3 * (-0.5 * p[0] + 3 * p[1]), 0, 0, 0,
                                 0.5e-3 * (-0.5 - 2)};
  };
  const auto u = solve_prescribed(mesh, on_patch_boundary, exact);
  for (int node = 0; node < 25; ++node) {
    if (!mesh.used[static_cast<std::size_t>(node)]) continue;
    const auto e = exact(node);
    for (int d = 0; d < 6; ++d)
      EXPECT_NEAR(u[static_cast<std::size_t>(6 * node + d)], e[d], 1e-14) << node;
  }
  const double c = 2.0e11 * 0.1 / (1 - 0.09), G = 2.0e11 / 2.6;
  for (const auto& cell : mesh.cells) {
    const auto x = coordinates(mesh, cell);
    double d[48], r[8];
    for (int k = 0; k < 48; ++k) d[k] = u[static_cast<std::size_t>(dof(cell, k))];
    inertia::fe::shell8_resultants(x.data(), s, d, r);
    EXPECT_NEAR(r[0], c * (1e-3 + 0.3 * 3e-3), 1e-9 * c * 1e-3);
    EXPECT_NEAR(r[1], c * (3e-3 + 0.3 * 1e-3), 1e-9 * c * 1e-3);
    EXPECT_NEAR(r[2], G * 0.1 * 1.5e-3, 1e-9 * c * 1e-3);
    for (int i = 3; i < 8; ++i) EXPECT_NEAR(r[i], 0, 1e-9 * c * 1e-3);
  }
}

TEST(Shell8, BendingPatchTestOnASkewedMesh) {
  // w = (a x^2 + b y^2 + c x y) / 2 with th_x = w,y, th_y = -w,x (no transverse shear): exact at
  // the inner nodes; M11 = -D (a + nu b), M22 = -D (b + nu a), M12 = -D (1 - nu) c / 2, Q = 0.
  // On parallelograms: the serendipity element holds a quadratic field only where its map is
  // affine; on the distorted patch of the membrane test the inner nodes miss it by 1.6e-6 of
  // 1e-3 (measured; the field converges, the pinched cylinder and the plates below show how).
  const double a = 1e-3, b = -2e-3, cxy = 1.5e-3, t = 0.05, nu = 0.3;
  const ShellSection s = section(t, 2.0e11, nu);
  const Mesh mesh = distorted_patch(s, true);
  const auto exact = [&](int node) {
    const auto& p = mesh.nodes[static_cast<std::size_t>(node)];
    const double x = p[0], y = p[1];
    return std::array<double, 6>{0,
                                 0,
                                 0.5 * (a * x * x + b * y * y + cxy * x * y),
                                 b * y + 0.5 * cxy * x,
                                 -(a * x + 0.5 * cxy * y),
                                 0};
  };
  const auto u = solve_prescribed(mesh, on_patch_boundary, exact);
  for (int node = 0; node < 25; ++node) {
    if (!mesh.used[static_cast<std::size_t>(node)]) continue;
    const auto e = exact(node);
    for (int d = 0; d < 6; ++d)
      EXPECT_NEAR(u[static_cast<std::size_t>(6 * node + d)], e[d], 1e-13) << node;
  }
  const double D = 2.0e11 * t * t * t / (12 * (1 - nu * nu));
  for (const auto& cell : mesh.cells) {
    const auto x = coordinates(mesh, cell);
    double d[48], r[8];
    for (int k = 0; k < 48; ++k) d[k] = u[static_cast<std::size_t>(dof(cell, k))];
    inertia::fe::shell8_resultants(x.data(), s, d, r);
    const double scale = D * 1e-3;
    EXPECT_NEAR(r[3], -D * (a + nu * b), 1e-9 * scale);
    EXPECT_NEAR(r[4], -D * (b + nu * a), 1e-9 * scale);
    EXPECT_NEAR(r[5], -D * (1 - nu) * cxy / 2, 1e-9 * scale);
    for (const int i : {0, 1, 2, 6, 7}) EXPECT_NEAR(r[i], 0, 1e-9 * scale);
  }
}

TEST(Shell8, EccentricTensionBendsTheStripAsBeamTheorySays) {
  // As the four-node element's test (fe_shell_obstacle.cpp): a strip L x b x t (nu 0) on 10 x 1
  // quad8 cells whose nodes lie o above the mid-surface, pulled by P at its tip: the tip moves
  // along by P L / (E A) + P o^2 L / (E I), down by P o L^2 / (2 E I) and turns by P o L / (E I);
  // N11 = P / b, M11 = 0 about the nodes' surface.
  const double L = 10, b = 1, t = 0.1, E = 1.0e7, P = 1, A = b * t, I = b * t * t * t / 12;
  for (const double o : {0.5 * t, -0.5 * t, 0.3 * t}) {
    ShellSection s = section(t, E, 0.0);
    s.offset = o;
    const int n = 10;
    const Mesh mesh = grid(n, 1, s, [&](int i, int j) {
      return std::array<double, 3>{L * i / (2 * n), b * j / 2, 0.0};
    });
    std::vector<double> f(static_cast<std::size_t>(mesh.dofs()), 0.0);
    const int tip = 2 * n * 3;  // nodes (2n, 0..2)
    f[static_cast<std::size_t>(6 * tip)] = P / 6;
    f[static_cast<std::size_t>(6 * (tip + 1))] = 2 * P / 3;
    f[static_cast<std::size_t>(6 * (tip + 2))] = P / 6;
    const auto u = solve_mesh(mesh, f, [&](int node, int) { return node < 3; });
    const double kappa = P * o / (E * I);
    for (int k = tip; k < tip + 3; ++k) {
      EXPECT_NEAR(u[static_cast<std::size_t>(6 * k)], P * L / (E * A) + kappa * o * L,
                  1e-8 * std::abs(kappa * o * L))
          << o;
      EXPECT_NEAR(u[static_cast<std::size_t>(6 * k + 2)], -kappa * L * L / 2,
                  1e-8 * std::abs(kappa * L * L / 2))
          << o;
      EXPECT_NEAR(u[static_cast<std::size_t>(6 * k + 4)], kappa * L, 1e-8 * std::abs(kappa * L))
          << o;
    }
    const auto& cell = mesh.cells[n / 2];
    const auto x = coordinates(mesh, cell);
    double d[48], r[8];
    for (int k = 0; k < 48; ++k) d[k] = u[static_cast<std::size_t>(dof(cell, k))];
    inertia::fe::shell8_resultants(x.data(), s, d, r);
    EXPECT_NEAR(r[0], P / b, 1e-8 * P / b) << o;
    EXPECT_NEAR(r[3], 0, 1e-8 * P * std::abs(o) / b) << o;
  }
}

TEST(Shell8, LumpedMassAndAreaOfACurvedElement) {
  // A quad8 on a cylinder of radius 2 (30 degrees by 1.5 along the axis, the nodes on the
  // surface): its area R theta L to the interpolation's error, the HRZ mass rho t A in all,
  // positive at every node (each node its share of the consistent diagonal).
  const double R = 2, th = 3.14159265358979323846 / 6, L = 1.5;
  std::array<double, 24> x{};
  const double xi[8] = {-1, 1, 1, -1, 0, 1, 0, -1}, eta[8] = {-1, -1, 1, 1, -1, 0, 1, 0};
  for (int a = 0; a < 8; ++a) {
    const double phi = th * (1 + xi[a]) / 2;
    x[3 * a] = L * (1 + eta[a]) / 2;
    x[3 * a + 1] = R * std::sin(phi);
    x[3 * a + 2] = R * std::cos(phi);
  }
  const double area = inertia::fe::shell8_area(x.data());
  EXPECT_NEAR(area / (R * th * L), 1, 2e-4);
  ShellSection s = section(0.02, 2.0e11, 0.3);
  s.density = 7800;
  double m[48];
  inertia::fe::shell8_lumped_mass(x.data(), s, m);
  double translation = 0, rotation = 0;
  for (int a = 0; a < 8; ++a) {
    EXPECT_GT(m[3 * a], 0);
    EXPECT_EQ(m[3 * a], m[3 * a + 2]);
    translation += m[3 * a];
    rotation += m[24 + 3 * a];
  }
  EXPECT_NEAR(translation / (7800 * 0.02 * area), 1, 1e-14);
  EXPECT_NEAR(rotation / (7800 * 0.02 * area * 0.02 * 0.02 / 12), 1, 1e-14);
  // The consistent nodal loads of a uniform pressure-like load sum to q A.
  const double q[3] = {0, 0, -3};
  double f[24];
  inertia::fe::shell8_surface_load(x.data(), q, f);
  double fz = 0;
  for (int a = 0; a < 8; ++a) fz += f[3 * a + 2];
  EXPECT_NEAR(fz / (-3 * area), 1, 1e-14);
  EXPECT_LT(f[2] / fz, 0);  // a corner's share is negative (serendipity)
}

TEST(Shell8, PinchedCylinderWithin5PercentAt16x16) {
  // 0.8576, 0.9768, 1.0031 (the four-node MITC4 on the same meshes: 0.386, 0.753, 0.932,
  // fe_shell_obstacle.cpp): the 5 % at 16 x 16 met (0.3 %).
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(pinched_cylinder(n) / 1.8248e-5);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  EXPECT_LT(std::abs(ratio[1] - 1), 0.5 * std::abs(ratio[0] - 1));
  EXPECT_LT(std::abs(ratio[2] - 1), 0.5 * std::abs(ratio[1] - 1));
  EXPECT_NEAR(ratio[2], 1.0, 0.05);
  EXPECT_NEAR(ratio[2], 1.0031, 1e-3);  // a change of the element shows here
}

TEST(Shell8, ScordelisLoRoofWithin2Percent) {
  // 0.9997, 0.9970, 0.9969 (the converged shell answers lie a little below 0.3024).
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(scordelis_lo(n) / 0.3024);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  for (const double r : ratio) EXPECT_NEAR(r, 1.0, 0.02);
  EXPECT_NEAR(ratio[2], ratio[1], 1e-3);  // converged
}

TEST(Shell8, PinchedHemisphereWithin2PercentAt16x16) {
  // 0.809, 0.993, 0.998: membrane locking of the doubly curved 4 x 4 mesh, gone by 8 x 8.
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(pinched_hemisphere(n) / 0.094);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  EXPECT_LT(ratio[0], ratio[1]);
  EXPECT_NEAR(ratio[1], 1.0, 0.02);
  EXPECT_NEAR(ratio[2], 1.0, 0.02);
}

}  // namespace
