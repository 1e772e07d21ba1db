#pragma once
/// \file dynamic_system.hpp
/// The system as the time integrators see it: exactly the operations src/time/*.cpp calls
/// (schemes, their shared helpers, the step controller and Newton), nothing more. MechanicalSystem
/// (mechanical_system.hpp) is the implementation a run uses; a scheme's unit test runs on a
/// one-DOF implementation (tests/support/one_dof_system.hpp), with no mesh and no case file.
///
/// The equation of motion, in SOFA's vocabulary:
///   M a + C v + f_int(u) + f_dashpot(u, v) = f_ext(t),   C = alpha_M M + alpha_K K(u),
/// with K(u) the tangent of f_int at the linearisation point (update_tangent) and B that of
/// f_dashpot with respect to v. Constrained DOFs follow a prescribed motion g(t); solves act on
/// the free DOFs (mechanical_system.hpp describes the constraint treatment).
///
/// An implementation's contract, beyond each method's comment: while is_linear(), f_int(u) = K u
/// with a constant K and there are no dashpots (the schemes' linear paths use mult_stiffness in
/// place of the internal force and ignore B); otherwise the schemes use Newton (NewtonSolver),
/// which needs create_operator / fill_operator.
///
/// It lives in the system module (below time) so that MechanicalSystem can implement it without
/// a dependency pointing up.

#include <mpi.h>

#include <string>

#include "inertia/parallel/petsc.hpp"
#include "inertia/system/problem.hpp"

namespace inertia {

/// What a linear solve did.
struct SolveReport {
  PetscInt iterations = 0;
  double residual = 0;
};

class DynamicSystem {
 public:
  virtual ~DynamicSystem() = default;

  virtual MPI_Comm comm() const = 0;
  /// A zeroed vector with the DOF layout (ghosted for a distributed system).
  virtual petsc::Vector create_vector() const = 0;
  virtual PetscInt num_global_dofs() const = 0;
  /// Rayleigh coefficients alpha_M, alpha_K of C.
  virtual const RayleighDamping& rayleigh() const = 0;

  /// True while f_int(u) = K u with a constant K and there are no dashpots.
  virtual bool is_linear() const = 0;
  /// True if B (the dashpots' tangent with respect to v) is not zero.
  virtual bool has_dashpots() const = 0;
  /// True if a term has friction: the forces are not the gradient of an energy.
  virtual bool has_friction() const { return false; }
  /// True if a solid is plastic (its state depends on the path: static load steps start from a
  /// predictor, see static.hpp).
  virtual bool has_plasticity() const { return false; }
  /// Collective. Linearises at u: K(u) (and B) are used by mult_stiffness, mult_damping, solve
  /// and fill_operator until the next call. A no-op for linear systems.
  virtual void update_tangent(Vec u) = 0;

  /// y = M x, y = K x (tangent), y = C x (Rayleigh). Collective.
  virtual void mult_mass(Vec x, Vec y) const = 0;
  virtual void mult_stiffness(Vec x, Vec y) const = 0;
  virtual void mult_damping(Vec x, Vec y) const = 0;

  /// f_ext(t). Collective.
  virtual void external_force(double t, Vec f) const = 0;
  /// f(t, u, v) = f_ext(t) - f_int(u) - f_dashpot(u, v) (no Rayleigh damping). Collective.
  virtual void force(double t, Vec u, Vec v, Vec f) const = 0;
  /// Collective. The explicit schemes' hot path: where the system can, a = M^{-1} f(t, u) on the
  /// free DOFs and 0 on the constrained ones in one pass, returning true; false (doing nothing)
  /// where it cannot (then the schemes solve with M).
  virtual bool lumped_acceleration(double t, Vec u, Vec a) const = 0;
  /// The lumped masses if M is lumped (mass solves are pointwise), null otherwise.
  virtual Vec lumped_mass() const = 0;

  /// Sets the constrained DOFs of u, v, a (each may be null) to g(t), g'(t), g''(t).
  virtual void apply_constraints(double t, Vec u, Vec v, Vec a) const = 0;
  /// The constrained entries of a Newmark-type predictor's increments du, dv over a step h from
  /// t0 to t1 (t0 + h, or the run's n dt: State::after) (MechanicalSystem::prescribe_increments);
  /// the free entries are left as they are.
  virtual void prescribe_increments(double t0, double t1, double h, double beta, double gamma,
                                    Vec du, Vec dv) const = 0;
  /// Zeroes the constrained entries of r; keep_constrained zeroes the free ones.
  virtual void zero_constrained(Vec r) const = 0;
  virtual void keep_constrained(Vec r) const = 0;
  /// True if some constrained DOF moves (a displacement, velocity or acceleration condition): a
  /// solve's prescribed values then couple into the free rows (solve's Coupling).
  virtual bool has_prescribed_motion() const = 0;
  /// y += s x on the constrained DOFs; the free entries of y are left as they are. No product.
  virtual void add_constrained(double s, Vec x, Vec y) const = 0;

