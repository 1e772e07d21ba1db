// The stable step's kernel (system/stable_step.hpp): characteristic lengths of cells at X + u.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "inertia/system/stable_step.hpp"

namespace inertia {
namespace {

/// A box a x b x h at the origin, gmsh's hex8 order.
std::vector<double> box(double a, double b, double h) {
  return {0, 0, 0, a, 0, 0, a, b, 0, 0, b, 0, 0, 0, h, a, 0, h, a, b, h, 0, b, h};
}

TEST(StableStep, HexLengthIsVolumeOverLargestFace) {
  // A 2 x 3 x 0.5 box: V = 3, largest face 2 x 3 = 6, L = 0.5 (its smallest side).
  EXPECT_DOUBLE_EQ(characteristic_length(CellType::hex8, box(2, 3, 0.5)), 0.5);
  EXPECT_DOUBLE_EQ(cell_volume(CellType::hex8, box(2, 3, 0.5)), 3.0);
  // A cube compressed uniformly to a tenth of its height, its sides bulged by 1.3: L = h.
  EXPECT_DOUBLE_EQ(characteristic_length(CellType::hex8, box(1.3, 1.3, 0.1)), 0.1);
  // A box stretched in z: the largest face is a side face, L = a b h / (b h) = a.
  EXPECT_DOUBLE_EQ(characteristic_length(CellType::hex8, box(0.2, 0.3, 4)), 0.2);
}

TEST(StableStep, HexLengthOfAParallelepiped) {
  // A sheared unit cube (top face moved by s in x): V = 1, the faces y = 0, 1 and z = 0, 1 of
  // area 1, x = 0, 1 of area sqrt(1 + s^2): L = 1 / sqrt(1 + s^2).
  const double s = 0.75;
  std::vector<double> x = box(1, 1, 1);
  for (int a = 4; a < 8; ++a) x[3 * a] += s;
  EXPECT_NEAR(cell_volume(CellType::hex8, x), 1.0, 1e-15);
  EXPECT_NEAR(characteristic_length(CellType::hex8, x), 1 / std::sqrt(1 + s * s), 1e-15);
}

TEST(StableStep, InvertedHexHasNoLength) {
  std::vector<double> x = box(1, 1, 1);
  for (int a = 4; a < 8; ++a) x[3 * a + 2] = -0.5;  // the top below the bottom
  EXPECT_LT(characteristic_length(CellType::hex8, x), 0.0);
}

TEST(StableStep, TetLengthIsSmallestAltitude) {
  // The corner tetrahedron (0, e1, e2, e3 h): the altitude onto the largest face.
  for (const double h : {0.1, 1.0, 3.0}) {
    const std::vector<double> x{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, h};
    const double volume = h / 6;
    // Faces: z = 0 (1/2), x = 0 and y = 0 (h/2), the slanted one (sqrt(1 + 2 h^2) / 2).
    const double largest = std::max({0.5, h / 2, std::sqrt(1 + 2 * h * h) / 2});
    EXPECT_NEAR(characteristic_length(CellType::tet4, x), 3 * volume / largest, 1e-15);
    EXPECT_NEAR(cell_volume(CellType::tet4, x), volume, 1e-16);
  }
  // A regular tetrahedron of edge 1: altitude sqrt(2/3).
  const double r3 = std::sqrt(3.0);
  const std::vector<double> regular{0,   0,      0, 1,   0,      0,
                                    0.5, r3 / 2, 0, 0.5, r3 / 6, std::sqrt(2.0 / 3.0)};
  EXPECT_NEAR(characteristic_length(CellType::tet4, regular), std::sqrt(2.0 / 3.0), 1e-15);
}

}  // namespace
}  // namespace inertia

namespace inertia {
namespace {

TEST(StableStep, ShellLengthIsAreaOverLongestSide) {
  // A square: its side, as the shortest corner distance gave.
  const std::vector<double> square{0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
  EXPECT_DOUBLE_EQ(characteristic_length(CellType::shell4, square), 2.0);
  // A parallelogram sheared nearly flat (a cell crushed under a wall, the crash box's top row):
  // its corners stay 0.3 apart at least, its altitude is 0.05. Its length is A / longest side
  // (LS-DYNA's), 0.05, not the shortest corner distance 0.304 that let the step outgrow it.
  const std::vector<double> sheared{0, 0, 0, 1, 0, 0, 1.3, 0.05, 0, 0.3, 0.05, 0};
  EXPECT_NEAR(characteristic_length(CellType::shell4, sheared), 0.05, 1e-15);
  // Twisted about its mid-line: the area projected by the diagonals' cross product.
  const double h = 0.1;
  const std::vector<double> twisted{0, 0, h, 1, 0, -h, 1, 1, h, 0, 1, -h};
  EXPECT_NEAR(characteristic_length(CellType::shell4, twisted), 1 / std::sqrt(1 + 4 * h * h),
              1e-15);
  // A triangle: its smallest altitude, 2 A / longest side.
  const std::vector<double> tri{0, 0, 0, 4, 0, 0, 1, 1, 0};
  EXPECT_NEAR(characteristic_length(CellType::shell3, tri), 2 * 2.0 / 4, 1e-15);
}

TEST(StableStep, SkippedCellsHaveNoTransitTime) {
  // Two hex8 cells of one region, the second a tenth as thick: it sets the smallest L / c until
  // it is skipped (an eroded cell).
  LocalMesh mesh;
  const std::vector<double> thick = box(1, 1, 1), thin = box(1, 1, 0.1);
  mesh.coords = thick;
  for (std::size_t i = 0; i < thin.size(); i += 3)
    mesh.coords.insert(mesh.coords.end(), {thin[i] + 2, thin[i + 1], thin[i + 2]});
  mesh.num_owned = 16;
  mesh.node_tags.resize(16);
  for (int c = 0; c < 2; ++c) {
    mesh.cell_types.push_back(CellType::hex8);
    for (int a = 0; a < 8; ++a) mesh.cell_nodes.push_back(8 * c + a);
    mesh.cell_offsets.push_back(8 * (c + 1));
    mesh.cell_regions.push_back(0);
    mesh.cell_is_element.push_back(1);
  }
  mesh.regions.resize(1);
  StableStepKernel kernel(mesh, {2.0});
  std::vector<double> times;
  kernel.transit_times(nullptr, times);
  EXPECT_DOUBLE_EQ(times[0], 0.5);
  EXPECT_DOUBLE_EQ(times[1], 0.05);
  const std::vector<std::uint8_t> eroded{0, 1};
  kernel.skip(&eroded);
  kernel.transit_times(nullptr, times);
  EXPECT_DOUBLE_EQ(times[0], 0.5);
  EXPECT_TRUE(std::isinf(times[1]));
}

}  // namespace
}  // namespace inertia
