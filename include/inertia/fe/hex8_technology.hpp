#pragma once
/// \file hex8_technology.hpp
/// Element technology for the 8-node hexahedron (case key `materials[].formulation`): B-bar
/// against volumetric locking and one-point integration with hourglass control. Pure functions,
/// no allocation; conventions of fe/element.hpp.
///
/// - `full`: 2 x 2 x 2 Gauss points (element.hpp's kernels).
/// - `bbar`: B-bar (Hughes, "Generalization of selective integration procedures to anisotropic
///   and nonlinear media", IJNME 15, 1980): at each Gauss point the volumetric part of the strain
///   is replaced by its mean over the cell,
///     eps_bar_q = dev eps_q + 1/3 theta_bar I,   theta_bar = b . u,   b_a = 1/V int dN_a/dx dV,
///   so the cell has one volumetric constraint instead of eight. For linear elasticity this is
///   selective reduced integration: K = K_full(lambda = -2 mu / 3) + kappa V (b b^T) with
///   kappa = lambda + 2 mu / 3 the bulk modulus.
/// - `reduced`: the uniform-strain hexahedron of Flanagan and Belytschko ("A uniform strain
///   hexahedron and quadrilateral with orthogonal hourglass control", IJNME 17, 1981): one
///   point, the strain the cell's mean gradient b gives (exact mean strain), and their stiffness
///   form of hourglass control. With the hourglass base vectors h_1..4 (eta zeta, xi zeta, xi eta,
///   xi eta zeta at the nodes) and x_i the nodes' coordinates i,
///     gamma_alpha = 1/8 (h_alpha - sum_i (h_alpha . x_i) b_i),
///   orthogonal to every linear field (gamma . 1 = 0, gamma . x_j = 0), the hourglass modes
///   q_i,alpha = gamma_alpha . u_i carry the generalised forces Q = C q with
///     C = kappa_hg mu V (b . b),
///   nodal forces f_a,i = sum_alpha gamma_alpha,a Q_i,alpha and energy 1/2 C sum q^2. The shear
///   modulus (not lambda + 2 mu, as in some codes) keeps the hourglass stiffness finite as nu
///   approaches 1/2. kappa_hg is the case's `hourglass` (default 0.05).
/// - `fbar`: F-bar, B-bar's finite-strain form (de Souza Neto, Peric, Dutko and Owen, "Design of
///   simple low order finite elements for large strain analysis of nearly incompressible solids",
///   IJSS 33, 1996), for the finite-strain laws only (fe/plasticity.hpp's j2_element): at each
///   point F_bar = (det F0 / det F)^(1/3) F with F0 from the mean gradients. Its tangent at u = 0
///   is B-bar's, which stiffness_linear_elastic gives for it.

#include <cstdint>
#include <span>

#include "inertia/mesh/cell_type.hpp"

namespace inertia::fe {

enum class Formulation : std::uint8_t { full, bbar, reduced, fbar };

/// "full", "bbar", "reduced", "fbar".
const char* name(Formulation f);

/// Whether a formulation exists for a cell type (full: all; bbar, reduced, fbar: hex8 only).
bool available(Formulation f, CellType t);

/// The formulation of a solid region and its hourglass coefficient (reduced only).
struct Technology {
  Formulation formulation = Formulation::full;
  double hourglass = 0.05;
};

/// The mean gradients b[3 a + j] = 1/V int dN_a/dx_j dV of a hex8 (exact with 2 x 2 x 2 points);
/// returns V.
double hex8_mean_gradients(std::span<const double> x, double* b);

/// Flanagan-Belytschko hourglass vectors gamma[8 alpha + a] (4 x 8) of a hex8 with mean
/// gradients b (hex8_mean_gradients) and volume V; returns V (b . b), the factor of C without
/// kappa_hg mu.
double hex8_hourglass_vectors(std::span<const double> x, const double* b, double V, double* gamma);

/// Adds the hourglass stiffness C sum_alpha (gamma_alpha gamma_alpha^T) x I3 to Ke (24 x 24).
void add_hourglass_stiffness(const double* gamma, double C, std::span<double> Ke);

/// Hourglass forces f += C sum_alpha gamma_alpha (gamma_alpha . u_i) for element displacements u
/// (24); returns their energy 1/2 C sum q^2.
double add_hourglass_force(const double* gamma, double C, std::span<const double> u,
                           std::span<double> f);

/// A reduced hex8's geometry, computed once for kernels that run every step: the mean gradients
/// b (24), the volume V, the hourglass vectors gamma (32) and V (b . b) (hex8_hourglass_vectors'
/// factor): hex8_reduced_values doubles.
constexpr int hex8_reduced_values = 58;
void hex8_reduced_geometry(std::span<const double> x, double* out);

/// Linear-elastic stiffness Ke (3n x 3n) of a cell in formulation `tech` (full: element.hpp's).
/// InternalError for a formulation the cell type does not have.
void stiffness_linear_elastic(CellType t, std::span<const double> x, double lambda, double mu,
                              const Technology& tech, std::span<double> Ke);

/// The displacement gradient a formulation's strain comes from, averaged over the cell as
/// strain_stress_linear_elastic does: full the plain mean over the Gauss points, bbar that with
/// its trace replaced by theta_bar, reduced the mean gradient (grad[3 i + j] = du_i / dx_j).
void cell_gradient(CellType t, std::span<const double> x, std::span<const double> u, Formulation f,
                   double* grad);

/// The B-bar correction at a point of a hex8: with g the point's physical gradients and b the
/// mean ones, adds (b . u - tr grad) / 3 to the diagonal of grad (formulation bbar); reduced
/// replaces grad by the mean gradient b u. full: nothing.
void apply_technology(Formulation f, std::span<const double> u, const double* b, int nodes,
                      double* grad);

}  // namespace inertia::fe
