#pragma once
/// \file newton.hpp
/// Newton's method through PETSc SNES for the implicit schemes on nonlinear systems: solves
/// G(y) = 0 with the Jacobian m M + k K(x) + b B(x), where x is the displacement the scheme
/// associates with the iterate y. The Jacobian keeps the operator's constraint treatment (scaled
/// identity rows), and G's constrained entries are zero, so the prescribed entries of the initial
/// guess never move. Every SNES/KSP option is overridable from the command line (no prefix:
/// -snes_rtol, -snes_linesearch_type, -ksp_type, ...). No exception crosses a PETSc callback.
/// NewtonSolver holds the SNES, its callbacks, the choice of line search and the augmented
/// Lagrangian loop; its parts are one file each: the problem, the report and the lines written
/// about a solve (newton_problem.hpp), the tangents' linear solver (tangent_solver.hpp), the
/// energy line search (incremental_potential.hpp) and the round-off floor (round_off_floor.hpp).
///
/// Linear solves. At the first tangent the solver is chosen as for linear steps
/// (system/direct_solver.hpp: choose_solver, one tangent per Newton iteration, ~4 per step): a
/// MUMPS LDL^T factorisation used as GMRES's preconditioner, factored at each step's first
/// iteration and kept over the step's further iterations while GMRES needs at most
/// max_lagged_iterations with it, or CG + GAMG with a fresh set-up per step.
///
/// Line search. Where the step's residual is the gradient of an incremental potential (no
/// dashpots and no stiffness-proportional damping, whose tangent-dependent C(x) v is not a
/// gradient), every Newton step is cut back along its direction until that potential falls:
///   Phi(y) = 1/2 m y.M y - p.y + (s / cx) (W(x(y)) - f_ext(t).x(y)),  x(y) = x0 + cx y,
/// where W is the stored energy (linear and nonlinear elements), m and s cx = k the Jacobian's
/// coefficients, and p (the terms of G that do not depend on y: momentum of the predictor, the
/// constant parts of the alpha schemes) is recovered once per solve from G(y0), the residual SNES
/// evaluates first (no extra evaluation). Its gradient is G, so Armijo's test on Phi is exact and
/// a trial configuration the elements cannot take (an inverted element: Phi is undefined) is
/// simply cut back. A full step that halves ||G|| is
/// taken as it is (close to the solution Phi's change is below the round-off of its evaluation;
/// ||G|| is not), and a direction that is not one of descent for Phi (an indefinite tangent)
/// backtracks on ||G||. Plasticity and friction (path-dependent forces, no potential): full
/// Newton steps, given up where an iteration after the second raises ||G|| or SNES fails; the
/// solve is then repeated from the same guess with backtracking on ||G|| (a note in the log the
/// first time), and after two such solves in a row the rest of the run backtracks. Near a plastic
/// collapse the first full step raises ||G|| and the next ones converge quadratically, where
/// backtracking cuts every step short (Hill's sphere at 0.98 and 1.0 of its limit pressure: 5 and 6
/// iterations against 20 and 29). Elsewhere (dashpots, stiffness- proportional damping) the
/// critical-point search (the zero of G.dy along the direction) is used, with a backtracking retry
/// for configurations the elements cannot take. A line search given on the command line
/// (-snes_linesearch_type) replaces all of these, with the retry for configurations the elements
/// cannot take.
///
/// Round-off floor. ||G|| cannot fall below the round-off of its evaluation, and that floor is
/// set less by the size of the forces than by the constitutive law's cancellations (the
/// Green-Lagrange strain 1/2 (F^T F - I) with F ~ I keeps only eps of F, so every stress carries
/// about eps times the tangent modulus whatever the load). On the St. Venant-Kirchhoff version of
/// examples/large_deflection/dynamic.yaml, Newton stalls at 7e-11 to 1e-10 in the first step
/// whether dt is 0.01 or 0.00125 s, while eps (||f_int|| + ||m M y|| + ||f_ext||) falls from
/// 9e-15 to 1.2e-15 (a factor 1e4 to 8e4 below it), and at 5e-10 to 1e-9 once the beam is bent.
/// So the floor is measured, not modelled: where a solve stalls (an iteration no longer halves
/// ||G||) the solver evaluates G at y +- delta, delta = relative_probe max(|y|, |x| / cx) on the
/// free entries (x = x0 + cx y the displacement: a dynamic step's acceleration is zero in free
/// flight, round_off_floor.hpp), and
///   floor = ||G(y + delta) + G(y - delta) - 2 G(y)|| / sqrt(6):
/// the second difference's curvature is 1e-16 of G's nonlinear change over the whole of y (below
/// round-off), which leaves three independent round-offs (variances 1 + 1 + 4). Two residual
/// evaluations per measurement, at most one measurement per tenfold fall of ||G|| in a solve,
/// none in a solve that converges at its tolerances.
/// A stall at a residual within floor_factor (10) of the floor is as converged as floating point
/// allows and is accepted (report.at_round_off_floor); a stalled Newton iterate sits at about 1.4
/// times the floor (the round-off of the last two evaluations: 1.1 to 1.7 measured). No fall
/// from the first residual is required: a step that starts near the floor (a halved step, a load
/// step that changes nothing) is converged too, and the measured floor, not a guess, guards the
/// test. The first such solve of a run leaves a warning in the system's solver notes naming the
/// stalled residual, the floor and the tolerance that could not be met. Everything else that
/// stops SNES stays a failure: a stall far above the floor (a St. Venant-Kirchhoff block past
/// its compressive limit load stalls at ||G|| ~ 1 with a floor of 1e-16), a NaN, a failed linear
/// solve, an element that cannot take the configuration (the step controller halves the step).

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/system/dynamic_system.hpp"
#include "inertia/time/incremental_potential.hpp"
#include "inertia/time/newton_problem.hpp"
#include "inertia/time/round_off_floor.hpp"
#include "inertia/time/tangent_solver.hpp"

