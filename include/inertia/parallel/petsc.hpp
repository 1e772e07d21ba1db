#pragma once
/// \file petsc.hpp
/// Move-only RAII handles for PETSc objects, the checked-call macro, and vector views.
///
/// Every PETSc call in inertia goes through INERTIA_PETSC, which turns a non-zero error code into a
/// SolverError carrying PETSc's message and the failing call. PETSc's own error printing is turned
/// off by the Session, so errors are reported once, by us.

#include <petscksp.h>
#include <petscsnes.h>

#include <span>
#include <utility>

#include "inertia/core/error.hpp"

namespace inertia {

[[noreturn]] void throw_petsc_error(PetscErrorCode code, const char* call, const char* file,
                                    int line);

}  // namespace inertia

#define INERTIA_PETSC(...)                                                          \
  do {                                                                              \
    PetscErrorCode inertia_ierr_ = (__VA_ARGS__);                                   \
    if (inertia_ierr_) ::inertia::throw_petsc_error(inertia_ierr_, #__VA_ARGS__, __FILE__, __LINE__); \
  } while (false)

namespace inertia::petsc {

/// Owner of one PETSc object; destroys it on scope exit. Move-only. Borrowers use get().
template <typename T, PetscErrorCode (*Destroy)(T*)>
class Handle {
 public:
  Handle() = default;
  explicit Handle(T obj) : obj_(obj) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : obj_(std::exchange(o.obj_, nullptr)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      obj_ = std::exchange(o.obj_, nullptr);
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() noexcept {
    if (obj_) (void)Destroy(&obj_);  // destructors never throw
    obj_ = nullptr;
  }
  T get() const { return obj_; }
  operator T() const { return obj_; }  // NOLINT: borrow where PETSc wants the raw handle
  /// For PETSc's create functions: `VecCreate(comm, v.out())`.
  T* out() {
    reset();
    return &obj_;
  }
  /// For in-place conversions that replace the object: `MatConvert(A, t, MAT_INPLACE_MATRIX,
  /// A.in_place())`.
  T* in_place() { return &obj_; }
  explicit operator bool() const { return obj_ != nullptr; }

 private:
  T obj_ = nullptr;
};

using Vector = Handle<Vec, VecDestroy>;
using Matrix = Handle<Mat, MatDestroy>;
using Ksp = Handle<KSP, KSPDestroy>;
using Snes = Handle<SNES, SNESDestroy>;
using IndexSet = Handle<IS, ISDestroy>;
using NullSpace = Handle<MatNullSpace, MatNullSpaceDestroy>;
using LocalToGlobal = Handle<ISLocalToGlobalMapping, ISLocalToGlobalMappingDestroy>;
using VecScatterHandle = Handle<VecScatter, VecScatterDestroy>;

/// Read-only view of a Vec's local (owned) entries for the scope of the object.
class ConstArray {
 public:
  explicit ConstArray(Vec v) : v_(v) {
    INERTIA_PETSC(VecGetArrayRead(v_, &data_));
    INERTIA_PETSC(VecGetLocalSize(v_, &size_));
  }
  ConstArray(const ConstArray&) = delete;
  ConstArray& operator=(const ConstArray&) = delete;
  ~ConstArray() { (void)VecRestoreArrayRead(v_, &data_); }
  std::span<const PetscScalar> span() const { return {data_, static_cast<std::size_t>(size_)}; }
  const PetscScalar& operator[](PetscInt i) const { return data_[i]; }
  PetscInt size() const { return size_; }

 private:
  Vec v_;
  const PetscScalar* data_ = nullptr;
  PetscInt size_ = 0;
};

/// Read-write view of a Vec's local (owned) entries for the scope of the object.
class Array {
 public:
  explicit Array(Vec v) : v_(v) {
    INERTIA_PETSC(VecGetArray(v_, &data_));
    INERTIA_PETSC(VecGetLocalSize(v_, &size_));
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  ~Array() { (void)VecRestoreArray(v_, &data_); }
  std::span<PetscScalar> span() const { return {data_, static_cast<std::size_t>(size_)}; }
  PetscScalar& operator[](PetscInt i) const { return data_[i]; }
  PetscInt size() const { return size_; }

 private:
  Vec v_;
  PetscScalar* data_ = nullptr;
  PetscInt size_ = 0;
};

/// Read access to the local form (owned + ghost entries) of a ghosted vector, after a forward
/// ghost update, for the scope of the object.
class GhostedRead {
 public:
  explicit GhostedRead(Vec v) : v_(v) {
    INERTIA_PETSC(VecGhostUpdateBegin(v_, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecGhostUpdateEnd(v_, INSERT_VALUES, SCATTER_FORWARD));
    INERTIA_PETSC(VecGhostGetLocalForm(v_, &local_));
    INERTIA_PETSC(VecGetArrayRead(local_, &data_));
    INERTIA_PETSC(VecGetLocalSize(local_, &size_));
  }
  GhostedRead(const GhostedRead&) = delete;
  GhostedRead& operator=(const GhostedRead&) = delete;
  ~GhostedRead() {
    (void)VecRestoreArrayRead(local_, &data_);
    (void)VecGhostRestoreLocalForm(v_, &local_);
  }
  const PetscScalar* data() const { return data_; }
  std::span<const PetscScalar> span() const { return {data_, static_cast<std::size_t>(size_)}; }
  const PetscScalar& operator[](PetscInt i) const { return data_[i]; }
  PetscInt size() const { return size_; }

 private:
  Vec v_;
  Vec local_ = nullptr;
  const PetscScalar* data_ = nullptr;
  PetscInt size_ = 0;
};

/// A new vector with the same layout as `like` (VecDuplicate), zeroed.
Vector duplicate(Vec like);

/// A PETSc log event of inertia's own (shown by -log_view), registered on first use of the name.
PetscLogEvent log_event(const char* name);

}  // namespace inertia::petsc
