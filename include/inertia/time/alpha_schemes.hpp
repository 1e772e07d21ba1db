#pragma once
/// \file alpha_schemes.hpp
/// The alpha schemes, hht and generalized_alpha: Newmark's updates
///   u_{n+1} = u_n + h v_n + h^2 ((1/2 - beta) a_n + beta a_{n+1}),
///   v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a_{n+1}),
/// with the equation of motion balanced between t_n and t_{n+1},
///   M a_{n+1-alpha_m} + C v_{n+1-alpha_f} + f_int(u_{n+1-alpha_f}) = f_{n+1-alpha_f},
///   x_{n+1-alpha} = (1 - alpha) x_{n+1} + alpha x_n,
///   f_{n+1-alpha_f} = (1 - alpha_f) f_ext(t_{n+1}) + alpha_f f_ext(t_n).
/// Convention: Chung & Hulbert's (1993), alpha weights the OLD value, so alpha_m = alpha_f = 0 is
/// Newmark. (PETSc's TSALPHA2 and Jansen, Whiting & Hulbert 2000 weight the new value: their
/// alpha is 1 - ours.) The loads are interpolated, not taken at t_{n+1-alpha_f}, so that
/// rho_infinity = 1 is Newmark's trapezoidal rule exactly (below). Start, as Newmark:
/// a_0 = M^{-1} (f_ext(t_0) - C v_0 - f_int(u_0)).
///
/// generalized_alpha (Chung & Hulbert 1993), from rho_infinity in [0, 1], the spectral radius of
/// the amplification matrix as omega h -> infinity (all three eigenvalues tend to -rho_infinity):
///   alpha_m = (2 rho_infinity - 1) / (rho_infinity + 1), alpha_f = rho_infinity / (rho_infinity
///   + 1), beta = (1 - alpha_m + alpha_f)^2 / 4, gamma = 1/2 - alpha_m + alpha_f.
/// Second order, unconditionally stable, least low-frequency dissipation for a given high-frequency
/// one. rho_infinity = 1: alpha_m = alpha_f = 1/2, beta = 1/4, gamma = 1/2; for a linear system
/// the balance is then the mean of the balances at t_n and t_{n+1}, which a_0 satisfies at t_0,
/// so every step is Newmark's trapezoidal rule. rho_infinity = 0 annihilates the highest modes in
/// one step.
///
/// hht (Hilber, Hughes & Taylor 1977), alpha in [-1/3, 0]: alpha_m = 0, alpha_f = -alpha,
/// beta = (1 - alpha)^2 / 4, gamma = 1/2 - alpha:
///   M a_{n+1} + (1 + alpha) (C v_{n+1} + f_int(u_{n+1})) - alpha (C v_n + f_int(u_n))
///     = (1 + alpha) f_ext(t_{n+1}) - alpha f_ext(t_n),
/// second order, unconditionally stable, spectral radius (1 + alpha) / (1 - alpha) as
/// omega h -> infinity. alpha = 0 is Newmark (1/4, 1/2), the same operations bit for bit.
///
/// Linear systems: one solve per step for a_{n+1} with the operator
///   (1 - alpha_m + (1 - alpha_f) h gamma alpha_M) M + (1 - alpha_f) (h^2 beta + h gamma alpha_K)
///   K,
/// constant for a fixed h, so the solver and its preconditioner are built once.
/// Nonlinear systems: Newton (SNES) on a_{n+1}, Jacobian that operator + (1 - alpha_f) h gamma B.
/// The two schemes differ only here: hht interpolates the forces, as written above (the form of
/// Abaqus and CalculiX), generalized_alpha evaluates f_int, the dashpots and C(u) at the
/// interpolated state u_{n+1-alpha_f}, v_{n+1-alpha_f} (Chung & Hulbert's balance as written).
/// Constrained DOFs: as Newmark, exactly on their prescribed path at t_n and t_{n+1} (with their
/// prescribed velocity and acceleration), so the balance sees their alpha-weighted motion.
/// The carried state is a_n (Integrator::internal_state: checkpoints, step retries).
///
/// Not PETSc's TSALPHA2: it starts from two backward-Euler half steps (a_0 by a backward
/// difference, not the equation of motion), repeats that start after every TS restart (so a
/// checkpointed run would not continue exactly), has no place for the constraints' prescribed
/// accelerations or for hht's interpolated forces, and would not share the solves' operator cache
/// or Newton's domain-error handling with the other implicit schemes. Nor is it faster: on a
/// 60 x 6 x 6 hex8 cantilever (consistent mass, one rank) a step took 0.30 s with TS's default
/// solver (97 Krylov iterations) against 0.16 s here (CG + GAMG, 20 iterations), and about the
/// same 0.12 to 0.15 s when given this scheme's CG + GAMG.
///
/// Options: time.hht: alpha in [-1/3, 0] (default -0.05, the default of CalculiX and of Abaqus's
/// HHT); time.generalized_alpha: rho_infinity in [0, 1] (default 0.8).

#include "inertia/core/options.hpp"
#include "inertia/time/scheme.hpp"

namespace inertia {

/// The coefficients of one alpha scheme (Chung & Hulbert's convention, see above).
struct AlphaCoefficients {
  double alpha_m = 0;
  double alpha_f = 0;
  double beta = 0.25;
  double gamma = 0.5;
  /// Nonlinear systems: interpolate the forces (hht) rather than the state (generalized_alpha).
  bool interpolate_forces = false;
};

struct HhtParams {
  double alpha = -0.05;
  AlphaCoefficients coefficients() const;
};

struct GeneralizedAlphaParams {
  double rho_infinity = 0.8;
  AlphaCoefficients coefficients() const;
};

Scheme configure_hht(const OptionMap& options);
Scheme configure_generalized_alpha(const OptionMap& options);

}  // namespace inertia
