#pragma once
/// \file hyperelastic.hpp
/// Large-deformation (total Lagrangian) material and element kernels for tet4, tet10 and hex8.
///
/// Pure functions: no MPI, no PETSc, no heap allocation, no globals (beyond a constant table of
/// shape-function gradients built on first use). Conventions are those of fe/element.hpp (VTK
/// node order, element DOF 3*a + i, row-major element matrices, symmetric tensors in VTK order
/// xx yy zz xy yz xz with the tensor shear, Lame parameters from E and nu), plus:
/// - the deformation gradient F, the first Piola-Kirchhoff stress P and every other 3x3 matrix
///   are row-major: F[3*i + J] = F_iJ = dx_i / dX_J (lower case: current, upper: reference);
/// - the material tangent A = dP/dF is 9x9 row-major: A[(3*i + J)*9 + 3*k + L] = dP_iJ / dF_kL.
///   Every model here is hyperelastic, so A has major symmetry A_iJkL = A_kLiJ.
///
/// Material models, with eps = sym(F) - I, E = (F^T F - I)/2, J = det F, I1 = tr(F^T F):
/// - linear_elastic (small strain; NOT rotation invariant, kept so every model runs through one
///   code path): W = mu eps:eps + lambda/2 tr(eps)^2, P = 2 mu eps + lambda tr(eps) I,
///   A_iJkL = mu (d_ik d_JL + d_iL d_Jk) + lambda d_iJ d_kL.
/// - corotational (corotated linear elasticity, SOFA's "large" FEM): with the polar decomposition
///   F = R S (R a rotation, S symmetric positive definite),
///   W = mu |S - I|^2 + lambda/2 tr(S - I)^2,  P = R (2 mu (S - I) + lambda tr(S - I) I)
///     = 2 mu (F - R) + lambda tr(S - I) R.
///   Consistent tangent: since dS is symmetric and R^T dR = [w]x skew, d tr S = R : dF and
///   [w]x S + S [w]x = R^T dF - dF^T R, whose axial vector is (tr(S) I - S) w. Hence
///   dP = 2 mu dF + lambda (R : dF) R + (lambda tr(S - I) - 2 mu) R [w]x,
///   w = G^{-1} axial(R^T dF - dF^T R),  G = tr(S) I - S,
///   and for dF = e_k e_L^T: axial(...) = e_L x r_k, r_k the k-th row of R (as a column).
///   G's eigenvalues are the sums s_i + s_j of two distinct singular values of F, so G is
///   positive definite whenever det F > 0: nothing is divided by s_i - s_j and repeated singular
///   values (F = I, pure rotations, uniaxial states) need no special case. R is computed by the
///   scaled Newton iteration X <- (g X + X^{-T} / g) / 2 (Higham), which keeps det X > 0.
///   det F <= 0 (a reflection: no rotation R with S positive definite) throws InvertedElement.
/// - saint_venant_kirchhoff: S = lambda tr(E) I + 2 mu E, P = F S,
///   W = lambda/2 tr(E)^2 + mu E:E,
///   A_iJkL = d_ik S_JL + lambda F_iJ F_kL + mu (F F^T)_ik d_JL + mu F_iL F_kJ.
/// - neo_hookean (compressible): W = mu/2 (I1 - 3) - mu ln J + lambda/2 (ln J)^2,
///   P = mu (F - F^{-T}) + lambda ln J F^{-T},
///   A_iJkL = mu d_ik d_JL + (mu - lambda ln J) Finv_Jk Finv_Li + lambda Finv_Ji Finv_Lk.
///   Throws InvertedElement if det F <= 0.
/// At F = I every model has W = 0, P = 0 and the linear-elastic A, so every element tangent at
/// u = 0 is stiffness_linear_elastic's Ke.
///
/// Element kernels (total Lagrangian, stiffness_rule quadrature: tet4 1 point, tet10 4, hex8
/// 2x2x2), with reference coordinates X and displacements u (3n each), physical reference
/// gradients g_a = grad0 N_a and s_q = w_q det J0_q:
///   F_q = I + sum_a u_a g_a^T,
///   energy  = sum_q s_q W(F_q),
///   f_a,i   = sum_q s_q sum_J P_iJ(F_q) g_a,J            (internal force = d energy / d u),
///   K_ai,bk = sum_q s_q sum_JL g_a,J A_iJkL(F_q) g_b,L   (tangent = d f / d u, symmetric).
/// If det F_q <= 0 at any point (for every model) they throw InvertedElement.

