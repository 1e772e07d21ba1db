#pragma once
/// \file beam.hpp
/// Two-node 3D beam element, linear (small displacements and rotations): Euler-Bernoulli and
/// Timoshenko (shear-deformable) bending, axial stretch and St Venant torsion; its stiffness,
/// consistent and lumped masses and end section forces; standard cross-section shapes, their
/// properties and fiber lists. Pure functions, no allocation (except the fiber lists, set-up only).
///
/// DOFs. A beam cell has nodes [n0, n1, r0, r1]: n0, n1 carry translations, r0, r1 (their
/// companion rotation nodes) the rotations about the global axes. Element vectors and matrices
/// have 12 DOFs in the order
///   [u0x u0y u0z, u1x u1y u1z, th0x th0y th0z, th1x th1y th1z]          (global axes),
/// matrices 12 x 12 row-major. The beam_local_* functions use the same order in local axes.
///
/// Local frame (beam_frame). e_x = (x1 - x0) / L; `orientation` is an approximate local y axis
/// (Abaqus' and CalculiX's n1 direction, need not be normal to the beam):
///   e_z = normalize(e_x x orientation),  e_y = e_z x e_x.
/// R has the rows e_x, e_y, e_z, so a vector's local components are a_local = R a_global and each
/// 3-block of an element vector transforms alike: K_global = T^T K_local T, T = diag(R, R, R, R).
/// default_beam_orientation: global Z x e_x when |e_x . Z| < 0.999 (a horizontal beam then has a
/// horizontal local y and its local z points up), else global Y (near-vertical beams).
///
/// Section axes. Iy is the second moment about local y: it resists bending in the local x-z
/// plane (deflection w along e_z, rotation th_y = -dw/dx in Euler-Bernoulli); Iz the one about
/// local z (deflection v along e_y, th_z = dv/dx). J (torsion) is St Venant's constant.
/// shear_area_y carries the shear force along y (couples with Iz bending), shear_area_z the one
/// along z (with Iy). The shear parameters are
///   phi_y = 12 E Iz / (G A_sy L^2),   phi_z = 12 E Iy / (G A_sz L^2),
/// and phi = 0 (rigid in shear: Euler-Bernoulli) when the shear area is <= 0 or the element is not
/// shear deformable. A shear-deformable element with a positive shear area needs G > 0.
///
/// Stiffness (Przemieniecki, Theory of Matrix Structural Analysis, 1968, sec. 5.6, eq. 5.116):
/// the element that is exact for end loads. For bending in x-y (DOFs v0, th_z0, v1, th_z1):
///   E Iz / ((1 + phi_y) L^3) [[12, 6L, -12, 6L], [6L, (4 + phi_y) L^2, -6L, (2 - phi_y) L^2],
///                             [-12, -6L, 12, -6L], [6L, (2 - phi_y) L^2, -6L, (4 + phi_y) L^2]]
/// and for x-z (w0, th_y0, w1, th_y1) the same with Iy, phi_z and the signs of the th_y rows and
/// columns reversed (th_y = -dw/dx); axial E A / L, torsion G J / L.
///
/// Consistent mass (Przemieniecki 1968, sec. 11.5, eqs. 11.41-11.42; the same matrices follow from
/// the interdependent interpolation of Friedman and Kosmatka, Computers & Structures 47, 1993,
/// 473-481): translational inertia rho A and rotary inertia rho I of the bending DOFs, each a
/// polynomial in phi over (1 + phi)^2, with phi = 0 the classic rho A L / 420 [156, 22L, 54, -13L;
/// 22L, 4L^2, 13L, -3L^2; ...] plus rho I / (30 L) [36, 3L, -36, 3L; 3L, 4L^2, -3L, -L^2; ...];
/// axial rho A L / 6 [2, 1; 1, 2]; torsion rho (Iy + Iz) L / 6 [2, 1; 1, 2] (the polar moment of
/// the section, Iy + Iz, for its rotary inertia about the axis, whatever J is).
/// Frequencies converge at the fourth order in the element length for Euler-Bernoulli elements,
/// at the second for Timoshenko elements short against their depth (phi >> 1: the shape
/// functions, and so the mass, tend to linear ones); the stiffness itself is exact.
///
/// Lumped mass (diagonal, 12 values): rho A L / 2 per translation; every rotation the SAME value
/// about all three global axes (so the matrix stays diagonal in any frame), the largest of the
/// local axes' values
///   about x: rho (Iy + Iz) L / 2;  about y, z: rho I_k L / 2 + rho A L^3 / 78
/// (the bending rotations' HRZ lumping, Hinton, Rock and Zienkiewicz 1976: the classic
/// consistent diagonal 4 L^2 rho A L / 420 scaled by 420 / 312 so that the translations keep the
/// whole mass), used for Timoshenko elements as well.
///
/// Section forces (beam_section_forces): s[0..5] = N, Vy, Vz, T, My, Mz at end 0 and s[6..11] at
/// end 1, in local axes, the internal forces and moments on the face with outward normal +e_x
/// (what the part of the beam beyond x acts on the part before it):
///   end 0: -(K_local d_local) at node 0,   end 1: +(K_local d_local) at node 1.
/// So N > 0 is tension, and the axial stress of a fiber at (y, z) is
///   sigma_xx = N / A + My z / Iy - Mz y / Iz
/// (My > 0 stretches the +z side, Mz > 0 compresses the +y side). Example: a cantilever clamped
/// at node 0 with a tip force P along +e_z has Vz = P at both ends, My = -P L at the root and
/// 0 at the tip; with P along +e_y, Vy = P and Mz = +P L at the root. These are the end forces of
/// the nodal displacements only (linear, no distributed loads along the element: a member with a
/// span load needs the fixed-end forces added by the caller).
///
/// The element's stored energy is 1/2 d . K d (K is constant: the caller's product).

