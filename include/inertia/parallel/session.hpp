#pragma once
/// \file session.hpp
/// MPI + PETSc lifetime, collective error handling and rank-0 logging.

#include <mpi.h>

#include <exception>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace inertia {

/// Initialises MPI and PETSc for the scope of the object and finalises them after.
/// `petsc_args` go to PETSc's options database (the command line after the case file).
/// PETSc's error printing is switched off: inertia reports errors itself, once.
class Session {
 public:
  Session(int* argc, char*** argv, const std::vector<std::string>& petsc_args);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

 private:
  std::vector<std::string> args_;
  std::vector<char*> argv_;
};

int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

/// Collective: `s` of rank `root` on every rank.
std::string broadcast_string(MPI_Comm comm, std::string s, int root = 0);

/// Collective. True on every rank iff `value` is true on every rank.
bool all_true(MPI_Comm comm, bool value);

/// Collective. If `error` is non-null on any rank, every rank throws the same exception type
/// (InputError, SolverError, Interrupted with its signal, or Error) with the message of the
/// lowest failing rank. Returns
/// normally on every rank otherwise. Use it to fail together after rank-local work.
void rethrow_collectively(MPI_Comm comm, std::exception_ptr error);

/// Collective. If any rank received SIGTERM or SIGINT (core/interrupt.hpp), every rank throws
/// Interrupted(interrupted_message(signal, where)) (the highest signal number of those received).
/// Call it where every rank passes: a signal delivered to one rank only stops them all there.
void stop_if_interrupted(MPI_Comm comm, std::string_view where);

/// Collective. Runs f() on every rank and fails together if any rank threw.
template <typename F>
void run_collectively(MPI_Comm comm, F&& f) {
  std::exception_ptr error;
  try {
    f();
  } catch (...) {
    error = std::current_exception();
  }
  rethrow_collectively(comm, error);
}

/// Collective. Runs f() on rank 0 only; the other ranks throw too if it threw.
template <typename F>
void run_on_root(MPI_Comm comm, F&& f) {
  std::exception_ptr error;
  if (rank_of(comm) == 0) {
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
  }
  rethrow_collectively(comm, error);
}

/// std::cout on rank 0 of comm, a null stream elsewhere.
std::ostream& root_out(MPI_Comm comm);

/// Checks an MPI return code; throws Error naming the call.
void check_mpi(int code, const char* call);

}  // namespace inertia

#define INERTIA_MPI(...) ::inertia::check_mpi((__VA_ARGS__), #__VA_ARGS__)