  /// How solve treats the coupling of the prescribed values y_c into the free rows:
  /// `lift`: solve subtracts (m M + k K + b B)_{free,constrained} y_c from r itself (two or
  /// three products with a vector that is zero on the free DOFs, when has_prescribed_motion());
  /// `in_rhs`: r's free rows already carry it. A scheme that multiplies by M and K for its
  /// right-hand side anyway folds it into those products: M (p + m y_c) and K (q + k y_c)
  /// (add_constrained), so that a moving support costs no product of its own.
  enum class Coupling { lift, in_rhs };
  /// Collective. Solves (m M + k K + b B) y = r for the free DOFs of y; the constrained DOFs of
  /// y hold their prescribed values on entry and keep them; r's constrained rows are ignored.
  /// Throws SolverError if it fails.
  virtual SolveReport solve(double m, double k, Vec r, Vec y, double b = 0,
                            Coupling coupling = Coupling::lift) = 0;

  /// Newton's Jacobians: a matrix with the operator's pattern; A = m M + k K + b B at the
  /// current linearisation with the constrained rows and columns a scaled identity (returns
  /// the diagonal value); the near-null space of A at configuration x for AMG (may do nothing).
  /// A's pattern may change from one fill to the next (contact between bodies): `pc`, the
  /// preconditioner built from A if any, is then reset, so that it is built anew.
  virtual petsc::Matrix create_operator() const = 0;
  virtual double fill_operator(double m, double k, double b, Mat A, PC pc = nullptr) const = 0;
  virtual void attach_near_null_space(Mat A, Vec x) const = 0;
  /// The case's choice of linear solver, the number of solves the run expects (0: unknown),
  /// and where solver choices are recorded for the log.
  virtual LinearSolverChoice linear_solver() const = 0;
  virtual double expected_solves() const = 0;
  virtual void add_solver_note(std::string note) = 0;

  /// The stored elastic energy at u (Newton's energy line search, the variational Hamiltonian).
  virtual double strain_energy(Vec u) const = 0;

  /// Collective. The step that ended at u is accepted: the history variables at quadrature
  /// points (point_state.hpp) take their values at u. May throw SolverError (the step is then
  /// retried like a failed solve). Nothing to do for a system without history.
  virtual void commit_step(Vec u) { (void)u; }
  /// The step being tried failed and will be retried: its trial history is discarded.
  virtual void reject_step() {}
  /// Collective, after commit_step of an accepted step at (u, v): cells that meet their
  /// material's failure criterion erode (system/erosion.hpp); returns how many did (0: the
  /// model is unchanged; otherwise the integrator continues with the new masses and forces,
  /// Integrator::model_changed).
  virtual std::int64_t erode(Vec u, Vec v) {
    (void)u, (void)v;
    return 0;
  }

  /// Augmented Lagrangian iterations (contact with `augmented`): the largest number of
  /// multiplier updates per Newton solve (0: none, the default). Newton repeats a converged
  /// solve after augment(u, t) has updated the multipliers until it returns <= 1.
  /// Rigid bodies (rigid_bodies.hpp), moved by central difference's steps; collective. Whether
  /// there are some; their start (the mass properties; with `fresh`, the nodes' initial v); their
  /// load from the accelerations a; the step from t by h (the nodes' u and half-step velocity);
  /// the whole-step velocities from the accelerations at t1 (the nodes' v and a).
  virtual bool has_rigid_bodies() const { return false; }
  virtual void start_rigid_bodies(Vec v, bool fresh) { (void)v, (void)fresh; }
  virtual void load_rigid_bodies(Vec a) { (void)a; }
  virtual void advance_rigid_bodies(double t, double h, double kick, Vec u, Vec v_half) {
    (void)t, (void)h, (void)kick, (void)u, (void)v_half;
  }
  virtual void finish_rigid_bodies(double t1, double h, Vec a, Vec v) {
    (void)t1, (void)h, (void)a, (void)v;
  }
  virtual int augmentation_limit() const { return 0; }
  /// Collective. At the displacement u of a converged solve at time t: the largest constraint
  /// violation over its tolerance, over all terms and ranks; where it is above 1, the
  /// multipliers are updated (the forces at u change). `inertia`: the solve's m / k (ForceTerm::
  /// augment).
  virtual double augment(Vec u, double t, double inertia) {
    (void)u, (void)t, (void)inertia;
    return 0;
  }

 protected:
  DynamicSystem() = default;
  DynamicSystem(const DynamicSystem&) = default;
  DynamicSystem& operator=(const DynamicSystem&) = default;
};

}  // namespace inertia
