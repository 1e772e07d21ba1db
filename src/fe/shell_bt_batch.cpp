// Belytschko-Tsay shells in batches of eight (fe/shell_bt_batch.hpp): shell_bt_kernel.hpp's
// arithmetic with T = eight doubles, compiled for AVX-512, AVX2 and the baseline.
#include "inertia/fe/shell_bt_batch.hpp"

#include <algorithm>
#include <cstring>

#include "inertia/core/text.hpp"
#include "inertia/fe/shell_bt.hpp"
#include "shell_bt_kernel.hpp"

namespace inertia::fe {

namespace {

constexpr int W = ShellBtBatches::width;
typedef double v8d __attribute__((vector_size(8 * W)));

/// A batch's reference geometry (ShellBtReference's fields and the reference nodes X), each
/// field one value per lane; stored as doubles (a batch's `fields` x W, 64-byte aligned).
struct Geometry {
  v8d R0[9], x[4], y[4], h[4], Nx[4], Ny[4], inv[2][2], area, gamma[4], bb, X[12];
};
constexpr int fields = static_cast<int>(sizeof(Geometry) / sizeof(v8d));

/// The first 64-byte aligned address in v (which holds W doubles more than it needs).
template <class D>
D* aligned(D* v) {
  const auto a = reinterpret_cast<std::uintptr_t>(v);
  return reinterpret_cast<D*>((a + 63) / 64 * 64);
}
static_assert(fields == 51);

/// The lanes' state and force of one batch (b: its index; count: the elements in it).
template <bool Plastic>
__attribute__((always_inline)) inline void batch(
    const ShellBtBatches::Pass& p, const Geometry& g, const std::int32_t* nodes,
    const std::int32_t* slots, std::size_t first, int count, ShellBtBatches::Totals& totals,
    const std::function<void(std::size_t, const SolverError&)>& failed) {
  using namespace shell_bt_kernel;
  v8d d[24], QT[4][18];
  for (int a = 0; a < 4; ++a)
    for (int l = 0; l < W; ++l) {
      const double* ut = p.u + 3 * static_cast<std::ptrdiff_t>(nodes[a * W + l]);
      const double* ur = p.u + 3 * static_cast<std::ptrdiff_t>(nodes[(4 + a) * W + l]);
      const double* q = p.QT + 18 * static_cast<std::ptrdiff_t>(slots[a * W + l]);
      for (int i = 0; i < 3; ++i) d[3 * a + i][l] = ut[i], d[12 + 3 * a + i][l] = ur[i];
      for (int j = 0; j < 18; ++j) QT[a][j][l] = q[j];
    }
  const v8d* qt[4] = {QT[0], QT[1], QT[2], QT[3]};
  State<v8d> st;
  const auto ok = corotate(g, g.X, d, qt, st);
  v8d ek[6], nm[6], section{};
  strains(g, st.dl, ek);
  bool bad[W], reported[W] = {};  // without a frame; a section's error reported
  for (int l = 0; l < W; ++l) bad[l] = l < count && ok[l] == 0;
  if constexpr (!Plastic) {
    section = elastic_section(p.section->elastic, ek, nm);
  } else {
    for (int i = 0; i < 6; ++i) nm[i] = v8d{};
    for (int l = 0; l < count; ++l) {
      if (bad[l]) continue;
      const std::size_t k = first + static_cast<std::size_t>(l);
      double e[6], n[6];
      for (int i = 0; i < 6; ++i) e[i] = ek[i][l];
      try {
        const FiberEnergy r =
            shell_layers_update(*p.section, e, {p.committed + k * p.stride, p.stride},
                                {p.trial + k * p.stride, p.stride}, n, nullptr);
        section[l] = r.stored;
      } catch (const SolverError& error) {
        failed(k, error);
        reported[l] = true;
        continue;
      }
      for (int i = 0; i < 6; ++i) nm[i][l] = n[i];
    }
  }
  v8d f[24], g0[2];
  const Energies<v8d> e = force(g, st, p.section->elastic, p.hourglass, nm, f, g0);
  const v8d stored = g.area * section + e.shear + e.drilling + e.hourglass;
  for (int l = 0; l < count; ++l) {
    const std::size_t k = first + static_cast<std::size_t>(l);
    if (bad[l])
      failed(k, SolverError("a Belytschko-Tsay shell element has collapsed (its current nodes "
                            "are collinear or coincident, or its state is not finite)"));
    if (bad[l] || reported[l]) continue;
    for (int a = 0; a < 4; ++a) {
      double* ft = p.f + 3 * static_cast<std::ptrdiff_t>(nodes[a * W + l]);
      double* fr = p.f + 3 * static_cast<std::ptrdiff_t>(nodes[(4 + a) * W + l]);
      for (int i = 0; i < 3; ++i) ft[i] += f[3 * a + i][l], fr[i] += f[12 + 3 * a + i][l];
    }
    totals.stored += stored[l];
    totals.hourglass += e.hourglass[l];
  }
}

template <bool Plastic>
__attribute__((always_inline)) inline void run(
    const ShellBtBatches::Pass& p, const double* geometry, const std::int32_t* nodes,
    const std::int32_t* slots, std::size_t count, ShellBtBatches::Totals& totals,
    const std::function<void(std::size_t, const SolverError&)>& failed) {
  const std::size_t batches = (count + W - 1) / W;
  for (std::size_t b = 0; b < batches; ++b)
    batch<Plastic>(p, *reinterpret_cast<const Geometry*>(geometry + b * fields * W),
                   nodes + b * 8 * W, slots + b * 4 * W, b * W,
                   static_cast<int>(std::min<std::size_t>(W, count - b * W)), totals, failed);
}

#define INERTIA_BT_VARIANT(name, plastic)                                               \
  __attribute__((target_clones("avx512f", "avx2", "default"))) void name(               \
      const ShellBtBatches::Pass& p, const double* geometry, const std::int32_t* nodes, \
      const std::int32_t* slots, std::size_t count, ShellBtBatches::Totals& totals,     \
      const std::function<void(std::size_t, const SolverError&)>& failed) {             \
    run<plastic>(p, geometry, nodes, slots, count, totals, failed);                     \
  }
INERTIA_BT_VARIANT(elastic_batches, false)
INERTIA_BT_VARIANT(plastic_batches, true)
#undef INERTIA_BT_VARIANT

/// shell4_bt_node_rotation of each listed node's psi (u at 3 n), W nodes at a time.
__attribute__((target_clones("avx512f", "avx2", "default"))) void rotations(
    const double* u, const std::int64_t* nodes, std::size_t count, double* QT) {
  for (std::size_t first = 0; first < count; first += W) {
    const int n = static_cast<int>(std::min<std::size_t>(W, count - first));
    v8d psi[3], q[18];
    for (int l = 0; l < W; ++l) {
      const double* p = u + 3 * static_cast<std::ptrdiff_t>(nodes[first + std::min(l, n - 1)]);
      for (int i = 0; i < 3; ++i) psi[i][l] = p[i];
    }
    shell_bt_kernel::exp_and_tangent(psi, q, q + 9);
    for (int l = 0; l < n; ++l)
      for (int j = 0; j < 18; ++j) QT[18 * (first + static_cast<std::size_t>(l)) + j] = q[j][l];
  }
}

}  // namespace

ShellBtBatches::ShellBtBatches(std::span<const double> X, std::span<const std::int32_t> nodes,
                               std::span<const std::int32_t> slots)
    : count_(X.size() / 12) {
  INERTIA_CHECK(X.size() == 12 * count_ && nodes.size() == 8 * count_ && slots.size() == 4 * count_,
                InternalError, "ShellBtBatches: ", X.size(), " coordinates, ", nodes.size(),
                " nodes and ", slots.size(), " slots");
  const std::size_t batches = (count_ + W - 1) / W;
  geometry_.assign(batches * fields * W + W, 0.0);  // W more: the aligned start
  nodes_.assign(batches * 8 * W, 0);
  slots_.assign(batches * 4 * W, 0);
  for (std::size_t b = 0; b < batches; ++b)
    for (int l = 0; l < W; ++l) {
      // A batch's last lanes repeat its last element (computed, not added).
      const std::size_t k = std::min(b * W + static_cast<std::size_t>(l), count_ - 1);
      const ShellBtReference r = shell4_bt_reference(X.data() + 12 * k);
      double values[fields];
      double* v = values;
      const auto put = [&](const double* from, int n) { v = std::copy_n(from, n, v); };
      put(r.R0, 9), put(r.x, 4), put(r.y, 4), put(r.h, 4), put(r.Nx, 4), put(r.Ny, 4);
      put(&r.inv[0][0], 4), put(&r.area, 1), put(r.gamma, 4), put(&r.bb, 1);
      put(X.data() + 12 * k, 12);
      double* out = aligned(geometry_.data()) + b * fields * W;
      for (int j = 0; j < fields; ++j) out[j * W + l] = values[j];
      for (int a = 0; a < 8; ++a) nodes_[(b * 8 + a) * W + l] = nodes[8 * k + a];
      for (int a = 0; a < 4; ++a) slots_[(b * 4 + a) * W + l] = slots[4 * k + a];
    }
}

void ShellBtBatches::node_rotations(const double* u, std::span<const std::int64_t> nodes,
                                    double* QT) {
  rotations(u, nodes.data(), nodes.size(), QT);
}

ShellBtBatches::Totals ShellBtBatches::add_forces(
    const Pass& p, const std::function<void(std::size_t, const SolverError&)>& failed) const {
  Totals totals;
  if (count_ == 0) return totals;
  INERTIA_CHECK(p.section && p.u && p.QT && p.f, InternalError, "ShellBtBatches: a pass without ",
                "its section, u, rotations or force");
  if (p.section->plastic) {
    INERTIA_CHECK(p.committed && p.trial &&
                      p.stride >= static_cast<std::size_t>(shell4_bt_state_size(*p.section)),
                  InternalError, "ShellBtBatches: a plastic pass without its state");
    plastic_batches(p, aligned(geometry_.data()), nodes_.data(), slots_.data(), count_, totals,
                    failed);
  } else {
    elastic_batches(p, aligned(geometry_.data()), nodes_.data(), slots_.data(), count_, totals,
                    failed);
  }
  return totals;
}

}  // namespace inertia::fe
