// The borrow guards of petsc.hpp (ConstArray, Array, LocalForm, GhostedRead, GhostedArray) and
// petsc::object_state, on a ghosted vector whose ranks each own 2 entries and ghost the first
// entry of the next rank (cyclically; no ghost on one rank): what each guard sees, that every
// borrow is given back at scope exit exactly once (moves included), and the errors.

#include <gtest/gtest.h>

#include <vector>

#include "inertia/parallel/petsc.hpp"
#include "inertia/parallel/session.hpp"

using namespace inertia;

namespace {

constexpr PetscInt owned = 2;

/// Ghosted: owned entries 2 r, 2 r + 1 of rank r (values = global index); ghost: 2 (r + 1) mod 2P.
petsc::Vector ghosted_vector() {
  const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
  const PetscInt ghost = owned * ((rank + 1) % size);
  const PetscInt nghost = size > 1 ? 1 : 0;
  petsc::Vector v;
  INERTIA_PETSC(VecCreateGhost(MPI_COMM_WORLD, owned, PETSC_DECIDE, nghost, &ghost, v.out()));
  {
    petsc::Array a(v);
    for (PetscInt i = 0; i < owned; ++i) a[i] = static_cast<double>(owned * rank + i);
  }
  return v;
}

petsc::Vector plain_vector() {
  petsc::Vector v;
  INERTIA_PETSC(VecCreateMPI(MPI_COMM_WORLD, owned, PETSC_DECIDE, v.out()));
  return v;
}

PetscInt references(PetscObject o) {
  PetscInt n = 0;
  INERTIA_PETSC(PetscObjectGetReference(o, &n));
  return n;
}

/// The local form's reference count: raised by VecGhostGetLocalForm, lowered by the restore. Paired
/// by hand on purpose: it observes the guards from outside.
PetscInt local_form_references(Vec v) {
  Vec l = nullptr;
  INERTIA_PETSC(VecGhostGetLocalForm(v, &l));
  const PetscInt n = references(reinterpret_cast<PetscObject>(l)) - 1;
  INERTIA_PETSC(VecGhostRestoreLocalForm(v, &l));
  return n;
}

int ghosts() { return size_of(MPI_COMM_WORLD) > 1 ? 1 : 0; }

}  // namespace

TEST(PetscGuards, LocalFormBorrowsAndGivesBack) {
  petsc::Vector v = ghosted_vector();
  const PetscInt before = local_form_references(v);
  {
    petsc::LocalForm l(v);
    EXPECT_TRUE(l);  // no ASSERT before a collective (ghosted_vector below)
    EXPECT_EQ(l.global(), v.get());
    PetscInt n = 0;
    INERTIA_PETSC(VecGetSize(l.get(), &n));  // sequential: owned + ghosts
    EXPECT_EQ(n, owned + ghosts());
    EXPECT_EQ(local_form_references(v), before + 1);
    petsc::LocalForm moved(std::move(l));  // one borrow, now held by `moved`
    EXPECT_FALSE(l);                       // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(local_form_references(v), before + 1);
    petsc::Vector w = ghosted_vector();
    moved = petsc::LocalForm(w);  // gives v's back, takes w's
    EXPECT_EQ(local_form_references(v), before);
    EXPECT_EQ(moved.global(), w.get());
  }
  EXPECT_EQ(local_form_references(v), before);
}

TEST(PetscGuards, LocalFormOfPlainVectorIsNull) {
  petsc::Vector v = plain_vector();
  petsc::LocalForm l(v);
  EXPECT_FALSE(l);
  EXPECT_EQ(l.get(), nullptr);
  EXPECT_EQ(l.global(), v.get());
}

