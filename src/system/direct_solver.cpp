#include "inertia/system/direct_solver.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

FactorEstimate estimate_cholesky(Mat A) {
  FactorEstimate e;
  PetscBool has_mumps = PETSC_FALSE;
  INERTIA_PETSC(MatGetFactorAvailable(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &has_mumps));
  if (!has_mumps) {
    e.why_not = "this PETSc has no MUMPS";
    return e;
  }
  petsc::Matrix F;
  INERTIA_PETSC(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, F.out()));
  MatFactorInfo info;
  INERTIA_PETSC(MatFactorInfoInitialize(&info));
  try {
    INERTIA_PETSC(MatCholeskyFactorSymbolic(F, A, nullptr, &info));
  } catch (const SolverError& error) {  // collective: MUMPS fails on every rank alike
    e.why_not = cat("MUMPS's analysis failed: ", error.what());
    return e;
  }
  PetscReal flops = 0;
  PetscInt entries = 0, megabytes = 0;
  INERTIA_PETSC(MatMumpsGetRinfog(F, 1, &flops));
  INERTIA_PETSC(MatMumpsGetInfog(F, 20, &entries));
  INERTIA_PETSC(MatMumpsGetInfog(F, 16, &megabytes));
  e.available = true;
  e.flops = flops;
  // INFOG(20): the number of entries, or minus millions of entries when it is large.
  e.factor_entries = entries >= 0 ? static_cast<double>(entries) : -1e6 * entries;
  e.memory_per_rank = 1e6 * static_cast<double>(megabytes);
  return e;
}

SolverChoice choose_solver(Mat A, const char* prefix, LinearSolverChoice choice, double solves,
                           double products_per_solve, const std::string& key, double operators) {
  const char* iterative = "CG + GAMG";
  if (solver_given_in_options(prefix))
    return {false, cat("as -", prefix, "ksp_type/-", prefix, "pc_type say")};
  if (choice == LinearSolverChoice::iterative)
    return {false, cat(iterative, " (", key, ": iterative)")};
  const FactorEstimate f = estimate_cholesky(A);
  if (!f.available) {
    INERTIA_CHECK(choice != LinearSolverChoice::direct, SolverError, key, ": direct, but ",
                  f.why_not);
    return {false, cat(iterative, " (", f.why_not, ")")};
  }
  const std::string factor =
      cat(operators > 1 ? "MUMPS LDL^T, factored per tangent (" : "MUMPS Cholesky, factored once (",
          g3(f.factor_entries / 1e6), "M entries, ", g3(f.flops / 1e9), " GFlop, ",
          g3(f.memory_per_rank / 1e6), " MB on the largest rank");
  if (choice == LinearSolverChoice::direct) return {true, cat(factor, "; ", key, ": direct)")};
  // Memory: the factorisation must leave half of what each rank may use.
  MPI_Comm comm = PETSC_COMM_SELF;
  INERTIA_PETSC(PetscObjectGetComm(reinterpret_cast<PetscObject>(A), &comm));
  const double budget = 0.5 * available_memory_per_rank(comm);
  if (budget > 0 && f.memory_per_rank > budget)
    return {false,
            cat(iterative, " (a factorisation would need ", g3(f.memory_per_rank / 1e6),
                " MB on a rank, more than half of the ", g3(2 * budget / 1e6), " MB available)")};
  // Time, from flop counts and the rates above: the factorisation runs dense kernels (BLAS 3);
  // products with A and triangular sweeps over L are memory-bound.
  MatInfo info;
  INERTIA_PETSC(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  const double ranks = size_of(comm);
  const double product = 2 * info.nz_used / (ranks * sparse_rate);
  const double t_direct = operators * f.flops / (ranks * dense_rate) +
                          solves * 4 * f.factor_entries / (ranks * sparse_rate);
  const double t_iterative =
      (operators * amg_setup_products + solves * products_per_solve) * product;
  const bool direct = t_direct < t_iterative;
  return {direct,
          cat(direct ? factor + "; " : cat(iterative, " ("), "estimated ", g3(t_direct),
              " s direct against ", g3(t_iterative), " s iterative for ", solves, " solves)")};
}

bool solver_given_in_options(const char* prefix) {
  for (const char* what : {"ksp_type", "pc_type"}) {
    const std::string name = cat("-", prefix ? prefix : "", what);
    PetscBool given = PETSC_FALSE;
    INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, name.c_str(), &given));
    if (given) return true;
  }
  return false;
}

void use_mumps_cholesky(KSP ksp) {
  INERTIA_PETSC(KSPSetType(ksp, KSPPREONLY));
  PC pc;
  INERTIA_PETSC(KSPGetPC(ksp, &pc));
  INERTIA_PETSC(PCSetType(pc, PCCHOLESKY));
  INERTIA_PETSC(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  const char* prefix = nullptr;
  INERTIA_PETSC(KSPGetOptionsPrefix(ksp, &prefix));
  const std::string icntl14 = cat("-", prefix ? prefix : "", "mat_mumps_icntl_14");
  PetscBool given = PETSC_FALSE;
  INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, icntl14.c_str(), &given));
  if (!given) INERTIA_PETSC(PetscOptionsSetValue(nullptr, icntl14.c_str(), "50"));
}

double available_memory_per_rank(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  double available = 0;  // bytes
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    double kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") available = 1024 * kilobytes;
  }
  double per_rank = available / ranks_on_node, smallest = 0;
  MPI_Allreduce(&per_rank, &smallest, 1, MPI_DOUBLE, MPI_MIN, comm);
  return smallest;
}

}  // namespace inertia
