#include "inertia/modal/modal.hpp"

#include <slepceps.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "inertia/core/interrupt.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"
#include "inertia/system/direct_solver.hpp"

namespace inertia {

namespace {

PetscErrorCode finalize_slepc() { return SlepcFinalize(); }

/// SLEPc on top of the PETSc session, once; finalised with PETSc.
void ensure_slepc() {
  PetscBool initialized = PETSC_FALSE;
  INERTIA_PETSC(SlepcInitialized(&initialized));
  if (initialized) return;
  INERTIA_PETSC(SlepcInitialize(nullptr, nullptr, nullptr, nullptr));
  INERTIA_PETSC(PetscRegisterFinalize(finalize_slepc));
}

using Eps = petsc::Handle<EPS, EPSDestroy>;

/// SIGTERM or SIGINT during EPSSolve: after every inner solve (a few per Krylov-Schur
/// iteration, which can take minutes), the ranks combine their flags; once one received a
/// signal, the callback fails and EPSSolve returns an error, which compute_modes() turns into
/// Interrupted. A PETSc callback: it returns codes, it throws nothing.
struct InterruptCheck {
  MPI_Comm comm = MPI_COMM_NULL;
  int signal = 0;  ///< the signal any rank received, the same on every rank
  int solves = 0;
};

PetscErrorCode stop_on_signal(KSP, Vec, Vec, void* context) {
  auto& check = *static_cast<InterruptCheck*>(context);
  ++check.solves;
  int signal = interrupt_signal();
  if (MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, check.comm) != MPI_SUCCESS)
    return PETSC_ERR_MPI;
  check.signal = signal;
  return signal ? PETSC_ERR_USER : 0;
}

/// Two eigenvalues of one cluster: both rigid-body modes (round-off next to the element scale
/// omega^2 `scale`), or frequencies equal to `cluster_tolerance` relative.
bool same_frequency(double lambda_a, double lambda_b, double scale) {
  const double rigid = 1e-10 * scale;
  if (std::abs(lambda_a) <= rigid && std::abs(lambda_b) <= rigid) return true;
  const double fa = std::sqrt(std::max(lambda_a, 0.0)), fb = std::sqrt(std::max(lambda_b, 0.0));
  return std::abs(fb - fa) <= cluster_tolerance * std::max(fa, fb);
}

/// Collective. EPSSolve, stopped by SIGTERM or SIGINT (Interrupted); the converged pairs.
PetscInt solve_interruptibly(EPS eps, KSP ksp, MPI_Comm comm) {
  stop_if_interrupted(comm, "during the modal analysis (before SLEPc's solve)");
  InterruptCheck check{comm};
  INERTIA_PETSC(KSPSetPostSolve(ksp, stop_on_signal, &check));
  const PetscErrorCode solved = EPSSolve(eps);
  if (check.signal)
    throw Interrupted(
        check.signal,
        interrupted_message(check.signal,
                            cat("during the modal analysis (SLEPc, after ", check.solves,
                                check.solves == 1 ? " inner solve)" : " inner solves)")));
  INERTIA_PETSC(solved);
  INERTIA_PETSC(KSPSetPostSolve(ksp, nullptr, nullptr));
  PetscInt converged = 0;
  INERTIA_PETSC(EPSGetConverged(eps, &converged));
  return converged;
}

/// Collective. Solves for `count` modes and one more, to see whether the last one asked for
/// has a twin: a truncation through a cluster of equal frequencies (a square section's two
/// bending modes) keeps an arbitrary part of that eigenspace, so the cluster is completed. A
/// cluster running through every converged mode asks for more, doubling the margin. The number
/// of modes to keep; result.iterations and result.cluster_completion set.
int solve_completing_clusters(EPS eps, KSP ksp, MPI_Comm comm, int count, double scale,
                              ModalResult& result) {
  std::vector<double> lambdas;
  PetscInt nev_option = 0, ncv = 0, mpd = 0;  // -eps_ncv and -eps_mpd stay the user's
  INERTIA_PETSC(EPSGetDimensions(eps, &nev_option, &ncv, &mpd));
  for (int extra = 1;; extra *= 2) {
    const auto nev = static_cast<PetscInt>(std::min<PetscInt>(count + extra, result.free_dofs));
    INERTIA_PETSC(EPSSetDimensions(eps, nev, ncv, mpd));
    const PetscInt converged = solve_interruptibly(eps, ksp, comm);
    INERTIA_PETSC(EPSGetIterationNumber(eps, &result.iterations));
    // Fewer than asked: the driver writes those and says so; none: nothing to write.
    INERTIA_CHECK(converged > 0, SolverError, "modal analysis: SLEPc converged none of the ", count,
                  " modes asked for in ", result.iterations,
                  " iterations (more with -eps_max_it, or ask for fewer modes)");
    lambdas.clear();
    for (PetscInt i = 0; i < converged; ++i) {
      PetscScalar kr = 0;
      INERTIA_PETSC(EPSGetEigenvalue(eps, i, &kr, nullptr));
      lambdas.push_back(PetscRealPart(kr));
    }
    std::sort(lambdas.begin(), lambdas.end());
    const int kept = static_cast<int>(std::min<PetscInt>(count, converged));
    int end = kept;
    while (end < converged && same_frequency(lambdas[end - 1], lambdas[end], scale)) ++end;
    if (end < converged || converged < nev || nev == result.free_dofs || kept < count) {
      result.cluster_completion = end - kept;
      return end;
    }
  }
}

/// Collective. r.M r over every DOF and over the free DOFs (r zeroed on the constrained ones).
std::array<double, 2> influence_mass(MechanicalSystem& system, Vec r, Vec mr) {
  PetscScalar total = 0;
  INERTIA_PETSC(VecDot(r, mr, &total));
  petsc::Vector free = system.create_vector(), mfree = system.create_vector();
  INERTIA_PETSC(VecCopy(r, free));
  system.zero_constrained(free);
  system.mult_mass(free, mfree);
  PetscScalar m = 0;
  INERTIA_PETSC(VecDot(free, mfree, &m));
  return {PetscRealPart(total), PetscRealPart(m)};
}

/// Collective. M r for the influence vectors r: the unit translations r_d (0-2), then the unit
/// rotations r_rd about the reference point (3-5), the centre of mass unless `reference_point`;
/// the total and free masses and rotary inertias and the reference point into `result`.
std::array<petsc::Vector, 6> influence_masses(
    MechanicalSystem& system, const std::optional<std::array<double, 3>>& reference_point,
    ModalResult& result) {
  std::array<petsc::Vector, 6> mr;
  const petsc::Vector x = system.assembler().positions();
  for (int d = 0; d < 3; ++d) {
    petsc::Vector r = system.assembler().unit_translation(d);
    mr[d] = system.create_vector();
    system.mult_mass(r, mr[d]);
    const auto [total, free] = influence_mass(system, r, mr[d]);
    result.total_mass[d] = total;
    result.free_mass[d] = free;
    PetscScalar first = 0;  // r_d.M X: the first moment of the mass along d
    INERTIA_PETSC(VecDot(mr[d], x, &first));
    result.reference_point[d] = total > 0 ? PetscRealPart(first) / total : 0.0;
  }
  if (reference_point) result.reference_point = *reference_point;
  for (int d = 0; d < 3; ++d) {
    petsc::Vector r = system.assembler().unit_rotation(d, result.reference_point);
    mr[3 + d] = system.create_vector();
    system.mult_mass(r, mr[3 + d]);
    const auto [total, free] = influence_mass(system, r, mr[3 + d]);
    result.total_rotary_inertia[d] = total;
    result.free_rotary_inertia[d] = free;
  }
  return mr;
}

}  // namespace

