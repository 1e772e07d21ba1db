// Element technology for hex8: see hex8_technology.hpp.
#include "inertia/fe/hex8_technology.hpp"

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"
#include "inertia/fe/element.hpp"

namespace inertia::fe {

namespace {

constexpr int hex_nodes = 8, hex_dofs = 24;
/// The reference corners of fe/element.hpp's hex8 (Gmsh's order).
constexpr double hex_corner[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

void require(bool ok, const char* what) {
  if (!ok) throw InternalError(cat("hex8 technology: ", what));
}

/// K += s (lambda (g_a g_b^T) + mu (g_a . g_b) I + mu g_b g_a^T) for one point with gradients g.
void add_point_stiffness(const double* g, int n, double s, double lambda, double mu, double* Ke) {
  const int nd = 3 * n;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const double* ga = g + 3 * a;
      const double* gb = g + 3 * b;
      const double dot = ga[0] * gb[0] + ga[1] * gb[1] + ga[2] * gb[2];
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k)
          Ke[(3 * a + i) * nd + 3 * b + k] +=
              s * (lambda * ga[i] * gb[k] + mu * ga[k] * gb[i] + (i == k ? mu * dot : 0.0));
    }
}

}  // namespace

const char* name(Formulation f) {
  switch (f) {
    case Formulation::full:
      return "full";
    case Formulation::bbar:
      return "bbar";
    case Formulation::reduced:
      return "reduced";
    case Formulation::fbar:
      return "fbar";
  }
  return "?";
}

bool available(Formulation f, CellType t) { return f == Formulation::full || t == CellType::hex8; }

double hex8_mean_gradients(std::span<const double> x, double* b) {
  require(x.size() >= hex_dofs, "short x");
  const QuadratureRule rule = stiffness_rule(CellType::hex8);
  for (int k = 0; k < hex_dofs; ++k) b[k] = 0;
  double V = 0, g[hex_dofs];
  for (int q = 0; q < rule.num_points; ++q) {
    const double s = rule.weights[q] *
                     physical_gradients(CellType::hex8, x.first(hex_dofs), rule.points + 3 * q, g);
    V += s;
    for (int k = 0; k < hex_dofs; ++k) b[k] += s * g[k];
  }
  for (int k = 0; k < hex_dofs; ++k) b[k] /= V;
  return V;
}

double hex8_hourglass_vectors(std::span<const double> x, const double* b, double V, double* gamma) {
  require(x.size() >= hex_dofs, "short x");
  double bb = 0;
  for (int k = 0; k < hex_dofs; ++k) bb += b[k] * b[k];
  for (int alpha = 0; alpha < 4; ++alpha) {
    double h[hex_nodes];
    for (int a = 0; a < hex_nodes; ++a) {
      const double* xi = hex_corner[a];
      h[a] = alpha == 0   ? xi[1] * xi[2]
             : alpha == 1 ? xi[0] * xi[2]
             : alpha == 2 ? xi[0] * xi[1]
                          : xi[0] * xi[1] * xi[2];
    }
    double hx[3] = {0, 0, 0};  // h . x_i
    for (int a = 0; a < hex_nodes; ++a)
      for (int i = 0; i < 3; ++i) hx[i] += h[a] * x[3 * a + i];
    for (int a = 0; a < hex_nodes; ++a)
      gamma[8 * alpha + a] =
          0.125 * (h[a] - hx[0] * b[3 * a] - hx[1] * b[3 * a + 1] - hx[2] * b[3 * a + 2]);
  }
  return V * bb;
}

void hex8_reduced_geometry(std::span<const double> x, double* out) {
  out[24] = hex8_mean_gradients(x, out);
  out[57] = hex8_hourglass_vectors(x, out, out[24], out + 25);
}

void add_hourglass_stiffness(const double* gamma, double C, std::span<double> Ke) {
  require(Ke.size() >= hex_dofs * hex_dofs, "short Ke");
  for (int a = 0; a < hex_nodes; ++a)
    for (int b = 0; b < hex_nodes; ++b) {
      double k = 0;
      for (int alpha = 0; alpha < 4; ++alpha) k += gamma[8 * alpha + a] * gamma[8 * alpha + b];
      for (int i = 0; i < 3; ++i) Ke[(3 * a + i) * hex_dofs + 3 * b + i] += C * k;
    }
}

