#include "inertia/system/system_operators.hpp"

#include <algorithm>

#include "inertia/parallel/session.hpp"

namespace inertia {

SystemOperators::SystemOperators(MPI_Comm comm, const LocalMesh& mesh, const ProblemSpec& spec,
                                 const Assembler& assembler, const TermSet& terms)
    : comm_(comm), mesh_(mesh), assembler_(assembler), terms_(terms) {
  assemble_stiffness(spec);
  scratch_ = assembler_.create_vector();
  // Nodal masses (point masses: each node of the region once, owned nodes).
  point_masses_ = assembler_.create_vector();
  {
    petsc::Array pm(point_masses_);
    terms_.add_nodal_masses(pm.span());
  }
  // Lumped masses always (the zero-mass check uses them), consistent M on request.
  lumped_mass_ = assembler_.create_vector();
  lumped_masses(lumped_mass_);
  set_up_terms();
  // A consistent treatment whose every term's consistent mass is its lumped one (shells, point
  // masses) is the lumped treatment: no matrix, and explicit steps without a mass solve.
  if (spec.mass == MassTreatment::consistent && !terms_.consistent_mass_is_lumped()) {
    M_ = assembler_.create_matrix();
    terms_.assemble_consistent_mass(M_);
    INERTIA_PETSC(MatDiagonalSet(M_, point_masses_, ADD_VALUES));
  }
  stop_if_interrupted(comm_, "during the set-up (the assembly, after the mass)");
}

void SystemOperators::assemble_stiffness(const ProblemSpec& spec) {
  if (spec.matrix_free) {
    // K is never stored: products come from the element kernels (explicit schemes only).
    matrix_free_ = std::make_unique<MatrixFreeElasticity>(comm_, mesh_, assembler_.elements(),
                                                          assembler_.create_vector());
    K_ = matrix_free_->create_shell();
  } else {
    // Explicit schemes only multiply by a linear K: BAIJ, the fastest product.
    baij_stiffness_ = spec.explicit_scheme && terms_.linear();
    K_ = assembler_.create_matrix(baij_stiffness_ ? Assembler::MatrixFormat::blocked
                                                  : Assembler::MatrixFormat::aij);
    terms_.assemble_stiffness(K_);
    // A model whose every solid is nonlinear (plasticity, large deformation) has a linear K of
    // zeros: its products are skipped (a full pass over the pattern per force evaluation).
    PetscReal norm = 0;
    INERTIA_PETSC(MatNorm(K_, NORM_FROBENIUS, &norm));
    linear_stiffness_zero_ = norm == 0;
  }
  stop_if_interrupted(comm_, "during the set-up (the assembly, after the stiffness)");
  if (terms_.linear()) return;
  K_tangent_ = assembler_.create_matrix();
  linearised_at_ = assembler_.create_vector();
  if (terms_.dashpots()) B_ = assembler_.create_matrix();
  update_tangent(linearised_at_, 0);  // the reference configuration
}

void SystemOperators::mult_linear_stiffness(Vec u, Vec y) const {
  if (linear_stiffness_zero_)
    INERTIA_PETSC(VecZeroEntries(y));
  else
    INERTIA_PETSC(MatMult(K_, u, y));
}

void SystemOperators::set_up_terms() {
  if (terms_.nodal()) {
    // Nodal terms of an explicit run sized from the linear stiffness's diagonal (summed from the
    // element matrices: no matrix, also for a matrix-free run) and the masses.
    petsc::Vector diagonal = assembler_.create_vector();
    terms_.assemble_stiffness_diagonal(diagonal);
    terms_.add_contact_stiffness_diagonal(diagonal);  // rigid bodies
    petsc::ConstArray d(diagonal), m(lumped_mass_);
    terms_.set_up(d.span(), m.span(), true);
  }
  if (terms_.linear()) return;
  // Terms sized from the model (contact penalties, nonlinear terms): the diagonal of the tangent
  // at the reference configuration and the masses; then that tangent again, with what they
  // sized (a body resting on a wall).
  {
    petsc::Vector diagonal = assembler_.create_vector();
    INERTIA_PETSC(MatGetDiagonal(K_tangent_, diagonal));
    terms_.add_contact_stiffness_diagonal(diagonal);  // rigid bodies
    petsc::ConstArray d(diagonal), m(lumped_mass_);
    terms_.set_up(d.span(), m.span(), false);
  }
  tangent_assembled_ = false;
  update_tangent(linearised_at_, 0);
}

void SystemOperators::check_masses(const LocalMesh& mesh, const ConstraintSet& constraints) const {
  // Every free DOF needs mass or the system is singular.
  run_collectively(comm_, [&] {
    petsc::ConstArray m(lumped_mass_);
    for (PetscInt i = 0; i < m.size(); ++i)
      if (!(m[i] > 0) && !constraints.holds(i)) {
        const auto n = i / 3;
        throw InputError(cat("node ", mesh.node_tags[n], " at (", mesh.coords[3 * n], ", ",
                             mesh.coords[3 * n + 1], ", ", mesh.coords[3 * n + 2],
                             ") has no mass and is not constrained: give its region a "
                             "material or a point mass, or fix it"));
      }
  });
}

petsc::Vector SystemOperators::translation_mass(int d) const {
  petsc::Vector r = assembler_.unit_translation(d), out = assembler_.create_vector();
  if (M_)
    INERTIA_PETSC(MatMult(M_, r, out));
  else
    INERTIA_PETSC(VecPointwiseMult(out, lumped_mass_, r));
  return out;
}

void SystemOperators::finish_masses(const ConstraintSet& constraints) {
  if (M_) {
    lumped_mass_.reset();  // consistent treatment: M_ is the mass
    return;
  }
  inverse_mass_ = assembler_.create_vector();
  petsc::ConstArray m(lumped_mass_);
  petsc::Array w(inverse_mass_);
  for (PetscInt i = 0; i < m.size(); ++i) w[i] = m[i] > 0 ? 1.0 / m[i] : 0.0;
  for (std::size_t i = 0; i < constraints.dofs().size(); ++i) w[constraints.local(i)] = 0.0;
}

void SystemOperators::rebuild_lumped_masses(const ConstraintSet& constraints) {
  INERTIA_CHECK(lumped_mass_ && inverse_mass_, InternalError,
                "rebuild_lumped_masses: the run has no lumped mass");
  lumped_masses(lumped_mass_);
  petsc::ConstArray m(lumped_mass_);
  petsc::Array w(inverse_mass_);
  for (PetscInt i = 0; i < m.size(); ++i) w[i] = m[i] > 0 ? 1.0 / m[i] : 0.0;
  for (std::size_t i = 0; i < constraints.dofs().size(); ++i) w[constraints.local(i)] = 0.0;
}

bool SystemOperators::update_tangent(Vec u, double t) {
  if (terms_.linear()) return false;  // K does not depend on u
  if (tangent_assembled_ && (!terms_.moving() || tangent_time_ == t)) {
    PetscBool same = PETSC_FALSE;
    INERTIA_PETSC(VecEqual(u, linearised_at_, &same));
    if (same) return false;
  }
  tangent_time_ = t;
  if (u != linearised_at_.get()) INERTIA_PETSC(VecCopy(u, linearised_at_));
  // Until the assembly below succeeds, no tangent is valid: an element that cannot take u
  // (a SolverError, retried by Newton or the step controller) leaves K_tangent_ partly summed,
  // and a later call at the same u must assemble it again rather than use it.
  tangent_assembled_ = false;
  {
    petsc::GhostedRead ul(linearised_at_);
    terms_.assemble_tangent({ul.span(), {}, t}, K_tangent_, B_);
  }
  if (terms_.coupled()) build_coupling(linearised_at_, t);
  tangent_assembled_ = true;
  return true;
}

void SystemOperators::build_coupling(Vec u, double t) {
  terms_.gather(u, t);
  coupling_blocks_.clear();
  terms_.add_coupling(coupling_blocks_);
  // The pattern: a new generation where it changed on any rank.
  std::vector<std::pair<std::int64_t, std::int64_t>> pattern;
  pattern.reserve(coupling_blocks_.size());
  for (const auto& blk : coupling_blocks_) pattern.emplace_back(blk.row, blk.col);
  std::sort(pattern.begin(), pattern.end());
  pattern.erase(std::unique(pattern.begin(), pattern.end()), pattern.end());
  std::int64_t counts[2] = {static_cast<std::int64_t>(coupling_blocks_.size()),
                            pattern != coupling_pattern_ ? 1 : 0};
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT64_T, MPI_SUM, comm_));
  if (counts[1] > 0) ++coupling_generation_;
  coupling_pattern_ = std::move(pattern);
  coupling_.reset();
  if (counts[0] == 0) return;  // nothing in contact: the assembled tangent is the whole one
  // Entry by entry in PETSc's COO form: the rows may be other ranks' (a face's nodes).
  const std::size_t n = 9 * coupling_blocks_.size();
  std::vector<PetscInt> rows(n), cols(n);
  std::vector<PetscScalar> values(n);
  std::size_t e = 0;
  for (const auto& blk : coupling_blocks_)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j, ++e) {
        rows[e] = static_cast<PetscInt>(3 * blk.row + i);
        cols[e] = static_cast<PetscInt>(3 * blk.col + j);
        values[e] = blk.b[3 * i + j];
      }
  const PetscInt local = static_cast<PetscInt>(3 * mesh_.num_owned);
  INERTIA_PETSC(MatCreate(comm_, coupling_.out()));
  INERTIA_PETSC(MatSetSizes(coupling_, local, local, PETSC_DETERMINE, PETSC_DETERMINE));
  INERTIA_PETSC(MatSetType(coupling_, MATAIJ));
  INERTIA_PETSC(
      MatSetPreallocationCOO(coupling_, static_cast<PetscCount>(n), rows.data(), cols.data()));
  INERTIA_PETSC(MatSetValuesCOO(coupling_, values.data(), ADD_VALUES));
}

