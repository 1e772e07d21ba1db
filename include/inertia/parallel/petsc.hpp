#pragma once
/// \file petsc.hpp
/// Move-only RAII handles for PETSc objects, the checked-call macro, vector borrows (guards) and
/// object states.
///
/// Every PETSc call in inertia goes through INERTIA_PETSC, which turns a non-zero error code into a
/// SolverError carrying PETSc's message and the failing call. PETSc's own error printing is turned
/// off by the Session, so errors are reported once, by us.

#include <petscksp.h>
#include <petscsnes.h>
#include <petscversion.h>

#include <span>
#include <type_traits>
#include <utility>

#include "inertia/core/error.hpp"

#if PETSC_VERSION_LT(3, 19, 0)
// PETSc 3.18 exports PetscObjectStateGet from libpetsc but declares it only in the private header
// <petsc/private/petscimpl.h>, which pulls PETSc's internals into whoever includes it; 3.19 made it
// public (petscsys.h). Declare the exported prototype (as 3.18's private header does) instead of
// including that header. Used by petsc::object_state below.
PETSC_EXTERN PetscErrorCode PetscObjectStateGet(PetscObject, PetscObjectState*);
#endif

namespace inertia {

[[noreturn]] void throw_petsc_error(PetscErrorCode code, const char* call, const char* file,
                                    int line);

}  // namespace inertia

