#pragma once
/// \file shell.hpp
/// Four-node flat shell element, linear (small displacements and rotations): a bilinear membrane
/// (plane stress), Reissner-Mindlin bending with MITC4 transverse shear (Dvorkin and Bathe,
/// Engineering Computations 1, 1984, 77-88: the covariant shear strains tied at the edge
/// midpoints, so a thin element does not lock) and a drilling rotation tied to the in-plane
/// rotation of the membrane (Hughes and Brezzi, CMAME 72, 1989, 105-121). Pure functions, no
/// allocation.
///
/// DOFs. A shell cell has nodes [n0..n3, r0..r3]: n_a carry translations, r_a (companion rotation
/// nodes, as for beams) the rotations about the global axes. Element vectors and matrices have 24
/// DOFs in the order
///   [u0 (x y z), u1, u2, u3, th0 (x y z), th1, th2, th3]   (global axes),
/// matrices 24 x 24 row-major. The shell4_local_* functions use the same order in local axes.
///
/// Local frame (shell4_frame), at the element's centre c = (x0 + x1 + x2 + x3) / 4:
///   g1 = (x1 + x2 - x0 - x3) / 2,  g2 = (x2 + x3 - x0 - x1) / 2,
///   e3 = normalize(g1 x g2),  e1 = normalize(g1),  e2 = e3 x e1,
/// R has the rows e1, e2, e3 (a_local = R a_global). The nodes are projected on the plane through
/// c normal to e3 (`warp` reports the largest distance of a node from that plane over the
/// element's size). Warping correction (Taylor, "Finite element analysis of linear shell
/// problems", 1987): a warped node x_a = p_a + h_a e3 is tied to its projection p_a by a rigid
/// link, u(p_a) = u_a + th_a x (p_a - x_a), i.e. in local axes u_p = u - h th_y, v_p = v + h th_x,
/// w_p = w; the flat element's stiffness K_p becomes W^T K_p W. A rigid motion of the warped
/// nodes is carried to a rigid motion of the projected ones, so the warped element has exactly
/// the six rigid-body modes; on a flat element (h = 0) W = I and nothing changes.
///
/// Kinematics (local axes, z along e3 through the thickness): u = u0 + z beta_x, v = v0 + z beta_y
/// with beta_x = th_y, beta_y = -th_x (the rotation vector th moves the point z e3 by th x z e3).
/// Strains: membrane e = [u,x, v,y, u,y + v,x]; curvatures k = [beta_x,x, beta_y,y,
/// beta_x,y + beta_y,x]; transverse shear g = [w,x + beta_x, w,y + beta_y], MITC4: the covariant
/// g_xi = g . x_xi tied at (0, -1) and (0, 1), g_eta at (-1, 0) and (1, 0), interpolated linearly
/// across. Drilling: omega = (v,x - u,y) / 2, penalty energy 1/2 alpha (th_z - omega)^2 per area
/// with alpha = drilling G t, integrated 99 % by one point (the centre, weight the area) and 1 %
/// by 2 x 2 points. Fully 2 x 2-integrated, the penalty ties th_z to omega at four points per
/// element while a mesh has about one th_z per element: on curved shells, where a facet's
/// bending rotation is its neighbour's drilling rotation, that over-constraint stiffens the
/// inextensional bending (the pinched hemisphere: 0.962 of the answer at 16 x 16, 0.136 at 4 x 4,
/// against 0.990 and 0.924 with the one-point mean). The 1 % at 2 x 2 keeps the three drilling
/// patterns the one-point rule leaves free stiff (exactly six zero eigenvalues); 0.3 % already
/// loses digits in the membrane patch test, 3 % gives back some of the stiffening (0.814 at 4 x 4).
/// Section (isotropic, homogeneous): membrane E t / (1 - nu^2) [1 nu 0; nu 1 0; 0 0 (1 - nu) / 2],
/// bending the same with t^3 / 12, shear k G t (k = shear_factor, 5/6). The other terms by 2 x 2
/// Gauss points. An offset o (ShellSection::offset: the nodes' surface o above the mid-surface)
/// strains the mid-surface by e - o k: the membrane rows become B_m - o B_b, which couples
/// membrane and bending exactly as the section of shell_section.hpp does (N = A (e - o k),
/// M = -o N + D k about the reference surface); the incompatible modes act on the mid-surface's
/// strain; shear and drilling are unchanged.
///
/// Lumped mass (diagonal, 24 values): rho t A / 4 per translation; every rotation the same value
/// rho (t^3 / 12 + t o^2) A / 4 about all three global axes (the diagonal stays diagonal in any
/// frame; the offset's first moment rho t o, which couples translations and rotations, is left
/// out of the lumped mass).
///
/// Stress resultants (shell4_resultants) at the centre, in the output axes (Abaqus' default shell
/// axes): a1 = the global X axis projected on the element's plane (Z when X is within 0.1 degree
/// of the normal), a2 = e3 x a1: N = [N11, N22, N12] (force
/// per length), M = [M11, M22, M12] (moment per length about the reference surface, M11 = D (k_11
/// + nu k_22) - o N11 : positive when it stretches the +e3 side), Q = [Q1, Q2] transverse shear
/// forces per length.

