#include "inertia/parallel/session.hpp"

#include <petscsys.h>

#include <cstdint>
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
  if (!initialized) check_mpi(MPI_Init(argc, argv), "MPI_Init");
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
