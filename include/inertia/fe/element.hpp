#pragma once
/// \file element.hpp
/// Reference elements, quadrature and element kernels for small-strain linear elasticity.
///
/// Pure functions of spans: no MPI, no PETSc, no allocation, no globals (beyond constant tables).
/// Conventions used by every kernel:
/// - node order is VTK's (see mesh/cell_type.hpp);
/// - element coordinates `x` hold 3 values per node (x, y, z), node-major;
/// - element DOF `3*a + i` is component i of node a; element matrices are row-major
///   (3n x 3n), element vectors have 3n entries;
/// - symmetric tensors use VTK/ParaView's 6-component order: xx, yy, zz, xy, yz, xz; strain is the
///   tensor strain (epsilon_xy, not the engineering shear gamma_xy = 2 epsilon_xy).
/// - Lame parameters from Young's modulus E and Poisson's ratio nu:
///   lambda = E nu / ((1 + nu)(1 - 2 nu)), mu = E / (2 (1 + nu)).

#include <span>

#include "inertia/mesh/cell_type.hpp"

namespace inertia::fe {

inline constexpr int max_nodes = 16;    ///< largest node count of a supported cell
inline constexpr int max_qpoints = 27;  ///< largest quadrature rule used

/// A quadrature rule on a reference cell: reference coordinates (3 per point, unused ones zero)
/// and weights summing to the reference measure.
struct QuadratureRule {
  int num_points = 0;
  const double* points = nullptr;  ///< 3 per point
  const double* weights = nullptr;
};

/// Reference cells: line [-1,1]; tri/tet: unit simplex (0<=xi, sum<=1); quad/hex [-1,1]^d.
/// Rule exact for polynomials of total degree `degree` (simplices) or per-direction degree
/// `degree` (tensor cells). Throws InternalError if no such rule is tabulated.
/// Tabulated: simplices up to degree 5 (positive weights); tensor cells up to degree 5 (3-point
/// Gauss).
QuadratureRule quadrature(CellType t, int degree);

/// The rule kernels use for the stiffness (exact for affine/parallelepiped geometry):
/// tet4: 1 point, tet10: degree 2 (4 points), hex8: 2x2x2 Gauss.
QuadratureRule stiffness_rule(CellType t);
/// The rule kernels use for the consistent mass, exact for affine (simplex) and parallelepiped
/// (hex) geometry: tet4 degree 2, tet10 degree 4, hex8 2x2x2 Gauss, tri3 degree 2, quad4 2x2.
QuadratureRule mass_rule(CellType t);

/// Ji = J^{-1} of a 3x3 row-major matrix; returns det J. Not guarded against det J = 0: callers
/// validate the mesh (min_scaled_jacobian) or check det J first, so kernels stay branch-free.
inline double inverse3(const double* J, double* Ji) {
  const double c00 = J[4] * J[8] - J[5] * J[7];
  const double c01 = J[5] * J[6] - J[3] * J[8];
  const double c02 = J[3] * J[7] - J[4] * J[6];
  const double det = J[0] * c00 + J[1] * c01 + J[2] * c02;
  const double r = 1.0 / det;
  Ji[0] = c00 * r;
  Ji[1] = (J[2] * J[7] - J[1] * J[8]) * r;
  Ji[2] = (J[1] * J[5] - J[2] * J[4]) * r;
  Ji[3] = c01 * r;
  Ji[4] = (J[0] * J[8] - J[2] * J[6]) * r;
  Ji[5] = (J[2] * J[3] - J[0] * J[5]) * r;
  Ji[6] = c02 * r;
  Ji[7] = (J[1] * J[6] - J[0] * J[7]) * r;
  Ji[8] = (J[0] * J[4] - J[1] * J[3]) * r;
  return det;
}

/// Shape function values N[a] at reference point xi (3 values).
void shape_values(CellType t, const double* xi, double* N);
/// Shape function reference gradients dN[3*a + j] = dN_a / dxi_j at xi.
void shape_gradients(CellType t, const double* xi, double* dN);

/// Volume (3D), area (2D) or length (1D) of the cell.
double measure(CellType t, std::span<const double> x);

/// Smallest Jacobian determinant over the cell's nodes and stiffness quadrature points, divided by
/// the cell's mean Jacobian (volume / reference volume): <= 0 means inverted or degenerate.
/// For 3D cells only.
double min_scaled_jacobian(CellType t, std::span<const double> x);

/// Linear-elastic element stiffness Ke (3n x 3n, row-major), stiffness_rule quadrature.
void stiffness_linear_elastic(CellType t, std::span<const double> x, double lambda, double mu,
                              std::span<double> Ke);

/// Consistent element mass Me (3n x 3n, row-major) = rho * int N_a N_b dV * I3, mass_rule.
void mass_consistent(CellType t, std::span<const double> x, double rho, std::span<double> Me);

/// Lumped nodal masses m[a] (n values): row sums of the consistent mass for tet4 and hex8;
/// HRZ (diagonal of the consistent mass scaled to the element's total mass) for tet10 (whose
/// row sums are negative at the corners). Sum of m equals rho * volume in every case.
void mass_lumped(CellType t, std::span<const double> x, double rho, std::span<double> m);

/// Consistent nodal forces of a body force b (force per volume) over a 3D cell: f[3a+i] = int N_a
/// b_i.
void body_force(CellType t, std::span<const double> x, const double* b, std::span<double> f);

/// Consistent nodal forces of a uniform traction t (force per area) on a face (tri3 or quad4, or a
/// line2 edge in 2D-only uses): f[3a+i] = int N_a t_i dA.
void face_traction(CellType t, std::span<const double> x, const double* traction,
                   std::span<double> f);

/// Consistent nodal forces of a pressure p on a face (tri3 or quad4): traction = -p n where n is
/// the face normal given by the right-hand rule on the node order (n = (x1-x0) x (x2-x0) direction
/// for tri3). Faces are oriented so this normal points out of the body (mesh/orient), so a positive
/// pressure pushes inward. Exact for planar faces; integrated with the face's own rule otherwise.
void face_pressure(CellType t, std::span<const double> x, double p, std::span<double> f);

/// Average over the stiffness quadrature points of strain (6, tensor) and linear-elastic stress (6)
/// for element displacements u (3n).
void strain_stress_linear_elastic(CellType t, std::span<const double> x, std::span<const double> u,
                                  double lambda, double mu, double* strain, double* stress);

/// Small strain (6, tensor) and linear-elastic stress (6) of a displacement gradient
/// grad[3*i + j] = du_i / dx_j (what strain_stress_linear_elastic reports, at one point).
void small_strain_stress(const double* grad, double lambda, double mu, double* strain,
                         double* stress);

/// von Mises equivalent stress of a symmetric stress in VTK order.
double von_mises(const double* stress);

// ---- points inside a 3D cell (tet4, tet10, hex8) ----------------------------------------------

/// Physical position p = sum_a N_a(xi) x_a of reference point xi.
void physical_point(CellType t, std::span<const double> x, const double* xi, double* p);

/// Physical shape-function gradients g[3*a + j] = dN_a / dx_j at reference point xi; returns
/// det J there.
double physical_gradients(CellType t, std::span<const double> x, const double* xi, double* g);

/// The reference point xi that the cell's isoparametric map sends to p: Newton's method on
/// x(xi) = p from the reference centre (one step for tet4, a few for hex8 and curved tet10).
/// Returns false, with its last iterate in xi, if the iteration did not converge (a point far
/// outside a curved cell) or met a singular Jacobian.
bool reference_point(CellType t, std::span<const double> x, const double* p, double* xi);

/// How far reference point xi lies outside the reference cell, in reference coordinates:
/// 0 inside or on the boundary; tet: max(-xi_j, sum_j xi_j - 1), hex: max(|xi_j| - 1).
double reference_outside(CellType t, const double* xi);

/// Moves xi to the nearest point (in reference coordinates) of the reference cell.
void clamp_to_reference(CellType t, double* xi);

/// The point of the cell nearest p, for a p outside it: minimises |x(xi) - p| over the reference
/// cell by projected gradient descent (steps projected with clamp_to_reference, backtracked until
/// the distance decreases enough), from xi (a start such as reference_point's iterate; the
/// reference centre if it is not finite). Leaves the minimiser in xi and returns the distance.
/// Exact to round-off for affine cells (the problem is then convex); for curved cells a local
/// minimum near the start.
double nearest_reference_point(CellType t, std::span<const double> x, const double* p, double* xi);

}  // namespace inertia::fe