double add_hourglass_force(const double* gamma, double C, std::span<const double> u,
                           std::span<double> f) {
  require(u.size() >= hex_dofs, "short u");
  double energy = 0;
  for (int alpha = 0; alpha < 4; ++alpha)
    for (int i = 0; i < 3; ++i) {
      double q = 0;
      for (int a = 0; a < hex_nodes; ++a) q += gamma[8 * alpha + a] * u[3 * a + i];
      energy += 0.5 * C * q * q;
      if (!f.empty())
        for (int a = 0; a < hex_nodes; ++a) f[3 * a + i] += C * q * gamma[8 * alpha + a];
    }
  return energy;
}

void stiffness_linear_elastic(CellType t, std::span<const double> x, double lambda, double mu,
                              const Technology& tech, std::span<double> Ke) {
  if (tech.formulation == Formulation::full) return stiffness_linear_elastic(t, x, lambda, mu, Ke);
  require(t == CellType::hex8, "bbar, fbar and reduced need a hex8 cell");
  require(x.size() >= hex_dofs && Ke.size() >= hex_dofs * hex_dofs, "short spans");
  double b[hex_dofs];
  const double V = hex8_mean_gradients(x, b);
  const double kappa = lambda + 2.0 * mu / 3.0;
  if (tech.formulation == Formulation::bbar || tech.formulation == Formulation::fbar) {
    // (F-bar's tangent at u = 0 is B-bar's.) The deviatoric part at every point (lambda = -2 mu /
    // 3), the volumetric one from the mean.
    stiffness_linear_elastic(t, x, -2.0 * mu / 3.0, mu, Ke);
    for (int r = 0; r < hex_dofs; ++r)
      for (int c = 0; c < hex_dofs; ++c) Ke[r * hex_dofs + c] += kappa * V * b[r] * b[c];
    return;
  }
  for (int k = 0; k < hex_dofs * hex_dofs; ++k) Ke[k] = 0;
  add_point_stiffness(b, hex_nodes, V, lambda, mu, Ke.data());
  double gamma[32];
  const double factor = hex8_hourglass_vectors(x, b, V, gamma);
  add_hourglass_stiffness(gamma, tech.hourglass * mu * factor, Ke);
}

void cell_gradient(CellType t, std::span<const double> x, std::span<const double> u, Formulation f,
                   double* grad) {
  const int n = info(t).num_nodes;
  for (int k = 0; k < 9; ++k) grad[k] = 0;
  if (f == Formulation::reduced) {
    double b[hex_dofs];
    hex8_mean_gradients(x, b);
    apply_technology(f, u, b, n, grad);
    return;
  }
  const QuadratureRule rule = stiffness_rule(t);
  double g[3 * max_nodes];
  for (int q = 0; q < rule.num_points; ++q) {
    physical_gradients(t, x.first(3 * n), rule.points + 3 * q, g);
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) grad[3 * i + j] += u[3 * a + i] * g[3 * a + j];
  }
  for (int k = 0; k < 9; ++k) grad[k] /= rule.num_points;
  if (f == Formulation::bbar || f == Formulation::fbar) {
    double b[hex_dofs];
    hex8_mean_gradients(x, b);
    apply_technology(f, u, b, n, grad);
  }
}

void apply_technology(Formulation f, std::span<const double> u, const double* b, int nodes,
                      double* grad) {
  if (f == Formulation::full) return;
  double mean[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int a = 0; a < nodes; ++a)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) mean[3 * i + j] += u[3 * a + i] * b[3 * a + j];
  if (f == Formulation::reduced) {
    for (int k = 0; k < 9; ++k) grad[k] = mean[k];
    return;
  }
  // bbar (fbar: its small-strain counterpart, for the strain of outputs)
  const double shift = (mean[0] + mean[4] + mean[8] - grad[0] - grad[4] - grad[8]) / 3.0;
  for (int i = 0; i < 3; ++i) grad[4 * i] += shift;
}

}  // namespace inertia::fe
