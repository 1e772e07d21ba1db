// The Belytschko-Tsay shells' batches (fe/shell_bt_batch.hpp) against the element one at a time
// (fe/shell4_bt): 23 elements (two full batches of 8 and one of 7; quadrilaterals and
// triangles, sharing nodes), turned by up to 1.9 rad, with deformational rotations of 1e-5 to
// 0.05 rad, so that lanes of one batch take the rotations' series and others their closed
// forms. Elastic: the summed forces and the energies; plastic (J2, 5 Simpson points, some
// elements flowing; linear isotropic and kinematic hardening in the lanes, Voce's lane by lane):
// the forces and every element's trial state; the nodes' rotations; a
// collapsed element reported by its index while the others add their forces.
//
// Tolerances: the lanes and the element differ by the fused multiply-adds the vector
// instruction sets use and the order the shared nodes' forces are summed in (measured on
// AVX-512: forces 6e-16 of the largest, states 4e-16, exponentials 3e-16); 1e-11 asserted.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../support/fixtures.hpp"
#include "inertia/fe/beam_corotational.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/fe/shell_bt.hpp"
#include "inertia/fe/shell_bt_batch.hpp"

namespace inertia::fe {
namespace {

using inertia::testing::pattern;
using inertia::testing::rotation;

constexpr int elements = 23;

/// The elements: reference nodes X (12 each), node indices (8 each: 4 translation, 4 rotation
/// nodes of u), and u (3 per node): a deformed, turned state.
struct Model {
  std::vector<double> X, u;
  std::vector<std::int32_t> nodes;
  std::vector<std::int64_t> rotation_nodes;  // every rotation node once
  int num_nodes = 0;
};

Model model() {
  Model m;
  // Each element its own 4 translation and 4 rotation nodes, except: element k > 0 shares its
  // nodes 0 and 3 with element k - 1's nodes 1 and 2 (an edge); every fifth is a triangle (its
  // third node twice).
  std::vector<std::array<std::int32_t, 8>> nodes(elements);
  int next = 0;
  for (int k = 0; k < elements; ++k) {
    for (int a = 0; a < 8; ++a) nodes[k][a] = next++;
    if (k > 0) nodes[k][0] = nodes[k - 1][1], nodes[k][3] = nodes[k - 1][2];
    if (k > 0) nodes[k][4] = nodes[k - 1][5], nodes[k][7] = nodes[k - 1][6];
    if (k % 5 == 4) nodes[k][3] = nodes[k][2], nodes[k][7] = nodes[k][6];
  }
  m.num_nodes = next;
  m.u.assign(3 * static_cast<std::size_t>(next), 0.0);
  // The translations: a pattern of 1e-3 (strains about the yield strain of plastic()).
  for (int n = 0; n < next; ++n) {
    const auto p = pattern(n + 1);
    for (int i = 0; i < 3; ++i) m.u[3 * n + i] = 1e-3 * p[i];
  }
  for (int k = 0; k < elements; ++k) {
    // A quad of size ~1 in a plane turned by element k's own rotation, warped a little.
    const double w = 0.01 * (k % 3);
    const double plane[4][3] = {
        {0.0, 0.0, w}, {1.0 + 0.02 * k, 0.1, -w}, {0.9, 0.8 + 0.01 * k, w}, {0.1, 0.7, -w}};
    const auto Q = rotation({0.3 + 0.1 * k, -0.5, 0.8}, 0.2 * k);
    double x[12];
    for (int a = 0; a < 4; ++a) {
      const int b = k % 5 == 4 && a == 3 ? 2 : a;
      for (int i = 0; i < 3; ++i)
        x[3 * a + i] = Q[3 * i] * plane[b][0] + Q[3 * i + 1] * plane[b][1] +
                       Q[3 * i + 2] * plane[b][2] + 0.3 * k;
    }
    m.X.insert(m.X.end(), x, x + 12);
    m.nodes.insert(m.nodes.end(), nodes[k].begin(), nodes[k].end());
  }
  // The rotation nodes' psi: turned 3.6 rad (the first 5 elements' nodes: more than half a turn,
  // beyond the exponential's series) or 1.9 rad (the next 7's) about (1.1, -0.9, 1.2) / |.|,
  // plus a deformational part of 1e-5 or 0.05 rad.
  std::vector<char> seen(static_cast<std::size_t>(next), 0);
  for (int k = 0; k < elements; ++k)
    for (int a = 0; a < 4; ++a) {
      const std::int32_t n = nodes[k][4 + a];
      if (!seen[n]) {
        seen[n] = 1;
        m.rotation_nodes.push_back(n);
        const auto p = pattern(1000 + n);
        const double scale = n % 3 == 0 ? 0.05 : 1e-5;
        const double axis[3] = {1.1, -0.9, 1.2};
        const double norm = std::sqrt(1.1 * 1.1 + 0.81 + 1.44);
        for (int i = 0; i < 3; ++i)
          m.u[3 * n + i] = (k < 5 ? 3.6 : k < 12 ? 1.9 : 0.0) * axis[i] / norm + scale * p[i];
      }
    }
  return m;
}

ShellLayers elastic() {
  ShellLayers s;
  s.elastic.thickness = 0.01;
  s.elastic.youngs_modulus = 2e11;
  s.elastic.poissons_ratio = 0.3;
  s.elastic.density = 7850;
  return s;
}

ShellLayers plastic() { return inertia::testing::simpson_j2(elastic()); }

/// The element one at a time: forces summed into f, energies, trial states.
struct Reference {
  std::vector<double> f, trial;
  double stored = 0, hourglass = 0;
};
Reference one_at_a_time(const Model& m, const ShellLayers& s, const std::vector<double>& committed,
                        int skip = -1) {
  Reference out;
  const auto stride = static_cast<std::size_t>(shell4_bt_state_size(s));
  out.f.assign(m.u.size(), 0.0);
  out.trial.assign(committed.size(), 0.0);
  for (int k = 0; k < elements; ++k) {
    if (k == skip) continue;
    const std::int32_t* nodes = &m.nodes[8 * static_cast<std::size_t>(k)];
    double d[24], f[24];
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) d[3 * a + i] = m.u[3 * nodes[a] + i];
    const double* X = &m.X[12 * static_cast<std::size_t>(k)];
    const std::span<const double> c =
        s.plastic ? std::span<const double>(committed.data() + k * stride, stride)
                  : std::span<const double>();
    const std::span<double> t =
        s.plastic ? std::span<double>(out.trial.data() + k * stride, stride) : std::span<double>();
    const ShellBtResult r = shell4_bt(shell4_bt_reference(X), X, s, 0.1, d, c, t, f, false);
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) out.f[3 * nodes[a] + i] += f[3 * a + i];
    out.stored += r.energy.stored;
    out.hourglass += r.hourglass;
  }
  return out;
}