TEST(PetscGuards, GhostedReadUpdatesGhosts) {
  const int rank = rank_of(MPI_COMM_WORLD), size = size_of(MPI_COMM_WORLD);
  petsc::Vector v = ghosted_vector();
  const PetscInt before = local_form_references(v);
  {
    petsc::GhostedRead r(v);
    ASSERT_EQ(r.size(), owned + ghosts());
    EXPECT_EQ(r.span().size(), static_cast<std::size_t>(owned + ghosts()));
    for (PetscInt i = 0; i < owned; ++i) EXPECT_EQ(r[i], owned * rank + i);
    if (ghosts()) {
      EXPECT_EQ(r.data()[owned], owned * ((rank + 1) % size));  // from its owner
    }
    EXPECT_NE(r.local(), nullptr);
    EXPECT_EQ(local_form_references(v), before + 1);
  }
  EXPECT_EQ(local_form_references(v), before);
}

TEST(PetscGuards, GhostedArrayAccumulatesIntoOwners) {
  petsc::Vector v = ghosted_vector();
  const PetscInt before = local_form_references(v);
  {
    petsc::GhostedArray a(v);
    EXPECT_EQ(a.size(), owned + ghosts());  // no ASSERT: the reverse update below is collective
    std::ranges::fill(a.span(), 0.0);
    for (PetscInt i = 0; i < a.size(); ++i) a[i] += 1.0;
    EXPECT_EQ(a.data()[0], 1.0);
    EXPECT_EQ(local_form_references(v), before + 1);
  }
  EXPECT_EQ(local_form_references(v), before);
  INERTIA_PETSC(VecGhostUpdateBegin(v, ADD_VALUES, SCATTER_REVERSE));
  INERTIA_PETSC(VecGhostUpdateEnd(v, ADD_VALUES, SCATTER_REVERSE));
  petsc::ConstArray c(v);
  EXPECT_EQ(c[0], 1.0 + ghosts());  // the previous rank's ghost of it summed in
  EXPECT_EQ(c[1], 1.0);
}

TEST(PetscGuards, GhostedGuardsRefusePlainVectors) {
  petsc::Vector v = plain_vector();
  EXPECT_THROW(petsc::GhostedArray a(v), InternalError);
  EXPECT_THROW(petsc::GhostedRead r(v), SolverError);  // PETSc: the vector is not ghosted
}

TEST(PetscGuards, ArrayRestoresOnceAcrossMoves) {
  petsc::Vector v = ghosted_vector();
  petsc::Vector u = plain_vector();
  const PetscObjectState s0 = petsc::object_state(v), u0 = petsc::object_state(u);
  {
    petsc::Array a(v);
    a[0] = 42.0;
    petsc::Array b(std::move(a));
    petsc::Array c(u);
    c = std::move(b);  // gives u's array back, takes v's
    EXPECT_EQ(petsc::object_state(u), u0 + 1);
    EXPECT_EQ(c[0], 42.0);
    EXPECT_EQ(petsc::object_state(v), s0);  // not given back yet
  }
  EXPECT_EQ(petsc::object_state(v), s0 + 1);  // VecRestoreArray raises the state, once
  petsc::ConstArray r(v);
  EXPECT_EQ(r.data()[0], 42.0);
}

TEST(PetscGuards, ConstArraysInReservedStorage) {
  petsc::Vector v = ghosted_vector(), w = ghosted_vector();
  std::vector<petsc::ConstArray> arrays;
  arrays.reserve(2);
  const auto* storage = arrays.data();
  for (int pass = 0; pass < 3; ++pass) {
    arrays.emplace_back(v);
    arrays.emplace_back(w);
    EXPECT_EQ(arrays.data(), storage);  // no reallocation
    EXPECT_EQ(arrays[1].size(), owned);
    EXPECT_EQ(arrays[0][1], arrays[1][1]);
    arrays.clear();
  }
  const PetscObjectState s0 = petsc::object_state(v);
  INERTIA_PETSC(VecSet(v, 1.0));  // v is not borrowed any more: it can be written
  EXPECT_GT(petsc::object_state(v), s0);
}
