// A contact pair's projection of a node on a face (src/system/contact_search.cpp): the force it
// gives is the gradient of the penalty's energy 1/2 k g^2 (g < 0), checked by central differences
// against the node's and the face's corners' coordinates, where the bilinear projection converges
// (a flat face), where it does not (a face folded through itself, as a crash box's fold leaves
// one: the closest point on its four triangles instead) and past a shell face's edge (the surface
// wraps round the edge with the half thicknesses). Each of these made energy before: the
// unconverged point's gap and normal were taken as they were, and a node coming round an edge met
// the next face already as deep as the thicknesses.

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "../../src/system/contact_pair.hpp"

namespace inertia::contact_input {
namespace {

constexpr double k = 1.0e8;

Pass::Face shell_face(double half) {
  return Pass::Face{4, 1.0, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 0, 0}, 1.0, true, half};
}

/// The penalty's energy of node x against the face at corners p.
double energy(const Pass::Face& f, const std::array<Vec3, 4>& p, const Vec3& x, double half) {
  const Projection pr = project_on(f, p.data(), x, half);
  return pr.inside && pr.g < 0 ? 0.5 * k * pr.g * pr.g : 0.0;
}

/// Checks the force (on x: -k g n; on corner a: k g N_a n) against central differences of the
/// energy; returns the gap.
double check_gradient(const Pass::Face& f, std::array<Vec3, 4> p, Vec3 x, double half) {
  const Projection pr = project_on(f, p.data(), x, half);
  EXPECT_TRUE(pr.inside);
  EXPECT_LT(pr.g, 0);
  const double h = 1e-9, scale = k * std::abs(pr.g);
  for (int i = 0; i < 3; ++i) {
    Vec3 a = x, b = x;
    a[i] += h, b[i] -= h;
    const double fd = -(energy(f, p, a, half) - energy(f, p, b, half)) / (2 * h);
    EXPECT_NEAR(-k * pr.g * pr.n[i], fd, 1e-5 * scale) << "node, component " << i;
  }
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 3; ++i) {
      auto a = p, b = p;
      a[c][i] += h, b[c][i] -= h;
      const double fd = -(energy(f, a, x, half) - energy(f, b, x, half)) / (2 * h);
      EXPECT_NEAR(k * pr.g * pr.N[c] * pr.n[i], fd, 1e-5 * scale)
          << "corner " << c << ", component " << i;
    }
  return pr.g;
}

TEST(ContactProjection, TheForceIsTheEnergysGradientOnAFlatFace) {
  const std::array<Vec3, 4> p{Vec3{0, 0, 0}, Vec3{5e-3, 0, 0}, Vec3{5.5e-3, 4.5e-3, 0},
                              Vec3{-2e-4, 5e-3, 0}};
  const double g = check_gradient(shell_face(6e-4), p, {2e-3, 2.5e-3, 1e-3}, 6e-4);
  EXPECT_NEAR(g, -2e-4, 1e-15);  // 1 mm above the mid-surface, t 1.2 mm on each side
  // Warped (a corner 0.3 mm out of plane): the bilinear surface's point.
  auto w = p;
  w[2][2] = 3e-4;
  check_gradient(shell_face(6e-4), w, {2e-3, 2.5e-3, 1e-3}, 6e-4);
}

TEST(ContactProjection, AFaceFoldedThroughItselfTakesItsTrianglesClosestPoint) {
  // A crash box's cell in a fold (its corners 2 to 7 mm apart, the bilinear surface folded over):
  // Gauss-Newton cycles without converging from the centre.
  const std::array<Vec3, 4> p{Vec3{1.766477e-02, -2.123553e-02, 1.158535e-02},
                              Vec3{1.511933e-02, -1.556612e-02, 7.870080e-03},
                              Vec3{1.256767e-02, -1.597210e-02, 9.727518e-03},
                              Vec3{1.803718e-02, -1.968516e-02, 1.051072e-02}};
  // A node 0.9 mm off the middle of the triangle centre, p0, p1 (the node the run had there
  // was 3.5 mm away, and the unconverged point put it 1.4e-5 deep).
  Vec3 c{0, 0, 0};
  for (const auto& q : p)
    for (int i = 0; i < 3; ++i) c[i] += 0.25 * q[i];
  const Vec3 e1{p[0][0] - c[0], p[0][1] - c[1], p[0][2] - c[2]};
  const Vec3 e2{p[1][0] - c[0], p[1][1] - c[1], p[1][2] - c[2]};
  Vec3 nt = cross(e1, e2);
  const double ln = std::sqrt(dot(nt, nt));
  Vec3 x;
  for (int i = 0; i < 3; ++i) x[i] = c[i] + (e1[i] + e2[i]) / 3 + 9e-4 * nt[i] / ln;
  const auto f = shell_face(6e-4);
  EXPECT_FALSE(project_on(f, p.data(), {1.476838e-02, -1.774169e-02, 1.356195e-02}, 6e-4).g < 0);
  const double g = check_gradient(f, p, x, 6e-4);
  // The gap is the distance to the four triangles about the centre less t, sampled finely.
  double nearest = INFINITY;
  const int n = 400;
  for (int a = 0; a < 4; ++a)
    for (int u = 0; u <= n; ++u)
      for (int v = 0; u + v <= n; ++v) {
        const double s = double(u) / n, t = double(v) / n;
        double d2 = 0;
        for (int i = 0; i < 3; ++i) {
          const double y = c[i] + s * (p[a][i] - c[i]) + t * (p[(a + 1) % 4][i] - c[i]);
          d2 += (x[i] - y) * (x[i] - y);
        }
        nearest = std::min(nearest, std::sqrt(d2));
      }
  EXPECT_NEAR(g + 1.2e-3, nearest, 2e-8);
}

TEST(ContactProjection, AShellsSurfaceWrapsRoundItsEdge) {
  // A node beyond the face's edge x = 0 (no other face there): the distance to the edge less
  // the half thicknesses, continuous with the gap above the face.
  const std::array<Vec3, 4> p{Vec3{0, 0, 0}, Vec3{5e-3, 0, 0}, Vec3{5e-3, 5e-3, 0},
                              Vec3{0, 5e-3, 0}};
  const auto f = shell_face(6e-4);
  const double g = check_gradient(f, p, {-5e-4, 2e-3, 7e-4}, 6e-4);
  EXPECT_NEAR(g, std::hypot(5e-4, 7e-4) - 1.2e-3, 1e-12);
  // Along a path over the edge at a height of 1 mm: the gap changes continuously (in steps of
  // 1 um along x, by at most 1 um), from the face's -0.2 mm to the rounded edge's.
  double last = project_on(f, p.data(), {2e-4, 1e-3, 1e-3}, 6e-4).g;
  EXPECT_NEAR(last, -2e-4, 1e-12);
  for (int s = 1; s <= 600; ++s) {
    const double g1 = project_on(f, p.data(), {2e-4 - 1e-6 * s, 1e-3, 1e-3}, 6e-4).g;
    EXPECT_LE(std::abs(g1 - last), 1.0000001e-6) << "step " << s;
    last = g1;
  }
  // A solid's face (no thickness, one-sided) and a solid's node: no rounding, no contact there.
  const Pass::Face solid{4, 1.0, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 0, 0}, 1.0, false, 0.0};
  EXPECT_FALSE(project_on(solid, p.data(), {-5e-4, 2e-3, -1e-4}, 0.0).inside);
}

}  // namespace
}  // namespace inertia::contact_input
