#pragma once
/// \file log_strain.hpp
/// The Lagrangian logarithmic (Hencky) strain and the stresses conjugate to it: the kinematics of
/// finite-strain laws written in the logarithmic strain space (Miehe, Apel and Lambrecht, CMAME
/// 191, 2002; Code_Aster's GDEF_LOG). Pure functions, no allocation; conventions of
/// fe/hyperelastic.hpp (row-major F and P, A = dP/dF 9x9) and fe/element.hpp (symmetric tensors
/// in VTK order xx yy zz xy yz xz with the tensor shear).
///
/// With C = F^T F = sum_i c_i N_i N_i^T (c_i the squared principal stretches):
///   E = 1/2 ln C = sum_i 1/2 ln c_i N_i N_i^T,
/// and a stress T conjugate to E (T : dE = S : dE_GL, E_GL = (C - I) / 2) gives
///   S = PP : T,  PP = 2 dE / dC,  P = F S,
/// where, in the eigenbasis of C, (PP : X)~_ij = theta_ij X~_ij with the divided differences
/// theta_ij = (ln c_i - ln c_j) / (c_i - c_j) (1 / c_i when c_i = c_j), evaluated so that they
/// are smooth through coincident eigenvalues. A small-strain law T(E) with tangent dT/dE then
/// becomes rotation invariant and reduces to itself as the strains become small; for isotropic
/// laws whose principal axes stay fixed (uniaxial tension, say) T is the Kirchhoff stress and the
/// law's uniaxial response is its small-strain one in the true strain ln(l / l0).
///
/// The tangent dP/dF = dF S + F (PP : dT/dE : PP / 2 : dC + dPP : T) has one part without a
/// simple closed form, the derivative of PP at fixed T: it is taken by central differences of
/// C -> PP(C) : T (a smooth function of C, 12 eigen-decompositions; a numerical tangent as in
/// Miehe, CMAME 134, 1996), accurate to about 1e-10 relative.

namespace inertia::fe {

/// The kinematics at one material point.
struct LogStrain {
  double F[9];  ///< the deformation gradient
  double C[9];  ///< F^T F
  double Q[9];  ///< C's eigenvectors as columns, row-major: Q[3 * i + k] = (N_k)_i
  double c[3];  ///< C's eigenvalues
  double E[6];  ///< 1/2 ln C, VTK order, tensor shear
  double J;     ///< det F
};

/// C's eigen-decomposition and E for F. Throws InvertedElement if det F <= 0 (or not a number).
void log_strain(const double* F, LogStrain& k);

/// Eigenvalues w (ascending) and eigenvectors (columns of Q, row-major) of a symmetric 3x3
/// matrix A (row-major), by cyclic Jacobi rotations, to machine precision.
void symmetric_eigen(const double* A, double* w, double* Q);

/// S = PP : T for the point's C (6 values each).
void log_strain_pullback(const LogStrain& k, const double* T, double* S);

/// The first Piola-Kirchhoff stress P = F (PP : T) (9) and, if A is not null, dP/dF (81) from
/// the stress T conjugate to E (6) and its tangent dTdE (81, full index, both minor symmetries).
void log_strain_stress(const LogStrain& k, const double* T, const double* dTdE, double* P,
                       double* A);

/// The Cauchy stress (F S F^T) / J of a PK1 stress P (6 values, VTK order).
void cauchy_from_pk1(const LogStrain& k, const double* P, double* sigma);

}  // namespace inertia::fe