#define INERTIA_PETSC(...)                                                           \
  do {                                                                               \
    PetscErrorCode inertia_ierr_ = (__VA_ARGS__);                                    \
    if (inertia_ierr_)                                                               \
      ::inertia::throw_petsc_error(inertia_ierr_, #__VA_ARGS__, __FILE__, __LINE__); \
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

// Borrows. Each guard takes a Vec's storage in its constructor (the Get call, checked: a failure
// throws SolverError and leaves nothing borrowed) and gives it back in its destructor (the matching
// Restore; destructors never throw, a restore error is ignored). Every borrow in inertia goes
// through one of these; nothing pairs Get/Restore calls by hand. Guards are move-only: a moved-from
// guard gives back nothing, and a move assignment first gives back what the target held.
//
//   guard          borrows                                      entries
//   ConstArray     VecGetArrayRead                              owned, read
//   Array          VecGetArray                                  owned, read-write
//   LocalForm      VecGhostGetLocalForm                         the local Vec (owned + ghosts)
//   GhostedRead    ghost update, local form, VecGetArrayRead    owned + ghosts (updated), read
//   GhostedArray   local form, VecGetArray (no ghost update)    owned + ghosts, read-write
//
// The local form shares its global vector's storage: entry i < local size is owned entry i, the
// ghosts follow in the order given at VecCreateGhost(Block). Scope a guard in a block that ends
// before the vector is used as a whole again, e.g. before the reverse ghost update that sums what
// was written into the local form:
//
//     {
//       petsc::GhostedArray f(contribution);
//       std::ranges::fill(f.span(), 0.0);
//       ... f[3 * node + i] += ...;
//     }
//     INERTIA_PETSC(VecGhostUpdateBegin(contribution, ADD_VALUES, SCATTER_REVERSE));
//     INERTIA_PETSC(VecGhostUpdateEnd(contribution, ADD_VALUES, SCATTER_REVERSE));

namespace detail {
/// A view of a Vec's local (owned) entries for the scope of the object: VecGetArrayRead /
/// VecRestoreArrayRead (Writable false) or VecGetArray / VecRestoreArray. Move-only.
template <bool Writable>
class LocalArray {
 public:
  using Scalar = std::conditional_t<Writable, PetscScalar, const PetscScalar>;

  explicit LocalArray(Vec v) : v_(v) {
    INERTIA_PETSC(VecGetLocalSize(v_, &size_));  // first: a throw after the Get would leak it
    if constexpr (Writable)
      INERTIA_PETSC(VecGetArray(v_, &data_));
    else
      INERTIA_PETSC(VecGetArrayRead(v_, &data_));
  }
  LocalArray(const LocalArray&) = delete;
  LocalArray& operator=(const LocalArray&) = delete;
  LocalArray(LocalArray&& o) noexcept
      : v_(std::exchange(o.v_, nullptr)),
        data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)) {}
  LocalArray& operator=(LocalArray&& o) noexcept {
    if (this != &o) {
      release();
      v_ = std::exchange(o.v_, nullptr);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  ~LocalArray() { release(); }
  Scalar* data() const { return data_; }
  std::span<Scalar> span() const { return {data_, static_cast<std::size_t>(size_)}; }
  Scalar& operator[](PetscInt i) const { return data_[i]; }
  PetscInt size() const { return size_; }

 private:
  void release() noexcept {
    if (v_) {
      if constexpr (Writable)
        (void)VecRestoreArray(v_, &data_);
      else
        (void)VecRestoreArrayRead(v_, &data_);
    }
    v_ = nullptr;
  }
  Vec v_;
  Scalar* data_ = nullptr;
  PetscInt size_ = 0;
};
}  // namespace detail

/// Read-only view of a Vec's local (owned) entries for the scope of the object.
using ConstArray = detail::LocalArray<false>;
/// Read-write view of a Vec's local (owned) entries for the scope of the object.
using Array = detail::LocalArray<true>;

/// The local form of a ghosted Vec for the scope of the object (VecGhostGetLocalForm): a
/// sequential Vec of the owned entries followed by the ghost entries, sharing the global vector's
/// storage. Its ghost entries are as last updated: no scatter here (see GhostedRead). The
/// constructor throws only on a PETSc error, not when `v` is not ghosted: then get() is null, so
/// a caller can fall back to a ghosted copy:
///
///     petsc::LocalForm xl(x);
///     if (!xl) {  // x is a plain MPI vector: work on a ghosted copy
///       INERTIA_PETSC(VecCopy(x, x_ghosted));
///       xl = petsc::LocalForm(x_ghosted);
///     }
///     Vec xg = xl.global();  // x or x_ghosted, for the ghost updates
///
/// A sequential Vec is its own local form (PETSc's rule).
class LocalForm {
 public:
  explicit LocalForm(Vec v) : v_(v) { INERTIA_PETSC(VecGhostGetLocalForm(v_, &local_)); }
  LocalForm(const LocalForm&) = delete;
  LocalForm& operator=(const LocalForm&) = delete;
  LocalForm(LocalForm&& o) noexcept
      : v_(std::exchange(o.v_, nullptr)), local_(std::exchange(o.local_, nullptr)) {}
  LocalForm& operator=(LocalForm&& o) noexcept {
    if (this != &o) {
      release();
      v_ = std::exchange(o.v_, nullptr);
      local_ = std::exchange(o.local_, nullptr);
    }
    return *this;
  }
  ~LocalForm() { release(); }
  /// The local form; null if the vector is not ghosted.
  Vec get() const { return local_; }
  /// The global vector it was borrowed from.
  Vec global() const { return v_; }
  /// False if the vector is not ghosted (get() is null).
  explicit operator bool() const { return local_ != nullptr; }

 private:
  void release() noexcept {
    if (local_) (void)VecGhostRestoreLocalForm(v_, &local_);
    local_ = nullptr;
  }
  Vec v_;
  Vec local_ = nullptr;
};

namespace detail {
/// The local form of l, which must exist (the vector is ghosted); throws InternalError otherwise.
inline Vec ghosted_local(const LocalForm& l, const char* guard) {
  INERTIA_CHECK(l, InternalError, guard, ": the vector is not ghosted");
  return l.get();
}
/// Forward ghost update of a ghosted v (INSERT_VALUES, SCATTER_FORWARD); returns v.
inline Vec update_ghosts(Vec v) {
  INERTIA_PETSC(VecGhostUpdateBegin(v, INSERT_VALUES, SCATTER_FORWARD));
  INERTIA_PETSC(VecGhostUpdateEnd(v, INSERT_VALUES, SCATTER_FORWARD));
  return v;
}
}  // namespace detail

/// Read access to the local form (owned + ghost entries) of a ghosted Vec for the scope of the
/// object, its ghosts updated first from their owners (VecGhostUpdateBegin/End with INSERT_VALUES,
/// SCATTER_FORWARD: collective). Entry 3 l + i is component i of local node l. Throws if `v` is
/// not ghosted.
class GhostedRead {
 public:
  explicit GhostedRead(Vec v)
      : local_(detail::update_ghosts(v)), array_(detail::ghosted_local(local_, "GhostedRead")) {}
  GhostedRead(GhostedRead&&) noexcept = default;
  GhostedRead& operator=(GhostedRead&& o) noexcept {
    if (this != &o) {
      array_ = std::move(o.array_);  // the array before the local form it belongs to
      local_ = std::move(o.local_);
    }
    return *this;
  }
  const PetscScalar* data() const { return array_.data(); }
  std::span<const PetscScalar> span() const { return array_.span(); }
  const PetscScalar& operator[](PetscInt i) const { return array_[i]; }
  /// Owned + ghost entries.
  PetscInt size() const { return array_.size(); }
  /// The local form (a sequential Vec) borrowed.
  Vec local() const { return local_.get(); }

 private:
  LocalForm local_;  // constructed first, destroyed last
  ConstArray array_;
};

/// Read-write access to the local form (owned + ghost entries) of a ghosted Vec for the scope of
/// the object. No ghost update, before or after: the caller decides, e.g. zero the entries,
/// accumulate element contributions into owned and ghost entries, end the scope, then sum the
/// ghosts into their owners (VecGhostUpdateBegin/End with ADD_VALUES, SCATTER_REVERSE). Throws if
/// `v` is not ghosted.
class GhostedArray {
 public:
  explicit GhostedArray(Vec v) : local_(v), array_(detail::ghosted_local(local_, "GhostedArray")) {}
  GhostedArray(GhostedArray&&) noexcept = default;
  GhostedArray& operator=(GhostedArray&& o) noexcept {
    if (this != &o) {
      array_ = std::move(o.array_);  // the array before the local form it belongs to
      local_ = std::move(o.local_);
    }
    return *this;
  }
  PetscScalar* data() const { return array_.data(); }
  std::span<PetscScalar> span() const { return array_.span(); }
  PetscScalar& operator[](PetscInt i) const { return array_[i]; }
  /// Owned + ghost entries.
  PetscInt size() const { return array_.size(); }
  /// The local form (a sequential Vec) borrowed.
  Vec local() const { return local_.get(); }

 private:
  LocalForm local_;  // constructed first, destroyed last
  Array array_;
};

/// The state counter of a PETSc object (PetscObjectStateGet). PETSc increases it whenever the
/// object's contents change (VecRestoreArray, VecAXPY, MatAssemblyEnd, ...), so an unchanged state
/// means unchanged contents.
inline PetscObjectState object_state(PetscObject obj) {
  PetscObjectState state = 0;
  INERTIA_PETSC(PetscObjectStateGet(obj, &state));
  return state;
}
inline PetscObjectState object_state(Vec v) {
  return object_state(reinterpret_cast<PetscObject>(v));
}

/// A new vector with the same layout as `like` (VecDuplicate), zeroed.
Vector duplicate(Vec like);

/// A PETSc log event of inertia's own (shown by -log_view), registered on first use of the name.
PetscLogEvent log_event(const char* name);

}  // namespace inertia::petsc
