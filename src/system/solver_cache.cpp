#include "inertia/system/solver_cache.hpp"

#include <algorithm>
#include <cmath>

#include "inertia/core/text.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

SolverCache::SolverCache(MPI_Comm comm, const Assembler& assembler, const ProblemSpec& spec,
                         const TermSet& terms, const SystemOperators& operators,
                         const ConstraintSet& constraints)
    : comm_(comm),
      assembler_(assembler),
      spec_(spec),
      terms_(terms),
      operators_(operators),
      constraints_(constraints) {}

void SolverCache::mark_stale() {
  for (auto& [key, solver] : solvers_)
    if (key[1] != 0 || key[2] != 0) solver.stale = true;
}

bool SolverCache::mass_dominated(double m, double k) const {
  return omega_max_ > 0 && m > 0 && k >= 0 && k * omega_max_ * omega_max_ <= 30.0 * m;
}

void SolverCache::refill(Solver& s, double m, double k, double b) {
  PC pc = nullptr;
  INERTIA_PETSC(KSPGetPC(s.ksp, &pc));
  s.diagonal = operators_.fill_operator(m, k, b, s.A, pc, constraints_.dofs());
  if (s.products) assembler_.copy_values(s.A, s.products);
  // The preconditioner is rebuilt.
  INERTIA_PETSC(KSPSetOperators(s.ksp, s.products ? s.products.get() : s.A.get(), s.A));
  s.stale = false;
}

SolverCache::Solver& SolverCache::solver(double m, double k, double b) {
  if (!operators_.dashpot_matrix()) b = 0;
  const std::array<double, 3> key{m, k, b};
  if (auto it = solvers_.find(key); it != solvers_.end()) {
    if (it->second.stale) refill(it->second, m, k, b);
    return it->second;
  }
  const bool linear = terms_.linear();
  Solver s;
  s.A = operators_.create_operator();
  s.diagonal = operators_.fill_operator(m, k, b, s.A, nullptr, constraints_.dofs());
  if (linear || (k == 0 && b == 0)) INERTIA_PETSC(MatSetOption(s.A, MAT_SPD, PETSC_TRUE));

  INERTIA_PETSC(KSPCreate(comm_, s.ksp.out()));
  INERTIA_PETSC(KSPSetOperators(s.ksp, s.A, s.A));
  PC pc;
  INERTIA_PETSC(KSPGetPC(s.ksp, &pc));
  // CG for the symmetric positive definite operators of linear models; GMRES where a nonlinear
  // tangent may be indefinite (compressed springs, buckling).
  INERTIA_PETSC(KSPSetType(s.ksp, linear || (k == 0 && b == 0) ? KSPCG : KSPGMRES));
  choose_preconditioner(s, pc, m, k, b);
  // A mass matrix's CG cannot diverge; its initial guess (the last step's acceleration) can be
  // 1e4 times the answer where a contact force vanishes between steps (a shell node bouncing off
  // a wall), which PETSc's divergence test (against the right-hand side) would call diverged.
  const double divergence = k == 0 && b == 0 ? 1e300 : PETSC_DEFAULT;
  INERTIA_PETSC(KSPSetTolerances(s.ksp, 1e-10, 1e-50, divergence, 10000));
  INERTIA_PETSC(KSPSetFromOptions(s.ksp));
  // The previous solution is a good initial guess, except for direct solves.
  PetscBool preonly = PETSC_FALSE;
  INERTIA_PETSC(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(s.ksp.get()), KSPPREONLY, &preonly));
  INERTIA_PETSC(KSPSetInitialGuessNonzero(s.ksp, preonly ? PETSC_FALSE : PETSC_TRUE));
  if (!preonly && !terms_.coupled()) {
    // Krylov iterations multiply by a BAIJ(3) copy of the operator (a third of the index data:
    // ~1.5x faster products); the preconditioner is built from the AIJ original, which every
    // PETSc preconditioner takes. One more matrix in memory, ~2/3 of the AIJ one.
    s.products = assembler_.create_matrix(Assembler::MatrixFormat::blocked);
    assembler_.copy_values(s.A, s.products);
    INERTIA_PETSC(KSPSetOperators(s.ksp, s.products, s.A));
  }
  INERTIA_PETSC(KSPSetUp(s.ksp));
  return solvers_.emplace(key, std::move(s)).first->second;
}

