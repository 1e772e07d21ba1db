// The batched J2 hexahedra (J2Batches) against fe::j2_element cell by cell: forces and trial
// states on a distorted grid of 12 cells (a full batch of 8 and one of 4), from committed states
// that have flowed, for every formulation, small and finite strain, linear and nonlinear
// hardening (the vectorised material point and the lane-by-lane one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "inertia/assembly/j2_batches.hpp"
#include "inertia/fe/element.hpp"

namespace inertia {
namespace {

using fe::J2State;

/// A 3 x 2 x 2 grid of hex8 (gmsh node order), its nodes moved by up to 15 % of a cell.
LocalMesh distorted_grid() {
  LocalMesh m;
  const int nx = 3, ny = 2, nz = 2;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> jitter(-0.15, 0.15);
  auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        m.coords.push_back(0.5 * (i + jitter(gen)));
        m.coords.push_back(0.4 * (j + jitter(gen)));
        m.coords.push_back(0.3 * (k + jitter(gen)));
        m.node_tags.push_back(id(i, j, k) + 1);
      }
  m.num_owned = static_cast<std::int32_t>(m.node_tags.size());
  m.num_global_nodes = m.num_owned;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const std::int64_t n[8] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        m.cell_nodes.insert(m.cell_nodes.end(), n, n + 8);
        m.cell_offsets.push_back(static_cast<std::int64_t>(m.cell_nodes.size()));
        m.cell_types.push_back(CellType::hex8);
        m.cell_tags.push_back(static_cast<std::int64_t>(m.cell_types.size()));
        m.cell_regions.push_back(0);
        m.cell_is_element.push_back(1);
      }
  return m;
}

struct Case {
  std::string name;
  fe::Formulation formulation;
  bool finite;
  bool voce;
  bool kinematic;
  double scale;  ///< of the displacements
};

/// What GoogleTest prints of a case (and what ctest's test names carry): its name.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

/// u = scale x a smooth field plus noise (every point of every cell strains differently).
std::vector<double> displacement(const LocalMesh& m, double scale, int seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> noise(-1, 1);
  std::vector<double> u(m.coords.size());
  for (std::size_t n = 0; n < u.size() / 3; ++n) {
    const double* x = &m.coords[3 * n];
    u[3 * n] = scale * (x[0] + 0.3 * x[1] * x[2] + 0.2 * noise(gen));
    u[3 * n + 1] = scale * (-0.4 * x[1] + 0.5 * x[0] * x[0] + 0.2 * noise(gen));
    u[3 * n + 2] = scale * (0.2 * x[2] - 0.3 * x[0] * x[1] + 0.2 * noise(gen));
  }
  return u;
}

class J2BatchesAgree : public ::testing::TestWithParam<Case> {};