namespace inertia {

class NewtonSolver {
 public:
  using Problem = NewtonProblem;

  /// Collective. Creates the SNES (Newton with line search) and its Jacobian matrix.
  explicit NewtonSolver(DynamicSystem& system);

  /// The report of the last solve (residual history included).
  const NewtonReport& last_report() const { return last_; }

  /// Relative residual tolerance and iteration limit (before command-line options, which win).
  void set_tolerances(double relative, int max_iterations);

  /// Collective. Solves G(y) = 0 from the initial guess in y. Throws SolverError naming SNES's
  /// reason if it does not converge. Augmented Lagrangian iterations (the system's
  /// augmentation_limit() > 0): once converged, the system updates its multipliers at x(y)
  /// (DynamicSystem::augment) and the solve is repeated from y until the constraints hold to
  /// their tolerance; SolverError if they do not within the limit. The report sums the solves.
  NewtonReport solve(const Problem& problem, Vec y);
  /// Multiplier updates over this solver's solves so far (augmented Lagrangian iterations).
  std::int64_t augmentations() const { return augmentations_; }

  /// Whether the energy line search applies to this problem on this system (see above) and the
  /// command line does not choose another line search.
  bool has_potential(const Problem& problem) const;
  /// Collective, for tests and diagnostics. Prepares Phi for `problem` from the point y0 (p is
  /// recovered there), then Phi(y). Requires has_potential(problem).
  void prepare_potential(const Problem& problem, Vec y0) { potential_.prepare(problem, y0); }
  double potential(Vec y) { return potential_(y); }

 private:
  /// One SNES solve (solve() without the multiplier updates), repeated with backtracking where
  /// full steps fail or a trial point leaves the elements' domain.
  NewtonReport solve_once(const Problem& problem, Vec y);
  /// The line search of a solve (see "Line search" above); sets full_steps_.
  void choose_line_search(bool energy);
  /// Collective. SNESSolve from y and its report (reason, iterations, residuals).
  NewtonReport run_snes(Vec y);
  /// Collective. After `first` failed: the solve again from the step's guess with backtracking
  /// on ||G||; the report counts both.
  NewtonReport retry_backtracking(const NewtonReport& first, Vec y);
  static PetscErrorCode residual_callback(SNES, Vec y, Vec g, void* context);
  static PetscErrorCode jacobian_callback(SNES, Vec y, Mat J, Mat P, void* context);
  static PetscErrorCode line_search_callback(SNESLineSearch, void* context);
  /// SNESConvergedDefault, then a stall at the round-off floor counts as converged.
  static PetscErrorCode convergence_callback(SNES, PetscInt iteration, PetscReal xnorm,
                                             PetscReal step_norm, PetscReal fnorm,
                                             SNESConvergedReason* reason, void* context);
  /// The convergence test's own part: the stall at the floor, full steps that do not converge.
  void test_convergence(SNES snes, PetscInt iteration, PetscReal fnorm,
                        SNESConvergedReason* reason);

  DynamicSystem& system_;
  petsc::Snes snes_;
  petsc::Matrix jacobian_;
  petsc::Vector residual_, x_, guess_;
  IncrementalPotential potential_;
  TangentSolver tangents_;
  /// This solve takes full Newton steps, given up where ||G|| grows after the second iteration.
  bool full_steps_ = false;
  /// Solves in a row whose full steps failed (from 2 on, the run backtracks); whether the first
  /// failure was noted in the log.
  int full_step_failures_ = 0;
  bool full_steps_noted_ = false;
  /// Round-off floor of this solve: the floor, the residuals seen, whether a stall was accepted
  /// at it, whether the run's first acceptance was warned about.
  RoundOffFloor floor_;
  PetscReal first_residual_ = 0, previous_residual_ = 0;
  bool accepted_at_floor_ = false, floor_warned_ = false;
  const Problem* problem_ = nullptr;
  std::exception_ptr error_;
  std::string domain_error_;  ///< the last configuration the elements could not take
  std::vector<PetscReal> history_;
  NewtonReport last_;
  std::int64_t augmentations_ = 0;
};

}  // namespace inertia