namespace inertia::fe {

/// An isotropic, homogeneous shell section.
struct ShellSection {
  double thickness = 0;
  double youngs_modulus = 0;
  double poissons_ratio = 0;
  double density = 0;
  double shear_factor = 5.0 / 6.0;
  double drilling = 1.0;  ///< alpha / (G t), the drilling penalty's factor
  /// The reference surface's (the nodes') height above the mid-surface along e3: t / 2 puts the
  /// nodes on the top surface (the section below them), -t / 2 on the bottom; any length (a
  /// plate whose nodes are a stiffener's axis, below the plate: -(t / 2 + the axis' depth)).
  double offset = 0;
};

/// The element's local frame and its nodes' local coordinates.
struct Shell4Frame {
  double R[9];        ///< rows e1, e2, e3
  double center[3];   ///< c
  double x[4], y[4];  ///< nodes in the local plane
  double area = 0;
  double warp = 0;  ///< largest |(x_a - c) . e3| over the square root of the area
  double z[4]{};    ///< the nodes' offsets h_a = (x_a - c) . e3 from the plane (the rigid links)
};

/// The frame of the quad with node coordinates xyz (4 x 3, x0 y0 z0 x1 ...). Throws
/// std::invalid_argument for a degenerate quad (collinear or coincident nodes) or one whose
/// projection is not convex (a non-positive Jacobian at a Gauss point).
Shell4Frame shell4_frame(const double xyz[12]);

/// The stiffness in local axes (24 x 24, the local DOF order), with the warping correction.
void shell4_local_stiffness(const Shell4Frame& f, const ShellSection& s, double K[576]);

/// The stiffness in global axes: T^T K_local T, T = diag(R, ..., R).
void shell4_stiffness(const double xyz[12], const ShellSection& s, double K[576]);

/// The lumped mass (24 diagonal values, global DOF order).
void shell4_lumped_mass(const double xyz[12], const ShellSection& s, double m[24]);

/// The weights of the 2 x 2 Gauss points of the element's flat projection, det J at point
/// q = 2 i + j, (xi_i, eta_j) in {-1/sqrt(3), 1/sqrt(3)} (the order of fe/shell_nonlinear.hpp's
/// points); their sum is the area.
void shell4_gauss_weights(const double xyz[12], double w[4]);

/// The stress resultants at the element's centre (output axes; see the file comment) from the
/// element's global displacements and rotations d (24, global DOF order). out: N11 N22 N12 M11
/// M22 M12 Q1 Q2.
void shell4_resultants(const double xyz[12], const ShellSection& s, const double d[24],
                       double out[8]);

/// Resultants [N11 N22 N12 M11 M22 M12 Q1 Q2] in the element's local axes (R's rows e1, e2, e3)
/// to the output axes (see the file comment); shared by the shell elements.
void shell_to_output_axes(const double R[9], const double local[8], double out[8]);

}  // namespace inertia::fe