ModalResult compute_modes(MechanicalSystem& system, int count,
                          const std::optional<std::array<double, 3>>& reference_point) {
  ensure_slepc();
  const MPI_Comm comm = system.comm();
  ModalResult result;
  // The model has as many modes as free DOFs (every free DOF has mass): ask SLEPc for no more.
  result.asked = count;
  result.free_dofs = system.num_global_dofs() - system.num_constrained_dofs();
  INERTIA_CHECK(result.free_dofs > 0, InputError, "modal analysis: every one of the ",
                system.num_global_dofs(), " DOFs is constrained: there is no mode to compute");
  count = static_cast<int>(std::min<PetscInt>(count, result.free_dofs));
  // K and M with the constrained rows and columns removed: K gets a scaled identity there, M
  // zeros, so the constrained DOFs carry infinite eigenvalues that shift-and-invert never finds.
  petsc::Matrix K = system.create_operator(), M = system.create_operator();
  const double k_diagonal = system.fill_operator(0.0, 1.0, 0.0, K);
  const double m_diagonal = system.fill_operator(1.0, 0.0, 0.0, M);
  const auto constrained = system.constrained_dofs();
  INERTIA_PETSC(MatZeroRowsColumns(M, static_cast<PetscInt>(constrained.size()), constrained.data(),
                                   0.0, nullptr, nullptr));
  const double scale = k_diagonal / m_diagonal;  // omega^2 of the mesh's typical element
  // Shift slightly below zero: K alone is singular whenever the constraints leave a rigid-body
  // mode free (none at all, or only some components, as on a simply supported plate), and
  // K - sigma M then stays definite. Shift-and-invert finds the same eigenvalues either way.
  result.shift = -1e-6 * scale;

  // K - sigma M is symmetric positive definite (sigma < 0): shifted in place, K keeps the flag, so
  // MUMPS factors it as SPD (no pivoting).
  INERTIA_PETSC(MatSetOption(K, MAT_SPD, PETSC_TRUE));
  INERTIA_PETSC(MatSetOption(K, MAT_SPD_ETERNAL, PETSC_TRUE));
  Eps eps;
  INERTIA_PETSC(EPSCreate(comm, eps.out()));
  INERTIA_PETSC(EPSSetOperators(eps, K, M));
  INERTIA_PETSC(EPSSetProblemType(eps, EPS_GHEP));
  INERTIA_PETSC(EPSSetType(eps, EPSKRYLOVSCHUR));
  INERTIA_PETSC(EPSSetDimensions(eps, count, PETSC_DEFAULT, PETSC_DEFAULT));
  INERTIA_PETSC(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  INERTIA_PETSC(EPSSetTarget(eps, result.shift));
  INERTIA_PETSC(EPSSetTolerances(eps, 1e-10, 1000));
  ST st;
  INERTIA_PETSC(EPSGetST(eps, &st));
  INERTIA_PETSC(STSetType(st, STSINVERT));
  INERTIA_PETSC(STSetMatStructure(st, SAME_NONZERO_PATTERN));  // K and M share one pattern
  INERTIA_PETSC(STSetMatMode(st, ST_MATMODE_INPLACE));
  KSP ksp;
  INERTIA_PETSC(STGetKSP(st, &ksp));
  PC pc;
  INERTIA_PETSC(KSPGetPC(ksp, &pc));
  // The inner solve, chosen like the time steps' (system/direct_solver.hpp): Krylov-Schur's
  // subspace holds max(2 N, N + 15) vectors and converges in about two passes, one solve per new
  // vector; CG + GAMG to rtol 1e-12 takes about 1.5 times a time step's products.
  const char* prefix = nullptr;
  INERTIA_PETSC(KSPGetOptionsPrefix(ksp, &prefix));
  const double solves = 2.0 * std::max(2 * count, count + 15);
  const SolverChoice choice = choose_solver(K, prefix ? prefix : "", LinearSolverChoice::automatic,
                                            solves, 1.5 * amg_products_per_solve, "modal");
  result.solver = choice.why;
  if (choice.direct) {
    use_mumps_cholesky(ksp);
  } else {
    INERTIA_PETSC(KSPSetType(ksp, KSPCG));
    INERTIA_PETSC(PCSetType(pc, PCGAMG));  // K carries the rigid-body near-null space
    INERTIA_PETSC(KSPSetTolerances(ksp, 1e-12, 1e-50, PETSC_DEFAULT, 10000));
  }
  INERTIA_PETSC(EPSSetFromOptions(eps));
  count = solve_completing_clusters(eps, ksp, comm, count, scale, result);
  PetscScalar target = 0;
  INERTIA_PETSC(EPSGetTarget(eps, &target));
  result.shift = PetscRealPart(target);

  // M r for the unit translations and rotations r: the participation factors are phi.(M r).
  const std::array<petsc::Vector, 6> mr = influence_masses(system, reference_point, result);

  // The count lowest pairs (SLEPc's order is by distance to the target, not always ascending).
  std::vector<std::pair<double, PetscInt>> order;
  PetscInt converged = 0;
  INERTIA_PETSC(EPSGetConverged(eps, &converged));
  for (PetscInt i = 0; i < converged; ++i) {
    PetscScalar kr = 0;
    INERTIA_PETSC(EPSGetEigenvalue(eps, i, &kr, nullptr));
    order.emplace_back(PetscRealPart(kr), i);
  }
  std::sort(order.begin(), order.end());
  order.resize(static_cast<std::size_t>(count));
  petsc::Vector mphi = system.create_vector();
  for (const auto& [lambda, i] : order) {
    petsc::Vector phi = system.create_vector();
    INERTIA_PETSC(EPSGetEigenvector(eps, i, phi, nullptr));
    system.zero_constrained(phi);
    system.mult_mass(phi, mphi);
    PetscScalar g = 0;
    INERTIA_PETSC(VecDot(phi, mphi, &g));
    INERTIA_CHECK(PetscRealPart(g) > 0, SolverError,
                  "modal analysis: a mode without mass on the free DOFs (eigenvalue ", lambda, ")");
    INERTIA_PETSC(VecScale(phi, 1.0 / std::sqrt(PetscRealPart(g))));
    INERTIA_PETSC(VecGhostUpdateBegin(phi, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecGhostUpdateEnd(phi, INSERT_VALUES, SCATTER_FORWARD));
    Mode mode;
    mode.eigenvalue = lambda;
    // Rigid-body modes sit at round-off level next to the shift and the element scale.
    mode.rigid = std::abs(lambda) <= 1e-10 * scale;
    mode.omega = mode.rigid ? 0.0 : std::sqrt(std::max(lambda, 0.0));
    mode.frequency = mode.omega / (2 * std::numbers::pi);
    system.mult_mass(phi, mphi);
    PetscScalar gm = 0;
    INERTIA_PETSC(VecDot(phi, mphi, &gm));
    mode.generalized_mass = PetscRealPart(gm);
    for (int d = 0; d < 3; ++d) {
      PetscScalar gamma = 0;
      INERTIA_PETSC(VecDot(phi, mr[d], &gamma));
      mode.participation[d] = PetscRealPart(gamma);
      mode.effective_mass[d] = mode.participation[d] * mode.participation[d];
      INERTIA_PETSC(VecDot(phi, mr[3 + d], &gamma));
      mode.participation_rotation[d] = PetscRealPart(gamma);
      mode.effective_mass_rotation[d] =
          mode.participation_rotation[d] * mode.participation_rotation[d];
    }
    result.modes.push_back(mode);
    result.shapes.push_back(std::move(phi));
  }
  return result;
}

}  // namespace inertia
