#pragma once
/// \file plasticity.hpp
/// J2 (von Mises) plasticity at small and finite strain: the material point's return map and its
/// consistent tangent, with isotropic (linear, Voce, tabulated) and linear kinematic (Prager)
/// hardening. At finite strain (J2Parameters::finite_strain) the same law acts in the Lagrangian
/// logarithmic strain space (Miehe, Apel and Lambrecht, CMAME 191, 2002; fe/log_strain.hpp):
/// eps = 1/2 ln C, sigma the stress conjugate to it, P = F (PP : sigma), additive plastic strain
/// in that space; rotation invariant, and for principal axes that stay fixed (uniaxial
/// tension, a cylinder's radial flow) the small-strain law in true strain and Kirchhoff stress.
/// Pure functions, no allocation; conventions of fe/element.hpp (symmetric tensors in VTK order xx
/// yy zz xy yz xz with the tensor shear) and of fe/hyperelastic.hpp (9x9 row-major tangents
/// A_ijkl).
///
/// Model (Simo and Hughes, Computational Inelasticity, 1998, Boxes 3.1 and 3.2):
///   sigma = kappa tr(eps) I + 2 mu (dev eps - eps_p),       kappa = lambda + 2 mu / 3,
///   f = |dev sigma - beta| - sqrt(2/3) (sigma_y + H_iso alpha) <= 0,
///   eps_p' = gamma n,  alpha' = sqrt(2/3) gamma,  beta' = 2/3 H_kin gamma n,
///   n = (dev sigma - beta) / |dev sigma - beta|.
/// Backward Euler gives the radial return, exact for linear hardening:
///   xi_trial = 2 mu (dev eps - eps_p,n) - beta_n,
///   f_trial = |xi_trial| - sqrt(2/3) (sigma_y + H_iso alpha_n),
///   dgamma = f_trial / (2 mu + 2/3 (H_iso + H_kin))  (0 if f_trial <= 0),
/// and the consistent tangent
///   C = kappa I x I + 2 mu theta I_dev - 2 mu theta_bar n x n,
///   theta = 1 - 2 mu dgamma / |xi_trial|,  theta_bar = 1 / (1 + (H_iso + H_kin) / (3 mu)) -
///   (1 - theta).
/// In uniaxial stress the plastic strain equals alpha and the stress follows
/// sigma = sigma_y + (H_iso + H_kin) eps_p: the hardening slope is H = H_iso + H_kin, the
/// elastic-plastic tangent E H / (E + H). Kinematic hardening moves the yield surface (the
/// Bauschinger effect: after loading to sigma_max in tension, reverse yielding starts at
/// sigma_max - 2 sigma_y with H_iso = 0), isotropic hardening grows it (at -sigma_max).

#include <span>

#include "inertia/fe/hex8_technology.hpp"
#include "inertia/fe/hyperelastic.hpp"
#include "inertia/mesh/cell_type.hpp"

