#include "inertia/system/support_reactions.hpp"

#include <algorithm>
#include <optional>

#include "inertia/system/mechanical_system.hpp"

namespace inertia {

void SupportReactions::cut_rows(const MechanicalSystem& system) const {
  const std::span<const PetscInt> constrained = system.constrained_dofs();
  const auto n = static_cast<PetscInt>(constrained.size());
  PetscInt lo = 0, hi = 0;
  INERTIA_PETSC(VecGetOwnershipRange(work_, &lo, &hi));
  petsc::IndexSet row_set, column_set;
  INERTIA_PETSC(
      ISCreateGeneral(system.comm(), n, constrained.data(), PETSC_COPY_VALUES, row_set.out()));
  INERTIA_PETSC(ISCreateStride(system.comm(), hi - lo, lo, 1, column_set.out()));
  auto cut = [&](Mat A, petsc::Matrix& sub) {
    MatType type = nullptr;
    INERTIA_PETSC(MatGetType(A, &type));
    PetscBool aij = PETSC_FALSE;
    INERTIA_PETSC(PetscStrbeginswith(type, MATMPIAIJ, &aij));
    if (!aij) INERTIA_PETSC(PetscStrbeginswith(type, MATSEQAIJ, &aij));
    if (aij) {
      INERTIA_PETSC(MatCreateSubMatrix(A, row_set, column_set, MAT_INITIAL_MATRIX, sub.out()));
    } else {  // BAIJ (explicit schemes): through an AIJ copy, freed at once
      petsc::Matrix copy;
      INERTIA_PETSC(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, copy.out()));
      INERTIA_PETSC(MatCreateSubMatrix(copy, row_set, column_set, MAT_INITIAL_MATRIX, sub.out()));
    }
  };
  cut(system.stiffness(), rows_.K);
  if (system.mass_matrix()) cut(system.mass_matrix(), rows_.M);
  INERTIA_PETSC(MatCreateVecs(rows_.K, nullptr, rows_.r.out()));
}

void SupportReactions::compute(const MechanicalSystem& system, double t, Vec u, Vec v, Vec a,
                               std::span<double> out) const {
  const std::span<const PetscInt> constrained = system.constrained_dofs();
  INERTIA_CHECK(out.size() == constrained.size(), InternalError, "support_reactions: expected ",
                constrained.size(), " values");
  // The same state as the last call (reactions.csv and energy.csv at one step): its values.
  const std::array<Vec, 3> vecs{u, v, a};
  std::array<PetscObjectState, 3> states{};
  for (int k = 0; k < 3; ++k) states[k] = vecs[k] ? petsc::object_state(vecs[k]) : 0;
  if (cache_.valid && cache_.t == t && cache_.vecs == vecs && cache_.states == states) {
    std::copy(cache_.values.begin(), cache_.values.end(), out.begin());
    return;
  }
  cache_.valid = false;
  if (!work_) work_ = system.create_vector(), work2_ = system.create_vector();
  const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
  const auto& rayleigh = system.rayleigh();
  // Linear models with an assembled K: the constrained rows of K (and of a consistent M), cut
  // out once, so each call costs products with those rows only.
  const bool rows = system.is_linear() && !system.matrix_free();
  if (rows && !rows_.K) cut_rows(system);
  std::fill(out.begin(), out.end(), 0.0);
  auto add_picked = [&](Vec full, double scale) {
    petsc::ConstArray x(full);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += scale * x[constrained[i] - first];
  };
  // Elastic (and Rayleigh stiffness) forces.
  if (rows) {
    // K_c (u + alpha_K v): one product with the rows.
    Vec x = u;
    if (rayleigh.stiffness != 0) {
      INERTIA_PETSC(VecWAXPY(work_, rayleigh.stiffness, v, u));
      x = work_;
    }
    INERTIA_PETSC(MatMult(rows_.K, x, rows_.r));
    petsc::ConstArray r(rows_.r);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += r[static_cast<PetscInt>(i)];
  } else {
    system.internal_force(u, work_);
    add_picked(work_, 1.0);
    if (system.has_dashpots()) {
      system.dashpot_force(u, v, work_);
      add_picked(work_, 1.0);
    }
    if (rayleigh.stiffness != 0) {
      system.mult_stiffness(v, work_);
      add_picked(work_, rayleigh.stiffness);
    }
  }
  add_inertia(system, v, a, rows, out);
  // Loads on the supported nodes.
  system.external_force(t, work_);
  add_picked(work_, -1.0);
  cache_.values.assign(out.begin(), out.end());  // allocates on the first call only
  cache_.t = t;
  cache_.vecs = vecs;
  for (int k = 0; k < 3; ++k) cache_.states[k] = vecs[k] ? petsc::object_state(vecs[k]) : 0;
  cache_.valid = true;
}

void SupportReactions::add_inertia(const MechanicalSystem& system, Vec v, Vec a, bool rows,
                                   std::span<double> out) const {
  // Inertia and Rayleigh mass damping: M (a + alpha_M v) on the constrained rows.
  const double alpha = system.rayleigh().mass;
  if (!a && alpha == 0) return;
  const std::span<const PetscInt> constrained = system.constrained_dofs();
  const PetscInt first = static_cast<PetscInt>(3 * system.mesh().node_begin);
  if (!system.mass_matrix()) {
    petsc::ConstArray m(system.lumped_mass());
    std::optional<petsc::ConstArray> aa, vv;
    if (a) aa.emplace(a);
    if (alpha != 0) vv.emplace(v);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const PetscInt k = constrained[i] - first;
      out[i] += m[k] * ((aa ? (*aa)[k] : 0.0) + (vv ? alpha * (*vv)[k] : 0.0));
    }
    return;
  }
  Vec x = a ? a : v;
  if (a && alpha != 0) {
    INERTIA_PETSC(VecWAXPY(work_, alpha, v, a));
    x = work_;
  }
  const double scale = a ? 1.0 : alpha;
  if (rows) {
    INERTIA_PETSC(MatMult(rows_.M, x, rows_.r));
    petsc::ConstArray r(rows_.r);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += scale * r[static_cast<PetscInt>(i)];
  } else {
    system.mult_mass(x, work2_);
    petsc::ConstArray y(work2_);
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += scale * y[constrained[i] - first];
  }
}

}  // namespace inertia