void SystemOperators::mult_mass(Vec x, Vec y) const {
  if (lumped_mass_)
    INERTIA_PETSC(VecPointwiseMult(y, lumped_mass_, x));
  else
    INERTIA_PETSC(MatMult(M_, x, y));
}

void SystemOperators::mult_stiffness(Vec x, Vec y) const {
  INERTIA_PETSC(MatMult(stiffness(), x, y));
}

void SystemOperators::mult_dashpot(Vec x, Vec y) const {
  if (B_)
    INERTIA_PETSC(MatMult(B_, x, y));
  else
    INERTIA_PETSC(VecZeroEntries(y));
}

void SystemOperators::mult_damping(const RayleighDamping& rayleigh, Vec x, Vec y) const {
  INERTIA_PETSC(VecZeroEntries(y));
  if (rayleigh.mass != 0) {
    mult_mass(x, scratch_);
    INERTIA_PETSC(VecAXPY(y, rayleigh.mass, scratch_));
  }
  if (rayleigh.stiffness != 0) {
    mult_stiffness(x, scratch_);
    INERTIA_PETSC(VecAXPY(y, rayleigh.stiffness, scratch_));
  }
}

void SystemOperators::lumped_masses(Vec m) const {
  terms_.assemble_lumped_masses(m);
  INERTIA_PETSC(VecAXPY(m, 1.0, point_masses_));
  if (added_mass_) INERTIA_PETSC(VecAXPY(m, 1.0, added_mass_));
}