namespace inertia::fe {

/// Isotropic hardening: the yield stress at equivalent plastic strain alpha,
///   k(alpha) = sigma_y + H_iso alpha + Q (1 - exp(-b alpha))      (linear + Voce),
/// or, with a yield curve, the piecewise-linear interpolation of its points (alpha_i, k_i),
/// alpha_0 = 0, held at its last value beyond the last point. The Johnson-Cook rate factor
/// multiplies it by R = 1 + C ln(max(1, alpha' / rate_0)), alpha' = Delta alpha / dt over the
/// step (dt > 0; 0: no rate effect).
struct J2Parameters {
  Lame lame;
  double yield_stress = 0;                             ///< sigma_y > 0 (Pa)
  double isotropic_modulus = 0;                        ///< H_iso >= 0 (Pa)
  double kinematic_modulus = 0;                        ///< H_kin >= 0 (Pa)
  double voce_saturation = 0;                          ///< Q >= 0 (Pa)
  double voce_rate = 0;                                ///< b > 0 where Q > 0
  std::span<const double> curve_strain, curve_stress;  ///< a yield curve (empty: none)
  double rate_sensitivity = 0;                         ///< Johnson-Cook's C >= 0
  double reference_rate = 0;                           ///< rate_0 > 0 where C > 0 (1/s)
  double dt = 0;  ///< the step, for the rate (set per evaluation)
  /// >= 0: an evaluation at the state's own time (dt = 0): the rate factor of this rate (the
  /// committed one) instead, so that the state is its own return (no relaxation of the
  /// overstress when the forces are evaluated again without time passing).
  double frozen_rate = -1;
  double time = 0;  ///< the time evaluated at (j2_element sets dt from the state's)
  /// Finite strain (j2_element): the law in the Lagrangian logarithmic strain space
  /// (fe/log_strain.hpp): eps = 1/2 ln C, the stress conjugate to it, P = F (PP : T).
  bool finite_strain = false;
  /// Whether the return map needs its local Newton iteration (Voce, a curve, a rate factor).
  bool nonlinear() const {
    return voce_saturation > 0 || !curve_strain.empty() || rate_sensitivity > 0;
  }
};

/// k(alpha) and its slope dk/dalpha (J2Parameters).
void j2_yield_stress(const J2Parameters& p, double alpha, double& k, double& slope);

/// The history of a material point: plastic strain (6, VTK order, tensor shear), equivalent
/// plastic strain alpha, back stress beta (6): 13 values, zero in the virgin state.
struct J2State {
  static constexpr int size = 13;
  static constexpr int plastic_strain = 0, equivalent_plastic_strain = 6, back_stress = 7;
  /// Its 13 values' names, in order (the point states' output names).
  static constexpr const char* names[size] = {"plastic_strain_xx",
                                              "plastic_strain_yy",
                                              "plastic_strain_zz",
                                              "plastic_strain_xy",
                                              "plastic_strain_yz",
                                              "plastic_strain_xz",
                                              "equivalent_plastic_strain",
                                              "back_stress_xx",
                                              "back_stress_yy",
                                              "back_stress_zz",
                                              "back_stress_xy",
                                              "back_stress_yz",
                                              "back_stress_xz"};
  /// With history (j2_element's stride >= with_history): the strain (6) and stress (6) of the
  /// state; the energy per volume dissipated up to it, from the return map (j2_dissipation):
  ///   D_{n+1} = D_n + (alpha_{n+1} - alpha_n) (k(0) + (R - 1) k(alpha_{n+1})),
  /// the plastic work less what the hardening stores (never negative, never decreasing); the
  /// time of the state and the equivalent plastic strain rate over its step (the Johnson-Cook
  /// factor's); and the work error per volume,
  ///   W_{n+1} = W_n + 1/2 (sigma_n + sigma_{n+1}) : (eps_{n+1} - eps_n) - (psi_{n+1} - psi_n)
  ///             - (D_{n+1} - D_n),
  /// the trapezoidal rule's work less the change of the free energy and the dissipation: zero
  /// over a step that stays on one branch of a linear law (elastic, or flowing with linear
  /// hardening, radially), the rule's error where the stress path kinks within a step (a yield
  /// crossing, an unloading). The energy balance of a trapezoidal scheme closes with D + W.
  static constexpr int strain = 13, stress = 19, dissipation = 25, time = 26, rate = 27,
                       work_error = 28, with_history = 29;
};

/// The return map at small strain eps (6, VTK order, tensor shear) from the committed state
/// `committed` (13): the updated state into `trial` (13), the stress into `stress` (6) and, if
/// non-null, the consistent tangent A_ijkl = d sigma_ij / d eps_kl (81 values, with both minor
/// symmetries: usable as dP/dF of a small-strain element). Returns the plastic multiplier
/// increment dgamma (0: elastic). `trial` may alias `committed`.
double j2_return_map(const J2Parameters& p, const double* eps, const double* committed,
                     double* trial, double* stress, double* A = nullptr);

/// The energy per volume the return map dissipates when the equivalent plastic strain goes from
/// alpha_n to alpha over a step (J2State::dissipation): the plastic work's rate
/// sigma : eps_p' = (sqrt(2/3) R k(alpha) + beta : n) gamma' less the rate of the stored
/// hardening energy, (k(alpha) - k(0)) alpha' (isotropic: int_0^alpha (k(a) - k(0)) da) and
/// beta : n gamma' (kinematic: 3 / (4 H_kin) beta : beta), is
///   (alpha - alpha_n) (k(0) + (R - 1) k(alpha))
/// over the step, R the Johnson-Cook factor of the step's rate (alpha - alpha_n) / p.dt
/// (p.frozen_rate's when set; 1 without a rate effect). Linear hardening: sigma_y (alpha -
/// alpha_n), exact for any step. 0 if alpha <= alpha_n.
double j2_dissipation(const J2Parameters& p, double alpha_n, double alpha);

/// The free energy at strain eps and state s: the elastic 1/2 (eps - eps_p) : C : (eps - eps_p)
/// and the hardening's 1/2 H_iso alpha^2 + 3 / (4 H_kin) beta : beta (the part of the plastic
/// work stored; the rest is dissipated).
double j2_free_energy(const J2Parameters& p, const double* eps, const double* s);

/// One material point's update from its committed state c into tr (J2State::size values, or
/// J2State::with_history with `history`): j2_return_map at strain eps (at finite strain the log
/// strain) with the rate factor's step p.time - c's time, sigma and, if A is not null, the
/// algorithmic tangent; with history also the strain, stress (the caller writes the Cauchy
/// stress at finite strain), time, rate, dissipation and work error (J2State). Returns the free
/// energy density. What j2_element does at each point; the batched explicit kernels call it for
/// the laws they do not vectorise.
double j2_point_update(const J2Parameters& p, const double* eps, const double* c, double* tr,
                       bool history, double* sigma, double* A);

/// Element kernel (tet4, tet10, hex8; stiffness_rule quadrature, physical
/// gradients g_a at each point q, s_q = w_q det J_q): with eps_q = B_q u = sym(sum_a u_a g_a^T)
/// and the return map from committed[q] (J2State::size values per point, point-major),
///   f = sum_q s_q B_q^T sigma_q,   K = sum_q s_q B_q^T A_q B_q,
/// the updated state into trial (same layout; may alias committed only if K and f are all that
/// is wanted afterwards) and the returned free energy sum_q s_q psi(eps_q, trial_q). At finite
/// strain (p.finite_strain, total Lagrangian, F_q = I + sum_a u_a g_a^T): eps_q = 1/2 ln C_q,
/// f = sum_q s_q P_q g_a, K = sum_q s_q g_a A_q g_b (A = dP/dF); the history's strain is
/// eps_q and its stress the Cauchy stress; bbar is refused (InternalError), reduced takes F
/// from the mean gradients with the same (reference-geometry) hourglass force. A hex8 in
/// formulation bbar uses B-bar's strain (its volumetric part the cell's mean), in reduced one
/// point with the mean gradients plus the elastic hourglass force, whose energy is added and,
/// if `hourglass` is not null, written there (fe/hex8_technology.hpp); `geometry`, if not
/// null, is the reduced cell's hex8_reduced_geometry (computed once instead of every call). f or K
/// may be empty (skipped). InternalError for other cell types, a formulation the cell has not, or
/// short spans.
double j2_element(CellType t, std::span<const double> x, std::span<const double> u,
                  const J2Parameters& p, std::span<const double> committed, std::span<double> trial,
                  std::span<double> f, std::span<double> K, int stride = J2State::size,
                  const Technology& tech = {}, double* hourglass = nullptr,
                  const double* geometry = nullptr);

/// The number of material points j2_element uses for a cell (1 for a reduced hex8).
int j2_points(CellType t, Formulation f);

}  // namespace inertia::fe
