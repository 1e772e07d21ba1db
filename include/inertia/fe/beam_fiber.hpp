#pragma once
/// \file beam_fiber.hpp
/// Plastic beams: fiber sections with the uniaxial J2 law, and the displacement-based
/// Euler-Bernoulli fiber beam element (small strain; the idea of OpenSees' fiber sections). Pure
/// functions of spans, no allocation in the per-step functions (uniaxial_j2_update,
/// fiber_section_update, fiber_beam_update).
///
/// Uniaxial J2 law: the 3D law of fe/plasticity.hpp in uniaxial stress, with the same parameters
/// (J2Parameters: yield_stress, isotropic_modulus H_iso, kinematic_modulus H_kin, Voce's Q and b
/// or a yield curve for the isotropic part; the case file's `plasticity:` keys yield_stress,
/// isotropic_hardening, kinematic_hardening, voce, yield_curve mean the same in a fiber):
///   sigma = E (eps - eps_p),   f = |sigma - beta| - k(alpha) <= 0,
///   eps_p' = gamma sign(sigma - beta),  beta' = H_kin eps_p',  alpha' = gamma,
/// k(alpha) = j2_yield_stress (sigma_y + H_iso alpha [+ Voce] or the curve). Backward Euler:
///   xi = E (eps - eps_p,n) - beta_n,  f_trial = |xi| - k(alpha_n),
///   dgamma solves |xi| - (E + H_kin) dgamma - k(alpha_n + dgamma) = 0 (linear hardening:
///   dgamma = f_trial / (E + H_iso + H_kin)),
/// the consistent tangent E (H + H_kin) / (E + H + H_kin), H = dk/dalpha at the new alpha (E where
/// the step is elastic). Monotonic: sigma = sigma_y + (H_iso + H_kin) eps_p, as the 3D law in
/// uniaxial stress. Free energy 1/2 E (eps - eps_p)^2 + int_0^alpha (k - k(0)) + beta^2 / (2
/// H_kin); the dissipation over a step k(0) (alpha - alpha_n) (j2_dissipation). The Johnson-Cook
/// rate factor is not supported in fibers (check_uniaxial_j2 refuses it).
///
/// State. A fiber: 3 doubles (UniaxialJ2State: plastic strain, back stress, equivalent plastic
/// strain), zero in the virgin state. A section: fibers x 3, fiber-major. An element: points x
/// fibers x 3 (point-major), fiber_beam_state_size. The caller owns the committed and the trial
/// arrays; the functions write the trial state from the committed one and never the committed.
///
/// Section (fiber_section_update). Generalized strains e = (eps0, kappa_y, kappa_z), the fiber
/// strain eps = eps0 + z kappa_y - y kappa_z, and the section forces
///   N = sum a sigma,   My = sum a sigma z,   Mz = -sum a sigma y,
/// the convention of fe/beam.hpp (sigma_xx = N / A + My z / Iy - Mz y / Iz in the elastic range;
/// kappa_y = d th_y / dx = -w'', kappa_z = d th_z / dx = v''), and the 3 x 3 tangent d s / d e
/// (symmetric). Torsion stays elastic (G J) and is the element's; an Euler-Bernoulli element is
/// rigid in shear, so the shear areas are not used.
///
/// Element (fiber_beam_update). Local frame of fe/beam.hpp (R rows e_x, e_y, e_z), 12 DOFs in the
/// cell order [u0, u1, th0, th1] (global axes). Linear axial u and twist, cubic Hermite v (with
/// th_z = v') and w (with th_y = -w'), so eps0 is constant and the curvatures linear along the
/// element. The sections sit at the points of a 1D rule on the element (FiberBeamIntegration):
/// Gauss-Lobatto (default, 5 points) or Gauss-Legendre. Lobatto puts sections at the element's
/// ends, where a frame's moments peak and its plastic hinges form; with n >= 3 points (Legendre
/// n >= 2) it integrates the elastic element's quadratic integrand B^T D B exactly, so the
/// elastic element IS fe/beam.hpp's Euler-Bernoulli stiffness (Hermite cubics are the exact
/// solution of the end-loaded elastic beam). With x_p = xi_p L and w_p summing to 1:
///   f_local = L sum_p w_p B_p^T s_p + torsion,   K_local = L sum_p w_p B_p^T k_p B_p + G J / L,
/// f = T^T f_local, K = T^T K_local T. Small strain: no geometric stiffness, no corotation.
///
/// Accuracy. Displacement-based: the curvature is linear in an element, so a plastic hinge spreads
/// over the element next to it and collapse loads are upper bounds, first order in the element
/// length h. A fixed-fixed beam under a central load collapses at 8 M_p / (L - 4 h / 3) with a
/// Lobatto rule (hinge elements whose curvature keeps its sign at the end points: 4.3 % above
/// 8 M_p / L at 32 elements), 8 M_p / (L - 1.26 h) with Legendre 5. Mesh hinge regions finely.
/// Missing: shear deformation (Timoshenko) and its interaction with the axial stress, plasticity
/// at large rotations (a corotational frame), rate effects, torsion plasticity, per-fiber
/// materials (concrete and rebar), a force-based element.

