#pragma once
/// \file shell_section.hpp
/// A shell's section law: the stress resultants of a homogeneous isotropic section from its
/// generalized strains, elastic or with plane-stress J2 plasticity integrated through the
/// thickness. The element kernels (fe/shell.hpp) call it at each in-plane point; the transverse
/// shear stays elastic (k G t), as in Abaqus' S4R and LS-DYNA's Belytschko-Tsay shells.
///
/// Generalized strains ek[6] = [e11, e22, g12, k11, k22, k12] in the element's local axes:
/// membrane strains (g12 the engineering shear u,y + v,x) and curvatures (k12 = beta_x,y +
/// beta_y,x, the engineering twist), so that the strain at height z above the reference surface
/// is eps = e + z k. Resultants nm[6] = [N11, N22, N12, M11, M22, M12] per length: N = int s dz,
/// M = int s z dz, z measured from the reference surface, over z in [-t/2 - o, t/2 - o] with o =
/// elastic.offset (ShellSection::offset), the reference surface's height above the mid-surface (o
/// != 0 couples N and M). Tangent D[36]: 6 x 6 row-major d nm / d ek (symmetric).
///
/// Points through the thickness: `points` of a rule on the thickness, z_q = t x_q - o with x_q on
/// [-1/2, 1/2] and weights t w_q (Gauss-Lobatto by default, 3..15 points, so that the outer
/// fibres, which yield first, are sampled; Gauss-Legendre, 2..15, or composite Simpson, odd
/// counts 3..15 (Abaqus' default through a shell's thickness), on request). Elastic sections
/// are integrated in closed form: with o = 0, N = A e, M = D k, A = E t / (1 - nu^2) [1 nu 0; nu
/// 1 0; 0 0 (1 - nu) / 2] and D the same with t^3 / 12; offset, B = -A o and D + A o^2. Every rule
/// integrates the elastic section exactly (the stress is linear in z), so a plastic section in
/// its elastic range gives the same to round-off. A fully plastic section's stress is a step in z
/// (sign of the curvature), which no Gauss rule integrates exactly: the plastic moment comes out
/// as sigma_y sum_q t w_q |z_q| = 0.913, 0.960, 0.977, 0.985 M_p with Lobatto 5, 7, 9, 11 (odd
/// rules sample the mid-surface, which carries nothing at collapse), 1.029 and 1.015 with 6 and 8;
/// Legendre 1.043 at 4, 0.945 at 5; Simpson's rule integrates the step exactly where the
/// mid-surface ends a panel (5, 9, 13 points: M_p itself), 0.963 at 7 (M_p = sigma_y t^2 / 4;
/// unit.ShellSection prints them all).
///
/// Plastic sections: the J2 law of fe/plasticity.hpp (every hardening law of the solids: linear
/// isotropic and kinematic, Voce, a yield curve, the Johnson-Cook rate factor over the step from
/// the point's state's time to j2.time: ShellRateState) in plane stress at each point, sigma_zz = 0
/// (and sigma_yz = sigma_xz = 0: the section's transverse shear is the element's, elastic). The
/// point's 3D return map j2_return_map runs at eps = [e11, e22, eps_zz, g12 / 2, 0, 0] with a
/// local Newton iteration on eps_zz until sigma_zz = 0 (to 1e-14 of the stress's round-off
/// scale), from the elastic guess with the committed plastic strain (exact where the step is
/// elastic), its slope the zz-zz entry of the consistent tangent (quadratic convergence: about 4
/// return maps a flowing point), kept in its bracket by bisection; the consistent plane-stress
/// tangent is the 3D one at the converged eps_zz condensed,
///   C_ab = A_ab - A_az A_zb / A_zz  (a, b in 11, 22, 12; z = zz),
/// and the section's D = sum_q t w_q C_q [1 z_q; z_q z_q^2] (per block). These are the discrete
/// (backward-Euler) equations of Simo and Taylor's plane-stress return map (Simo and Hughes 1998,
/// sec. 3.4), solved to round-off; the house's tangent convention holds: a point evaluated on its
/// yield surface without flowing (a step's start) takes the elastic-plastic tangent (see
/// j2_return_map). The section's J2Parameters' lame is not read (it comes from E and nu), nor its
/// finite_strain: the section is small-strain (large rotations are the corotational element's).
///
/// State per in-plane point: points x shell_layers_point_stride doubles, point-major bottom to
/// top (the plastic strain in VTK order with its zz component, alpha, the back stress; with a rate
/// factor the time, rate and dissipation of ShellRateState), zero in the virgin state; eps_zz is
/// not stored (recomputed from the state each call); no state for an elastic section. Energies per
/// area: the free energy sum_q t w_q j2_free_energy (elastic and hardening), the dissipation sum_q
/// t w_q j2_dissipation over the step.
///
/// Cost (5 points, every point flowing, one core of the test machine): about 1.3 us a call, 1.8
/// us with the tangent; an elastic section 0.03 us. Some 700 flops a flowing point without the
/// tangent (4 return maps, 3 slopes, the energies), 1,700 with it (the 3D tangent's 81 entries
/// and the condensation); 208 bytes of state read and written a point: bound by the return
/// maps' latency (square roots, divisions), not by memory.

