#pragma once
// A mass on a spring and a dashpot attached to a support, as a DynamicSystem with no mesh and no
// case file (MFEM's test_ode2 is the model): serial PETSc vectors on PETSC_COMM_SELF, so the time
// integrators run on it exactly as on a mesh. Two DOFs:
//   0  the mass m (free), loaded by f(t) = F sin(Omega t);
//   1  the support (constrained), at g(t) = G sin(Omega_g t) (G = 0: fixed), mass m_s.
// The spring's force on the mass, with extension e = u_0 - u_1 and rate de = v_0 - v_1:
//   k e + k3 e^3 (k3 != 0: a nonlinear spring, solved with Newton) and the dashpot's c de.
// Rayleigh damping C = alpha_M M + alpha_K K(u). `newton` marks a linear spring as nonlinear, so
// the schemes take their Newton paths on a problem whose answer is their linear recurrence.
// `lumped`: M is lumped (the explicit schemes' pointwise path, lumped_acceleration) or not (they
// solve with M).
#include <petscmat.h>
#include <petscvec.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/system/dynamic_system.hpp"

namespace inertia::test {

struct OneDofParams {
  double m = 2, k = 8;        ///< mass and linear stiffness (omega = 2)
  double k3 = 0;              ///< cubic stiffness
  double c = 0;               ///< dashpot
  RayleighDamping rayleigh;   ///< alpha_M, alpha_K
  double F = 0, Omega = 1.3;  ///< load F sin(Omega t) on the mass
  double G = 0, Omega_g = 3;  ///< support motion G sin(Omega_g t)
  double m_support = 5;
  bool newton = false;  ///< take the nonlinear (Newton) paths even for a linear spring
  bool lumped = true;
};

/// Entry i of a serial vector.
inline double entry(Vec x, int i) {
  petsc::ConstArray a(x);
  return a.span()[i];
}
inline void set_entry(Vec x, int i, double value) {
  petsc::Array a(x);
  a.span()[i] = value;
}

class OneDofSystem final : public DynamicSystem {
 public:
  explicit OneDofSystem(const OneDofParams& p) : p_(p) {
    mass_ = create_vector();
    set_entry(mass_, 0, p.m);
    set_entry(mass_, 1, p.m_support);
  }

  const OneDofParams& params() const { return p_; }
  /// Prescribed support motion and its derivatives.
  double g(double t) const { return p_.G * std::sin(p_.Omega_g * t); }
  double dg(double t) const { return p_.G * p_.Omega_g * std::cos(p_.Omega_g * t); }
  double ddg(double t) const { return -p_.G * p_.Omega_g * p_.Omega_g * std::sin(p_.Omega_g * t); }
  double load(double t) const { return p_.F * std::sin(p_.Omega * t); }
  /// The spring's force and tangent at extension e.
  double spring(double e) const { return p_.k * e + p_.k3 * e * e * e; }
  double spring_tangent(double e) const { return p_.k + 3 * p_.k3 * e * e; }
  /// The linearisation point's extension (update_tangent).
  double linearised_extension() const { return e_lin_; }
  std::vector<std::string> notes;  ///< add_solver_note's lines
  int solves = 0;                  ///< calls of solve()
  /// Products with M and K as MechanicalSystem makes them (PETSc's MatMult): mult_mass unless M
  /// is lumped (then pointwise), mult_stiffness, mult_damping's terms, one K u in force() and
  /// lumped_acceleration(), and solve's lift of a moving support (Coupling::lift). Mutable: the
  /// products are const operations.
  mutable int mass_products = 0, stiffness_products = 0;
  int fail_solve = 0;           ///< this call of solve() (1-based) throws SolverError
  std::vector<double> commits;  ///< u at each commit_step (the accepted steps' ends)
  int rejects = 0;              ///< calls of reject_step()
  /// Every time the loads, the forces or the prescribed motion were evaluated at.
  mutable std::vector<double> times;

  MPI_Comm comm() const override { return PETSC_COMM_SELF; }
  petsc::Vector create_vector() const override {
    petsc::Vector v;
    INERTIA_PETSC(VecCreateSeq(PETSC_COMM_SELF, 2, v.out()));
    INERTIA_PETSC(VecZeroEntries(v));
    return v;
  }
  PetscInt num_global_dofs() const override { return 2; }
  const RayleighDamping& rayleigh() const override { return p_.rayleigh; }
  bool is_linear() const override { return !p_.newton && p_.k3 == 0 && p_.c == 0; }
  bool has_dashpots() const override { return p_.c != 0; }
  void update_tangent(Vec u) override {
    if (!is_linear()) e_lin_ = entry(u, 0) - entry(u, 1);
  }