void SystemOperators::add_masses(Vec added, const ConstraintSet& constraints) {
  INERTIA_CHECK(lumped_mass_ && !M_, InternalError, "add_masses: a lumped mass only");
  if (!added_mass_) {
    added_mass_ = assembler_.create_vector();
    INERTIA_PETSC(VecZeroEntries(added_mass_));
  }
  INERTIA_PETSC(VecAXPY(added_mass_, 1.0, added));
  INERTIA_PETSC(VecAXPY(lumped_mass_, 1.0, added));
  finish_masses(constraints);
}

petsc::Matrix SystemOperators::create_operator() const {
  // Matrix-free K: the (consistent) mass has the same pattern and near-null space.
  const Mat pattern = matrix_free_ || baij_stiffness_ ? M_.get() : K_.get();
  petsc::Matrix A;
  MatNullSpace modes = nullptr;
  if (!pattern && baij_stiffness_) {
    // An explicit run's block K with a lumped mass (a solve it rarely makes: a static
    // equilibrium at the start): the operator in AIJ on K's pattern.
    INERTIA_PETSC(MatConvert(K_, MATAIJ, MAT_INITIAL_MATRIX, A.out()));
    INERTIA_PETSC(MatZeroEntries(A));
    INERTIA_PETSC(MatGetNearNullSpace(K_, &modes));
    if (modes) INERTIA_PETSC(MatSetNearNullSpace(A, modes));
    INERTIA_PETSC(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
    return A;
  }
  INERTIA_CHECK(pattern, InternalError, "create_operator: no assembled matrix (matrix-free K)");
  INERTIA_PETSC(MatDuplicate(pattern, MAT_DO_NOT_COPY_VALUES, A.out()));
  // Zeroing constrained rows must not drop entries: refills copy with SAME_NONZERO_PATTERN.
  INERTIA_PETSC(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
  INERTIA_PETSC(MatGetNearNullSpace(pattern, &modes));
  INERTIA_PETSC(MatSetNearNullSpace(A, modes));
  return A;
}

double SystemOperators::fill_operator(double m, double k, double b, Mat A_given, PC pc,
                                      std::span<const PetscInt> constrained) const {
  // A run whose tangent couples nodes outside the assembled pattern (contact between bodies
  // under an implicit scheme) builds the operator in a fresh matrix of the assembled pattern,
  // adds the coupling (the union of both patterns), and puts it in place of A_given: the
  // operator's pattern follows the contact set.
  const bool coupled = terms_.coupled();
  petsc::Matrix fresh;
  if (coupled) fresh = create_operator();
  const Mat A = coupled ? fresh.get() : A_given;
  // All matrices share one pattern (Assembler::create_matrix), so the copies and sums keep the
  // structure.
  if (M_) {
    INERTIA_PETSC(MatCopy(M_, A, SAME_NONZERO_PATTERN));
    INERTIA_PETSC(MatScale(A, m));
  } else {
    INERTIA_PETSC(MatZeroEntries(A));
    INERTIA_PETSC(VecCopy(lumped_mass_, scratch_));
    INERTIA_PETSC(VecScale(scratch_, m));
    INERTIA_PETSC(MatDiagonalSet(A, scratch_, ADD_VALUES));
  }
  INERTIA_CHECK(k == 0 || !matrix_free_, InputError,
                "time.operator: matrix_free has no assembled stiffness for an implicit solve; use "
                "an explicit scheme or time.operator: assembled");
  if (k != 0) INERTIA_PETSC(MatAXPY(A, k, stiffness(), SAME_NONZERO_PATTERN));
  if (b != 0 && B_) INERTIA_PETSC(MatAXPY(A, b, B_, SAME_NONZERO_PATTERN));
  if (k != 0 && coupling_) INERTIA_PETSC(MatAXPY(A, k, coupling_, DIFFERENT_NONZERO_PATTERN));
  // Constrained rows and columns: identity scaled by the mean diagonal.
  INERTIA_PETSC(MatGetDiagonal(A, scratch_));
  PetscReal diagonal_sum = 0;
  INERTIA_PETSC(VecNorm(scratch_, NORM_1, &diagonal_sum));
  const PetscInt n = assembler_.num_global_dofs();
  double diagonal = n > 0 ? diagonal_sum / n : 1.0;
  if (!(diagonal > 0)) diagonal = 1.0;
  INERTIA_PETSC(MatZeroRowsColumns(A, static_cast<PetscInt>(constrained.size()), constrained.data(),
                                   diagonal, nullptr, nullptr));
  if (coupled) {
    INERTIA_PETSC(MatHeaderReplace(A_given, fresh.in_place()));
    // The values changed (a preconditioner compares the matrix's state), and where the pattern
    // did too, the preconditioner starts again (a factorisation's symbolic part).
    // (MatHeaderReplace keeps A_given's state: an assembly, which costs nothing here, raises it.)
    INERTIA_PETSC(MatAssemblyBegin(A_given, MAT_FINAL_ASSEMBLY));
    INERTIA_PETSC(MatAssemblyEnd(A_given, MAT_FINAL_ASSEMBLY));
    auto [it, first] = filled_generation_.try_emplace(A_given, coupling_generation_);
    if (!first && it->second != coupling_generation_ && pc) INERTIA_PETSC(PCReset(pc));
    it->second = coupling_generation_;
  }
  return diagonal;
}

}  // namespace inertia