void SolverCache::choose_preconditioner(Solver& s, PC pc, double m, double k, double b) {
  const bool linear = terms_.linear();
  if (k == 0 && b == 0) {
    // A mass matrix: Jacobi-preconditioned CG converges in a few iterations.
    INERTIA_PETSC(KSPSetOptionsPrefix(s.ksp, "mass_"));
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
  } else if (mass_dominated(m, k) && b == 0) {
    // m M + k K with k omega_max^2 <= 30 m: the condition number is at most about 31 times
    // the mass matrix's, so Jacobi-CG needs a few tens of cheap iterations and no AMG setup.
    INERTIA_PETSC(PCSetType(pc, PCJACOBI));
  } else if (linear && choose_direct(s.A, m, k, b)) {
    use_mumps_cholesky(s.ksp);
    s.direct = true;
  } else {
    INERTIA_PETSC(PCSetType(pc, PCGAMG));
    // Moderately stiff operators (k omega_max^2 <= 250 m: Newmark steps up to ~16x the stable
    // one; see plain_aggregation_limit) take plain aggregation: a third of smoothed aggregation's
    // set-up and cheaper iterations outweigh the extra ones. Measured on 206,763 DOFs of hex8
    // (examples/guide/large_runs.md, "Hot paths"): plain wins at 10x and 15x the stable step, loses
    // at 20x (251 iterations against 196 over 10 steps) and more so beyond.
    const double stiffness = omega_max_ > 0 && m > 0 ? k * omega_max_ * omega_max_ / m : INFINITY;
    if (stiffness <= plain_aggregation_limit) {
      INERTIA_PETSC(PCGAMGSetNSmooths(pc, 0));
      PetscBool given = PETSC_FALSE;
      INERTIA_PETSC(PetscOptionsHasName(nullptr, nullptr, "-pc_gamg_agg_nsmooths", &given));
      if (linear && !notes_.empty() && !solver_given_in_options("") && !given)
        notes_.back() += cat("; plain aggregation (k omega_max^2 / m = ", std::lround(stiffness),
                             " <= ", plain_aggregation_limit, ")");
    }
  }
}

bool SolverCache::choose_direct(Mat A, double m, double k, double b) {
  const std::string what = cat(m, " M + ", k, " K", b != 0 ? cat(" + ", b, " B") : "", " (",
                               assembler_.num_global_dofs(), " DOFs): ");
  const SolverChoice choice =
      choose_solver(A, "", spec_.linear_solver, std::max(1.0, expected_solves_),
                    amg_products_per_solve, "time.linear_solver");
  notes_.push_back(what + choice.why);
  return choice.direct;
}

void SolverCache::solve_lumped(double m, Vec r, Vec y) {
  // Diagonal mass: a pointwise product on the free DOFs (the constrained ones keep theirs).
  const std::size_t nc = constraints_.dofs().size();
  petsc::ConstArray rr(r), w(operators_.inverse_mass());
  petsc::Array yy(y);
  constrained_values_.resize(nc);
  for (std::size_t i = 0; i < nc; ++i) constrained_values_[i] = yy[constraints_.local(i)];
  const double scale = 1.0 / m;
  const PetscInt n = rr.size();
  double* __restrict out = yy.span().data();
  const double* __restrict in = rr.span().data();
  const double* __restrict inv = w.span().data();
  for (PetscInt i = 0; i < n; ++i) out[i] = scale * in[i] * inv[i];
  for (std::size_t i = 0; i < nc; ++i) yy[constraints_.local(i)] = constrained_values_[i];
}

