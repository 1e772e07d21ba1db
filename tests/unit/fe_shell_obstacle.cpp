// The MITC4 flat shell (fe/shell.hpp) on MacNeal and Harder's shell obstacle course (Finite
// Elements in Analysis and Design 1, 1985, 3-20), assembled and solved here (a banded dense
// solve): the Scordelis-Lo roof and the pinched cylinder with diaphragms, converging to the
// published answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "inertia/fe/shell.hpp"

namespace {

using inertia::fe::ShellSection;

/// A cylindrical panel x in [0, length], phi in [0, angle] on radius R (axis along x, the point
/// (x, R sin phi, R cos phi)), n x n flat quads; 6 DOFs per node (u v w, th x y z).
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
};

/// Banded symmetric solve (Gaussian elimination without pivoting: K is positive definite once
/// the constraints are in). A is dofs x dofs, row-major.
void banded_solve(std::vector<double>& A, std::vector<double>& b, int n, int band) {
  for (int k = 0; k < n; ++k) {
    const int last = std::min(n, k + band + 1);
    for (int i = k + 1; i < last; ++i) {
      const double f =
          A[static_cast<std::size_t>(i) * n + k] / A[static_cast<std::size_t>(k) * n + k];
      if (f == 0) continue;
      for (int j = k; j < last; ++j)
        A[static_cast<std::size_t>(i) * n + j] -= f * A[static_cast<std::size_t>(k) * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    const int last = std::min(n, k + band + 1);
    for (int j = k + 1; j < last; ++j) b[k] -= A[static_cast<std::size_t>(k) * n + j] * b[j];
    b[k] /= A[static_cast<std::size_t>(k) * n + k];
  }
}

/// Assembles the panel's stiffness and the load `f` (per node: 6), holds the DOFs `fixed`
/// (d(node, dof) -> bool), solves, returns the displacements.
template <class Fixed>
std::vector<double> solve_panel(const Panel& p, std::vector<double> f, Fixed fixed) {
  const int N = p.dofs();
  std::vector<double> K(static_cast<std::size_t>(N) * N, 0.0);
  for (int i = 0; i < p.n; ++i)
    for (int j = 0; j < p.n; ++j) {
      const int q[4] = {p.node(i, j), p.node(i + 1, j), p.node(i + 1, j + 1), p.node(i, j + 1)};
      std::array<double, 12> x{};
      const std::array<double, 3> pts[4] = {p.point(i, j), p.point(i + 1, j), p.point(i + 1, j + 1),
                                            p.point(i, j + 1)};
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c) x[3 * a + c] = pts[a][c];
      double Ke[576];
      inertia::fe::shell4_stiffness(x.data(), p.section, Ke);
      const auto dof = [&](int k) {
        return k < 12 ? 6 * q[k / 3] + k % 3 : 6 * q[(k - 12) / 3] + 3 + k % 3;
      };
      for (int r = 0; r < 24; ++r)
        for (int c = 0; c < 24; ++c)
          K[static_cast<std::size_t>(dof(r)) * N + dof(c)] += Ke[24 * r + c];
    }
  for (int i = 0; i <= p.n; ++i)
    for (int j = 0; j <= p.n; ++j)
      for (int d = 0; d < 6; ++d) {
        if (!fixed(i, j, d)) continue;
        const int k = 6 * p.node(i, j) + d;
        for (int m = 0; m < N; ++m) {
          K[static_cast<std::size_t>(k) * N + m] = 0;
          K[static_cast<std::size_t>(m) * N + k] = 0;
        }
        K[static_cast<std::size_t>(k) * N + k] = 1;
        f[k] = 0;
      }
  banded_solve(K, f, N, 6 * (p.n + 3));
  return f;
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

TEST(ShellObstacle, ScordelisLoRoofConverges) {
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(scordelis_lo(n) / 0.3024);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  // 1.0147, 0.9958, 0.9949: within 2 % from 8 x 8 on (the converged shell answers of most
  // elements lie a little below 0.3024, MacNeal and Harder's theoretical value).
  EXPECT_NEAR(ratio[1], 1.0, 0.02);
  EXPECT_NEAR(ratio[2], 1.0, 0.01);
}

TEST(ShellObstacle, PinchedCylinderConverges) {
  std::vector<double> ratio;
  for (const int n : {4, 8, 16}) {
    ratio.push_back(pinched_cylinder(n) / 1.8248e-5);
    RecordProperty("ratio_n" + std::to_string(n), std::to_string(ratio.back()));
  }
  // 0.3629, 0.7378, 0.9285 (and 0.9887 at 32 x 32): MITC4's known slow convergence on this
  // bending-dominated case (Dvorkin and Bathe report about 0.93 at 16 x 16). NOT within the 5 %
  // at 16 x 16 one may ask of a shell element: 7.2 % short.
  EXPECT_LT(ratio[0], ratio[1]);
  EXPECT_LT(ratio[1], ratio[2]);
  EXPECT_NEAR(ratio[2], 0.93, 0.01);
}

}  // namespace