#include <span>

#include "inertia/fe/beam_fiber.hpp"
#include "inertia/fe/plasticity.hpp"
#include "inertia/fe/shell.hpp"

namespace inertia::fe {

/// A section through the thickness.
struct ShellLayers {
  enum class Rule { lobatto, legendre, simpson };
  static constexpr int max_points = 15;
  ShellSection elastic;  ///< thickness, E, nu, density, shear factor, drilling
  bool plastic = false;  ///< J2 below; false: elastic
  J2Parameters j2;       ///< yield and hardening (every law of the solids); lame from E and nu
  Rule rule = Rule::lobatto;
  int points = 5;  ///< through the thickness (Lobatto 3..15, Legendre 2..15, Simpson odd)
  /// With a rate factor: the state keeps each point's time, rate and dissipation
  /// (ShellRateState) and the step is the time from the state's to j2.time (the force terms).
  /// false: the caller's j2.dt or j2.frozen_rate, as j2_return_map takes them.
  bool rate_history = false;
};

/// A rate-dependent section's point (a Johnson-Cook rate factor: j2.rate_sensitivity > 0, with
/// ShellLayers::rate_history) keeps three more doubles after its J2 state: the time of the state
/// (j2.time of the evaluation that made it), the rate of its equivalent plastic strain over the
/// step that made it, and the energy per volume it has dissipated (j2_dissipation summed over its
/// steps, with each step's factor). An evaluation at j2.time after the state's time takes the rate
/// over that step; one at or before it (dt <= 0: the outputs, a second evaluation at the same time)
/// the state's own rate, so that the state is its own return (as j2_point_update's history).
struct ShellRateState {
  static constexpr int time = J2State::size, rate = time + 1, dissipation = time + 2,
                       size = time + 3;
};

/// The doubles of state of one point through the thickness: J2State::size, ShellRateState::size
/// with a rate factor and rate_history.
int shell_layers_point_stride(const ShellLayers& s);

/// The doubles of state per in-plane point (0 for an elastic section): points x
/// shell_layers_point_stride.
int shell_layers_state_size(const ShellLayers& s);

/// Throws InputError unless the section is valid: t > 0, E > 0, -1 < nu < 0.5, a finite offset
/// and, if plastic, the rule's point count, sigma_y > 0 (or a yield curve: as many stresses as
/// strains, from 0; its order is the case file's to check), hardening moduli >= 0 (Voce's rate > 0
/// where it is used) and a reference rate > 0 with a rate factor.
void check_shell_layers(const ShellLayers& s);

/// The points through the thickness of a section: heights z above the reference surface (on
/// [-t/2 - o, t/2 - o], bottom to top) and weights (lengths, summing to t). InputError for a
/// rule's point count out of range.
struct ShellThicknessPoints {
  int points = 0;
  double z[ShellLayers::max_points] = {};
  double weight[ShellLayers::max_points] = {};
};
ShellThicknessPoints shell_layers_points(const ShellLayers& s);

/// The stresses [s11, s22, s12] at the section's points (shell_layers_points' order; points x 3
/// values into `stress`) at generalized strains ek with an updated state (the trial state of ek,
/// or the committed one after the commit): the elastic plane stress of the plastic strain held,
/// which is the update's stress to round-off. For outputs (the faces' stresses, von Mises).
/// Elastic sections: C (e + z k) at the rule's points, `state` not read. InputError as
/// check_shell_layers (and for a rule's point count), InternalError for short spans.
void shell_layers_stresses(const ShellLayers& s, const double ek[6], std::span<const double> state,
                           std::span<double> stress);

/// One plane-stress J2 point: the membrane strain e[3] = [e11, e22, g12] (engineering shear)
/// from the committed state c (J2State::size) into tr (may alias c): the stress sigma[3] = [s11,
/// s22, s12] and, if C is not null, the condensed consistent tangent C[9] (3 x 3 row-major, d
/// sigma / d e). p.lame must be set. Returns the thickness strain eps_zz; *dgamma, if not null,
/// the plastic multiplier's increment (0: elastic). SolverError if the iteration on eps_zz does not
/// converge.
double plane_stress_j2_update(const J2Parameters& p, const double e[3], const double* c, double* tr,
                              double sigma[3], double* C, double* dgamma = nullptr);

/// Section state determination at one in-plane point: ek (6) from the committed state into
/// trial (shell_layers_state_size doubles each; trial may alias committed), the resultants nm (6)
/// and, if D is not null, the consistent tangent (36). The energies per area: the free energy
/// stored and the dissipation increment from committed to trial (FiberEnergy). InputError for a
/// section that is not valid (check_shell_layers), InternalError for short spans, SolverError if
/// a point's plane-stress iteration fails.
FiberEnergy shell_layers_update(const ShellLayers& s, const double ek[6],
                                std::span<const double> committed, std::span<double> trial,
                                double nm[6], double* D);

}  // namespace inertia::fe