struct Batched {
  std::vector<double> f, trial;
  ShellBtBatches::Totals totals;
  std::vector<std::size_t> failed;
};
Batched batched(const Model& m, const ShellLayers& s, const std::vector<double>& committed) {
  const ShellBtBatches batches(m.X, m.nodes);
  EXPECT_EQ(batches.size(), static_cast<std::size_t>(elements));
  Batched out;
  out.f.assign(m.u.size(), 0.0);
  out.trial.assign(committed.size(), 0.0);
  ShellBtBatches::Pass p;
  p.section = &s;
  p.hourglass = 0.1;
  p.u = m.u.data();
  p.f = out.f.data();
  if (s.plastic) {
    p.committed = committed.data();
    p.trial = out.trial.data();
    p.stride = static_cast<std::size_t>(shell4_bt_state_size(s));
  }
  out.totals =
      batches.add_forces(p, [&](std::size_t k, const SolverError&) { out.failed.push_back(k); });
  return out;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (const double x : v) m = std::max(m, std::abs(x));
  return m;
}
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

TEST(ShellBtBatches, NodeRotationsAreTheElementsOnes) {
  const Model m = model();
  std::vector<double> QT(18 * m.rotation_nodes.size());
  ShellBtBatches::node_rotations(m.u.data(), m.rotation_nodes, QT.data());
  double worst = 0;
  int large = 0;
  for (std::size_t j = 0; j < m.rotation_nodes.size(); ++j) {
    double one[18];
    const double* psi = &m.u[3 * static_cast<std::size_t>(m.rotation_nodes[j])];
    shell4_bt_node_rotation(psi, one);
    large += psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2] > M_PI * M_PI;
    for (int i = 0; i < 18; ++i) worst = std::max(worst, std::abs(one[i] - QT[18 * j + i]));
  }
  std::printf("%zu nodes (%d beyond the series): exp and tangent %.2e apart\n",
              m.rotation_nodes.size(), large, worst);
  EXPECT_GT(large, 8);
  EXPECT_LT(large, static_cast<int>(m.rotation_nodes.size()) - 8);
  EXPECT_LT(worst, 1e-14);
}