TEST_P(J2BatchesAgree, WithJ2ElementCellByCell) {
  const Case c = GetParam();
  const LocalMesh m = distorted_grid();
  std::vector<std::int64_t> cells(static_cast<std::size_t>(m.num_cells()));
  for (std::size_t k = 0; k < cells.size(); ++k) cells[k] = static_cast<std::int64_t>(k);
  fe::J2Parameters p;
  p.lame = {1.15e11, 7.7e10};  // E 200 GPa, nu 0.3
  p.yield_stress = 2e8;
  p.isotropic_modulus = 1e9;
  if (c.kinematic) p.kinematic_modulus = 5e8;
  if (c.voce) p.voce_saturation = 1e8, p.voce_rate = 20;
  p.finite_strain = c.finite;
  fe::Technology tech;
  tech.formulation = c.formulation;
  tech.hourglass = 0.05;
  ASSERT_TRUE(J2Batches::covers(m, cells, tech, p));
  const int points = fe::j2_points(CellType::hex8, c.formulation);
  const int stride = points * J2State::with_history;
  const J2Batches batches(m, cells, tech, p, stride);

  // The committed state: the reference kernel's at a first displacement (past yield), at t = 1.
  const std::size_t rows = cells.size();
  std::vector<double> zero(rows * stride, 0.0), committed(rows * stride, 0.0);
  const std::vector<double> u1 = displacement(m, c.scale, 1), u2 = displacement(m, c.scale, 2);
  auto cell_values = [&](const std::vector<double>& u, std::int64_t cell, double* x, double* ue) {
    const auto nodes = m.nodes_of(cell);
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i)
        x[3 * a + i] = m.coords[3 * nodes[a] + i], ue[3 * a + i] = u[3 * nodes[a] + i];
  };
  double x[24], ue[24];
  fe::J2Parameters p1 = p;
  p1.time = 1.0;
  int flowing = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    cell_values(u1, cells[r], x, ue);
    fe::j2_element(CellType::hex8, x, std::span<const double>(ue, 24), p1,
                   std::span<const double>(&zero[r * stride], stride),
                   std::span<double>(&committed[r * stride], stride), {}, {}, J2State::with_history,
                   tech);
    for (int q = 0; q < points; ++q)
      flowing +=
          committed[r * stride + q * J2State::with_history + J2State::equivalent_plastic_strain] >
          0;
  }
  EXPECT_GT(flowing, static_cast<int>(rows) * points / 2) << "most points past yield";

  // The second evaluation, at t = 1.5: the reference cell by cell, and the batches.
  fe::J2Parameters p2 = p;
  p2.time = 1.5;
  std::vector<double> f_ref(u2.size(), 0.0), trial_ref(rows * stride, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    cell_values(u2, cells[r], x, ue);
    double fe_vec[24];
    fe::j2_element(CellType::hex8, x, std::span<const double>(ue, 24), p2,
                   std::span<const double>(&committed[r * stride], stride),
                   std::span<double>(&trial_ref[r * stride], stride), fe_vec, {},
                   J2State::with_history, tech);
    const auto nodes = m.nodes_of(cells[r]);
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) f_ref[3 * nodes[a] + i] += fe_vec[3 * a + i];
  }
  std::vector<double> f(u2.size(), 0.0), trial(rows * stride, -1.0);
  std::string why;
  ASSERT_EQ(batches.add_force(u2, 1.5, committed.data(), trial.data(), f, why), -1) << why;

  double f_max = 0, f_err = 0;
  for (std::size_t k = 0; k < f.size(); ++k)
    f_max = std::max(f_max, std::abs(f_ref[k])), f_err = std::max(f_err, std::abs(f[k] - f_ref[k]));
  EXPECT_LT(f_err, 1e-12 * f_max) << "largest force " << f_max;
  // Every component of every point's trial state, against the largest of its kind.
  for (int k = 0; k < J2State::with_history; ++k) {
    double largest = 0, err = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (int q = 0; q < points; ++q) {
        const std::size_t at = r * stride + q * J2State::with_history + k;
        largest = std::max(largest, std::abs(trial_ref[at]));
        err = std::max(err, std::abs(trial[at] - trial_ref[at]));
      }
    EXPECT_LE(err, 1e-11 * largest + 1e-300) << "state component " << k << ", largest " << largest;
  }

  // Rows 3 and 9 eroded: they add no force and keep their committed state; the others as before.
  std::vector<std::uint8_t> gone(rows, 0);
  gone[3] = gone[9] = 1;
  std::vector<double> f_gone(u2.size(), 0.0), trial_gone(rows * stride, -1.0);
  ASSERT_EQ(
      batches.add_force(u2, 1.5, committed.data(), trial_gone.data(), f_gone, why, gone.data()), -1)
      << why;
  std::vector<double> f_expected = f_ref;
  for (const std::size_t r : {std::size_t{3}, std::size_t{9}}) {
    cell_values(u2, cells[r], x, ue);
    double fe_vec[24];
    std::vector<double> scratch(stride);
    fe::j2_element(CellType::hex8, x, std::span<const double>(ue, 24), p2,
                   std::span<const double>(&committed[r * stride], stride), scratch, fe_vec, {},
                   J2State::with_history, tech);
    const auto nodes = m.nodes_of(cells[r]);
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) f_expected[3 * nodes[a] + i] -= fe_vec[3 * a + i];
  }
  double gone_err = 0;
  for (std::size_t k = 0; k < f.size(); ++k)
    gone_err = std::max(gone_err, std::abs(f_gone[k] - f_expected[k]));
  EXPECT_LT(gone_err, 1e-12 * f_max);
  for (std::size_t r = 0; r < rows; ++r)
    for (int k = 0; k < stride; ++k) {
      const std::size_t at = r * stride + k;
      if (gone[r])
        ASSERT_EQ(trial_gone[at], committed[at]) << "row " << r;
      else
        ASSERT_EQ(trial_gone[at], trial[at]) << "row " << r;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Formulations, J2BatchesAgree,
    ::testing::Values(Case{"full_linear", fe::Formulation::full, false, false, false, 4e-3},
                      Case{"full_kinematic", fe::Formulation::full, false, false, true, 4e-3},
                      Case{"full_voce", fe::Formulation::full, false, true, false, 4e-3},
                      Case{"bbar_linear", fe::Formulation::bbar, false, false, false, 4e-3},
                      Case{"reduced_linear", fe::Formulation::reduced, false, false, false, 4e-3},
                      Case{"reduced_voce", fe::Formulation::reduced, false, true, true, 4e-3},
                      Case{"full_finite", fe::Formulation::full, true, false, false, 0.15},
                      Case{"full_finite_voce", fe::Formulation::full, true, true, false, 0.15},
                      Case{"reduced_finite", fe::Formulation::reduced, true, false, true, 0.15},
                      Case{"reduced_finite_large", fe::Formulation::reduced, true, false, false,
                           0.6},
                      Case{"fbar_finite", fe::Formulation::fbar, true, false, false, 0.15},
                      Case{"fbar_finite_kinematic", fe::Formulation::fbar, true, false, true, 0.3}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

TEST(J2Batches, LeavesWhatItDoesNotVectoriseToTheElement) {
  const LocalMesh m = distorted_grid();
  const std::vector<std::int64_t> cells = {0, 1, 2};
  fe::J2Parameters p;
  p.finite_strain = true;
  fe::Technology tech;
  tech.formulation = fe::Formulation::fbar;
  EXPECT_TRUE(J2Batches::covers(m, cells, tech, p));
  p.voce_saturation = 1e8, p.voce_rate = 10;  // F-bar: the vectorised point only
  EXPECT_FALSE(J2Batches::covers(m, cells, tech, p));
  p.voce_saturation = 0;
  tech.formulation = fe::Formulation::bbar;
  EXPECT_FALSE(J2Batches::covers(m, cells, tech, p));  // bbar is small strain only
  p.finite_strain = false;
  EXPECT_TRUE(J2Batches::covers(m, cells, tech, p));
}

TEST(J2Batches, AnInvertedCellIsReportedAndTheOthersEvaluated) {
  const LocalMesh m = distorted_grid();
  std::vector<std::int64_t> cells(static_cast<std::size_t>(m.num_cells()));
  for (std::size_t k = 0; k < cells.size(); ++k) cells[k] = static_cast<std::int64_t>(k);
  fe::J2Parameters p;
  p.lame = {1.15e11, 7.7e10};
  p.yield_stress = 2e8;
  p.finite_strain = true;
  fe::Technology tech;
  tech.formulation = fe::Formulation::reduced;
  const int stride = J2State::with_history;
  const J2Batches batches(m, cells, tech, p, stride);
  // Cell 9's first node pushed through the cell: its mean F inverts; nothing else moves.
  std::vector<double> u(m.coords.size(), 0.0);
  const auto nodes = m.nodes_of(9);
  for (int i = 0; i < 3; ++i)
    u[3 * nodes[6] + i] = 3 * (m.coords[3 * nodes[0] + i] - m.coords[3 * nodes[6] + i]);
  std::vector<double> committed(cells.size() * stride, 0.0), trial = committed, f(u.size(), 0.0);
  std::string why;
  const std::int64_t failed = batches.add_force(u, 0.0, committed.data(), trial.data(), f, why);
  EXPECT_EQ(failed, 9);
  EXPECT_NE(why.find("inverted element"), std::string::npos) << why;
}

}  // namespace
}  // namespace inertia