#include <span>

#include "inertia/fe/beam.hpp"
#include "inertia/fe/plasticity.hpp"

namespace inertia::fe {

/// The uniaxial J2 law's parameters: E and the 3D law's hardening (the lame, rate and time fields
/// of `hardening` are not used).
struct UniaxialJ2 {
  double youngs_modulus = 0;
  J2Parameters hardening;
};

/// Throws InputError unless E > 0, sigma_y > 0 (or a yield curve), moduli >= 0 and no rate factor.
void check_uniaxial_j2(const UniaxialJ2& m);

/// A fiber's state.
struct UniaxialJ2State {
  static constexpr int plastic_strain = 0, back_stress = 1, equivalent_plastic_strain = 2, size = 3;
};

/// The return map at strain eps from the committed state c (3) into tr (3, may alias c): the
/// stress and the consistent tangent d sigma / d eps. Returns dgamma (0: elastic).
double uniaxial_j2_update(const UniaxialJ2& m, double eps, const double* c, double* tr,
                          double& stress, double& tangent);

/// The free energy density at strain eps and state s.
double uniaxial_j2_free_energy(const UniaxialJ2& m, double eps, const double* s);

/// The energy density dissipated from the state c to the state tr: k(0) (alpha - alpha_n).
double uniaxial_j2_dissipation(const UniaxialJ2& m, const double* c, const double* tr);

/// A fiber section: fibers (fe/beam.hpp's section_fibers, or the caller's) of one material.
struct FiberSection {
  std::span<const BeamFiber> fibers;
  UniaxialJ2 material;
};

/// The section's energies of an update: the stored (free) energy and the dissipation increment,
/// per length for a section, totals for an element.
struct FiberEnergy {
  double stored = 0;
  double dissipated = 0;
};

/// Section state determination: generalized strains e[3] = (eps0, kappa_y, kappa_z) from the
/// committed state (fibers x 3) into trial (same size; may alias committed), the forces s[3] =
/// (N, My, Mz) and, if k is not null, the tangent k[9] (3 x 3 row-major). InternalError for short
/// spans.
FiberEnergy fiber_section_update(const FiberSection& section, const double e[3],
                                 std::span<const double> committed, std::span<double> trial,
                                 double s[3], double* k);

/// The points of the element's 1D rule on [0, 1] (weights sum to 1).
struct FiberBeamIntegration {
  enum class Rule { lobatto, legendre };
  static constexpr int max_points = 10;
  Rule rule = Rule::lobatto;
  int points = 0;
  double xi[max_points] = {};
  double weight[max_points] = {};
};

/// The rule of `points` points: Gauss-Lobatto 3..10 points, Gauss-Legendre 2..10 (enough to
/// integrate the elastic element exactly). InputError otherwise. Set-up, not per step.
FiberBeamIntegration fiber_beam_integration(FiberBeamIntegration::Rule rule = {}, int points = 5);

/// A fiber beam element's properties: the section (the same at every point), the elastic torsion
/// G J and the rule.
struct FiberBeam {
  FiberSection section;
  double shear_modulus = 0;
  double torsion = 0;
  FiberBeamIntegration integration = fiber_beam_integration();
};

/// points x fibers x 3: the doubles of an element's state.
int fiber_beam_state_size(const FiberBeam& b);

/// The element's update at global displacements d[12] from the committed state into trial (both
/// fiber_beam_state_size; may alias only if f and K are all that is wanted): the internal force
/// f[12] and tangent K[144] (global; either may be empty: skipped) and, if `sections` is not
/// empty, the section forces (N, My, Mz) at each point (points x 3). Returns the stored energy
/// (fibers and torsion) and the dissipation of the step. SolverError for a zero-length element,
/// InternalError for short spans.
FiberEnergy fiber_beam_update(const double x0[3], const double x1[3], const double R[9],
                              const FiberBeam& b, const double d[12],
                              std::span<const double> committed, std::span<double> trial,
                              std::span<double> f, std::span<double> K,
                              std::span<double> sections = {});

}  // namespace inertia::fe
