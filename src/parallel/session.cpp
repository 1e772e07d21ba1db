#include "inertia/parallel/session.hpp"

#include <petscsys.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/interrupt.hpp"
#include "inertia/parallel/petsc.hpp"

namespace inertia {

namespace {

/// The first message of the PETSc error being propagated (PETSc calls the handler once per
/// stack frame; the innermost call carries the specific message).
thread_local std::string petsc_message;

PetscErrorCode record_petsc_error(MPI_Comm, int, const char* function, const char*,
                                  PetscErrorCode code, PetscErrorType type, const char* message,
                                  void*) {
  if (type == PETSC_ERROR_INITIAL) petsc_message = message ? message : "";
  (void)function;
  return code;
}

class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
};

/// PETSc's arrays on 64-byte boundaries (PETSc's own alignment here is 16). The BLAS kernels
/// under PETSc and MUMPS (OpenBLAS's AVX2 and AVX-512 ones) sum in an order that follows an
/// array's alignment, and a 16-byte-aligned allocation lands on a 64-byte boundary or not as
/// the address space's randomisation falls: two runs of one case differed in the last digits,
/// and a restart did not repeat the uninterrupted run bit for bit. Each block keeps its size in
/// a 64-byte header (for realloc).
constexpr std::size_t petsc_alignment = 64;

PetscErrorCode aligned_malloc(std::size_t n, PetscBool clear, int, const char[], const char[],
                              void** result) {
  *result = nullptr;
  if (n == 0) return 0;
  const std::size_t total = (n + 2 * petsc_alignment - 1) / petsc_alignment * petsc_alignment;
  auto* raw = static_cast<unsigned char*>(std::aligned_alloc(petsc_alignment, total));
  if (!raw) return PETSC_ERR_MEM;
  *reinterpret_cast<std::size_t*>(raw) = n;
  if (clear) std::memset(raw + petsc_alignment, 0, n);
  *result = raw + petsc_alignment;
  return 0;
}

PetscErrorCode aligned_free(void* p, int, const char[], const char[]) {
  if (p) std::free(static_cast<unsigned char*>(p) - petsc_alignment);
  return 0;
}

PetscErrorCode aligned_realloc(std::size_t n, int line, const char fn[], const char file[],
                               void** p) {
  void* fresh = nullptr;
  if (n > 0) {
    PetscErrorCode ierr = aligned_malloc(n, PETSC_FALSE, line, fn, file, &fresh);
    if (ierr) return ierr;
    if (*p) {
      const std::size_t old =
          *reinterpret_cast<const std::size_t*>(static_cast<unsigned char*>(*p) - petsc_alignment);
      std::memcpy(fresh, *p, std::min(old, n));
    }
  }
  aligned_free(*p, line, fn, file);
  *p = fresh;
  return 0;
}

}  // namespace

Session::Session(int* argc, char*** argv, const std::vector<std::string>& petsc_args) {
  args_.push_back(*argc > 0 ? (*argv)[0] : "inertia");
  args_.insert(args_.end(), petsc_args.begin(), petsc_args.end());
  for (auto& a : args_) argv_.push_back(a.data());
  argv_.push_back(nullptr);
  int n = static_cast<int>(args_.size());
  char** v = argv_.data();
  // MPI first, so that PETSc does not own (and finalise) it before our handles are gone.
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    const ThreadsWithoutSignals masked;  // SIGTERM and SIGINT reach the main thread only
    check_mpi(MPI_Init(argc, argv), "MPI_Init");
  }
  PetscMallocSet(aligned_malloc, aligned_free, aligned_realloc);
  PetscErrorCode ierr = PetscInitialize(&n, &v, nullptr, nullptr);
  if (ierr) throw Error("PETSc initialisation failed");
  // inertia reports errors itself, once, as exceptions with context.
  PetscPushErrorHandler(record_petsc_error, nullptr);
  // Floating-point traps off; signal handling back to the defaults so a kill is a kill.
  PetscPopSignalHandler();
}

