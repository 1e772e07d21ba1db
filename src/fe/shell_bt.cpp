// The one-point Belytschko-Lin-Tsay shell with hourglass control (fe/shell_bt.hpp).
#include "inertia/fe/shell_bt.hpp"

#include <cmath>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/shell.hpp"
#include "shell_bt_kernel.hpp"

namespace inertia::fe {

namespace {

using namespace shell_bt_kernel;

/// The corotated state at d; QT: each node's exp(psi) and tangent, or null: computed into own.
/// Throws SolverError where the current nodes have no frame.
void corotate(const ShellBtReference& ref, const double X[12], const double d[24],
              const double* const* QT, double (*own)[18], State<double>& st) {
  const double* nodes[4];
  for (int a = 0; a < 4; ++a) {
    if (!QT) exp_and_tangent(d + 12 + 3 * a, own[a], own[a] + 9);
    nodes[a] = QT ? QT[a] : own[a];
  }
  if (!corotate(ref, X, d, nodes, st))
    throw SolverError(
        "a Belytschko-Tsay shell element has collapsed (its current nodes are collinear or "
        "coincident, or its state is not finite)");
}

}  // namespace

int shell4_bt_state_size(const ShellLayers& s) { return shell_layers_state_size(s); }

ShellBtReference shell4_bt_reference(const double X[12]) {
  ShellBtReference ref;
  double C[3], g[3];
  if (!frame(X, ref.R0, C, g))
    throw SolverError("a Belytschko-Tsay shell element has no frame (its nodes are collinear)");
  for (int a = 0; a < 4; ++a) {
    double D[3], x0[3];
    for (int i = 0; i < 3; ++i) D[i] = X[3 * a + i] - C[i];
    for (int i = 0; i < 3; ++i)
      x0[i] = ref.R0[3 * i] * D[0] + ref.R0[3 * i + 1] * D[1] + ref.R0[3 * i + 2] * D[2];
    ref.x[a] = x0[0], ref.y[a] = x0[1], ref.h[a] = x0[2];
  }
  // The flat reference's shape-function derivatives at the centre and its area.
  constexpr double dxi[4] = {-0.25, 0.25, 0.25, -0.25}, deta[4] = {-0.25, -0.25, 0.25, 0.25};
  double J[2][2] = {};
  for (int a = 0; a < 4; ++a) {
    J[0][0] += dxi[a] * ref.x[a], J[0][1] += dxi[a] * ref.y[a];
    J[1][0] += deta[a] * ref.x[a], J[1][1] += deta[a] * ref.y[a];
  }
  const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  ref.area = 4 * det;
  ref.inv[0][0] = J[1][1] / det, ref.inv[0][1] = -J[0][1] / det;
  ref.inv[1][0] = -J[1][0] / det, ref.inv[1][1] = J[0][0] / det;
  for (int a = 0; a < 4; ++a) {
    ref.Nx[a] = ref.inv[0][0] * dxi[a] + ref.inv[0][1] * deta[a];
    ref.Ny[a] = ref.inv[1][0] * dxi[a] + ref.inv[1][1] * deta[a];
  }
  // The hourglass vector, orthogonal to the linear fields, and b . b.
  constexpr double h[4] = {1, -1, 1, -1};
  double hx = 0, hy = 0;
  ref.bb = 0;
  for (int a = 0; a < 4; ++a) {
    hx += h[a] * ref.x[a], hy += h[a] * ref.y[a];
    ref.bb += ref.Nx[a] * ref.Nx[a] + ref.Ny[a] * ref.Ny[a];
  }
  for (int a = 0; a < 4; ++a) ref.gamma[a] = 0.25 * (h[a] - hx * ref.Nx[a] - hy * ref.Ny[a]);
  return ref;
}

void shell4_bt_node_rotation(const double psi[3], double QT[18]) {
  exp_and_tangent(psi, QT, QT + 9);
}

ShellBtResult shell4_bt(const ShellBtReference& g, const double X[12], const ShellLayers& s,
                        double hourglass, const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24], bool resultants,
                        const double* const* QT) {
  const auto need = static_cast<std::size_t>(shell4_bt_state_size(s));
  if (committed.size() < need || trial.size() < need)
    throw InternalError(cat("shell4_bt: state spans of ", committed.size(), " and ", trial.size(),
                            " doubles, need ", need));
  State<double> st;
  double own[4][18];
  corotate(g, X, d, QT, own, st);
  // Membrane and bending: the section at the point.
  double ek[6], nm[6];
  strains(g, st.dl, ek);
  const FiberEnergy section = shell_layers_update(s, ek, committed, trial, nm, nullptr);
  double g0[2];
  const Energies<double> e = force(g, st, s.elastic, hourglass, nm, f, g0);
  ShellBtResult out;
  out.hourglass = e.hourglass;
  out.energy.stored = g.area * section.stored + e.shear + e.drilling + e.hourglass;
  out.energy.dissipated = g.area * section.dissipated;
  if (resultants) {
    const ShellSection& el = s.elastic;
    const double G = el.youngs_modulus / (2 * (1 + el.poissons_ratio));
    const double kGt = el.shear_factor * G * el.thickness;
    const double local[8] = {nm[0], nm[1], nm[2], nm[3], nm[4], nm[5], kGt * g0[0], kGt * g0[1]};
    shell_to_output_axes(st.Rr, local, out.resultants);
  }
  return out;
}

ShellBtResult shell4_bt(const double X[12], const ShellLayers& s, double hourglass,
                        const double d[24], std::span<const double> committed,
                        std::span<double> trial, double f[24]) {
  return shell4_bt(shell4_bt_reference(X), X, s, hourglass, d, committed, trial, f);
}

void shell4_bt_strains(const ShellBtReference& ref, const double X[12], const double d[24],
                       double ek[6], double R[9]) {
  State<double> st;
  double own[4][18];
  corotate(ref, X, d, nullptr, own, st);
  strains(ref, st.dl, ek);
  for (int i = 0; i < 9; ++i) R[i] = st.Rr[i];
}

}  // namespace inertia::fe