  void mult_mass(Vec x, Vec y) const override {
    if (!p_.lumped) ++mass_products;
    INERTIA_PETSC(VecPointwiseMult(y, mass_, x));
  }
  void mult_stiffness(Vec x, Vec y) const override {
    ++stiffness_products;
    const double kt = spring_tangent(e_lin_), d = entry(x, 0) - entry(x, 1);
    set_pair(y, kt * d, -kt * d);
  }
  void mult_damping(Vec x, Vec y) const override {
    const double kt = spring_tangent(e_lin_), d = entry(x, 0) - entry(x, 1);
    const auto [am, ak] = p_.rayleigh;
    if (am != 0 && !p_.lumped) ++mass_products;
    if (ak != 0) ++stiffness_products;
    set_pair(y, am * p_.m * entry(x, 0) + ak * kt * d,
             am * p_.m_support * entry(x, 1) - ak * kt * d);
  }
  void external_force(double t, Vec f) const override {
    times.push_back(t);
    set_pair(f, load(t), 0);
  }
  void force(double t, Vec u, Vec v, Vec f) const override {
    times.push_back(t);
    ++stiffness_products;
    const double e = entry(u, 0) - entry(u, 1), de = entry(v, 0) - entry(v, 1);
    const double s = spring(e) + p_.c * de;
    set_pair(f, load(t) - s, s);
  }
  bool lumped_acceleration(double t, Vec u, Vec a) const override {
    times.push_back(t);
    if (!p_.lumped || !is_linear()) return false;
    ++stiffness_products;
    set_pair(a, (load(t) - spring(entry(u, 0) - entry(u, 1))) / p_.m, 0);
    return true;
  }
  Vec lumped_mass() const override { return p_.lumped ? mass_.get() : nullptr; }

  void apply_constraints(double t, Vec u, Vec v, Vec a) const override {
    times.push_back(t);
    if (u) set_entry(u, 1, g(t));
    if (v) set_entry(v, 1, dg(t));
    if (a) set_entry(a, 1, ddg(t));
  }
  void prescribe_increments(double t0, double t1, double h, double beta, double gamma, Vec du,
                            Vec dv) const override {
    times.push_back(t0);
    times.push_back(t1);
    set_entry(du, 1, g(t1) - h * h * beta * ddg(t1) - g(t0));
    set_entry(dv, 1, dg(t1) - h * gamma * ddg(t1) - dg(t0));
  }
  void commit_step(Vec u) override { commits.push_back(entry(u, 0)); }
  void reject_step() override { ++rejects; }
  void zero_constrained(Vec r) const override { set_entry(r, 1, 0); }
  void keep_constrained(Vec r) const override { set_entry(r, 0, 0); }

  bool has_prescribed_motion() const override { return p_.G != 0; }
  void add_constrained(double s, Vec x, Vec y) const override {
    set_entry(y, 1, entry(y, 1) + s * entry(x, 1));
  }
  SolveReport solve(double m, double k, Vec r, Vec y, double b = 0,
                    Coupling coupling = Coupling::lift) override {
    if (++solves == fail_solve) throw SolverError("the failure the test asked for");
    const auto A = matrix(m, k, b);
    const bool lift = coupling == Coupling::lift && has_prescribed_motion();
    if (lift) {  // MechanicalSystem's lift: (m M + k K + b B)_{free,constrained} y_c
      if (k != 0) ++stiffness_products;
      if (!p_.lumped) ++mass_products;
    }
    const double lifted = lift ? A[1] * entry(y, 1) : 0.0;
    set_entry(y, 0, (entry(r, 0) - lifted) / A[0]);
    return {1, 0};
  }

  petsc::Matrix create_operator() const override {
    petsc::Matrix A;
    INERTIA_PETSC(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, nullptr, A.out()));
    const PetscInt rows[] = {0, 1};
    const PetscScalar zeros[] = {0, 0, 0, 0};
    INERTIA_PETSC(MatSetValues(A, 2, rows, 2, rows, zeros, INSERT_VALUES));
    INERTIA_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    INERTIA_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    return A;
  }
  double fill_operator(double m, double k, double b, Mat A, PC pc = nullptr) const override {
    (void)pc;
    const auto a = matrix(m, k, b);
    const PetscInt rows[] = {0, 1};
    const PetscScalar values[] = {a[0], 0, 0, a[0]};  // the support's row: a scaled identity
    INERTIA_PETSC(MatSetValues(A, 2, rows, 2, rows, values, INSERT_VALUES));
    INERTIA_PETSC(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    INERTIA_PETSC(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    return a[0];
  }
  void attach_near_null_space(Mat, Vec) const override {}
  LinearSolverChoice linear_solver() const override { return LinearSolverChoice::direct; }
  double expected_solves() const override { return 0; }
  void add_solver_note(std::string note) override { notes.push_back(std::move(note)); }

  double strain_energy(Vec u) const override {
    const double e = entry(u, 0) - entry(u, 1);
    return 0.5 * p_.k * e * e + 0.25 * p_.k3 * e * e * e * e;
  }

 private:
  /// Row 0 of m M + k K + b B (C's alpha terms are in m and k): (A_00, A_01).
  std::array<double, 2> matrix(double m, double k, double b) const {
    const double kt = spring_tangent(e_lin_);
    return {m * p_.m + k * kt + b * p_.c, -k * kt - b * p_.c};
  }
  static void set_pair(Vec y, double y0, double y1) {
    petsc::Array a(y);
    a.span()[0] = y0;
    a.span()[1] = y1;
  }

  OneDofParams p_;
  petsc::Vector mass_;
  double e_lin_ = 0;
};

}  // namespace inertia::test
