// Belytschko-Tsay shells in batches of eight (fe/shell_bt_batch.hpp): shell_bt_kernel.hpp's
// arithmetic with T = eight doubles, compiled for AVX-512, AVX2 and the baseline.
#include "inertia/fe/shell_bt_batch.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "inertia/core/text.hpp"
#include "inertia/fe/shell_bt.hpp"
#include "shell_bt_kernel.hpp"

namespace inertia::fe {

namespace {

constexpr int W = ShellBtBatches::width;
#define INERTIA_BT_BATCH_INLINE inline __attribute__((always_inline))
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

typedef long long v8di __attribute__((vector_size(8 * W)));

INERTIA_BT_BATCH_INLINE v8d vabs(const v8d& x) { return x < 0.0 ? -x : x; }
INERTIA_BT_BATCH_INLINE v8d select(const v8di& m, const v8d& a, const v8d& b) { return m ? a : b; }
INERTIA_BT_BATCH_INLINE bool all_set(const v8di& m) {
  bool all = true;
  for (int l = 0; l < W; ++l) all = all && m[l] != 0;
  return all;
}

/// A point's 6 strains, 6 stresses and state (J2State) on all lanes.
struct Point {
  v8d stress[6], next[J2State::size], dg;
};

/// fe/plasticity.cpp's j2_return_map at eps from c (J2State, no history), linear hardening
/// (isotropic H, kinematic Hk), on all lanes: the same expressions, the tangent left out.
INERTIA_BT_BATCH_INLINE void return_map(double mu, double kappa, double sy, double H, double Hk,
                                        const v8d* eps, const v8d* c, Point& out, v8d& norm) {
  const v8d tr = eps[0] + eps[1] + eps[2];
  v8d xi[6], s[6];
  for (int k = 0; k < 6; ++k) {
    const v8d dev = eps[k] - (k < 3 ? tr / 3.0 : v8d{});
    s[k] = 2.0 * mu * (dev - c[J2State::plastic_strain + k]);
    xi[k] = s[k] - c[J2State::back_stress + k];
  }
  norm = shell_bt_kernel::sqrt_(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2] +
                                2.0 * (xi[3] * xi[3] + xi[4] * xi[4] + xi[5] * xi[5]));
  const v8d alpha = c[J2State::equivalent_plastic_strain];
  const v8d f = norm - std::sqrt(2.0 / 3.0) * (sy + H * alpha);
  const v8di flows = f > 0.0;
  out.dg = select(flows, f / (2.0 * mu + 2.0 / 3.0 * (H + Hk)), v8d{});
  for (int k = 0; k < J2State::size; ++k) out.next[k] = c[k];
  for (int k = 0; k < 6; ++k) {
    const v8d n = xi[k] / norm;
    s[k] = select(flows, s[k] - 2.0 * mu * out.dg * n, s[k]);
    out.next[J2State::plastic_strain + k] =
        select(flows, out.next[J2State::plastic_strain + k] + out.dg * n,
               out.next[J2State::plastic_strain + k]);
    out.next[J2State::back_stress + k] =
        select(flows, out.next[J2State::back_stress + k] + 2.0 / 3.0 * Hk * out.dg * n,
               out.next[J2State::back_stress + k]);
  }
  out.next[J2State::equivalent_plastic_strain] =
      select(flows, alpha + std::sqrt(2.0 / 3.0) * out.dg, alpha);
  for (int k = 0; k < 6; ++k) out.stress[k] = s[k] + (k < 3 ? kappa * tr : v8d{});
}

/// out = at in the lanes of `now`.
INERTIA_BT_BATCH_INLINE void keep(Point& out, const Point& at, const v8di& now) {
  for (int k = 0; k < 6; ++k) out.stress[k] = select(now, at.stress[k], out.stress[k]);
  for (int k = 0; k < J2State::size; ++k) out.next[k] = select(now, at.next[k], out.next[k]);
  out.dg = select(now, at.dg, out.dg);
}

/// fe/shell_section.cpp's plane_stress_j2_update on all lanes (linear hardening): Newton on
/// eps_zz with its bracket, each lane stopping where the element's would; the point's converged
/// result in out, its eps_zz in ez. Returns the lanes that did not converge.
INERTIA_BT_BATCH_INLINE v8di plane_stress(const J2Parameters& p, const v8d e[3], const v8d* c,
                                          Point& out, v8d& ez) {
  const double lambda = p.lame.lambda, mu = p.lame.mu, kappa = lambda + 2 * mu / 3;
  const double sy = p.yield_stress, H = p.isotropic_modulus, Hk = p.kinematic_modulus;
  const double inf = std::numeric_limits<double>::infinity();
  ez = (2 * mu * c[J2State::plastic_strain + 2] - lambda * (e[0] + e[1])) / (lambda + 2 * mu);
  v8d lo = v8d{} - inf, hi = v8d{} + inf;
  v8di done{};
  for (int it = 0; it < 60; ++it) {
    const v8d eps[6] = {e[0], e[1], ez, 0.5 * e[2], v8d{}, v8d{}};
    Point at;
    v8d norm;
    return_map(mu, kappa, sy, H, Hk, eps, c, at, norm);
    const v8d szz = at.stress[2];
    const v8d tr_eps = e[0] + e[1] + ez;
    const v8d scale =
        vabs(at.stress[0]) + vabs(at.stress[1]) + vabs(at.stress[3]) + kappa * vabs(tr_eps) +
        2 * mu * (vabs(e[0]) + vabs(e[1]) + vabs(ez) + vabs(c[J2State::plastic_strain + 2]));
    const v8di zero_szz = vabs(szz) <= 1e-14 * scale;
    // The lanes converging now keep this iterate (the element's break before its update).
    keep(out, at, zero_szz & ~done);
    done |= zero_szz;
    if (all_set(done)) break;
    const v8di up = szz > 0.0;
    hi = select(up & ~done, ez, hi);
    lo = select(~up & ~done, ez, lo);
    // zz_slope, linear hardening.
    const double H_total = Hk + H;
    const v8d theta = 1.0 - 2.0 * mu * at.dg / norm;
    const v8d theta_bar = 1.0 / (1.0 + H_total / (3.0 * mu)) - (1.0 - theta);
    const v8d n_zz =
        (at.next[J2State::plastic_strain + 2] - c[J2State::plastic_strain + 2]) / at.dg;
    const v8d azz =
        select(at.dg > 0.0, kappa + 4.0 * mu / 3.0 * theta - 2.0 * mu * theta_bar * n_zz * n_zz,
               v8d{} + (kappa + 4 * mu / 3));
    v8d guess = select(azz > 0.0, ez - szz / azz, v8d{} + NAN);
    const v8di bracketed = (lo - lo == 0.0) & (hi - hi == 0.0);
    const v8d outside = select(bracketed, 0.5 * (lo + hi),
                               select(up, ez - 2.0 * vabs(szz) / (lambda + 2 * mu),
                                      ez + 2.0 * vabs(szz) / (lambda + 2 * mu)));
    guess = select((guess > lo) & (guess < hi), guess, outside);
    const v8di small_step = vabs(guess - ez) <= 1e-15 * (vabs(e[0]) + vabs(e[1]) + vabs(ez));
    keep(out, at, small_step & ~done);
    done |= small_step;
    if (all_set(done)) break;
    ez = select(done, ez, guess);
  }
  return ~done;
}

/// What a pass's plastic section in the lanes needs of it, computed once per pass: the J2
/// parameters with the section's Lame constants (shell_layers_update's) and the points through
/// the thickness.
struct LanesSection {
  J2Parameters p;
  ShellThicknessPoints r;
  explicit LanesSection(const ShellLayers& s) : p(s.j2), r(shell_layers_points(s)) {
    const double E = s.elastic.youngs_modulus, nu = s.elastic.poissons_ratio;
    p.lame.mu = E / (2 * (1 + nu));
    p.lame.lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  }
};

/// shell_layers_update's plastic section on all lanes (linear hardening, no rate factor): each
/// point's plane-stress return from element first + l's committed state into its trial state
/// (lanes < count), the resultants nm and the stored energy per area; failed: the lanes whose
/// iteration did not converge.
INERTIA_BT_BATCH_INLINE v8d j2_section(const ShellLayers& s, const LanesSection& section,
                                       const ShellBtBatches::Pass& pass, const v8d ek[6],
                                       std::size_t first, int count, v8d nm[6], v8di& failed) {
  const J2Parameters& p = section.p;
  const ShellThicknessPoints& r = section.r;
  const double mu = p.lame.mu, kappa = p.lame.lambda + 2.0 * mu / 3.0;
  const double H = p.isotropic_modulus, Hk = p.kinematic_modulus;
  constexpr int stride = J2State::size;  // without a rate factor: shell_layers_point_stride
  for (int i = 0; i < 6; ++i) nm[i] = v8d{};
  failed = v8di{};
  v8d stored{};
  for (int q = 0; q < s.points; ++q) {
    const double z = r.z[q], w = r.weight[q];
    const v8d e[3] = {ek[0] + z * ek[3], ek[1] + z * ek[4], ek[2] + z * ek[5]};
    v8d c[J2State::size];
    for (int l = 0; l < W; ++l) {
      const double* row = pass.committed +
                          (first + static_cast<std::size_t>(std::min(l, count - 1))) * pass.stride +
                          static_cast<std::size_t>(q * stride);
      for (int k = 0; k < J2State::size; ++k) c[k][l] = row[k];
    }
    Point out{};
    v8d ez;
    failed |= plane_stress(p, e, c, out, ez);
    const v8d eps[6] = {e[0], e[1], ez, 0.5 * e[2], v8d{}, v8d{}};
    // j2_free_energy, linear hardening.
    const v8d tr = eps[0] + eps[1] + eps[2];
    v8d ee{}, bb{};
    for (int k = 0; k < 6; ++k) {
      const v8d el = eps[k] - (k < 3 ? tr / 3.0 : v8d{}) - out.next[J2State::plastic_strain + k];
      const v8d b = out.next[J2State::back_stress + k];
      ee += (k < 3 ? 1.0 : 2.0) * el * el;
      bb += (k < 3 ? 1.0 : 2.0) * b * b;
    }
    const v8d alpha = out.next[J2State::equivalent_plastic_strain];
    v8d psi = 0.5 * kappa * tr * tr + mu * ee + 0.5 * H * alpha * alpha;
    if (Hk > 0) psi += 0.75 / Hk * bb;
    stored += w * psi;
    const v8d sigma[3] = {out.stress[0], out.stress[1], out.stress[3]};
    for (int i = 0; i < 3; ++i) {
      nm[i] += w * sigma[i];
      nm[3 + i] += w * z * sigma[i];
    }
    for (int l = 0; l < count; ++l) {
      double* row = pass.trial + (first + static_cast<std::size_t>(l)) * pass.stride +
                    static_cast<std::size_t>(q * stride);
      for (int k = 0; k < J2State::size; ++k) row[k] = out.next[k][l];
    }
  }
  return stored;
}

/// The lanes' state and force of one batch (b: its index; count: the elements in it).
template <bool Plastic, bool LanesJ2>
__attribute__((always_inline)) inline void batch(
    const ShellBtBatches::Pass& p, const Geometry& g, const std::int32_t* nodes, std::size_t first,
    int count, ShellBtBatches::Totals& totals,
    const std::function<void(std::size_t, const SolverError&)>& failed, const LanesSection* lanes) {
  using namespace shell_bt_kernel;
  // The corners' translations d and their nodes' exp(psi) and its tangent, computed here in the
  // lanes from psi (the series of exp_and_tangent up to half a turn): 3 values a corner to
  // gather, not 18 from a table of the nodes'.
  v8d d[24], QT[4][18];
  for (int a = 0; a < 4; ++a) {
    v8d psi[3];
    for (int l = 0; l < W; ++l) {
      const double* ut = p.u + 3 * static_cast<std::ptrdiff_t>(nodes[a * W + l]);
      const double* ur = p.u + 3 * static_cast<std::ptrdiff_t>(nodes[(4 + a) * W + l]);
      for (int i = 0; i < 3; ++i) d[3 * a + i][l] = ut[i], psi[i][l] = ur[i];
    }
    exp_and_tangent(psi, QT[a], QT[a] + 9);
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
  } else if constexpr (LanesJ2) {
    v8di diverged;
    section = j2_section(*p.section, *lanes, p, ek, first, count, nm, diverged);
    for (int l = 0; l < count; ++l)
      if (diverged[l] && !bad[l]) {
        failed(first + static_cast<std::size_t>(l),
               SolverError(cat("a shell section point's plane-stress iteration did not converge "
                               "(membrane strain ",
                               ek[0][l], " ", ek[1][l], " ", ek[2][l], " at the mid-surface)")));
        reported[l] = true;
      }
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

template <bool Plastic, bool LanesJ2 = false>
__attribute__((always_inline)) inline void run(
    const ShellBtBatches::Pass& p, const double* geometry, const std::int32_t* nodes,
    std::size_t count, ShellBtBatches::Totals& totals,
    const std::function<void(std::size_t, const SolverError&)>& failed) {
  const std::size_t batches = (count + W - 1) / W;
  std::optional<LanesSection> lanes;
  if constexpr (LanesJ2) lanes.emplace(*p.section);
  for (std::size_t b = 0; b < batches; ++b)
    batch<Plastic, LanesJ2>(p, *reinterpret_cast<const Geometry*>(geometry + b * fields * W),
                            nodes + b * 8 * W, b * W,
                            static_cast<int>(std::min<std::size_t>(W, count - b * W)), totals,
                            failed, lanes ? &*lanes : nullptr);
}

#define INERTIA_BT_VARIANT(name, ...)                                                   \
  __attribute__((target_clones("avx512f", "avx2", "default"))) void name(               \
      const ShellBtBatches::Pass& p, const double* geometry, const std::int32_t* nodes, \
      std::size_t count, ShellBtBatches::Totals& totals,                                \
      const std::function<void(std::size_t, const SolverError&)>& failed) {             \
    run<__VA_ARGS__>(p, geometry, nodes, count, totals, failed);                        \
  }
INERTIA_BT_VARIANT(elastic_batches, false)
INERTIA_BT_VARIANT(plastic_batches, true)
INERTIA_BT_VARIANT(j2_batches, true, true)
#undef INERTIA_BT_VARIANT

/// shell4_bt_node_rotation of each listed node's psi (u at 3 n), W nodes at a time: the lanes'
/// exp(psi) and tangent as the batches compute them at each corner.
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

ShellBtBatches::ShellBtBatches(std::span<const double> X, std::span<const std::int32_t> nodes)
    : count_(X.size() / 12) {
  INERTIA_CHECK(X.size() == 12 * count_ && nodes.size() == 8 * count_, InternalError,
                "ShellBtBatches: ", X.size(), " coordinates and ", nodes.size(), " nodes");
  const std::size_t batches = (count_ + W - 1) / W;
  geometry_.assign(batches * fields * W + W, 0.0);  // W more: the aligned start
  nodes_.assign(batches * 8 * W, 0);
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
  INERTIA_CHECK(p.section && p.u && p.f, InternalError, "ShellBtBatches: a pass without ",
                "its section, u or force");
  if (p.section->plastic) {
    INERTIA_CHECK(p.committed && p.trial &&
                      p.stride >= static_cast<std::size_t>(shell4_bt_state_size(*p.section)),
                  InternalError, "ShellBtBatches: a plastic pass without its state");
    // Linear hardening without a rate factor: the return map in the lanes; else lane by lane.
    // (Without a rate factor the rate history is off: shell_layers_update.)
    const bool lanes = !p.section->j2.nonlinear();
    (lanes ? j2_batches : plastic_batches)(p, aligned(geometry_.data()), nodes_.data(), count_,
                                           totals, failed);
  } else {
    elastic_batches(p, aligned(geometry_.data()), nodes_.data(), count_, totals, failed);
  }
  return totals;
}

}  // namespace inertia::fe