#include <vector>

namespace inertia::fe {

/// Cross-section properties, in local axes (see the file comment). plastic_modulus_y, _z (Zy,
/// Zz) are the full plastic section moduli for bending about y and z (the plastic moment is
/// sigma_y Z); 0 when unknown. They are not used by the element matrices.
struct BeamSectionProperties {
  double area = 0;
  double iy = 0;
  double iz = 0;
  double torsion = 0;
  double shear_area_y = 0;
  double shear_area_z = 0;
  double plastic_modulus_y = 0;
  double plastic_modulus_z = 0;
};

/// E, G and rho of the beam's material.
struct BeamMaterial {
  double youngs_modulus = 0;
  double shear_modulus = 0;
  double density = 0;
};

/// |x1 - x0|.
double beam_length(const double x0[3], const double x1[3]);

/// The local frame: R (3 x 3 row-major) has the rows e_x, e_y, e_z. Returns false (R untouched)
/// when L == 0, a coordinate is not finite, or `orientation` is zero or parallel to the beam
/// (|e_x x orientation| <= 1e-8 |orientation|).
bool beam_frame(const double x0[3], const double x1[3], const double orientation[3], double R[9]);

/// The orientation used when the user gives none: global Z x e_x when |e_x . Z| < 0.999, else
/// global Y (also for L == 0).
void default_beam_orientation(const double x0[3], const double x1[3], double orientation[3]);

/// phi_y and phi_z of the file comment (0 for an Euler-Bernoulli element or a shear area <= 0).
/// Throws InputError when a shear-deformable element has a positive shear area but G <= 0.
void beam_shear_parameters(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                           bool shear_deformable, double& phi_y, double& phi_z);

/// Stiffness in local axes (12 x 12, the DOF order of the file comment; length > 0 unchecked).
void beam_local_stiffness(double length, const BeamSectionProperties& s, const BeamMaterial& m,
                          bool shear_deformable, double K[144]);
/// Consistent mass in local axes.
void beam_local_consistent_mass(double length, const BeamSectionProperties& s,
                                const BeamMaterial& m, bool shear_deformable, double M[144]);
/// A_global = T^T A_local T, T = diag(R, R, R, R) (12 x 12; in and out may not alias).
void beam_to_global(const double R[9], const double A_local[144], double A_global[144]);

/// Stiffness in global axes. Throws SolverError for a zero-length (or non-finite) element.
void beam_stiffness(const double x0[3], const double x1[3], const double R[9],
                    const BeamSectionProperties& s, const BeamMaterial& m, bool shear_deformable,
                    double K[144]);
/// Consistent mass in global axes.
void beam_consistent_mass(const double x0[3], const double x1[3], const double R[9],
                          const BeamSectionProperties& s, const BeamMaterial& m,
                          bool shear_deformable, double M[144]);
/// Lumped mass: the 12 diagonal values (the same in any frame).
void beam_lumped_mass(const double x0[3], const double x1[3], const BeamSectionProperties& s,
                      const BeamMaterial& m, double mass[12]);
/// End section forces s[12] (N, Vy, Vz, T, My, Mz at end 0, then at end 1; local axes; signs in
/// the file comment) of the element's global displacements d[12]; with end releases
/// (fe/beam_release.hpp's mask) those of the condensed element, zero at the released components.
void beam_section_forces(const double x0[3], const double x1[3], const double R[9],
                         const BeamSectionProperties& s, const BeamMaterial& m,
                         bool shear_deformable, const double d[12], double forces[12],
                         unsigned released = 0);

/// The consistent nodal loads f[12] (the cell's DOF order, global axes) of a uniform load q[3]
/// per length (global): q L / 2 at each node, and the fixed-end moments (L^2 / 12) e_x x q at
/// node 0 and its opposite at node 1 (the axial part of q makes none). Exact in statics for the
/// Euler-Bernoulli and Timoshenko elements (their end displacements are exact).
void beam_uniform_load(const double x0[3], const double x1[3], const double q[3], double f[12]);

/// Standard shapes. y and z are the section's (local) axes, the height along z. Shear areas are
/// k A with Cowper's factors (G. R. Cowper, J. Appl. Mech. 33, 1966, 335-340, Table 1), given
/// Poisson's ratio nu:
///   rectangle  k = 10 (1 + nu) / (12 + 11 nu) (both directions);
///   circle     k = 6 (1 + nu) / (7 + 6 nu);
///   tube       k = 6 (1 + nu) (1 + m^2)^2 / ((7 + 6 nu)(1 + m^2)^2 + (20 + 12 nu) m^2),
///              m = inner / outer diameter (Cowper's hollow circle: the circle at m = 0, the thin
///              tube's 2 (1 + nu) / (4 + 3 nu), about A / 2, at m -> 1);
///   I section  along z (the web): Cowper's thin-walled I,
///              k = 10 (1 + nu)(1 + 3 m)^2 / ((12 + 72 m + 150 m^2 + 90 m^3)
///                  + nu (11 + 66 m + 135 m^2 + 90 m^3) + 10 n^2 ((3 + nu) m + 3 m^2)),
///              m = 2 b t_f / (h' t_w), n = b / h', h' = h - t_f (between the flanges' midplanes);
///              along y (the flanges): the rectangle's k times the two flanges' area 2 b t_f.
/// Torsion: the rectangle's series (Timoshenko and Goodier, Theory of Elasticity, sec. 109), long
/// side a, short side b:
///   J = a b^3 (1/3 - 64 / pi^5 (b / a) sum_{n = 1, 3, 5, ...} tanh(n pi a / (2 b)) / n^5);
/// circle pi d^4 / 32; tube pi (D^4 - d^4) / 32 (exact); I section the thin-walled open sum
/// (2 b t_f^3 + (h - 2 t_f) t_w^3) / 3 (the web's clear height, no fillets).
/// Plastic moduli: rectangle Zy = b h^2 / 4, Zz = h b^2 / 4; circle d^3 / 6; tube (D^3 - d^3) / 6;
/// I section Zy = b t_f (h - t_f) + t_w (h - 2 t_f)^2 / 4, Zz = t_f b^2 / 2 + (h - 2 t_f) t_w^2
/// / 4. The functions throw InputError for dimensions that are not positive and finite, a tube wall
/// thicker than the radius, or an I section whose flanges are thicker than half the height or
/// whose web is wider than the flanges.
BeamSectionProperties rectangle_section(double width_y, double height_z, double nu);
BeamSectionProperties circle_section(double diameter, double nu);
BeamSectionProperties tube_section(double outer_diameter, double wall_thickness, double nu);
/// The I section is symmetric, its web along z: Iy is the strong axis.
BeamSectionProperties i_section(double height, double flange_width, double flange_thickness,
                                double web_thickness, double nu);

/// A shape by kind and dimensions, for the case file and the fiber lists:
///   rectangle: a = width_y, b = height_z;  circle: a = diameter;
///   tube: a = outer diameter, b = wall thickness;
///   i_section: a = height, b = flange width, c = flange thickness, d = web thickness.
struct BeamShape {
  enum class Kind { rectangle, circle, tube, i_section };
  Kind kind = Kind::rectangle;
  double a = 0, b = 0, c = 0, d = 0;
};
/// The properties of a shape (the functions above).
BeamSectionProperties section_properties(const BeamShape& shape, double nu);

/// A fiber of the section: its point (y, z) and the area it stands for.
struct BeamFiber {
  double y, z, area;
};
/// Fibers of a shape, for sections integrated over fibers (sum over fibers of a f(y, z)):
///   rectangles (the rectangle, the I section's two flanges and web): each plate split into
///     n_long x n_thick cells (n_long = divisions along the longer side, n_thick =
///     max(1, round(divisions x short / long)), with 2 x 2 Gauss points per cell, each a quarter
///     of the cell's area: the sums of a, a y^2, a z^2 are exact (quadratics);
///   circle and tube: `divisions` rings (the tube max(1, divisions / 4)) of 4 x divisions equal
///     sectors; a fiber at the sector's mid-angle on the radius sqrt((r_in^2 + r_out^2) / 2) with
///     the sector's exact area: the sums of a, a y^2, a z^2 are exact too (equal sectors, >= 3).
/// So A, Iy and Iz are reproduced to rounding at any division (divisions >= 1); the divisions set
/// how finely plastic flow spreads over the section (sum of a |z| approaches Zy: the rectangle's
/// is exact for an even number of cells across the height). Throws InputError for divisions < 1
/// or the shape's bad dimensions.
std::vector<BeamFiber> section_fibers(const BeamShape& shape, int divisions);

}  // namespace inertia::fe