#include <span>
#include <string_view>

#include "inertia/core/error.hpp"
#include "inertia/mesh/cell_type.hpp"

namespace inertia::fe {

/// Lame parameters.
struct Lame {
  double lambda;
  double mu;
};

/// One material law: its case-file name (`materials[].model`), whether it is the small-strain
/// linear law (constant stiffness, f_int = K u), a one-line summary, and its response at a
/// material point (see material_response). Every law is one row of the table in
/// hyperelastic.cpp: adding a law is its response function and its row.
struct MaterialLaw {
  std::string_view name;
  bool linear;
  std::string_view summary;
  double (*response)(Lame lame, const double* F, double* P, double* A);
};

/// Every material law, in the order --help and examples/guide/large_deformation.md list them.
std::span<const MaterialLaw> material_laws();
/// The law called `name`, or null.
const MaterialLaw* find_material_law(std::string_view name);
/// The law called `name`; throws InternalError if there is none (for code and tests).
const MaterialLaw& material_law(std::string_view name);

/// lambda = E nu / ((1 + nu)(1 - 2 nu)), mu = E / (2 (1 + nu)).
Lame lame_from_young_poisson(double young, double poisson);

/// A deformation gradient with det F <= 0 (or not a number) at a quadrature point: the element
/// is inverted. what() is "inverted element (J = <value> at a quadrature point)". A Newton or
/// time-step driver may catch it to cut the step.
class InvertedElement : public SolverError {
 public:
  explicit InvertedElement(double J);
  /// The offending det F.
  double jacobian() const noexcept { return J_; }

 private:
  double J_;
};

// ---- material point ----------------------------------------------------------------------------

/// Strain-energy density W(F) (returned), and if non-null the first Piola-Kirchhoff stress
/// P = dW/dF (9 values) and the tangent A = dP/dF (81 values), for F (9 values, row-major).
/// Throws InvertedElement if det F <= 0 for the corotational and Neo-Hookean models (the
/// linear-elastic and Saint Venant-Kirchhoff laws are defined, if meaningless, for any F).
double material_response(const MaterialLaw& model, Lame lame, const double* F, double* P,
                         double* A = nullptr);

/// Cauchy stress sigma = P F^T / J (6 values, VTK order; the symmetric part is taken, which for
/// the rotation-invariant models is the whole of it).
void cauchy_stress(const double* F, const double* P, double* sigma);

/// Green-Lagrange strain E = (F^T F - I) / 2 (6 values, VTK order, tensor shear).
void green_lagrange_strain(const double* F, double* E);

/// The strain and stress hyperelastic_strain_stress reports, at one material point of
/// deformation gradient F: for linear_elastic its small strain sym(F) - I and stress P, for the
/// other models the Green-Lagrange strain and the Cauchy stress (6 each, VTK order). Throws
/// InvertedElement if det F <= 0.
void material_strain_stress(const MaterialLaw& model, Lame lame, const double* F, double* strain,
                            double* stress);

// ---- element -----------------------------------------------------------------------------------

/// Internal force f (3n) and tangent K (3n x 3n, row-major) of a tet4, tet10 or hex8 element;
/// returns the stored energy. Either output may be an empty span, which skips it (an empty K
/// also skips the material tangents: force only is about half the cost). Throws InvertedElement
/// if det F <= 0 at a quadrature point (outputs are then unspecified), InternalError for other
/// cell types or short spans.
double hyperelastic_force_tangent(CellType t, std::span<const double> X, std::span<const double> u,
                                  const MaterialLaw& model, Lame lame, std::span<double> f,
                                  std::span<double> K);

/// The stored energy alone: sum_q w_q detJ0_q W(F_q).
double hyperelastic_energy(CellType t, std::span<const double> X, std::span<const double> u,
                           const MaterialLaw& model, Lame lame);

/// Plain average over the stiffness quadrature points (as strain_stress_linear_elastic) of the
/// Green-Lagrange strain (6) and the Cauchy stress (6), VTK order. For linear_elastic, the
/// small-strain model, these are its own small strain sym(F) - I and stress P, so the result equals
/// strain_stress_linear_elastic's. Throws InvertedElement like the force kernel.
void hyperelastic_strain_stress(CellType t, std::span<const double> X, std::span<const double> u,
                                const MaterialLaw& model, Lame lame, double* strain,
                                double* stress);

}  // namespace inertia::fe