TEST(ShellBtBatches, ElasticForcesAndEnergiesAreTheElementsOnes) {
  const Model m = model();
  const Reference ref = one_at_a_time(m, elastic(), {});
  const Batched b = batched(m, elastic(), {});
  const double scale = max_abs(ref.f), diff = max_diff(ref.f, b.f);
  std::printf(
      "elastic: forces %.2e apart of %.3e; energy %.15e against %.15e, hourglass %.6e "
      "against %.6e\n",
      diff, scale, b.totals.stored, ref.stored, b.totals.hourglass, ref.hourglass);
  EXPECT_TRUE(b.failed.empty());
  EXPECT_GT(scale, 0);
  EXPECT_LT(diff, 1e-11 * scale);
  EXPECT_NEAR(b.totals.stored, ref.stored, 1e-11 * ref.stored);
  EXPECT_NEAR(b.totals.hourglass, ref.hourglass, 1e-11 * ref.stored);
  EXPECT_GT(ref.hourglass, 0);
}

/// The plastic section s (from a zero committed state): forces, states, energy against the
/// element one at a time, and some points flowing, not all.
void check_plastic(const ShellLayers& s, const char* what) {
  // The strains (1e-3 translations over a size of 1, and curvatures from rotations of 0.05 rad)
  // take some points past the yield strain 1e-3.
  const Model m = model();
  const auto stride = static_cast<std::size_t>(shell4_bt_state_size(s));
  const std::vector<double> committed(stride * elements, 0.0);
  const Reference ref = one_at_a_time(m, s, committed);
  const Batched b = batched(m, s, committed);
  int flowing = 0;
  for (int k = 0; k < elements; ++k)
    for (int q = 0; q < s.points; ++q)
      flowing += ref.trial[k * stride + q * (stride / 5) + J2State::equivalent_plastic_strain] > 0;
  const double scale = max_abs(ref.f), diff = max_diff(ref.f, b.f);
  const double state = max_diff(ref.trial, b.trial);
  std::printf("%s: %d of %d points flowing; forces %.2e apart of %.3e, states %.2e apart of %.3e\n",
              what, flowing, 5 * elements, diff, scale, state, max_abs(ref.trial));
  EXPECT_TRUE(b.failed.empty());
  EXPECT_GT(flowing, 5);
  EXPECT_LT(flowing, 5 * elements);
  EXPECT_LT(diff, 1e-11 * scale);
  EXPECT_LT(state, 1e-11 * std::max(1.0, max_abs(ref.trial)));
  EXPECT_NEAR(b.totals.stored, ref.stored, 1e-11 * ref.stored);
}

TEST(ShellBtBatches, PlasticForcesAndStatesAreTheElementsOnes) {
  // Linear isotropic hardening (the return map in the lanes), with kinematic hardening too, and
  // Voce hardening (a law the lanes do not take: the element's return lane by lane).
  check_plastic(plastic(), "J2 isotropic");
  ShellLayers kinematic = plastic();
  kinematic.j2.kinematic_modulus = 5e8;
  check_plastic(kinematic, "J2 isotropic + kinematic");
  ShellLayers voce = plastic();
  voce.j2.voce_saturation = 1e8;
  voce.j2.voce_rate = 20;
  check_plastic(voce, "J2 Voce (lane by lane)");
}

TEST(ShellBtBatches, ACollapsedElementIsReportedAndTheOthersAdd) {
  // The last element's own nodes 1 and 2 moved onto its node 0: collinear nodes, reported as
  // element 22 (the last lane of the last batch), its force not added; the others' sum as the
  // element's without it.
  Model m = model();
  const std::size_t last = elements - 1;
  const std::int32_t* n = &m.nodes[8 * last];
  const double* X = &m.X[12 * last];
  for (int a = 1; a <= 2; ++a)
    for (int i = 0; i < 3; ++i) m.u[3 * n[a] + i] = X[i] + m.u[3 * n[0] + i] - X[3 * a + i];
  const Batched b = batched(m, elastic(), {});
  ASSERT_EQ(b.failed.size(), 1u);
  EXPECT_EQ(b.failed[0], last);
  const Reference ref = one_at_a_time(m, elastic(), {}, static_cast<int>(last));
  EXPECT_LT(max_diff(ref.f, b.f), 1e-11 * max_abs(ref.f));
}

}  // namespace
}  // namespace inertia::fe
