#pragma once
/// \file solver_cache.hpp
/// MechanicalSystem's solves with m M + k K + b B (DynamicSystem::solve): one operator and KSP
/// per (m, k, b), built at its first solve and reused until the tangent changes (then refilled,
/// its preconditioner rebuilt). The solver of each: Jacobi-CG for a mass matrix and for
/// mass-dominated operators (k omega_max^2 <= 30 m), a MUMPS factorisation computed once where
/// the automatic choice finds it cheaper for a constant operator (direct_solver.hpp), GAMG
/// otherwise (plain aggregation for moderately stiff operators). A lumped mass alone is a
/// pointwise product. The choices are recorded as notes for the log.

#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "inertia/system/constraint_set.hpp"
#include "inertia/system/dynamic_system.hpp"
#include "inertia/system/system_operators.hpp"

namespace inertia {

class SolverCache {
 public:
  /// The references must outlive the cache.
  SolverCache(MPI_Comm comm, const Assembler& assembler, const ProblemSpec& spec,
              const TermSet& terms, const SystemOperators& operators,
              const ConstraintSet& constraints);
  SolverCache(const SolverCache&) = delete;
  SolverCache& operator=(const SolverCache&) = delete;

  /// Collective. See MechanicalSystem::solve.
  SolveReport solve(double m, double k, Vec r, Vec y, double b, DynamicSystem::Coupling coupling);
  /// The tangent changed: operators with a K or B part are refilled at their next solve.
  void mark_stale();

  /// The highest natural frequency (rad/s), 0 if unknown; the solves each operator will see.
  void set_highest_frequency(double omega) { omega_max_ = omega; }
  void set_expected_solves(double n) { expected_solves_ = n; }
  double expected_solves() const { return expected_solves_; }
  /// True if solves with m M + k K default to Jacobi: k omega_max^2 <= 30 m.
  bool mass_dominated(double m, double k) const;
  /// Iterative solves where k omega_max^2 / m is at most this (Newmark steps up to ~16x the
  /// stable one) build GAMG by plain aggregation (-pc_gamg_agg_nsmooths 0).
  static constexpr double plain_aggregation_limit = 250;
  /// The solver choices made since the last take_notes(), one line each; a note that starts
  /// with the log tag "warning   " is logged as a warning.
  void add_note(std::string note) { notes_.push_back(std::move(note)); }
  std::vector<std::string> take_notes() { return std::exchange(notes_, {}); }

 private:
  struct Solver {
    petsc::Matrix A;
    petsc::Matrix products;  ///< A's BAIJ copy, the Krylov operator of iterative solves
    petsc::Ksp ksp;
    double diagonal = 1;   ///< value on the constrained rows
    bool stale = false;    ///< the tangent changed since A was filled
    bool direct = false;   ///< a MUMPS factorisation (see choose_direct)
    bool checked = false;  ///< a direct solve's residual was checked (the first solve)
  };
  Solver& solver(double m, double k, double b);
  /// Collective. Refills a stale operator and rebuilds its preconditioner.
  void refill(Solver& s, double m, double k, double b);
  /// Collective. The preconditioner (and KSP type) of a new operator.
  void choose_preconditioner(Solver& s, PC pc, double m, double k, double b);
  /// Collective. True if the constant operator A = m M + k K + b B (linear model) is best
  /// solved by a factorisation computed once; records why in the notes.
  bool choose_direct(Mat A, double m, double k, double b);
  /// y = r / (m M) on the free DOFs with a lumped M; the constrained ones keep their values.
  void solve_lumped(double m, Vec r, Vec y);
  /// rhs_free -= (m M + k K + b B)_{free,constrained} y_constrained (into work_).
  void lift(double m, double k, double b, Vec y);
  /// Throws SolverError if the factorisation left a large residual (a singular operator).
  void check_direct(Solver& s, double m, double k, Vec y);

  MPI_Comm comm_;
  const Assembler& assembler_;
  const ProblemSpec& spec_;
  const TermSet& terms_;
  const SystemOperators& operators_;
  const ConstraintSet& constraints_;
  std::map<std::array<double, 3>, Solver> solvers_;
  double expected_solves_ = 0;
  double omega_max_ = 0;  ///< 0: unknown
  std::vector<std::string> notes_;
  std::vector<double> constrained_values_;  ///< scratch
  petsc::Vector work_, work2_, lift_;       ///< scratch, made at the first solve with a KSP
};

}  // namespace inertia
