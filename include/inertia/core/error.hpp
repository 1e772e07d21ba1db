#pragma once
/// \file error.hpp
/// Error classes and check helpers. No MPI, no PETSc.
///
/// Every error a user can cause (bad case file, bad mesh, bad numbers) is an InputError whose
/// what() is one line naming the file, key or mesh entity and what is wrong. SolverError is for
/// numerical failures (diverged solve). Error is the base for everything inertia throws.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace inertia {

/// Base class of every exception inertia throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input from the user: case file, mesh file, command line. One line, names the culprit.
class InputError : public Error {
 public:
  using Error::Error;
};

/// A numerical failure: diverged linear or nonlinear solve, non-finite state.
class SolverError : public Error {
 public:
  using Error::Error;
};

/// An internal invariant was violated (a bug in inertia, not in the input).
class InternalError : public Error {
 public:
  using Error::Error;
};

/// Concatenates any streamable values into a string: cat("node ", 12, " at ", 0.5).
template <typename... Args>
std::string cat(Args&&... args) {
  std::ostringstream out;
  out.precision(10);
  (out << ... << std::forward<Args>(args));
  return out.str();
}

}  // namespace inertia

/// Throws ErrorType(cat(message...)) when cond is false.
#define INERTIA_CHECK(cond, ErrorType, ...)                    \
  do {                                                         \
    if (!(cond)) throw ErrorType(::inertia::cat(__VA_ARGS__)); \
  } while (false)

/// Internal invariant; throws InternalError with the location.
#define INERTIA_ASSERT(cond)                                                     \
  do {                                                                           \
    if (!(cond))                                                                 \
      throw ::inertia::InternalError(                                            \
          ::inertia::cat(__FILE__, ":", __LINE__, ": internal error: ", #cond)); \
  } while (false)