void SolverCache::lift(double m, double k, double b, Vec y) {
  INERTIA_PETSC(VecZeroEntries(work2_));
  {
    petsc::ConstArray yy(y);
    petsc::Array w(work2_);
    for (std::size_t i = 0; i < constraints_.dofs().size(); ++i)
      w[constraints_.local(i)] = yy[constraints_.local(i)];
  }
  if (!lift_) lift_ = assembler_.create_vector();
  if (k != 0) {
    operators_.mult_stiffness(work2_, lift_);
    INERTIA_PETSC(VecAXPY(work_, -k, lift_));
  }
  if (b != 0 && operators_.dashpot_matrix()) {
    operators_.mult_dashpot(work2_, lift_);
    INERTIA_PETSC(VecAXPY(work_, -b, lift_));
  }
  operators_.mult_mass(work2_, lift_);
  INERTIA_PETSC(VecAXPY(work_, -m, lift_));
}

void SolverCache::check_direct(Solver& s, double m, double k, Vec y) {
  // A factorisation of a singular operator (a body the constraints leave free to move)
  // returns a finite, wrong solution where an iterative solve fails: the first solve with
  // each factorisation checks its residual (one product).
  PetscReal rhs = 0, residual = 0;
  INERTIA_PETSC(MatMult(s.A, y, work2_));
  INERTIA_PETSC(VecAXPY(work2_, -1.0, work_));
  INERTIA_PETSC(VecNorm(work2_, NORM_2, &residual));
  INERTIA_PETSC(VecNorm(work_, NORM_2, &rhs));
  if (!(residual <= 1e-6 * rhs))
    throw SolverError(cat("the operator ", m, " M + ", k,
                          " K is singular (its factorisation "
                          "leaves a relative residual of ",
                          residual / rhs,
                          "): the constraints leave the body free to move (a static problem "
                          "needs supports against every rigid-body motion)"));
  s.checked = true;
}

SolveReport SolverCache::solve(double m, double k, Vec r, Vec y, double b,
                               DynamicSystem::Coupling coupling) {
  SolveReport report;
  if (k == 0 && (b == 0 || !operators_.dashpot_matrix()) && operators_.lumped_mass()) {
    solve_lumped(m, r, y);
    return report;
  }
  Solver& s = solver(m, k, b);
  if (!work_) work_ = assembler_.create_vector(), work2_ = assembler_.create_vector();
  INERTIA_PETSC(VecCopy(r, work_));
  // Lift the prescribed values: rhs_free -= (m M + k K)_{free,constrained} y_constrained.
  if (constraints_.has_prescribed_motion() && coupling == DynamicSystem::Coupling::lift)
    lift(m, k, b, y);
  const std::size_t nc = constraints_.dofs().size();
  constrained_values_.resize(nc);
  {
    petsc::ConstArray yy(y);
    petsc::Array w(work_);
    for (std::size_t i = 0; i < nc; ++i) {
      constrained_values_[i] = yy[constraints_.local(i)];
      w[constraints_.local(i)] = s.diagonal * constrained_values_[i];
    }
  }
  INERTIA_PETSC(KSPSolve(s.ksp, work_, y));
  {
    // An iterative solve reproduces the constrained values only to its tolerance: restore them.
    petsc::Array yy(y);
    for (std::size_t i = 0; i < nc; ++i) yy[constraints_.local(i)] = constrained_values_[i];
  }
  if (s.direct && !s.checked) check_direct(s, m, k, y);
  KSPConvergedReason reason;
  INERTIA_PETSC(KSPGetConvergedReason(s.ksp, &reason));
  INERTIA_PETSC(KSPGetIterationNumber(s.ksp, &report.iterations));
  INERTIA_PETSC(KSPGetResidualNorm(s.ksp, &report.residual));
  if (reason < 0)
    throw SolverError(cat("linear solve diverged (KSP reason ", KSPConvergedReasons[reason],
                          " after ", report.iterations, " iterations, residual ", report.residual,
                          "); try other -ksp_type/-pc_type options or a smaller time step"));
  return report;
}

}  // namespace inertia