Session::~Session() {
  PetscFinalize();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

std::string broadcast_string(MPI_Comm comm, std::string s, int root) {
  auto n = static_cast<std::int64_t>(s.size());
  check_mpi(MPI_Bcast(&n, 1, MPI_INT64_T, root, comm), "MPI_Bcast");
  s.resize(static_cast<std::size_t>(n));
  check_mpi(MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, root, comm), "MPI_Bcast");
  return s;
}

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, text, &len);
  throw Error(cat("MPI call failed: ", call, ": ", std::string(text, len)));
}

bool all_true(MPI_Comm comm, bool value) {
  int local = value ? 1 : 0, global = 0;
  INERTIA_MPI(MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, comm));
  return global == 1;
}

void rethrow_collectively(MPI_Comm comm, std::exception_ptr error) {
  const int rank = rank_of(comm), size = size_of(comm);
  int kind = 0;  // 0 none, 1 input, 2 solver, 3 other, 4 + signal: interrupted
  std::string message;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const Interrupted& e) {
      kind = 4 + e.signal(), message = e.what();
    } catch (const InputError& e) {
      kind = 1, message = e.what();
    } catch (const SolverError& e) {
      kind = 2, message = e.what();
    } catch (const std::exception& e) {
      kind = 3, message = e.what();
    } catch (...) {
      kind = 3, message = "unknown error";
    }
  }
  int candidate = kind ? rank : size, first = size;
  INERTIA_MPI(MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) return;
  std::int64_t len = static_cast<std::int64_t>(message.size());
  INERTIA_MPI(MPI_Bcast(&kind, 1, MPI_INT, first, comm));
  INERTIA_MPI(MPI_Bcast(&len, 1, MPI_INT64_T, first, comm));
  message.resize(static_cast<std::size_t>(len));
  INERTIA_MPI(MPI_Bcast(message.data(), static_cast<int>(len), MPI_CHAR, first, comm));
  if (kind == 1) throw InputError(message);
  if (kind == 2) throw SolverError(message);
  if (kind >= 4) throw Interrupted(kind - 4, message);
  throw Error(message);
}

void stop_if_interrupted(MPI_Comm comm, std::string_view where) {
  int signal = interrupt_signal();
  INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, &signal, 1, MPI_INT, MPI_MAX, comm));
  if (signal) throw Interrupted(signal, interrupted_message(signal, where));
}

std::ostream& root_out(MPI_Comm comm) {
  static NullBuffer null_buffer;
  static std::ostream null_stream(&null_buffer);
  return rank_of(comm) == 0 ? std::cout : null_stream;
}

void throw_petsc_error(PetscErrorCode code, const char* call, const char* file, int line) {
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  std::string what = petsc_message;
  petsc_message.clear();
  // One line: PETSc's messages may span several.
  std::string flat;
  for (char ch : what) {
    if (ch == '\n' || ch == '\t') ch = ' ';
    if (ch == ' ' && (flat.empty() || flat.back() == ' ')) continue;
    flat.push_back(ch);
  }
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  what = flat;
  throw SolverError(cat("PETSc: ", text ? text : "error", what.empty() ? "" : ": ", what, " (in ",
                        call, ", ", file, ":", line, ")"));
}

namespace petsc {

PetscLogEvent log_event(const char* name) {
  static PetscClassId id = 0;
  if (!id) INERTIA_PETSC(PetscClassIdRegister("inertia", &id));
  PetscLogEvent e = 0;
  INERTIA_PETSC(PetscLogEventRegister(name, id, &e));
  return e;
}

Vector duplicate(Vec like) {
  Vector v;
  INERTIA_PETSC(VecDuplicate(like, v.out()));
  INERTIA_PETSC(VecZeroEntries(v));
  return v;
}

}  // namespace petsc

}  // namespace inertia
