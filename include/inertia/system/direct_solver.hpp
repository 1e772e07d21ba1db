#pragma once
/// \file direct_solver.hpp
/// Sparse direct Cholesky factorisation with MUMPS (in Debian's PETSc): what a factorisation of
/// an operator would cost before it is computed (MUMPS's analysis: the ordering, the factor's
/// size, its flops, its memory per rank), the choice between it and CG + GAMG, a KSP set up to
/// factor once and reuse, and the memory a rank may use. The implicit solvers
/// (system/solver_cache.cpp, time/tangent_solver.cpp) and the modal analysis (modal/modal.cpp)
/// choose with these.

#include <mpi.h>

#include <string>

#include "inertia/parallel/petsc.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

/// The cost model of the automatic choice (examples/guide/large_runs.md, "Hot paths",
/// *Implicit linear steps*), per rank: flop rates
/// of a numeric factorisation (dense BLAS 3 kernels, OpenBLAS) and of memory-bound sparse
/// products and triangular solves, and an AMG-preconditioned CG solve's cost in products with
/// the operator (its set-up, and one solve: ~30 iterations of ~12 products each). Measured on a
/// 2-core machine (examples/guide/modal.md, large_runs.md); the choice only needs them within a
/// factor of two or so.
inline constexpr double dense_rate = 5e9;              ///< flop/s per rank, factorisation
inline constexpr double sparse_rate = 1e9;             ///< flop/s per rank, products and sweeps
inline constexpr double amg_setup_products = 300;      ///< GAMG set-up, in products with A
inline constexpr double amg_products_per_solve = 360;  ///< one CG + GAMG solve

/// MUMPS's analysis of a Cholesky factorisation of A (symmetric; SPD if flagged MAT_SPD).
struct FactorEstimate {
  bool available = false;      ///< false: no MUMPS in this PETSc, or the analysis failed
  std::string why_not;         ///< if !available
  double flops = 0;            ///< the numeric factorisation's flops (RINFOG(1), all ranks)
  double factor_entries = 0;   ///< entries of L (INFOG(20), all ranks)
  double memory_per_rank = 0;  ///< bytes MUMPS will allocate on its largest rank (INFOG(16))
};

/// Collective. Runs MUMPS's analysis (ordering and symbolic factorisation, no numeric work) of a
/// Cholesky factorisation of A, and discards it.
FactorEstimate estimate_cholesky(Mat A);

/// Which solver to use for a constant SPD operator A that will be solved `solves` times, and
/// why (one line for the log).
struct SolverChoice {
  bool direct = false;  ///< a MUMPS Cholesky factorisation computed once (use_mumps_cholesky)
  std::string why;      ///< e.g. "MUMPS Cholesky, factored once (...; estimated ...)"
};

/// Collective. The choice for A: CG + GAMG if -<prefix>ksp_type or -<prefix>pc_type is given
/// (the options decide) or `choice` is iterative; the factorisation if `choice` is direct (an
/// error without MUMPS); otherwise (automatic) MUMPS's analysis of A decides: the factorisation
/// unless it would need more than half of a rank's available memory or its estimated time (the
/// factorisation, then two triangular sweeps per solve) exceeds CG + GAMG's (an AMG set-up, then
/// `products_per_solve` products with A per solve). `key` names the case-file key in the reasons.
/// `operators`: how many different operators with A's pattern the solves see (Newton's
/// tangents: one per iteration): each costs a numeric factorisation or an AMG set-up.
SolverChoice choose_solver(Mat A, const char* prefix, LinearSolverChoice choice, double solves,
                           double products_per_solve, const std::string& key, double operators = 1);

/// Collective. ksp solves by a MUMPS Cholesky factorisation of its operator (preonly), computed
/// at set-up and reused by every solve until the operator changes. MUMPS's workspace margin
/// (ICNTL(14)) is raised to 50 % unless the options database sets it for this KSP's prefix:
/// 20 %, the default, fell short (INFOG(1) = -9) on 2 and 3 ranks. Call before KSPSetFromOptions.
void use_mumps_cholesky(KSP ksp);

/// Collective. The memory available to each rank: the smallest, over the nodes, of the node's
/// available memory (MemAvailable) divided by the number of ranks on it; 0 if unknown.
double available_memory_per_rank(MPI_Comm comm);

/// True if the options database names a -ksp_type or -pc_type for this prefix ("" or e.g.
/// "mass_"): the user chose the solver.
bool solver_given_in_options(const char* prefix);

}  // namespace inertia
